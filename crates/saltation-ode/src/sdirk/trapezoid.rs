//! The trapezoidal rule as in MATLAB's `ode23t` (Shampine, Reichelt & Kierzenka 1999, "Solving
//! index-1 DAEs in MATLAB and Simulink", SIAM Review 41(3)).
//!
//! ## Formula
//! With `z_n = h y'_n` the scaled derivative, one step from `t_n` to `t_{n+1} = t_n + h` is
//!
//! ```text
//!     y_{n+1} = y_n + (z_n + z_{n+1}) / 2,        M z_{n+1} = h f(t_{n+1}, y_{n+1}),
//! ```
//!
//! i.e. `M (y_{n+1} − y_n) = (h/2) (M y'_n + f(t_{n+1}, y_{n+1}))`, solved by the simplified Newton
//! iteration of [`super::newton`] with `W = M − (h/2) J`. The derivative `y'_{n+1} = z_{n+1}/h`
//! is the formula's own, so a singular `M` (an index-1 DAE) is allowed: its algebraic equations
//! hold at every step. The linear stability function is `R(z) = (1 + z/2) / (1 − z/2)`: A-stable
//! with `|R(−∞)| = 1`, so stiff components are not damped (the method is not L-stable).
//!
//! ## Start
//! After a (re)start the history the error estimate needs is missing. The first step is then a
//! trapezoidal step (a backward Euler step, `y_{n+1} = y_n + z_{n+1}` with `W = M − h J`, when
//! `y'_n` is unknown: at the start of a DAE, as `ode23t` always does) controlled by the estimate
//! `(1/2) W⁻¹ (M z_{n+1} − h f(t_n, y_n))` of `(h/2)(y'_{n+1} − y'_n) ≈ (h²/2) y''`, exponent
//! 1/2: the backward Euler step's local error, a conservative bound for a trapezoidal step.
//! (Filtered by `W⁻¹`, it needs no `y'_n` of the algebraic components and stays bounded for stiff
//! ones.) A point at the middle of that step is taken from its interpolant as the "previous"
//! one, and the step size is doubled. The trapezoidal start keeps the method exact for
//! quadratic solutions (a falling body), also across the restarts after events. With `h_fixed`
//! and a known `y'_0` every step is a plain trapezoidal one.
//!
//! ## Restart after repeated Newton failures
//! Since `R(−∞) = −1`, an error in a stiff component is not damped: it alternates in sign from
//! step to step ("ringing"). The quadratic predictor extrapolates such a zig-zag with a factor
//! that grows with the step ratio, and when the step grows the predicted stiff components can be
//! off by more than their size; where `f` is nonlinear in them (ROBER's `3·10⁷ y₂²` with
//! `y₂ ≈ 10⁻¹¹` at `t ≈ 10⁹`) the chord iteration with `J` of `y_n` cannot converge. Shrinking
//! the step and growing it again repeats the failure: the integration stalls. As `ode23t` does,
//! the third Newton failure within one step therefore restarts the integration with a backward
//! Euler step (`R(−∞) = 0`: the ringing is gone), of the size
//! `h · min(max_growth, max(min_shrink, safety (1/err)^{1/2}))` with
//! `err = ‖(h²/2) y''‖`, `y'' ≈ 2 y[t_{n−2}, t_{n−1}, t_n]` from the last three points, followed
//! by the doubling of the start step.
//!
//! ## Error estimate
//! The local truncation error `−(h³/12) y'''` is estimated from the third divided difference of
//! the last four solution values, `y''' ≈ 6 y[t_{n−2}, t_{n−1}, t_n, t_{n+1}]`:
//! `est = (h³/2) y[t_{n−2}, …, t_{n+1}]`, exponent 1/3 (the estimate of `ode23t`). It needs the
//! two previous points, so [`Stepper::truncate`] forgets them and the next step is a start step.
//! The local error is held to the scaled tolerance of [`super::step::tolerance_scale`], so that
//! the global error is proportional to the tolerance.
//!
//! ## Dense output
//! The free interpolant of `ode23t`: the cubic Hermite polynomial through `(y_n, z_n)` and
//! `(y_{n+1}, z_{n+1})`. For a trapezoidal step (`y_{n+1} − y_n = (z_n + z_{n+1})/2`) it reduces
//! to the quadratic `y_n + s z_n + (s²/2)(z_{n+1} − z_n)`, `s = (t − t_n)/h`: second order.
//!
//! ## Costs
//! Per step: the Newton iterations (one `f` each, 5 at most by default), one more `f` at the
//! new point when `M = I` (for [`Stepper::ends`]), an LU only when `h` or `J` changed (the step
//! is kept when the controller proposes a growth within 20%), `J` only after a Newton failure
//! (or, with `newton.jacobian_reuse = θ`, before a step whose predecessor contracted slower).

use super::newton::{Outcome, StageBuffers};
use super::step::{step_ratio, Core, Flow};
use crate::control::{weight, NormAcc};
use crate::step_state::state_accessors;
use crate::stepper::{first_step, hermite_basis, zeroed, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Newton failures with a Jacobian from the current point within one step after which the
/// integration restarts with a backward Euler step (`ode23t` restarts at its third failure, the
/// first of which is normally the one that makes it evaluate `J`).
const RESTART_AFTER_FAILURES: usize = 2;

/// `R(z) = (1 + z/2) / (1 − z/2)` of the trapezoidal rule at `z = (re, im)`.
#[allow(dead_code)] // until wired into `crate::stability`
pub fn stability_function(z: (f64, f64)) -> (f64, f64) {
    let num = (1.0 + 0.5 * z.0, 0.5 * z.1);
    let den = (1.0 - 0.5 * z.0, -0.5 * z.1);
    super::cdiv(num, den)
}

/// The trapezoidal rule with the free interpolant (MATLAB `ode23t`).
#[derive(Debug, Clone, Default)]
pub struct Trapezoid {
    core: Core,
    /// The formula's derivative `y'` at `t` and at `t_prev`.
    yp: Vec<f64>,
    yp_prev: Vec<f64>,
    /// Whether `yp` is known (not at the start of a DAE).
    yp_valid: bool,
    /// Previous points for the error estimate: `[t_{n−1}, t_{n−2}]` and their states.
    hist_t: [f64; 2],
    hist_y0: Vec<f64>,
    hist_y1: Vec<f64>,
    n_hist: usize,
    /// The next start step is a backward Euler step (a restart after Newton failures).
    damp: bool,
    /// The scaled derivative `z_{n+1}` of the step being taken.
    z: Vec<f64>,
}

impl Trapezoid {
    /// A fresh stepper (workspace sized on start).
    pub fn new() -> Self {
        Self::default()
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.core.state.h
    }

    /// The scaled norm of the start step's error estimate `(1/2) W⁻¹ (M z − h f(t_n, y_n))`
    /// (`W` factored, `f_now` valid).
    fn start_step_error(&mut self, h: f64, opts: &SolverOptions) -> f64 {
        let c = &mut self.core;
        c.it.jw.mass_times(&self.z, &mut c.res);
        for (r, f) in c.res.iter_mut().zip(&c.f_now) {
            *r = 0.5 * (*r - h * f);
        }
        c.it.solve(&mut c.res);
        c.error_norm(opts, |i| c.res[i])
    }

    /// The scaled norm of `(h³/2) y[t_{n−2}, t_{n−1}, t_n, t_{n+1}]`.
    fn trapezoid_error(&self, t_new: f64, opts: &SolverOptions) -> f64 {
        let c = &self.core;
        let tau = [self.hist_t[1], self.hist_t[0], c.state.t, t_new];
        let w = scaled_divided_difference_weights(tau, t_new - c.state.t);
        c.error_norm(opts, |i| {
            0.5 * (w[0] * self.hist_y1[i]
                + w[1] * self.hist_y0[i]
                + w[2] * c.state.y[i]
                + w[3] * c.ynew[i])
        })
    }

    /// Predictor `z` for a trapezoidal step to `t_new`: the quadratic through the last three
    /// points extrapolated (`y_pred`, then `z = 2 (y_pred − y_n) − z_n`), else `z = h y'_n`.
    fn predict(&mut self, h: f64, t_new: f64) {
        let y = &self.core.state.y;
        if self.n_hist == 2 {
            let a = lagrange_weights([self.hist_t[1], self.hist_t[0], self.core.state.t], t_new);
            for (i, (z, &yi)) in self.z.iter_mut().zip(y).enumerate() {
                let pred = a[0] * self.hist_y1[i] + a[1] * self.hist_y0[i] + a[2] * yi;
                *z = 2.0 * (pred - yi) - h * self.yp[i];
            }
        } else {
            for (z, yp) in self.z.iter_mut().zip(&self.yp) {
                *z = h * yp;
            }
        }
    }

    /// The step of the backward Euler restart from a step `h` that failed: `err = ‖(h²/2) y''‖`
    /// with `y'' = 2 y[t_{n−2}, t_{n−1}, t_n]`, exponent 1/2 (`ode23t`).
    fn restart_step(&self, h: f64, opts: &SolverOptions) -> f64 {
        let (c, st) = (&self.core, &self.core.state);
        let (t0, t1, t2) = (self.hist_t[1], self.hist_t[0], st.t);
        let w = [
            1.0 / ((t0 - t1) * (t0 - t2)),
            1.0 / ((t1 - t0) * (t1 - t2)),
            1.0 / ((t2 - t0) * (t2 - t1)),
        ];
        let mut acc = NormAcc::new(opts.norm);
        for i in 0..c.m {
            let ypp = 2.0 * (w[0] * self.hist_y1[i] + w[1] * self.hist_y0[i] + w[2] * st.y[i]);
            acc.add(0.5 * h * h * ypp / (c.scale * weight(opts, i, st.y[i], st.y[i])));
        }
        h * step_ratio(acc.finish(), 0.5, opts, false, false)
    }

    /// The derivative and history updates of an accepted step to `t_new`, then the move there.
    fn accept<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        start_step: bool,
        euler: bool,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let c = &mut self.core;
        if euler {
            // A backward Euler step (a DAE's first step, a restart): the secant for y'_n makes
            // the step's interpolant linear.
            for i in 0..c.state.n {
                self.yp[i] = (c.ynew[i] - c.state.y[i]) / h;
            }
        }
        if start_step && !c.state.fixed {
            // History [t_n + h/2, t_n] from this step's Hermite interpolant at s = 1/2.
            self.hist_y1.copy_from_slice(&c.state.y);
            for i in 0..c.state.n {
                self.hist_y0[i] =
                    0.5 * (c.state.y[i] + c.ynew[i]) + 0.125 * (h * self.yp[i] - self.z[i]);
            }
            self.hist_t = [c.state.t + 0.5 * h, c.state.t];
            self.n_hist = 2;
        } else {
            std::mem::swap(&mut self.hist_y0, &mut self.hist_y1);
            self.hist_y0.copy_from_slice(&c.state.y);
            self.hist_t = [c.state.t, self.hist_t[0]];
            self.n_hist = (self.n_hist + 1).min(2);
        }
        std::mem::swap(&mut self.yp_prev, &mut self.yp);
        for (d, z) in self.yp.iter_mut().zip(&self.z) {
            *d = z / h;
        }
        self.yp_valid = true;
        self.damp = false;
        c.advance(sys, h, t_new, &self.yp, stats)
    }
}

/// Weights `h³ c_j = Π_{k≠j} h / (τ_j − τ_k)` of `h³` times the third divided difference on
/// four nodes (`c_j = 1 / Π_{k≠j} (τ_j − τ_k)`), each a product of ratios: the products of
/// the differences alone underflow for nodes closer than about `1e-103` (and `h³` below
/// `1e-108`), which made `h³ c_j` the NaN `0 · ∞` and the error estimate NaN.
fn scaled_divided_difference_weights(tau: [f64; 4], h: f64) -> [f64; 4] {
    let mut c = [0.0; 4];
    for j in 0..4 {
        let mut p = 1.0;
        for k in 0..4 {
            if k != j {
                p *= h / (tau[j] - tau[k]);
            }
        }
        c[j] = p;
    }
    c
}

/// Lagrange weights of the quadratic through three nodes, evaluated at `x`.
fn lagrange_weights(nodes: [f64; 3], x: f64) -> [f64; 3] {
    let mut a = [1.0; 3];
    for j in 0..3 {
        for k in 0..3 {
            if k != j {
                a[j] *= (x - nodes[k]) / (nodes[j] - nodes[k]);
            }
        }
    }
    a
}

impl Stepper for Trapezoid {
    fn name(&self) -> &'static str {
        "trapezoid"
    }

    fn order(&self) -> u32 {
        2
    }

    fn is_adaptive(&self) -> bool {
        !self.core.state.fixed
    }

    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.core.setup(sys, t, y)?;
        self.core.begin(sys, t, y, opts, stats)?;
        let len = self.core.state.n;
        zeroed(
            [
                &mut self.yp,
                &mut self.yp_prev,
                &mut self.hist_y0,
                &mut self.hist_y1,
                &mut self.z,
            ],
            len,
        );
        let c = &mut self.core;
        self.yp_valid = c.mass.derivative(&c.it.jw, &c.f_now, &mut self.yp);
        if self.yp_valid {
            c.state.f.copy_from_slice(&self.yp);
        } else {
            c.state.f.copy_from_slice(&c.f_now);
        }
        self.yp_prev.copy_from_slice(&self.yp);
        c.state.f_prev.copy_from_slice(&c.state.f);
        self.n_hist = 0;
        self.damp = false;
        // The start step's error estimate is of first order.
        let yp = self.yp_valid.then_some(&self.yp[..]);
        c.state.h = first_step(opts, || c.first_step_estimate(sys, yp, 1, opts, stats));
        c.refresh_jacobian(sys, stats)?;
        c.state.started = true;
        Ok(())
    }

    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.core.resume(sys, &mut self.yp, stats)?;
        let mut set = self.core.prepare(sys, opts, stats)?;
        let mut singular = 0;
        loop {
            let st = &self.core.state;
            let (h, last, t_new) = st.clip(st.h, t_stop, opts);
            let start_step = self.n_hist == 0 && (!st.fixed || !self.yp_valid);
            // Backward Euler where y'_n is unknown (the start of a DAE) or after a restart.
            let euler = start_step && (!self.yp_valid || self.damp);
            let g = if euler { 1.0 } else { 0.5 };
            if self
                .core
                .factor(sys, g * h, h, &mut singular, opts, stats)?
                == Flow::Retry
            {
                continue;
            }
            if euler {
                self.core.v.copy_from_slice(&self.core.state.y);
                self.z.fill(0.0);
            } else {
                for i in 0..self.core.state.n {
                    self.core.v[i] = self.core.state.y[i] + 0.5 * h * self.yp[i];
                }
                self.predict(h, t_new);
            }
            let c = &mut self.core;
            let m = c.m;
            let bufs = StageBuffers {
                v: &c.v,
                z: &mut self.z,
                y: &mut c.ynew,
                f: &mut c.fbuf,
                res: &mut c.res,
            };
            let outcome =
                c.it.solve_stage(sys, t_new, h, g, bufs, &c.wt[..m], opts.norm, &set, stats);
            if c.after_stages(sys, outcome, h, opts, &mut set, stats)? == Flow::Retry {
                if outcome == Outcome::Failed
                    && c.failures >= RESTART_AFTER_FAILURES
                    && !start_step
                    && !c.state.fixed
                {
                    let h_restart = self.restart_step(h, opts);
                    if !(h_restart >= self.core.state.floor(opts)) {
                        return Err(OdeError::NewtonFailed {
                            t: self.core.state.t,
                            h,
                        });
                    }
                    self.core.state.h = h_restart;
                    self.n_hist = 0;
                    self.damp = true;
                }
                continue;
            }
            let mut err = 0.0;
            let exponent = if start_step { 0.5 } else { 1.0 / 3.0 };
            if !self.core.state.fixed {
                err = if start_step {
                    self.core.ensure_f_now(sys, stats);
                    self.start_step_error(h, opts)
                } else {
                    self.trapezoid_error(t_new, opts)
                };
                if self.core.error_test(err, exponent, h, opts, stats)? == Flow::Retry {
                    continue;
                }
            }
            self.accept(sys, h, t_new, start_step, euler, stats)?;
            if start_step && !self.core.state.fixed && !last {
                // From the first-order start to the second-order formula: the step is doubled
                // (as `ode23t` does).
                self.core.state.h = h * opts.max_growth.min(2.0);
                self.core.rejected_last = false;
            } else {
                self.core.propose(h, err, exponent, last, opts);
            }
            return Ok(());
        }
    }

    state_accessors!(core.state);

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        _sys: &S,
        t: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) {
        let st = &self.core.state;
        let h = st.t - st.t_prev;
        if h == 0.0 {
            st.copy_y(out);
            return;
        }
        let [c00, c10, c01, c11] = hermite_basis((t - st.t_prev) / h);
        let (c10, c11) = (c10 * h, c11 * h);
        for (i, o) in out[..st.n].iter_mut().enumerate() {
            *o = c00 * st.y_prev[i] + c10 * self.yp_prev[i] + c01 * st.y[i] + c11 * self.yp[i];
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        let c = &mut self.core;
        let h = c.state.t - c.state.t_prev;
        if h != 0.0 {
            // The interpolant's derivative at t (kept as y' where M⁻¹ f is not available).
            let s = (t - c.state.t_prev) / h;
            let (d00, d10, d01, d11) = (
                6.0 * s * (s - 1.0) / h,
                (3.0 * s - 1.0) * (s - 1.0),
                -6.0 * s * (s - 1.0) / h,
                s * (3.0 * s - 2.0),
            );
            for i in 0..c.state.n {
                c.res[i] = d00 * c.state.y_prev[i]
                    + d10 * self.yp_prev[i]
                    + d01 * c.state.y[i]
                    + d11 * self.yp[i];
            }
            self.yp.copy_from_slice(&c.res);
        }
        c.truncate(t, y);
        self.yp_prev.copy_from_slice(&self.yp);
        self.n_hist = 0;
        self.damp = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stability_function_values() {
        // R(−∞) = −1 (not L-stable), |R(iy)| = 1 on the imaginary axis (A-stable, no damping).
        let r = stability_function((-1e12, 0.0));
        assert!((r.0 + 1.0).abs() < 1e-11 && r.1.abs() < 1e-15, "{r:?}");
        for y in [0.1, 1.0, 10.0, 1e4] {
            let (a, b) = stability_function((0.0, y));
            assert!((a.hypot(b) - 1.0).abs() < 1e-14);
        }
        // R(z) = e^z + O(z³): (1 + z/2)/(1 − z/2) − e^z = z³/12 + …
        let z = 1e-2;
        let (r, _) = stability_function((z, 0.0));
        assert!(((r - z.exp()) / z.powi(3) - 1.0 / 12.0).abs() < 1e-3);
    }

    #[test]
    fn divided_differences_are_exact_for_cubics() {
        let tau = [0.0, 0.3, 0.5, 1.1];
        let c = scaled_divided_difference_weights(tau, 1.0);
        let p = |t: f64| 2.0 * t * t * t - t * t + 5.0;
        let dd: f64 = (0..4).map(|j| c[j] * p(tau[j])).sum();
        assert!((dd - 2.0).abs() < 1e-12, "{dd}");
        // Nodes 1e-156 apart and h = 1e-170 (a step of the 1e150 rotation): finite weights,
        // h³ times the third divided difference of t³ (= h³, below the f64 range here) is 0.
        let s = 1e-156;
        let tau = [0.0, s, 2.0 * s, 2.0 * s + 1e-170];
        let c = scaled_divided_difference_weights(tau, 1e-170);
        assert!(c.iter().all(|w| w.is_finite()), "{c:?}");
        let lin: f64 = (0..4).map(|j| c[j] * (3.0 + tau[j] / s)).sum();
        assert!(lin.abs() < 1e-20, "{lin}");
        let a = lagrange_weights([0.0, 0.3, 0.5], 1.1);
        let q = |t: f64| 3.0 * t * t - t + 1.0;
        let e: f64 = a[0] * q(0.0) + a[1] * q(0.3) + a[2] * q(0.5);
        assert!((e - q(1.1)).abs() < 1e-12);
    }
}
