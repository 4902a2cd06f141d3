//! The compass gait (models/equations/compass_gait_continuation.ron): its period-doubling
//! curve in the plane (slope `phi`, hip mass `m_H`), continued from the period doubling of
//! the one-parameter branch in `phi` at the nominal masses, against a second method: at
//! several FIXED hip masses, a one-parameter continuation in `phi` from the 3° gait locates
//! the period doubling there, and the curve, run to end exactly at that mass (`to2 = m_H`),
//! must agree with it.

use crate::common::model_file;
use saltation::continuation::{
    continue_branch, continue_curve, BifurcationKind, ContinuationOptions, CurveEnd, CurveKind,
    CurveOptions, CurveStart, ParamFamily, PlaneFamily, Predictor, Start,
};

/// 3°, where the one-parameter branches and the curve start.
const PHI0: f64 = 0.05235987755982989;
/// The stable period-1 gait at 3° (the file's guess).
const GUESS: [f64; 3] = [0.2187, -0.3774, -1.0924];
/// The period doubling of the period-1 gait at the nominal masses (`m_H = 10`), 4.3909°.
const PHI_PD_NOMINAL: f64 = 0.0766356315782;

/// The period doubling in `phi` of the period-1 gait at hip mass `m_h`, by a one-parameter
/// continuation from 3°.
fn one_parameter_pd(m_h: f64) -> f64 {
    let file = model_file("equations/compass_gait_continuation.ron");
    let plane = PlaneFamily::new(file.model.clone(), "phi", "m_H").unwrap();
    let family = ParamFamily::new(plane.model_at(PHI0, m_h).unwrap(), "phi").unwrap();
    let o = ContinuationOptions {
        predictor: Predictor::Arclength,
        step: 0.001,
        min_step: 1e-8,
        max_step: 0.002,
        max_points: 400,
        corrector_tol: 1e-11,
        p_min: 0.005,
        p_max: 0.0925,
        direction: 1.0,
        stop_at_period_doubling: true,
        ..ContinuationOptions::default()
    };
    let b = continue_branch(&family, &Start::new(PHI0, GUESS.to_vec()), &file.orbit, &o).unwrap();
    let pd: Vec<_> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::PeriodDoubling)
        .collect();
    assert!(!pd.is_empty(), "m_H = {m_h}: {:?}", b.bifurcations);
    pd[0].param
}

/// The period-doubling curve from `(3°, m_H = 10)` to `m_H = to2`: its first and last `phi`.
fn curve_ends(to2: f64) -> (f64, f64) {
    let file = model_file("equations/compass_gait_continuation.ron");
    let family = PlaneFamily::new(file.model.clone(), "phi", "m_H").unwrap();
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(1.0);
    opts.settings.step = 0.001;
    opts.settings.max_step = 0.05;
    opts.settings.corrector_tol = 1e-11;
    let start = CurveStart::new(PHI0, 10.0, GUESS.to_vec());
    let c = continue_curve(
        &family,
        CurveKind::PeriodDoubling,
        &start,
        &file.orbit,
        &opts,
    )
    .unwrap();
    assert_eq!(c.end, CurveEnd::Reached, "to m_H = {to2}: {}", c.end);
    let first = c.points.first().unwrap();
    let last = c.points.last().unwrap();
    assert_eq!(first.params[1], 10.0);
    assert_eq!(last.params[1], to2);
    // Every point has a multiplier −1.
    for p in &c.points {
        let m = p
            .multipliers
            .iter()
            .map(|m| (m.re + 1.0).hypot(m.im))
            .fold(f64::INFINITY, f64::min);
        assert!(m < 1e-7, "no multiplier −1 at {:?}: {m:e}", p.params);
    }
    eprintln!(
        "compass gait PD curve to m_H = {to2}: {} points, phi {} .. {}",
        c.points.len(),
        first.params[0],
        last.params[0]
    );
    (first.params[0], last.params[0])
}

#[test]
fn period_doubling_curve_passes_the_nominal_one_and_agrees_with_fixed_mass_branches() {
    let nominal = one_parameter_pd(10.0);
    assert!(
        (nominal - PHI_PD_NOMINAL).abs() < 1e-9,
        "one-parameter PD at m_H = 10: {nominal}"
    );
    for m_h in [10.5, 11.0, 12.0] {
        let (first, last) = curve_ends(m_h);
        assert!(
            (first - nominal).abs() < 1e-9,
            "curve starts at phi = {first}, one-parameter PD {nominal}"
        );
        let fixed = one_parameter_pd(m_h);
        eprintln!(
            "m_H = {m_h}: curve phi = {last}, one-parameter phi = {fixed}, Δ = {:e}",
            last - fixed
        );
        assert!(
            (last - fixed).abs() < 1e-9,
            "m_H = {m_h}: curve phi = {last}, one-parameter PD at {fixed}"
        );
    }
}
