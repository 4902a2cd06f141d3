//! Models written as equations through every subcommand, against the built-in models they
//! transcribe: `orbit` (fixed point, multipliers, `solve_seconds`), `continue` (the walker's
//! period doubling located at the same slope), `orbit-diagram`, and `simulate` (the monopod's
//! contacts as events).

use crate::support::{json, model, saltation, temp_dir, write};
use serde_json::Value;

fn f64s(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

#[test]
fn orbit_of_the_walker_as_equations() {
    let eq = json(&["orbit", &model("equations/simplest_walker.ron"), "--json"]);
    let builtin = json(&["orbit", &model("simplest_walker.ron"), "--json"]);
    for (a, b) in f64s(&eq["x0"]).iter().zip(f64s(&builtin["x0"])) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
    let (pa, pb) = (
        eq["period"].as_f64().unwrap(),
        builtin["period"].as_f64().unwrap(),
    );
    assert!((pa - pb).abs() < 1e-12);
    let mods = |v: &Value| -> Vec<f64> {
        v["multipliers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["re"].as_f64().unwrap().hypot(m["im"].as_f64().unwrap()))
            .collect()
    };
    for (a, b) in mods(&eq).iter().zip(mods(&builtin)) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
    assert!(eq["solve_seconds"].as_f64().unwrap() > 0.0);
}

#[test]
fn set_a_declared_parameter_by_name() {
    let eq = json(&[
        "orbit",
        &model("equations/simplest_walker.ron"),
        "--set",
        "gamma=0.012",
        "--json",
    ]);
    let builtin = json(&[
        "orbit",
        &model("simplest_walker.ron"),
        "--set",
        "gamma=0.012",
        "--json",
    ]);
    for (a, b) in f64s(&eq["x0"]).iter().zip(f64s(&builtin["x0"])) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
}

/// One branch of the walker's stable gait up in the slope, through its period doubling.
const BRANCH: &str = "
    continuation: (
        param: \"gamma\",
        branches: [(label: \"stable gait, up\", from: 0.009, to: 0.0155, guess: [0.2, -0.2])],
        settings: (step: 0.0005, min_step: 1e-8, max_step: 0.002, max_points: 100,
                   corrector_tol: 1e-9),
        orbit_diagram: (from: 0.014, to: 0.0155, count: 3,
                        start: [0.2469, -0.2400, 0.4938, -0.0287],
                        settings: (transient: 50, keep: 8, component: 0)),
    ),
)";

/// The shipped model file with [`BRANCH`] as its continuation section.
fn with_branch(name: &str, dir: &std::path::Path) -> String {
    let text = std::fs::read_to_string(model(name)).unwrap();
    let end = text.rfind(')').unwrap();
    write(
        dir,
        &name.replace('/', "_"),
        &format!("{}{BRANCH}", &text[..end]),
    )
}

#[test]
fn continuation_in_a_declared_parameter() {
    let dir = temp_dir("equations", "continue");
    let pd = |name: &str| -> f64 {
        let file = with_branch(name, &dir);
        let out = dir.join(name.replace('/', "_") + ".out");
        let v = json(&["continue", &file, "--out", out.to_str().unwrap(), "--json"]);
        let b = v["bifurcations"].as_array().unwrap();
        assert_eq!(b.len(), 1, "{v}");
        assert_eq!(b[0]["kind"], "period_doubling");
        b[0]["param"].as_f64().unwrap()
    };
    let (a, b) = (
        pd("equations/simplest_walker.ron"),
        pd("simplest_walker.ron"),
    );
    // Garcia et al. (1998) and the built-in continuation: the stable gait period-doubles at
    // gamma = 0.01509.
    assert!((a - b).abs() < 1e-10, "{a} vs {b}");
    assert!((a - 0.015088).abs() < 1e-5, "{a}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn orbit_diagram_of_an_equation_model() {
    let dir = temp_dir("equations", "diagram");
    let file = with_branch("equations/simplest_walker.ron", &dir);
    let out = dir.join("out");
    let run = saltation(&["orbit-diagram", &file, "--out", out.to_str().unwrap()]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let csv: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with("orbit_diagram.csv"))
        .collect();
    assert_eq!(csv.len(), 1);
    let text = std::fs::read_to_string(out.join(&csv[0])).unwrap();
    assert!(text.lines().count() > 3, "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn simulate_the_monopod_as_equations() {
    let args = |f: &str| crate::monopod::study_run(&model(f));
    let (eq, builtin) = (args("equations/monopod.ron"), args("monopod.ron"));
    let events = eq["events"].as_array().unwrap();
    assert_eq!(events.len(), builtin["events"].as_array().unwrap().len());
    assert!(events.len() >= 2);
    // First touchdown: the flight is a free fall of the centre of mass, t = 1/sqrt(f*).
    let t1 = events[0]["t"].as_f64().unwrap();
    assert!((t1 - 1.0 / 0.051f64.sqrt()).abs() < 1e-10, "{t1}");
    for (a, b) in eq["samples"]
        .as_array()
        .unwrap()
        .iter()
        .zip(builtin["samples"].as_array().unwrap())
    {
        for (x, y) in f64s(&a["x"]).iter().zip(f64s(&b["x"])) {
            assert!((x - y).abs() < 1e-9, "{x} vs {y}");
        }
    }
}

#[test]
fn simulate_writes_the_named_outputs() {
    let dir = temp_dir("equations", "outputs");
    let out = dir.join("out");
    let run = saltation(&[
        "simulate",
        &model("equations/compass_gait.ron"),
        "--t-end",
        "0.5",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let csv = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("_simulation.csv"))
        .unwrap();
    let text = std::fs::read_to_string(csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (th_ns, th_s, lag) = (col("th_ns"), col("th_s"), col("interleg_angle"));
    // The output is computed from the states of the same row: th_ns - th_s.
    for line in text.lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        assert!((v[lag] - (v[th_ns] - v[th_s])).abs() < 1e-15, "{line}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `simulate --json` carries the named outputs in every sample (the compass gait's inter-leg
/// angle is `th_ns − th_s` of the same sample); a built-in model's samples have no `outputs`
/// key.
#[test]
fn simulate_json_carries_the_named_outputs() {
    let json = |file: &str| {
        let run = saltation(&["simulate", &model(file), "--t-end", "0.5", "--json"]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&run.stdout).unwrap()
    };
    let eq = json("equations/compass_gait.ron");
    let samples = eq["samples"].as_array().unwrap();
    assert!(samples.len() > 2);
    for s in samples {
        let (th_ns, th_s) = (s["x"][0].as_f64().unwrap(), s["x"][1].as_f64().unwrap());
        let lag = s["outputs"]["interleg_angle"].as_f64().unwrap();
        assert!((lag - (th_ns - th_s)).abs() < 1e-15, "{s}");
    }
    let builtin = json("bouncing_ball.ron");
    assert!(builtin["samples"][0].get("outputs").is_none());
}
