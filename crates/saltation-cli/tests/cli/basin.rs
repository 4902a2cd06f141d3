//! `saltation basin` and `saltation merge` end to end: the JSON shape, the walker's gait among
//! the attractors with its published multipliers, the same bytes at one and two threads, and
//! shards merged into exactly the unsharded result.

use crate::support::{json, keys, model, multipliers, temp_dir};
use saltation_models::reference::walker_table1 as table1;
use std::process::Command;

const AXES: &str = "u0=0.18:0.22:7,u1=-0.22:-0.18:6";

/// Runs `saltation <args>` with `RAYON_NUM_THREADS = threads`; expects success and returns
/// stdout.
fn run_threads(args: &[&str], threads: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_saltation"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn walker_basin_has_the_gait_with_its_multipliers() {
    let dir = temp_dir("basin", "gait");
    let out = dir.display().to_string();
    let walker = model("simplest_walker.ron");
    let v = json(&["basin", &walker, "--axes", AXES, "--json", "--out", &out]);
    assert_eq!(
        keys(&v),
        [
            "attractors",
            "axes",
            "cells",
            "failure_causes",
            "fractions",
            "undecided_causes"
        ]
    );
    let axes = v["axes"].as_array().unwrap();
    assert_eq!(keys(&axes[0]), ["count", "from", "name", "to"]);
    assert_eq!(
        (axes[0]["count"].as_u64(), axes[1]["count"].as_u64()),
        (Some(7), Some(6))
    );
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 42);
    let a = &v["attractors"][0];
    for k in ["id", "label", "x0", "period_k", "multipliers"] {
        assert!(a.get(k).is_some(), "{k} missing: {a}");
    }
    assert_eq!(a["period_k"], 1);
    let x0 = crate::support::floats(&a["x0"]);
    for (x, r) in x0.iter().zip(table1::STABLE_X0) {
        assert!((x - r).abs() < 1e-9, "{x0:?}");
    }
    let mu = multipliers(&a["multipliers"]);
    let (re, im) = table1::STABLE_PAIR;
    assert!(
        (mu[0].0 - re).abs() < 1e-8 && (mu[0].1.abs() - im).abs() < 1e-8,
        "{mu:?}"
    );
    // Every cell is the gait (0) or a fall (−1) here; the fractions add up to one.
    let n0 = cells.iter().filter(|c| c.as_i64() == Some(0)).count();
    let nf = cells.iter().filter(|c| c.as_i64() == Some(-1)).count();
    assert_eq!(n0 + nf, 42, "{cells:?}");
    assert!(n0 > 0 && nf > 0);
    let f = &v["fractions"];
    // (serde_json reads numbers to within an ulp or so, not always exactly.)
    assert!((f["0"].as_f64().unwrap() - n0 as f64 / 42.0).abs() < 1e-15);
    assert!((f["failed"].as_f64().unwrap() - nf as f64 / 42.0).abs() < 1e-15);
    assert!(v["failure_causes"][0]["cause"]
        .as_str()
        .unwrap()
        .contains("the walker fell"));
    // The JSON file is the printed object.
    let file = std::fs::read_to_string(dir.join("simplest_walker_basin.json")).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&file).unwrap(), v);
    assert_eq!(file.lines().count(), 1);
}

#[test]
fn threads_and_shards_do_not_change_a_byte() {
    let dir = temp_dir("basin", "shards");
    let walker = model("simplest_walker.ron");
    let whole_dir = dir.join("whole").display().to_string();
    let base = [
        "basin", &walker, "--axes", AXES, "--json", "--out", &whole_dir,
    ];
    let one = run_threads(&base, "1");
    let two = run_threads(&base, "2");
    assert_eq!(one, two);
    let shards = dir.join("shards").display().to_string();
    for i in 0..3 {
        let s = format!("{i}/3");
        let threads = if i == 1 { "1" } else { "2" };
        let out = run_threads(
            &[
                "basin", &walker, "--axes", AXES, "--shard", &s, "--out", &shards, "--json",
            ],
            threads,
        );
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["shard"], i);
    }
    let merged_dir = dir.join("merged").display().to_string();
    let merged = run_threads(&["merge", &shards, "--json", "--out", &merged_dir], "2");
    assert_eq!(merged, one);
    assert_eq!(
        std::fs::read(dir.join("merged/simplest_walker_basin.json")).unwrap(),
        std::fs::read(dir.join("whole/simplest_walker_basin.json")).unwrap()
    );
}
