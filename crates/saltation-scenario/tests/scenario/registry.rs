//! A user's own Rust model in a model file through the registry: the rimless wheel written as a
//! `HybridModel` outside the library, registered as `Wheel`, read with parameters by name and
//! solved; its orbit checked against the closed form `θ̇₀² = 4 λ² μ² sin(π/n) sin α / (1 − μ²)`
//! (Coleman), so the file's values demonstrably reach the formulas.

use saltation_hybrid::{Bound, EvalModel, GuardSpec, HybridModel, Param, Scalar};
use saltation_models::{Model, Registry};
use saltation_orbit::find_periodic_orbit;
use saltation_scenario::{parse_model_file, FileError};
use std::f64::consts::{PI, TAU};

#[derive(Clone)]
struct Wheel;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strike {
    Spoke,
}

const PARAMS: &[Param] = &[
    Param::new("lambda2", 2.0 / 3.0).range(0.0, 1.0),
    Param::new("alpha", 0.2).open_range(0.0, 1.5),
    Param::new("spokes", 6.0).range(3.0, 1000.0).integer(),
];

impl HybridModel for Wheel {
    type Guard = Strike;
    fn name(&self) -> &str {
        "wheel"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _: usize) -> bool {
        true
    }
    fn flow<D: Scalar>(&self, p: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = p[0] * (x[0] + p[1]).sin();
    }
    fn guards(&self, _: usize) -> &[Strike] {
        &[Strike::Spoke]
    }
    fn describe(&self, _: usize, g: Strike) -> GuardSpec {
        match g {
            Strike::Spoke => GuardSpec::to(0).rising(),
        }
    }
    fn guard<D: Scalar>(&self, p: &[D], _: usize, g: Strike, x: &[D]) -> D {
        match g {
            Strike::Spoke => x[0] - p[2].recip() * PI,
        }
    }
    fn reset<D: Scalar>(&self, p: &[D], _: usize, g: Strike, x: &[D], out: &mut [D]) {
        match g {
            Strike::Spoke => {
                let mu = -(p[0] * (-(p[2].recip() * TAU).cos() + 1.0)) + 1.0;
                out[0] = -x[0];
                out[1] = mu * x[1];
            }
        }
    }
}

fn registry() -> Registry {
    Registry::builtin()
        .with("Wheel", Bound::new(Wheel))
        .unwrap()
}

const FILE: &str =
    "(\n  model: Wheel(alpha: 0.25, spokes: 8),\n  guesses: [(label: \"g\", u: [-0.4, 0.5])],\n)\n";

#[test]
fn a_registered_model_is_read_by_name_and_solved() {
    let _on = registry().install();
    let mf = parse_model_file(FILE, "wheel.ron").unwrap();
    let Model::Custom(c) = &mf.model else {
        panic!("{:?}", mf.model)
    };
    assert_eq!(c.name, "Wheel");
    assert_eq!(mf.model.param_value(1), Some(0.25));
    assert_eq!(mf.model.param_value(0), Some(2.0 / 3.0));
    let orbit = find_periodic_orbit(&mf.model, &mf.guesses[0].u, &mf.orbit).unwrap();
    let (l2, a, n) = (2.0 / 3.0, 0.25f64, 8.0);
    let mu = 1.0 - l2 * (1.0 - (TAU / n).cos());
    let rate = (4.0 * l2 * mu * mu * (PI / n).sin() * a.sin() / (1.0 - mu * mu)).sqrt();
    assert!((orbit.x0[0] + PI / n).abs() < 1e-10, "{:?}", orbit.x0);
    assert!((orbit.x0[1] - rate).abs() < 1e-9, "{} {rate}", orbit.x0[1]);
    // Parameters set by name afterwards, as `--set` does.
    let mut m = mf.model.clone();
    m.set_param_value(1, 0.3).unwrap();
    assert_eq!(m.param_value(1), Some(0.3));
}

#[test]
fn unknown_names_and_bad_values_are_located_errors() {
    let _on = registry().install();
    let located = |text: &str, what: &str| match parse_model_file(text, "w.ron") {
        Err(FileError::Parse { line, message, .. }) => {
            assert_eq!(line, 2, "{message}");
            assert!(message.contains(what), "{message}");
        }
        Err(e) => {
            let m = e.to_string();
            assert!(m.contains(what), "{m}");
        }
        Ok(_) => panic!("accepted: {text}"),
    };
    located("(\n  model: Wheel(alfa: 0.25),\n)\n", "alfa");
    located("(\n  model: Wheel(spokes: 6.5),\n)\n", "spokes");
    located("(\n  model: Wheal(alpha: 0.25),\n)\n", "Wheel");
}

#[test]
fn without_the_registry_the_name_is_unknown_and_built_in_names_are_refused() {
    match parse_model_file(FILE, "w.ron") {
        Err(FileError::Parse { message, .. }) => {
            assert!(message.contains("unknown variant `Wheel`"), "{message}");
            assert!(message.contains("SimplestWalker"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    assert!(Registry::builtin()
        .with("SimplestWalker", Bound::new(Wheel))
        .is_err());
}
