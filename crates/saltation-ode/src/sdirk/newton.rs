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
//! `J` an approximation of `∂f/∂y` that is kept from step to step until the iteration fails
//! (then it is evaluated afresh at the current point), and `W` refactored only when `g h` or `J`
//! changes. For a variational system `W` acts block by block (`I ⊗ W` on `[x, Φ]`, the staggered
//! corrector of [`JacobianWork::solve`]).
//!
//! The stopping test is Hairer & Wanner's (*Solving ODEs II*, §IV.8): with
//! the contraction rate `θ = ‖Δ_k‖ / ‖Δ_{k−1}‖` (smoothed as `max(0.9 θ_old, θ)`) the iteration
//! stops when `θ/(1 − θ) ‖Δ_k‖ ≤ κ`; it has failed when `θ ≥ 0.9`, when
//! `θ^{k_max−k} / (1 − θ) ‖Δ_k‖ > κ` predicts no convergence within `k_max` iterations, or after
//! `k_max` iterations. The first iteration may stop only with a rate measured with the same
//! factorization of `W` and the ten times stricter `θ/(1 − θ) ‖Δ_1‖ ≤ κ/10` (as MATLAB's
//! `ode23t` and `ode23tb` do): a single chord step with an old `J` would otherwise pass for
//! converged, and the stiff components would be integrated explicitly. Norms are the error norm
//! of the step-size control (weights `w_i`, controlled components only) applied to the
//! correction `g Δ` of `y`. Defaults: `κ = 1/3`, `k_max = 5` (with `h_fixed`, where a failed
//! step cannot be retried smaller, `k_max = 50` once `J` is fresh).
//!
//! A singular `M` makes the rows of `W` of very different sizes (algebraic rows are `g h` times
//! rows of `J`): each row is then scaled by its largest entry before the factorization (and the
//! right-hand sides alike), as MATLAB's `ode23t` does for DAEs.

use crate::control::NormAcc;
use crate::linalg::{JacobianWork, Lu, Singular};
use crate::options::ErrorNorm;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Newton stopping tolerance `κ` (fraction of the error tolerance) without `newton.tol`.
pub(crate) const DEFAULT_TOL: f64 = 1.0 / 3.0;
/// Iterations per stage without `newton.max_iters`.
pub(crate) const DEFAULT_MAX_ITERS: usize = 5;
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
    /// Refresh `J` before a step whose predecessor contracted more slowly than this
    /// (`None`: only when the iteration fails).
    pub reuse: Option<f64>,
}

impl NewtonSettings {
    /// The settings of `opts.newton`, defaults filled in.
    pub(crate) fn from_options(opts: &SolverOptions) -> Self {
        Self {
            tol: opts.newton.tol.unwrap_or(DEFAULT_TOL),
            max_iters: opts.newton.max_iters.unwrap_or(DEFAULT_MAX_ITERS),
            reuse: opts.newton.jacobian_reuse,
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
    ) {
        self.jw.evaluate(sys, t, y, f, stats);
        self.jac_current = true;
        self.factored = None;
    }

    /// Whether `J` was evaluated at the current point.
    pub(crate) fn jacobian_is_current(&self) -> bool {
        self.jac_current
    }

    /// The integration moved on: `J` now belongs to an earlier point.
    pub(crate) fn point_moved(&mut self) {
        self.jac_current = false;
    }

    /// Starts a step: forgets the contraction rate of the last one, and says whether `J`
    /// should be refreshed first (`newton.jacobian_reuse` set and exceeded by the last step).
    pub(crate) fn begin_step(&mut self, set: &NewtonSettings) -> bool {
        let stale = !self.jac_current && set.reuse.is_some_and(|th| self.rate > th);
        self.rate = 0.0;
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
                if let Some(th) = self.theta {
                    if th / (1.0 - th) * nrm <= 0.1 * set.tol {
                        return Outcome::Converged;
                    }
                }
            } else {
                let ratio = nrm / prev;
                if !(ratio < 0.9) {
                    self.rate = self.rate.max(ratio);
                    return Outcome::Failed;
                }
                theta = (0.9 * theta).max(ratio);
                self.theta = Some(theta);
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

/// Whether every entry is finite.
pub(crate) fn all_finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// The error weights `w_i` of the controlled components from the current state.
pub(crate) fn newton_weights(opts: &SolverOptions, y: &[f64], wt: &mut [f64]) {
    for (i, w) in wt.iter_mut().enumerate() {
        *w = crate::control::weight(opts, i, y[i], y[i]);
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
        it.refresh_jacobian(&sys, 0.0, &[y0], &f0, &mut stats);
        it.factor(g * h, &mut stats).unwrap();
        let set = NewtonSettings {
            tol: 1e-3,
            max_iters: 10,
            reuse: None,
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
}
