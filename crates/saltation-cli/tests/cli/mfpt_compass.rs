//! `saltation mfpt` on the compass gait (Goswami et al.; models/equations/compass_gait.ron),
//! whose section has three reduced coordinates `(th_s, dth_ns, dth_s)`: the chain on a 3-axis
//! mesh, its transitions checked against direct strides of the model mapped by trilinear
//! weights computed here, its shards merged into the unsharded bytes, and Monte Carlo alone
//! (`--method monte-carlo`, no mesh) on nearly smooth and on rough random slopes.
//!
//! The slope `phi` is drawn uniformly (the model bounds it below by 0, so a normal slope would
//! be refused in its tails).

use crate::support::{json, model, temp_dir};
use saltation_hybrid::{with_param, EvalModel, JacobianKind, StrideMap};
use serde_json::Value;

const DIST: &str = "uniform(0.03,0.075)";
/// The 3-axis mesh: `(from, to, count)` of th_s, dth_ns, dth_s, about the nominal gait
/// `u0 ≈ (0.2188, -0.3761, -1.0929)`.
const AXES: [(f64, f64, usize); 3] = [(0.1, 0.35, 4), (-0.8, 0.0, 3), (-1.5, -0.7, 4)];
const MESH: &str = "th_s=0.1:0.35:4,dth_ns=-0.8:0:3,dth_s=-1.5:-0.7:4";
const SAMPLES: usize = 5;

fn compass() -> String {
    model("equations/compass_gait.ron")
}

fn chain_args<'a>(file: &'a str, out: &'a str) -> Vec<&'a str> {
    vec![
        "mfpt",
        file,
        "--param",
        "phi",
        "--distribution",
        DIST,
        "--mesh",
        MESH,
        "--samples",
        "5",
        "--runs",
        "40",
        "--max-steps",
        "300",
        "--out",
        out,
    ]
}

/// The mesh point of cell `c`: row-major, the last axis fastest (written out here, not the
/// library's numbering).
fn point(c: usize) -> [f64; 3] {
    let (i, rest) = (c / (AXES[1].2 * AXES[2].2), c % (AXES[1].2 * AXES[2].2));
    let (j, k) = (rest / AXES[2].2, rest % AXES[2].2);
    let v = |a: (f64, f64, usize), i: usize| a.0 + (a.1 - a.0) * i as f64 / (a.2 - 1) as f64;
    [v(AXES[0], i), v(AXES[1], j), v(AXES[2], k)]
}

/// The trilinear weights of `u` on the mesh, `None` outside the box.
fn trilinear(u: &[f64]) -> Option<Vec<(usize, f64)>> {
    let mut per_axis = Vec::new();
    for (a, &x) in AXES.iter().zip(u) {
        let t = (x - a.0) / (a.1 - a.0) * (a.2 - 1) as f64;
        if !(0.0..=(a.2 - 1) as f64).contains(&t) {
            return None;
        }
        let i = (t.floor() as usize).min(a.2 - 2);
        let f = t - i as f64;
        per_axis.push([(i, 1.0 - f), (i + 1, f)]);
    }
    let mut out = Vec::new();
    for &(i, wi) in &per_axis[0] {
        for &(j, wj) in &per_axis[1] {
            for &(k, wk) in &per_axis[2] {
                let w = wi * wj * wk;
                if w > 0.0 {
                    out.push(((i * AXES[1].2 + j) * AXES[2].2 + k, w));
                }
            }
        }
    }
    Some(out)
}

#[test]
fn compass_gait_chain_on_a_three_axis_mesh_against_direct_strides_and_monte_carlo() {
    let dir = temp_dir("mfpt_compass", "chain");
    let file = compass();
    let whole = dir.join("whole").display().to_string();
    let mut args = chain_args(&file, &whole);
    args.push("--json");
    let v = json(&args);
    let axes = v["mesh"]["axes"].as_array().unwrap();
    let names: Vec<&str> = axes.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["th_s", "dth_ns", "dth_s"]);
    assert_eq!(v["mesh"]["points"], 48);
    let level = &v["levels"][0];
    let (chain, mc) = (&level["chain"], &level["monte_carlo"]);
    assert_eq!(chain["points"], 48);
    assert_eq!(chain["samples"], SAMPLES);
    // Monte Carlo: every one of 40 walks falls (15 strides on average at this roughness).
    assert_eq!(mc["fell"], 40);
    let mean = mc["mean"].as_f64().unwrap();
    assert!((10.0..22.0).contains(&mean), "{mc}");
    // A 4 × 3 × 4 mesh is far coarser than the gait's basin: the chain's strides from the
    // orbit fall well short of Monte Carlo's, and the warning says so (with the strides that
    // left the box).
    let m = chain["expected_steps"].as_f64().unwrap();
    let lo = mc["ci"][0].as_f64().unwrap();
    assert!(m < lo, "chain {m} Monte Carlo {mc}");
    let warnings: Vec<&str> = level["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("outside Monte Carlo's 99.9 % interval")),
        "{warnings:?}"
    );

    // The rows against direct strides: one shard of one holds every row, its floats as bits.
    let shard_dir = dir.join("one").display().to_string();
    let mut args = chain_args(&file, &shard_dir);
    args.extend_from_slice(&["--shard", "0/1"]);
    json(&[args.as_slice(), &["--json"]].concat());
    let text = std::fs::read_to_string(dir.join("one").join("compass_gait_mfpt_shard_0_of_1.json"))
        .unwrap();
    let shard: Value = serde_json::from_str(&text).unwrap();
    let rows = shard["levels"][0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 48);
    let loaded = saltation_cli::input::ModelArgs {
        file: file.clone().into(),
        set: Vec::new(),
    }
    .load()
    .unwrap();
    let base = &loaded.file.model;
    let stride = &loaded.file.orbit.stride;
    // The stratified samples of uniform(a, b): a + (b − a)(s + ½)/K.
    let samples: Vec<f64> = (0..SAMPLES)
        .map(|s| 0.03 + 0.045 * (s as f64 + 0.5) / SAMPLES as f64)
        .collect();
    // Points whose strides all fall, all land, or some of each, some leaving the box.
    let mut landed_somewhere = 0;
    for c in [0, 3, 7, 14, 17, 24, 28, 33, 44] {
        let u = point(c);
        let mut expect: Vec<(usize, f64)> = Vec::new();
        let (mut fallen, mut left) = (0, 0);
        for &p in &samples {
            let m = with_param(base, "phi", p).unwrap();
            let mut x = vec![0.0; m.dim()];
            m.chart(&u, &mut x);
            let end =
                StrideMap::new(&m, stride.clone()).and_then(|mut s| s.eval(&x, JacobianKind::None));
            match end {
                Ok(r) => {
                    let mut u1 = vec![0.0; 3];
                    m.project(&r.x, &mut u1);
                    match trilinear(&u1) {
                        Some(w) => expect.extend(w),
                        None => left += 1,
                    }
                }
                Err(_) => fallen += 1,
            }
        }
        let row = &rows[c];
        assert_eq!(row["fallen"], fallen, "cell {c}");
        assert_eq!(row["left_mesh"], left, "cell {c}");
        let mut q = vec![0.0; 48];
        for (j, w) in expect {
            q[j] += w / SAMPLES as f64;
        }
        let mut got = vec![0.0; 48];
        for e in row["next"].as_array().unwrap() {
            got[e[0].as_u64().unwrap() as usize] = f64::from_bits(e[1].as_u64().unwrap());
        }
        for j in 0..48 {
            assert!(
                (got[j] - q[j]).abs() < 1e-12,
                "cell {c} → {j}: {} {}",
                got[j],
                q[j]
            );
        }
        if fallen + left < SAMPLES {
            landed_somewhere += 1;
        }
    }
    assert!(
        landed_somewhere >= 6,
        "too few rows with transitions checked"
    );

    // Two shards merge into exactly the unsharded output.
    let shards = dir.join("shards").display().to_string();
    for s in ["0/2", "1/2"] {
        let mut a = chain_args(&file, &shards);
        a.extend_from_slice(&["--shard", s, "--json"]);
        json(&a);
    }
    let merged_dir = dir.join("merged").display().to_string();
    let merged = json(&["merge", &shards, "--json", "--out", &merged_dir]);
    assert_eq!(merged, v);
}

fn monte_carlo_only(dist: &str, runs: &str, max_steps: &str) -> Value {
    let dir = temp_dir("mfpt_compass", "mc");
    let out = dir.display().to_string();
    json(&[
        "mfpt",
        &compass(),
        "--param",
        "phi",
        "--distribution",
        dist,
        "--method",
        "monte-carlo",
        "--runs",
        runs,
        "--max-steps",
        max_steps,
        "--json",
        "--out",
        &out,
    ])
}

#[test]
fn compass_gait_monte_carlo_without_a_mesh_smooth_and_rough() {
    // Nearly smooth slopes (±0.75° about 3°): no walk of 100 strides falls; every run is
    // censored at the cap and no mean is given — the time is beyond the cap.
    let v = monte_carlo_only("uniform(0.0458,0.0589)", "12", "100");
    assert!(v.get("mesh").is_none() && v.get("samples").is_none(), "{v}");
    let level = &v["levels"][0];
    assert!(level.get("chain").is_none(), "{level}");
    let mc = &level["monte_carlo"];
    assert_eq!(mc["censored"], 12, "{mc}");
    assert_eq!(mc["fell"], 0);
    assert_eq!(mc["strides"], 1200);
    assert!(mc.get("mean").is_none() && mc["note"].is_string(), "{mc}");
    // Rough slopes (0.6° to 5.4°): every walk falls within a few strides.
    let v = monte_carlo_only("uniform(0.01,0.095)", "30", "300");
    let mc = &v["levels"][0]["monte_carlo"];
    assert_eq!(mc["fell"], 30, "{mc}");
    let mean = mc["mean"].as_f64().unwrap();
    assert!((3.0..10.0).contains(&mean), "{mc}");
}
