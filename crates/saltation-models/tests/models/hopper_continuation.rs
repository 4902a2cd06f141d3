//! Continuation of the hopper's gaits in the ground damping `d_G` (Zana et al. 2018, §4.3),
//! against the closed-form solution in the paper's own parametrisation by the flight time:
//! pseudo-arclength passes the folds of `d_G` and locates them where the closed form's
//! `d_G(t_F)` is stationary; continuation in the flight time (an event time) follows the
//! closed-form branch point by point.

use saltation_continuation::{
    continue_branch, BifurcationKind, Branch, ContinuationOptions, Predictor, Start,
};
use saltation_hybrid::{Bound, ParamError};
use saltation_models::hopper::closed_form::{periodic_orbit_at_flight_time, LiftoffGuess};
use saltation_models::hopper::{stride_options, Hopper, HopperParams, HopperParticles};

fn family(d_g: f64) -> Result<Bound<Hopper>, ParamError> {
    let p = HopperParams {
        d_g,
        ..HopperParams::default()
    };
    HopperParticles::bound(&p, 0.5, 0.5)
}

fn options(predictor: Predictor, step: f64, max_step: f64) -> ContinuationOptions {
    ContinuationOptions {
        predictor,
        step,
        max_step,
        min_step: 1e-9,
        corrector_tol: 1e-10,
        max_points: 150,
        ..ContinuationOptions::default()
    }
}

fn run(opts: &ContinuationOptions, p_max: f64) -> Branch {
    let opts = ContinuationOptions {
        p_min: -200.0,
        p_max,
        ..opts.clone()
    };
    let start = Start {
        param: -80.0,
        u: vec![1.02, 1.7],
        label: "gait".into(),
        period_k: 1,
    };
    let orbit = saltation_orbit::OrbitOptions {
        stride: stride_options(1e-11, 5.0),
        ..Default::default()
    };
    continue_branch(&family, &start, &orbit, &opts).unwrap()
}

/// `d_G` at the fold of the closed-form branch near flight time `t0`: the extremum of
/// `d_G(t_F)`, by golden-section search on `[t0 − w, t0 + w]`.
fn closed_form_fold(t0: f64, w: f64, maximum: bool, guess: LiftoffGuess) -> f64 {
    let base = HopperParams::default();
    let d_g = |t: f64| {
        let (d, _) = periodic_orbit_at_flight_time(&base, t, Some(guess)).unwrap();
        if maximum {
            -d
        } else {
            d
        }
    };
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (t0 - w, t0 + w);
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if d_g(c) < d_g(d) {
            b = d;
        } else {
            a = c;
        }
    }
    let v = d_g(0.5 * (a + b));
    if maximum {
        -v
    } else {
        v
    }
}

#[test]
fn arclength_passes_the_folds_of_d_g() {
    // Up from d_G = -80: a fold at -50.35 (inside a stretch where the foot would be pulled at
    // touchdown, so the closed form has no orbit there: grazing points on both sides), then
    // back down to a fold at -75.18, then up towards D_G = 0.
    let b = run(&options(Predictor::Arclength, 0.5, 1.0), -40.0);
    let folds: Vec<f64> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Fold)
        .map(|x| x.param)
        .collect();
    assert!(folds.len() >= 2, "{:?} {:?}", b.end, b.bifurcations);
    let grazing = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Grazing)
        .count();
    assert!(grazing >= 2, "{:?}", b.bifurcations);
    // The second fold is on the admissible branch: compare with the closed form.
    let fold = &b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Fold)
        .nth(1)
        .unwrap();
    let guess = LiftoffGuess {
        d_g: fold.param,
        zu_dot: fold.u[1],
    };
    let reference = closed_form_fold(0.1613, 0.003, false, guess);
    assert!(
        (folds[1] - reference).abs() < 1e-6,
        "{} vs {reference}",
        folds[1]
    );
    for x in b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Fold)
    {
        assert!((x.multipliers[0].re - 1.0).abs() < 1e-5, "{x:?}");
    }
    // Admissibility is reported on every point and changes only at the grazing points.
    assert!(b.points.iter().all(|p| p.admissible.is_some()));
}

#[test]
fn flight_time_continuation_follows_the_closed_form() {
    let b = run(
        &options(Predictor::EventTime { event: 0 }, 0.004, 0.01),
        -20.0,
    );
    let pts: Vec<(f64, f64)> = b
        .points
        .iter()
        .map(|p| (p.param, p.event_times[0]))
        .collect();
    assert!(b.points.len() > 10, "{:?} {pts:?}", b.end);
    let base = HopperParams::default();
    for p in b
        .points
        .iter()
        .filter(|p| p.admissible == Some(true))
        .take(12)
    {
        let t_f = p.event_times[0];
        let guess = LiftoffGuess {
            d_g: p.param,
            zu_dot: p.u[1],
        };
        let (d_g, exact) = periodic_orbit_at_flight_time(&base, t_f, Some(guess)).unwrap();
        assert!(
            (p.param - d_g).abs() < 1e-6,
            "t_F = {t_f}: {} vs {d_g}",
            p.param
        );
        assert!((p.u[1] - exact.liftoff[2]).abs() < 1e-8);
        assert!((p.multipliers[0].re - exact.multiplier).abs() < 1e-6);
    }
    // The flight time moves monotonically along the branch.
    let t: Vec<f64> = b.points.iter().map(|p| p.event_times[0]).collect();
    assert!(t.windows(2).all(|w| w[1] < w[0]) || t.windows(2).all(|w| w[1] > w[0]));
}
