//! `saltation orbit-diagram --lyapunov` and `saltation lyapunov --transient`: the largest
//! exponent under the walker's orbit diagram is negative on its period-2^k windows and
//! positive in its chaotic window; after a transient from off the gait the exponents equal
//! `ln|μ|/T` of the orbit that `orbit` finds (a second method: Newton and the eigenvalues of
//! the monodromy matrix).

use crate::support::{floats, json, model, temp_dir};

#[test]
fn walker_largest_exponent_is_negative_on_period_doublings_and_positive_in_chaos() {
    let file = model("simplest_walker_continuation.ron");
    let outs = temp_dir("lyapunov_sweep", "walker");
    let outs = outs.to_string_lossy().into_owned();
    // γ = 0.0160, 0.0163, …, 0.0187: period 2, 4, 8 and then the chaotic window.
    let v = json(&[
        "orbit-diagram",
        &file,
        "--from",
        "0.016",
        "--to",
        "0.0187",
        "--count",
        "10",
        "--lyapunov",
        "--lyapunov-strides",
        "1000",
        "--json",
        "--out",
        &outs,
    ]);
    let columns = v["columns"].as_array().unwrap();
    let lyapunov = v["lyapunov"].as_array().unwrap();
    assert_eq!(columns.len(), 10);
    assert_eq!(lyapunov.len(), 10);
    let (mut periodic, mut chaotic) = (0, 0);
    for (c, l) in columns.iter().zip(lyapunov) {
        let gamma = l["param"].as_f64().unwrap();
        assert_eq!(c["param"], l["param"]);
        assert!(l["failure"].is_null(), "γ = {gamma}: {l}");
        let largest = floats(&l["exponents"])[0];
        // The period of the recorded attractor: its distinct values (64 recorded strides).
        let mut values = floats(&c["values"]);
        values.sort_by(f64::total_cmp);
        values.dedup_by(|a, b| (*a - *b).abs() < 1e-7);
        match values.len() {
            2 | 4 | 8 => {
                periodic += 1;
                assert!(
                    largest < -1e-3,
                    "period {} at γ = {gamma}: {largest}",
                    values.len()
                );
            }
            n if n > 32 && gamma > 0.0183 => {
                chaotic += 1;
                assert!(largest > 0.02, "chaos at γ = {gamma}: {largest}");
            }
            n => panic!("γ = {gamma}: {n} distinct values"),
        }
    }
    assert!(
        periodic >= 6 && chaotic >= 2,
        "{periodic} periodic, {chaotic} chaotic"
    );
    // The CSV and the figure with the panel under the diagram.
    let stem = format!("{outs}/simplest_walker_continuation");
    let csv = std::fs::read_to_string(format!("{stem}_lyapunov.csv")).unwrap();
    assert!(
        csv.starts_with("gamma,lambda_1,lambda_2,failure\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 11);
    assert!(std::path::Path::new(&format!("{stem}_orbit_diagram_lyapunov.svg")).exists());
}

#[test]
fn after_a_transient_from_off_the_gait_the_exponents_are_ln_mu_over_period() {
    let walker = model("simplest_walker.ron");
    let o = json(&["orbit", &walker, "--json"]);
    let t = o["period"].as_f64().unwrap();
    let mu = o["multipliers"][0]["re"]
        .as_f64()
        .unwrap()
        .hypot(o["multipliers"][0]["im"].as_f64().unwrap());
    let expected = mu.ln() / t;
    // [0.19, -0.19] is off the gait (0.2003, -0.1998): 300 strides bring it onto it
    // (|μ| ≈ 0.59 per stride).
    let v = json(&[
        "lyapunov",
        &walker,
        "--guess",
        "0.19,-0.19",
        "--transient",
        "300",
        "--strides",
        "2000",
        "--json",
    ]);
    let e = floats(&v["exponents"]);
    assert_eq!(v["strides"], 2000);
    for x in &e {
        assert!((x - expected).abs() < 1e-3, "{e:?} vs {expected}");
    }
    // The sum is ln|det J|/T at each stride on the orbit: exact once on it (4e-12 measured).
    assert!(
        (e[0] + e[1] - 2.0 * expected).abs() < 1e-8,
        "{e:?} vs {expected}"
    );
    assert!((v["time"].as_f64().unwrap() - 2000.0 * t).abs() < 1e-6 * 2000.0 * t);
    // Without the transient the sum carries the approach to the gait.
    let raw = json(&[
        "lyapunov",
        &walker,
        "--guess",
        "0.19,-0.19",
        "--strides",
        "2000",
        "--json",
    ]);
    let r = floats(&raw["exponents"]);
    // (4e-5 measured).
    assert!((r[0] + r[1] - 2.0 * expected).abs() > 1e-6, "{r:?}");
}
