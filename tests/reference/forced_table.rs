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
//! product of the multipliers is `e²` all along the branch. And the forced file against the
//! autonomous one (`vibrating_table.ron`, the phase a state of its own).

use crate::common::model_file;
use saltation::continuation::{run_script, BifurcationKind, ParamFamily};
use std::f64::consts::PI;

#[test]
fn period_doubling_of_the_forced_table_at_its_closed_form() {
    let f = model_file("equations/vibrating_table_forced.ron");
    let mut spec = f.script().expect("a continuation section");
    spec.orbit_diagram = None;
    let family = ParamFamily::new(f.model.clone(), "Gamma").unwrap();
    let result = run_script(&family, &f.orbit, &spec, &mut |_| {}).unwrap();
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

/// The shipped forced table against the shipped autonomous one (`vibrating_table.ron`: the
/// phase `φ = ωt` a state of its own, wrapped by the impact) at that file's `g = ω = 1`, for
/// several `(e, Γ)`: the same fixed point (`v⁺`, and `φ = ωt`), period and multipliers to
/// 1e-12.
#[test]
fn forced_table_equals_the_autonomous_table() {
    use saltation::hybrid::EvalModel;
    use saltation::orbit::find_periodic_orbit;
    let forced = model_file("equations/vibrating_table_forced.ron");
    let phase = model_file("equations/vibrating_table.ron");
    for (e, gamma) in [(0.5, 1.2), (0.5, 1.45), (0.8, 0.5), (0.3, 2.0)] {
        let set = |m: &saltation::models::Model, values: &[(&str, f64)]| {
            let mut m = m.clone();
            for (name, v) in values {
                let k = m.param_names().iter().position(|n| n == name).unwrap();
                m.set_param_value(k, *v).unwrap();
            }
            m
        };
        let mf = set(
            &forced.model,
            &[("g", 1.0), ("omega", 1.0), ("e", e), ("Gamma", gamma)],
        );
        let mp = set(&phase.model, &[("e", e), ("Gamma", gamma)]);
        let phi = (PI * (1.0 - e) / ((1.0 + e) * gamma)).acos();
        let (v, t) = (PI, phi);
        let a = find_periodic_orbit(&mf, &[v, t], &forced.orbit).unwrap();
        let b = find_periodic_orbit(&mp, &[phi, v], &phase.orbit).unwrap();
        let what = format!("e = {e}, Γ = {gamma}");
        let close = |x: f64, y: f64, name: &str| {
            assert!(
                (x - y).abs() < 1e-12 * x.abs().max(1.0),
                "{what}: {name} {x} vs {y}"
            );
        };
        close(a.u0[0], b.u0[1], "v+");
        close(a.u0[1], b.u0[0], "phase");
        close(a.period, b.period, "period");
        assert_eq!(a.multipliers.len(), b.multipliers.len());
        for (x, y) in a.multipliers.iter().zip(&b.multipliers) {
            close(x.re, y.re, "multiplier (re)");
            close(x.im.abs(), y.im.abs(), "multiplier (im)");
        }
    }
}
