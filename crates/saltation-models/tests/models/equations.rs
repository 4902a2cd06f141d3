//! Equation models (`models/equations/*.ron`) against the built-in models they transcribe:
//! the same orbits, periods, stride Jacobians and multipliers (≤ 1e-12), or the same
//! trajectory through the same events, from the same guesses and solver settings.

use saltation_hybrid::{simulate, EvalModel, SimulateOptions};
use saltation_models::Model;
use saltation_orbit::{find_periodic_orbit, PeriodicOrbit};
use saltation_scenario::{load_model_file, ModelFile};
use std::path::Path;

fn file(name: &str) -> ModelFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(name);
    load_model_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn orbit(f: &ModelFile, guess: usize) -> PeriodicOrbit {
    find_periodic_orbit(&f.model, &f.guesses[guess].u, &f.orbit)
        .unwrap_or_else(|e| panic!("{}: {e}", f.model.name()))
}

/// Relative closeness with a floor of 1 on the scale.
fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(
        (a - b).abs() <= tol * a.abs().max(1.0),
        "{what}: {a} vs {b} (difference {:.1e})",
        (a - b).abs()
    );
}

/// Same fixed point, period, stride Jacobian and multipliers.
fn same_orbit(eq: &PeriodicOrbit, builtin: &PeriodicOrbit, tol: f64) {
    for (a, b) in eq.x0.iter().zip(&builtin.x0) {
        close(*a, *b, tol, "fixed point");
    }
    close(eq.period, builtin.period, tol, "period");
    assert_eq!(eq.jacobian.shape(), builtin.jacobian.shape());
    for (a, b) in eq.jacobian.iter().zip(builtin.jacobian.iter()) {
        close(*a, *b, tol, "stride Jacobian");
    }
    assert_eq!(eq.multipliers.len(), builtin.multipliers.len());
    for (a, b) in eq.multipliers.iter().zip(&builtin.multipliers) {
        close(a.re, b.re, tol, "multiplier (re)");
        close(a.im.abs(), b.im.abs(), tol, "multiplier (im)");
    }
    assert_eq!(eq.stable, builtin.stable);
}

/// Guards are named as the file names them (they are numbered inside), and a built-in
/// model's by its guard type's variants.
#[test]
fn guards_are_named_as_written() {
    let eq = file("equations/simplest_walker.ron");
    let names: Vec<String> = (0..eq.model.guards(0))
        .map(|j| eq.model.guard_name(0, j))
        .collect();
    assert_eq!(names, ["heelstrike", "fall"]);
    let builtin = file("simplest_walker.ron");
    let names: Vec<String> = (0..builtin.model.guards(0))
        .map(|j| builtin.model.guard_name(0, j))
        .collect();
    assert_eq!(names, ["HeelStrike", "Fall"]);
}

#[test]
fn simplest_walker_both_gaits() {
    let (eq, builtin) = (
        file("equations/simplest_walker.ron"),
        file("simplest_walker.ron"),
    );
    assert!(matches!(eq.model, Model::Equations(_)));
    for g in 0..2 {
        same_orbit(&orbit(&eq, g), &orbit(&builtin, g), 1e-12);
    }
}

#[test]
fn simplest_walker_at_another_slope() {
    let eq = file("equations/simplest_walker.ron");
    let builtin = file("simplest_walker.ron");
    let set = |f: &ModelFile| ModelFile {
        model: f.model.with_param("gamma", 0.012).unwrap(),
        ..f.clone()
    };
    same_orbit(&orbit(&set(&eq), 0), &orbit(&set(&builtin), 0), 1e-12);
}

#[test]
fn rimless_wheel() {
    let (eq, builtin) = (
        file("equations/rimless_wheel.ron"),
        file("rimless_wheel.ron"),
    );
    same_orbit(&orbit(&eq, 0), &orbit(&builtin, 0), 1e-12);
}

#[test]
fn van_der_pol() {
    let (eq, builtin) = (file("equations/van_der_pol.ron"), file("van_der_pol.ron"));
    same_orbit(&orbit(&eq, 0), &orbit(&builtin, 0), 1e-12);
}

#[test]
fn hopper_unconstrained() {
    let eq = file("equations/hopper_unconstrained.ron");
    let builtin = file("hopper_unconstrained.ron");
    same_orbit(&orbit(&eq, 0), &orbit(&builtin, 0), 1e-12);
    // And at another ground damping, set by name.
    let set = |f: &ModelFile| ModelFile {
        model: f.model.with_param("d_G", -60.0).unwrap(),
        ..f.clone()
    };
    same_orbit(&orbit(&set(&eq), 0), &orbit(&set(&builtin), 0), 1e-12);
    // Both forms are recognised as affine in every mode (their strides take `Φ = e^{Aτ}`),
    // and the equation form's claim holds at its orbit.
    for mode in 0..2 {
        assert!(eq.model.flow_jacobian_is_constant(mode));
        assert!(builtin.model.flow_jacobian_is_constant(mode));
        let o = orbit(&eq, 0);
        let Model::Equations(bound) = &eq.model else {
            panic!("an equation model")
        };
        saltation_hybrid::ad::check_hand_written(bound, mode, 0.0, &o.x0, &o.u0, 1e-12).unwrap();
    }
    // The walker's pendulum is not affine.
    assert!(!file("equations/simplest_walker.ron")
        .model
        .flow_jacobian_is_constant(0));
}

/// Same trajectory: samples and event times of a simulation from the file's initial state,
/// both integrated at rtol = atol = 1e-14 (at the files' looser tolerances the two runs differ
/// by their integration error, ~tol, because rounding-level differences in the vector fields
/// shift the step sequence).
fn same_trajectory(eq: &ModelFile, builtin: &ModelFile, t_end: f64, tol: f64) {
    let run = |f: &ModelFile| {
        let init = f.initial.as_ref().unwrap();
        let mut stride = f.orbit.stride.clone();
        stride.ode = saltation_ode::SolverOptions::with_tol(1e-14);
        let opts = SimulateOptions {
            stride,
            t_end: Some(t_end),
            dt: Some(0.25),
            ..SimulateOptions::default()
        };
        let tr = simulate(&f.model, &init.x, &opts).unwrap();
        assert!(tr.failure.is_none(), "{:?}", tr.failure);
        tr
    };
    let (a, b) = (run(eq), run(builtin));
    assert_eq!(a.events.len(), b.events.len());
    assert!(!a.events.is_empty());
    for (x, y) in a.events.iter().zip(&b.events) {
        close(x.t, y.t, tol, "event time");
        assert_eq!((x.mode, x.target), (y.mode, y.target));
    }
    assert_eq!(a.t.len(), b.t.len());
    for (x, y) in a.x.iter().zip(&b.x) {
        for (p, q) in x.iter().zip(y) {
            close(*p, *q, tol, "state");
        }
    }
}

#[test]
fn bouncing_ball_trajectory() {
    let (eq, builtin) = (
        file("equations/bouncing_ball.ron"),
        file("bouncing_ball.ron"),
    );
    same_trajectory(&eq, &builtin, 3.0, 1e-12);
}

#[test]
fn monopod_trajectory() {
    let (eq, builtin) = (file("equations/monopod.ron"), file("monopod.ron"));
    same_trajectory(&eq, &builtin, 50.0, 1e-12);
}

#[test]
fn parameters_by_name_with_bounds() {
    let eq = file("equations/simplest_walker.ron");
    assert_eq!(eq.model.param_names(), ["gamma"]);
    assert_eq!(eq.model.param("gamma").unwrap(), 0.009);
    let e = eq.model.with_param("gama", 0.01).unwrap_err().to_string();
    assert!(
        e.contains("unknown parameter `gama`") && e.contains("gamma"),
        "{e}"
    );
    let e = eq.model.with_param("gamma", 2.0).unwrap_err().to_string();
    assert!(
        e.contains("out of range") && e.contains("gamma <= 1.57"),
        "{e}"
    );
    let e = eq
        .model
        .with_param("gamma", f64::NAN)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not finite"), "{e}");
}

/// An equation model is written back as its text with the current parameter values, which
/// reads as the model at those values (and writes back the same).
#[test]
fn written_back_with_its_values() {
    let eq = file("equations/simplest_walker.ron");
    let m = eq.model.with_param("gamma", 0.012).unwrap();
    let text = ron::to_string(&m).unwrap();
    assert!(text.contains("value:0.012"), "{text}");
    let back: Model = ron::from_str(&text).unwrap();
    assert_eq!(back.param("gamma").unwrap(), 0.012);
    assert_eq!(ron::to_string(&back).unwrap(), text);
}
