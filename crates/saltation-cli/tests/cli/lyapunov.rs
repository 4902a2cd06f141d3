//! `saltation lyapunov`: at periodic orbits the exponents equal `ln|μ|/T` (the rimless wheel's
//! one exactly, the walker's complex pair on average with their sum exact at every stride); in
//! the walker's chaotic window the largest is positive.

use crate::support::{floats, json, keys, model};

fn orbit(file: &str, set: &[&str]) -> (Vec<f64>, f64, Vec<f64>) {
    let mut args = vec!["orbit", file, "--json"];
    args.extend_from_slice(set);
    let v = json(&args);
    let mus: Vec<f64> = v["multipliers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["re"].as_f64().unwrap().hypot(m["im"].as_f64().unwrap()))
        .collect();
    (floats(&v["x0"]), v["period"].as_f64().unwrap(), mus)
}

fn start(x0: &[f64], r: usize) -> String {
    x0[..r]
        .iter()
        .map(|v| format!("{v:e}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn rimless_wheel_exponent_is_ln_mu_over_period() {
    let wheel = model("rimless_wheel.ron");
    let (x0, t, mus) = orbit(&wheel, &[]);
    // The section's coordinate is the spoke rate x0[1].
    let u = format!("{:e}", x0[1]);
    let v = json(&[
        "lyapunov",
        &wheel,
        "--guess",
        &u,
        "--strides",
        "50",
        "--json",
    ]);
    assert_eq!(keys(&v), ["exponents", "per_stride", "strides", "time"]);
    let e = floats(&v["exponents"]);
    let expected = mus[0].ln() / t;
    assert!((e[0] - expected).abs() < 1e-9, "{e:?} vs {expected}");
    let per = floats(&v["per_stride"]);
    assert!((per[0] - mus[0].ln()).abs() < 1e-9);
    assert!((v["time"].as_f64().unwrap() - 50.0 * t).abs() < 1e-7);
    assert_eq!(v["strides"], 50);
}

#[test]
fn walker_gait_exponents_are_ln_mu_over_period() {
    let walker = model("simplest_walker.ron");
    let (x0, t, mus) = orbit(&walker, &[]);
    let u = start(&x0, 2);
    let v = json(&[
        "lyapunov",
        &walker,
        "--guess",
        &u,
        "--strides",
        "2000",
        "--json",
    ]);
    let e = floats(&v["exponents"]);
    let expected = mus[0].ln() / t;
    assert_eq!(e.len(), 2);
    assert!(e[0] >= e[1]);
    // A complex pair: each exponent on average, to O(1/N).
    for x in &e {
        assert!((x - expected).abs() < 1e-3, "{e:?} vs {expected}");
    }
    // Their sum is ln|det J|/T at every stride: exact.
    assert!(
        (e[0] + e[1] - 2.0 * expected).abs() < 1e-8,
        "{e:?} vs {expected}"
    );
}

#[test]
fn walker_chaotic_window_has_a_positive_exponent() {
    let walker = model("simplest_walker_continuation.ron");
    for (gamma, sign) in [("0.0187", 1.0), ("0.0189", 1.0), ("0.017", -1.0)] {
        let set = format!("gamma={gamma}");
        let v = json(&[
            "lyapunov",
            &walker,
            "--set",
            &set,
            "--guess",
            "0.2469,-0.2400",
            "--strides",
            "1500",
            "--json",
        ]);
        let e = floats(&v["exponents"]);
        assert!(e[0] * sign > 0.01, "γ = {gamma}: {e:?}");
    }
}
