//! `saltation curve --kind grazing` end to end: the vibrating table under a ceiling
//! `H = π²/2 + d` (the condition `H − y ≥ 0` in flight), whose period-1 orbit's apex grazes it
//! where `Γ² = (π(1 − e)/(1 + e))² + d²`; its JSON (the documented keys, with `"grazing"`)
//! against that closed form, and its files under `--out`.

use crate::support::{json, keys, models_dir, temp_dir, write};
use std::f64::consts::PI;

#[test]
fn grazing_curve_json_and_files() {
    let dir = temp_dir("curve", "grazing");
    let out = dir.join("out").display().to_string();
    let d = 1.05;
    let text = std::fs::read_to_string(models_dir().join("equations/vibrating_table.ron"))
        .unwrap()
        .replacen(
            r#"(name: "g", value: 1.0, min: 0.0),"#,
            &format!(
                "(name: \"g\", value: 1.0, min: 0.0),\n(name: \"H\", value: {:?}),",
                PI * PI / 2.0 + d
            ),
            1,
        )
        .replacen(
            "        section: (after:",
            "admissible: [(name: \"below ceiling\", mode: \"flight\", when: \"H - y\")],\n        section: (after:",
            1,
        );
    let file = write(&dir, "vibrating_table.ron", &text);
    let v = json(&[
        "curve", &file, "--kind", "grazing", "--param", "Gamma", "--param2", "e", "--to2", "0.55",
        "--json", "--out", &out,
    ]);
    assert_eq!(
        keys(&v),
        [
            "codim2",
            "end",
            "end_reason",
            "grazing",
            "kind",
            "param_values",
            "params",
            "period_k",
            "points"
        ]
    );
    assert_eq!(v["kind"], "grazing");
    assert_eq!(
        v["grazing"],
        serde_json::json!({"condition": "below ceiling", "mode": "flight", "phase": 0,
                           "at": "interior"})
    );
    assert_eq!(v["end_reason"], "reached");
    let points = v["points"].as_array().unwrap();
    assert!(points.len() >= 3);
    for p in points {
        let (gamma, e) = (
            p["params"][0].as_f64().unwrap(),
            p["params"][1].as_f64().unwrap(),
        );
        let exact = (PI * (1.0 - e) / (1.0 + e)).hypot(d);
        assert!(
            (gamma - exact).abs() < 1e-9,
            "Γ = {gamma} at e = {e}: {exact}"
        );
    }
    assert_eq!(points.last().unwrap()["params"][1], 0.55);
    for f in ["curve.csv", "codim2.csv", "curve.json"] {
        assert!(dir.join(format!("out/vibrating_table_{f}")).exists(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
