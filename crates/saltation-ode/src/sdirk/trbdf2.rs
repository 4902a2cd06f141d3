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
//! `est₁ = Σ (b_i − b̂_i) z_i = ((4w−1)/3) z_n − (1/3) z_γ + (2d/3) z_{n+1}`, which is `ode23tb`'s
//! `((γ−1)/3) z_n + (1/3) z_γ − (γ/3) z_{n+1}` up to the sign (`4w − 1 = 1 − γ`, `2d = γ`): an
//! estimate of the local error `((3√2 − 4)/6) h³ y‴ ≈ 0.0404 h³ y‴` of the second-order
//! solution (`Σ (b_i − b̂_i) c_i²/2 = γ(1−γ)/6`). It is unbounded as `hλ → −∞`, so the estimate
//! controlled is the filtered `est₂ = W⁻¹ M est₁`, with `err = max(‖est₂‖, ‖est₁‖/16)` (the
//! combination of `ode23tb`), exponent `1/3` (an `O(h³)` estimate). The local error is held to
//! the scaled tolerance of [`super::step::tolerance_scale`], so that the global error is
//! proportional to the tolerance.
//!
//! ## Dense output
//! The quadratic through `(t_n, y_n)`, `(t_n + γh, y_γ)`, `(t_{n+1}, y_{n+1})` (the free interpolant
//! of `ode23tb`): second order, no extra evaluation.
//!
//! ## Mass matrix
//! A constant nonsingular `M` is supported (`y'` for the first stage is `M⁻¹ f` after a restart).
//! A singular `M` is refused with [`OdeError::MassMatrixUnsupported`], as `ode23tb` does: the
//! trapezoidal stage propagates the algebraic components' derivatives without damping.

use super::newton::{NewtonSettings, Outcome, StageBuffers};
use super::step::{Core, Flow};
use crate::step_state::state_accessors;
use crate::stepper::{first_step, zeroed, Stepper};
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
    core: Core,
    /// The stage value `y_γ` of the last step (dense output).
    y_mid: Vec<f64>,
    /// The derivative `y'` at `t` (the first stage of the next step).
    yp: Vec<f64>,
    /// The scaled derivatives `z_n`, `z_γ`, `z_{n+1}` and the stage value `y_γ` of the step
    /// being taken.
    z1: Vec<f64>,
    zg: Vec<f64>,
    z3: Vec<f64>,
    yg: Vec<f64>,
    /// The unfiltered error estimate `est₁`.
    est: Vec<f64>,
}

impl Trbdf2 {
    /// A fresh stepper (workspace sized on start).
    pub fn new() -> Self {
        Self::default()
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.core.state.h
    }

    /// Both stages with the factored `W = M − d h J`; `Converged` leaves `y_{n+1}` in `ynew`.
    fn stages<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        opts: &SolverOptions,
        set: &NewtonSettings,
        stats: &mut Stats,
    ) -> Outcome {
        let c = &mut self.core;
        let m = c.m;
        // Trapezoidal stage, predictor z_γ = z_n.
        for i in 0..c.state.n {
            self.z1[i] = h * self.yp[i];
            c.v[i] = c.state.y[i] + D * self.z1[i];
        }
        self.zg.copy_from_slice(&self.z1);
        let bufs = StageBuffers {
            v: &c.v,
            z: &mut self.zg,
            y: &mut self.yg,
            f: &mut c.fbuf,
            res: &mut c.res,
        };
        let t_mid = c.state.t + GAMMA * h;
        let out =
            c.it.solve_stage(sys, t_mid, h, D, bufs, &c.wt[..m], opts.norm, set, stats);
        if out != Outcome::Converged {
            return out;
        }
        // BDF2 stage, predictor: z linear through (0, z_n), (γ, z_γ), extrapolated to 1 (the
        // derivative of the trapezoidal stage's quadratic interpolant).
        for i in 0..c.state.n {
            c.v[i] = c.state.y[i] + W * (self.z1[i] + self.zg[i]);
            self.z3[i] = self.z1[i] + (self.zg[i] - self.z1[i]) / GAMMA;
        }
        let bufs = StageBuffers {
            v: &c.v,
            z: &mut self.z3,
            y: &mut c.ynew,
            f: &mut c.fbuf,
            res: &mut c.res,
        };
        c.it.solve_stage(sys, t_new, h, D, bufs, &c.wt[..m], opts.norm, set, stats)
    }

    /// `max(‖W⁻¹ M est₁‖, ‖est₁‖ / 16)` in the scaled error norm.
    fn error(&mut self, opts: &SolverOptions) -> f64 {
        let c = &mut self.core;
        for i in 0..c.state.n {
            self.est[i] = ERR[0] * self.z1[i] + ERR[1] * self.zg[i] + ERR[2] * self.z3[i];
        }
        c.it.jw.mass_times(&self.est, &mut c.res);
        c.it.solve(&mut c.res);
        let e1 = c.error_norm(opts, |i| self.est[i]);
        let e2 = c.error_norm(opts, |i| c.res[i]);
        if e1.is_nan() || e2.is_nan() {
            f64::NAN
        } else {
            e2.max(e1 / 16.0)
        }
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
        if self.core.mass.is_singular() {
            return Err(OdeError::MassMatrixUnsupported {
                method: "trbdf2",
                reason: "needs a nonsingular mass matrix (as MATLAB's ode23tb); \
                         use trapezoid, radau5 or ndf for a differential-algebraic system",
            });
        }
        self.core.begin(sys, t, y, opts, stats)?;
        let len = self.core.state.n;
        zeroed(
            [
                &mut self.y_mid,
                &mut self.yp,
                &mut self.z1,
                &mut self.zg,
                &mut self.z3,
                &mut self.yg,
                &mut self.est,
            ],
            len,
        );
        self.y_mid.copy_from_slice(y);
        let c = &mut self.core;
        c.mass.derivative(&c.it.jw, &c.f_now, &mut self.yp);
        c.state.f.copy_from_slice(&self.yp);
        c.state.f_prev.copy_from_slice(&self.yp);
        let yp = &self.yp;
        c.state.h = first_step(opts, || {
            c.first_step_estimate(sys, Some(yp), 2, opts, stats)
        });
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
            let c = &mut self.core;
            if c.factor(sys, D * h, h, &mut singular, opts, stats)? == Flow::Retry {
                continue;
            }
            let outcome = self.stages(sys, h, t_new, opts, &set, stats);
            let c = &mut self.core;
            if c.after_stages(sys, outcome, h, opts, &mut set, stats)? == Flow::Retry {
                continue;
            }
            let mut err = 0.0;
            if !self.core.state.fixed {
                err = self.error(opts);
                if self.core.error_test(err, 1.0 / 3.0, h, opts, stats)? == Flow::Retry {
                    continue;
                }
            }
            std::mem::swap(&mut self.y_mid, &mut self.yg);
            for (d, z) in self.yp.iter_mut().zip(&self.z3) {
                *d = z / h;
            }
            self.core.advance(sys, h, t_new, &self.yp, stats)?;
            self.core.propose(h, err, 1.0 / 3.0, last, opts);
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
        let s = (t - st.t_prev) / h;
        // Lagrange basis on the nodes 0, γ, 1.
        let l0 = (s - GAMMA) * (s - 1.0) / GAMMA;
        let l1 = s * (s - 1.0) / (GAMMA * (GAMMA - 1.0));
        let l2 = s * (s - GAMMA) / (1.0 - GAMMA);
        for (i, o) in out[..st.n].iter_mut().enumerate() {
            *o = l0 * st.y_prev[i] + l1 * self.y_mid[i] + l2 * st.y[i];
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // y' = M⁻¹ f(t, y) is evaluated by the next step.
        self.core.truncate(t, y);
        self.y_mid.copy_from_slice(y);
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
