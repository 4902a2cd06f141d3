//! `saltation orbit` end to end: the built binary on the shipped model files, checked against
//! the published reference values (the walker's Table 1 of Bhounsule 2014, the rimless-wheel
//! benchmark) and against direct library solves; every error case gives one `error: ` line on
//! stderr, nothing on stdout and the documented exit code.

use saltation_orbit::find_periodic_orbit;
use saltation_scenario::load_model_file;
use serde_json::Value;

use crate::support::{fails, floats, json, keys, model, multipliers, saltation};

/// Checks that `v` is an orbit object with exactly the public keys (and multipliers with
/// exactly `re`, `im`), and returns it.
fn orbit_object(v: &Value) -> &serde_json::Map<String, Value> {
    assert_eq!(
        keys(v),
        [
            "multipliers",
            "newton_iterations",
            "params",
            "period",
            "residual",
            "shooting",
            "solve_seconds",
            "stable",
            "x0"
        ]
    );
    let obj = v.as_object().expect("a JSON object");
    multipliers(&obj["multipliers"]);
    assert!(obj["period"].as_f64().unwrap() > 0.0);
    assert!(obj["residual"].as_f64().unwrap() < 1e-12);
    assert!(obj["newton_iterations"].as_u64().is_some());
    assert!(obj["solve_seconds"].as_f64().unwrap() > 0.0);
    obj
}

/// A model file in the temporary directory, unique to this test process.
fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("saltation-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn walker_stable_gait_matches_table_1() {
    let v = json(&["orbit", &model("simplest_walker.ron"), "--json"]);
    let o = orbit_object(&v);
    let x0 = floats(&o["x0"]);
    assert_eq!(x0.len(), 4, "x0 is the full state");
    assert!((x0[0] - 0.200310900544287).abs() < 1e-11, "{}", x0[0]);
    assert_eq!(o["stable"], Value::Bool(true));
    let mu = multipliers(&o["multipliers"]);
    assert_eq!(mu.len(), 4);
    // Complex pair −0.190099841069399 ± 0.557598776679489 i (Table 1).
    assert!((mu[0].0 + 0.190099841069399).abs() < 1e-10, "{mu:?}");
    assert!((mu[0].1.abs() - 0.557598776679489).abs() < 1e-10, "{mu:?}");
}

#[test]
fn walker_unstable_gait_from_guess() {
    let v = json(&[
        "orbit",
        &model("simplest_walker.ron"),
        "--guess",
        "0.19,-0.2",
        "--json",
    ]);
    let o = orbit_object(&v);
    assert_eq!(o["stable"], Value::Bool(false));
    let mu = multipliers(&o["multipliers"]);
    assert!((mu[0].0 - 4.003864358929642).abs() < 1e-10, "{mu:?}");
    assert_eq!(mu[0].1, 0.0);
    let x0 = floats(&o["x0"]);
    assert!((x0[0] - 0.193937369810184).abs() < 1e-11, "{x0:?}");
    // The same gait selected by its label in the file.
    let by_label = json(&[
        "orbit",
        &model("simplest_walker.ron"),
        "--guess-label",
        "unstable (short-period) gait",
        "--json",
    ]);
    // Everything but the wall time.
    let without_time = |v: &Value| {
        let mut v = v.clone();
        v.as_object_mut().unwrap().remove("solve_seconds");
        v
    };
    assert_eq!(without_time(&by_label), without_time(&v));
}

#[test]
fn rimless_wheel_benchmark() {
    let v = json(&["orbit", &model("rimless_wheel.ron"), "--json"]);
    let o = orbit_object(&v);
    let x0 = floats(&o["x0"]);
    assert_eq!(x0.len(), 2);
    assert!((x0[0] + std::f64::consts::PI / 6.0).abs() < 1e-12, "{x0:?}");
    assert!((x0[1] - 0.460341126609458).abs() < 1e-11, "{x0:?}");
    assert_eq!(o["stable"], Value::Bool(true));
    let mu = multipliers(&o["multipliers"]);
    assert!((mu[0].0 - 4.0 / 9.0).abs() < 1e-10, "{mu:?}");
}

#[test]
fn set_changes_the_answer_as_the_library_does() {
    let path = model("simplest_walker.ron");
    let base = json(&["orbit", &path, "--json"]);
    let v = json(&["orbit", &path, "--set", "gamma=0.012", "--json"]);
    let o = orbit_object(&v);
    let x0 = floats(&o["x0"]);
    assert!(
        (x0[0] - floats(&base["x0"])[0]).abs() > 1e-3,
        "γ had no effect"
    );

    let file = load_model_file(path.as_ref()).unwrap();
    let m = file.model.with_param("gamma", 0.012).unwrap();
    let lib = find_periodic_orbit(&m, &file.guesses[0].u, &file.orbit).unwrap();
    for (a, b) in x0.iter().zip(&lib.x0) {
        assert!((a - b).abs() <= 1e-14, "{x0:?} vs {:?}", lib.x0);
    }
    assert!((o["period"].as_f64().unwrap() - lib.period).abs() <= 1e-13);
    assert_eq!(o["stable"].as_bool().unwrap(), lib.stable);
    for (m, l) in multipliers(&o["multipliers"]).iter().zip(&lib.multipliers) {
        assert!((m.0 - l.re).abs() <= 1e-13 && (m.1 - l.im).abs() <= 1e-13);
    }
}

#[test]
fn all_guesses_as_a_json_array_and_as_tables() {
    let path = model("simplest_walker.ron");
    let v = json(&["orbit", &path, "--all", "--json"]);
    let orbits = v.as_array().expect("an array with --all");
    assert_eq!(orbits.len(), 2);
    let stable: Vec<bool> = orbits
        .iter()
        .map(|o| orbit_object(o)["stable"].as_bool().unwrap())
        .collect();
    assert_eq!(stable, [true, false]);

    let out = saltation(&["orbit", &path, "--all"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "simplest_walker",
        "gamma = 0.009",
        "dθ/dt",
        "|μ|",
        "period",
        "wall time",
    ] {
        assert!(text.contains(needle), "`{needle}` missing:\n{text}");
    }
    assert_eq!(text.matches("stable  ").count(), 2, "{text}");
    assert!(text.contains("0.20031090054"), "{text}");
    assert!(text.contains("4.0038643589"), "{text}");
}

#[test]
fn human_table_for_the_rimless_wheel() {
    let out = saltation(&["orbit", &model("rimless_wheel.ron")]);
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    let text = String::from_utf8(out.stdout).unwrap();
    for needle in [
        "rimless_wheel",
        "spokes = 6",
        "steady rolling",
        "u = [dθ/dt = ",
        "-0.523598775598",
        "0.46034112660945",
        "0.44444444444",
        "yes",
        "Newton",
    ] {
        assert!(text.contains(needle), "`{needle}` missing:\n{text}");
    }
}

#[test]
fn input_errors_exit_2_with_one_line() {
    let walker = model("simplest_walker.ron");
    fails(
        &["orbit", "/nonexistent/model.ron"],
        2,
        &["cannot read", "/nonexistent/model.ron"],
    );

    let syntax = temp_file(
        "syntax.ron",
        "(\n  model: SimplestWalker(gamma: 0.01),\n  guesses: [(label: \"a\", u: [0.2, -0.2)],\n)\n",
    );
    fails(&["orbit", &syntax], 2, &[&format!("{syntax}:3:")]);
    let unknown_model = temp_file("model.ron", "(\n  model: Walker(gamma: 0.01),\n)\n");
    fails(
        &["orbit", &unknown_model],
        2,
        &[&format!("{unknown_model}:2:10"), "Walker"],
    );
    let unknown_field = temp_file("field.ron", "(\n  model: SimplestWalker(gama: 0.01),\n)\n");
    fails(
        &["orbit", &unknown_field],
        2,
        &[&format!("{unknown_field}:2:25"), "gama"],
    );
    let no_guess = temp_file("noguess.ron", "(model: SimplestWalker(gamma: 0.009))\n");
    fails(&["orbit", &no_guess], 2, &["no initial guesses", "--guess"]);
    let bad_settings = temp_file(
        "settings.ron",
        "(model: SimplestWalker(gamma: 0.009), guesses: [(label: \"a\", u: [0.2, -0.2])], orbit: (stride: (t_max: -1.0)))\n",
    );
    fails(&["orbit", &bad_settings], 2, &["t_max"]);

    fails(
        &["orbit", &walker, "--set", "gama=0.01"],
        2,
        &["gama", "known: gamma"],
    );
    fails(
        &["orbit", &walker, "--set", "gamma"],
        2,
        &["--set", "NAME=VALUE"],
    );
    fails(
        &["orbit", &walker, "--set", "gamma=abc"],
        2,
        &["--set", "abc", "not a number"],
    );
    fails(
        &["orbit", &walker, "--guess", "0.2"],
        2,
        &["--guess", "1 value", "2 reduced"],
    );
    fails(
        &["orbit", &walker, "--guess", "0.2,-0.2,0.1"],
        2,
        &["3 value", "2 reduced"],
    );
    fails(
        &["orbit", &walker, "--guess", "0.2,x"],
        2,
        &["--guess", "`x` is not a number"],
    );
    fails(
        &["orbit", &walker, "--guess-label", "trot"],
        2,
        &["trot", "stable (long-period) gait"],
    );
    for f in [syntax, unknown_model, unknown_field, no_guess, bad_settings] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn computation_failures_exit_1_with_one_line() {
    let walker = model("simplest_walker.ron");
    // From here the swing leg never strikes: the walker falls (its fall guard fires).
    fails(
        &["orbit", &walker, "--guess", "1.2,0.5"],
        1,
        &["the walker fell", "--guess"],
    );
    let short = temp_file(
        "short.ron",
        "(model: SimplestWalker(gamma: 0.009), guesses: [(label: \"a\", u: [0.2, -0.2])], orbit: (stride: (t_max: 0.5)))\n",
    );
    fails(&["orbit", &short], 1, &["guess \"a\"", "within t = 0.5"]);
    let one_step = temp_file(
        "onestep.ron",
        "(model: SimplestWalker(gamma: 0.009), guesses: [(label: \"a\", u: [0.2, -0.2])], orbit: (newton: (max_iters: 1)))\n",
    );
    fails(
        &["orbit", &one_step],
        1,
        &[
            "Newton shooting failed",
            // The reduced coordinates are named after the states the section reads.
            "guess \"a\" of",
            "(u = [θ = 0.2, dθ/dt = -0.2])",
            "last iterate (iteration 1) u = [θ = ",
        ],
    );
    for f in [short, one_step] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn usage_errors_are_clap_errors() {
    let out = saltation(&[
        "orbit",
        &model("simplest_walker.ron"),
        "--all",
        "--guess",
        "0.2,-0.2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = saltation(&["orbit"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn hopper_orbit_has_phases_and_admissibility() {
    use saltation_models::hopper::{closed_form::periodic_orbit, HopperParams};
    for (file, set, t_guess) in [
        ("hopper.ron", "d_G=-80", 0.3),
        ("hopper.ron", "d_G=-60", 0.27),
        ("hopper_unconstrained.ron", "d_G=-80", 0.3),
    ] {
        let v = json(&["orbit", &model(file), "--set", set, "--json"]);
        assert_eq!(
            keys(&v),
            [
                "admissible",
                "multipliers",
                "newton_iterations",
                "params",
                "period",
                "phases",
                "residual",
                "shooting",
                "solve_seconds",
                "stable",
                "x0"
            ]
        );
        let d_g: f64 = set[4..].parse().unwrap();
        // The JSON repeats the parameter values it was computed at, --set applied.
        assert_eq!(v["params"]["d_G"], d_g, "{file}");
        let exact = periodic_orbit(
            &HopperParams {
                d_g,
                ..HopperParams::default()
            },
            t_guess,
        )
        .unwrap();
        let phases = v["phases"].as_array().unwrap();
        let names: Vec<&str> = phases.iter().map(|p| p["mode"].as_str().unwrap()).collect();
        assert_eq!(names, ["flight", "ground"]);
        let t_f = phases[0]["duration"].as_f64().unwrap();
        let t_g = phases[1]["duration"].as_f64().unwrap();
        assert!((t_f - exact.t_flight).abs() < 1e-11, "{file} {set}: {t_f}");
        assert!((t_g - exact.t_ground).abs() < 1e-11, "{file} {set}: {t_g}");
        let mu = multipliers(&v["multipliers"])[0].0;
        assert!((mu - exact.multiplier).abs() < 1e-11, "{file} {set}: {mu}");
        // Both forms judge admissibility: the constrained layer its contacts, the
        // unconstrained hopper its declared ground force and lower-block height.
        assert_eq!(v["admissible"], Value::Bool(true));
    }
    // Just past the grazing point of the d_G branch: the foot would have to be pulled down
    // right after touchdown.
    let v = json(&[
        "orbit",
        &model("hopper.ron"),
        "--set",
        "d_G=-51.7",
        "--guess",
        "1.0149,1.468",
        "--json",
    ]);
    assert_eq!(v["admissible"], Value::Bool(false));
    let why = v["violation"].as_str().unwrap();
    assert!(
        why.contains("foot pulls") && why.contains("ground"),
        "{why}"
    );
    // The same orbit of the unconstrained hopper fails its declared ground force, located at
    // the start of the ground phase (right after touchdown, at the flight time).
    let v = json(&[
        "orbit",
        &model("hopper_unconstrained.ron"),
        "--set",
        "d_G=-51.7",
        "--guess",
        "1.0149,1.468",
        "--json",
    ]);
    assert_eq!(v["admissible"], Value::Bool(false));
    let at = &v["violation_at"];
    assert_eq!(at["condition"], "ground force");
    assert_eq!(at["mode"], "ground");
    assert_eq!(at["kind"], "negative");
    let t_flight = v["phases"][0]["duration"].as_f64().unwrap();
    assert!((at["t"].as_f64().unwrap() - t_flight).abs() < 1e-9, "{at}");
    assert!(at["value"].as_f64().unwrap() < 0.0);
    assert_eq!(floats(&at["state"]).len(), 4);
    assert!(v["violation"].as_str().unwrap().contains("ground force"));
}

/// Single and multiple shooting (one segment per phase, three pieces per phase) give the same
/// orbit and multipliers to 1e-10 on both gaits of the simplest walker and on the hopper (two
/// phases), and the JSON says which shooting was used.
#[test]
fn single_and_multiple_shooting_agree_on_the_walker_and_the_hopper() {
    let walker = model("simplest_walker.ron");
    let hopper = model("hopper_unconstrained.ron");
    let runs: [(&str, &[&str]); 3] = [
        (&walker, &[]),
        (&walker, &["--guess-label", "unstable (short-period) gait"]),
        (&hopper, &[]),
    ];
    for (file, extra) in runs {
        let run = |shooting: &str| {
            let mut args = vec!["orbit", file, "--json", "--shooting", shooting];
            args.extend_from_slice(extra);
            let v = json(&args);
            assert_eq!(v["shooting"], shooting, "{file} {extra:?}");
            v
        };
        let single = run("single");
        let (x0, mu) = (floats(&single["x0"]), multipliers(&single["multipliers"]));
        for shooting in ["phases", "3"] {
            let v = run(shooting);
            let what = format!("{file} {extra:?} --shooting {shooting}");
            for (a, b) in floats(&v["x0"]).iter().zip(&x0) {
                assert!((a - b).abs() < 1e-10, "{what}: x0 {a} vs {b}");
            }
            let period = v["period"].as_f64().unwrap();
            assert!(
                (period - single["period"].as_f64().unwrap()).abs() < 1e-10,
                "{what}"
            );
            let m = multipliers(&v["multipliers"]);
            assert_eq!(m.len(), mu.len());
            for (a, b) in m.iter().zip(&mu) {
                assert!(
                    (a.0 - b.0).abs() < 1e-10 && (a.1.abs() - b.1.abs()).abs() < 1e-10,
                    "{what}: multipliers {m:?} vs {mu:?}"
                );
            }
            assert_eq!(v["stable"], single["stable"], "{what}");
            assert!(v["residual"].as_f64().unwrap() < 1e-12, "{what}");
        }
    }
}
