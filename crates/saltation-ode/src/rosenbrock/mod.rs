//! The modified Rosenbrock 2(3) W-method of Shampine & Reichelt (1997, "The MATLAB ODE suite",
//! SIAM J. Sci. Comput. 18(1), §3), MATLAB's `ode23s`.
//!
//! - [`attempt`]: the stages, the new state and the error estimate of one step.
//! - [`stability`]: its linear stability function (L-stable with the exact Jacobian),
//!   re-exported as [`stability_function`].
//!
//! ## The stepper
//! A new Jacobian `J = ∂f/∂y` and `T = ∂f/∂t` (the system's own or forward differences) are
//! evaluated at the start of every step, as in `ode23s`, and kept for the step's rejected
//! attempts (they belong to `(t_n, y_n)`); each attempt factors `W = M − h d J` once (one real
//! LU) and solves three times with it. (The method is a W-method: with an older `J` it stays of
//! order 2, but the error estimate is of third order only with the current one, which is why it
//! is refreshed.) `F₂ = f(t_{n+1}, y_{n+1})` is the next step's `F₀`: two evaluations of `f` per
//! attempt besides the Jacobian's.
//!
//! The error estimate `(h/6)(k₁ − 2k₂ + k₃)` (of the second-order solution) is controlled with
//! the crate's weights and norm; the next step is `h · min(max_growth, max(min_shrink,
//! safety · err^(−1/3)))`. With `h_fixed` the steps are constant and unchecked.
//!
//! ## Dense output
//! The free interpolant (Shampine & Reichelt 1997, §3), second order:
//! `y(t_n + s h) = y_n + h (s(1−s)/(1−2d) k₁ + s(s−2d)/(1−2d) k₂)`.
//!
//! ## Mass matrix
//! A constant nonsingular `M` is supported, as in `ode23s`; a singular one (a DAE) is
//! [`OdeError::MassMatrixUnsupported`]. [`Stepper::ends`] reports derivatives `y' = M⁻¹ f`.

mod attempt;
mod stability;

#[allow(unused_imports)] // for the lecture figures (wired into `crate::stability`)
pub use stability::stability_function;

use crate::control::{controlled_dims, initial_step};
use crate::linalg::{JacobianWork, Lu};
use crate::sdirk::mass::Mass;
use crate::sdirk::step::step_ratio;
use crate::step_state::{state_accessors, Failure, StepState};
use crate::stepper::{all_finite, check_initial, first_step, initial_rhs, zeroed, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use std::f64::consts::SQRT_2;

/// `d = 1/(2 + √2)`.
pub(crate) const D: f64 = 1.0 / (2.0 + SQRT_2);
/// `e₃₂ = 6 + √2`.
pub(crate) const E32: f64 = 6.0 + SQRT_2;

/// Consecutive singular iteration matrices tolerated (each halving the step).
const MAX_SINGULAR: usize = 8;

/// The Rosenbrock 2(3) W-method with its free interpolant (MATLAB `ode23s`).
#[derive(Debug, Clone, Default)]
pub struct Rosenbrock23 {
    /// The current point, the last step's start and the next step size; `f` and `f_prev` are
    /// `y' = M⁻¹ f` at `t` and `t_prev` (for [`Stepper::ends`]).
    state: StepState,
    /// `F₀ = f(t, y)`.
    f0: Vec<f64>,
    k1: Vec<f64>,
    k2: Vec<f64>,
    k3: Vec<f64>,
    mk1: Vec<f64>,
    f1: Vec<f64>,
    f2: Vec<f64>,
    ytmp: Vec<f64>,
    ynew: Vec<f64>,
    /// `∂f/∂t` (the state part; zero for the variational columns).
    tdot: Vec<f64>,
    jw: JacobianWork,
    lu: Lu,
    mass: Mass,
    /// Whether `J` and `T` belong to the current point.
    jac_current: bool,
    /// The last attempt was rejected (the next step does not grow).
    rejected_last: bool,
}

impl Rosenbrock23 {
    /// A fresh stepper (workspace sized on start).
    pub fn new() -> Self {
        Self::default()
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.state.h
    }

    /// Moves to the accepted attempt's end.
    fn accept(&mut self, h: f64, t_new: f64, stats: &mut Stats) -> Result<(), OdeError> {
        let st = &mut self.state;
        st.shift(t_new);
        std::mem::swap(&mut st.y, &mut self.ynew);
        std::mem::swap(&mut self.f0, &mut self.f2);
        if !all_finite(&st.y) || !all_finite(&self.f0) {
            return Err(OdeError::NonFinite { t: st.t_prev, h });
        }
        self.mass.derivative(&self.jw, &self.f0, &mut st.f);
        self.jac_current = false;
        stats.steps += 1;
        Ok(())
    }
}

impl Stepper for Rosenbrock23 {
    fn name(&self) -> &'static str {
        "rosenbrock23"
    }

    fn order(&self) -> u32 {
        2
    }

    fn is_adaptive(&self) -> bool {
        !self.state.fixed
    }

    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        check_initial(sys, t, y)?;
        let len = sys.dim();
        self.jw.setup(sys)?;
        // Sized now, so that the steps do not allocate.
        self.lu.matrix_mut(self.jw.n());
        self.mass = Mass::classify(&self.jw);
        if self.mass.is_singular() {
            return Err(OdeError::MassMatrixUnsupported {
                method: "rosenbrock23",
                reason: "needs a nonsingular mass matrix (as MATLAB's ode23s); \
                         use trapezoid, radau5 or ndf for a differential-algebraic system",
            });
        }
        self.state.resize(len);
        zeroed(
            [
                &mut self.f0,
                &mut self.k1,
                &mut self.k2,
                &mut self.k3,
                &mut self.mk1,
                &mut self.f1,
                &mut self.f2,
                &mut self.ytmp,
                &mut self.ynew,
                &mut self.tdot,
            ],
            len,
        );
        let st = &mut self.state;
        st.place(t, y);
        initial_rhs(sys, t, y, &mut self.f0, stats)?;
        self.mass.derivative(&self.jw, &self.f0, &mut st.f);
        st.f_prev.copy_from_slice(&st.f);
        st.f_stale = false;
        self.jac_current = false;
        self.rejected_last = false;
        st.fixed = opts.h_fixed.is_some();
        let (ynew, f2) = (&mut self.ynew, &mut self.f2);
        st.h = first_step(opts, || {
            let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
            stats.rhs_evals += 1;
            initial_step(&mut rhs, t, &st.y, &st.f, 2, opts, ynew, f2)
        });
        st.started = true;
        Ok(())
    }

    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.state.ensure_started()?;
        let st = &mut self.state;
        if st.f_stale {
            sys.rhs(st.t, &st.y, &mut self.f0);
            stats.rhs_evals += 1;
            if !all_finite(&self.f0) {
                return Err(OdeError::NonFinite { t: st.t, h: st.h });
            }
            self.mass.derivative(&self.jw, &self.f0, &mut st.f);
            st.f_prev.copy_from_slice(&st.f);
            st.f_stale = false;
        }
        if !self.jac_current {
            self.jw.evaluate(sys, st.t, &st.y, &self.f0, stats)?;
            let n = self.jw.n();
            self.jw
                .time_derivative(sys, st.t, &st.y, &self.f0, &mut self.tdot[..n], stats);
            self.jac_current = true;
        }
        let m = controlled_dims(opts, st.n);
        let mut singular = 0;
        loop {
            let (h, last, t_new) = self.state.clip(self.state.h, t_stop, opts);
            if self
                .jw
                .factor_real(&mut self.lu, 1.0, -h * D, stats)
                .is_err()
            {
                stats.rejected_steps += 1;
                singular += 1;
                if singular > MAX_SINGULAR {
                    return Err(Failure::Singular.error(self.state.t, h));
                }
                self.state.retry_smaller(h, 0.5, Failure::Singular, opts)?;
                self.rejected_last = true;
                continue;
            }
            let err = self.attempt(sys, h, t_new, m, opts, stats);
            if self.state.fixed {
                if err.is_nan() || !all_finite(&self.ynew) {
                    return Err(OdeError::NonFinite { t: self.state.t, h });
                }
            } else if !(err <= 1.0) {
                let h_next = h * step_ratio(err, 1.0 / 3.0, opts, true, false);
                self.state.reject(err, h, h_next, opts, stats)?;
                self.rejected_last = true;
                continue;
            }
            self.accept(h, t_new, stats)?;
            if !self.state.fixed && !last {
                self.state.h = h * step_ratio(err, 1.0 / 3.0, opts, self.rejected_last, false);
            }
            self.rejected_last = false;
            return Ok(());
        }
    }

    state_accessors!(state);

    /// The free interpolant `y_n + h (s(1−s)/(1−2d) k₁ + s(s−2d)/(1−2d) k₂)`.
    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        _sys: &S,
        t: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) {
        let st = &self.state;
        let h = st.t - st.t_prev;
        if h == 0.0 {
            st.copy_y(out);
            return;
        }
        let s = (t - st.t_prev) / h;
        let c1 = h * s * (1.0 - s) / (1.0 - 2.0 * D);
        let c2 = h * s * (s - 2.0 * D) / (1.0 - 2.0 * D);
        for (((o, y0), k1), k2) in out[..st.n]
            .iter_mut()
            .zip(&st.y_prev)
            .zip(&self.k1)
            .zip(&self.k2)
        {
            *o = y0 + c1 * k1 + c2 * k2;
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // F₀, y', J and T at the new point are evaluated by the next step.
        self.state.truncate(t, y);
        self.jac_current = false;
        self.rejected_last = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_and_interpolant_ends() {
        assert!((1.0 / D - (2.0 + SQRT_2)).abs() < 1e-15);
        assert!((E32 - (6.0 + SQRT_2)).abs() < 1e-15);
        // Weights of k₁ and k₂ in the interpolant: (0, 0) at s = 0 and (0, 1) at s = 1, where
        // y_{n+1} = y_n + h k₂.
        let w = |s: f64| {
            (
                s * (1.0 - s) / (1.0 - 2.0 * D),
                s * (s - 2.0 * D) / (1.0 - 2.0 * D),
            )
        };
        assert_eq!(w(0.0), (0.0, 0.0));
        let (a, b) = w(1.0);
        assert!(a.abs() < 1e-15 && (b - 1.0).abs() < 1e-15);
    }
}
