//! `saltation continue` and `saltation orbit-diagram` end to end: the built binary on small
//! continuation files written to a temporary directory. The rimless wheel continued in the slope
//! is checked point by point against its closed form (fixed point
//! [`RimlessWheel::analytic_fixed_point`], multipliers `{μ², 0}`); the simplest walker's run
//! must find the period doubling of the stable gait and switch onto the period-2 branch. The
//! JSON must have exactly the documented keys, and the CSV and figures must be written under
//! `--out`. Input errors give exit code 2 and one `error: ` line.

use saltation_models::RimlessWheel;
use serde_json::Value;
use std::path::Path;

use crate::support::{fails, floats, json, keys, model, multipliers, saltation, write};

/// A fresh temporary directory for the test `name`.
fn temp_dir(name: &str) -> std::path::PathBuf {
    crate::support::temp_dir("continue", name)
}

/// Checks the documented shape of `saltation continue --json` in full; returns the branches.
fn check_shape(v: &Value, param: &str) -> Vec<Value> {
    assert_eq!(keys(v), ["bifurcations", "branches", "param", "params"]);
    assert_eq!(v["param"], param);
    // The model's values, the continued one among them.
    assert!(v["params"][param].is_number(), "{}", v["params"]);
    let branches = v["branches"].as_array().unwrap().clone();
    for b in &branches {
        assert_eq!(keys(b), ["end", "label", "period_k", "points"]);
        assert!(b["label"].as_str().is_some_and(|l| !l.is_empty()));
        assert!(b["period_k"].as_u64().is_some_and(|k| k >= 1));
        assert!(b["end"].as_str().is_some_and(|e| !e.is_empty()));
        for p in b["points"].as_array().unwrap() {
            // Models with contact conditions (the constrained hopper) add `admissible`.
            let mut expected = vec!["multipliers", "param", "period", "stable", "x0"];
            if p.get("admissible").is_some() {
                assert!(p["admissible"].as_bool().is_some());
                expected.insert(0, "admissible");
            }
            assert_eq!(keys(p), expected);
            assert!(p["param"].as_f64().is_some());
            assert!(p["period"].as_f64().is_some_and(|t| t > 0.0));
            assert!(p["stable"].as_bool().is_some());
            assert!(!floats(&p["x0"]).is_empty());
            let ms = multipliers(&p["multipliers"]);
            let stable = ms.iter().all(|(re, im)| re.hypot(*im) < 1.0);
            assert_eq!(p["stable"].as_bool(), Some(stable));
        }
    }
    for x in v["bifurcations"].as_array().unwrap() {
        assert_eq!(keys(x), ["branch", "kind", "multipliers", "param", "x0"]);
        let kind = x["kind"].as_str().unwrap();
        assert!(
            ["fold", "period_doubling", "neimark_sacker", "grazing"].contains(&kind),
            "{kind}"
        );
        let label = x["branch"].as_str().unwrap();
        assert!(branches.iter().any(|b| b["label"] == label), "{label}");
        assert!(x["param"].as_f64().is_some());
        assert!(!floats(&x["x0"]).is_empty());
        assert!(!multipliers(&x["multipliers"]).is_empty());
    }
    branches
}

/// Every figure of a continuation run exists as PNG and SVG and is not empty.
fn check_figures(out: &Path, stem: &str, with_diagram: bool) {
    let mut names = vec!["floquet", "multipliers", "bifurcation"];
    if with_diagram {
        names.push("orbit_diagram");
    }
    for name in names {
        for ext in ["png", "svg"] {
            let f = out.join(format!("{stem}_{name}.{ext}"));
            let len = std::fs::metadata(&f)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
                .len();
            assert!(len > 1000, "{} has {len} bytes", f.display());
        }
    }
    let diagram = out.join(format!("{stem}_orbit_diagram.png"));
    assert_eq!(diagram.exists(), with_diagram, "{}", diagram.display());
}

/// The rimless wheel of `models/rimless_wheel.ron` continued in the slope from 0.2 to 0.3.
const RIMLESS: &str = r#"(
    model: RimlessWheel(lambda2: 0.6666666666666666, alpha: 0.2, spokes: 6),
    orbit: (
        stride: (ode: (rtol: 1e-14, atol: Scalar(1e-14)), t_max: 20.0),
        newton: (ftol: 1e-13, xtol: 1e-15, max_iters: 30),
    ),
    continuation: (
        param: "alpha",
        branches: [(label: "steady rolling", from: 0.2, to: 0.3, guess: [0.5])],
        settings: (
            step: 0.01,
            max_step: 0.02,
            corrector_tol: 1e-12,
        ),
    ),
)"#;

/// Checks every point of a rimless-wheel branch against the closed form at its slope.
fn check_rimless_points(branch: &Value, lambda2: f64) {
    for p in branch["points"].as_array().unwrap() {
        let alpha = p["param"].as_f64().unwrap();
        // λ², α, n.
        let wheel = [lambda2, alpha, 6.0];
        let exact = RimlessWheel::analytic_fixed_point(&wheel).expect("the wheel rolls");
        let x0 = floats(&p["x0"]);
        assert_eq!(x0.len(), 2);
        for (a, b) in x0.iter().zip(exact) {
            assert!((a - b).abs() < 1e-10, "α = {alpha}: x0 {x0:?} vs {exact:?}");
        }
        let ms = multipliers(&p["multipliers"]);
        let mu2 = RimlessWheel::mu(&wheel) * RimlessWheel::mu(&wheel);
        assert_eq!(ms.len(), 2);
        assert!(
            (ms[0].0 - mu2).abs() < 1e-10,
            "α = {alpha}: {ms:?} vs μ² = {mu2}"
        );
        assert!(
            ms[0].1 == 0.0 && ms[1].0.abs() < 1e-10 && ms[1].1 == 0.0,
            "{ms:?}"
        );
        assert_eq!(p["stable"], Value::Bool(true));
    }
}

#[test]
fn rimless_wheel_branch_matches_the_closed_form() {
    let dir = temp_dir("rimless");
    let file = write(&dir, "wheel.ron", RIMLESS);
    let out = dir.join("out");
    let outs = out.display().to_string();
    let v = json(&["continue", &file, "--json", "--out", &outs]);
    let branches = check_shape(&v, "alpha");
    assert_eq!(branches.len(), 1);
    let b = &branches[0];
    assert_eq!(b["label"], "steady rolling");
    assert_eq!(b["period_k"], 1);
    assert_eq!(b["end"], "parameter bound reached");
    let points = b["points"].as_array().unwrap();
    assert!(points.len() >= 6, "{} points", points.len());
    let params: Vec<f64> = points
        .iter()
        .map(|p| p["param"].as_f64().unwrap())
        .collect();
    assert_eq!(params[0], 0.2);
    assert_eq!(*params.last().unwrap(), 0.3, "lands on the bound");
    assert!(params.windows(2).all(|w| w[1] > w[0]), "{params:?}");
    check_rimless_points(b, 2.0 / 3.0);
    // μ does not depend on the slope: no bifurcation.
    assert_eq!(v["bifurcations"], Value::Array(vec![]));

    // The JSON file is the same object; the CSV has a header and one row per point.
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("wheel_branches.json")).unwrap())
            .unwrap();
    assert_eq!(written, v);
    let csv = std::fs::read_to_string(out.join("wheel_branches.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "branch,period_k,param,x0_0,x0_1,period,stable,\
         mu0_re,mu0_im,mu0_modulus,mu1_re,mu1_im,mu1_modulus"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), points.len());
    for (row, p) in rows.iter().zip(points) {
        assert_eq!(row.len(), 13);
        assert_eq!(row[0], "steady rolling");
        assert_eq!(row[1], "1");
        // serde_json's parser (without `float_roundtrip`) may be an ulp off: compare to 1e-15.
        let same = |csv: &str, json: &Value| {
            let (a, b) = (csv.parse::<f64>().unwrap(), json.as_f64().unwrap());
            assert!((a - b).abs() <= 1e-15 * a.abs().max(1.0), "{a} vs {b}");
        };
        same(row[2], &p["param"]);
        same(row[3], &p["x0"][0]);
        same(row[4], &p["x0"][1]);
        assert_eq!(row[6], "true");
    }
    check_figures(&out, "wheel", false);
}

#[test]
fn overrides_to_param_and_set() {
    let dir = temp_dir("overrides");
    let file = write(&dir, "wheel.ron", RIMLESS);
    let outs = dir.join("out").display().to_string();
    // --to ends every branch elsewhere (here below the start: the branch runs downwards);
    // --set changes the model (μ with it); --param names the same parameter explicitly.
    let v = json(&[
        "continue",
        &file,
        "--json",
        "--out",
        &outs,
        "--to",
        "0.15",
        "--set",
        "lambda2=0.6",
        "--param",
        "alpha",
    ]);
    let branches = check_shape(&v, "alpha");
    let points = branches[0]["points"].as_array().unwrap();
    let last = points.last().unwrap()["param"].as_f64().unwrap();
    assert_eq!(last, 0.15);
    check_rimless_points(&branches[0], 0.6);
}

#[test]
fn human_summary_lists_branches_and_files() {
    let dir = temp_dir("human");
    let file = write(&dir, "wheel.ron", RIMLESS);
    let outs = dir.join("out").display().to_string();
    let out = saltation(&["continue", &file, "--out", &outs]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "no progress bar off a terminal");
    for needle in [
        "rimless_wheel",
        "branch \"steady rolling\" (period 1)",
        "α ∈ [0.200000000000, 0.300000000000]",
        "end: parameter bound reached",
        "no bifurcations found",
        "files written",
        "wheel_branches.csv",
        "wheel_floquet.png",
    ] {
        assert!(stdout.contains(needle), "`{needle}` not in:\n{stdout}");
    }
}

/// The simplest walker near its period doubling, with a three-slope orbit diagram.
const WALKER: &str = r#"(
    model: SimplestWalker(gamma: 0.009),
    orbit: (stride: (ode: (rtol: 1e-10, atol: Scalar(1e-10)), t_max: 20.0)),
    continuation: (
        param: "gamma",
        branches: [(label: "stable gait", from: 0.0145, to: 0.0158, guess: [0.235, -0.23],
                    period_doublings: 1)],
        settings: (
            step: 0.0005,
            min_step: 1e-8,
            max_step: 0.001,
            corrector_tol: 1e-9,
        ),
        orbit_diagram: (
            from: 0.0165,
            to: 0.0245,
            count: 3,
            start: [0.2469, -0.2400, 0.4938, -0.0287],
            settings: (transient: 30, keep: 8),
        ),
    ),
)"#;

#[test]
fn walker_period_doubling_and_period_two_branch() {
    let dir = temp_dir("walker");
    let file = write(&dir, "walker.ron", WALKER);
    let out = dir.join("out");
    let outs = out.display().to_string();
    let v = json(&["continue", &file, "--json", "--out", &outs]);
    let branches = check_shape(&v, "gamma");
    assert_eq!(
        branches.len(),
        2,
        "period-1 and the switched period-2 branch"
    );
    assert_eq!(branches[0]["label"], "stable gait");
    assert_eq!(branches[1]["period_k"], 2);
    for b in &branches {
        assert_eq!(b["end"], "parameter bound reached");
    }
    let bifs = v["bifurcations"].as_array().unwrap();
    assert_eq!(bifs.len(), 1, "{bifs:?}");
    let pd = &bifs[0];
    assert_eq!(pd["kind"], "period_doubling");
    assert_eq!(pd["branch"], "stable gait");
    // Garcia et al. (1998): near 0.0151 (a plausibility window, not a reference value).
    let gamma = pd["param"].as_f64().unwrap();
    assert!((0.0150..0.0152).contains(&gamma), "{gamma}");
    let ms = multipliers(&pd["multipliers"]);
    assert!(
        ms.iter()
            .any(|(re, im)| (re + 1.0).abs() < 1e-6 && *im == 0.0),
        "{ms:?}"
    );
    // The period-2 branch starts past the flip, and its orbits are stable there.
    let p2 = branches[1]["points"].as_array().unwrap();
    assert!(p2[0]["param"].as_f64().unwrap() > gamma);
    assert_eq!(p2[0]["stable"], Value::Bool(true));
    check_figures(&out, "walker", true);
    let csv = std::fs::read_to_string(out.join("walker_orbit_diagram.csv")).unwrap();
    assert!(csv.starts_with("param,sample,value,failed_at\n"), "{csv}");
}

#[test]
fn orbit_diagram_json_and_first_failure() {
    let dir = temp_dir("diagram");
    let file = write(&dir, "walker.ron", WALKER);
    let out = dir.join("out");
    let outs = out.display().to_string();
    let v = json(&["orbit-diagram", &file, "--json", "--out", &outs]);
    assert_eq!(
        keys(&v),
        [
            "columns",
            "failure_ranges",
            "first_failure",
            "param",
            "params"
        ]
    );
    assert_eq!(v["param"], "gamma");
    let cols = v["columns"].as_array().unwrap();
    assert_eq!(cols.len(), 3);
    for c in cols {
        assert_eq!(
            keys(c),
            ["cause", "failed_at", "failure", "param", "values"]
        );
    }
    // γ = 0.0165 walks (the period-2 gait: two alternating values); 0.0205 and 0.0245 fall.
    assert_eq!(cols[0]["param"], 0.0165);
    assert!(cols[0]["failed_at"].is_null());
    let values = floats(&cols[0]["values"]);
    assert_eq!(values.len(), 8);
    assert!((values[0] - values[2]).abs() < 1e-6 && (values[0] - values[1]).abs() > 1e-3);
    // Each failed column says why, in the model's words (its fall guard), and the two
    // consecutive failures are one range.
    let fell = "the walker fell (stance leg past horizontal)";
    for c in &cols[1..] {
        assert!(c["failed_at"].as_u64().is_some(), "{c}");
        assert_eq!(c["cause"], fell, "{c}");
        assert!(c["failure"].as_str().unwrap().contains(" at t = "), "{c}");
    }
    let ranges = v["failure_ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 1, "{ranges:?}");
    assert_eq!(ranges[0]["from"], 0.0205);
    assert_eq!(ranges[0]["to"], 0.0245);
    assert_eq!(ranges[0]["count"], 2);
    assert_eq!(ranges[0]["cause"], fell);
    let first = v["first_failure"].as_f64().unwrap();
    assert_eq!(first, cols[1]["param"].as_f64().unwrap());
    assert!(out.join("walker_orbit_diagram.png").exists());
    assert!(out.join("walker_orbit_diagram.svg").exists());
    let csv = std::fs::read_to_string(out.join("walker_orbit_diagram.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 8 + 2, "{csv}");

    // Flags override the file: one slope, which walks.
    let v = json(&[
        "orbit-diagram",
        &file,
        "--json",
        "--out",
        &outs,
        "--from",
        "0.016",
        "--to",
        "0.016",
        "--count",
        "1",
    ]);
    assert_eq!(v["columns"].as_array().unwrap().len(), 1);
    assert!(v["first_failure"].is_null());

    // The human output gives the failed range with its cause.
    let out = saltation(&["orbit-diagram", &file, "--out", &outs]);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(&format!(
            "2 of 3 runs failed, in 1 range(s):\n  γ ∈ [0.020500000000, 0.024500000000] \
             (2 values): {fell}\n  every run fails from γ = 0.020500000000 on\n"
        )),
        "{stdout}"
    );
    assert!(
        !stdout.contains("isolated") && !stdout.contains("no gait"),
        "{stdout}"
    );
}

#[test]
fn input_errors_exit_2_with_one_line() {
    let dir = temp_dir("errors");
    let outs = dir.join("out").display().to_string();
    let no_section = write(
        &dir,
        "plain.ron",
        "(model: RimlessWheel(lambda2: 0.6666666666666666, alpha: 0.2, spokes: 6))",
    );
    let wheel = write(&dir, "wheel.ron", RIMLESS);
    let cmd = |extra: &[&'static str], file: &str| -> Vec<String> {
        let mut v: Vec<String> = vec!["continue".into(), file.into(), "--out".into()];
        v.push(outs.clone());
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run = |args: Vec<String>, needles: &[&str]| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&a, 2, needles);
    };
    run(
        cmd(&[], &no_section),
        &["plain.ron has no `continuation` section"],
    );
    run(
        cmd(&["--param", "gama"], &wheel),
        &["--param gama", "unknown parameter `gama`", "alpha"],
    );
    run(
        cmd(&["--to", "0.2"], &wheel),
        &["--to 0.2", "nothing to continue"],
    );
    run(
        cmd(&["--set", "alpha"], &wheel),
        &["malformed --set `alpha`"],
    );
    run(
        cmd(&[], "/nonexistent/x.ron"),
        &["cannot read /nonexistent/x.ron"],
    );
    let bad_guess = write(&dir, "guess.ron", &RIMLESS.replace("[0.5]", "[0.5, 1.0]"));
    run(cmd(&[], &bad_guess), &["steady rolling", "2 value(s)"]);
    let bad_settings = write(
        &dir,
        "set.ron",
        &RIMLESS.replace("step: 0.01", "step: -1.0"),
    );
    // Checked by the library (`ContinuationOptions::validate`), which names the field.
    run(
        cmd(&[], &bad_settings),
        &["settings.step", "finite and > 0"],
    );
    // orbit-diagram: no diagram in the file and no range on the command line.
    fails(
        &["orbit-diagram", &wheel, "--out", &outs],
        2,
        &["no `orbit_diagram`", "--from and --to"],
    );
    fails(
        &["orbit-diagram", &no_section, "--out", &outs],
        2,
        &["no `continuation` section"],
    );
    let walker = write(&dir, "walker.ron", WALKER);
    fails(
        &["orbit-diagram", &walker, "--out", &outs, "--count", "0"],
        2,
        &["--count 0"],
    );
    // Nothing was written for any of these.
    assert!(!dir.join("out").exists());
}

/// `continue` and `orbit-diagram` run the library's checks of the whole section (after the
/// command-line overrides): a bad field is exit code 2 naming it, before anything is computed
/// or written.
#[test]
fn invalid_sections_and_overrides_exit_2_naming_the_field() {
    let dir = temp_dir("invalid");
    let outs = dir.join("out").display().to_string();
    let walker_with = |name: &str, from: &str, to: &str| {
        assert!(WALKER.contains(from), "{from}");
        write(&dir, name, &WALKER.replace(from, to))
    };
    // The orbit diagram of `continue` is checked as that of `orbit-diagram` is.
    let count0 = walker_with("count0.ron", "count: 3", "count: 0");
    let component = walker_with("component.ron", "keep: 8)", "keep: 8, component: 99)");
    for (file, field) in [
        (&count0, "orbit_diagram.count"),
        (&component, "orbit_diagram.settings.component"),
    ] {
        fails(&["continue", file, "--out", &outs], 2, &[field]);
        fails(&["orbit-diagram", file, "--out", &outs], 2, &[field]);
    }
    let huge_keep = walker_with("keep.ron", "keep: 8)", "keep: 18446744073709551615)");
    fails(
        &["continue", &huge_keep, "--out", &outs],
        2,
        &["orbit_diagram.settings.keep"],
    );
    let short_start = walker_with(
        "start.ron",
        "start: [0.2469, -0.2400, 0.4938, -0.0287]",
        "start: [0.2469, -0.2400]",
    );
    fails(
        &["orbit-diagram", &short_start, "--out", &outs],
        2,
        &["orbit_diagram.start", "4 state component(s)"],
    );
    // to − from overflows: named by the flags that set it.
    let walker = write(&dir, "walker.ron", WALKER);
    fails(
        &[
            "orbit-diagram",
            &walker,
            "--out",
            &outs,
            "--from",
            "1e308",
            "--to",
            "-1e308",
        ],
        2,
        &["--from 1e308 --to -1e308", "orbit_diagram.to", "not finite"],
    );
    fails(
        &["orbit-diagram", &walker, "--out", &outs, "--from", "inf"],
        2,
        &["--from inf", "orbit_diagram.from"],
    );
    // Branches: an empty range, no points, a non-finite start.
    let wheel_with = |name: &str, from: &str, to: &str| {
        assert!(RIMLESS.contains(from), "{from}");
        write(&dir, name, &RIMLESS.replace(from, to))
    };
    let empty = wheel_with("empty.ron", "to: 0.3", "to: 0.2");
    fails(
        &["continue", &empty, "--out", &outs],
        2,
        &["branches[0].to", "nothing to continue"],
    );
    let no_points = wheel_with(
        "points.ron",
        "guess: [0.5]",
        "guess: [0.5], max_points: Some(0)",
    );
    fails(
        &["continue", &no_points, "--out", &outs],
        2,
        &["branches[0].max_points"],
    );
    let nan_from = wheel_with("nan.ron", "from: 0.2", "from: NaN");
    fails(
        &["continue", &nan_from, "--out", &outs],
        2,
        &["branches[0].from", "not finite"],
    );
    let nan_guess = wheel_with("guess.ron", "guess: [0.5]", "guess: [NaN]");
    fails(
        &["continue", &nan_guess, "--out", &outs],
        2,
        &["branches[0].guess[0]"],
    );
    fails(
        &["continue", &walker, "--out", &outs, "--to", "inf"],
        2,
        &["--to inf", "branches[0].to"],
    );
    // The model cannot be built at the start: out of the model's range.
    let steep = wheel_with("steep.ron", "from: 0.2", "from: 100.0");
    fails(
        &["continue", &steep, "--out", &outs],
        2,
        &["branches[0].from"],
    );
    // Nothing was written for any of these.
    assert!(!dir.join("out").exists());
}

/// An integer parameter (the rimless wheel's number of spokes) cannot be continued: exit 2
/// before any computation, whether it comes from `--param` or from the file.
#[test]
fn an_integer_parameter_cannot_be_continued() {
    let dir = temp_dir("spokes");
    let outs = dir.join("out").display().to_string();
    let wheel = write(&dir, "wheel.ron", RIMLESS);
    fails(
        &["continue", &wheel, "--out", &outs, "--param", "spokes"],
        2,
        &["--param spokes", "cannot be continued"],
    );
    let spokes = write(
        &dir,
        "spokes.ron",
        &RIMLESS
            .replace("param: \"alpha\"", "param: \"spokes\"")
            .replace("from: 0.2, to: 0.3", "from: 6.0, to: 8.0"),
    );
    fails(
        &["continue", &spokes, "--out", &outs],
        2,
        &["`spokes` cannot be continued"],
    );
    assert!(!dir.join("out").exists());
}

/// A run that computes nothing is not a success: a section with no branch and no orbit diagram,
/// settings the branches overwrite, or a step below the parameter's resolution are exit 2; a
/// script whose every branch fails to start (and without an orbit diagram) is exit 1, listing
/// why, with no file written.
#[test]
fn a_continuation_that_computes_nothing_fails() {
    let dir = temp_dir("nothing");
    let out = dir.join("out");
    let outs = out.display().to_string();
    let walker_with = |name: &str, edits: &[(&str, &str)]| {
        let mut text = WALKER.to_string();
        for (from, to) in edits {
            assert!(text.contains(from), "{from}");
            text = text.replace(from, to);
        }
        write(&dir, name, &text)
    };
    let diagram = WALKER
        .find("        orbit_diagram: (")
        .map(|i| &WALKER[i..WALKER.len() - "    ),\n)".len()])
        .unwrap();
    let no_diagram = (diagram, "");
    let branches = "branches: [(label: \"stable gait\", from: 0.0145, to: 0.0158, \
                    guess: [0.235, -0.23],\n                    period_doublings: 1)],";
    let empty = walker_with("empty.ron", &[no_diagram, (branches, "branches: [],")]);
    fails(
        &["continue", &empty, "--out", &outs],
        2,
        &["`branches`", "nothing to compute"],
    );
    // Set per branch from `from` and `to`: not a setting of the file.
    for (field, setting) in [
        ("`p_max`", "p_max: 0.02,"),
        ("`p_min`", "p_min: 0.0,"),
        ("`direction`", "direction: -1.0,"),
    ] {
        let file = walker_with(
            "bounds.ron",
            &[("step: 0.0005,", &format!("step: 0.0005, {setting}"))],
        );
        fails(
            &["continue", &file, "--out", &outs],
            2,
            &[
                field,
                "is not written in a file: each branch's `from` and `to` set its direction",
            ],
        );
    }
    // A step that does not change the parameter.
    let tiny = walker_with(
        "tiny.ron",
        &[
            ("step: 0.0005,", "step: 1e-300,"),
            ("min_step: 1e-8,", "min_step: 1e-300,"),
            ("max_step: 0.001,", "max_step: 1e-300,"),
        ],
    );
    fails(
        &["continue", &tiny, "--out", &outs],
        2,
        &["settings.min_step", "must be at least 1e-14"],
    );
    // Newton fails from the guess: no branch starts, exit 1, nothing written.
    let lost = walker_with("lost.ron", &[no_diagram, ("[0.235, -0.23]", "[1.0, 1.0]")]);
    fails(
        &["continue", &lost, "--out", &outs],
        1,
        &["no branch could start: \"stable gait\": "],
    );
    let written = std::fs::read_dir(&out).map_or(0, |d| d.count());
    assert_eq!(written, 0, "nothing written to --out");
}

/// `orbit-diagram` checks the model at every parameter value before computing: a value outside
/// the model's range (|γ| < π/2), or a fraction of an integer parameter (3.5 spokes, between
/// the ends), is exit 2 naming the flags that set it.
#[test]
fn orbit_diagram_values_the_model_rejects_exit_2() {
    let dir = temp_dir("diagram-range");
    let outs = dir.join("out").display().to_string();
    let model = model("simplest_walker_continuation.ron");
    fails(
        &[
            "orbit-diagram",
            &model,
            "--out",
            &outs,
            "--from",
            "0.01",
            "--to",
            "3",
            "--count",
            "3",
        ],
        2,
        &[
            "--from 0.01 --to 3",
            "`orbit_diagram.to` = 3",
            "out of range",
        ],
    );
    let wheel = write(
        &dir,
        "wheel.ron",
        &RIMLESS.replace(
            "    continuation: (",
            "    guesses: [(label: \"rolling\", u: [0.5])],\n    continuation: (",
        ),
    );
    fails(
        &[
            "orbit-diagram",
            &wheel,
            "--out",
            &outs,
            "--param",
            "spokes",
            "--from",
            "3",
            "--to",
            "4",
            "--count",
            "3",
        ],
        2,
        &["--from 3 --to 4 --count 3", "`orbit_diagram` = 3.5"],
    );
    assert!(!dir.join("out").exists());
}

#[test]
fn hopper_branch_reports_admissibility_folds_and_grazing() {
    // The shipped file cut to one short branch: from the d_G = -60 gait up through the grazing
    // point (d_G = -51.74, the foot would be pulled down at touchdown beyond it) and the fold
    // at d_G = -50.35.
    let text = std::fs::read_to_string(model("hopper_continuation.ron")).unwrap();
    let start = text.find("branches: [").unwrap();
    let end = start + text[start..].find("        ],").unwrap() + "        ],".len();
    let text = format!(
        "{}branches: [(label: \"up\", from: -60.0, to: -45.0, guess: [1.016, 1.57], \
         max_points: 30)],{}",
        &text[..start],
        &text[end..]
    );
    let dir = temp_dir("hopper");
    let path = write(&dir, "hopper_short.ron", &text);
    let out = dir.join("out");
    let v = json(&["continue", &path, "--json", "--out", out.to_str().unwrap()]);
    let branches = check_shape(&v, "d_G");
    let points = branches[0]["points"].as_array().unwrap();
    assert!(points.iter().all(|p| p["admissible"].is_boolean()));
    assert_eq!(points[0]["admissible"], Value::Bool(true));
    let kinds: Vec<(&str, f64)> = v["bifurcations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["kind"].as_str().unwrap(), x["param"].as_f64().unwrap()))
        .collect();
    let near = |kind: &str, at: f64| {
        kinds
            .iter()
            .any(|(k, p)| *k == kind && (p - at).abs() < 1e-3)
    };
    assert!(
        near("grazing", -51.7406) && near("fold", -50.3505),
        "{kinds:?}"
    );
}
