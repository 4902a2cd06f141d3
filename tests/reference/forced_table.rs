//! The shipped time-forced model `models/equations/vibrating_table_forced.ron` (a ball on a
//! table vibrating at `s = A sin ωt`, `Γ = Aω²/g`) continued in `Γ`, against the closed form of
//! its period-1 orbit. One impact per period `T` at phase `θ` with `v⁺ = gT/2`, `v⁻ = −gT/2`;
//! the reset `v⁺ = (1 + e)ṡ − e v⁻` gives `Γ cos ωθ = π(1 − e)/(1 + e)` and the relative
//! approach speed `w = ṡ − v⁻ = gT/(1 + e)`. Differentiating the impact map `(v, θ) ↦ (v', θ')`
//! (next impact where `s(θ) + vτ − gτ²/2 = s(θ + τ)`, so `∂τ/∂v = T/w`, `∂τ/∂θ = 0` there):
//!
//! ```text
//! J = [[−e + (T/w)((1 + e)s̈ + e g), (1 + e)s̈], [T/w, 1]],
//! det J = e²,      tr J = 1 + e² + (1 + e)² s̈/g,      s̈ = −Aω² sin ωθ
//! ```
//!
//! so the flip `tr J = −(1 + e²)` is at `Γ sin ωθ = 2(1 + e²)/(1 + e)²`, i.e.
//! `Γ = √((π(1 − e)/(1 + e))² + (2(1 + e²)/(1 + e)²)²)` = 1.5268237… at `e = 1/2`, and the
//! product of the multipliers is `e²` all along the branch.

use crate::common::model_file;
use saltation::continuation::{run_script, BifurcationKind, ParamFamily};
use std::f64::consts::PI;

#[test]
fn period_doubling_of_the_forced_table_at_its_closed_form() {
    let f = model_file("equations/vibrating_table_forced.ron");
    let mut spec = f.continuation.clone().expect("a continuation section");
    spec.orbit_diagram = None;
    let family = ParamFamily::new(f.model.clone(), "Gamma").unwrap();
    let result = run_script(&family, &spec, &mut |_| {}).unwrap();
    let e: f64 = 0.5;
    let gamma_pd = ((PI * (1.0 - e) / (1.0 + e)).powi(2)
        + (2.0 * (1.0 + e * e) / (1.0 + e).powi(2)).powi(2))
    .sqrt();
    let pd = result
        .bifurcations
        .iter()
        .find(|b| b.kind == BifurcationKind::PeriodDoubling && b.branch == "period 1")
        .expect("a period doubling on the period-1 branch");
    assert!(
        (pd.param - gamma_pd).abs() < 1e-8,
        "PD at Γ = {} vs {gamma_pd}",
        pd.param
    );
    let branch = &result.branches[0];
    assert!(branch.points.len() > 10);
    for p in &branch.points {
        let m = &p.multipliers;
        let product = m[0].modulus() * m[1].modulus();
        assert!((product - e * e).abs() < 1e-10, "Γ = {}: {m:?}", p.param);
        // Period 1: the stride lasts one forcing period.
        assert!((p.period - 1.0).abs() < 1e-10);
    }
}
