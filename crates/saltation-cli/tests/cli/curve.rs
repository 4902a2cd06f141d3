//! `saltation curve` end to end: the vibrating table's period-doubling curve in (Γ, e) from
//! e = 0.5 to 0.6, its JSON (exactly the documented keys) against the closed form
//! `Γ_PD² = (π(1 − e)/(1 + e))² + (2(1 + e²)/(1 + e)²)²`, and its CSV files under `--out`.

use crate::support::{json, keys, model};
use std::f64::consts::PI;

#[test]
fn period_doubling_curve_json_and_csv() {
    let dir = crate::support::temp_dir("curve", "pd");
    let out = dir.join("out").display().to_string();
    let file = model("equations/vibrating_table.ron");
    let v = json(&[
        "curve",
        &file,
        "--kind",
        "period_doubling",
        "--param",
        "Gamma",
        "--param2",
        "e",
        "--to2",
        "0.6",
        "--json",
        "--out",
        &out,
    ]);
    assert_eq!(
        keys(&v),
        [
            "codim2",
            "end",
            "end_reason",
            "kind",
            "param_values",
            "params",
            "period_k",
            "points"
        ]
    );
    assert_eq!(v["kind"], "period_doubling");
    assert_eq!(v["params"], serde_json::json!(["Gamma", "e"]));
    assert_eq!(v["param_values"]["e"], 0.5);
    assert_eq!(v["end_reason"], "reached");
    assert!(v["codim2"].as_array().unwrap().is_empty());
    let points = v["points"].as_array().unwrap();
    assert!(points.len() >= 3);
    for p in points {
        assert_eq!(keys(p), ["multipliers", "params", "period", "x0"]);
        let (gamma, e) = (
            p["params"][0].as_f64().unwrap(),
            p["params"][1].as_f64().unwrap(),
        );
        let a = PI * (1.0 - e) / (1.0 + e);
        let exact = a.hypot(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)));
        assert!(
            (gamma - exact).abs() < 1e-9,
            "Γ = {gamma} at e = {e}: {exact}"
        );
        let mu = p["multipliers"].as_array().unwrap();
        assert!(mu
            .iter()
            .any(|m| (m["re"].as_f64().unwrap() + 1.0).abs() < 1e-8));
        assert!((p["period"].as_f64().unwrap() - 2.0 * PI).abs() < 1e-9);
    }
    assert_eq!(points.last().unwrap()["params"][1], 0.6);
    let csv = std::fs::read_to_string(dir.join("out/vibrating_table_curve.csv")).unwrap();
    assert!(
        csv.starts_with("index,Gamma,e,x0_0,x0_1,x0_2,period,angle,mu0_re"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), points.len() + 1);
    let codim2 = std::fs::read_to_string(dir.join("out/vibrating_table_codim2.csv")).unwrap();
    assert_eq!(codim2.lines().count(), 1);
    assert!(dir.join("out/vibrating_table_curve.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
