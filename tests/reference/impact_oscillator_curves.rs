//! The forced impact oscillator (models/equations/impact_oscillator_forced.ron,
//! `x'' + 2ζx' + x = cos ωt` while `x < σ`, `x'⁺ = −r x'⁻` at the stop): the period-doubling
//! curve of its period-1 impacting orbit in the plane (forcing frequency `omega`, restitution
//! `r`), checked point by point against the exact stroboscopic map built here from the closed-
//! form solution of the linear flow, independent of the numerical hybrid machinery:
//!
//! `x(t) = x_p(t) + e^{−ζs}(C₁ cos ω_d s + C₂ sin ω_d s)`, `s = t − t₀`, `ω_d = √(1 − ζ²)`,
//! `x_p = A cos ωt + B sin ωt`, `A = (1 − ω²)/D`, `B = 2ζω/D`, `D = (1 − ω²)² + (2ζω)²`,
//! `C₁ = x(t₀) − x_p(t₀)`, `C₂ = (x'(t₀) − x_p'(t₀) + ζC₁)/ω_d`.
//!
//! From the section state `(x, v)` at the phase `t = 0` the map flows to the first impact time
//! `t*` (`x(t*) = σ`, rising), resets, and flows to `t = T = 2π/ω`. Its Jacobian is exact by a
//! dual number per direction: the impact time's derivative is `t*' = −x'_ε(t*)/ẋ(t*)` (the
//! implicit function theorem), and the flow is evaluated at the dual time `t*`. At every curve
//! point the map must satisfy `P(x₀) = x₀` and `det(P_x + I) = 0` (a multiplier −1), and the
//! other multiplier must equal the curve point's.

use crate::common::model_file;
use num_dual::{Dual64, DualNum};
use saltation::continuation::{
    continue_curve, Curve, CurveEnd, CurveKind, CurveOptions, CurveStart, PlaneFamily,
};
use std::f64::consts::PI;

const FILE: &str = "equations/impact_oscillator_forced.ron";
const ZETA: f64 = 0.05;
const SIGMA: f64 = 0.0;
/// The file's guess of the period-1 orbit, at the file's `omega = 1.5`, `r = 0.8`.
const GUESS: [f64; 2] = [-0.5, 0.3];

/// The closed-form state `(x, x')` at time `t` from `(x0, v0)` at `t0`, generic in the dual
/// parts of the start and of the times.
fn flow<D: DualNum<f64> + Copy>(t0: D, x0: D, v0: D, t: D, omega: f64) -> (D, D) {
    let d = (1.0 - omega * omega).powi(2) + (2.0 * ZETA * omega).powi(2);
    let (a, b) = ((1.0 - omega * omega) / d, 2.0 * ZETA * omega / d);
    let xp = |t: D| (t * omega).cos() * a + (t * omega).sin() * b;
    let dxp = |t: D| (t * omega).cos() * (b * omega) - (t * omega).sin() * (a * omega);
    let wd = (1.0 - ZETA * ZETA).sqrt();
    let c1 = x0 - xp(t0);
    let c2 = (v0 - dxp(t0) + c1 * ZETA) / wd;
    let s = t - t0;
    let (e, c, sn) = ((s * -ZETA).exp(), (s * wd).cos(), (s * wd).sin());
    let y = e * (c1 * c + c2 * sn);
    let dy = e * ((c2 * wd - c1 * ZETA) * c - (c1 * wd + c2 * ZETA) * sn);
    (y + xp(t), dy + dxp(t))
}

/// The first impact time in `(0, T)` from `(x0, v0)` at `t = 0` (bracketed on a fine grid, then
/// Newton on the closed form), and whether `x < σ` everywhere else in the period.
fn impact_time(x0: f64, v0: f64, omega: f64) -> f64 {
    let t_end = 2.0 * PI / omega;
    let x_at = |t: f64| flow(0.0, x0, v0, t, omega);
    let n = 4000;
    let mut lo = None;
    for i in 0..n {
        let (t1, t2) = (
            t_end * i as f64 / n as f64,
            t_end * (i + 1) as f64 / n as f64,
        );
        if x_at(t1).0 < SIGMA && x_at(t2).0 >= SIGMA {
            lo = Some((t1, t2));
            break;
        }
    }
    let (mut t, _) = lo.expect("one impact in the forcing period");
    for _ in 0..50 {
        let (x, dx) = x_at(t);
        let dt = (x - SIGMA) / dx;
        t -= dt;
        if dt.abs() < 1e-16 * t.abs().max(1.0) {
            break;
        }
    }
    t
}

/// The stroboscopic map at `(x0, v0)` with the dual parts of one direction.
fn period_map(x0: Dual64, v0: Dual64, omega: f64, r: f64) -> (Dual64, Dual64, f64) {
    let t_star = impact_time(x0.re, v0.re, omega);
    let zero = Dual64::from(0.0);
    let (xa, va) = flow(zero, x0, v0, Dual64::from(t_star), omega);
    // x(t*(u); u) = σ: t*' = −x_ε / ẋ.
    let t_star = Dual64::new(t_star, -xa.eps / va.re);
    let (_, v_minus) = flow(zero, x0, v0, t_star, omega);
    let t_end = Dual64::from(2.0 * PI / omega);
    let (x1, v1) = flow(t_star, Dual64::from(SIGMA), v_minus * -r, t_end, omega);
    // No second crossing: the flow after the impact stays below the stop.
    let after = (1..400).all(|i| {
        let t = t_star.re + (t_end.re - t_star.re) * i as f64 / 400.0;
        flow(t_star.re, SIGMA, -r * v_minus.re, t, omega).0 < SIGMA
    });
    assert!(after, "a second impact after t* = {}", t_star.re);
    (x1, v1, t_star.re)
}

/// Residual `P(x₀) − x₀`, `det(P_x + I)` and `P_x`'s other multiplier `tr P_x + 1`.
fn check(x0: f64, v0: f64, omega: f64, r: f64) -> (f64, f64, f64) {
    let (xa, va, _) = period_map(Dual64::new(x0, 1.0), Dual64::new(v0, 0.0), omega, r);
    let (xb, vb, _) = period_map(Dual64::new(x0, 0.0), Dual64::new(v0, 1.0), omega, r);
    let residual = (xa.re - x0).hypot(va.re - v0);
    let j = [[xa.eps, xb.eps], [va.eps, vb.eps]];
    let det_plus = (j[0][0] + 1.0) * (j[1][1] + 1.0) - j[0][1] * j[1][0];
    // With one multiplier −1 the other is tr + 1.
    (residual, det_plus, j[0][0] + j[1][1] + 1.0)
}

fn curve(to2: f64) -> Curve {
    let file = model_file(FILE);
    let family = PlaneFamily::new(file.model.clone(), "omega", "r").unwrap();
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(1.0);
    let start = CurveStart::new(1.5, 0.8, GUESS.to_vec());
    continue_curve(
        &family,
        CurveKind::PeriodDoubling,
        &start,
        &file.orbit,
        &opts,
    )
    .unwrap()
}

#[test]
fn period_doubling_curve_satisfies_the_exact_period_map_in_both_directions_of_r() {
    for to2 in [0.95, 0.6] {
        let c = curve(to2);
        assert_eq!(c.end, CurveEnd::Reached, "to r = {to2}: {}", c.end);
        assert!(c.points.len() >= 5, "{}", c.points.len());
        assert_eq!(c.points.last().unwrap().params[1], to2);
        let mut worst = [0.0f64; 3];
        for pt in &c.points {
            let [omega, r] = pt.params;
            assert_eq!(pt.x0[2], 0.0, "the section is the phase t = 0");
            let (res, det, other) = check(pt.x0[0], pt.x0[1], omega, r);
            let mine = pt
                .multipliers
                .iter()
                .filter(|m| m.modulus() > 1e-12 && (m.re + 1.0).abs() > 1e-6)
                .map(|m| m.re)
                .next()
                .expect("a second nontrivial multiplier");
            worst = [
                worst[0].max(res),
                worst[1].max(det.abs()),
                worst[2].max((other - mine).abs()),
            ];
            assert!(res < 1e-9, "|P(x0) − x0| = {res:e} at {:?}", pt.params);
            assert!(
                det.abs() < 1e-8,
                "det(P_x + I) = {det:e} at {:?}",
                pt.params
            );
            assert!(
                (other - mine).abs() < 1e-8,
                "other multiplier {other} (exact) vs {mine} at {:?}",
                pt.params
            );
        }
        eprintln!(
            "impact oscillator PD curve to r = {to2}: {} points from {:?} to {:?}; worst \
             |P(x0) − x0| = {:e}, |det(P_x + I)| = {:e}, other multiplier {:e}",
            c.points.len(),
            c.points[0].params,
            c.points.last().unwrap().params,
            worst[0],
            worst[1],
            worst[2]
        );
    }
}
