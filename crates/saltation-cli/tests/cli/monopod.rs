//! `saltation simulate` on the monopod (models/monopod.ron) end to end: the study's command
//! (Radau5 at 1e-12, samples at the six times of the study) gives the samples asked for and
//! touchdown/lift-off events in alternation, the first at the closed-form touchdown time
//! `1/√f*`, and samples that agree with a tighter library run (DOP853 at 1e-13) and with the
//! if-else strategy.

use saltation_hybrid::{simulate, Bound, SimulateOptions, StrideOptions};
use saltation_models::monopod::{Monopod, Strategy};
use saltation_models::Model;
use saltation_ode::{Method, SolverOptions};
use saltation_scenario::load_model_file;
use serde_json::Value;
use std::path::Path;

use crate::support::{floats, json, keys, model, temp_dir, write};

const TIMES: [f64; 6] = [5.0, 10.0, 20.0, 30.0, 40.0, 50.0];

/// The reference-grade command on a monopod file (also used for the monopod written
/// as equations).
pub(crate) fn study_run(file: &str) -> Value {
    json(&[
        "simulate",
        file,
        "--method",
        "radau5",
        "--rtol",
        "1e-12",
        "--atol",
        "1e-12",
        "--at",
        "5,10,20,30,40,50",
        "--json",
    ])
}

/// The events of a run as `(t, from, to)`, checking each has exactly the public keys.
fn events(v: &Value) -> Vec<(f64, u64, u64)> {
    v["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(keys(e), ["from", "guard", "t", "to"]);
            assert_eq!(e["guard"].as_u64(), Some(0));
            (
                e["t"].as_f64().unwrap(),
                e["from"].as_u64().unwrap(),
                e["to"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `y1` at [`TIMES`] by the library: `model` from `Q0` with DOP853 at 1e-13.
fn library_y1(model: &Bound<Monopod>) -> Vec<f64> {
    let opts = SimulateOptions {
        stride: StrideOptions {
            method: Method::Dop853,
            ode: SolverOptions {
                max_steps: 1_000_000,
                ..SolverOptions::with_tol(1e-13)
            },
            ..StrideOptions::default()
        },
        dt: None,
        t_end: Some(Monopod::T_END),
        at: Some(TIMES.to_vec()),
        ..SimulateOptions::default()
    };
    let trace = simulate(model, &Monopod::Q0, &opts).unwrap();
    assert!(trace.failure.is_none(), "{:?}", trace.failure);
    trace.x.iter().map(|x| x[0]).collect()
}

#[test]
fn study_command_gives_samples_and_alternating_events() {
    let v = study_run(&model("monopod.ron"));
    assert_eq!(v["method"], "radau5");
    assert!(v["error"].is_null(), "{}", v["error"]);
    assert_eq!(v["t_end"].as_f64(), Some(50.0));
    let samples = v["samples"].as_array().unwrap();
    assert_eq!(samples.len(), TIMES.len());
    for (s, t) in samples.iter().zip(TIMES) {
        assert_eq!(keys(s), ["mode", "t", "x"]);
        assert_eq!(s["t"].as_f64(), Some(t));
        let x = floats(&s["x"]);
        assert_eq!(x.len(), 4);
        assert!(x.iter().all(|v| v.is_finite()));
        // The mode is stance exactly when the toe is in the ground.
        let mode = s["mode"].as_u64().unwrap();
        assert_eq!(
            mode == 1,
            x[0] <= 0.0,
            "t = {t}: mode {mode}, y1 = {}",
            x[0]
        );
    }
    let ev = events(&v);
    assert!(!ev.is_empty());
    for (k, &(t, from, to)) in ev.iter().enumerate() {
        let want = if k % 2 == 0 { (0, 1) } else { (1, 0) };
        assert_eq!((from, to), want, "event {k} at t = {t}");
        assert!(t > 0.0 && t < 50.0);
    }
    assert!(ev.windows(2).all(|w| w[1].0 > w[0].0));
    assert_eq!(
        v["mode_end"].as_u64().unwrap(),
        if ev.len() % 2 == 1 { 1 } else { 0 }
    );
    // From Q0 (spring at rest length, at rest) toe and body fall together with acceleration
    // f*: the first touchdown is at 1/√f*.
    let touchdown = 1.0 / 0.051f64.sqrt();
    assert!(
        (ev[0].0 - touchdown).abs() <= 1e-10,
        "{} vs {touchdown}",
        ev[0].0
    );
    // The samples against DOP853 at 1e-13 (events) and the if-else strategy: the bound of the
    // model tests (1e-8 over the 50 time units at these tolerances; 11 contacts here).
    let y1: Vec<f64> = samples
        .iter()
        .map(|s| s["x"][0].as_f64().unwrap())
        .collect();
    for strategy in Strategy::ALL {
        let reference = library_y1(&Monopod::new(strategy).at(Monopod::NOMINAL));
        for ((a, b), t) in y1.iter().zip(&reference).zip(TIMES) {
            assert!(
                (a - b).abs() <= 1e-8,
                "{} at t = {t}: {a} vs {b}",
                strategy.name()
            );
        }
    }
}

#[test]
fn if_else_file_gives_no_events_and_the_same_samples() {
    let path = model("monopod.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen(
        "f: 0.051, strategy: Events",
        "f: 0.051, strategy: IfElse",
        1,
    );
    assert_ne!(edited, text);
    let dir = temp_dir("monopod", "if-else");
    let file = write(&dir, "monopod_if_else.ron", &edited);
    let m = load_model_file(Path::new(&file)).unwrap().model;
    assert_eq!(
        m,
        Model::Monopod(Monopod::new(Strategy::IfElse).at(Monopod::NOMINAL))
    );
    let events_run = study_run(&path);
    let if_else_run = study_run(&file);
    assert!(events(&if_else_run).is_empty());
    assert_eq!(if_else_run["mode_end"].as_u64(), Some(0));
    let samples = |v: &Value| -> Vec<Vec<f64>> {
        v["samples"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| floats(&s["x"]))
            .collect()
    };
    for (a, b) in samples(&events_run).iter().zip(&samples(&if_else_run)) {
        assert!((a[0] - b[0]).abs() <= 1e-8, "{a:?} vs {b:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
