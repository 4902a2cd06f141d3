//! Step control of the second-order one-step stiff methods, and the stepping machinery the
//! trapezoidal rule and TR-BDF2 share ([`Core`]).
//!
//! ## Step-size controller
//! With `err = ‖e / w‖` the scaled local error estimate of a method of order `p` (estimate of
//! order `p + 1`), the next step is the elementary controller (Hairer, Nørsett & Wanner,
//! *Solving ODEs I*, §II.4)
//!
//! ```text
//!     h_new = h · min(max_growth, max(min_shrink, safety · (1 / err)^(1/(p+1)))),
//! ```
//!
//! `p = 2` (exponent 1/3; 1/2 for the first-order estimate of the trapezoidal code's start step).
//! After a rejection the step does not grow; a NaN error shrinks by `min_shrink`. The implicit
//! codes keep `h` when the proposal is within `[1, 1.2]` of it, so that the factored iteration
//! matrix can be reused (as MATLAB's `ode23t` and `ode23tb` do).
//!
//! ## Tolerance proportionality
//! Controlling the error per step, `‖le_n‖ ≤ tol`, a method of order `p` reaches a global error
//! of about `N tol` after `N ∝ tol^{−1/(p+1)}` steps when the local errors add up coherently,
//! i.e. `tol^{p/(p+1)}`: the error in units of `tol` grows like `tol^{−1/(p+1)}` as `tol`
//! shrinks (the lack of "tolerance proportionality", Stetter 1980, "Tolerance proportionality
//! in ODE-codes"). For the order-2 methods that is `tol^{−1/3}`, a factor of 10 from
//! `rtol = 1e-4` to `1e-7`. It was measured on the stiff test problems (HIRES, VDPOL, OREGO,
//! ROBER) with error estimates that are accurate step by step (HIRES at `rtol = 1e-7`: TR-BDF2
//! ended 1100 tolerances off). The local errors these stiffly accurate, filtered estimates
//! control lie in the smooth components, where they accumulate; a Rosenbrock method's
//! estimate, dominated by stiff components, spends its tolerance where nothing accumulates, and
//! its global error stays far below `N tol`, with the same `tol^{−1/3}` growth.
//!
//! Hairer's RADAU5 meets such a mismatch between the error controlled and the error delivered
//! by transforming the tolerances (Hairer & Wanner, *Solving ODEs II*, §IV.8: there
//! `rtol' = 0.1 rtol^{2/3}`, the identity at `rtol = 10⁻³`). Here the local error is held to
//! `s · tol` with
//!
//! ```text
//!     s = min(1, sqrt(τ / τ₀)),        τ₀ = 10⁻³,
//! ```
//!
//! `τ` = `rtol` (or the first `atol` when `rtol = 0`): `N s tol ∝ (s tol)^{2/3} ∝ tol` for
//! `p = 2`, so the global error is proportional to the tolerance below `τ₀` (MATLAB's default
//! `RelTol`, the range the `ode23t`/`ode23tb` analogues are meant for), and the tolerances at and
//! above `τ₀` are left as given. `s τ` is kept at least `100 ε` (no tolerance below rounding
//! is made up). The cost: `s^{−1/3}` times the steps, 1.5 at `rtol = 1e-4`, 4.6 at `1e-7`.

use super::mass::Mass;
use super::newton::{newton_weights, Iteration, NewtonSettings, Outcome, FIXED_STEP_MAX_ITERS};
use crate::control::{controlled_dims, initial_step, weight, NormAcc};
use crate::options::Atol;
use crate::step_state::{Failure, StepState};
use crate::stepper::{all_finite, check_initial, initial_rhs, zeroed};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// `τ₀`: the tolerance level at and above which [`tolerance_scale`] is 1.
pub(crate) const TOL_REFERENCE: f64 = 1e-3;

/// Consecutive singular iteration matrices tolerated (each halving the step) before
/// [`OdeError::SingularMatrix`].
const MAX_SINGULAR: usize = 8;

/// Factor `h_new / h` for the error `err` with exponent `1/(p+1) = exponent`. `after_reject`:
/// the last attempt was rejected (no growth); `hold`: keep `h` for proposals in `[1, 1.2]`.
pub(crate) fn step_ratio(
    err: f64,
    exponent: f64,
    opts: &SolverOptions,
    after_reject: bool,
    hold: bool,
) -> f64 {
    if err.is_nan() {
        return opts.min_shrink;
    }
    let raw = opts.safety * err.powf(-exponent);
    let mut r = if raw.is_nan() {
        opts.min_shrink
    } else {
        raw.clamp(opts.min_shrink, opts.max_growth)
    };
    if err <= 1.0 {
        if after_reject {
            r = r.min(1.0);
        }
        if hold && (1.0..=1.2).contains(&r) {
            r = 1.0;
        }
    }
    r
}

/// The tolerance scale `s = min(1, sqrt(τ/τ₀))` of the order-2 methods (module docs), with
/// `s τ ≥ 100 ε`.
pub(crate) fn tolerance_scale(opts: &SolverOptions) -> f64 {
    let level = if opts.rtol > 0.0 {
        opts.rtol
    } else {
        opts.atol.get(0)
    };
    let s = (level / TOL_REFERENCE)
        .sqrt()
        .max(100.0 * f64::EPSILON / level);
    if s.is_finite() {
        s.min(1.0)
    } else {
        1.0
    }
}

/// `opts` with `rtol` and `atol` multiplied by `scale` (allocates for a vector `atol`: for the
/// start only).
fn scaled_options(opts: &SolverOptions, scale: f64) -> SolverOptions {
    let atol = match &opts.atol {
        Atol::Scalar(a) => Atol::Scalar(scale * a),
        Atol::Vector(v) => Atol::Vector(v.iter().map(|a| scale * a).collect()),
    };
    SolverOptions {
        rtol: scale * opts.rtol,
        atol,
        ..opts.clone()
    }
}

/// What the attempt loop of a step does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on with this attempt.
    Go,
    /// Start the attempt again (with the step size now in [`StepState::h`]).
    Retry,
}

/// The state and work both steppers share: the current point and the last step's ends (with
/// the derivative `y'` they report), `f` at the current point, the Newton iteration with its
/// Jacobian and factorization, the mass matrix, and the scratch vectors of the stage solves.
/// Every vector has the full state length.
#[derive(Debug, Clone, Default)]
pub(crate) struct Core {
    /// The current point, the last step's start and the next step size; `f` and `f_prev` are
    /// the derivatives reported by `ends` (`y'`, or `f` where `M⁻¹ f` is not available).
    pub state: StepState,
    /// `f(t, y)` when `f_now_valid`.
    pub f_now: Vec<f64>,
    pub f_now_valid: bool,
    /// The last attempt was rejected (the next step does not grow).
    pub rejected_last: bool,
    /// Newton failures with a Jacobian from the current point in the current step.
    pub failures: usize,
    /// The known part `v` of a stage, the new state, and scratch for `f` and residuals.
    pub v: Vec<f64>,
    pub ynew: Vec<f64>,
    pub fbuf: Vec<f64>,
    pub res: Vec<f64>,
    /// Newton weights of the controlled components (scaled by `scale`).
    pub wt: Vec<f64>,
    /// Number of controlled components of the current step.
    pub m: usize,
    /// Tolerance scale `s` of the current step ([`tolerance_scale`]).
    pub scale: f64,
    pub it: Iteration,
    pub mass: Mass,
    pub set: Option<NewtonSettings>,
}

impl Core {
    /// Checks the initial data and reads the system's Jacobian structure and mass matrix (rows
    /// of the iteration matrix scaled for a singular one).
    pub(crate) fn setup<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
    ) -> Result<(), OdeError> {
        self.state.started = false;
        check_initial(sys, t, y)?;
        self.it.setup(sys, false)?;
        self.mass = Mass::classify(&self.it.jw);
        if self.mass.is_singular() {
            self.it.setup(sys, true)?;
        }
        Ok(())
    }

    /// Sizes the shared vectors, sits at `(t, y)` with `f(t, y)` evaluated, and takes the
    /// Newton settings and the tolerance scale of `opts`.
    pub(crate) fn begin<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let len = y.len();
        self.state.resize(len);
        zeroed(
            [
                &mut self.f_now,
                &mut self.v,
                &mut self.ynew,
                &mut self.fbuf,
                &mut self.res,
                &mut self.wt,
            ],
            len,
        );
        self.state.place(t, y);
        initial_rhs(sys, t, y, &mut self.f_now, stats)?;
        self.f_now_valid = true;
        self.state.f_stale = false;
        self.rejected_last = false;
        self.set = Some(NewtonSettings::from_options(opts));
        self.state.fixed = opts.h_fixed.is_some();
        self.scale = tolerance_scale(opts);
        Ok(())
    }

    /// Hairer–Wanner's first step ([`initial_step`]) for a method of order `order` from the
    /// derivative `yp` (`None`: `f(t, y)`), with the scaled tolerances (one evaluation of `f`).
    pub(crate) fn first_step_estimate<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        yp: Option<&[f64]>,
        order: u32,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        let inner = scaled_options(opts, self.scale);
        let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
        stats.rhs_evals += 1;
        initial_step(
            &mut rhs,
            self.state.t,
            &self.state.y,
            yp.unwrap_or(&self.f_now),
            order,
            &inner,
            &mut self.ynew,
            &mut self.fbuf,
        )
    }

    /// Evaluates `f(t, y)` into `f_now` unless it is in hand.
    pub(crate) fn ensure_f_now<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut Stats) {
        if !self.f_now_valid {
            sys.rhs(self.state.t, &self.state.y, &mut self.f_now);
            stats.rhs_evals += 1;
            self.f_now_valid = true;
        }
    }

    /// Evaluates `J` at the current point.
    pub(crate) fn refresh_jacobian<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.ensure_f_now(sys, stats);
        let st = &self.state;
        self.it
            .refresh_jacobian(sys, st.t, &st.y, &self.f_now, stats)
    }

    /// After a truncation: evaluates `f` at the current point and the derivative `yp = M⁻¹ f`
    /// (left as it was for a singular `M`); both ends of the (empty) last step report it.
    pub(crate) fn resume<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        yp: &mut [f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let st = &mut self.state;
        if !st.f_stale {
            return Ok(());
        }
        sys.rhs(st.t, &st.y, &mut self.f_now);
        stats.rhs_evals += 1;
        if !all_finite(&self.f_now) {
            return Err(OdeError::NonFinite { t: st.t, h: st.h });
        }
        self.f_now_valid = true;
        st.f_stale = false;
        if self.mass.derivative(&self.it.jw, &self.f_now, yp) {
            st.f.copy_from_slice(yp);
        } else {
            st.f.copy_from_slice(&self.f_now);
        }
        st.f_prev.copy_from_slice(&st.f);
        Ok(())
    }

    /// Starts a step: the controlled components, the tolerance scale, the Newton weights from
    /// the current state, and a fresh `J` when `newton.jacobian_reuse` asks for one.
    pub(crate) fn prepare<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<NewtonSettings, OdeError> {
        self.state.ensure_started()?;
        // `begin` set it (before `start` completed).
        let set = self.set.ok_or(OdeError::NotStarted)?;
        self.m = controlled_dims(opts, self.state.n);
        self.scale = tolerance_scale(opts);
        newton_weights(opts, self.scale, &self.state.y, &mut self.wt[..self.m]);
        if self.mass.is_singular() {
            // An algebraic equation couples the components (ROBER's 0 = y1 + y2 + y3 − 1): its
            // residual, and so the Newton correction of a small component, carries the rounding
            // of the largest one. A weight below that level asks the iteration for a
            // correction it cannot resolve, at any step size (ROBER at rtol 1e-8, atol 1e-14:
            // the scaled atol is ~1e-17 while y1 ≈ 1): floored at 16 ε ‖y‖∞.
            let floor =
                16.0 * f64::EPSILON * self.state.y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for w in &mut self.wt[..self.m] {
                *w = w.max(floor);
            }
        }
        self.failures = 0;
        if self.it.begin_step(&set) {
            self.refresh_jacobian(sys, stats)?;
        }
        Ok(set)
    }

    /// Factors `W = M − g h J` (`gh = g h`). A singular `W` is retried with a fresh `J`, then
    /// with halved steps, at most [`MAX_SINGULAR`] times per step (`singular` counts them)
    /// before [`OdeError::SingularMatrix`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn factor<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        gh: f64,
        h: f64,
        singular: &mut usize,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<Flow, OdeError> {
        if self.it.factor(gh, stats).is_ok() {
            return Ok(Flow::Go);
        }
        stats.rejected_steps += 1;
        *singular += 1;
        if !self.it.jacobian_is_current() {
            self.refresh_jacobian(sys, stats)?;
            return Ok(Flow::Retry);
        }
        if *singular > MAX_SINGULAR {
            return Err(Failure::Singular.error(self.state.t, h));
        }
        self.state.retry_smaller(h, 0.5, Failure::Singular, opts)?;
        self.rejected_last = true;
        Ok(Flow::Retry)
    }

    /// What follows a stage solve's `outcome` for a step of size `h`. A non-finite `f` shrinks
    /// the step by `min_shrink`. A failed iteration refreshes `J` if it is not from the current
    /// point, else (with `h_fixed`) allows [`FIXED_STEP_MAX_ITERS`] iterations once, else shrinks
    /// the step by `max(0.3, min_shrink)`; at the step floor the step fails
    /// ([`OdeError::NonFinite`], [`OdeError::NewtonFailed`]).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn after_stages<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        outcome: Outcome,
        h: f64,
        opts: &SolverOptions,
        set: &mut NewtonSettings,
        stats: &mut Stats,
    ) -> Result<Flow, OdeError> {
        match outcome {
            Outcome::Converged => Ok(Flow::Go),
            Outcome::NonFinite => {
                stats.rejected_steps += 1;
                self.state
                    .retry_smaller(h, opts.min_shrink, Failure::NonFinite, opts)?;
                self.rejected_last = true;
                Ok(Flow::Retry)
            }
            Outcome::Failed => {
                stats.newton_failures += 1;
                stats.rejected_steps += 1;
                if !self.it.jacobian_is_current() {
                    self.refresh_jacobian(sys, stats)?;
                    return Ok(Flow::Retry);
                }
                self.failures += 1;
                if self.state.fixed && set.max_iters < FIXED_STEP_MAX_ITERS {
                    set.max_iters = FIXED_STEP_MAX_ITERS;
                    return Ok(Flow::Retry);
                }
                let shrink = 0.3f64.max(opts.min_shrink);
                self.state.retry_smaller(h, shrink, Failure::Newton, opts)?;
                self.rejected_last = true;
                Ok(Flow::Retry)
            }
        }
    }

    /// The error test: `err ≤ 1` goes on; otherwise the step is rejected and retried with
    /// `h · step_ratio(err, exponent)` ([`OdeError::StepTooSmall`] below the floor,
    /// [`OdeError::NonFinite`] for a non-finite `err`).
    pub(crate) fn error_test(
        &mut self,
        err: f64,
        exponent: f64,
        h: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<Flow, OdeError> {
        if err <= 1.0 {
            return Ok(Flow::Go);
        }
        let h_next = h * step_ratio(err, exponent, opts, true, false);
        self.state.reject(err, h, h_next, opts, stats)?;
        self.rejected_last = true;
        Ok(Flow::Retry)
    }

    /// The scaled norm `‖e / (s w)‖` of the controlled components of an error estimate
    /// `e_i = est(i)`, with the weights `w_i` of `y_n` and `y_{n+1}` (`ynew`).
    pub(crate) fn error_norm(&self, opts: &SolverOptions, est: impl Fn(usize) -> f64) -> f64 {
        let mut acc = NormAcc::new(opts.norm);
        for i in 0..self.m {
            acc.add(est(i) / (self.scale * weight(opts, i, self.state.y[i], self.ynew[i])));
        }
        acc.finish()
    }

    /// Moves to the accepted step's end `(t_new, ynew)`, `yp` the new derivative `y'`: the
    /// derivative reported by `ends` is `f(t_new, y_new)` (evaluated here) when `M = I`, else
    /// `yp`.
    pub(crate) fn advance<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        yp: &[f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let st = &mut self.state;
        st.shift(t_new);
        std::mem::swap(&mut st.y, &mut self.ynew);
        if !all_finite(&st.y) {
            return Err(OdeError::NonFinite { t: st.t_prev, h });
        }
        if self.mass.kind() == super::mass::MassKind::Identity {
            sys.rhs(st.t, &st.y, &mut self.f_now);
            stats.rhs_evals += 1;
            if !all_finite(&self.f_now) {
                return Err(OdeError::NonFinite { t: st.t_prev, h });
            }
            st.f.copy_from_slice(&self.f_now);
            self.f_now_valid = true;
        } else {
            st.f.copy_from_slice(yp);
            self.f_now_valid = false;
        }
        self.it.point_moved();
        stats.steps += 1;
        Ok(())
    }

    /// The step proposed after an accepted step of size `h` with error `err` (exponent
    /// `exponent`); the last step before `t_stop` keeps the proposal.
    pub(crate) fn propose(
        &mut self,
        h: f64,
        err: f64,
        exponent: f64,
        last: bool,
        opts: &SolverOptions,
    ) {
        if !self.state.fixed && !last {
            self.state.h = h * step_ratio(err, exponent, opts, self.rejected_last, true);
        }
        self.rejected_last = false;
    }

    /// Sits at `(t, y)` after an event cut the last step: `f` there is evaluated by the next
    /// step, and `J` belongs to an earlier point.
    pub(crate) fn truncate(&mut self, t: f64, y: &[f64]) {
        self.state.truncate(t, y);
        self.f_now_valid = false;
        self.rejected_last = false;
        self.it.point_moved();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_follows_the_elementary_controller() {
        let o = SolverOptions::default();
        let third = 1.0 / 3.0;
        // err = 1/8: 0.9 · 2 = 1.8.
        assert!((step_ratio(0.125, third, &o, false, false) - 1.8).abs() < 1e-12);
        assert_eq!(step_ratio(0.0, third, &o, false, false), 10.0);
        assert_eq!(step_ratio(1e9, third, &o, false, false), 0.2);
        assert_eq!(step_ratio(f64::NAN, third, &o, false, false), 0.2);
        // No growth after a rejection, and the hold band.
        assert_eq!(step_ratio(0.125, third, &o, true, false), 1.0);
        assert_eq!(step_ratio(0.5, third, &o, false, true), 1.0);
        // A rejected step shrinks: err = 8 → 0.45.
        assert!((step_ratio(8.0, third, &o, false, true) - 0.45).abs() < 1e-12);
    }

    #[test]
    fn tolerance_scale_makes_the_global_error_proportional() {
        let at = |rtol: f64| {
            tolerance_scale(&SolverOptions {
                rtol,
                ..SolverOptions::default()
            })
        };
        // Identity at and above τ₀ = 1e-3, sqrt(τ/τ₀) below.
        assert_eq!(at(1e-3), 1.0);
        assert_eq!(at(0.05), 1.0);
        assert!((at(1e-4) - 0.1f64.sqrt()).abs() < 1e-15);
        assert!((at(1e-7) - 1e-2).abs() < 1e-15);
        // The internal tolerance s τ = τ^{3/2}/τ₀^{1/2}: the global error ∝ (s τ)^{2/3} ∝ τ.
        for rtol in [1e-4, 1e-6, 1e-8] {
            let inner = at(rtol) * rtol;
            assert!((inner.powf(2.0 / 3.0) / rtol - TOL_REFERENCE.powf(-1.0 / 3.0)).abs() < 1e-9);
        }
        // Never below 100 ε.
        assert!((at(1e-12) * 1e-12 - 100.0 * f64::EPSILON).abs() < 1e-28);
        assert_eq!(at(1e-15), 1.0);
        // rtol = 0: the first absolute tolerance stands for it.
        let abs_only = SolverOptions {
            rtol: 0.0,
            atol: Atol::Scalar(1e-5),
            ..SolverOptions::default()
        };
        assert!((tolerance_scale(&abs_only) - 0.01f64.sqrt()).abs() < 1e-15);
    }
}
