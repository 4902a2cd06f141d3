//! The grazing function of a grazing curve along which a guard is touched tangentially,
//! without a declared condition: every guard as an implicit condition for tangency.
//!
//! At a grazing point located on a one-parameter branch ([`crate::guard_grazing`]) the orbit's
//! clearance from one guard `j` of mode `m`, in phase `k` of its stride, is zero: the least
//! interior local minimum of the signed guard `ŝ_j h_j` (`≥ 0` while it has not fired) over
//! that phase ([`saltation_hybrid::guard_touches`]). The curve keeps, for that `(k, m, j)`,
//!
//! `γ(u, p, p2) = min_{t* ∈ (t_{k−1}, t_k), ŝḣ(t*) = 0, ŝḧ(t*) > 0} ŝ_j h_j(φ(t*; χ(u), p, p2))`
//!
//! at zero, the stride run on the model with that guard switched off
//! ([`saltation_hybrid::GuardOff`], as for every evaluation of the curve's defining system:
//! the orbit followed is the one that does not fire the guard), so that `γ` goes smoothly through zero: past the grazing
//! point the orbit passes through the guard instead of firing it, `γ < 0`, and the central
//! differences of `γ`'s gradient ([`super::grazing`]) reach across. Its name in reports is
//! `guard:NAME` ([`saltation_hybrid::guard_condition_name`]), distinct from the model's
//! declared conditions.

use super::family2::Plane;
use super::grazing::{GrazingAt, GrazingCondition};
use crate::branch::Bifurcation;
use crate::error::ContinuationError;
use crate::guard_grazing::{clearance, GRAZING_CLEARANCE};
use saltation_hybrid::{guard_condition_name, guard_touches, simulate, EvalModel, SimulateOptions};

/// The guard grazed at the located grazing point `bif` (at `P2 = p2`): its least guard
/// clearance, when below [`GRAZING_CLEARANCE`]` · max(1, ‖x‖∞)`; `None` when no guard is
/// touched there (the grazing is a declared condition's).
pub(crate) fn identify_guard<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    bif: &Bifurcation,
    p2: f64,
) -> Result<Option<GrazingCondition>, ContinuationError> {
    let model = plane.model_at(bif.param, p2)?.model;
    let mut x0 = vec![0.0; model.dim()];
    model.chart(&bif.u, &mut x0);
    let Some(c) = clearance(&model, &x0, &plane.ev().stride) else {
        return Ok(None);
    };
    let scale = x0.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    if !(c.value.abs() <= GRAZING_CLEARANCE * scale) {
        return Ok(None);
    }
    Ok(Some(GrazingCondition {
        condition: guard_condition_name(&model, c.mode, c.guard),
        mode: model.mode_name(c.mode),
        phase: c.phase,
        at: GrazingAt::Interior,
        mode_index: c.mode,
        condition_index: c.guard,
        guard: true,
    }))
}

/// `γ(u, p, p2)` of the guard `which` (see the module documentation).
pub(crate) fn guard_gamma<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    which: &GrazingCondition,
    u: &[f64],
    p: f64,
    p2: f64,
) -> Result<f64, ContinuationError> {
    let lost = |reason: String| ContinuationError::Grazing { p, p2, reason };
    // The plane's models have the guard switched off ([`Plane::set_grazing`]).
    let off = plane.model_at(p, p2)?;
    let mut x0 = vec![0.0; off.dim()];
    off.chart(u, &mut x0);
    let sim = SimulateOptions {
        stride: plane.ev().stride.clone(),
        strides: 1,
        dt: None,
        at: Some(Vec::new()),
        ..SimulateOptions::default()
    };
    let trace = simulate(&off, &x0, &sim)?;
    if let Some(e) = trace.failure {
        return Err(e.into());
    }
    // The real model's guards watched along the trace that did not fire this one.
    let least = guard_touches(&off.model, &trace, sim.t0, &x0, &sim.stride)?
        .into_iter()
        .filter(|t| {
            t.phase == which.phase && t.mode == which.mode_index && t.guard == which.condition_index
        })
        .map(|t| t.value)
        .min_by(|a, b| a.total_cmp(b));
    match least {
        Some(v) if v.is_finite() => Ok(v),
        Some(_) => Err(lost(format!("`{}` is not finite", which.condition))),
        None => Err(lost(format!(
            "`{}` has no local minimum inside phase {} (mode `{}`) any more",
            which.condition, which.phase, which.mode
        ))),
    }
}

#[cfg(test)]
mod tests {
    use crate::curve::{continue_curve, CurveKind, CurveOptions, CurveStart, PlaneFamily};
    use saltation_hybrid::{Bound, GuardSpec, HybridModel, Param, Scalar};
    use saltation_orbit::OrbitOptions;

    /// `ẋ = a − x`: no guard, no condition.
    #[derive(Clone)]
    struct Guardless;
    const PARAMS: &[Param] = &[Param::new("a", 1.0), Param::new("b", 1.0)];
    impl HybridModel for Guardless {
        type Guard = ();
        fn name(&self) -> &str {
            "guardless"
        }
        fn dim(&self) -> usize {
            1
        }
        fn modes(&self) -> usize {
            1
        }
        fn params(&self) -> &[Param] {
            PARAMS
        }
        fn autonomous(&self, _mode: usize) -> bool {
            true
        }
        fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
            dx[0] = p[0] - x[0];
        }
        fn guards(&self, _mode: usize) -> &[()] {
            &[]
        }
        fn describe(&self, _mode: usize, _g: ()) -> GuardSpec {
            GuardSpec::to(0)
        }
        fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, _g: (), x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, _g: (), x: &[D], out: &mut [D]) {
            out[0] = x[0];
        }
    }

    /// A grazing curve of a model with neither admissibility conditions nor guards is refused
    /// before any computation, naming `kind`.
    #[test]
    fn a_model_without_conditions_or_guards_is_refused() {
        let family = PlaneFamily::new(Bound::new(Guardless), "a", "b").unwrap();
        let start = CurveStart::new(1.0, 1.0, vec![1.0]);
        let e = continue_curve(
            &family,
            CurveKind::Grazing,
            &start,
            &OrbitOptions::default(),
            &CurveOptions::to(2.0),
        )
        .unwrap_err();
        assert_eq!(e.field(), Some("kind"), "{e}");
        assert!(e.to_string().contains("no guard"), "{e}");
    }
}
