//! The self-excited impact oscillator (models/equations/impact_oscillator_self_excited.ron):
//! its Neimark–Sacker curve in the plane (damping `zeta`, restitution `r`), continued from the
//! Neimark–Sacker point of the one-parameter branch in `zeta` at `r = 0.8`, against
//! - a second method: at several FIXED restitutions a one-parameter continuation in `zeta`
//!   from the stable orbit at `zeta = −0.02` locates the Neimark–Sacker point there, and the
//!   curve, run to end exactly at that restitution (`to2 = r`), must agree with it in `zeta`
//!   and in the angle `θ` of the critical pair `e^{±iθ}`;
//! - the closed form: a period-1 orbit with one impact per forcing period `T = 2π/ω` has a
//!   period map of determinant `r² exp(−2 zeta T)` (flow: `exp(trace · T)`, `trace = −2 zeta`;
//!   impact: the saltation matrix of `x'⁺ = −r x'⁻` at `x = sigma` has determinant `r²`), so its
//!   complex pair has modulus `r exp(−zeta T)` and lies on the unit circle exactly on
//!   `zeta = ω ln(r) / (2π)`;
//! - the reported angle against the curve point's own multipliers: `θ = arg μ` of the pair on
//!   the unit circle.
//!
//! In `(zeta, omega)` the curve runs into a 1:2 resonance (`θ = π`), where it ends: beyond it the
//! defining system continues as a curve of neutral saddles (`κ = cos θ < −1`), which is not a
//! bifurcation.

use crate::common::model_file;
use saltation::continuation::{
    continue_branch, continue_curve, BifurcationKind, Codim2Kind, ContinuationOptions, Curve,
    CurveEnd, CurveKind, CurveOptions, CurveStart, ParamFamily, PlaneFamily, Start,
};
use std::f64::consts::PI;

const FILE: &str = "equations/impact_oscillator_self_excited.ron";
/// Where the branches and the curves start: `zeta = −0.02` (a stable orbit, `|μ| ≈ 0.87`).
const ZETA0: f64 = -0.02;
/// The file's forcing frequency.
const OMEGA: f64 = 1.5;
/// The file's guess of the period-1 orbit.
const GUESS: [f64; 2] = [-0.5, 0.3];

/// The closed-form Neimark–Sacker damping at restitution `r` (and forcing frequency `omega`).
fn zeta_ns(r: f64, omega: f64) -> f64 {
    omega * r.ln() / (2.0 * PI)
}

/// The angle of the multiplier pair nearest the unit circle, `arg μ ∈ [0, π]`.
fn pair_angle(mu: &[saltation::orbit::Multiplier]) -> f64 {
    let m = mu
        .iter()
        .filter(|m| m.im >= 0.0)
        .min_by(|a, b| {
            (a.modulus() - 1.0)
                .abs()
                .total_cmp(&(b.modulus() - 1.0).abs())
        })
        .unwrap();
    m.im.atan2(m.re)
}

/// The Neimark–Sacker point in `zeta` at restitution `r`, by a one-parameter continuation
/// from `zeta = −0.02` towards more negative damping: `(zeta, θ)`.
fn one_parameter_ns(r: f64) -> (f64, f64) {
    let file = model_file(FILE);
    let plane = PlaneFamily::new(file.model.clone(), "zeta", "r").unwrap();
    let family = ParamFamily::new(plane.model_at(ZETA0, r).unwrap(), "zeta").unwrap();
    let o = ContinuationOptions {
        step: 0.005,
        max_step: 0.01,
        max_points: 200,
        corrector_tol: 1e-11,
        locate_tol: 1e-12,
        p_min: -0.3,
        p_max: 0.0,
        direction: -1.0,
        ..ContinuationOptions::default()
    };
    let b = continue_branch(&family, &Start::new(ZETA0, GUESS.to_vec()), &file.orbit, &o).unwrap();
    let ns: Vec<_> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::NeimarkSacker)
        .collect();
    assert_eq!(ns.len(), 1, "r = {r}: {:?}", b.bifurcations);
    (ns[0].param, pair_angle(&ns[0].multipliers))
}

/// The Neimark–Sacker curve from `(zeta, p2) = (−0.02, model's value)`, located in `zeta`,
/// continued in `param2` until it reaches `to2`.
fn curve(param2: &str, to2: f64) -> Curve {
    let file = model_file(FILE);
    let family = PlaneFamily::new(file.model.clone(), "zeta", param2).unwrap();
    let [_, p2] = family.base_values();
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(-1.0);
    opts.settings.step = 0.005;
    opts.settings.max_step = 0.05;
    opts.settings.corrector_tol = 1e-11;
    opts.settings.locate_tol = 1e-12;
    let start = CurveStart::new(ZETA0, p2, GUESS.to_vec());
    continue_curve(
        &family,
        CurveKind::NeimarkSacker,
        &start,
        &file.orbit,
        &opts,
    )
    .unwrap()
}

/// Every point of a curve in `(zeta, r)` on the closed form, with a pair of multipliers on the
/// unit circle at the reported angle.
fn check_points(c: &Curve, omega_of: impl Fn(&[f64; 2]) -> (f64, f64)) {
    for p in &c.points {
        let (r, omega) = omega_of(&p.params);
        let zeta = p.params[0];
        assert!(
            (zeta - zeta_ns(r, omega)).abs() < 1e-9,
            "{:?}: zeta − ω ln(r)/2π = {:e}",
            p.params,
            zeta - zeta_ns(r, omega)
        );
        let theta = p.angle.expect("a Neimark–Sacker point reports its angle");
        assert!(
            (theta - pair_angle(&p.multipliers)).abs() < 1e-8,
            "{:?}: θ = {theta}, arg μ = {}",
            p.params,
            pair_angle(&p.multipliers)
        );
        let on_circle = p
            .multipliers
            .iter()
            .filter(|m| m.im.abs() > 1e-6)
            .all(|m| (m.modulus() - 1.0).abs() < 1e-9);
        assert!(on_circle, "{:?}: {:?}", p.params, p.multipliers);
    }
}

#[test]
fn neimark_sacker_curve_agrees_with_fixed_restitution_branches_and_the_closed_form() {
    let (zeta_08, theta_08) = one_parameter_ns(0.8);
    assert!(
        (zeta_08 - zeta_ns(0.8, OMEGA)).abs() < 1e-9,
        "one-parameter NS at r = 0.8: {zeta_08}, closed form {}",
        zeta_ns(0.8, OMEGA)
    );
    for r in [0.65, 0.7, 0.9] {
        let c = curve("r", r);
        assert_eq!(c.end, CurveEnd::Reached, "to r = {r}: {}", c.end);
        assert!(c.codim2.is_empty(), "{:?}", c.codim2);
        check_points(&c, |q| (q[1], OMEGA));
        let first = c.points.first().unwrap();
        let last = c.points.last().unwrap();
        assert_eq!(first.params[1], 0.8);
        assert_eq!(last.params[1], r);
        assert!(
            (first.params[0] - zeta_08).abs() < 1e-9,
            "curve starts at zeta = {}, one-parameter NS {zeta_08}",
            first.params[0]
        );
        assert!((first.angle.unwrap() - theta_08).abs() < 1e-8);
        let (zeta, theta) = one_parameter_ns(r);
        let (curve_zeta, curve_theta) = (last.params[0], last.angle.unwrap());
        eprintln!(
            "r = {r}: curve zeta = {curve_zeta}, θ = {curve_theta}; one-parameter zeta = \
             {zeta}, θ = {theta}; Δ = {:e}, {:e}; {} points",
            curve_zeta - zeta,
            curve_theta - theta,
            c.points.len()
        );
        assert!(
            (curve_zeta - zeta).abs() < 1e-8,
            "r = {r}: curve zeta = {curve_zeta}, one-parameter NS at {zeta}"
        );
        assert!(
            (curve_theta - theta).abs() < 1e-7,
            "r = {r}: curve θ = {curve_theta}, one-parameter θ = {theta}"
        );
    }
}

/// Towards smaller forcing frequencies the angle grows to π: the curve locates the 1:2
/// resonance (a double multiplier −1) and ends there, every point before it a genuine
/// Neimark–Sacker point on the closed form.
#[test]
fn neimark_sacker_curve_in_the_forcing_frequency_ends_at_its_1_2_resonance() {
    let c = curve("omega", 1.0);
    assert_eq!(c.end, CurveEnd::StrongResonance("1:2".into()), "{}", c.end);
    check_points(&c, |q| (0.8, q[1]));
    assert_eq!(c.codim2.len(), 1, "{:?}", c.codim2);
    let res = &c.codim2[0];
    assert_eq!(res.kind, Codim2Kind::Resonance12);
    let [zeta, omega] = res.point.params;
    assert!((zeta - zeta_ns(0.8, omega)).abs() < 1e-9, "{zeta}, {omega}");
    // κ = cos θ = −1 there (θ itself is only as close to π as the square root of that).
    let kappa = res.point.angle.unwrap().cos();
    assert!((kappa + 1.0).abs() < 1e-9, "κ = {kappa}");
    // A double multiplier −1 (it splits by about √(κ + 1)).
    for m in res.point.multipliers.iter().take(2) {
        assert!((m.re + 1.0).hypot(m.im) < 1e-5, "{m:?}");
    }
    let last = c.points.last().unwrap();
    assert!(last.params[1] > omega && last.angle.unwrap() < PI);
}
