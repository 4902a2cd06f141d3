//! The simplified Newton iteration for the correction `d = y_{n+1} − y⁽⁰⁾_{n+1}`.
//!
//! The order-`k` formula with a constant mass matrix `M` is `M (ψ + d) = (h/α_k) f(t_{n+1},
//! y⁽⁰⁾ + d)` (see [`super::differences::predict`]). Each iteration solves
//!
//! `(M − (h/α_k) J) Δ = (h/α_k) f(t_{n+1}, y⁽ⁱ⁾) − M (ψ + d⁽ⁱ⁾)`,  `d⁽ⁱ⁺¹⁾ = d⁽ⁱ⁾ + Δ`,
//!
//! with one LU of the `n × n` iteration matrix (the state's; a variational state `[x, Φ]` is
//! solved block by block with the same factors, [`JacobianWork::solve`]). The stopping test is
//! that of Shampine & Reichelt's `ode15s` (1997, §2 and the code): with `θ` the observed rate
//! `‖Δ⁽ⁱ⁾‖ / ‖Δ⁽ⁱ⁻¹⁾‖` (kept across steps while the iteration matrix is unchanged), the iteration
//! has converged when `‖Δ‖ θ/(1−θ) ≤ τ` (`τ` = `newton.tol`, default 0.5, in the weighted norm
//! of the error test), already after the first iteration when the old rate gives
//! `‖Δ‖ θ/(1−θ) ≤ τ/10`, and when `‖Δ‖` is at round-off level (`100 ε ‖y⁽⁰⁾‖`). It gives up when
//! `‖Δ‖` grows (`> 0.9` times the last), when the iteration cap is reached (`newton.max_iters`,
//! default 4) or when `‖Δ‖ θ^{cap−i} θ/(1−θ) > τ` predicts that the cap will be reached first.
//!
//! With a fixed step (`h_fixed`, error control off) a failed iteration cannot be retried with a
//! smaller step, and the step's accuracy is unrelated to the tolerances that scale the norm: the
//! default cap is then [`MAX_NEWTON_ITERS`] (the iteration still stops when it diverges).

use super::work::weighted_norm;
use crate::linalg::{JacobianWork, Lu};
use crate::{OdeSystem, SolverOptions, Stats, MAX_NEWTON_ITERS};

/// `ode15s`'s Newton tolerance `τ` (its test is `errit ≤ 0.5 rtol` in a norm scaled by
/// `max(|y|, atol/rtol)`, i.e. `≤ 0.5` in the weighted norm).
pub const NEWTON_TOL: f64 = 0.5;
/// `ode15s`'s iteration cap.
pub const NEWTON_MAX_ITERS: usize = 4;

/// How the iteration ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// `d` and `ynew = pred + d` hold the solution of the step.
    Converged,
    /// Diverging or too slow: retry with a new Jacobian or a smaller step.
    Failed,
    /// `f` or the correction became NaN or infinite.
    NonFinite,
}

/// What the iteration reads.
pub struct Problem<'a> {
    /// `t_{n+1}`.
    pub t: f64,
    /// `h / α_k`.
    pub c: f64,
    /// Predictor `y⁽⁰⁾`.
    pub pred: &'a [f64],
    /// `ψ`.
    pub psi: &'a [f64],
    /// Error weights of the controlled components.
    pub w: &'a [f64],
    /// Number of controlled components.
    pub m: usize,
    /// The options (norm, Newton tolerance and cap).
    pub opts: &'a SolverOptions,
    /// Fixed step: the default iteration cap is [`MAX_NEWTON_ITERS`].
    pub fixed: bool,
}

/// What the iteration writes.
pub struct Scratch<'a> {
    /// The correction `d` (output).
    pub d: &'a mut [f64],
    /// `y⁽⁰⁾ + d` (output).
    pub ynew: &'a mut [f64],
    /// `f` at the iterate.
    pub f: &'a mut [f64],
    /// The Newton correction `Δ`.
    pub del: &'a mut [f64],
    /// `ψ + d`.
    pub tmp: &'a mut [f64],
}

/// Runs the iteration from `d = 0`. `rate` is the contraction rate of the current iteration
/// matrix (`None` until one was observed); it is updated.
pub fn iterate<S: OdeSystem + ?Sized>(
    sys: &S,
    jw: &JacobianWork,
    lu: &Lu,
    p: &Problem<'_>,
    s: Scratch<'_>,
    rate: &mut Option<f64>,
    stats: &mut Stats,
) -> Outcome {
    let opts = p.opts;
    let tol = opts.newton.tol.unwrap_or(NEWTON_TOL);
    let default_cap = if p.fixed {
        MAX_NEWTON_ITERS
    } else {
        NEWTON_MAX_ITERS
    };
    let max_iters = opts.newton.max_iters.unwrap_or(default_cap);
    s.d.fill(0.0);
    s.ynew.copy_from_slice(p.pred);
    let min_norm = 100.0 * f64::EPSILON * weighted_norm(p.pred, p.w, p.m, opts);
    let identity = jw.has_identity_mass();
    let mut old_norm = 0.0;
    for iter in 1..=max_iters {
        sys.rhs(p.t, s.ynew, s.f);
        stats.rhs_evals += 1;
        stats.newton_iters += 1;
        // Δ = (M − c J)⁻¹ (c f − M (ψ + d))
        if identity {
            for i in 0..s.del.len() {
                s.del[i] = p.c * s.f[i] - (p.psi[i] + s.d[i]);
            }
        } else {
            for i in 0..s.tmp.len() {
                s.tmp[i] = p.psi[i] + s.d[i];
            }
            jw.mass_times(s.tmp, s.del);
            for i in 0..s.del.len() {
                s.del[i] = p.c * s.f[i] - s.del[i];
            }
        }
        jw.solve(lu, s.del);
        let new_norm = weighted_norm(s.del, p.w, p.m, opts);
        if !new_norm.is_finite() {
            return Outcome::NonFinite;
        }
        for i in 0..s.d.len() {
            s.d[i] += s.del[i];
            s.ynew[i] = p.pred[i] + s.d[i];
        }
        if new_norm <= min_norm {
            return Outcome::Converged;
        }
        if iter == 1 {
            // With the rate of earlier steps the first correction may already be enough;
            // the test is stricter since that rate is older.
            if let Some(th) = *rate {
                if new_norm * th / (1.0 - th) <= 0.1 * tol {
                    return Outcome::Converged;
                }
            }
        } else if new_norm > 0.9 * old_norm {
            return Outcome::Failed;
        } else {
            let th = (0.9 * rate.unwrap_or(0.0)).max(new_norm / old_norm);
            *rate = Some(th);
            let est = new_norm * th / (1.0 - th);
            if est <= tol {
                return Outcome::Converged;
            }
            if iter == max_iters || est * th.powi((max_iters - iter) as i32) > tol {
                return Outcome::Failed;
            }
        }
        old_norm = new_norm;
    }
    Outcome::Failed
}
