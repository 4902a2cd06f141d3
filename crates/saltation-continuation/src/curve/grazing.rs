//! The grazing function of a grazing curve: the admissibility quantity that reaches zero at
//! the grazing point, as a smooth function of `z = (u, p, p2)`.
//!
//! A model declares conditions `c_{m,i}(x; p) ≥ 0` that must hold in mode `m`. Where a
//! one-parameter branch stops being admissible, the checker names the condition `i`, the mode
//! `m` and the phase `k` of the stride (the `k`-th smooth piece, between events `k − 1` and `k`)
//! where it fails first. The grazing curve keeps, for that `(k, i)`,
//!
//! `γ(u, p, p2) = min_{t ∈ [t_{k−1}, t_k]} c_{m,i}(φ(t; χ(u), p, p2); p, p2)`
//!
//! at zero: the least value of the condition over the phase along the stride from `χ(u)`
//! (`χ` the chart), taken where it grazes — identified at the start as the candidate that goes
//! negative past the grazing point, and kept: the condition's value at the phase's start
//! (right after the reset: a contact force at touchdown), at its end (just before the event:
//! a contact force reaching zero at lift-off), or its least interior local minimum (an orbit
//! touching a constraint tangentially; a gap that is zero at both ends of its phase by
//! construction), each interior minimum located as a zero of `dc/dt` by the integrator's event
//! location on its dense output ([`saltation_hybrid::phase_minima`], the admissibility
//! checker's own rerun of the phase). Following the identified candidate (rather than the least
//! of all) keeps `γ` smooth where another candidate is zero too. Where the orbit is
//! inadmissible `γ < 0`, so Newton's iterates may lie on either side.
//!
//! Its gradient is by central differences, `∂γ/∂z_j ≈ (γ(z + h_j e_j) − γ(z − h_j e_j)) / 2h_j`
//! with `h_j = ∛max(rtol, ε) · max(1, |z_j|)`: the truncation error `O(h²)` and the error
//! `O(δ/h)` of `γ`'s own accuracy `δ ≈ rtol` balance at `h ∼ δ^{1/3}`, leaving a relative
//! error `∼ δ^{2/3}` (1e-8 at `rtol = 1e-12`). Only Newton's Jacobian carries this error; the
//! residual `γ` is exact to the integration tolerance, so the curve is too.
//!
//! With multiple shooting (`z = (w, p, p2)`, `w = (u, s_1, …, s_{S−1})`) the phase is
//! integrated from the start of its first segment, `s_j` in its mode (`χ(u)` for the first
//! phase), not along the whole stride from `χ(u)`: `γ(w, p, p2)` is the same function on the
//! solution set, and an unstable stride does not amplify the error of the phases before it.
//!
//! A guard touched tangentially inside a phase (the guard's interior minimum reaching zero
//! without a declared condition) is an implicit condition for tangency: where the located
//! grazing point has a guard's clearance at zero, the curve keeps that instead
//! ([`super::guard_graze`], named `guard:NAME`; its stride is run whole from `χ(u)`, also
//! with multiple shooting).

use super::family2::Plane;
use crate::branch::Bifurcation;
use crate::error::ContinuationError;
use nalgebra::DVector;
use saltation_hybrid::{
    first_violation, phase_minima, simulate, EvalModel, GuardOff, MinimumAt, PhaseMinima,
    SimulateOptions, Trace, CONDITION_TOL,
};
use serde::{Deserialize, Serialize};

/// The admissibility condition a grazing curve keeps at zero: the condition `condition` of
/// mode `mode` over phase `phase` of the stride.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GrazingCondition {
    /// The condition's name, as the model declares it.
    pub condition: String,
    /// The mode's name.
    pub mode: String,
    /// The phase: the `phase`-th smooth piece of the stride (0: from its start to the first
    /// event).
    pub phase: usize,
    /// Where the condition's least value over the phase sits at the curve's start.
    pub at: GrazingAt,
    /// The mode's index.
    pub mode_index: usize,
    /// The condition's index in its mode (the guard's index for a guard).
    pub condition_index: usize,
    /// Whether it is a guard touched tangentially rather than a declared condition: `γ` is
    /// then the guard's clearance, its least interior value signed to be `≥ 0` before it fires,
    /// and `condition` reads `guard:NAME`.
    #[serde(default)]
    pub guard: bool,
}

/// Where in its phase a grazing condition is least.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrazingAt {
    /// At the start of the phase (right after a reset).
    Start,
    /// Inside the phase (the trajectory touches the constraint tangentially).
    Interior,
    /// At the end of the phase (just before the event).
    End,
}

impl GrazingAt {
    fn of(at: MinimumAt) -> Self {
        match at {
            MinimumAt::Start => GrazingAt::Start,
            MinimumAt::Interior => GrazingAt::Interior,
            MinimumAt::End => GrazingAt::End,
        }
    }

    /// `start`, `interior` or `end`.
    pub fn key(self) -> &'static str {
        match self {
            GrazingAt::Start => "start",
            GrazingAt::Interior => "interior",
            GrazingAt::End => "end",
        }
    }
}

/// What [`stride_trace`] gives: the model, the start, the trace from it, its options and the
/// phase's index in the trace.
type PhaseTrace<M> = (GuardOff<M>, Vec<f64>, Trace, SimulateOptions, usize);

/// The model at `(p, p2)`, the start of phase `phase` and the trace from it, with the index
/// of that phase in the trace: from `χ(u)` one stride (the phase is `phase`); with multiple
/// shooting (`w` the lifted unknowns, longer than `u`) and a phase that starts at a segment
/// `j > 0`, from `s_j` in its mode to the phase's event (the phase is the trace's first).
fn stride_trace<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    w: &[f64],
    p: f64,
    p2: f64,
    phase: usize,
) -> Result<PhaseTrace<M>, ContinuationError> {
    let model = plane.model_at(p, p2)?;
    let (n, r) = (model.dim(), model.reduced_dim());
    let mut stride = plane.ev().stride.clone();
    let lifted = plane
        .plan()
        .filter(|_| w.len() > r)
        .and_then(|plan| plan.phase_start(phase))
        .filter(|&(j, _)| j > 0);
    let (x0, in_trace) = match lifted {
        Some((j, mode)) => {
            let at = r + (j - 1) * n;
            let s = w.get(at..at + n).ok_or(ContinuationError::Hybrid(
                saltation_hybrid::HybridError::DimensionMismatch {
                    what: "multiple-shooting unknowns",
                    expected: at + n,
                    got: w.len(),
                },
            ))?;
            stride.start_mode = mode;
            stride.events_per_stride = 1;
            (s.to_vec(), 0)
        }
        None => {
            let mut x0 = vec![0.0; n];
            model.chart(&w[..r.min(w.len())], &mut x0);
            (x0, phase)
        }
    };
    let sim = SimulateOptions {
        stride,
        strides: 1,
        dt: None,
        at: Some(Vec::new()),
        ..SimulateOptions::default()
    };
    let trace = simulate(&model, &x0, &sim)?;
    if let Some(e) = trace.failure {
        return Err(e.into());
    }
    Ok((model, x0, trace, sim, in_trace))
}

/// The candidates of `which`'s condition over its phase at `(u, p, p2)`.
fn minima_at<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    which: &GrazingCondition,
    u: &[f64],
    p: f64,
    p2: f64,
) -> Result<PhaseMinima, ContinuationError> {
    let (model, x0, trace, sim, phase) = stride_trace(plane, u, p, p2, which.phase)?;
    let lost = |reason: String| ContinuationError::Grazing { p, p2, reason };
    let min = phase_minima(
        &model,
        &trace,
        sim.t0,
        &x0,
        &sim.stride,
        phase,
        which.condition_index,
    )?
    .ok_or_else(|| {
        lost(format!(
            "the stride has {} phase(s), not the phase {} where `{}` grazes",
            trace.events.len() + 1,
            which.phase,
            which.condition
        ))
    })?;
    if min.mode != which.mode_index {
        return Err(lost(format!(
            "phase {} is in mode `{}`, no longer in `{}` where `{}` grazes",
            which.phase,
            model.mode_name(min.mode),
            which.mode,
            which.condition
        )));
    }
    Ok(min)
}

/// `γ(u, p, p2)` of `which`: its condition at the start or end of its phase, or its least
/// interior local minimum there, as identified.
fn gamma_at<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    which: &GrazingCondition,
    u: &[f64],
    p: f64,
    p2: f64,
) -> Result<f64, ContinuationError> {
    if which.guard {
        let r = plane.reduced_dim().min(u.len());
        return super::guard_graze::guard_gamma(plane, which, &u[..r], p, p2);
    }
    let min = minima_at(plane, which, u, p, p2)?;
    let at = match which.at {
        GrazingAt::Start => MinimumAt::Start,
        GrazingAt::Interior => MinimumAt::Interior,
        GrazingAt::End => MinimumAt::End,
    };
    match min.value(at) {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err(ContinuationError::Grazing {
            p,
            p2,
            reason: format!("`{}` is not finite", which.condition),
        }),
        None => Err(ContinuationError::Grazing {
            p,
            p2,
            reason: format!(
                "`{}` has no local minimum inside phase {} any more",
                which.condition, which.phase
            ),
        }),
    }
}

/// `γ(z)` and its gradient `∂γ/∂z` (central differences, see the module documentation).
pub(crate) fn gamma_and_gradient<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    which: &GrazingCondition,
    z: &DVector<f64>,
) -> Result<(f64, DVector<f64>), ContinuationError> {
    let r = z.len() - 2;
    let at = |z: &DVector<f64>| -> Result<f64, ContinuationError> {
        gamma_at(plane, which, &z.as_slice()[..r], z[r], z[r + 1])
    };
    let g = at(z)?;
    let rtol = plane.orbit.stride.ode.rtol.max(f64::EPSILON);
    let mut grad = DVector::zeros(z.len());
    for j in 0..z.len() {
        let h = rtol.cbrt() * z[j].abs().max(1.0);
        let mut zp = z.clone();
        zp[j] += h;
        let mut zm = z.clone();
        zm[j] -= h;
        grad[j] = (at(&zp)? - at(&zm)?) / (2.0 * h);
    }
    Ok((g, grad))
}

/// Identifies the grazing condition of the grazing point `bif` (the last admissible orbit
/// the one-parameter branch in `P` located, at `P2 = p2`; the branch came from `from`): the
/// orbit is corrected at `P` a little past it (`δ = 10^{-5-k} max(1, |p|)`, `k = 0…3`, but at
/// least `10 · locate_tol`, on the far side from `from` first), and the checker's first
/// violation there names the condition, its mode and phase; of the condition's candidates in
/// that phase (start, end, interior minima) the one that is least there is the one `γ` keeps
/// (a gap that is zero at both ends of its phase by construction grazes inside). Where the
/// orbit at `bif` touches a guard (its clearance is zero there), that guard is the grazing
/// condition ([`super::guard_graze::identify_guard`]).
pub(crate) fn identify<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    bif: &Bifurcation,
    p2: f64,
    from: f64,
    locate_tol: f64,
) -> Result<GrazingCondition, ContinuationError> {
    if let Some(which) = super::guard_graze::identify_guard(plane, bif, p2)? {
        return Ok(which);
    }
    let p = bif.param;
    let away = if p >= from { 1.0 } else { -1.0 };
    let u = DVector::from_column_slice(&bif.u);
    let mut tried = Vec::new();
    for k in 0..4 {
        let delta = (10f64.powi(-5 - k) * p.abs().max(1.0)).max(10.0 * locate_tol);
        for side in [away, -away] {
            let q = p + side * delta;
            plane.line().hold(p2);
            let Ok((u_past, _, _)) = plane.ev().correct_natural(&u, q, false) else {
                tried.push(format!("{q}: no orbit"));
                continue;
            };
            let (model, x0, trace, sim, _) = match stride_trace(plane, u_past.as_slice(), q, p2, 0)
            {
                Ok(t) => t,
                Err(e) => {
                    tried.push(format!("{q}: {e}"));
                    continue;
                }
            };
            let v = first_violation(&model, &trace, sim.t0, &x0, &sim.stride, CONDITION_TOL)?;
            let Some(v) = v else {
                tried.push(format!("{q}: admissible"));
                continue;
            };
            let mut which = GrazingCondition {
                condition: model.condition_name(v.mode, v.condition),
                mode: model.mode_name(v.mode),
                phase: v.phase,
                at: GrazingAt::Interior,
                mode_index: v.mode,
                condition_index: v.condition,
                guard: false,
            };
            // The candidate that went negative past the grazing point.
            let past = minima_at(plane, &which, u_past.as_slice(), q, p2)?;
            which.at = GrazingAt::of(past.least().1);
            return Ok(which);
        }
    }
    Err(ContinuationError::Grazing {
        p,
        p2,
        reason: format!(
            "no orbit just past the grazing point violates a condition ({})",
            tried.join("; ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::PlaneFamily;
    use crate::options::ContinuationOptions;
    use crate::test_models::CuspBounce;
    use saltation_hybrid::Bound;
    use saltation_orbit::{OrbitOptions, Segments, Shooting};

    /// With multiple shooting the grazing function of a later phase is taken from the start of
    /// its segment: on the cusp map's two-landing stride (`period_k = 2`, one segment per
    /// phase), the landing speed's condition at the end of the second flight from `s_1` equals
    /// its value along the stride from `χ(u)` (any `u`: `s_1` is where the first segment ends),
    /// `1.1 − u₁` with `u₁ = u + a + b x − x³` the second flight's speed.
    #[test]
    fn a_later_phase_is_taken_from_its_segment_start() {
        let family = PlaneFamily::new(Bound::new(CuspBounce), "a", "b").unwrap();
        let (a, b, u) = (0.01, 0.2, 1.05);
        let [l1, l2] = [family.line(0, b), family.line(1, a)];
        let orbit = OrbitOptions::default();
        let opts = ContinuationOptions::default();
        let mut plane = Plane::new([&l1, &l2], &orbit, &opts, 2).unwrap();
        let which = GrazingCondition {
            condition: "slow landing".into(),
            mode: "flight".into(),
            phase: 1,
            at: GrazingAt::End,
            mode_index: 0,
            condition_index: 0,
            guard: false,
        };
        let single = gamma_at(&plane, &which, &[u], a, b).unwrap();
        let w = plane
            .set_shooting(
                Shooting::Multiple {
                    segments: Segments::Phases,
                },
                &[u],
                a,
                b,
            )
            .unwrap();
        assert_eq!(w.len(), 1 + 2);
        let lifted = gamma_at(&plane, &which, w.as_slice(), a, b).unwrap();
        let x: f64 = u - 1.0;
        let u1 = u + a + b * x - x.powi(3);
        assert!(
            (single - (1.1 - u1)).abs() < 1e-10,
            "{single} vs {}",
            1.1 - u1
        );
        assert!((lifted - single).abs() < 1e-10, "{lifted} vs {single}");
        // Moving s_1 moves the lifted value (it is taken from there), not the single one.
        let mut w2 = w.clone();
        w2[2] -= 0.01;
        let moved = gamma_at(&plane, &which, w2.as_slice(), a, b).unwrap();
        assert!((moved - lifted).abs() > 1e-3, "{moved} vs {lifted}");
    }
}
