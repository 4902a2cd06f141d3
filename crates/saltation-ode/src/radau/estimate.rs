//! The local error estimate of RADAU5 (Hairer & Wanner, *Solving ODEs II*, 2nd ed. 1996,
//! §IV.8; their routine `ESTRAD`).
//!
//! An embedded formula of order 3 that uses `f(t₀, y₀)` as an extra stage with weight
//! `γ₀ = 1/γ̂` gives `ŷ₁ − y₁ = γ₀ (h f(t₀, y₀) + Σ dᵢ Zᵢ)` (the `dᵢ` annihilate cubic
//! solutions, see `coefficients::DD`). It is filtered through the real iteration matrix so that
//! it stays bounded for stiff components:
//!
//! `err = (γ̂/h M − J)⁻¹ (f(t₀, y₀) + M Σ dᵢ Zᵢ / h)`.
//!
//! On the first step and after a rejection, an estimate `≥ 1` is recomputed once with `f`
//! evaluated at the estimated point, `err' = (γ̂/h M − J)⁻¹ (f(t₀, y₀ + err) + M Σ dᵢ Zᵢ / h)`
//! (same section; it removes the estimate's growth for very stiff components).
//! That second estimate is right only where the rejected error lies in components that decay
//! over the step, as the L-stable method damps them (`R(z) → 0` as `|z| → ∞`): it is used only
//! when the Rayleigh quotient of `J` along the first estimate `e` (its state part),
//! `q = eᵀ J e / eᵀ e` (the decay rate of `‖e‖` under `y' = J y`), says so: `h q ≤ −1`. A stiff rotation (`J` skew, `q = 0`) or growth keeps the first
//! estimate, so the step shrinks until the oscillation is resolved instead of being damped to
//! zero with an estimate that claims the step exact.
//! The norm is the crate's (weights `w(y₀, y₁)`, the options' norm over the controlled
//! components), floored at `1e-10` as in RADAU5; NaN stays NaN.

use super::coefficients::DD;
use super::work::Work;
use crate::control::{weight, NormAcc};
use crate::linalg::{JacobianWork, Lu};
use crate::step_state::StepState;
use crate::{OdeSystem, SolverOptions, Stats};

/// The scaled error estimate of the step `(t, y) → y + Z₃` of size `h` from the current point
/// of `st` (with `f(t, y)` there), computed in `w.k`
/// (`lu` holds the real factors of `γ̂/h M − J`). `second` allows the second estimate (first
/// step, after a rejection). `mc` is the number of controlled components.
#[allow(clippy::too_many_arguments)]
pub(super) fn error_norm<S: OdeSystem + ?Sized>(
    sys: &S,
    jw: &JacobianWork,
    lu: &Lu,
    w: &mut Work,
    st: &StepState,
    h: f64,
    second: bool,
    mc: usize,
    opts: &SolverOptions,
    stats: &mut Stats,
) -> f64 {
    let (h1, h2, h3) = (DD[0] / h, DD[1] / h, DD[2] / h);
    {
        let [e1, e2, e3] = &mut w.k;
        let [z1, z2, z3] = &w.z;
        // e1 = Σ dᵢ Zᵢ / h, e2 = M e1, e3 = e2 + f(t₀, y₀).
        for i in 0..e1.len() {
            e1[i] = h1 * z1[i] + h2 * z2[i] + h3 * z3[i];
        }
        jw.mass_times(e1, e2);
        for i in 0..e3.len() {
            e3[i] = e2[i] + st.f[i];
        }
        jw.solve(lu, e3);
    }
    let mut err = scaled_norm(w, &st.y, mc, opts);
    if second && !(err < 1.0) && decays_over_step(jw, &w.k[2], h) {
        for i in 0..w.tmp.len() {
            w.tmp[i] = st.y[i] + w.k[2][i];
        }
        let [e1, e2, e3] = &mut w.k;
        sys.rhs(st.t, &w.tmp, e1);
        stats.rhs_evals += 1;
        for i in 0..e3.len() {
            e3[i] = e1[i] + e2[i];
        }
        jw.solve(lu, e3);
        err = scaled_norm(w, &st.y, mc, opts);
    }
    if err < 1e-10 {
        1e-10
    } else {
        err
    }
}

/// Whether the first estimate `e = w.k[2]` lies in components that decay over the step: the
/// Rayleigh quotient `q = eᵀ J e / eᵀ e` of `J` along `e`'s state part (the instantaneous decay
/// rate of `‖e‖` under `y' = J y`; it lies in the field of values of `J`, `0` for a skew `J`)
/// satisfies `h q ≤ −1`. Unweighted: a diagonal scaling would turn a rotation's zero rate into
/// an arbitrary one. With a mass matrix (algebraic components are infinitely stiff by design)
/// the second estimate is always allowed, as in RADAU5.
fn decays_over_step(jw: &JacobianWork, e: &[f64], h: f64) -> bool {
    if !jw.has_identity_mass() {
        return true;
    }
    let n = jw.n();
    let (mut num, mut den) = (0.0, 0.0);
    for i in 0..n {
        let je: f64 = (0..n).map(|k| jw.jac[i * n + k] * e[k]).sum();
        num += e[i] * je;
        den += e[i] * e[i];
    }
    // Not finite, or no direction (den = 0): no evidence of decay, keep the first estimate.
    den > 0.0 && h * (num / den) <= -1.0
}

/// `‖e / w(y₀, y₀ + Z₃)‖` of `e = w.k[2]` over the first `mc` components.
fn scaled_norm(w: &Work, y: &[f64], mc: usize, opts: &SolverOptions) -> f64 {
    let mut acc = NormAcc::new(opts.norm);
    let stages = w.k[2].iter().zip(y).zip(&w.z[2]).take(mc);
    for (i, ((e, &y0), z3)) in stages.enumerate() {
        acc.add(e / weight(opts, i, y0, y0 + z3));
    }
    acc.finish()
}
