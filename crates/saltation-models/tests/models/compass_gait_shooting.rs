//! Continuation by multiple shooting on the compass gait (`models/equations/compass_gait.ron`)
//! in its slope `phi`: the branch through the period doubling equals the single-shooting
//! branch, and a gait with a multiplier above `1e8` (thirty steps per stride past the period
//! doubling), whose starting orbit single shooting cannot find, is continued, its multipliers
//! down to `1e-30` agreeing with an independent value (the thirtieth powers of the one-step
//! gait's multipliers, by single shooting on one step, well conditioned).

use saltation_continuation::{
    continue_branch, BifurcationKind, Branch, ContinuationError, ContinuationOptions, EndReason,
    ParamFamily, Start,
};
use saltation_models::Model;
use saltation_orbit::{find_periodic_orbit, OrbitOptions, PeriodicOrbit, Segments, Shooting};
use saltation_scenario::load_model_file;
use std::path::Path;

/// The compass gait with the nominal masses, and its file's orbit settings.
pub(crate) fn compass_gait() -> (Model, OrbitOptions) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/equations/compass_gait.ron");
    let f = load_model_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let orbit = OrbitOptions {
        stride: f.orbit.stride.clone(),
        ..Default::default()
    };
    (f.model, orbit)
}

fn multiple(segments: Segments) -> Shooting {
    Shooting::Multiple { segments }
}

/// The one-step gait at slope `phi` by single shooting from `u`.
fn one_step(model: &Model, orbit: &OrbitOptions, phi: f64, u: &[f64]) -> PeriodicOrbit {
    let m = model.with_param("phi", phi).unwrap();
    find_periodic_orbit(&m, u, orbit).unwrap_or_else(|e| panic!("phi = {phi}: {e}"))
}

/// The branch of the one-step gait from 4.2° through its period doubling (4.39°) with `shooting`.
fn pd_branch(shooting: Shooting) -> Branch {
    let (model, orbit) = compass_gait();
    let family = ParamFamily::new(model, "phi").unwrap();
    let opts = ContinuationOptions {
        step: 0.001,
        max_step: 0.002,
        min_step: 1e-9,
        p_min: 0.07,
        p_max: 0.08,
        max_points: 100,
        corrector_tol: 1e-10,
        locate_tol: 1e-11,
        shooting,
        ..ContinuationOptions::default()
    };
    let start = Start::new(0.0733, vec![0.2306, -0.1831, -1.1469]);
    continue_branch(&family, &start, &orbit, &opts).unwrap()
}

/// With multiple shooting (one segment per phase, and three pieces per phase) the branch's
/// points are the single-shooting orbits at their slopes to 1e-9 (the orbit solver, single
/// shooting, at each point's `phi`), their multipliers those of single shooting, and the period
/// doubling is located where single shooting locates it, to 1e-9.
#[test]
fn multiple_shooting_branch_equals_the_single_shooting_branch() {
    let (model, orbit) = compass_gait();
    let single = pd_branch(Shooting::Single);
    let pd_of = |b: &Branch| {
        let pd: Vec<f64> = b
            .bifurcations
            .iter()
            .filter(|x| x.kind == BifurcationKind::PeriodDoubling)
            .map(|x| x.param)
            .collect();
        assert_eq!(pd.len(), 1, "{:?}", b.bifurcations);
        pd[0]
    };
    let pd_single = pd_of(&single);
    for segments in [Segments::Phases, Segments::PerMode(3)] {
        let b = pd_branch(multiple(segments));
        assert_eq!(b.end, EndReason::ParameterBound, "{segments:?}");
        assert!(b.points.len() >= 5, "{segments:?}: {}", b.points.len());
        for pt in &b.points {
            let o = one_step(&model, &orbit, pt.param, &pt.u);
            for (a, c) in pt.u.iter().zip(&o.u0) {
                assert!(
                    (a - c).abs() < 1e-9,
                    "{segments:?} at phi = {}: {:?} vs {:?}",
                    pt.param,
                    pt.u,
                    o.u0
                );
            }
            assert!((pt.period - o.period).abs() < 1e-9);
            for (a, c) in pt.multipliers.iter().zip(&o.multipliers) {
                assert!(
                    (a.re - c.re).abs() < 1e-8 && (a.im.abs() - c.im.abs()).abs() < 1e-8,
                    "{segments:?} at phi = {}: {:?} vs {:?}",
                    pt.param,
                    pt.multipliers,
                    o.multipliers
                );
            }
            assert_eq!(pt.stable, o.stable);
        }
        let pd = pd_of(&b);
        assert!(
            (pd - pd_single).abs() < 1e-9,
            "{segments:?}: PD at {pd} vs single shooting {pd_single}"
        );
    }
}

/// Thirty steps per stride at 5.5°, past the period doubling: the one-step multiplier −1.947
/// makes the stride's 4.8e8. Single shooting cannot even find the starting orbit (from a guess
/// off by 1e-12); multiple shooting (one segment per step: 119 unknowns) continues it to 5.55°,
/// every point the one-step gait at its slope, its multipliers the thirtieth powers of the
/// one-step gait's to 1e-9 (down to 0.09³⁰ ≈ 1e-31), and they agree with the orbit solver's
/// multiple shooting at the last point.
#[test]
fn a_gait_with_a_multiplier_above_1e8_is_continued_by_multiple_shooting() {
    let (model, orbit) = compass_gait();
    let k = 30;
    let (from, to) = (5.5f64.to_radians(), 5.55f64.to_radians());
    let gait = one_step(&model, &orbit, from, &[0.29, -0.3, -1.4]);
    assert!(gait.multipliers[0].re < -1.9, "{:?}", gait.multipliers);
    let guess: Vec<f64> = gait.u0.iter().map(|v| v + 1e-12).collect();
    let mut long = orbit.clone();
    long.stride.events_per_stride = k;
    long.stride.t_max = 100.0;
    let family = ParamFamily::new(model.clone(), "phi").unwrap();
    let opts = ContinuationOptions {
        step: 2e-4,
        max_step: 5e-4,
        min_step: 1e-9,
        p_min: from - 1e-3,
        p_max: to,
        max_points: 40,
        corrector_tol: 1e-10,
        ..ContinuationOptions::default()
    };
    let start = Start::new(from, guess);
    let single = continue_branch(&family, &start, &long, &opts);
    assert!(
        matches!(single, Err(ContinuationError::Orbit(_))),
        "single shooting should fail to find the starting orbit: {single:?}"
    );
    let opts = ContinuationOptions {
        shooting: multiple(Segments::Phases),
        ..opts
    };
    let b = continue_branch(&family, &start, &long, &opts).unwrap();
    assert_eq!(b.end, EndReason::ParameterBound, "{:?}", b.end);
    assert!(b.points.len() >= 4, "{}", b.points.len());
    assert!((b.points.last().unwrap().param - to).abs() < 1e-14);
    let mut u = gait.u0.clone();
    for pt in &b.points {
        let one = one_step(&model, &orbit, pt.param, &u);
        u = one.u0.clone();
        for (a, c) in pt.u.iter().zip(&one.u0) {
            assert!(
                (a - c).abs() < 1e-10,
                "phi = {}: {:?} vs {:?}",
                pt.param,
                pt.u,
                one.u0
            );
        }
        assert!((pt.period - k as f64 * one.period).abs() < 1e-9 * pt.period);
        assert_eq!(pt.event_times.len(), k);
        let mu = &pt.multipliers;
        assert!(mu[0].modulus() > 1e8, "{mu:?}");
        for (i, (m, m1)) in mu.iter().zip(&one.multipliers).take(3).enumerate() {
            let want = nalgebra::Complex::new(m1.re, m1.im).powu(k as u32);
            let got = nalgebra::Complex::new(m.re, m.im);
            assert!(
                (got - want).norm() <= 1e-9 * want.norm(),
                "phi = {}: multiplier {i}: {got} vs {want}",
                pt.param
            );
        }
        assert!(mu[2].modulus() < 1e-29, "{mu:?}");
        assert!(!pt.stable);
    }
    // The orbit solver's multiple shooting at the last point.
    let last = b.points.last().unwrap();
    let m = model.with_param("phi", last.param).unwrap();
    let o = find_periodic_orbit(
        &m,
        &last.u,
        &OrbitOptions {
            shooting: multiple(Segments::Phases),
            ..long.clone()
        },
    )
    .unwrap();
    for (a, c) in last.multipliers.iter().zip(&o.multipliers) {
        let scale = c.modulus();
        assert!(
            ((a.re - c.re).powi(2) + (a.im - c.im).powi(2)).sqrt() <= 1e-9 * scale,
            "{:?} vs {:?}",
            last.multipliers,
            o.multipliers
        );
    }
}
