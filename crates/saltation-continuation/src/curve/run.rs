//! The curve driver: locate the codimension-one point in `P` at the starting `P2`, then
//! predict (along the tangent of the defining system's solution set) and correct
//! (pseudo-arclength in `z = (u, p, p2[, κ])`) with the branch's step control, detect and
//! locate codimension-two points, and end exactly at `P2 = to2` or at a limit.

use super::codim2::{genuine, kinds, locate, locate_admissibility, tests, Anchor};
use super::family2::{Line, Plane, PlaneFamily};
use super::grazing::identify;
use super::kind::CurveKind;
use super::options::CurveOptions;
use super::point::{Codim2Kind, Codim2Point, Curve, CurveEnd, CurvePoint};
use super::system::{
    correct, critical_matrix, defining, dim_z, split, tangent, Borders, Closure, Defining,
};
use crate::branch::{Bifurcation, Branch};
use crate::error::ContinuationError;
use crate::options::ContinuationOptions;
use crate::run::{continue_until, make_point, Start};
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::EvalModel;
use saltation_ode::Num;
use saltation_orbit::{eigenvalues_with, OrbitOptions};

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
/// limit ([`CurveEnd`]). Errors (before any curve point) for invalid options or start, a kind
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

/// The curve from the located bifurcation `bif` at `P2 = p2`.
#[allow(clippy::too_many_arguments)]
fn follow<M: EvalModel + Clone + Sync>(
    family: &PlaneFamily<M>,
    kind: CurveKind,
    bif: Bifurcation,
    p2: f64,
    period_k: usize,
    orbit: &OrbitOptions,
    opts: &CurveOptions,
    progress: &mut dyn FnMut(CurveProgress),
) -> Result<Curve, ContinuationError> {
    let s = &opts.settings;
    let start = CurveStart {
        p: bif.param,
        p2,
        u: bif.u.clone(),
        period_k,
    };
    let line1 = family.line(0, start.p2);
    let line2 = family.line(1, start.p);
    let mut plane = Plane::new([&line1, &line2], orbit, s, start.period_k)?;
    if kind == CurveKind::Grazing {
        plane.set_grazing(identify(&plane, &bif, start.p2, start.p, s.locate_tol)?);
    }
    let eigen = orbit.eigen;
    let r = bif.u.len();
    let dim = dim_z(kind, r);
    let mut z0 = DVector::zeros(dim);
    z0.rows_mut(0, r).copy_from_slice(&bif.u);
    z0[r] = bif.param;
    z0[r + 1] = start.p2;
    let pe = plane.eval(&bif.u, bif.param, start.p2)?;
    let j = &pe.e.fu + DMatrix::identity(r, r);
    if kind == CurveKind::NeimarkSacker {
        z0[r + 2] = critical_cosine(&j, eigen)?;
    }
    let singular = ContinuationError::Singular { p: bif.param };
    let borders = Borders::from_svd(
        &critical_matrix(kind, &j, split(&z0, kind).3),
        kind.conditions(),
    )
    .ok_or(singular.clone())?;
    let (tol, iters) = (s.corrector_tol, s.max_corrector_iters);
    let at_start = defining(&plane, kind, &borders, &z0)?;
    let borders = borders.choose(&at_start);
    let (z, d, _) = correct(
        &plane,
        kind,
        &borders,
        &z0,
        Closure::FixedP2(start.p2),
        tol,
        iters,
    )?;
    // `sign`: the way to `to2` in P2 (the landing test below); the tangent leaves the start
    // that way, or the other for a backward curve.
    let sign = if opts.to2 > start.p2 { 1.0 } else { -1.0 };
    let mut towards = DVector::zeros(dim);
    towards[r + 1] = sign * opts.direction.sign();
    let tau = tangent(&d.rows(dim), &towards).ok_or(singular)?;
    let first = curve_point(&plane, kind, &z, &d)?;
    let mut curve = Curve {
        kind,
        params: family.names().clone(),
        period_k: start.period_k,
        start: bif,
        points: vec![first.clone()],
        codim2: Vec::new(),
        grazing: plane.grazing.clone(),
        end: CurveEnd::MaxPoints,
    };
    let test_values = |d: &Defining, z: &DVector<f64>| {
        if opts.codim2 {
            tests(kind, d, z, eigen)
        } else {
            Ok(Vec::new())
        }
    };
    let mut at = At {
        admissible: first.admissible,
        tests: test_values(&d, &z)?,
        borders: Borders::from_point(&d, &borders.entries).choose(&d),
        z,
        tau,
    };
    let z_first = at.z.clone();
    let report = |curve: &Curve, ds: f64, progress: &mut dyn FnMut(CurveProgress)| {
        let last = curve.points.last().map_or([f64::NAN; 2], |p| p.params);
        progress(CurveProgress {
            points: curve.points.len(),
            max_points: s.max_points,
            params: last,
            step: ds,
        });
    };
    report(&curve, s.step, progress);
    let mut ds = s.step;
    let mut travelled = 0.0;
    while curve.points.len() < s.max_points {
        let z_pred = &at.z + &at.tau * ds;
        let closure = Closure::Plane {
            z_pred: z_pred.clone(),
            tau: at.tau.clone(),
        };
        let mut attempt = correct(&plane, kind, &at.borders, &z_pred, closure, tol, iters);
        let mut reached = false;
        if let Ok((z, _, _)) = &attempt {
            let p2_old = at.z[r + 1];
            if (z[r + 1] - opts.to2) * sign >= 0.0 {
                // Land exactly on P2 = to2 from the interpolated point.
                let w = (opts.to2 - p2_old) / (z[r + 1] - p2_old);
                let guess = &at.z + (z - &at.z) * w;
                attempt = correct(
                    &plane,
                    kind,
                    &at.borders,
                    &guess,
                    Closure::FixedP2(opts.to2),
                    tol,
                    iters,
                );
                reached = true;
            }
        }
        let (z, d, it) = match attempt {
            Ok(ok) => ok,
            Err(err) => {
                ds *= 0.5;
                if ds < s.min_step {
                    curve.end = end_of(err);
                    break;
                }
                continue;
            }
        };
        let point = curve_point(&plane, kind, &z, &d)?;
        let t = test_values(&d, &z)?;
        for (i, which) in kinds(kind).iter().enumerate().take(t.len()) {
            if !(at.tests[i] * t[i] < 0.0) {
                continue;
            }
            let anchor = Anchor {
                z: &at.z,
                tau: &at.tau,
                borders: &at.borders,
                tests: &at.tests,
            };
            let found = locate(&plane, kind, &anchor, &z, &t, i, s.locate_tol, tol, iters);
            if let Ok((zc, dc)) = found {
                if genuine(kind, *which, &dc, &zc, eigen) {
                    curve.codim2.push(Codim2Point {
                        kind: *which,
                        point: curve_point(&plane, kind, &zc, &dc)?,
                    });
                }
            }
        }
        if let (Some(adm_a), Some(adm_b)) = (at.admissible, point.admissible) {
            // A grazing curve lies on the admissibility boundary itself.
            if opts.codim2 && adm_a != adm_b && kind != CurveKind::Grazing {
                let anchor = Anchor {
                    z: &at.z,
                    tau: &at.tau,
                    borders: &at.borders,
                    tests: &at.tests,
                };
                let check = |zt: &DVector<f64>, dt: &Defining| {
                    Ok(curve_point(&plane, kind, zt, dt)?.admissible == Some(true))
                };
                let found = locate_admissibility(
                    &plane,
                    kind,
                    &anchor,
                    adm_a,
                    &z,
                    s.locate_tol,
                    tol,
                    iters,
                    &check,
                );
                let edge = match found {
                    Ok(Some((zc, dc))) => Some(curve_point(&plane, kind, &zc, &dc)?),
                    // The admissible end itself when no trial was admissible.
                    Ok(None) if adm_b => Some(point.clone()),
                    Ok(None) => curve.points.last().cloned(),
                    Err(_) => None,
                };
                if let Some(p) = edge {
                    curve.codim2.push(Codim2Point {
                        kind: Codim2Kind::Grazing,
                        point: p,
                    });
                }
            }
        }
        if let Some(which) = beyond_resonance(kind, &z) {
            // Past κ = ±1 the solutions are neutral saddles: the curve of bifurcations ends
            // (the resonance was located above, with the codimension-two tests on).
            curve.end = CurveEnd::StrongResonance(which.into());
            break;
        }
        let seg = &z - &at.z;
        travelled += seg.norm();
        let closes = curve.points.len() >= 3 && travelled > 4.0 * ds && near(&z_first, &at.z, &seg);
        let admissible = point.admissible;
        curve.points.push(point);
        report(&curve, ds, progress);
        if reached {
            curve.end = CurveEnd::Reached;
            break;
        }
        if closes {
            curve.end = CurveEnd::Closed;
            break;
        }
        let tau = tangent(&d.rows(dim), &at.tau).unwrap_or_else(|| at.tau.clone());
        at = At {
            admissible,
            tests: t,
            borders: Borders::from_point(&d, &at.borders.entries).choose(&d),
            z,
            tau,
        };
        if it <= s.fast_iters {
            ds = (ds * s.growth).min(s.max_step);
        } else if it + 2 >= s.max_corrector_iters {
            ds = (ds * 0.5).max(s.min_step);
        }
    }
    Ok(curve)
}

/// The last accepted point.
struct At {
    z: DVector<f64>,
    tau: DVector<f64>,
    borders: Borders,
    tests: Vec<f64>,
    /// Whether its orbit is admissible (models with admissibility conditions).
    admissible: Option<bool>,
}

/// Whether the segment from `a` along `seg` passes within a quarter of its length of `target`.
fn near(target: &DVector<f64>, a: &DVector<f64>, seg: &DVector<f64>) -> bool {
    let l2 = seg.norm_squared();
    if !(l2 > 0.0) {
        return false;
    }
    let t = ((target - a).dot(seg) / l2).clamp(0.0, 1.0);
    (a + seg * t - target).norm() < 0.25 * l2.sqrt()
}

/// On a Neimark–Sacker curve, the resonance (`"1:1"` for `κ > 1`, `"1:2"` for `κ < −1`) a
/// solution `z` of the defining system lies beyond, where `κ = cos θ` has left `[−1, 1]`.
fn beyond_resonance(kind: CurveKind, z: &DVector<f64>) -> Option<&'static str> {
    if kind != CurveKind::NeimarkSacker {
        return None;
    }
    let kappa = split(z, kind).3;
    if kappa > 1.0 {
        Some("1:1")
    } else if kappa < -1.0 {
        Some("1:2")
    } else {
        None
    }
}

/// Why the curve ends after a step that failed at the smallest size.
fn end_of(err: ContinuationError) -> CurveEnd {
    match err {
        ContinuationError::Hybrid(h) => CurveEnd::OrbitLost(h.to_string()),
        ContinuationError::Param(e) => CurveEnd::ParameterRejected(e.to_string()),
        other => CurveEnd::CorrectorFailed(other.to_string()),
    }
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

/// The cosine `κ` of the complex pair of `J` nearest the unit circle.
fn critical_cosine(
    j: &DMatrix<f64>,
    eigen: saltation_orbit::EigenBackend,
) -> Result<f64, ContinuationError> {
    let mu = eigenvalues_with(j, eigen)?;
    mu.iter()
        .filter(|m| m.im > 0.0)
        .min_by(|a, b| (a.norm() - 1.0).abs().total_cmp(&(b.norm() - 1.0).abs()))
        .map(|m| m.re / m.norm())
        .ok_or_else(|| {
            ContinuationError::invalid(
                "kind",
                "the located Neimark–Sacker point has no complex pair of multipliers",
            )
        })
}

/// The orbit at a curve point.
fn curve_point<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    kind: CurveKind,
    z: &DVector<f64>,
    d: &Defining,
) -> Result<CurvePoint, ContinuationError> {
    let (u, p, p2, kappa) = split(z, kind);
    plane.line().hold(p2);
    let bp = make_point(plane.line(), &d.pe.e, u.as_slice(), p, plane.ev())?;
    Ok(CurvePoint {
        params: [p, p2],
        u: bp.u,
        x0: bp.x0,
        period: bp.period,
        multipliers: bp.multipliers,
        angle: (kind == CurveKind::NeimarkSacker).then(|| kappa.clamp(-1.0, 1.0).acos()),
        admissible: bp.admissible,
    })
}

/// Runs the one-parameter branch in `P` from the guess (in the search direction(s)) until its
/// first bifurcation of the curve's kind.
fn find_start<M: EvalModel + Clone + Sync>(
    line: &Line<M>,
    kind: CurveKind,
    start: &CurveStart,
    orbit: &OrbitOptions,
    opts: &CurveOptions,
    names: &[String; 2],
) -> Result<Bifurcation, ContinuationError> {
    let dirs = match opts.search {
        Some(d) => vec![d],
        None => vec![1.0, -1.0],
    };
    let mut found = Vec::new();
    for dir in dirs {
        let settings = ContinuationOptions {
            direction: dir,
            detect: true,
            ..opts.settings.clone()
        };
        let from = Start::new(start.p, start.u.clone()).with_period(start.period_k);
        let branch = continue_until(
            line,
            &from,
            orbit,
            &settings,
            Some(kind.bifurcation()),
            &mut |_| {},
        )?;
        if let Some(b) = branch
            .bifurcations
            .iter()
            .find(|b| b.kind == kind.bifurcation())
        {
            return Ok(b.clone());
        }
        found.push(describe(dir, &names[0], &branch));
    }
    Err(ContinuationError::NoBifurcation {
        kind: kind.bifurcation().name().to_string(),
        param: names[0].clone(),
        param2: names[1].clone(),
        from: start.p,
        at: start.p2,
        found: found.join("; "),
    })
}

/// What a searched branch found: its range, its bifurcations, its end.
fn describe(dir: f64, param: &str, branch: &Branch) -> String {
    let (lo, hi) = branch
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.param), b.max(p.param))
        });
    let bifs: Vec<String> = branch
        .bifurcations
        .iter()
        .map(|b| format!("{} at {}", b.kind.name(), Num(b.param)))
        .collect();
    format!(
        "towards {} {param}: {} point(s) over [{}, {}], {}, ended: {}",
        if dir > 0.0 { "larger" } else { "smaller" },
        branch.points.len(),
        Num(lo),
        Num(hi),
        if bifs.is_empty() {
            "no bifurcation".to_string()
        } else {
            bifs.join(", ")
        },
        branch.end
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::point::Codim2Kind;
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
    /// fold curve above).
    #[test]
    fn grazing_curve_of_the_cusp_map_is_its_closed_form_line() {
        let family = PlaneFamily::new(Bound::new(CuspBounce), "a", "b").unwrap();
        let start = CurveStart::new(-0.005, 0.1, vec![1.05]);
        let mut opts = CurveOptions::to(-0.05);
        opts.search = Some(-1.0);
        opts.settings.step = 0.01;
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::Grazing, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
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
