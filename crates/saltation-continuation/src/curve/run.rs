//! The curve's entry points: check the options and the start, locate the codimension-one point
//! in `P` at the starting `P2` ([`super::start`]), then follow the curve ([`super::follow`]).

use super::family2::PlaneFamily;
use super::follow::follow;
use super::kind::CurveKind;
use super::options::CurveOptions;
use super::point::Curve;
use super::start::find_start;
use crate::branch::Bifurcation;
use crate::error::ContinuationError;
use saltation_hybrid::EvalModel;
use saltation_ode::Num;
use saltation_orbit::OrbitOptions;

/// Where a curve starts: the values of `(P, P2)` and a guess of the orbit there.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveStart {
    /// `P` where the one-parameter branch that looks for the bifurcation starts.
    pub p: f64,
    /// `P2`, held while the bifurcation is located; the curve starts there.
    pub p2: f64,
    /// Guess of the fixed point of `P^k` at `(p, p2)`, reduced coordinates.
    pub u: Vec<f64>,
    /// Period multiplicity `k` (1 for ordinary orbits).
    pub period_k: usize,
}

impl CurveStart {
    /// A period-1 start.
    pub fn new(p: f64, p2: f64, u: Vec<f64>) -> Self {
        Self {
            p,
            p2,
            u,
            period_k: 1,
        }
    }
}

/// Progress report after each accepted point of a curve.
#[derive(Debug, Clone, Copy)]
pub struct CurveProgress {
    /// Points so far.
    pub points: usize,
    /// The curve's point limit.
    pub max_points: usize,
    /// `[p, p2]` of the last point.
    pub params: [f64; 2],
    /// Current step.
    pub step: f64,
}

/// Continues the curve of `kind` of `family` from `start` until `P2` reaches `opts.to2` or a
/// limit ([`CurveEnd`](super::CurveEnd)). Errors (before any curve point) for invalid options or start, a kind
/// that cannot be continued, a starting orbit not found, no bifurcation of the kind on the
/// one-parameter branch from the guess ([`ContinuationError::NoBifurcation`], saying what the
/// branch found), or a starting point where the defining system is singular.
///
/// Every loop ends: failed steps are halved down to `min_step`, every accepted step adds a
/// point, the curve ends at `max_points`; location takes at most 60 trials.
pub fn continue_curve<M: EvalModel + Clone + Sync>(
    family: &PlaneFamily<M>,
    kind: CurveKind,
    start: &CurveStart,
    orbit: &OrbitOptions,
    opts: &CurveOptions,
) -> Result<Curve, ContinuationError> {
    continue_curve_with_progress(family, kind, start, orbit, opts, &mut |_| {})
}

/// [`continue_curve`], calling `progress` after every accepted point.
pub fn continue_curve_with_progress<M: EvalModel + Clone + Sync>(
    family: &PlaneFamily<M>,
    kind: CurveKind,
    start: &CurveStart,
    orbit: &OrbitOptions,
    opts: &CurveOptions,
    progress: &mut dyn FnMut(CurveProgress),
) -> Result<Curve, ContinuationError> {
    opts.validate_with(orbit)?;
    check_start(start, opts)?;
    check_kind(family, kind)?;
    let line1 = family.line(0, start.p2);
    let bif = find_start(&line1, kind, start, orbit, opts, family.names())?;
    follow(
        family,
        kind,
        bif,
        start.p2,
        start.period_k,
        orbit,
        opts,
        progress,
    )
}

/// Continues the curve of `kind` from a bifurcation already located on a one-parameter branch
/// in `P` (e.g. by a continuation script) at `P2 = p2`, on a branch of fixed points of `P^k`
/// (`period_k`), until `P2` reaches `opts.to2` or a limit; errors as [`continue_curve`] (and
/// for a bifurcation of another kind than `kind`, or a non-finite one).
#[allow(clippy::too_many_arguments)]
pub fn continue_curve_from<M: EvalModel + Clone + Sync>(
    family: &PlaneFamily<M>,
    kind: CurveKind,
    bif: &Bifurcation,
    p2: f64,
    period_k: usize,
    orbit: &OrbitOptions,
    opts: &CurveOptions,
    progress: &mut dyn FnMut(CurveProgress),
) -> Result<Curve, ContinuationError> {
    opts.validate_with(orbit)?;
    check_kind(family, kind)?;
    if bif.kind != kind.bifurcation() {
        return Err(ContinuationError::invalid(
            "kind",
            format!("a {} curve cannot start from a {}", kind, bif.kind.name()),
        ));
    }
    let start = CurveStart {
        p: bif.param,
        p2,
        u: bif.u.clone(),
        period_k,
    };
    check_start(&start, opts)?;
    follow(
        family,
        kind,
        bif.clone(),
        p2,
        period_k,
        orbit,
        opts,
        progress,
    )
}

/// A grazing curve needs a model with admissibility conditions or a guard (touched
/// tangentially).
fn check_kind<M: EvalModel + Clone + Sync>(
    family: &PlaneFamily<M>,
    kind: CurveKind,
) -> Result<(), ContinuationError> {
    let m = family.base_model();
    let guards = (0..m.modes()).any(|mode| m.guards(mode) > 0);
    if kind == CurveKind::Grazing && !saltation_hybrid::has_conditions(m) && !guards {
        return Err(ContinuationError::invalid(
            "kind",
            "the model declares no admissibility condition and has no guard: a grazing curve \
             follows where a condition reaches zero or a guard is touched tangentially",
        ));
    }
    Ok(())
}

/// The start's values and guess are finite and `P2` has somewhere to go.
fn check_start(start: &CurveStart, opts: &CurveOptions) -> Result<(), ContinuationError> {
    for (field, v) in [("start.p", start.p), ("start.p2", start.p2)] {
        if !v.is_finite() {
            return Err(ContinuationError::invalid(
                field,
                format!("{} is not finite", Num(v)),
            ));
        }
    }
    if let Some(i) = start.u.iter().position(|x| !x.is_finite()) {
        return Err(ContinuationError::invalid(
            format!("start.u[{i}]"),
            "is not finite",
        ));
    }
    if opts.to2 == start.p2 {
        return Err(ContinuationError::invalid(
            "to2",
            format!(
                "{} is the starting value of the second parameter: the curve would have no length",
                Num(opts.to2)
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::point::{Codim2Kind, CurveEnd};
    use crate::test_models::{CircleBounce, CuspBounce, RotationMap};
    use saltation_hybrid::Bound;

    /// The cusp map `x ↦ x + a + b x − x³`: its fold curve `b = 3 (a/2)^{2/3}` followed in
    /// `(P, P2) = (b, a)` from `a = −0.016` through the cusp `a = b = 0` to `a = 0.016`, the cusp
    /// located there, the last point exactly at `a = 0.016`.
    #[test]
    fn fold_curve_of_the_cusp_map_passes_its_cusp() {
        let family = PlaneFamily::new(Bound::new(CuspBounce), "b", "a").unwrap();
        let start = CurveStart::new(0.3, -0.016, vec![1.52]);
        let mut opts = CurveOptions::to(0.016);
        opts.search = Some(-1.0);
        opts.settings.step = 0.01;
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::Fold, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        let b_of = |a: f64| 3.0 * (a / 2.0).cbrt().powi(2);
        for p in &c.points {
            let [b, a] = p.params;
            assert!((b - b_of(a)).abs() < 1e-9, "b = {b} at a = {a}");
            let x = p.u[0] - 1.0;
            assert!((x + (a / 2.0).cbrt()).abs() < 1e-8, "x = {x} at a = {a}");
        }
        assert!(c.points.len() > 5);
        assert_eq!(c.points.last().unwrap().params[1], 0.016);
        // The fold–grazing point where the landing speed reaches 1.1 (x = 0.1), then the cusp.
        assert_eq!(c.codim2.len(), 2, "{:?}", c.codim2);
        let graze = &c.codim2[0];
        assert_eq!(graze.kind, Codim2Kind::Grazing);
        assert_eq!(graze.point.admissible, Some(true));
        let [b, a] = graze.point.params;
        assert!(
            (a + 0.002).abs() < 1e-9 && (b - 0.03).abs() < 1e-9,
            "{a}, {b}"
        );
        let cusp = &c.codim2[1];
        assert_eq!(cusp.kind, Codim2Kind::Cusp);
        assert!(
            cusp.point.params[0].abs() < 1e-9 && cusp.point.params[1].abs() < 1e-9,
            "{:?}",
            cusp.point.params
        );
    }

    /// The grazing curve of the cusp map, where the landing speed `u` reaches 1.1 (the
    /// condition `v + 1.1 ≥ 0` in flight is least at the landing, the phase's end): the fixed
    /// point `x = u − 1 = 0.1` of `a + b x − x³ = 0` gives the line `a = 0.001 − 0.1 b`. From
    /// the grazing located in `a` at `b = 0.1` down to `b = −0.05`: every point on the line with
    /// `u = 1.1`; the multiplier `1 + b − 3x²` passes +1 at `b = 0.03` (`a = −0.002`), the
    /// grazing–fold point where the fold curve's fold–grazing point lies (located there by the
    /// fold curve above). The same by multiple shooting, the flight in two pieces.
    #[test]
    fn grazing_curve_of_the_cusp_map_is_its_closed_form_line() {
        let multiple = saltation_orbit::Shooting::Multiple {
            segments: saltation_orbit::Segments::PerMode(2),
        };
        for shooting in [saltation_orbit::Shooting::Single, multiple] {
            grazing_line_by(shooting);
        }
    }

    fn grazing_line_by(shooting: saltation_orbit::Shooting) {
        let family = PlaneFamily::new(Bound::new(CuspBounce), "a", "b").unwrap();
        let start = CurveStart::new(-0.005, 0.1, vec![1.05]);
        let mut opts = CurveOptions::to(-0.05);
        opts.search = Some(-1.0);
        opts.settings.step = 0.01;
        opts.settings.shooting = shooting;
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::Grazing, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{shooting:?}: {}", c.end);
        let g = c.grazing.as_ref().unwrap();
        assert_eq!(
            (g.condition.as_str(), g.phase, g.at),
            ("slow landing", 0, crate::curve::GrazingAt::End)
        );
        assert!(c.points.len() > 5);
        for p in &c.points {
            let [a, b] = p.params;
            assert!((a - (0.001 - 0.1 * b)).abs() < 1e-10, "a = {a} at b = {b}");
            assert!((p.u[0] - 1.1).abs() < 1e-10, "u = {}", p.u[0]);
        }
        assert_eq!(c.points.last().unwrap().params[1], -0.05);
        assert_eq!(c.codim2.len(), 1, "{:?}", c.codim2);
        assert_eq!(c.codim2[0].kind, Codim2Kind::GrazingFold);
        let [a, b] = c.codim2[0].point.params;
        assert!(
            (a + 0.002).abs() < 1e-9 && (b - 0.03).abs() < 1e-9,
            "{a}, {b}"
        );
    }

    /// A grazing curve whose branch meets no grazing (no condition, and a guard never touched
    /// tangentially; or a condition that holds) is a typed error saying what the branch found.
    #[test]
    fn grazing_without_conditions_or_grazing_is_a_typed_error() {
        let family = PlaneFamily::new(Bound::new(RotationMap), "a", "b").unwrap();
        let start = CurveStart::new(0.5, 0.5, vec![0.01, 0.01]);
        let orbit = OrbitOptions::default();
        let opts = CurveOptions::to(0.2);
        let e = continue_curve(&family, CurveKind::Grazing, &start, &orbit, &opts).unwrap_err();
        assert!(matches!(e, ContinuationError::NoBifurcation { .. }), "{e}");
        // The cusp map's stable branch below the fold, in `a` downwards: no grazing there.
        let family = PlaneFamily::new(Bound::new(CuspBounce), "a", "b").unwrap();
        let start = CurveStart::new(-0.005, 0.1, vec![0.63]);
        let mut opts = CurveOptions::to(0.0);
        opts.search = Some(-1.0);
        opts.settings.max_points = 10;
        let e = continue_curve(&family, CurveKind::Grazing, &start, &orbit, &opts).unwrap_err();
        assert!(matches!(e, ContinuationError::NoBifurcation { .. }), "{e}");
        assert!(e.to_string().contains("no grazing"), "{e}");
    }

    /// A start with no fold in the searched direction is a typed error saying what was found.
    #[test]
    fn no_bifurcation_is_a_typed_error() {
        let family = PlaneFamily::new(Bound::new(CuspBounce), "b", "a").unwrap();
        let start = CurveStart::new(0.3, -0.016, vec![1.52]);
        let mut opts = CurveOptions::to(0.016);
        opts.search = Some(1.0);
        opts.settings.max_points = 10;
        let orbit = OrbitOptions::default();
        let e = continue_curve(&family, CurveKind::Fold, &start, &orbit, &opts).unwrap_err();
        assert!(matches!(e, ContinuationError::NoBifurcation { .. }), "{e}");
        assert!(e.to_string().contains("no bifurcation"), "{e}");
    }

    /// The Neimark–Sacker curve of the rotation map, the circle `a² + b² = 1`, from the point
    /// located in `a` at `b = 0.5` down to `b = 0.2`: every point on the circle, its angle
    /// `θ = atan2(b, a)`, no codimension-two point on the way.
    #[test]
    fn neimark_sacker_curve_of_the_rotation_map_is_the_unit_circle() {
        let family = PlaneFamily::new(Bound::new(RotationMap), "a", "b").unwrap();
        let start = CurveStart::new(0.5, 0.5, vec![0.01, 0.01]);
        let mut opts = CurveOptions::to(0.2);
        opts.search = Some(1.0);
        opts.settings.step = 0.01;
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::NeimarkSacker, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        assert!(
            (c.start.param - 0.75f64.sqrt()).abs() < 1e-9,
            "{}",
            c.start.param
        );
        assert!(c.points.len() > 3);
        for p in &c.points {
            let [a, b] = p.params;
            assert!(
                (a.hypot(b) - 1.0).abs() < 1e-9,
                "a = {a}, b = {b}: {:e}",
                a.hypot(b) - 1.0
            );
            let theta = p.angle.unwrap();
            assert!(
                (theta - b.atan2(a)).abs() < 1e-9,
                "θ = {theta} at ({a}, {b})"
            );
            assert!(p.u.iter().all(|x| x.abs() < 1e-12), "{:?}", p.u);
        }
        assert_eq!(c.points.last().unwrap().params[1], 0.2);
        assert!(c.codim2.is_empty(), "{:?}", c.codim2);
    }

    /// The same circle run backward: from `b = 0.5` away from `to2 = 0.2`, over the top
    /// `(0, 1)`, down the other side until `b = 0.2` at `a = −√0.96`, the angle `atan2(b, a)`
    /// past π/2 there.
    #[test]
    fn a_backward_curve_leaves_away_from_to2_and_lands_on_it_after_turning() {
        let family = PlaneFamily::new(Bound::new(RotationMap), "a", "b").unwrap();
        let start = CurveStart::new(0.5, 0.5, vec![0.01, 0.01]);
        let mut opts = CurveOptions::to(0.2);
        opts.search = Some(1.0);
        opts.direction = super::super::CurveDirection::Backward;
        opts.settings.step = 0.01;
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::NeimarkSacker, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        assert!(c.points[1].params[1] > 0.5, "{:?}", c.points[1].params);
        assert!(c.points.iter().any(|p| p.params[1] > 0.99));
        let last = c.points.last().unwrap();
        assert_eq!(last.params[1], 0.2);
        assert!(
            (last.params[0] + 0.96f64.sqrt()).abs() < 1e-9,
            "{:?}",
            last.params
        );
        assert!((last.angle.unwrap() - 0.2f64.atan2(-0.96f64.sqrt())).abs() < 1e-9);
        for p in &c.points {
            let [a, b] = p.params;
            assert!((a.hypot(b) - 1.0).abs() < 1e-9, "a = {a}, b = {b}");
        }
    }

    /// The fold curve of `x ↦ x + x² + a² + b² − 1` is the unit circle in `(a, b)`: asked for
    /// `b = 2`, which it never reaches, the curve goes round and ends where it closed on itself,
    /// every point on the circle.
    #[test]
    fn a_closed_fold_curve_ends_as_closed() {
        let family = PlaneFamily::new(Bound::new(CircleBounce), "a", "b").unwrap();
        let start = CurveStart::new(0.5, 0.5, vec![1.7]);
        let mut opts = CurveOptions::to(2.0);
        opts.search = Some(1.0);
        opts.settings.step = 0.01;
        opts.settings.max_step = 0.2;
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::Fold, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Closed, "{}", c.end);
        for p in &c.points {
            let [a, b] = p.params;
            assert!((a.hypot(b) - 1.0).abs() < 1e-9, "a = {a}, b = {b}");
        }
        // Round once: b went below −0.9 on the way and came back near the start.
        assert!(c.points.iter().any(|p| p.params[1] < -0.9));
        let last = c.points.last().unwrap().params;
        let first = c.points[0].params;
        assert!(
            (last[0] - first[0]).hypot(last[1] - first[1]) < 0.5,
            "{last:?}"
        );
        assert!(c.codim2.is_empty(), "{:?}", c.codim2);
    }
}
