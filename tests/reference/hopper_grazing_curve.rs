//! The hopper (models/hopper_continuation.ron): its grazing curve in the plane (d_G, mu), the
//! boundary where the foot would have to be pulled down right after touchdown (the ground
//! force at the start of the stance phase reaching zero), continued from the grazing of the
//! mu = 0.8 branch above d_G = −80, against two second methods:
//! at the mu of the curve's points, a one-parameter continuation in d_G (mu FIXED) locates its
//! grazing point by bisection on the admissibility checker's verdict; each curve point must
//! agree with it, to 1e-6: the checker refuses a sampled value below `−10⁻⁹ max|c|` rather
//! than below zero, which moves its boundary by about 1.2e-7 in d_G (the curve solves `γ = 0`). (Continued further, in a release build, the curve rises to mu = 0.89425 near
//! d_G = −23.8 and turns back, passing the fold curve's fold–grazing point (−25.62, 0.8873) on
//! the way; too slow for a debug test.)

use crate::common::model_file;
use saltation::continuation::{
    continue_branch, continue_curve, BifurcationKind, ContinuationOptions, Curve, CurveEnd,
    CurveKind, CurveOptions, CurveStart, GrazingAt, ParamFamily, PlaneFamily, Predictor, Start,
};

/// The mu = 0.8 gait at d_G = −80 (the file's guess).
const GUESS: [f64; 2] = [1.02, 1.7];

fn curve(kind: CurveKind, to2: f64) -> Curve {
    let file = model_file("hopper_continuation.ron");
    let family = PlaneFamily::new(file.model.clone(), "d_G", "mu").unwrap();
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(1.0);
    opts.settings.step = 0.5;
    opts.settings.max_step = 1.0;
    opts.settings.max_points = 80;
    opts.settings.corrector_tol = 1e-9;
    let start = CurveStart::new(-80.0, 0.8, GUESS.to_vec());
    continue_curve(&family, kind, &start, &file.orbit, &opts).unwrap()
}

/// The grazing point in d_G of the branch at `mu` FIXED, from `d_g0` (guess `u`) upwards.
fn one_parameter_grazing(mu: f64, d_g0: f64, u: &[f64]) -> f64 {
    let file = model_file("hopper_continuation.ron");
    let plane = PlaneFamily::new(file.model.clone(), "d_G", "mu").unwrap();
    let family = ParamFamily::new(plane.model_at(d_g0, mu).unwrap(), "d_G").unwrap();
    let o = ContinuationOptions {
        predictor: Predictor::Arclength,
        step: 0.25,
        min_step: 1e-7,
        max_step: 0.5,
        max_points: 40,
        corrector_tol: 1e-9,
        p_max: d_g0 + 3.0,
        direction: 1.0,
        ..ContinuationOptions::default()
    };
    let b = continue_branch(&family, &Start::new(d_g0, u.to_vec()), &file.orbit, &o).unwrap();
    let g: Vec<_> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Grazing)
        .collect();
    assert_eq!(g.len(), 1, "mu = {mu}: {:?}", b.bifurcations);
    g[0].param
}

#[test]
fn grazing_curve_agrees_with_one_parameter_grazing_points() {
    let t = std::time::Instant::now();
    let c = curve(CurveKind::Grazing, 0.82);
    eprintln!(
        "hopper grazing curve: {} points in {:?}",
        c.points.len(),
        t.elapsed()
    );
    assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
    let g = c.grazing.as_ref().unwrap();
    // The ground force right after touchdown: the start of the stance phase.
    assert_eq!(g.at, GrazingAt::Start, "{g:?}");
    assert!(c.points.len() >= 3, "{}", c.points.len());
    assert!(
        (c.points[0].params[0] + 51.74).abs() < 0.01,
        "{:?}",
        c.points[0].params
    );
    let mut worst = 0.0f64;
    for p in &c.points {
        let [d_g, mu] = p.params;
        let one = one_parameter_grazing(mu, d_g - 1.0, &p.u);
        worst = worst.max((one - d_g).abs());
        // The checker refuses a value at the phase's start below −1e-9·max|c| (not below 0), so
        // its verdict changes that far past γ = 0: 1.2e-7 in d_G here.
        assert!(
            (one - d_g).abs() < 1e-6,
            "mu = {mu}: curve d_G = {d_g}, one-parameter {one}"
        );
    }
    eprintln!("{g:?}: worst |d_G − one-parameter| = {worst:e}");
}
