//! The ball on a vibrating table (models/equations/vibrating_table.ron): its fold and
//! period-doubling curves in the plane (Γ, e), continued from the one-parameter bifurcations
//! in Γ at e = 0.5, against their closed forms.
//!
//! A period-n orbit has one impact every n forcing periods (`τ = nT = 2πn/ω`) and is a fixed
//! point of ONE stride, with `v⁺ = gτ/2 = nπ g/ω`. Linearising the impact map in
//! `(φ, v⁺)` about it (flight time `s`, `H(s) = A sin φ + v s − g s²/2 − A sin(φ + ωs) = 0`):
//! `∂s/∂v = (1 + e)/g`, `∂s/∂φ = 0`, so `det = e²` and
//! `tr = 1 + e² − (1 + e)² Γ sin φ*`, with `Γ cos φ* = a = nπ(1 − e)/(1 + e)` (g = ω = 1).
//! A multiplier +1 (`1 − tr + det = (1 + e)² Γ sin φ* = 0`) needs `sin φ* = 0`: the fold is
//! `Γ_SN(e) = a`; a multiplier −1 (`1 + tr + det = 0`) needs
//! `Γ sin φ* = 2(1 + e²)/(1 + e)²`: `Γ_PD(e)² = a² + (2(1 + e²)/(1 + e)²)²`.

use crate::common::model_file;
use saltation::continuation::{
    continue_curve, CurveEnd, CurveKind, CurveOptions, CurveStart, PlaneFamily,
};
use std::f64::consts::PI;

/// `a = nπ(1 − e)/(1 + e)`.
fn a(n: f64, e: f64) -> f64 {
    n * PI * (1.0 - e) / (1.0 + e)
}

/// The closed form of the curve of `kind` for period-n orbits.
fn closed_form(kind: CurveKind, n: f64, e: f64) -> f64 {
    match kind {
        CurveKind::Fold => a(n, e),
        _ => a(n, e).hypot(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e))),
    }
}

/// Continues the curve of `kind` of the period-n orbit from `Γ = gamma0`, `e = 0.5` (the
/// stable orbit, `cos φ* = a/Γ`, `v⁺ = nπ`) to `e = to2`, and checks every point against the
/// closed form.
fn check(kind: CurveKind, n: f64, gamma0: f64, search: f64, to2: f64) {
    let file = model_file("equations/vibrating_table.ron");
    let family = PlaneFamily::new(file.model.clone(), "Gamma", "e").unwrap();
    let e0 = 0.5;
    let phi = (a(n, e0) / gamma0).acos();
    let start = CurveStart::new(gamma0, e0, vec![phi, n * PI]);
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(search);
    opts.settings.step = 0.01;
    opts.settings.max_step = 0.05;
    let c = continue_curve(&family, kind, &start, &file.orbit, &opts).unwrap();
    assert_eq!(
        c.end,
        CurveEnd::Reached,
        "{kind} n = {n} to e = {to2}: {}",
        c.end
    );
    assert!(c.points.len() >= 5, "{}", c.points.len());
    let last = c.points.last().unwrap();
    assert_eq!(last.params[1], to2);
    let mut worst: f64 = 0.0;
    for p in &c.points {
        let [gamma, e] = p.params;
        let exact = closed_form(kind, n, e);
        worst = worst.max((gamma - exact).abs());
        assert!(
            (gamma - exact).abs() < 1e-9,
            "{kind} n = {n}: Γ = {gamma} at e = {e}, closed form {exact}"
        );
        // v⁺ = nπ on the whole curve.
        assert!((p.u[1] - n * PI).abs() < 1e-8, "v = {} at e = {e}", p.u[1]);
    }
    assert!(c.codim2.is_empty(), "{:?}", c.codim2);
    eprintln!(
        "{kind} n = {n} to e = {to2}: {} points, worst |ΔΓ| = {worst:e}",
        c.points.len()
    );
}

#[test]
fn fold_curves_follow_their_closed_form() {
    for (n, gamma0) in [(1.0, 1.2), (2.0, 2.2)] {
        for to2 in [0.85, 0.2] {
            check(CurveKind::Fold, n, gamma0, -1.0, to2);
        }
    }
}

#[test]
fn period_doubling_curves_follow_their_closed_form() {
    for (n, gamma0) in [(1.0, 1.2), (2.0, 2.2)] {
        for to2 in [0.85, 0.2] {
            check(CurveKind::PeriodDoubling, n, gamma0, 1.0, to2);
        }
    }
}
