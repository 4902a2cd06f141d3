//! The simplified Newton iteration shared by the trapezoidal rule and TR-BDF2.
//!
//! Every implicit stage of both methods has the form (Hosea & Shampine 1996; Shampine, Reichelt
//! & Kierzenka 1999; `z = h y'` the scaled derivative at the stage)
//!
//! ```text
//!     M z = h f(t_s, v + g z),        y_s = v + g z,
//! ```
//!
//! with `v` known and `g = 1/2` (trapezoid), `g = 1` (the backward Euler step the trapezoidal
//! code starts a DAE with) or `g = γ/2` (both stages of TR-BDF2). It is solved by the simplified
//! Newton (chord) iteration with the iteration matrix `W = M − g h J`:
//!
//! ```text
//!     W Δ = h f(t_s, y) − M z,        z ← z + Δ,        y ← y + g Δ,
//! ```
//!
//! `J` an approximation of `∂f/∂y`, and `W` refactored only when `g h` or `J` changes. For a
//! variational system `W` acts block by block (`I ⊗ W` on `[x, Φ]`, the staggered corrector of
//! [`JacobianWork::solve`]).
//!
//! ## When `J` is evaluated
//! `J` is evaluated afresh at the current point after a failed iteration, and before a step
//! whose predecessor's iteration contracted more slowly than `θ_J` (`newton.jacobian_reuse`,
//! default `θ_J = 0.001`: Hairer's RADAU5 rule and default `THET`, Hairer & Wanner, *Solving ODEs
//! II*, §IV.8). MATLAB's `ode23t` and `ode23tb` keep `J` until the iteration fails, which is
//! not safe: the rate is measured as a ratio of norms, dominated by the components with the
//! largest corrections, and a stiff component whose row of `J` has gone stale can converge
//! slowly unseen. On OREGO the stiff `y₁` has `∂f₁/∂y₁ = 77.27 (1 − y₂ − 2·8.375·10⁻⁶ y₁)`,
//! which changes by a factor 3 while `y₂` falls over a few steps; the iteration stopped after
//! two iterations with a measured `θ = 0.03` (the first correction was all `y₂`) while `y₁`
//! contracted by only 0.7 per iteration, so `y₁` lagged behind its slow manifold step after
//! step, the spikes came at the wrong times, and the end point was off by 10³–10⁶ tolerances at
//! `rtol = 10⁻⁴ … 10⁻²` (ROBER to `10¹¹` at `rtol = 10⁻²`: 10¹⁵). With the refresh rule (and
//! the tolerance scaling of [`super::step`]) ROBER, VDPOL, HIRES and OREGO end within about 160
//! tolerances at every `rtol` from `10⁻²` to `10⁻⁷`, with both methods.
//!
//! ## Stopping test
//! The stopping test is Hairer & Wanner's (*Solving ODEs II*, §IV.8): with
//! the contraction rate `θ = ‖Δ_k‖ / ‖Δ_{k−1}‖` (smoothed as `max(0.9 θ_old, θ)`) the iteration
//! stops when `θ/(1 − θ) ‖Δ_k‖ ≤ κ`; it has failed when `θ ≥ 0.9`, when
//! `θ^{k_max−k} / (1 − θ) ‖Δ_k‖ > κ` predicts no convergence within `k_max` iterations, or after
//! `k_max` iterations. Norms are the error norm of the step-size control (weights `w_i`,
//! controlled components only) applied to the correction `g Δ` of `y`. Defaults: `κ = 1/3`,
//! `k_max = 5` (with `h_fixed`, where a failed step cannot be retried smaller, `k_max = 50` once
//! `J` is fresh).
//!
//! ## The first iteration
//! The first iteration may stop only with the ten times stricter `c ‖Δ_1‖ ≤ κ/10`, where
//! `c = θ/(1 − θ)` comes from a rate measured with the same factorization of `W` (as MATLAB's
//! `ode23t` and `ode23tb` do). That rate belongs to an earlier step; since `J` and `W` are kept
//! while the solution moves on, the true rate of the current step can be much slower. A single
//! chord step with a stale `W` then passes for converged step after step, the iterates lag
//! behind the implicit formula's solution, and the error estimate, built from the same iterates,
//! does not see it (OREGO at `rtol = 1e-4`: errors of 10⁴ tolerances). As in Hairer's RADAU5
//! (Hairer & Wanner, *Solving ODEs II*, §IV.8, the code's `FACCON = max(FACCON, uround)^0.8` at
//! every new step), the factor is therefore inflated at every new step, `c ← max(c, ε)^{0.8}`,
//! so that an old rate soon stops admitting one-iteration exits and a fresh one is measured.
//!
//! A singular `M` makes the rows of `W` of very different sizes (algebraic rows are `g h` times
//! rows of `J`): each row is then scaled by its largest entry before the factorization (and the
//! right-hand sides alike), as MATLAB's `ode23t` does for DAEs.

use crate::control::NormAcc;
use crate::linalg::{JacobianWork, Lu, Singular};
use crate::options::ErrorNorm;
use crate::stepper::all_finite;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Newton stopping tolerance `κ` (fraction of the error tolerance) without `newton.tol`.
pub(crate) const DEFAULT_TOL: f64 = 1.0 / 3.0;
/// Iterations per stage without `newton.max_iters`.
pub(crate) const DEFAULT_MAX_ITERS: usize = 5;
/// `θ_J` without `newton.jacobian_reuse`: `J` is refreshed before a step whose predecessor's
/// iteration contracted more slowly (RADAU5's default `THET`).
pub(crate) const DEFAULT_JACOBIAN_REUSE: f64 = 0.001;
/// Iterations allowed with constant steps (`h_fixed`) once the iteration has failed with a
/// Jacobian from the current point: the step cannot be shrunk, so a slowly contracting (but
/// converging, `θ < 0.9`) iteration is given more iterations before [`OdeError::NewtonFailed`].
pub(crate) const FIXED_STEP_MAX_ITERS: usize = 50;

/// The Newton settings in force (options or the defaults above).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NewtonSettings {
    /// Stopping tolerance `κ`.
    pub tol: f64,
    /// Iterations allowed per stage.
    pub max_iters: usize,
    /// Refresh `J` before a step whose predecessor contracted more slowly than this.
    pub reuse: f64,
}

impl NewtonSettings {
    /// The settings of `opts.newton`, defaults filled in.
    pub(crate) fn from_options(opts: &SolverOptions) -> Self {
        Self {
            tol: opts.newton.tol.unwrap_or(DEFAULT_TOL),
            max_iters: opts.newton.max_iters.unwrap_or(DEFAULT_MAX_ITERS),
            reuse: opts.newton.jacobian_reuse.unwrap_or(DEFAULT_JACOBIAN_REUSE),
        }
    }
}

/// How a stage's iteration ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Converged: `z` and `y` hold the stage's solution.
    Converged,
    /// Diverged, or too slow to converge within the allowed iterations.
    Failed,
    /// The vector field was NaN or infinite at an iterate.
    NonFinite,
}

/// The buffers one stage solve works in (each of the full state length).
pub(crate) struct StageBuffers<'a> {
    /// The known part `v` of the stage value.
    pub v: &'a [f64],
    /// The scaled derivative `z` (predictor in, solution out).
    pub z: &'a mut [f64],
    /// The stage value `y = v + g z` (out).
    pub y: &'a mut [f64],
    /// Scratch for `f`.
    pub f: &'a mut [f64],
    /// Scratch for the residual and the correction.
    pub res: &'a mut [f64],
}

/// Jacobian, iteration matrix and convergence history of the simplified Newton iteration.
#[derive(Debug, Clone, Default)]
pub(crate) struct Iteration {
    /// Jacobian, mass matrix and block structure of the system.
    pub jw: JacobianWork,
    lu: Lu,
    /// Row scaling of `W` (empty: none).
    row_scale: Vec<f64>,
    /// `g h` of the factorization in `lu` (`None`: none valid).
    factored: Option<f64>,
    /// Whether `J` was evaluated at the current point.
    jac_current: bool,
    /// Contraction rate measured with the factorization in `lu` (`None`: not yet).
    theta: Option<f64>,
    /// `c = θ/(1 − θ)` admitting a one-iteration exit, inflated at every new step (`None`: none
    /// measured with the factorization in `lu`).
    first_exit: Option<f64>,
    /// Largest contraction rate `θ` seen since [`Iteration::begin_step`].
    rate: f64,
}

impl Iteration {
    /// Sizes the work for `sys`; `scale_rows` for a singular mass matrix.
    pub(crate) fn setup<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        scale_rows: bool,
    ) -> Result<(), OdeError> {
        self.jw.setup(sys)?;
        // Sized now, so that the steps do not allocate.
        self.lu.matrix_mut(self.jw.n());
        self.row_scale.clear();
        if scale_rows {
            self.row_scale.resize(self.jw.n(), 1.0);
        }
        self.factored = None;
        self.jac_current = false;
        self.theta = None;
        self.first_exit = None;
        self.rate = 0.0;
        Ok(())
    }

    /// Evaluates `J` at `(t, y)` (`f = f(t, y)` for finite differences) and drops the
    /// factorization.
    pub(crate) fn refresh_jacobian<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        f: &[f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.jw.evaluate(sys, t, y, f, stats)?;
        self.jac_current = true;
        self.factored = None;
        Ok(())
    }

    /// Whether `J` was evaluated at the current point.
    pub(crate) fn jacobian_is_current(&self) -> bool {
        self.jac_current
    }

    /// The integration moved on: `J` now belongs to an earlier point.
    pub(crate) fn point_moved(&mut self) {
        self.jac_current = false;
    }

    /// Starts a step: forgets the contraction rate of the last one, inflates the factor of the
    /// one-iteration exit (`c ← max(c, ε)^{0.8}`, see the module docs), and says whether `J`
    /// should be refreshed first (the last step contracted more slowly than `θ_J`).
    pub(crate) fn begin_step(&mut self, set: &NewtonSettings) -> bool {
        let stale = !self.jac_current && self.rate > set.reuse;
        self.rate = 0.0;
        self.first_exit = self.first_exit.map(|c| c.max(f64::EPSILON).powf(0.8));
        stale
    }

    /// Factors `W = M − g h J` unless the factorization in hand already is that one (counts one
    /// LU decomposition when it factors).
    pub(crate) fn factor(&mut self, gh: f64, stats: &mut Stats) -> Result<(), Singular> {
        if self.factored == Some(gh) {
            return Ok(());
        }
        self.factored = None;
        self.theta = None;
        self.first_exit = None;
        let n = self.jw.n();
        stats.lu_decompositions += 1;
        let a = self.lu.matrix_mut(n);
        self.jw.fill_shifted(a, 1.0, -gh);
        if !self.row_scale.is_empty() {
            for i in 0..n {
                let row = &mut a[i * n..(i + 1) * n];
                let big = row.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                let s = if big > 0.0 && big.is_finite() {
                    1.0 / big
                } else {
                    1.0
                };
                self.row_scale[i] = s;
                row.iter_mut().for_each(|v| *v *= s);
            }
        }
        self.lu.factor()?;
        self.factored = Some(gh);
        Ok(())
    }

    /// Solves `W x = b` in place for a full state vector (block by block for `[x, Φ]`).
    pub(crate) fn solve(&self, b: &mut [f64]) {
        if !self.row_scale.is_empty() {
            let (n, c) = (self.jw.n(), self.jw.columns());
            for (i, &s) in self.row_scale.iter().enumerate() {
                b[i] *= s;
                for v in &mut b[n + i * c..n + (i + 1) * c] {
                    *v *= s;
                }
            }
        }
        self.jw.solve(&self.lu, b);
    }

    /// Solves the stage equation `M z = h f(t, v + g z)` by the simplified Newton iteration with
    /// the current factorization of `W = M − g h J` (see the module docs). `wt` holds the error
    /// weights of the controlled components.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn solve_stage<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        h: f64,
        g: f64,
        b: StageBuffers<'_>,
        wt: &[f64],
        norm: ErrorNorm,
        set: &NewtonSettings,
        stats: &mut Stats,
    ) -> Outcome {
        let StageBuffers { v, z, y, f, res } = b;
        for ((yi, vi), zi) in y.iter_mut().zip(v).zip(z.iter()) {
            *yi = vi + g * zi;
        }
        let mut prev = 0.0;
        let mut theta = self.theta.unwrap_or(0.0);
        for k in 0..set.max_iters {
            sys.rhs(t, y, f);
            stats.rhs_evals += 1;
            if !all_finite(f) {
                return Outcome::NonFinite;
            }
            self.jw.mass_times(z, res);
            for (r, fi) in res.iter_mut().zip(f.iter()) {
                *r = h * fi - *r;
            }
            self.solve(res);
            stats.newton_iters += 1;
            for ((zi, yi), d) in z.iter_mut().zip(y.iter_mut()).zip(res.iter()) {
                *zi += d;
                *yi += g * d;
            }
            let mut acc = NormAcc::new(norm);
            for (d, w) in res.iter().zip(wt) {
                acc.add(g * d / w);
            }
            let nrm = acc.finish();
            if !nrm.is_finite() {
                return Outcome::Failed;
            }
            if nrm == 0.0 {
                return Outcome::Converged;
            }
            if k == 0 {
                if self.first_exit.is_some_and(|c| c * nrm <= 0.1 * set.tol) {
                    return Outcome::Converged;
                }
            } else {
                let ratio = nrm / prev;
                if !(ratio < 0.9) {
                    self.rate = self.rate.max(ratio);
                    return Outcome::Failed;
                }
                theta = (0.9 * theta).max(ratio);
                self.theta = Some(theta);
                self.first_exit = Some(theta / (1.0 - theta));
                self.rate = self.rate.max(theta);
                if theta / (1.0 - theta) * nrm <= set.tol {
                    return Outcome::Converged;
                }
                let left = (set.max_iters - 1 - k) as i32;
                if theta.powi(left) / (1.0 - theta) * nrm > set.tol {
                    return Outcome::Failed;
                }
            }
            prev = nrm;
        }
        Outcome::Failed
    }
}

/// The error weights `w_i` of the controlled components from the current state, times the
/// tolerance scale `s` of [`super::step::tolerance_scale`]: the iteration error is measured
/// against the tolerance the local error is held to.
pub(crate) fn newton_weights(opts: &SolverOptions, scale: f64, y: &[f64], wt: &mut [f64]) {
    for (i, w) in wt.iter_mut().enumerate() {
        *w = scale * crate::control::weight(opts, i, y[i], y[i]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FnSystem;

    /// A linear stage `z = h λ (v + g z)` converges in one iteration with the exact `J`, and a
    /// nonlinear one in a few, to the solution of the stage equation.
    #[test]
    fn stage_iteration_solves_the_stage_equation() {
        let sys = FnSystem::new(1, |_t, y: &[f64], dy: &mut [f64]| dy[0] = -y[0] * y[0]);
        let mut it = Iteration::default();
        it.setup(&sys, false).unwrap();
        let (y0, h, g) = (1.0, 0.1, 0.5);
        let mut f0 = [0.0];
        sys.rhs(0.0, &[y0], &mut f0);
        let mut stats = Stats::default();
        it.refresh_jacobian(&sys, 0.0, &[y0], &f0, &mut stats)
            .unwrap();
        it.factor(g * h, &mut stats).unwrap();
        let set = NewtonSettings {
            tol: 1e-3,
            max_iters: 10,
            reuse: DEFAULT_JACOBIAN_REUSE,
        };
        let (v, mut z, mut y, mut f, mut res) =
            ([y0 + g * h * f0[0]], [h * f0[0]], [0.0], [0.0], [0.0]);
        let out = it.solve_stage(
            &sys,
            h,
            h,
            g,
            StageBuffers {
                v: &v,
                z: &mut z,
                y: &mut y,
                f: &mut f,
                res: &mut res,
            },
            &[1e-10],
            ErrorNorm::Rms,
            &set,
            &mut stats,
        );
        assert_eq!(out, Outcome::Converged);
        // Trapezoidal step of y' = −y²: y1 = y0 − (h/2)(y0² + y1²).
        let exact = (-1.0 + (1.0 + 2.0 * h * (y0 - 0.5 * h * y0 * y0)).sqrt()) / h;
        assert!((y[0] - exact).abs() < 1e-12, "{} vs {exact}", y[0]);
        assert!((z[0] - h * (-y[0] * y[0])).abs() < 1e-12);
        assert_eq!(stats.lu_decompositions, 1);
        // The same factorization is reused for the same g h.
        it.factor(g * h, &mut stats).unwrap();
        assert_eq!(stats.lu_decompositions, 1);
    }

    /// `J` is refreshed after a step that contracted more slowly than `θ_J`, and the factor of
    /// the one-iteration exit grows at every new step, `c ← c^{0.8}`, towards 1.
    #[test]
    fn stale_jacobians_and_rates_are_retired() {
        let set = NewtonSettings {
            tol: DEFAULT_TOL,
            max_iters: DEFAULT_MAX_ITERS,
            reuse: DEFAULT_JACOBIAN_REUSE,
        };
        let mut it = Iteration {
            rate: 0.01,
            ..Default::default()
        };
        assert!(it.begin_step(&set));
        it.rate = 1e-4;
        assert!(!it.begin_step(&set));
        it.jac_current = true;
        it.rate = 0.5;
        assert!(!it.begin_step(&set), "J is from the current point already");
        it.first_exit = Some(0.01);
        it.begin_step(&set);
        assert!((it.first_exit.unwrap() - 0.01f64.powf(0.8)).abs() < 1e-15);
        for _ in 0..20 {
            it.begin_step(&set);
        }
        // After 21 steps c = 0.01^{0.8^21} ≈ 0.96: an old rate no longer admits a
        // one-iteration exit unless the correction is below κ/10 in the error norm.
        assert!(it.first_exit.unwrap() > 0.95);
    }
}
