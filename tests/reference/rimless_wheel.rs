//! The rimless wheel against its closed form (Coleman 2009; Bhounsule 2014, §3): fixed point `θ₀ = −π/n`, `θ̇₀² = 4λ²μ² sin(π/n) sin α / (1 − μ²)`,
//! stride-map multipliers `{0, μ²}` with `μ = 1 − λ²(1 − cos 2π/n)`.
//!
//! The benchmark (`λ² = 2/3, α = 0.2, n = 6`, so `μ = 2/3` and `μ² = 4/9`) is solved with the
//! settings of `models/rimless_wheel.ron`; the paper reaches 13 digits for 4/9 with variational
//! equations. Further parameter sets check the general closed form, not just one number.

use saltation::hybrid::{Bound, EvalModel, HybridError};
use saltation::models::reference::rimless_benchmark;
use saltation::models::{Model, RimlessWheel};
use saltation::orbit::{find_periodic_orbit, OrbitError, PeriodicOrbit};
use saltation::scenario::ModelFile;

fn model_file() -> ModelFile {
    crate::common::model_file("rimless_wheel.ron")
}

/// Checks `orbit` against the closed form of `wheel`, the fixed point to `x_tol`; returns
/// (fixed-point error, multiplier error, trivial multiplier) for the report.
fn check_closed_form(
    wheel: &Bound<RimlessWheel>,
    orbit: &PeriodicOrbit,
    x_tol: f64,
    what: &str,
) -> (f64, f64, f64) {
    let exact = RimlessWheel::analytic_fixed_point(wheel.values()).expect("a gait exists");
    let dx = (orbit.x0[0] - exact[0])
        .abs()
        .max((orbit.x0[1] - exact[1]).abs());
    assert!(
        dx < x_tol,
        "{what}: fixed point {:?} vs closed form {exact:?} ({dx:e} ≥ {x_tol:e})",
        orbit.x0
    );
    // Multipliers by decreasing modulus: μ² then the trivial 0 (the reset collapses θ).
    let [mu2, zero] = RimlessWheel::analytic_multipliers(wheel.values());
    assert_eq!(zero, 0.0);
    assert_eq!(orbit.multipliers.len(), 2);
    let (m0, m1) = (orbit.multipliers[0], orbit.multipliers[1]);
    let dmu = (m0.re - mu2).abs().max(m0.im.abs());
    assert!(
        dmu < 1e-13,
        "{what}: multiplier {m0:?} vs μ² = {mu2} ({dmu:e})"
    );
    assert!(m1.modulus() < 1e-13, "{what}: trivial multiplier {m1:?}");
    assert!(orbit.stable, "{what}: μ² < 1, the gait is stable");
    eprintln!(
        "{what}: |x0 − closed form| = {dx:e}, |μ − μ²| = {dmu:e}, |trivial| = {:e}",
        m1.modulus()
    );
    (dx, dmu, m1.modulus())
}

#[test]
fn benchmark_matches_the_closed_form() {
    let mf = model_file();
    let Model::RimlessWheel(wheel) = mf.model.clone() else {
        panic!("rimless_wheel.ron holds {:?}", mf.model)
    };
    // The file holds the benchmark of the paper.
    assert_eq!(wheel.get("lambda2"), Ok(rimless_benchmark::LAMBDA2));
    assert_eq!(wheel.get("alpha"), Ok(rimless_benchmark::ALPHA));
    assert_eq!(
        wheel.get("spokes"),
        Ok(f64::from(rimless_benchmark::SPOKES))
    );
    assert!((RimlessWheel::mu(wheel.values()) - 2.0 / 3.0).abs() < 1e-15);
    let orbit = find_periodic_orbit(&wheel, &mf.guesses[0].u, &mf.orbit).unwrap();
    check_closed_form(&wheel, &orbit, 1e-14, "benchmark");
    // μ² = 4/9 exactly.
    assert!((orbit.multipliers[0].re - 4.0 / 9.0).abs() < 1e-13);
    // The paper's printed fixed point (15 significant digits, so ±5e-16 from rounding).
    for (i, (got, printed)) in orbit.x0.iter().zip(rimless_benchmark::X0).enumerate() {
        assert!(
            (got - printed).abs() < 1e-14,
            "x0[{i}] {got} vs paper {printed}"
        );
    }
    // The same orbit through the `Model` enum (as the CLI runs it).
    let via_enum = find_periodic_orbit(&mf.model, &mf.guesses[0].u, &mf.orbit).unwrap();
    assert_eq!(via_enum.x0, orbit.x0);
}

#[test]
fn closed_form_holds_at_other_slopes_and_spoke_counts() {
    let opts = model_file().orbit;
    for (lambda2, alpha, spokes) in [
        (2.0 / 3.0, 0.15, 6),
        (2.0 / 3.0, 0.3, 8),
        (0.5, 0.15, 10),
        (0.5, 0.08, 12),
        (1.0, 0.25, 12),
        (0.8, 0.6, 4),
    ] {
        let wheel = Bound::with_named(
            RimlessWheel,
            [
                ("lambda2", lambda2),
                ("alpha", alpha),
                ("spokes", f64::from(spokes)),
            ],
        )
        .unwrap();
        let p = wheel.values();
        let what = format!("λ² = {lambda2}, α = {alpha}, n = {spokes}");
        let exact = RimlessWheel::analytic_fixed_point(p).expect("a gait exists");
        // The closed form needs the wheel to get over the top (θ = −α) on each stride: the
        // energy θ̇²/2 + λ² cos(θ + α) at θ = −π/n above its value λ² at the top.
        let top = 2.0 * lambda2 * (1.0 - (RimlessWheel::half_angle(p) - alpha).cos());
        assert!(
            alpha >= RimlessWheel::half_angle(p) || exact[1] * exact[1] > top,
            "{what}: no rolling gait"
        );
        let guess = [1.2 * exact[1]];
        let orbit =
            find_periodic_orbit(&wheel, &guess, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(wheel.name(), "rimless_wheel");
        // A one-stride error δ (relative ~rtol = 1e-14 of θ̇₀) moves the fixed point of
        // u ↦ μ²u + c by δ/(1 − μ²): the benchmark's 1e-14 scaled by that conditioning.
        let x_tol = 1e-14 * exact[1].max(1.0) / (1.0 - RimlessWheel::mu(p).powi(2));
        check_closed_form(&wheel, &orbit, x_tol, &what);
    }
}

#[test]
fn no_gait_where_the_wheel_cannot_get_over_the_top() {
    // λ² = 2/3, n = 6, α = 0.1: the impact algebra has θ̇₀² = 0.1065 but getting over the top
    // from θ = −π/6 takes θ̇₀² > 2λ²(1 − cos(π/6 − 0.1)) = 0.1178.
    let wheel = Bound::with_named(RimlessWheel, [("lambda2", 2.0 / 3.0), ("alpha", 0.1)]).unwrap();
    assert_eq!(wheel.get("spokes"), Ok(6.0));
    assert_eq!(RimlessWheel::analytic_fixed_point(wheel.values()), None);
    let opts = model_file().orbit;
    let mu = RimlessWheel::mu(wheel.values());
    let w2 = 4.0 * 2.0 / 3.0 * mu * mu * 0.5 * 0.1f64.sin() / (1.0 - mu * mu);
    let r = find_periodic_orbit(&wheel, &[w2.sqrt()], &opts);
    assert!(
        matches!(
            r,
            Err(OrbitError::Hybrid(HybridError::GuardNotReached { .. }))
        ),
        "{:?}",
        r.map(|o| o.x0)
    );
}
