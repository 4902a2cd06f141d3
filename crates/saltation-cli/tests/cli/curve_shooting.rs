//! `saltation curve --shooting` end to end: the vibrating table's period-doubling curve in
//! (Γ, e) from e = 0.5 to 0.7 by single shooting, by multiple shooting with one segment per
//! phase, and with every phase in three pieces (the lifted system, `2 + 2·3 = 8` unknowns
//! besides the parameters): every point of each on the closed form
//! `Γ_PD² = (π(1 − e)/(1 + e))² + (2(1 + e²)/(1 + e)²)²` to 1e-9 with a multiplier −1, and the
//! first and last points (both at fixed `e`) equal to single shooting's to 1e-9. The hopper in
//! minimal coordinates (`models/hopper_unconstrained.ron`, flight and stance: two segments with
//! one per phase): its fold curve in `(d_G, mu)` from the fold at `d_G = −50.35` (`mu = 0.8`)
//! to `mu = 0.802` by `--shooting phases` starts and ends where single shooting's does, to 1e-9.

use crate::support::{json, model};
use serde_json::Value;
use std::f64::consts::PI;

fn pd_curve(shooting: &str) -> Value {
    let dir = crate::support::temp_dir("curve_shooting", shooting);
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
        "0.7",
        "--shooting",
        shooting,
        "--json",
        "--out",
        &out,
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    v
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn period_doubling_curve_by_multiple_shooting_equals_single_shooting() {
    let single = pd_curve("single");
    for shooting in ["single", "phases", "3"] {
        let v = if shooting == "single" {
            single.clone()
        } else {
            pd_curve(shooting)
        };
        assert_eq!(v["end_reason"], "reached", "{shooting}");
        let points = v["points"].as_array().unwrap();
        assert!(points.len() >= 5, "{shooting}");
        for p in points {
            let (gamma, e) = (num(&p["params"][0]), num(&p["params"][1]));
            let a = PI * (1.0 - e) / (1.0 + e);
            let exact = a.hypot(2.0 * (1.0 + e * e) / ((1.0 + e) * (1.0 + e)));
            assert!(
                (gamma - exact).abs() < 1e-9,
                "{shooting}: Γ = {gamma} at e = {e}: {exact}"
            );
            let mu = p["multipliers"].as_array().unwrap();
            assert!(
                mu.iter().any(|m| (num(&m["re"]) + 1.0).abs() < 1e-8),
                "{shooting}: {mu:?}"
            );
            assert!((num(&p["period"]) - 2.0 * PI).abs() < 1e-9, "{shooting}");
        }
        assert_eq!(points.last().unwrap()["params"][1], 0.7);
        let ends = |c: &Value| {
            let pts = c["points"].as_array().unwrap().clone();
            [pts[0].clone(), pts[pts.len() - 1].clone()]
        };
        for (a, b) in ends(&v).iter().zip(ends(&single).iter()) {
            for key in ["params", "x0"] {
                let (xa, xb) = (a[key].as_array().unwrap(), b[key].as_array().unwrap());
                assert_eq!(xa.len(), xb.len());
                for (x, y) in xa.iter().zip(xb) {
                    assert!(
                        (num(x) - num(y)).abs() < 1e-9,
                        "{shooting} {key}: {xa:?} vs {xb:?}"
                    );
                }
            }
        }
    }
}

/// The hopper's fold curve in `(d_G, mu)` with `shooting`.
fn hopper_fold_curve(shooting: &str) -> Value {
    let dir = crate::support::temp_dir("curve_shooting_hopper", shooting);
    let out = dir.join("out").display().to_string();
    let file = model("hopper_unconstrained.ron");
    let v = json(&[
        "curve",
        &file,
        "--kind",
        "fold",
        "--param",
        "d_G",
        "--param2",
        "mu",
        "--set",
        "d_G=-55",
        "--guess",
        "1.016,1.57",
        "--to2",
        "0.802",
        "--shooting",
        shooting,
        "--json",
        "--out",
        &out,
    ]);
    let _ = std::fs::remove_dir_all(&dir);
    v
}

#[test]
fn hopper_fold_curve_with_a_segment_per_phase_equals_single_shooting() {
    let single = hopper_fold_curve("single");
    let phases = hopper_fold_curve("phases");
    for v in [&single, &phases] {
        assert_eq!(v["end_reason"], "reached");
        assert!(v["points"].as_array().unwrap().len() >= 3);
    }
    let (a, b) = (
        single["points"].as_array().unwrap(),
        phases["points"].as_array().unwrap(),
    );
    assert!(
        (num(&a[0]["params"][0]) + 50.3505).abs() < 1e-4,
        "{}",
        a[0]["params"]
    );
    for (p, q) in [(&a[0], &b[0]), (&a[a.len() - 1], &b[b.len() - 1])] {
        for key in ["params", "x0"] {
            let (xa, xb) = (p[key].as_array().unwrap(), q[key].as_array().unwrap());
            for (x, y) in xa.iter().zip(xb) {
                assert!((num(x) - num(y)).abs() < 1e-9, "{key}: {xa:?} vs {xb:?}");
            }
        }
    }
    assert_eq!(b[b.len() - 1]["params"][1], 0.802);
}
