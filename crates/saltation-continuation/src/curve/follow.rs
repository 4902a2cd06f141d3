//! The curve's follow loop: from the located codimension-one point, predict (along the
//! tangent of the defining system's solution set) and correct (pseudo-arclength in
//! `z = (u, p, p2[, κ])`) with the branch's step control, detect and locate codimension-two
//! points, and end exactly at `P2 = to2` or at a limit ([`super::end`]).

use super::codim2::{genuine, kinds, locate, locate_admissibility, tests, Anchor};
use super::end::{beyond_resonance, end_of, near};
use super::family2::{Plane, PlaneFamily};
use super::grazing::identify;
use super::kind::CurveKind;
use super::options::CurveOptions;
use super::point::{Codim2Kind, Codim2Point, Curve, CurveEnd, CurvePoint};
use super::run::{CurveProgress, CurveStart};
use super::start::critical_cosine;
use super::system::{
    correct, critical_matrix, defining, dim_z, split, tangent, Borders, Closure, Defining,
};
use crate::branch::Bifurcation;
use crate::error::ContinuationError;
use crate::run::{eval_multipliers, make_point};
use nalgebra::DVector;
use saltation_hybrid::EvalModel;
use saltation_orbit::OrbitOptions;

/// The curve from the located bifurcation `bif` at `P2 = p2`.
#[allow(clippy::too_many_arguments)]
pub(super) fn follow<M: EvalModel + Clone + Sync>(
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
    // `w`: the orbit's unknowns, `u` itself, or with multiple shooting `(u, s_1, …)` along
    // the stride from `χ(u)` (the segments planned once for the whole curve).
    let w = plane.set_shooting(s.shooting, &bif.u, bif.param, start.p2)?;
    let r = w.len();
    let dim = dim_z(kind, r);
    let mut z0 = DVector::zeros(dim);
    z0.rows_mut(0, r).copy_from(&w);
    z0[r] = bif.param;
    z0[r + 1] = start.p2;
    let pe = plane.eval(w.as_slice(), bif.param, start.p2)?;
    if kind == CurveKind::NeimarkSacker {
        // The multipliers of `J`, or with multiple shooting of the segments' product.
        z0[r + 2] = critical_cosine(&eval_multipliers(&pe.e, pe.r, eigen)?)?;
    }
    let singular = ContinuationError::Singular { p: bif.param };
    let borders = Borders::from_svd(
        &critical_matrix(kind, &pe.e.fu, pe.r, split(&z0, kind).3),
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

/// The orbit at a curve point.
fn curve_point<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    kind: CurveKind,
    z: &DVector<f64>,
    d: &Defining,
) -> Result<CurvePoint, ContinuationError> {
    let (w, p, p2, kappa) = split(z, kind);
    plane.line().hold(p2);
    // The orbit's `u`: the first `r` unknowns (all of them with single shooting).
    let u = &w.as_slice()[..d.pe.r.min(w.len())];
    let bp = make_point(plane.line(), &d.pe.e, u, p, plane.ev())?;
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

#[cfg(test)]
mod tests {
    use crate::curve::{continue_curve, CurveEnd, CurveKind, CurveOptions, CurveStart};
    use crate::curve::{Codim2Kind, PlaneFamily};
    use crate::test_models::{CuspBounce, RotationMap};
    use saltation_hybrid::Bound;
    use saltation_orbit::{OrbitOptions, Segments, Shooting};

    /// The cusp map's fold curve `b = 3 (a/2)^{2/3}` by multiple shooting (the flight in three
    /// pieces: the lifted system has `1 + 2·2 = 5` unknowns besides `(a, b)`): every point on
    /// the closed form to 1e-9 with `u = 1 − (a/2)^{1/3}`, the cusp located at the origin, as
    /// single shooting finds them. The pieces keep the starting flight's thirds (`u = 1.2`,
    /// flight `2u = 2.4`), so the curve stops at `a = 0.01` (`u ≈ 0.83`), before the flight
    /// shortens below two pieces.
    #[test]
    fn fold_curve_by_multiple_shooting_is_the_closed_form() {
        let family = PlaneFamily::new(Bound::new(CuspBounce), "b", "a").unwrap();
        let start = CurveStart::new(0.3, -0.016, vec![1.52]);
        let mut opts = CurveOptions::to(0.01);
        opts.search = Some(-1.0);
        opts.settings.step = 0.01;
        opts.settings.shooting = Shooting::Multiple {
            segments: Segments::PerMode(3),
        };
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::Fold, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        assert!(c.points.len() > 5);
        let b_of = |a: f64| 3.0 * (a / 2.0).cbrt().powi(2);
        for p in &c.points {
            let [b, a] = p.params;
            assert!((b - b_of(a)).abs() < 1e-9, "b = {b} at a = {a}");
            assert_eq!(p.u.len(), 1);
            assert!(
                (p.u[0] - 1.0 + (a / 2.0).cbrt()).abs() < 1e-8,
                "u = {:?}",
                p.u
            );
            // The multiplier at +1 from the segments' product.
            assert!(
                (p.multipliers[0].re - 1.0).abs() < 1e-7,
                "{:?}",
                p.multipliers
            );
        }
        assert_eq!(c.points.last().unwrap().params[1], 0.01);
        let cusp = c
            .codim2
            .iter()
            .find(|x| x.kind == Codim2Kind::Cusp)
            .unwrap();
        assert!(
            cusp.point.params[0].abs() < 1e-9 && cusp.point.params[1].abs() < 1e-9,
            "{:?}",
            cusp.point.params
        );
    }

    /// The rotation map's Neimark–Sacker curve, the circle `a² + b² = 1` with `θ = atan2(b, a)`,
    /// by multiple shooting (the clock's phase in two pieces: `m = 2 + 3 = 5` unknowns besides
    /// `(a, b)`, the real form of the closing block times `e^{iθ}` a `10 × 10` matrix): every
    /// point on the circle to 1e-9 with its angle, its multipliers (the product QR of the
    /// segments) on the unit circle at `e^{±iθ}`.
    #[test]
    fn neimark_sacker_curve_by_multiple_shooting_is_the_unit_circle() {
        let family = PlaneFamily::new(Bound::new(RotationMap), "a", "b").unwrap();
        let start = CurveStart::new(0.5, 0.5, vec![0.01, 0.01]);
        let mut opts = CurveOptions::to(0.2);
        opts.search = Some(1.0);
        opts.settings.step = 0.01;
        opts.settings.shooting = Shooting::Multiple {
            segments: Segments::PerMode(2),
        };
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::NeimarkSacker, &start, &orbit, &opts).unwrap();
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        assert!(c.points.len() > 3);
        for p in &c.points {
            let [a, b] = p.params;
            assert!((a.hypot(b) - 1.0).abs() < 1e-9, "a = {a}, b = {b}");
            let theta = p.angle.unwrap();
            assert!(
                (theta - b.atan2(a)).abs() < 1e-9,
                "θ = {theta} at ({a}, {b})"
            );
            let top = p.multipliers.iter().find(|m| m.im > 0.0).unwrap();
            assert!(
                (top.re - a).abs() < 1e-9 && (top.im - b).abs() < 1e-9,
                "{:?}",
                p.multipliers
            );
        }
        assert_eq!(c.points.last().unwrap().params[1], 0.2);
        assert!(c.codim2.is_empty(), "{:?}", c.codim2);
    }

    /// Towards its 1:1 resonance `(a, b) = (1, 0)` (`κ = 1`), where the lifted system's
    /// `σ = √(1 − κ²)` vanishes: the multiple-shooting curve ends there with a typed end (the
    /// corrector failing at the smallest step), every point before it on the circle with
    /// `b > 0`.
    #[test]
    fn a_lifted_neimark_sacker_curve_ends_at_its_strong_resonance() {
        let family = PlaneFamily::new(Bound::new(RotationMap), "a", "b").unwrap();
        let start = CurveStart::new(0.5, 0.5, vec![0.01, 0.01]);
        let mut opts = CurveOptions::to(-0.2);
        opts.search = Some(1.0);
        opts.settings.step = 0.02;
        opts.settings.min_step = 1e-6;
        opts.settings.shooting = Shooting::Multiple {
            segments: Segments::PerMode(2),
        };
        let orbit = OrbitOptions::default();
        let c = continue_curve(&family, CurveKind::NeimarkSacker, &start, &orbit, &opts).unwrap();
        assert!(matches!(c.end, CurveEnd::CorrectorFailed(_)), "{}", c.end);
        for p in &c.points {
            let [a, b] = p.params;
            assert!(
                (a.hypot(b) - 1.0).abs() < 1e-9 && b > 0.0,
                "a = {a}, b = {b}"
            );
        }
        assert!(
            c.points.last().unwrap().params[1] < 0.05,
            "{:?}",
            c.points.last()
        );
    }
}
