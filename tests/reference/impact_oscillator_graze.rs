//! The forced impact oscillator (models/equations/impact_oscillator_forced.ron,
//! `x'' + 2ζx' + x = cos ωt` while `x < σ`, `x'⁺ = −r x'⁻` at the stop) with the stop just
//! inside the reach of its non-impacting harmonic orbit
//! `x_p(t) = a cos ωt + b sin ωt` (`a = (1 − ω²)/D`, `b = 2ζω/D`, `D = (1 − ω²)² + (2ζω)²`),
//! whose amplitude is `A = 1/√D`. For `σ = A − δ` the orbit crosses the stop and back within
//! `2√(2δ/(Aω²))` of its maximum (about 2e-3 time units for `δ = 1e-6`), far inside one
//! integration step: the stride must fire the stop there, and the non-impacting orbit is no
//! periodic orbit of the model. For `σ = A + δ` it is one, with no impact.
//!
//! The limits (measured): the stride from the exact harmonic start fires the stop down to
//! `δ ≈ 3e-14`, where the integration's own error (tolerance `1e-13` in the file) moves the
//! computed maximum by as much as `δ`: below that the pair is not resolved, and whether it is
//! seen is chance. Newton refuses the non-impacting orbit down to `δ = 1e-12`; at `δ ≈ 1e-13`
//! it accepts an iterate `3e-13` off the harmonic orbit (residual `8e-13`, within its
//! tolerance) whose computed maximum stays below the stop: there the orbit's own accuracy, not
//! the event location, is the limit.

use crate::common::model_file;
use saltation::hybrid::{EvalModel, JacobianKind, StrideMap};
use saltation::models::Model;
use saltation::orbit::find_periodic_orbit;

const FILE: &str = "equations/impact_oscillator_forced.ron";
const ZETA: f64 = 0.05;
const OMEGA: f64 = 1.5;

/// `(a, b, A)` of the harmonic orbit.
fn harmonic() -> (f64, f64, f64) {
    let d = (1.0 - OMEGA * OMEGA).powi(2) + (2.0 * ZETA * OMEGA).powi(2);
    (
        (1.0 - OMEGA * OMEGA) / d,
        2.0 * ZETA * OMEGA / d,
        1.0 / d.sqrt(),
    )
}

/// The harmonic orbit's state `(x, v, t)` at the phase 0 and the time of its maximum.
fn harmonic_start() -> ([f64; 3], f64) {
    let (a, b, _) = harmonic();
    let peak = b.atan2(a).rem_euclid(2.0 * std::f64::consts::PI) / OMEGA;
    ([a, b * OMEGA, 0.0], peak)
}

fn with_sigma(m: &Model, sigma: f64) -> Model {
    let mut m = m.clone();
    let k = m.param_names().iter().position(|n| n == "sigma").unwrap();
    m.set_param_value(k, sigma).unwrap();
    m
}

/// The events of the stop (not the section's strobe) in `events`.
fn impacts<M: EvalModel + ?Sized>(m: &M, events: &[saltation::hybrid::EventRecord]) -> Vec<f64> {
    events
        .iter()
        .filter(|e| m.guard_name(e.mode, e.guard) == "stop")
        .map(|e| e.t)
        .collect()
}

#[test]
fn a_stop_just_inside_the_harmonic_orbits_reach_is_hit_and_no_false_orbit_is_found() {
    let f = model_file(FILE);
    let (_, _, amp) = harmonic();
    let (x0, peak) = harmonic_start();
    for delta in [1e-6, 1e-8, 1e-10, 1e-12] {
        let m = with_sigma(&f.model, amp - delta);
        // The stride from the harmonic orbit's start, with and without its Jacobian: the stop
        // fires at the first crossing, half the pair's width before the maximum.
        let half = (2.0 * delta / (amp * OMEGA * OMEGA)).sqrt();
        for kind in [JacobianKind::None, JacobianKind::StrideMap] {
            let mut map = StrideMap::new(&m, f.orbit.stride.clone()).unwrap();
            let r = map.eval(&x0, kind).unwrap();
            let hits = impacts(&m, &r.events);
            assert_eq!(hits.len(), 1, "δ = {delta}, {kind:?}: impacts {hits:?}");
            let want = peak - half;
            assert!(
                (hits[0] - want).abs() < 0.05 * half,
                "δ = {delta}, {kind:?}: impact at {} vs {want}",
                hits[0]
            );
        }
        // Newton from the file's neighbourhood of the harmonic orbit does not return it as a
        // periodic orbit: it fails, or finds an orbit that impacts.
        if let Ok(orbit) = find_periodic_orbit(&m, &[-0.7886, 0.1419], &f.orbit) {
            assert!(
                !impacts(&m, &orbit.events).is_empty(),
                "δ = {delta}: a non-impacting orbit at {:?} (residual {})",
                orbit.u0,
                orbit.residual
            );
        }
    }
}

#[test]
fn a_stop_just_out_of_reach_keeps_the_harmonic_orbit() {
    let f = model_file(FILE);
    let (_, _, amp) = harmonic();
    let (x0, _) = harmonic_start();
    for delta in [1e-6, 1e-8, 1e-10] {
        let m = with_sigma(&f.model, amp + delta);
        let orbit = find_periodic_orbit(&m, &[-0.7886, 0.1419], &f.orbit)
            .unwrap_or_else(|e| panic!("δ = {delta}: {e}"));
        assert!(impacts(&m, &orbit.events).is_empty(), "δ = {delta}");
        for k in 0..2 {
            assert!(
                (orbit.u0[k] - x0[k]).abs() < 1e-10,
                "δ = {delta}: {:?} vs {x0:?}",
                orbit.u0
            );
        }
    }
}
