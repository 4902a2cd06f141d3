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
//! ## Error estimate
//! The local truncation error `−(h³/12) y'''` is estimated from the third divided difference of
//! the last four solution values, `y''' ≈ 6 y[t_{n−2}, t_{n−1}, t_n, t_{n+1}]`:
//! `est = (h³/2) y[t_{n−2}, …, t_{n+1}]`, exponent 1/3 (the estimate of `ode23t`). It needs the
//! two previous points, so [`Stepper::truncate`] forgets them and the next step is a start step.
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

use super::mass::{Mass, MassKind};
use super::newton::{
    all_finite, newton_weights, Iteration, NewtonSettings, Outcome, StageBuffers,
    FIXED_STEP_MAX_ITERS,
};
use super::step::{clip_step, step_floor, step_ratio};
use crate::control::{controlled_dims, initial_step, weight, NormAcc};
use crate::stepper::{hermite_basis, StepEnds, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Consecutive singular iteration matrices tolerated (each halving the step) before
/// [`OdeError::SingularMatrix`].
const MAX_SINGULAR: usize = 8;

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
    /// Full state length `n (1 + c)`.
    len: usize,
    t: f64,
    t_prev: f64,
    /// Proposed next step.
    h: f64,
    fixed: bool,
    started: bool,
    y: Vec<f64>,
    y_prev: Vec<f64>,
    /// The formula's derivative `y'` at `t` and at `t_prev`.
    yp: Vec<f64>,
    yp_prev: Vec<f64>,
    /// The derivative reported by [`Stepper::ends`] at `t` and `t_prev`.
    fy: Vec<f64>,
    fy_prev: Vec<f64>,
    /// `f(t, y)` when `f_now_valid`.
    f_now: Vec<f64>,
    f_now_valid: bool,
    /// `f` at the current point is still to be evaluated (after a truncation).
    f_stale: bool,
    /// Whether `yp` is known (not at the start of a DAE).
    yp_valid: bool,
    /// Previous points for the error estimate: `[t_{n−1}, t_{n−2}]` and their states.
    hist_t: [f64; 2],
    hist_y0: Vec<f64>,
    hist_y1: Vec<f64>,
    n_hist: usize,
    rejected_last: bool,
    v: Vec<f64>,
    z: Vec<f64>,
    ynew: Vec<f64>,
    fbuf: Vec<f64>,
    res: Vec<f64>,
    wt: Vec<f64>,
    it: Iteration,
    mass: Mass,
    set: Option<NewtonSettings>,
}

impl Trapezoid {
    /// A fresh stepper (workspace sized on start).
    pub fn new() -> Self {
        Self::default()
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.h
    }

    /// Evaluates `f(t, y)` into `f_now` unless it is in hand.
    fn ensure_f_now<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut Stats) {
        if !self.f_now_valid {
            sys.rhs(self.t, &self.y, &mut self.f_now);
            stats.rhs_evals += 1;
            self.f_now_valid = true;
        }
    }

    /// Evaluates `J` at the current point.
    fn refresh_jacobian<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut Stats) {
        self.ensure_f_now(sys, stats);
        self.it
            .refresh_jacobian(sys, self.t, &self.y, &self.f_now, stats);
    }

    /// The scaled norm of the start step's error estimate `(1/2) W⁻¹ (M z − h f(t_n, y_n))`
    /// (`W` factored).
    fn start_step_error(&mut self, h: f64, m: usize, opts: &SolverOptions) -> f64 {
        self.it.jw.mass_times(&self.z, &mut self.res);
        for (r, f) in self.res.iter_mut().zip(&self.f_now) {
            *r = 0.5 * (*r - h * f);
        }
        self.it.solve(&mut self.res);
        let mut acc = NormAcc::new(opts.norm);
        for i in 0..m {
            acc.add(self.res[i] / weight(opts, i, self.y[i], self.ynew[i]));
        }
        acc.finish()
    }

    /// The scaled norm of `(h³/2) y[t_{n−2}, t_{n−1}, t_n, t_{n+1}]`.
    fn trapezoid_error(&self, t_new: f64, m: usize, opts: &SolverOptions) -> f64 {
        let tau = [self.hist_t[1], self.hist_t[0], self.t, t_new];
        let c = divided_difference_weights(tau);
        let h = t_new - self.t;
        let scale = 0.5 * h * h * h;
        let mut acc = NormAcc::new(opts.norm);
        for i in 0..m {
            let dd = c[0] * self.hist_y1[i]
                + c[1] * self.hist_y0[i]
                + c[2] * self.y[i]
                + c[3] * self.ynew[i];
            acc.add(scale * dd / weight(opts, i, self.y[i], self.ynew[i]));
        }
        acc.finish()
    }

    /// Predictor `z` for a trapezoidal step to `t_new`: the quadratic through the last three
    /// points extrapolated (`y_pred`, then `z = 2 (y_pred − y_n) − z_n`), else `z = h y'_n`.
    fn predict(&mut self, h: f64, t_new: f64) {
        if self.n_hist == 2 {
            let nodes = [self.hist_t[1], self.hist_t[0], self.t];
            let a = lagrange_weights(nodes, t_new);
            for i in 0..self.len {
                let yp = a[0] * self.hist_y1[i] + a[1] * self.hist_y0[i] + a[2] * self.y[i];
                self.z[i] = 2.0 * (yp - self.y[i]) - h * self.yp[i];
            }
        } else {
            for (z, yp) in self.z.iter_mut().zip(&self.yp) {
                *z = h * yp;
            }
        }
    }

    /// Moves the state to the accepted step's end (`ynew`, `z`) and updates the history.
    fn accept<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        start_step: bool,
        euler: bool,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if euler {
            // A DAE's first step: no y'_n; the secant makes the step's interpolant linear.
            for i in 0..self.len {
                self.yp[i] = (self.ynew[i] - self.y[i]) / h;
            }
        }
        if start_step && !self.fixed {
            // History [t_n + h/2, t_n] from this step's Hermite interpolant at s = 1/2.
            self.hist_y1.copy_from_slice(&self.y);
            for i in 0..self.len {
                self.hist_y0[i] =
                    0.5 * (self.y[i] + self.ynew[i]) + 0.125 * (h * self.yp[i] - self.z[i]);
            }
            self.hist_t = [self.t + 0.5 * h, self.t];
            self.n_hist = 2;
        } else {
            std::mem::swap(&mut self.hist_y0, &mut self.hist_y1);
            self.hist_y0.copy_from_slice(&self.y);
            self.hist_t = [self.t, self.hist_t[0]];
            self.n_hist = (self.n_hist + 1).min(2);
        }
        self.t_prev = self.t;
        self.t = t_new;
        std::mem::swap(&mut self.y_prev, &mut self.y);
        std::mem::swap(&mut self.y, &mut self.ynew);
        std::mem::swap(&mut self.yp_prev, &mut self.yp);
        for (d, z) in self.yp.iter_mut().zip(&self.z) {
            *d = z / h;
        }
        self.yp_valid = true;
        std::mem::swap(&mut self.fy_prev, &mut self.fy);
        if !all_finite(&self.y) {
            return Err(OdeError::NonFinite { t: self.t_prev, h });
        }
        if self.mass.kind() == MassKind::Identity {
            sys.rhs(self.t, &self.y, &mut self.f_now);
            stats.rhs_evals += 1;
            if !all_finite(&self.f_now) {
                return Err(OdeError::NonFinite { t: self.t_prev, h });
            }
            self.fy.copy_from_slice(&self.f_now);
            self.f_now_valid = true;
        } else {
            self.fy.copy_from_slice(&self.yp);
            self.f_now_valid = false;
        }
        self.it.point_moved();
        stats.steps += 1;
        Ok(())
    }
}

/// Weights `c_j = 1 / Π_{k≠j} (τ_j − τ_k)` of the third divided difference on four nodes.
fn divided_difference_weights(tau: [f64; 4]) -> [f64; 4] {
    let mut c = [0.0; 4];
    for j in 0..4 {
        let mut p = 1.0;
        for k in 0..4 {
            if k != j {
                p *= tau[j] - tau[k];
            }
        }
        c[j] = 1.0 / p;
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
        !self.fixed
    }

    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let len = sys.dim();
        if y.len() != len {
            return Err(OdeError::DimensionMismatch {
                what: "initial state",
                expected: len,
                got: y.len(),
            });
        }
        if !t.is_finite() || !all_finite(y) {
            return Err(OdeError::NonFiniteInitial { t });
        }
        self.it.setup(sys, false)?;
        self.mass = Mass::classify(&self.it.jw);
        if self.mass.is_singular() {
            self.it.setup(sys, true)?;
        }
        self.len = len;
        for v in [
            &mut self.y,
            &mut self.y_prev,
            &mut self.yp,
            &mut self.yp_prev,
            &mut self.fy,
            &mut self.fy_prev,
            &mut self.f_now,
            &mut self.hist_y0,
            &mut self.hist_y1,
            &mut self.v,
            &mut self.z,
            &mut self.ynew,
            &mut self.fbuf,
            &mut self.res,
            &mut self.wt,
        ] {
            v.clear();
            v.resize(len, 0.0);
        }
        self.t = t;
        self.t_prev = t;
        self.y.copy_from_slice(y);
        self.y_prev.copy_from_slice(y);
        sys.rhs(t, y, &mut self.f_now);
        stats.rhs_evals += 1;
        if !all_finite(&self.f_now) {
            return Err(OdeError::NonFiniteRhs { t });
        }
        self.f_now_valid = true;
        self.f_stale = false;
        self.yp_valid = self.mass.derivative(&self.it.jw, &self.f_now, &mut self.yp);
        if self.yp_valid {
            self.fy.copy_from_slice(&self.yp);
        } else {
            self.fy.copy_from_slice(&self.f_now);
        }
        self.yp_prev.copy_from_slice(&self.yp);
        self.fy_prev.copy_from_slice(&self.fy);
        self.n_hist = 0;
        self.rejected_last = false;
        self.set = Some(NewtonSettings::from_options(opts));
        self.fixed = opts.h_fixed.is_some();
        self.h = match (opts.h_fixed, opts.h_init) {
            (Some(h), _) => h,
            (None, Some(h)) => h.min(opts.h_max),
            (None, None) => {
                let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
                stats.rhs_evals += 1;
                // The start step's error estimate is of first order.
                initial_step(
                    &mut rhs,
                    t,
                    &self.y,
                    &self.f_now,
                    1,
                    opts,
                    &mut self.ynew,
                    &mut self.fbuf,
                )
            }
        };
        self.refresh_jacobian(sys, stats);
        self.started = true;
        Ok(())
    }

    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let Some(mut set) = self.set.filter(|_| self.started) else {
            return Err(OdeError::NotStarted);
        };
        if self.f_stale {
            sys.rhs(self.t, &self.y, &mut self.f_now);
            stats.rhs_evals += 1;
            if !all_finite(&self.f_now) {
                return Err(OdeError::NonFinite {
                    t: self.t,
                    h: self.h,
                });
            }
            self.f_now_valid = true;
            self.f_stale = false;
            if self.mass.derivative(&self.it.jw, &self.f_now, &mut self.yp) {
                self.fy.copy_from_slice(&self.yp);
            } else {
                self.fy.copy_from_slice(&self.f_now);
            }
            self.fy_prev.copy_from_slice(&self.fy);
        }
        let m = controlled_dims(opts, self.len);
        newton_weights(opts, &self.y, &mut self.wt[..m]);
        if self.it.begin_step(&set) {
            self.refresh_jacobian(sys, stats);
        }
        let mut singular = 0;
        loop {
            let (h, last) = clip_step(self.h, self.t, t_stop, opts);
            let floor = step_floor(opts, self.t);
            let t_new = if last { t_stop } else { self.t + h };
            let start_step = self.n_hist == 0 && (!self.fixed || !self.yp_valid);
            // Backward Euler only where y'_n is unknown (the start of a DAE).
            let euler = start_step && !self.yp_valid;
            let g = if euler { 1.0 } else { 0.5 };
            if self.it.factor(g * h, stats).is_err() {
                stats.rejected_steps += 1;
                singular += 1;
                if !self.it.jacobian_is_current() {
                    self.refresh_jacobian(sys, stats);
                    continue;
                }
                if self.fixed || singular > MAX_SINGULAR || !(0.5 * h >= floor) {
                    return Err(OdeError::SingularMatrix { t: self.t, h });
                }
                self.h = 0.5 * h;
                self.rejected_last = true;
                continue;
            }
            if euler {
                self.v.copy_from_slice(&self.y);
                self.z.fill(0.0);
            } else {
                for i in 0..self.len {
                    self.v[i] = self.y[i] + 0.5 * h * self.yp[i];
                }
                self.predict(h, t_new);
            }
            let bufs = StageBuffers {
                v: &self.v,
                z: &mut self.z,
                y: &mut self.ynew,
                f: &mut self.fbuf,
                res: &mut self.res,
            };
            let outcome = self.it.solve_stage(
                sys,
                t_new,
                h,
                g,
                bufs,
                &self.wt[..m],
                opts.norm,
                &set,
                stats,
            );
            match outcome {
                Outcome::Converged => {}
                Outcome::NonFinite => {
                    stats.rejected_steps += 1;
                    if self.fixed || !(h * opts.min_shrink >= floor) {
                        return Err(OdeError::NonFinite { t: self.t, h });
                    }
                    self.h = h * opts.min_shrink;
                    self.rejected_last = true;
                    continue;
                }
                Outcome::Failed => {
                    stats.newton_failures += 1;
                    stats.rejected_steps += 1;
                    if !self.it.jacobian_is_current() {
                        self.refresh_jacobian(sys, stats);
                        continue;
                    }
                    if self.fixed && set.max_iters < FIXED_STEP_MAX_ITERS {
                        set.max_iters = FIXED_STEP_MAX_ITERS;
                        continue;
                    }
                    let shrink = 0.3f64.max(opts.min_shrink);
                    if self.fixed || !(h * shrink >= floor) {
                        return Err(OdeError::NewtonFailed { t: self.t, h });
                    }
                    self.h = h * shrink;
                    self.rejected_last = true;
                    continue;
                }
            }
            let mut err = 0.0;
            if !self.fixed {
                err = if start_step {
                    self.ensure_f_now(sys, stats);
                    self.start_step_error(h, m, opts)
                } else {
                    self.trapezoid_error(t_new, m, opts)
                };
                if !(err <= 1.0) {
                    stats.rejected_steps += 1;
                    let exponent = if start_step { 0.5 } else { 1.0 / 3.0 };
                    let h_next = h * step_ratio(err, exponent, opts, true, false);
                    if !(h_next >= floor) {
                        return Err(if err.is_finite() {
                            OdeError::StepTooSmall {
                                t: self.t,
                                h: h_next,
                            }
                        } else {
                            OdeError::NonFinite { t: self.t, h }
                        });
                    }
                    self.h = h_next;
                    self.rejected_last = true;
                    continue;
                }
            }
            self.accept(sys, h, t_new, start_step, euler, stats)?;
            if !self.fixed && !last {
                self.h = if start_step {
                    h * opts.max_growth.min(2.0)
                } else {
                    h * step_ratio(err, 1.0 / 3.0, opts, self.rejected_last, true)
                };
            }
            self.rejected_last = false;
            return Ok(());
        }
    }

    fn t(&self) -> f64 {
        self.t
    }

    fn y(&self) -> &[f64] {
        &self.y
    }

    fn ends(&self) -> StepEnds<'_> {
        StepEnds {
            t0: self.t_prev,
            t1: self.t,
            y0: &self.y_prev,
            y1: &self.y,
            f0: &self.fy_prev,
            f1: &self.fy,
        }
    }

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        _sys: &S,
        t: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) {
        let h = self.t - self.t_prev;
        if h == 0.0 {
            out.copy_from_slice(&self.y);
            return;
        }
        let [c00, c10, c01, c11] = hermite_basis((t - self.t_prev) / h);
        let (c10, c11) = (c10 * h, c11 * h);
        let n = self.len;
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = c00 * self.y_prev[i] + c10 * self.yp_prev[i] + c01 * self.y[i] + c11 * self.yp[i];
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        let h = self.t - self.t_prev;
        if h != 0.0 {
            // The interpolant's derivative at t (kept as y' where M⁻¹ f is not available).
            let s = (t - self.t_prev) / h;
            let (d00, d10, d01, d11) = (
                6.0 * s * (s - 1.0) / h,
                (3.0 * s - 1.0) * (s - 1.0),
                -6.0 * s * (s - 1.0) / h,
                s * (3.0 * s - 2.0),
            );
            for i in 0..self.len {
                self.res[i] = d00 * self.y_prev[i]
                    + d10 * self.yp_prev[i]
                    + d01 * self.y[i]
                    + d11 * self.yp[i];
            }
            self.yp.copy_from_slice(&self.res);
        }
        self.t = t;
        self.t_prev = t;
        self.y.copy_from_slice(y);
        self.y_prev.copy_from_slice(y);
        self.yp_prev.copy_from_slice(&self.yp);
        self.f_stale = true;
        self.f_now_valid = false;
        self.n_hist = 0;
        self.rejected_last = false;
        self.it.point_moved();
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
        let c = divided_difference_weights(tau);
        let p = |t: f64| 2.0 * t * t * t - t * t + 5.0;
        let dd: f64 = (0..4).map(|j| c[j] * p(tau[j])).sum();
        assert!((dd - 2.0).abs() < 1e-12, "{dd}");
        let a = lagrange_weights([0.0, 0.3, 0.5], 1.1);
        let q = |t: f64| 3.0 * t * t - t + 1.0;
        let e: f64 = a[0] * q(0.0) + a[1] * q(0.3) + a[2] * q(0.5);
        assert!((e - q(1.1)).abs() < 1e-12);
    }
}
