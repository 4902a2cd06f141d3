//! The compass gait's period-doubling curve in (slope `phi`, hip mass `m_H`) by multiple
//! shooting (`models/equations/compass_gait.ron`): the defining system bordered on the lifted
//! cyclic block matrix (closing block's sign flipped) gives the curve single shooting gives.
//! From the one-parameter period doubling at the nominal masses (4.3909°, `m_H = 10`) to
//! `m_H = 10.3`: the first and last points equal single shooting's to 1e-9, and every point is
//! a fixed point of the one-step map with a multiplier −1 (checked by the orbit solver, single
//! shooting, at its `(phi, m_H)`: an independent second method). The same for the period-2
//! gait's period doubling (0.0857665 rad, 4.914°), a fixed point of the two-step map: with one
//! segment per phase the lifted system has two segments (one per step).

use crate::compass_gait_shooting::compass_gait;
use saltation_continuation::{
    continue_curve, CurveEnd, CurveKind, CurveOptions, CurvePoint, CurveStart, PlaneFamily,
};
use saltation_models::Model;
use saltation_orbit::{find_periodic_orbit, OrbitOptions, Segments, Shooting};

/// The period-doubling curve from the branch's flip near 4.39° at `m_H = 10` to `m_H = 10.3`.
fn pd_curve(shooting: Shooting) -> saltation_continuation::Curve {
    let start = CurveStart::new(0.0733, 10.0, vec![0.2306, -0.1831, -1.1469]);
    curve_from(&start, 10.3, shooting)
}

/// The period-doubling curve from the first flip the branch from `start` meets, to `to2`.
fn curve_from(start: &CurveStart, to2: f64, shooting: Shooting) -> saltation_continuation::Curve {
    let (model, orbit) = compass_gait();
    let family = PlaneFamily::new(model, "phi", "m_H").unwrap();
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(1.0);
    opts.settings.step = 0.001;
    opts.settings.max_step = 0.05;
    opts.settings.corrector_tol = 1e-10;
    opts.settings.locate_tol = 1e-11;
    opts.settings.shooting = shooting;
    continue_curve(&family, CurveKind::PeriodDoubling, start, &orbit, &opts)
        .unwrap_or_else(|e| panic!("{shooting:?}: {e}"))
}

fn close(a: &CurvePoint, b: &CurvePoint, what: &str) {
    assert!(
        (a.params[0] - b.params[0]).abs() < 1e-9,
        "{what}: {:?} vs {:?}",
        a.params,
        b.params
    );
    assert!(
        (a.params[1] - b.params[1]).abs() < 1e-9,
        "{what}: {:?} vs {:?}",
        a.params,
        b.params
    );
    for (x, y) in a.x0.iter().zip(&b.x0) {
        assert!((x - y).abs() < 1e-9, "{what}: {:?} vs {:?}", a.x0, b.x0);
    }
    assert!((a.period - b.period).abs() < 1e-9, "{what}");
}

/// The orbit solver (single shooting, with `orbit`) at the curve point's `(phi, m_H)` from its
/// `u` returns `u` to 1e-9, with a multiplier within 1e-8 of −1.
fn assert_flip_orbit(model: &Model, orbit: &OrbitOptions, pt: &CurvePoint, what: &str) {
    let [phi, m_h] = pt.params;
    let m = model
        .with_param("phi", phi)
        .and_then(|m| m.with_param("m_H", m_h))
        .unwrap();
    let o = find_periodic_orbit(&m, &pt.u, orbit).unwrap_or_else(|e| panic!("{e}"));
    for (a, b) in pt.u.iter().zip(&o.u0) {
        assert!(
            (a - b).abs() < 1e-9,
            "{what} at {:?}: {:?} vs {:?}",
            pt.params,
            pt.u,
            o.u0
        );
    }
    let flip = o
        .multipliers
        .iter()
        .map(|mu| (mu.re + 1.0).hypot(mu.im))
        .fold(f64::INFINITY, f64::min);
    assert!(
        flip < 1e-8,
        "{what} at {:?}: {:?}",
        pt.params,
        o.multipliers
    );
}

#[test]
fn period_doubling_curve_by_multiple_shooting_equals_single_shooting() {
    let (model, orbit) = compass_gait();
    let single = pd_curve(Shooting::Single);
    assert_eq!(single.end, CurveEnd::Reached, "{}", single.end);
    // The one-parameter period doubling at the nominal masses: 4.3909°.
    let phi0 = single.points[0].params[0];
    assert!(
        (phi0.to_degrees() - 4.3909).abs() < 5e-5,
        "{}",
        phi0.to_degrees()
    );
    for segments in [Segments::Phases, Segments::PerMode(3)] {
        let c = pd_curve(Shooting::Multiple { segments });
        assert_eq!(c.end, CurveEnd::Reached, "{segments:?}: {}", c.end);
        assert!(c.points.len() >= 4, "{segments:?}: {}", c.points.len());
        close(&c.points[0], &single.points[0], "first point");
        let (last, last_single) = (c.points.last().unwrap(), single.points.last().unwrap());
        assert_eq!(last.params[1], 10.3);
        close(last, last_single, "last point");
        for pt in &c.points {
            assert_flip_orbit(&model, &orbit, pt, &format!("{segments:?}"));
        }
    }
}

/// The period-2 gait's period doubling (at 0.0857665 rad for the nominal masses) followed in
/// `m_H` to 10.2 as a fixed point of the two-step map (`period_k = 2`): with one segment per
/// phase (two segments, one per step) the first and last points equal single shooting's to
/// 1e-9, and every point is a two-step fixed point with a multiplier −1 by the orbit solver.
#[test]
fn period_2_doubling_curve_with_a_segment_per_step_equals_single_shooting() {
    let (model, mut orbit) = compass_gait();
    let start = CurveStart {
        period_k: 2,
        ..CurveStart::new(0.0857, 10.0, vec![0.25328, -0.02900, -1.19086])
    };
    let single = curve_from(&start, 10.2, Shooting::Single);
    assert_eq!(single.end, CurveEnd::Reached, "{}", single.end);
    assert!((single.points[0].params[0] - 0.0857664701).abs() < 1e-9);
    let c = curve_from(
        &start,
        10.2,
        Shooting::Multiple {
            segments: Segments::Phases,
        },
    );
    assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
    close(&c.points[0], &single.points[0], "first point");
    close(
        c.points.last().unwrap(),
        single.points.last().unwrap(),
        "last point",
    );
    orbit.stride.events_per_stride *= 2;
    for pt in &c.points {
        assert_flip_orbit(&model, &orbit, pt, "phases");
    }
}
