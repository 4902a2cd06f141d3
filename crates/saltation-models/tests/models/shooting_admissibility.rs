//! Admissibility of an orbit solved by multiple shooting: the compass gait
//! (`models/equations/compass_gait.ron`) with a declared condition, the hip at least `h_min`
//! above the slope, walking thirty steps per stride at 5.5°, past its period doubling (the
//! stride's largest multiplier is 1.947³⁰ ≈ 4.8e8). The orbit's report from its segments
//! (events, times, verdict) equals the one-step gait's, a well-conditioned single-shooting
//! solve: the event times are the one-step period's multiples to 1e-9. One stride integrated
//! from `x₀` instead (what the report used before) drifts off the orbit by the integration
//! error times the multiplier, far beyond that.

use saltation_hybrid::{simulate, EvalModel, SimulateOptions};
use saltation_models::Model;
use saltation_orbit::{
    find_periodic_orbit, orbit_admissibility, OrbitOptions, PeriodicOrbit, Segments, Shooting,
};
use saltation_scenario::parse_model_file;
use std::path::Path;

/// Steps per stride.
const K: usize = 30;

/// The compass gait with the condition `l·cos(th_s + phi) − h_min ≥ 0` (hip height), and its
/// file's orbit settings.
fn gait_with_hip_condition() -> (Model, OrbitOptions) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/equations/compass_gait.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace(
            "(name: \"phi\", value: 0.05235987755982989, min: 0.0, max: 0.5),",
            "(name: \"phi\", value: 0.05235987755982989, min: 0.0, max: 0.5),\n            \
             (name: \"h_min\", value: 0.0),",
        )
        .replace(
            "        section: (",
            "        admissible: [(name: \"hip height\", mode: \"single support\", \
             when: \"l*cos(th_s + phi) - h_min\")],\n        section: (",
        );
    let f = parse_model_file(&text, "compass gait with a hip condition").unwrap();
    assert_eq!(f.model.conditions(0), 1);
    let orbit = OrbitOptions {
        stride: f.orbit.stride.clone(),
        ..Default::default()
    };
    (f.model, orbit)
}

/// The one-step gait at 5.5° (single shooting) and the thirty-step one (multiple shooting, one
/// segment per step) of `model`.
fn gaits(model: &Model, orbit: &OrbitOptions) -> (PeriodicOrbit, PeriodicOrbit, OrbitOptions) {
    let one = find_periodic_orbit(model, &[0.29, -0.3, -1.4], orbit).unwrap();
    assert!(one.multipliers[0].re < -1.9, "{:?}", one.multipliers);
    let mut long = orbit.clone();
    long.stride.events_per_stride = K;
    long.stride.t_max = 100.0;
    long.shooting = Shooting::Multiple {
        segments: Segments::Phases,
    };
    let guess: Vec<f64> = one.u0.iter().map(|v| v + 1e-12).collect();
    let many = find_periodic_orbit(model, &guess, &long).unwrap();
    assert!(
        many.multipliers[0].modulus() > 1e8,
        "{:?}",
        many.multipliers
    );
    (one, many, long)
}

/// The events of the thirty-step gait are those of the one-step gait, repeated: times
/// `k·T₁ + t₁` and states to 1e-9; its verdict is the one-step gait's.
#[test]
fn the_report_of_a_multiple_shooting_orbit_is_the_one_step_gaits() {
    let (model, orbit) = gait_with_hip_condition();
    let model = model.with_param("phi", 5.5f64.to_radians()).unwrap();
    let (one, many, long) = gaits(&model, &orbit);
    assert_eq!(many.events.len(), K);
    let e1 = &one.events[0];
    for (k, e) in many.events.iter().enumerate() {
        let want = k as f64 * one.period + e1.t;
        assert!((e.t - want).abs() < 1e-9, "event {k}: {} vs {want}", e.t);
        for (a, b) in e.x_minus.iter().zip(&e1.x_minus) {
            assert!(
                (a - b).abs() < 1e-9,
                "event {k}: {:?} vs {:?}",
                e.x_minus,
                e1.x_minus
            );
        }
    }
    let a1 = orbit_admissibility(&model, &one, &orbit).unwrap().unwrap();
    let a = orbit_admissibility(&model, &many, &long).unwrap().unwrap();
    assert!(a1.admissible && a.admissible, "{a1:?} {a:?}");

    // The whole stride from x0, as one simulation: its last events are off by far more.
    let sim = SimulateOptions {
        stride: long.stride.clone(),
        strides: 1,
        dt: None,
        at: Some(Vec::new()),
        ..SimulateOptions::default()
    };
    let trace = simulate(&model, &many.x0, &sim).unwrap();
    let drift = trace
        .events
        .iter()
        .zip(&many.events)
        .map(|(a, b)| (a.t - b.t).abs())
        .fold(0.0f64, f64::max);
    println!(
        "whole-stride events: {} of {K}, largest event-time error {drift:.3e}, failure {:?}",
        trace.events.len(),
        trace.failure
    );
    assert!(
        trace.failure.is_some() || trace.events.len() < K || drift > 1e-7,
        "the whole stride stays on the orbit (drift {drift:e}): the test shows nothing"
    );
}

/// With `h_min` just below the gait's lowest hip height (1e-7 margin, at the heel strikes):
/// admissible from the segments, as the one-step gait is; one stride from `x₀` drifts below it.
#[test]
fn a_tight_condition_keeps_the_one_step_gaits_verdict() {
    let (model, orbit) = gait_with_hip_condition();
    let model = model.with_param("phi", 5.5f64.to_radians()).unwrap();
    let (one, _, _) = gaits(&model, &orbit);
    let th_s = one.events[0].x_minus[1];
    let phi = 5.5f64.to_radians();
    let lowest = (th_s + phi).cos();
    let model = model.with_param("h_min", lowest - 1e-7).unwrap();
    let (one, many, long) = gaits(&model, &orbit);
    let a1 = orbit_admissibility(&model, &one, &orbit).unwrap().unwrap();
    let a = orbit_admissibility(&model, &many, &long).unwrap().unwrap();
    assert!(a1.admissible, "{a1:?}");
    assert!(a.admissible, "{a:?}");
    let whole = model.admissibility(&many.x0, &long.stride);
    println!("whole-stride verdict with a 1e-7 margin: {whole:?}");
}

/// Continuation by multiple shooting over `[5.5°, 5.5° + 3e-8 rad]` with `h_min` 1e-7 below the
/// lowest hip height of the one-step gaits at both ends: every point is admissible (from its
/// segments), as every one-step gait there is.
#[test]
fn continuation_points_of_a_multiple_shooting_branch_are_checked_on_their_segments() {
    use saltation_continuation::{continue_branch, ContinuationOptions, ParamFamily, Start};
    let (model, orbit) = gait_with_hip_condition();
    let (from, to) = (5.5f64.to_radians(), 5.5f64.to_radians() + 3e-8);
    let lowest = |phi: f64| {
        let m = model.with_param("phi", phi).unwrap();
        let one = find_periodic_orbit(&m, &[0.29, -0.3, -1.4], &orbit).unwrap();
        (one.events[0].x_minus[1] + phi).cos()
    };
    let h_min = lowest(from).min(lowest(to)) - 1e-7;
    let model = model.with_param("h_min", h_min).unwrap();
    let start_model = model.with_param("phi", from).unwrap();
    let (_, many, long) = gaits(&start_model, &orbit);
    let family = ParamFamily::new(model.clone(), "phi").unwrap();
    let opts = ContinuationOptions {
        step: 1e-8,
        max_step: 1e-8,
        min_step: 1e-12,
        p_min: from - 1e-3,
        p_max: to,
        max_points: 10,
        corrector_tol: 1e-10,
        shooting: long.shooting,
        ..ContinuationOptions::default()
    };
    let b = continue_branch(&family, &Start::new(from, many.u0.clone()), &long, &opts).unwrap();
    assert!(b.points.len() >= 3, "{}", b.points.len());
    for pt in &b.points {
        assert_eq!(pt.admissible, Some(true), "phi = {}", pt.param);
        let m = model.with_param("phi", pt.param).unwrap();
        let one = find_periodic_orbit(&m, &pt.u, &orbit).unwrap();
        let a1 = orbit_admissibility(&m, &one, &orbit).unwrap().unwrap();
        assert!(a1.admissible, "phi = {}: {a1:?}", pt.param);
        let whole = m.admissibility(&pt.x0, &long.stride);
        println!("phi = {}: whole stride from x0: {whole:?}", pt.param);
    }
}

/// Single shooting of the gait at 5.5° with 8 and 12 steps per stride (largest multiplier
/// 207 and 2970): the multipliers it flags as unresolved (`|μ| ≤ max(rtol, ε)·‖P_x‖_F`) are
/// exactly those among the section's three that differ from multiple shooting's (product QR)
/// by more than 1e-3 relative; the others agree to 1e-3. The flagged set is not empty at 12
/// steps (the two smallest) and empty at 8.
#[test]
fn single_shooting_flags_exactly_the_multipliers_that_disagree_with_multiple_shooting() {
    use saltation_orbit::multiplier_accuracy;
    let (model, orbit) = gait_with_hip_condition();
    let m = model.with_param("phi", 5.5f64.to_radians()).unwrap();
    let one = find_periodic_orbit(&m, &[0.29, -0.3, -1.4], &orbit).unwrap();
    for (k, flagged) in [(8usize, 0usize), (12, 2)] {
        let mut o = orbit.clone();
        o.stride.events_per_stride = k;
        o.stride.t_max = 100.0;
        let single = find_periodic_orbit(&m, &one.u0, &o).unwrap();
        let acc = multiplier_accuracy(&m, &single, &o).unwrap();
        o.shooting = Shooting::Multiple {
            segments: Segments::Phases,
        };
        let phases = find_periodic_orbit(&m, &one.u0, &o).unwrap();
        assert!(multiplier_accuracy(&m, &phases, &o).is_none());
        assert_eq!(acc.unresolved.len(), flagged, "k = {k}: {acc:?}");
        for i in 0..m.reduced_dim() {
            let (a, b) = (single.multipliers[i], phases.multipliers[i]);
            let rel = (a.re - b.re).hypot(a.im.abs() - b.im.abs()) / b.modulus();
            assert_eq!(
                acc.unresolved.contains(&i),
                rel > 1e-3,
                "k = {k}, μ{}: single {a:?}, phases {b:?} (rel {rel:e}), {acc:?}",
                i + 1
            );
        }
    }
}
