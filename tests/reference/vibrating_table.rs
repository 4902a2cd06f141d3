//! The ball on a vibrating table (models/equations/vibrating_table.ron): the period-1 orbit's
//! period doubling against its closed form, and the period-2 branch's own period doubling,
//! reached by switching at the first flip, against two independent computations.
//!
//! With `g = ω = 1` the forcing period is `T = 2π`. On the period-1 orbit the ball leaves the
//! table with `v⁺ = gT/2` and lands with `v⁻ = −gT/2`; the impact law
//! `v⁺ = (1 + e) A ω cos φ − e v⁻` gives `Γ cos φ* = (1 − e)π / (1 + e)` (`Γ = Aω²/g`). The
//! linearised impact map in `(t, v⁺)` has `det = e²` and
//! `1 + tr + det = 2(1 + e²) − (1 + e)² Γ sin φ*`, so the multiplier −1 is at
//! `Γ sin φ* = 2(1 + e²)/(1 + e)²`, i.e. `Γ_PD² = ((1 − e)π/(1 + e))² + (2(1 + e²)/(1 + e)²)²`.

use crate::common::model_file;
use saltation::continuation::{run_script, BifurcationKind, BranchSpec, ParamFamily};

/// The closed-form period doubling of the period-1 orbit.
fn gamma_pd(e: f64) -> f64 {
    let a = (1.0 - e) * std::f64::consts::PI / (1.0 + e);
    let b = 2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e));
    a.hypot(b)
}

/// Runs the file's script at restitution `e` from `Γ = from` (on the period-1 orbit) with one
/// switch; returns the period doublings of the period-1 and the period-2 branch.
fn doublings(e: f64, from: f64) -> (f64, f64) {
    let file = model_file("equations/vibrating_table.ron");
    let model = file.model.with_param("e", e).unwrap();
    let mut spec = file.script().unwrap();
    // The period-1 orbit at `from`: cos φ* = (1 − e)π / ((1 + e)Γ), v⁺ = π.
    let phi = ((1.0 - e) * std::f64::consts::PI / ((1.0 + e) * from)).acos();
    spec.branches = vec![BranchSpec {
        label: "period-1".into(),
        from,
        to: 2.0,
        guess: vec![phi, std::f64::consts::PI],
        period_doublings: 1,
        max_points: None,
    }];
    let family = ParamFamily::new(model, "Gamma").unwrap();
    let r = run_script(&family, &file.orbit, &spec, &mut |_| {}).unwrap();
    assert_eq!(
        r.branches.len(),
        2,
        "{:?}",
        r.branches.iter().map(|b| &b.end).collect::<Vec<_>>()
    );
    let pd = |i: usize| {
        let b = &r.branches[i];
        assert_eq!(b.period_k, 1 << i);
        b.bifurcations
            .iter()
            .find(|x| x.kind == BifurcationKind::PeriodDoubling)
            .unwrap_or_else(|| panic!("no period doubling on branch {i}: {}", b.end))
            .param
    };
    (pd(0), pd(1))
}

#[test]
fn period_doublings_of_the_ball_on_a_vibrating_table() {
    // Second doublings: two independent computations agree on these to 11 digits.
    for (e, from, second) in [(0.5, 1.2, 1.66713066077), (0.8, 0.5, 1.22177969955)] {
        let (first, second_found) = doublings(e, from);
        let exact = gamma_pd(e);
        assert!(
            (first - exact).abs() < 1e-9,
            "e = {e}: first flip at {first}, closed form {exact}"
        );
        assert!(
            (second_found - second).abs() < 1e-9,
            "e = {e}: second flip at {second_found}, reference {second}"
        );
    }
}
