//! The monopod on Hunt–Crossley ground (eqs. 18–19 of the solver study): the model's vector
//! field against a plain transcription of the equations, the hand-written Jacobian against
//! automatic differentiation, continuity across the ground, the stiffness polynomial (31)
//! against the Jacobian's eigenvalues (roots by an Aberth iteration written here), the two
//! equilibria, the first touchdown against the closed-form flight solution, the two phase-switch
//! strategies and the two integrators against each other, the parameter checks and the model
//! file.
//!
//! The numbers quoted in the docs (SR at both equilibria, strategy and method differences):
//! `cargo test -p saltation-models --test models monopod -- --nocapture`.

use nalgebra::{Complex, DMatrix};
use saltation_hybrid::ad::flow_jacobian_ad;
use saltation_hybrid::{
    simulate, Bound, EvalModel, HybridModel, ParamError, SimulateOptions, StrideOptions, Trace,
};
use saltation_models::monopod::{
    CharacteristicPolynomial, Monopod, Strategy, B, F, FLIGHT, FOUR_PI_SQ, K, M1, STANCE,
};
use saltation_models::Model;
use saltation_ode::{Method, SolverOptions};
use saltation_orbit::eigenvalues;
use saltation_scenario::{load_model_file, parse_model_file, FileError};
use std::path::Path;

/// `4π²` computed here rather than taken from the crate.
pub(crate) const W2: f64 = 4.0 * std::f64::consts::PI * std::f64::consts::PI;

/// Index of the nominal set in Table 2.
pub(crate) const NOMINAL: usize = 4;

/// The parameter values `[b*, m1*, k*, f*]` of a monopod.
pub(crate) fn values(m: &Bound<Monopod>) -> [f64; 4] {
    m.values().try_into().unwrap()
}

/// Eqs. (18)–(19) as printed, in plain `f64`: `stance` is the indicator `i`.
pub(crate) fn reference_flow(m: &Bound<Monopod>, stance: bool, q: &[f64]) -> [f64; 4] {
    let [b, m1, k, f] = values(m);
    let c = W2 - m1;
    let (y1, v1, y2, v2) = (q[0], q[1], q[2], q[3]);
    let i = if stance { 1.0 } else { 0.0 };
    let a = y1.abs();
    let a1 = -i * b * a.powf(1.5) * v1 - c * (1.0 + i * k * a.powf(0.5)) * y1 + c * y2 - f - c;
    let a2 = m1 * y1 - m1 * y2 - f + m1;
    [v1, a1, v2, a2]
}

pub(crate) fn flow(m: &Bound<Monopod>, mode: usize, q: &[f64]) -> [f64; 4] {
    let mut dx = [0.0; 4];
    m.flow(mode, 0.0, q, &mut dx);
    dx
}

/// The modes of a strategy.
pub(crate) fn modes(m: &Bound<Monopod>) -> Vec<usize> {
    match m.model().strategy {
        Strategy::Events => vec![FLIGHT, STANCE],
        Strategy::IfElse => vec![0],
    }
}

/// Whether the ground force acts in `mode` at `q` (the strategy's definition).
pub(crate) fn ground_acts(m: &Bound<Monopod>, mode: usize, q: &[f64]) -> bool {
    match m.model().strategy {
        Strategy::Events => mode == STANCE,
        Strategy::IfElse => q[0] <= 0.0,
    }
}

/// States with the toe exactly at the ground, just below it, deep in it and above it, moving
/// down, up and at rest.
pub(crate) fn test_states() -> Vec<[f64; 4]> {
    let mut states = Vec::new();
    for y1 in [
        0.0, -0.0, -1e-14, -1e-8, -1e-3, -0.02, -0.3, 1e-10, 1e-3, 0.4,
    ] {
        for v1 in [-1.3, 0.0, 0.7] {
            states.push([y1, v1, y1 + 0.97, -0.4]);
        }
    }
    states
}

pub(crate) fn both_strategies() -> impl Iterator<Item = Bound<Monopod>> {
    Monopod::TABLE2
        .into_iter()
        .flat_map(|p| Strategy::ALL.map(|s| Monopod::new(s).at(p)))
}

/// The Table 2 sets with the events strategy.
pub(crate) fn table2() -> impl Iterator<Item = Bound<Monopod>> {
    Monopod::TABLE2
        .into_iter()
        .map(|p| Monopod::default().at(p))
}

#[test]
fn vector_field_is_eqs_18_19() {
    for m in both_strategies() {
        for q in test_states() {
            for mode in modes(&m) {
                let got = flow(&m, mode, &q);
                let want = reference_flow(&m, ground_acts(&m, mode, &q), &q);
                for (a, b) in got.iter().zip(&want) {
                    assert!(
                        (a - b).abs() <= 1e-14 * b.abs().max(1.0),
                        "{m:?} mode {mode} at {q:?}: {got:?} vs {want:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn hand_written_jacobian_is_the_ad_jacobian() {
    let mut worst = 0.0f64;
    for m in both_strategies() {
        for q in test_states() {
            for mode in modes(&m) {
                let (mut hand, mut ad) = ([0.0; 16], [0.0; 16]);
                assert!(m.model().hand_flow_jacobian().is_some());
                m.flow_jacobian(mode, 0.0, &q, &mut hand);
                flow_jacobian_ad(&m, mode, 0.0, &q, &mut ad);
                for (k, (a, b)) in hand.iter().zip(&ad).enumerate() {
                    assert!(a.is_finite(), "{m:?} mode {mode} at {q:?}: entry {k} = {a}");
                    let err = (a - b).abs() / b.abs().max(1.0);
                    worst = worst.max(err);
                    assert!(
                        err <= 1e-12,
                        "{m:?} mode {mode} at {q:?}: entry {k}: hand {a} vs AD {b}"
                    );
                }
            }
        }
    }
    println!("monopod: hand-written vs AD Jacobian, worst relative difference {worst:e}");
}

#[test]
fn flow_and_jacobian_are_continuous_across_the_ground() {
    for p in Monopod::TABLE2 {
        let events = Monopod::new(Strategy::Events).at(p);
        let if_else = Monopod::new(Strategy::IfElse).at(p);
        let [b, m1, k, _] = p;
        for v1 in [-1.3, 0.0, 0.7] {
            let at = |y1: f64| [y1, v1, y1 + 0.97, -0.4];
            // On the ground both modes of the events strategy and the if-else field coincide
            // exactly: the ground force b|y1|^1.5 ẏ1 + c k |y1|^0.5 y1 vanishes there.
            let f0 = flow(&events, FLIGHT, &at(0.0));
            assert_eq!(flow(&events, STANCE, &at(0.0)), f0);
            assert_eq!(flow(&if_else, 0, &at(0.0)), f0);
            let (mut j_flight, mut j_stance) = ([0.0; 16], [0.0; 16]);
            events.flow_jacobian(FLIGHT, 0.0, &at(0.0), &mut j_flight);
            events.flow_jacobian(STANCE, 0.0, &at(0.0), &mut j_stance);
            assert_eq!(j_flight, j_stance);
            for eps in [1e-2, 1e-4, 1e-6, 1e-8, 1e-10] {
                // Stance minus flight at y1 = −ε is the ground force, O(ε^1.5).
                let (below, above) = (at(-eps), at(eps));
                let jump = flow(&events, STANCE, &below)[1] - flow(&events, FLIGHT, &below)[1];
                let c = W2 - m1;
                let force = -b * eps.powf(1.5) * v1 + c * k * eps.powf(1.5);
                assert!(
                    (jump - force).abs() <= 1e-13 * (1.0 + c),
                    "{p:?}: jump {jump} vs {force}"
                );
                assert!(force.abs() <= (b * v1.abs() + c * k) * eps.powf(1.5) * (1.0 + 1e-14));
                // The if-else field on either side tends to its value on the ground: a
                // Lipschitz bound (the flight Jacobian's norm, c + m1 + 1 ≤ 4π² + 1, plus the
                // ground force).
                for q in [below, above] {
                    let d = flow(&if_else, 0, &q);
                    for (got, want) in d.iter().zip(&f0) {
                        let bound =
                            (W2 + 1.0) * 2.0 * eps + (b * v1.abs() + c * k) * eps.powf(1.5) + 1e-13;
                        assert!((got - want).abs() <= bound, "{p:?} at y1 = {}", q[0]);
                    }
                }
                // The stance Jacobian tends to the flight one: ∂ÿ1/∂y1 and ∂ÿ1/∂ẏ1 differ by
                // O(ε^0.5).
                let (mut js, mut jf) = ([0.0; 16], [0.0; 16]);
                events.flow_jacobian(STANCE, 0.0, &below, &mut js);
                events.flow_jacobian(FLIGHT, 0.0, &below, &mut jf);
                let gap = js
                    .iter()
                    .zip(&jf)
                    .map(|(a, b)| (a - b).abs())
                    .fold(0.0, f64::max);
                let bound = 1.5 * (b * v1.abs() + c * k) * eps.sqrt() + b * eps.powf(1.5);
                assert!(
                    gap <= bound * (1.0 + 1e-12),
                    "{p:?}: Jacobian gap {gap} at ε = {eps}"
                );
            }
        }
    }
}

mod parameters;
mod stiffness;
mod strategies;
mod touchdown;

use touchdown::*;
