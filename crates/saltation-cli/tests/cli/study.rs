//! `saltation study` end to end on a small study (two sets, two solvers, two tolerances, both
//! strategies): the JSON interface, the points system's invariants, the accuracy criteria
//! against what the tolerances promise, and the files written.

use crate::support::{json, temp_dir, write};
use serde_json::Value;

const SMALL: &str = "(
    sets: [
        (b: 1951.0, m1: 1.88, k: 22.8, f: 0.051),
        (b: 1951.0, m1: 20.0, k: 22.8, f: 0.051),
    ],
    methods: [ode45, radau5],
    tolerances: [1e-3, 1e-6],
    epsilon: [0.05, 0.01],
    repeats: 1,
    ranking: (tol: 1e-6),
    figures: (set: 1, tol: 1e-3),
)";

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[test]
fn small_study_json_and_files() {
    let dir = temp_dir("study", "small");
    let file = write(&dir, "small_study.ron", SMALL);
    let out = dir.join("out");
    let v = json(&["study", &file, "--json", "--out", out.to_str().unwrap()]);
    assert_eq!(keys(&v), ["points", "reference", "runs", "stiffness"]);
    assert_eq!(keys(&v["reference"]), ["error_estimate", "method", "rtol"]);
    assert_eq!(v["reference"]["method"], "dop853");
    // The reference and its cross-check agree far below every tolerance studied.
    let err = v["reference"]["error_estimate"].as_f64().unwrap();
    assert!(err > 0.0 && err < 1e-9, "{err}");

    // Stiffness: the study's equilibrium (29) lies deeper than the true one, where the ground
    // is stiffer and more damped, so its SR is the larger.
    let st = v["stiffness"].as_array().unwrap();
    assert_eq!(st.len(), 2);
    for s in st {
        assert_eq!(keys(s), ["set", "sr_eq29", "sr_true"]);
        let (a, b) = (
            s["sr_eq29"].as_f64().unwrap(),
            s["sr_true"].as_f64().unwrap(),
        );
        assert!(b > 1.0 && a > b, "{s}");
    }

    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2 * 2 * 2 * 2);
    for r in runs {
        assert_eq!(
            keys(r),
            [
                "contacts",
                "dt",
                "iae",
                "method",
                "rhs_evals",
                "sd_s",
                "set",
                "status",
                "steps",
                "strategy",
                "tol"
            ]
        );
        assert_eq!(r["status"], "ok", "{r}");
        let dt = r["dt"].as_f64().unwrap();
        assert!((0.0..=50.0).contains(&dt), "{r}");
        assert!(r["sd_s"].as_f64().unwrap() > 0.0);
        assert!(r["steps"].as_u64().unwrap() > 0 && r["rhs_evals"].as_u64().unwrap() > 0);
        assert!(r["contacts"].as_u64().unwrap() >= 1, "{r}");
    }
    // Tighter tolerance, smaller integrated error (tolerance proportionality), for every
    // solver, set and strategy.
    let find = |set: u64, m: &str, tol: f64, s: &str| {
        runs.iter()
            .find(|r| r["set"] == set && r["method"] == m && r["tol"] == tol && r["strategy"] == s)
            .unwrap()
    };
    for set in [1, 2] {
        for m in ["ode45", "radau5"] {
            for s in ["if-else", "events"] {
                let loose = find(set, m, 1e-3, s)["iae"].as_f64().unwrap();
                let tight = find(set, m, 1e-6, s)["iae"].as_f64().unwrap();
                assert!(tight < 0.1 * loose, "{set} {m} {s}: {loose} -> {tight}");
            }
        }
    }

    // Points: per set, the better of two solvers gets 10 and the other 1 (both 10 on a tie),
    // so each total lies in [2, 20] and the two totals add up to 22 unless there were ties.
    let pts = v["points"].as_array().unwrap();
    assert_eq!(pts.len(), 2 * 2 * 3 * 2);
    for p in pts {
        assert_eq!(
            keys(p),
            ["criterion", "method", "points", "strategy", "tol"]
        );
        let x = p["points"].as_f64().unwrap();
        assert!((2.0..=20.0).contains(&x), "{p}");
    }
    for p in pts.iter().filter(|p| p["method"] == "ode45") {
        let other = pts
            .iter()
            .find(|q| {
                q["method"] == "radau5"
                    && q["criterion"] == p["criterion"]
                    && q["tol"] == p["tol"]
                    && q["strategy"] == p["strategy"]
            })
            .unwrap();
        let sum = p["points"].as_f64().unwrap() + other["points"].as_f64().unwrap();
        assert!(
            [22.0, 31.0, 40.0].contains(&sum),
            "{p} + {other}: 11 per set, 20 per tied set"
        );
    }

    let mut written: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".svg"))
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "error.png",
            "response.png",
            "runs.csv",
            "tables.md",
            "work_precision_events.png",
            "work_precision_if-else.png"
        ]
    );
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + runs.len());
    let md = std::fs::read_to_string(out.join("tables.md")).unwrap();
    for heading in ["Table 2", "Table 3", "Table 4", "Table 5"] {
        assert!(md.contains(heading), "{heading} missing:\n{md}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_failed_run_is_recorded_not_fatal() {
    // ode23t at 1e-9 needs far more than 200 steps per segment: its runs fail, ode45's succeed,
    // and the study finishes with the failures as results.
    let dir = temp_dir("study", "failed");
    let file = write(
        &dir,
        "failing_study.ron",
        "(
            sets: [(b: 1951.0, m1: 1.88, k: 22.8, f: 0.051)],
            methods: [ode45, ode23t],
            tolerances: [1e-9],
            epsilon: [0.01],
            strategies: [Events],
            repeats: 1,
            max_steps: 2000,
            ranking: (strategy: Events, tol: 1e-9),
            figures: (set: 1, tol: 1e-9, strategy: Events),
        )",
    );
    let v = json(&["study", &file, "--json"]);
    let runs = v["runs"].as_array().unwrap();
    let by = |m: &str| runs.iter().find(|r| r["method"] == m).unwrap();
    assert_eq!(by("ode45")["status"], "ok");
    let failed = by("ode23t");
    let status = failed["status"].as_str().unwrap();
    assert!(
        status.contains("maximum number of steps (2000)"),
        "{status}"
    );
    for k in ["sd_s", "dt", "iae"] {
        assert!(failed[k].is_null(), "{k}: {failed}");
    }
    for p in v["points"].as_array().unwrap() {
        let want = if p["method"] == "ode23t" { 0.0 } else { 10.0 };
        assert_eq!(p["points"].as_f64(), Some(want), "{p}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
