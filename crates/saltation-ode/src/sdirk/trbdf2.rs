//! TR-BDF2 (Bank, Coughran, Fichtner, Grosse, Rose & Smith 1985) as analysed and implemented by
//! Hosea & Shampine (1996, "Analysis and implementation of TR-BDF2", Appl. Numer. Math. 20), the
//! method of MATLAB's `ode23tb`.
//!
//! ## Formula
//! With `γ = 2 − √2`, `d = γ/2 = 1 − √2/2`, `w = √2/4` and `z = h y'` scaled derivatives, a step
//! is a trapezoidal stage to `t_n + γh` followed by a BDF2 stage to `t_n + h`:
//!
//! ```text
//!     y_γ     = y_n + d (z_n + z_γ),              M z_γ     = h f(t_n + γh, y_γ),
//!     y_{n+1} = y_n + w (z_n + z_γ) + d z_{n+1},   M z_{n+1} = h f(t_n + h, y_{n+1}).
//! ```
//!
//! The second line is the BDF2 formula on `t_n, t_n + γh, t_n + h`,
//! `y_{n+1} = (y_γ − (1−γ)² y_n) / (γ(2−γ)) + ((1−γ)/(2−γ)) h y'_{n+1}`, and with this `γ` its
//! coefficient `(1−γ)/(2−γ)` equals `d`: both stages have the iteration matrix `W = M − d h J`
//! (one LU). As a Runge–Kutta method (an ESDIRK, explicit first stage `z_n`) it has
//! `c = (0, γ, 1)`, `b = (w, w, d)` = the last row of `A` (stiffly accurate); it is L-stable with
//!
//! ```text
//!     R(z) = (1 + (√2 − 1) z) / (1 − d z)²,          R(−∞) = 0.
//! ```
//!
//! ## Error estimate (Hosea & Shampine 1996)
//! The embedded third-order weights `b̂ = ((1−w)/3, (3w+1)/3, d/3)` give
//! `est₁ = Σ (b_i − b̂_i) z_i = ((4w−1)/3) z_n − (1/3) z_γ + (2d/3) z_{n+1}`. It is unbounded as
//! `hλ → −∞`, so the estimate controlled is the filtered `est₂ = W⁻¹ M est₁`, with
//! `err = max(‖est₂‖, ‖est₁‖/16)` (the combination of `ode23tb`), exponent 1/3.
//!
//! ## Dense output
//! The quadratic through `(t_n, y_n)`, `(t_n + γh, y_γ)`, `(t_{n+1}, y_{n+1})` (the free interpolant
//! of `ode23tb`): second order, no extra evaluation.
//!
//! ## Mass matrix
//! A constant nonsingular `M` is supported (`y'` for the first stage is `M⁻¹ f` after a restart).
//! A singular `M` is refused with [`OdeError::MassMatrixUnsupported`], as `ode23tb` does: the
//! trapezoidal stage propagates the algebraic components' derivatives without damping.

use super::mass::{Mass, MassKind};
use super::newton::{
    all_finite, newton_weights, Iteration, NewtonSettings, Outcome, StageBuffers,
    FIXED_STEP_MAX_ITERS,
};
use super::step::{clip_step, step_floor, step_ratio};
use crate::control::{controlled_dims, initial_step, weight, NormAcc};
use crate::stepper::{StepEnds, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use std::f64::consts::SQRT_2;

/// `γ = 2 − √2`: the trapezoidal stage ends at `t_n + γh`.
pub const GAMMA: f64 = 2.0 - SQRT_2;
/// `d = γ/2`: the diagonal coefficient of both implicit stages.
pub const D: f64 = 1.0 - 0.5 * SQRT_2;
/// `w = √2/4`: the BDF2 stage's weight of `z_n` and `z_γ`.
pub const W: f64 = 0.25 * SQRT_2;
/// Error weights `b − b̂` of `(z_n, z_γ, z_{n+1})`.
pub const ERR: [f64; 3] = [(4.0 * W - 1.0) / 3.0, -1.0 / 3.0, 2.0 * D / 3.0];

/// Consecutive singular iteration matrices tolerated (each halving the step).
const MAX_SINGULAR: usize = 8;

/// `R(z) = (1 + (√2 − 1) z) / (1 − d z)²` of TR-BDF2 at `z = (re, im)`.
#[allow(dead_code)] // until wired into `crate::stability`
pub fn stability_function(z: (f64, f64)) -> (f64, f64) {
    let num = (1.0 + (SQRT_2 - 1.0) * z.0, (SQRT_2 - 1.0) * z.1);
    let q = (1.0 - D * z.0, -D * z.1);
    let den = (q.0 * q.0 - q.1 * q.1, 2.0 * q.0 * q.1);
    super::cdiv(num, den)
}

/// TR-BDF2 with `γ = 2 − √2` (MATLAB `ode23tb`).
#[derive(Debug, Clone, Default)]
pub struct Trbdf2 {
    len: usize,
    t: f64,
    t_prev: f64,
    h: f64,
    fixed: bool,
    started: bool,
    y: Vec<f64>,
    y_prev: Vec<f64>,
    /// The stage value `y_γ` of the last step (dense output).
    y_mid: Vec<f64>,
    /// The derivative `y'` at `t` (the first stage of the next step).
    yp: Vec<f64>,
    /// The derivative reported by [`Stepper::ends`] at `t` and `t_prev`.
    fy: Vec<f64>,
    fy_prev: Vec<f64>,
    /// `f(t, y)` when `f_now_valid`.
    f_now: Vec<f64>,
    f_now_valid: bool,
    f_stale: bool,
    rejected_last: bool,
    v: Vec<f64>,
    z1: Vec<f64>,
    zg: Vec<f64>,
    z3: Vec<f64>,
    yg: Vec<f64>,
    ynew: Vec<f64>,
    fbuf: Vec<f64>,
    res: Vec<f64>,
    est: Vec<f64>,
    wt: Vec<f64>,
    it: Iteration,
    mass: Mass,
    set: Option<NewtonSettings>,
}

impl Trbdf2 {
    /// A fresh stepper (workspace sized on start).
    pub fn new() -> Self {
        Self::default()
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.h
    }

    fn ensure_f_now<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut Stats) {
        if !self.f_now_valid {
            sys.rhs(self.t, &self.y, &mut self.f_now);
            stats.rhs_evals += 1;
            self.f_now_valid = true;
        }
    }

    fn refresh_jacobian<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut Stats) {
        self.ensure_f_now(sys, stats);
        self.it
            .refresh_jacobian(sys, self.t, &self.y, &self.f_now, stats);
    }

    /// Both stages with the factored `W = M − d h J`; `Converged` leaves `y_{n+1}` in `ynew`.
    #[allow(clippy::too_many_arguments)]
    fn stages<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        m: usize,
        opts: &SolverOptions,
        set: &NewtonSettings,
        stats: &mut Stats,
    ) -> Outcome {
        // Trapezoidal stage, predictor z_γ = z_n.
        for i in 0..self.len {
            self.z1[i] = h * self.yp[i];
            self.v[i] = self.y[i] + D * self.z1[i];
        }
        self.zg.copy_from_slice(&self.z1);
        let bufs = StageBuffers {
            v: &self.v,
            z: &mut self.zg,
            y: &mut self.yg,
            f: &mut self.fbuf,
            res: &mut self.res,
        };
        let t_mid = self.t + GAMMA * h;
        let out = self
            .it
            .solve_stage(sys, t_mid, h, D, bufs, &self.wt[..m], opts.norm, set, stats);
        if out != Outcome::Converged {
            return out;
        }
        // BDF2 stage, predictor: z linear through (0, z_n), (γ, z_γ), extrapolated to 1 (the
        // derivative of the trapezoidal stage's quadratic interpolant).
        for i in 0..self.len {
            self.v[i] = self.y[i] + W * (self.z1[i] + self.zg[i]);
            self.z3[i] = self.z1[i] + (self.zg[i] - self.z1[i]) / GAMMA;
        }
        let bufs = StageBuffers {
            v: &self.v,
            z: &mut self.z3,
            y: &mut self.ynew,
            f: &mut self.fbuf,
            res: &mut self.res,
        };
        self.it
            .solve_stage(sys, t_new, h, D, bufs, &self.wt[..m], opts.norm, set, stats)
    }

    /// `max(‖W⁻¹ M est₁‖, ‖est₁‖ / 16)` in the scaled error norm.
    fn error(&mut self, m: usize, opts: &SolverOptions) -> f64 {
        for i in 0..self.len {
            self.est[i] = ERR[0] * self.z1[i] + ERR[1] * self.zg[i] + ERR[2] * self.z3[i];
        }
        self.it.jw.mass_times(&self.est, &mut self.res);
        self.it.solve(&mut self.res);
        let (mut a1, mut a2) = (NormAcc::new(opts.norm), NormAcc::new(opts.norm));
        for i in 0..m {
            let w = weight(opts, i, self.y[i], self.ynew[i]);
            a1.add(self.est[i] / w);
            a2.add(self.res[i] / w);
        }
        let (e1, e2) = (a1.finish(), a2.finish());
        if e1.is_nan() || e2.is_nan() {
            f64::NAN
        } else {
            e2.max(e1 / 16.0)
        }
    }

    fn accept<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.t_prev = self.t;
        self.t = t_new;
        std::mem::swap(&mut self.y_prev, &mut self.y);
        std::mem::swap(&mut self.y, &mut self.ynew);
        std::mem::swap(&mut self.y_mid, &mut self.yg);
        for (d, z) in self.yp.iter_mut().zip(&self.z3) {
            *d = z / h;
        }
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

impl Stepper for Trbdf2 {
    fn name(&self) -> &'static str {
        "trbdf2"
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
            return Err(OdeError::MassMatrixUnsupported {
                method: "trbdf2",
                reason: "needs a nonsingular mass matrix (as MATLAB's ode23tb); \
                         use trapezoid, radau5 or ndf for a differential-algebraic system",
            });
        }
        self.len = len;
        for v in [
            &mut self.y,
            &mut self.y_prev,
            &mut self.y_mid,
            &mut self.yp,
            &mut self.fy,
            &mut self.fy_prev,
            &mut self.f_now,
            &mut self.v,
            &mut self.z1,
            &mut self.zg,
            &mut self.z3,
            &mut self.yg,
            &mut self.ynew,
            &mut self.fbuf,
            &mut self.res,
            &mut self.est,
            &mut self.wt,
        ] {
            v.clear();
            v.resize(len, 0.0);
        }
        self.t = t;
        self.t_prev = t;
        self.y.copy_from_slice(y);
        self.y_prev.copy_from_slice(y);
        self.y_mid.copy_from_slice(y);
        sys.rhs(t, y, &mut self.f_now);
        stats.rhs_evals += 1;
        if !all_finite(&self.f_now) {
            return Err(OdeError::NonFiniteRhs { t });
        }
        self.f_now_valid = true;
        self.f_stale = false;
        self.mass.derivative(&self.it.jw, &self.f_now, &mut self.yp);
        self.fy.copy_from_slice(&self.yp);
        self.fy_prev.copy_from_slice(&self.yp);
        self.rejected_last = false;
        self.set = Some(NewtonSettings::from_options(opts));
        self.fixed = opts.h_fixed.is_some();
        self.h = match (opts.h_fixed, opts.h_init) {
            (Some(h), _) => h,
            (None, Some(h)) => h.min(opts.h_max),
            (None, None) => {
                let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
                stats.rhs_evals += 1;
                initial_step(
                    &mut rhs,
                    t,
                    &self.y,
                    &self.yp,
                    2,
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
            self.mass.derivative(&self.it.jw, &self.f_now, &mut self.yp);
            self.fy.copy_from_slice(&self.yp);
            self.fy_prev.copy_from_slice(&self.yp);
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
            if self.it.factor(D * h, stats).is_err() {
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
            match self.stages(sys, h, t_new, m, opts, &set, stats) {
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
                err = self.error(m, opts);
                if !(err <= 1.0) {
                    stats.rejected_steps += 1;
                    let h_next = h * step_ratio(err, 1.0 / 3.0, opts, true, false);
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
            self.accept(sys, h, t_new, stats)?;
            if !self.fixed && !last {
                self.h = h * step_ratio(err, 1.0 / 3.0, opts, self.rejected_last, true);
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
        let s = (t - self.t_prev) / h;
        // Lagrange basis on the nodes 0, γ, 1.
        let l0 = (s - GAMMA) * (s - 1.0) / GAMMA;
        let l1 = s * (s - 1.0) / (GAMMA * (GAMMA - 1.0));
        let l2 = s * (s - GAMMA) / (1.0 - GAMMA);
        let n = self.len;
        for (i, o) in out[..n].iter_mut().enumerate() {
            *o = l0 * self.y_prev[i] + l1 * self.y_mid[i] + l2 * self.y[i];
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        self.t = t;
        self.t_prev = t;
        self.y.copy_from_slice(y);
        self.y_prev.copy_from_slice(y);
        self.y_mid.copy_from_slice(y);
        // y' = M⁻¹ f(t, y) is evaluated by the next step.
        self.f_stale = true;
        self.f_now_valid = false;
        self.rejected_last = false;
        self.it.point_moved();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tableau `c = (0, γ, 1)`, `A = [[0,0,0],[d,d,0],[w,w,d]]`, `b = (w, w, d)`.
    const A: [[f64; 3]; 3] = [[0.0; 3], [D, D, 0.0], [W, W, D]];
    const C: [f64; 3] = [0.0, GAMMA, 1.0];
    const B: [f64; 3] = [W, W, D];

    #[test]
    fn order_conditions_of_the_pair() {
        let bhat = [(1.0 - W) / 3.0, (3.0 * W + 1.0) / 3.0, D / 3.0];
        let dot = |b: &[f64; 3], v: [f64; 3]| b.iter().zip(v).map(|(x, y)| x * y).sum::<f64>();
        let ac: [f64; 3] = std::array::from_fn(|i| dot(&A[i], C));
        // Row sums are c; b (order 2) and b̂ (order 3).
        for i in 0..3 {
            assert!((A[i].iter().sum::<f64>() - C[i]).abs() < 1e-15);
        }
        assert!((dot(&B, [1.0; 3]) - 1.0).abs() < 1e-15);
        assert!((dot(&B, C) - 0.5).abs() < 1e-15);
        assert!((dot(&bhat, [1.0; 3]) - 1.0).abs() < 1e-15);
        assert!((dot(&bhat, C) - 0.5).abs() < 1e-15);
        assert!((dot(&bhat, C.map(|c| c * c)) - 1.0 / 3.0).abs() < 1e-15);
        assert!((dot(&bhat, ac) - 1.0 / 6.0).abs() < 1e-15);
        // b is not third order: the estimate is of the second-order solution's error.
        assert!((dot(&B, C.map(|c| c * c)) - 1.0 / 3.0).abs() > 1e-3);
        for i in 0..3 {
            assert!((ERR[i] - (B[i] - bhat[i])).abs() < 1e-15);
        }
        // The BDF2 coefficient (1−γ)/(2−γ) is d: one iteration matrix for both stages.
        assert!(((1.0 - GAMMA) / (2.0 - GAMMA) - D).abs() < 1e-15);
        assert!((1.0 / (2.0 * (2.0 - GAMMA)) - W).abs() < 1e-15);
    }

    #[test]
    fn stability_function_is_l_stable() {
        let r = stability_function((-1e12, 0.0));
        assert!(r.0.abs() < 1e-11 && r.1.abs() < 1e-11, "{r:?}");
        for y in [0.01, 0.5, 1.0, 3.0, 10.0, 1e3, 1e6] {
            let (a, b) = stability_function((0.0, y));
            assert!(a.hypot(b) <= 1.0 + 1e-15, "|R({y}i)| = {}", a.hypot(b));
        }
        // R(z) = e^z + O(z³).
        let z = 1e-2;
        let (r, _) = stability_function((z, 0.0));
        assert!((r - z.exp()).abs() < z.powi(3));
        assert!((r - z.exp()).abs() > 1e-3 * z.powi(3));
        // The same R from the tableau: R(z) = 1 + z bᵀ (I − zA)⁻¹ 𝟙 at a real point.
        let z = -3.7;
        let k1 = 1.0;
        let k2 = (1.0 + z * D * k1) / (1.0 - z * D);
        let k3 = (1.0 + z * (W * k1 + W * k2)) / (1.0 - z * D);
        let r_tab = 1.0 + z * (B[0] * k1 + B[1] * k2 + B[2] * k3);
        assert!((stability_function((z, 0.0)).0 - r_tab).abs() < 1e-14);
    }
}
