//! The simplified Newton iteration for the stage increments (Hairer & Wanner, *Solving ODEs
//! II*, 2nd ed. 1996, §IV.8; their code RADAU5).
//!
//! The stage equations `M Zᵢ = h Σⱼ aᵢⱼ f(t + cⱼh, y + Zⱼ)` read, with `W = (T⁻¹ ⊗ I) Z`,
//! `(h⁻¹Λ ⊗ M) W = (T⁻¹ ⊗ I) F(Z)`, `Λ = T⁻¹A⁻¹T = diag(γ̂, [[α̂, −β̂], [β̂, α̂]])`. One simplified
//! Newton step with the Jacobian `J` frozen at the step start solves
//!
//! * `(γ̂/h M − J) ΔW₁ = (T⁻¹F)₁ − γ̂/h M W₁` (real `n × n` LU),
//! * `((α̂ + iβ̂)/h M − J)(ΔW₂ + iΔW₃) = (T⁻¹F)₂ + i(T⁻¹F)₃ − (α̂ + iβ̂)/h M (W₂ + iW₃)`
//!   (complex `n × n` LU),
//!
//! then `W += ΔW`, `Z = (T ⊗ I) W`. A variational state `[x, Φ]` is solved with the same
//! `n × n` factors, block by block ([`JacobianWork::solve`]).
//!
//! Convergence (§IV.8): with `Θₖ = ‖ΔWₖ‖/‖ΔWₖ₋₁‖` (from the third iteration on
//! the geometric mean of the last two ratios), the iteration stops when
//! `η ‖ΔWₖ‖ ≤ fnewt`, `η = Θ/(1 − Θ)` (at the first iteration the previous step's `η^{0.8}`).
//! It fails when `Θ ≥ 0.99` or after `nit` iterations, and — with error control — when the
//! predicted final correction `η ‖ΔWₖ‖ Θ^{nit−1−k}` exceeds `fnewt`; the step is then retried
//! with `h · 0.8 q^{−1/(4+nit−1−k)}`, `q = clamp(that prediction / fnewt, 1e-4, 20)`.

use super::coefficients::{ALPHA, BETA, C, GAMMA, T, TI};
use super::work::Work;
use crate::control::NormAcc;
use crate::linalg::{ComplexLu, JacobianWork, Lu};
use crate::options::ErrorNorm;
use crate::step_state::StepState;
use crate::stepper::all_finite;
use crate::{OdeSystem, Stats};

/// How the iteration ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Outcome {
    /// Converged after this many iterations.
    Converged(usize),
    /// `Θ ≥ 0.99` or the iteration cap was reached.
    Diverged,
    /// Converging too slowly to finish in time: retry with the step multiplied by this.
    Slow(f64),
    /// A stage derivative or the correction was NaN or infinite.
    NonFinite,
}

/// Settings of one step's iteration.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings {
    /// Iteration cap `nit`.
    pub nit: usize,
    /// Stopping tolerance `fnewt`.
    pub fnewt: f64,
    /// Jacobian reuse threshold `thet`: the contraction rate assumed until the second
    /// iteration measures one.
    pub thet: f64,
    /// Error control on: the slow-convergence prediction may ask for a smaller step. Off
    /// (`h_fixed`), an iteration that stops contracting or reaches the cap with its last
    /// correction within `1000 · roundoff` has converged to round-off.
    pub adaptive: bool,
    /// A correction of `10 ε` relative to the state, in the scaled norm.
    pub roundoff: f64,
    /// Norm of the corrections.
    pub norm: ErrorNorm,
    /// Components in the norm.
    pub mc: usize,
}

/// Contraction state carried from step to step.
#[derive(Debug, Clone, Copy)]
pub(super) struct Contraction {
    /// Last contraction rate `Θ`.
    pub theta: f64,
    /// `η = Θ/(1 − Θ)` of the last iteration.
    pub faccon: f64,
}

/// Zero starting values (first step, after a restart).
pub(super) fn zero_start(w: &mut Work) {
    for v in w.z.iter_mut().chain(w.w.iter_mut()) {
        v.fill(0.0);
    }
}

/// `W = (T⁻¹ ⊗ I) Z` for the starting values.
pub(super) fn transform_start(w: &mut Work) {
    let [z1, z2, z3] = &w.z;
    let [w1, w2, w3] = &mut w.w;
    for i in 0..z1.len() {
        let (a, b, c) = (z1[i], z2[i], z3[i]);
        w1[i] = TI[0][0] * a + TI[0][1] * b + TI[0][2] * c;
        w2[i] = TI[1][0] * a + TI[1][1] * b + TI[1][2] * c;
        w3[i] = TI[2][0] * a + TI[2][1] * b + TI[2][2] * c;
    }
}

/// The simplified Newton iteration of one step of size `h` from the current point `(t, y)` of
/// `st` (stages at `t + cᵢh`, the last at `t_new`). `lu`/`clu` hold the factors of `γ̂/h M − J` and
/// `(α̂ + iβ̂)/h M − J`; `w.z`, `w.w` hold the starting values; `w.scal` the weights.
#[allow(clippy::too_many_arguments)]
pub(super) fn iterate<S: OdeSystem + ?Sized>(
    sys: &S,
    jw: &JacobianWork,
    lu: &Lu,
    clu: &ComplexLu,
    w: &mut Work,
    st: &StepState,
    t_new: f64,
    h: f64,
    set: &Settings,
    con: &mut Contraction,
    stats: &mut Stats,
) -> Outcome {
    let nit = set.nit;
    let (fac1, alphn, betan) = (GAMMA / h, ALPHA / h, BETA / h);
    con.faccon = con.faccon.max(f64::EPSILON).powf(0.8);
    con.theta = set.thet;
    let (mut dynold, mut thqold) = (0.0f64, 0.0f64);
    let mut newt = 0usize;
    // With a fixed step: converged as far as round-off allows.
    let at_roundoff = |d: f64| !set.adaptive && d <= 1e3 * set.roundoff;
    loop {
        if newt >= nit {
            return if at_roundoff(dynold) {
                Outcome::Converged(newt)
            } else {
                Outcome::Diverged
            };
        }
        // Stage derivatives f(t + cᵢh, y + Zᵢ) into k.
        for (s, ((k, z), c)) in w.k.iter_mut().zip(&w.z).zip(C).enumerate() {
            for ((a, y), zi) in w.tmp.iter_mut().zip(&st.y).zip(z) {
                *a = y + zi;
            }
            let ts = if s == 2 { t_new } else { st.t + c * h };
            sys.rhs(ts, &w.tmp, k);
        }
        stats.rhs_evals += 3;
        if !w.k.iter().all(|k| all_finite(k)) {
            return Outcome::NonFinite;
        }
        transformed_rhs(w);
        subtract_mass_terms(jw, w, fac1, alphn, betan);
        {
            let [k1, k2, k3] = &mut w.k;
            jw.solve(lu, k1);
            jw.solve_complex(clu, k2, k3);
        }
        newt += 1;
        stats.newton_iters += 1;
        let dyno = correction_norm(w, set);
        if !dyno.is_finite() {
            return Outcome::NonFinite;
        }
        if newt > 1 && newt < nit {
            let thq = dyno / dynold;
            con.theta = if newt == 2 {
                thq
            } else {
                (thq * thqold).sqrt()
            };
            thqold = thq;
            if con.theta < 0.99 {
                con.faccon = con.theta / (1.0 - con.theta);
                if set.adaptive {
                    let left = (nit - 1 - newt) as i32;
                    let dyth = con.faccon * dyno * con.theta.powi(left) / set.fnewt;
                    if dyth >= 1.0 {
                        let qnewt = dyth.clamp(1e-4, 20.0);
                        return Outcome::Slow(0.8 * qnewt.powf(-1.0 / (4.0 + left as f64)));
                    }
                }
            } else if at_roundoff(dyno) {
                apply_correction(w);
                return Outcome::Converged(newt);
            } else {
                return Outcome::Diverged;
            }
        }
        dynold = dyno.max(f64::EPSILON);
        apply_correction(w);
        if con.faccon * dyno <= set.fnewt {
            return Outcome::Converged(newt);
        }
    }
}

/// `k ← (T⁻¹ ⊗ I) k`: the transformed right-hand sides.
fn transformed_rhs(w: &mut Work) {
    let [k1, k2, k3] = &mut w.k;
    for i in 0..k1.len() {
        let (a, b, c) = (k1[i], k2[i], k3[i]);
        k1[i] = TI[0][0] * a + TI[0][1] * b + TI[0][2] * c;
        k2[i] = TI[1][0] * a + TI[1][1] * b + TI[1][2] * c;
        k3[i] = TI[2][0] * a + TI[2][1] * b + TI[2][2] * c;
    }
}

/// `k₁ −= γ̂/h M W₁`, `k₂ + i k₃ −= (α̂ + iβ̂)/h M (W₂ + iW₃)`.
fn subtract_mass_terms(jw: &JacobianWork, w: &mut Work, fac1: f64, alphn: f64, betan: f64) {
    let [k1, k2, k3] = &mut w.k;
    let [w1, w2, w3] = &w.w;
    if jw.has_identity_mass() {
        for i in 0..k1.len() {
            k1[i] -= fac1 * w1[i];
            k2[i] -= alphn * w2[i] - betan * w3[i];
            k3[i] -= alphn * w3[i] + betan * w2[i];
        }
        return;
    }
    jw.mass_times(w1, &mut w.tmp);
    for (k, m) in k1.iter_mut().zip(&w.tmp) {
        *k -= fac1 * m;
    }
    jw.mass_times(w2, &mut w.tmp);
    jw.mass_times(w3, &mut w.tmp2);
    for i in 0..k2.len() {
        let (m2, m3) = (w.tmp[i], w.tmp2[i]);
        k2[i] -= alphn * m2 - betan * m3;
        k3[i] -= alphn * m3 + betan * m2;
    }
}

/// Scaled norm of the correction `ΔW` over the controlled components of the three stages.
fn correction_norm(w: &Work, set: &Settings) -> f64 {
    let mut acc = NormAcc::new(set.norm);
    for k in &w.k {
        for (d, s) in k[..set.mc].iter().zip(&w.scal[..set.mc]) {
            acc.add(d / s);
        }
    }
    acc.finish()
}

/// `W += ΔW`, `Z = (T ⊗ I) W`.
fn apply_correction(w: &mut Work) {
    let [k1, k2, k3] = &w.k;
    let [w1, w2, w3] = &mut w.w;
    let [z1, z2, z3] = &mut w.z;
    for i in 0..k1.len() {
        let (a, b, c) = (w1[i] + k1[i], w2[i] + k2[i], w3[i] + k3[i]);
        w1[i] = a;
        w2[i] = b;
        w3[i] = c;
        z1[i] = T[0][0] * a + T[0][1] * b + T[0][2] * c;
        z2[i] = T[1][0] * a + T[1][1] * b + T[1][2] * c;
        z3[i] = T[2][0] * a + b;
    }
}
