//! Two-parameter curves from a continuation script (`curves` in its section) and the
//! direction of `saltation curve`, end to end, against the vibrating table's closed-form
//! period-doubling curve `Γ_PD² = (π(1 − e)/(1 + e))² + (2(1 + e²)/(1 + e)²)²`.

use crate::support::{json, keys, model, temp_dir, write};
use serde_json::Value;
use std::f64::consts::PI;

/// The closed-form period-doubling `Γ` of the period-1 orbit at restitution `e`.
fn gamma_pd(e: f64) -> f64 {
    let a = PI * (1.0 - e) / (1.0 + e);
    a.hypot(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)))
}

/// Every point of a curve's JSON on the closed form.
fn on_closed_form(curve: &Value) {
    for p in curve["points"].as_array().unwrap() {
        let (gamma, e) = (
            p["params"][0].as_f64().unwrap(),
            p["params"][1].as_f64().unwrap(),
        );
        assert!(
            (gamma - gamma_pd(e)).abs() < 1e-9,
            "Γ = {gamma} at e = {e}: {}",
            gamma_pd(e)
        );
    }
}

/// The shipped forced table asks for its period doubling in `e` both ways from 0.5:
/// `continue` computes both after the branches, reports them in the JSON's `"curves"` (each
/// with its request, branch and index and the keys of `curve --json`), on the closed form,
/// ending exactly at e = 0.8 and 0.2, and writes one two-parameter diagram with both and
/// their CSV.
#[test]
fn a_continuation_script_draws_its_curves_in_one_diagram() {
    let dir = temp_dir("script_curves", "table");
    // The shipped file without its orbit diagram (not needed here).
    let text = std::fs::read_to_string(model("equations/vibrating_table_forced.ron")).unwrap();
    let start = text.find("        orbit_diagram: (").unwrap();
    let end = start + text[start..].find("        ),\n    ),").unwrap() + "        ),\n".len();
    let path = write(
        &dir,
        "table.ron",
        &format!("{}{}", &text[..start], &text[end..]),
    );
    let out = dir.join("out");
    let v = json(&["continue", &path, "--json", "--out", out.to_str().unwrap()]);
    let curves = v["curves"].as_array().expect("a curves array");
    assert_eq!(curves.len(), 2);
    for (c, to2) in curves.iter().zip([0.8, 0.2]) {
        assert_eq!(c["branch"], "period 1");
        assert_eq!(c["index"], 0);
        assert_eq!(c["kind"], "period_doubling");
        assert_eq!(c["params"], serde_json::json!(["Gamma", "e"]));
        assert_eq!(c["end_reason"], "reached", "{}", c["end"]);
        assert!(c.get("not_started").is_none());
        on_closed_form(c);
        let pts = c["points"].as_array().unwrap();
        assert_eq!(pts[0]["params"][1], 0.5);
        assert_eq!(pts.last().unwrap()["params"][1], to2);
        assert!(pts.len() > 3);
    }
    assert_eq!(curves[0]["request"], 0);
    assert_eq!(curves[1]["request"], 1);
    for f in [
        "table_curves.csv",
        "table_curves_codim2.csv",
        "table_two_param.png",
        "table_two_param.svg",
        "table_branches.json",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let csv = std::fs::read_to_string(out.join("table_curves.csv")).unwrap();
    assert!(csv.starts_with("curve,Gamma,e,"), "{csv}");
    let rows = csv.lines().count() - 1;
    let n: usize = curves
        .iter()
        .map(|c| c["points"].as_array().unwrap().len())
        .sum();
    assert_eq!(rows, n);
    let svg = std::fs::read_to_string(out.join("table_two_param.svg")).unwrap();
    assert!(svg.contains("to e = 0.8") && svg.contains("to e = 0.2"));
    // A request for a bifurcation the branch does not have is reported, not dropped.
    let missing = text.replacen(
        "index: 0, param2: \"e\", to2: 0.2",
        "index: 3, param2: \"e\", to2: 0.2",
        1,
    );
    let missing = {
        let start = missing.find("        orbit_diagram: (").unwrap();
        let end =
            start + missing[start..].find("        ),\n    ),").unwrap() + "        ),\n".len();
        format!("{}{}", &missing[..start], &missing[end..])
    };
    let path = write(&dir, "missing.ron", &missing);
    let v = json(&["continue", &path, "--json", "--out", out.to_str().unwrap()]);
    let c = &v["curves"][1];
    assert_eq!(keys(c), ["branch", "index", "not_started", "request"]);
    assert!(
        c["not_started"]
            .as_str()
            .unwrap()
            .contains("has 1 period doubling(s); index 3"),
        "{c}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `--direction backward` leaves the start away from `--to2`: from e = 0.5 with `--to2 0.8`
/// the curve runs down in e, on the closed form, until the restitution's range ends it.
#[test]
fn a_backward_curve_runs_away_from_to2() {
    let dir = temp_dir("script_curves", "backward");
    let out = dir.join("out").display().to_string();
    let file = model("equations/vibrating_table.ron");
    let run = |direction: &str| {
        json(&[
            "curve",
            &file,
            "--kind",
            "period_doubling",
            "--param",
            "Gamma",
            "--param2",
            "e",
            "--to2",
            "0.8",
            "--direction",
            direction,
            "--json",
            "--out",
            &out,
        ])
    };
    let v = run("backward");
    on_closed_form(&v);
    let pts = v["points"].as_array().unwrap();
    let es: Vec<f64> = pts
        .iter()
        .map(|p| p["params"][1].as_f64().unwrap())
        .collect();
    assert_eq!(es[0], 0.5);
    assert!(es.windows(2).all(|w| w[1] < w[0]), "{es:?}");
    assert_eq!(v["end_reason"], "parameter_rejected", "{}", v["end"]);
    assert!(*es.last().unwrap() < 0.05, "{es:?}");
    let v = run("forward");
    assert_eq!(v["end_reason"], "reached");
    assert_eq!(
        v["points"].as_array().unwrap().last().unwrap()["params"][1],
        0.8
    );
    let _ = std::fs::remove_dir_all(dir);
}
