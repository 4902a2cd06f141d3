//! `saltation mfpt` and `saltation merge` of its shards end to end: the JSON shape with both
//! methods, the rimless wheel's nominal orbit against its closed form, the same bytes at one
//! and two threads and from merged shards, the roughness figure, and the simplest walker on
//! random slopes.

use crate::support::{json, keys, model, temp_dir};
use std::process::Command;

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

const WHEEL: &[&str] = &[
    "--param",
    "alpha",
    "--distribution",
    "normal(0.2,0.2)",
    "--mesh",
    "u0=0:1:21",
    "--samples",
    "20",
    "--runs",
    "200",
    "--seed",
    "5",
];

#[test]
fn rimless_wheel_json_has_both_methods() {
    let dir = temp_dir("mfpt", "json");
    let out = dir.display().to_string();
    let wheel = model("rimless_wheel.ron");
    let mut args = vec!["mfpt", wheel.as_str()];
    args.extend_from_slice(WHEEL);
    args.extend_from_slice(&["--json", "--out", &out]);
    let v = json(&args);
    assert_eq!(
        keys(&v),
        [
            "distribution",
            "levels",
            "max_steps",
            "mesh",
            "model",
            "nominal",
            "param",
            "runs",
            "samples",
            "seed"
        ]
    );
    // u₀ = √(4λ²μ² sin(π/6) sin 0.2 / (1 − μ²)) with λ² = μ = 2/3.
    let mu: f64 = 2.0 / 3.0;
    let u0 = (4.0 * mu * mu * mu * 0.5 * 0.2f64.sin() / (1.0 - mu * mu)).sqrt();
    assert!(
        (v["nominal"]["u0"][0].as_f64().unwrap() - u0).abs() < 1e-9,
        "{}",
        v["nominal"]
    );
    let level = &v["levels"][0];
    assert_eq!(keys(level), ["chain", "distribution", "monte_carlo", "sd"]);
    let chain = &level["chain"];
    let (mfpt, lambda2) = (
        chain["mfpt"].as_f64().unwrap(),
        chain["lambda2"].as_f64().unwrap(),
    );
    assert!((mfpt * (1.0 - lambda2) - 1.0).abs() < 1e-9, "{chain}");
    assert!(mfpt > 1.0 && chain["expected_steps"].as_f64().unwrap() > 1.0);
    assert_eq!(chain["points"], 21);
    assert!(chain["absorbed_fraction"].as_f64().unwrap() > 0.0);
    let mc = &level["monte_carlo"];
    for k in ["mean", "ci", "runs", "censored"] {
        assert!(mc.get(k).is_some(), "{k}: {mc}");
    }
    let (m, lo, hi) = (
        mc["mean"].as_f64().unwrap(),
        mc["ci"][0].as_f64().unwrap(),
        mc["ci"][1].as_f64().unwrap(),
    );
    assert!(lo < m && m < hi && mc["runs"] == 200, "{mc}");
    // Nothing but the JSON: no figure without --roughness.
    assert_eq!(std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0), 0);
}

#[test]
fn shards_merge_into_exactly_the_unsharded_result() {
    let dir = temp_dir("mfpt", "shards");
    let wheel = model("rimless_wheel.ron");
    let whole_dir = dir.join("whole").display().to_string();
    let mut args = vec!["mfpt", wheel.as_str()];
    args.extend_from_slice(WHEEL);
    args.extend_from_slice(&["--json", "--out", &whole_dir]);
    let one = run_threads(&args, "1");
    let two = run_threads(&args, "2");
    assert_eq!(one, two);
    let shards = dir.join("shards").display().to_string();
    for s in ["0/3", "1/3", "2/3"] {
        let mut a = vec!["mfpt", wheel.as_str()];
        a.extend_from_slice(WHEEL);
        a.extend_from_slice(&["--shard", s, "--json", "--out", &shards]);
        run_threads(&a, "2");
    }
    let merged_dir = dir.join("merged").display().to_string();
    let merged = run_threads(&["merge", &shards, "--json", "--out", &merged_dir], "2");
    assert_eq!(merged, one);
    // A shard missing is named.
    let partial = dir.join("partial");
    std::fs::create_dir_all(&partial).unwrap();
    for i in [0, 1] {
        let name = format!("rimless_wheel_mfpt_shard_{i}_of_3.json");
        std::fs::copy(dir.join("shards").join(&name), partial.join(&name)).unwrap();
    }
    let partial = partial.display().to_string();
    let out = dir.join("partial_out").display().to_string();
    crate::support::fails(
        &["merge", &partial, "--out", &out],
        2,
        &["shard(s) 2 of 3 missing"],
    );
}

#[test]
fn roughness_sweep_writes_the_figure() {
    let dir = temp_dir("mfpt", "roughness");
    let out = dir.display().to_string();
    let wheel = model("rimless_wheel.ron");
    let mut args = vec!["mfpt", wheel.as_str()];
    args.extend_from_slice(WHEEL);
    args.extend_from_slice(&["--roughness", "0.15,0.2", "--json", "--out", &out]);
    let v = json(&args);
    let levels = v["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    assert_eq!(levels[1]["distribution"], "normal(0.2,0.2)");
    // Rougher terrain, sooner falls.
    assert!(
        levels[1]["chain"]["mfpt"].as_f64().unwrap() < levels[0]["chain"]["mfpt"].as_f64().unwrap()
    );
    let csv = std::fs::read_to_string(dir.join("rimless_wheel_mfpt.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.starts_with("sd,chain_mfpt,chain_steps,mc_mean,mc_lo,mc_hi\n0.15,"));
    assert!(dir.join("rimless_wheel_mfpt.png").exists());
}

#[test]
fn simplest_walker_on_random_slopes_end_to_end() {
    let dir = temp_dir("mfpt", "walker");
    let out = dir.display().to_string();
    let walker = model("simplest_walker.ron");
    let v = json(&[
        "mfpt",
        &walker,
        "--param",
        "gamma",
        "--distribution",
        "normal(0.009,0.003)",
        "--mesh",
        "θ=0.17:0.23:7,dθ/dt=-0.23:-0.17:7",
        "--samples",
        "6",
        "--runs",
        "40",
        "--max-steps",
        "300",
        "--json",
        "--out",
        &out,
    ]);
    let level = &v["levels"][0];
    let chain = &level["chain"];
    assert_eq!(chain["points"], 49);
    assert!(chain["mfpt"].as_f64().unwrap() >= 1.0, "{chain}");
    let mc = &level["monte_carlo"];
    assert_eq!(mc["runs"], 40);
    let fell = mc["fell"].as_u64().unwrap();
    assert_eq!(fell + mc["censored"].as_u64().unwrap(), 40);
}

#[test]
fn the_rough_wheel_file_gives_the_registry_wheels_chain() {
    // models/equations/rimless_wheel_rough.ron: the same wheel written as equations, with a
    // stall failure guard and tolerances of 1e-8; its chain is the registry wheel's (1e-14).
    let dir = temp_dir("mfpt", "rough");
    let out = dir.display().to_string();
    let times = |file: &str, coord: &str| {
        let f = model(file);
        let v = json(&[
            "mfpt",
            &f,
            "--param",
            "alpha",
            "--distribution",
            "normal(0.2,0.15)",
            "--mesh",
            coord,
            "--samples",
            "20",
            "--runs",
            "10",
            "--max-steps",
            "5",
            "--json",
            "--out",
            &out,
        ]);
        let c = &v["levels"][0]["chain"];
        (
            c["mfpt"].as_f64().unwrap(),
            c["expected_steps"].as_f64().unwrap(),
            c["fallen"].as_u64().unwrap(),
        )
    };
    let a = times("rimless_wheel.ron", "u0=0.05:1:21");
    let b = times("equations/rimless_wheel_rough.ron", "dth=0.05:1:21");
    assert_eq!(a.2, b.2);
    assert!(
        (a.0 / b.0 - 1.0).abs() < 1e-6 && (a.1 / b.1 - 1.0).abs() < 1e-6,
        "{a:?} {b:?}"
    );
}

/// The chain's warnings (200 samples, 400 runs): a 4-point mesh gives far too few strides from
/// the orbit against Monte Carlo's 32.5 [29.5, 35.5], a 41-point mesh agrees (35.8; about 36
/// on fine meshes with many samples), and a box that misses part of the
/// states reached counts strides leaving it.
#[test]
fn a_chain_that_disagrees_with_monte_carlo_or_leaves_its_mesh_is_flagged() {
    let wheel = model("equations/rimless_wheel_rough.ron");
    let level = |mesh: &str| {
        let v = json(&[
            "mfpt",
            wheel.as_str(),
            "--param",
            "alpha",
            "--distribution",
            "normal(0.2,0.1)",
            "--mesh",
            mesh,
            "--samples",
            "200",
            "--runs",
            "400",
            "--json",
        ]);
        v["levels"][0].clone()
    };
    let coarse = level("dth=0:1:4");
    let w = coarse["warnings"].as_array().expect("warnings");
    assert!(
        w.len() == 1
            && w[0]
                .as_str()
                .unwrap()
                .contains("outside Monte Carlo's 99.9 %"),
        "{coarse}"
    );
    let fine = level("dth=0:1:41");
    assert!(fine.get("warnings").is_none(), "{fine}");
    let narrow = level("dth=0.3:0.6:31");
    let left = narrow["chain"]["left_mesh"].as_u64().unwrap();
    assert!(left > 0, "{narrow}");
    let w = narrow["warnings"].as_array().expect("warnings");
    assert!(
        w[0].as_str()
            .unwrap()
            .starts_with(&format!("{left} of the chain's strides ended outside")),
        "{narrow}"
    );
}

#[test]
fn one_method_alone_gives_the_same_block_and_shards_merge() {
    let dir = temp_dir("mfpt", "methods");
    let wheel = model("rimless_wheel.ron");
    let out = dir.join("o").display().to_string();
    let mut args = vec!["mfpt", wheel.as_str()];
    args.extend_from_slice(WHEEL);
    args.extend_from_slice(&["--json", "--out", &out]);
    let both = json(&args);
    // Monte Carlo alone: WHEEL without the chain's flags.
    let mc_flags: Vec<&str> = WHEEL
        .chunks(2)
        .filter(|f| f[0] != "--mesh" && f[0] != "--samples")
        .flatten()
        .copied()
        .collect();
    let mut args = vec!["mfpt", wheel.as_str(), "--method", "monte-carlo"];
    args.extend_from_slice(&mc_flags);
    let mc_only = [args.as_slice(), &["--json", "--out", &out]].concat();
    let mc = json(&mc_only);
    assert_eq!(
        mc["levels"][0]["monte_carlo"],
        both["levels"][0]["monte_carlo"]
    );
    assert_eq!(mc["runs"], both["runs"]);
    for k in ["mesh", "samples"] {
        assert!(mc.get(k).is_none(), "{k}: {mc}");
    }
    assert!(mc["levels"][0].get("chain").is_none());
    // The chain alone.
    let chain_flags: Vec<&str> = WHEEL
        .chunks(2)
        .filter(|f| !["--runs", "--seed"].contains(&f[0]))
        .flatten()
        .copied()
        .collect();
    let mut args = vec!["mfpt", wheel.as_str(), "--method", "chain"];
    args.extend_from_slice(&chain_flags);
    let chain_only = [args.as_slice(), &["--json", "--out", &out]].concat();
    let chain = json(&chain_only);
    assert_eq!(chain["levels"][0]["chain"], both["levels"][0]["chain"]);
    for k in ["runs", "max_steps", "seed"] {
        assert!(chain.get(k).is_none(), "{k}: {chain}");
    }
    assert!(chain["levels"][0].get("monte_carlo").is_none());
    // Each alone in shards merges into exactly its unsharded output.
    for (name, whole, run) in [("mc", &mc, &mc_only), ("chain", &chain, &chain_only)] {
        let shards = dir.join(name).display().to_string();
        for s in ["0/2", "1/2"] {
            let mut a = run[..run.len() - 3].to_vec();
            a.extend_from_slice(&["--shard", s, "--out", &shards]);
            run_threads(&a, "2");
        }
        let merged_dir = dir.join(format!("{name}_merged")).display().to_string();
        let merged = json(&["merge", &shards, "--json", "--out", &merged_dir]);
        assert_eq!(&merged, whole, "{name}");
    }
}
