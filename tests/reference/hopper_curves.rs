//! The hopper (models/hopper_continuation.ron): its fold curve in the plane (d_G, mu),
//! continued from the admissible fold of the mu = 0.8 branch found below d_G = −80 (the fold
//! above it, d_G ≈ −50.35, lies past a grazing: no closed-form stride), checked point by point
//! against the closed-form stride (saltation_models::hopper::closed_form, independent of the
//! numerical hybrid machinery): at each curve point `(d_G, mu)` with lift-off velocity `v`,
//! the closed-form return map on the lift-off section satisfies `P(v) = v` (periodic) and
//! `P'(v) = 1` (fold), `P'` exact by a dual number.

use crate::common::model_file;
use num_dual::Dual64;
use saltation::continuation::{
    continue_curve, Codim2Kind, CurveEnd, CurveKind, CurveOptions, CurveStart, PlaneFamily,
};
use saltation::models::hopper::closed_form::{liftoff_state, stride};
use saltation::models::hopper::HopperParams;

#[test]
fn fold_curve_satisfies_the_closed_form_fold_conditions() {
    let file = model_file("hopper_continuation.ron");
    let family = PlaneFamily::new(file.model.clone(), "d_G", "mu").unwrap();
    let mut opts = CurveOptions::to(0.85);
    opts.search = Some(-1.0);
    opts.settings.step = 0.5;
    opts.settings.max_step = 1.0;
    opts.settings.corrector_tol = 1e-9;
    let start = CurveStart::new(-80.0, 0.8, vec![1.02, 1.7]);
    let c = continue_curve(&family, CurveKind::Fold, &start, &file.orbit, &opts).unwrap();
    assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
    assert!(c.points.len() >= 5, "{}", c.points.len());
    let mut worst = [0.0f64; 2];
    for pt in &c.points {
        let [d_g, mu] = pt.params;
        let p = HopperParams {
            g: 9.81,
            m: 75.0,
            mu,
            k: 15000.0,
            d_f: 150.0,
            d_g,
            l0: 1.0,
        };
        // x0 = [z of the two upper particles, of the two lower, their velocities].
        // The closed form has no stride where the foot cannot stay down at touchdown.
        assert_eq!(pt.admissible, Some(true), "{:?}", pt.params);
        let v = pt.x0[4];
        let s = stride(&p, liftoff_state(&p, Dual64::new(v, 1.0))).unwrap();
        let (pv, dpv) = (s.end[2].re, s.end[2].eps);
        worst = [
            worst[0].max((pv - v).abs()),
            worst[1].max((dpv - 1.0).abs()),
        ];
        assert!(
            (pv - v).abs() < 1e-9,
            "P(v) − v = {:e} at {:?}",
            pv - v,
            pt.params
        );
        assert!((dpv - 1.0).abs() < 1e-8, "P'(v) = {dpv} at {:?}", pt.params);
    }
    eprintln!(
        "hopper fold curve from {:?}: {} points, worst |P(v) − v| = {:e}, |P'(v) − 1| = {:e}",
        c.points[0].params,
        c.points.len(),
        worst[0],
        worst[1]
    );
}

/// From the fold of the mu = 0.8 branch above d_G = −80 (d_G ≈ −50.35) the fold curve rises
/// in mu to a cusp (two folds meet) near mu ≈ 0.93 and turns back. At the reported cusp the
/// closed-form return map has `P(v) = v`, `P'(v) = 1` and `P''(v) = 0` (on ordinary fold
/// points `P''` is of order 1: 1.96 at the start of the curve above).
#[test]
fn fold_curve_cusp_satisfies_the_closed_form_cusp_conditions() {
    use num_dual::Dual2_64;
    let file = model_file("hopper_continuation.ron");
    let family = PlaneFamily::new(file.model.clone(), "d_G", "mu").unwrap();
    let mut opts = CurveOptions::to(0.95);
    opts.search = Some(1.0);
    opts.settings.step = 0.5;
    opts.settings.max_step = 1.0;
    opts.settings.max_points = 60;
    opts.settings.corrector_tol = 1e-9;
    let start = CurveStart::new(-80.0, 0.8, vec![1.02, 1.7]);
    let c = continue_curve(&family, CurveKind::Fold, &start, &file.orbit, &opts).unwrap();
    let cusps: Vec<_> = c
        .codim2
        .iter()
        .filter(|x| x.kind == Codim2Kind::Cusp)
        .collect();
    assert_eq!(cusps.len(), 1, "{:?}", c.codim2);
    let pt = &cusps[0].point;
    let [d_g, mu] = pt.params;
    let p = HopperParams {
        g: 9.81,
        m: 75.0,
        mu,
        k: 15000.0,
        d_f: 150.0,
        d_g,
        l0: 1.0,
    };
    let v = pt.x0[4];
    let s = stride(&p, liftoff_state(&p, Dual2_64::new(v, 1.0, 0.0))).unwrap();
    let (pv, d1, d2) = (s.end[2].re, s.end[2].v1, s.end[2].v2);
    eprintln!(
        "hopper cusp at {:?}: P(v) − v = {:e}, P'(v) − 1 = {:e}, P''(v) = {d2:e}",
        pt.params,
        pv - v,
        d1 - 1.0
    );
    assert!((pv - v).abs() < 1e-9, "P(v) − v = {:e}", pv - v);
    assert!((d1 - 1.0).abs() < 1e-8, "P'(v) = {d1}");
    assert!(d2.abs() < 1e-5, "P''(v) = {d2:e}");
}
