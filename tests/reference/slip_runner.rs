//! The example's user-written SLIP runner (`examples/slip_runner/model.rs`) checked by
//! independent means: its multiplier against central differences of the apex map, energy
//! conservation over a stride, exact `∂F/∂p` for every parameter (the chart depends on `m`, `g`
//! and `E`) against extrapolated central differences, the period doubling located by
//! continuation against a direct solve of `μ(α) = −1`, and the failure guard with its enabling
//! condition named when the runner falls.

#[path = "../../examples/slip_runner/model.rs"]
#[allow(dead_code)]
mod model;

use crate::param_derivatives::exact_vs_central;
use model::{energy, stride_options, Slip, ALPHA, ENERGY, FLIGHT};
use nalgebra::DVector;
use saltation::continuation::{
    continue_branch, BifurcationKind, ContinuationOptions, ParamFamily, Start,
};
use saltation::hybrid::ad::check_hand_written;
use saltation::hybrid::{Bound, EvalModel, JacobianKind, StrideMap, StrideOptions};
use saltation::orbit::{central_difference, find_periodic_orbit, reduced_map, OrbitOptions};

fn stride() -> StrideOptions {
    stride_options(1e-12)
}

fn orbit_opts() -> OrbitOptions {
    OrbitOptions {
        stride: stride(),
        ..OrbitOptions::default()
    }
}

#[test]
fn gait_multiplier_energy_and_parameter_derivatives() {
    let slip = Bound::new(Slip);
    let orbit = find_periodic_orbit(&slip, &[1.0], &orbit_opts()).unwrap();
    assert!(orbit.stable);
    assert_eq!(orbit.events.len(), 3);
    let y = orbit.u0[0];
    // Multiplier of the apex map against Richardson-extrapolated central differences.
    let mut map = StrideMap::new(&slip, stride()).unwrap();
    let mut d = |h: f64| {
        central_difference(
            |u: &DVector<f64>| reduced_map(&mut map, u.as_slice()),
            &DVector::from_vec(vec![y]),
            h,
        )
        .unwrap()[(0, 0)]
    };
    let fd = (4.0 * d(5e-5) - d(1e-4)) / 3.0;
    let mu = orbit.multipliers[0].re;
    assert!(
        (mu - fd).abs() < 1e-8,
        "multiplier {mu} vs differences {fd}"
    );
    // Energy after one stride.
    let x = map.eval(&orbit.x0, JacobianKind::None).unwrap().x;
    let (e, e0) = (energy(slip.values(), &x), slip.values()[ENERGY]);
    assert!((e - e0).abs() < 1e-9 * e0, "energy {e}");
    // The hand-written chart Jacobian (and every other derivative the model writes itself)
    // agrees with automatic differentiation, in both modes.
    let ev = &orbit.events[0];
    check_hand_written(&slip, FLIGHT, 0.0, &orbit.x0, &orbit.u0, 1e-12).unwrap();
    check_hand_written(&slip, ev.target, 0.0, &ev.x_plus, &orbit.u0, 1e-12).unwrap();
    // Exact parameter derivatives, every parameter.
    for (k, p) in slip.param_names().iter().enumerate() {
        // A smaller step than for the other models: the apex is only 13 mm above the touchdown
        // height, so the map is strongly curved in l0 and alpha on the scale of 1e-3.
        let err = exact_vs_central(&slip, k, &orbit.u0, &stride(), 1e-4);
        assert!(err < 1e-7, "∂F/∂{p} differs by {err:.1e}");
    }
}

/// `μ(α) + 1` at the gait near `u`.
fn flip(alpha: f64, u: &[f64]) -> (f64, Vec<f64>) {
    let slip = Bound::with_named(Slip, [("alpha", alpha)]).unwrap();
    let o = find_periodic_orbit(&slip, u, &orbit_opts()).unwrap();
    (o.multipliers[0].re + 1.0, o.u0)
}

#[test]
fn period_doubling_agrees_with_a_direct_solve() {
    let slip = Bound::new(Slip);
    let alpha = slip.values()[ALPHA];
    let family = ParamFamily::new(slip, "alpha").unwrap();
    let c = ContinuationOptions {
        p_max: 70f64.to_radians(),
        step: 0.2f64.to_radians(),
        max_step: 0.5f64.to_radians(),
        corrector_tol: 1e-9,
        ..ContinuationOptions::default()
    };
    let start = Start::new(alpha, vec![1.0]);
    let b = continue_branch(&family, &start, &orbit_opts(), &c).unwrap();
    let pd = b
        .bifurcations
        .iter()
        .find(|x| x.kind == BifurcationKind::PeriodDoubling)
        .expect("a period doubling above 68°");
    // Secant on μ(α) = −1 from either side of the located point.
    let (mut a0, mut a1) = (pd.param - 1e-3, pd.param + 1e-3);
    let (mut f0, u) = flip(a0, &pd.u);
    let (mut f1, mut u) = flip(a1, &u);
    for _ in 0..30 {
        let a2 = a1 - f1 * (a1 - a0) / (f1 - f0);
        (a0, f0) = (a1, f1);
        a1 = a2;
        (f1, u) = flip(a1, &u);
        if (a1 - a0).abs() < 1e-13 {
            break;
        }
    }
    assert!(
        (pd.param - a1).abs() < 1e-8,
        "continuation {} vs direct {a1}",
        pd.param
    );
}

#[test]
fn a_fall_names_the_failure_guard_and_the_disabled_apex() {
    // At α = 71° (beyond the end of the branch) a runner from a 1 m apex lands, lifts off and
    // rises to an apex below the touchdown height: that apex is not counted (its enabling
    // condition fails), and the body falls to the ground in flight.
    let slip = Bound::with_named(Slip, [("alpha", 71f64.to_radians())]).unwrap();
    let text = find_periodic_orbit(&slip, &[1.0], &orbit_opts())
        .unwrap_err()
        .to_string();
    assert!(text.contains("the body hit the ground in flight"), "{text}");
    assert!(text.contains("guard 0"), "{text}");
    assert!(text.contains("enabling condition was false"), "{text}");
}

/// The user's model through the command line's own code: registered as `SlipRunner`, the
/// example's model file read and solved by `saltation orbit … --json` (the library entry point
/// the example's program calls), giving the orbit of the direct solve.
#[test]
fn the_registered_model_runs_through_the_command_line() {
    use clap::Parser;
    use saltation::models::Registry;
    let registry = Registry::builtin()
        .with("SlipRunner", Bound::new(Slip))
        .unwrap();
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/slip_runner/slip_runner.ron"
    );
    let cli = saltation_cli::Cli::try_parse_from(["saltation", "orbit", file, "--json"]).unwrap();
    let mut out = Vec::new();
    saltation_cli::run_with(&cli, &registry, &mut out).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let direct = find_periodic_orbit(&Bound::new(Slip), &[1.0], &orbit_opts()).unwrap();
    let x0: Vec<f64> = json["x0"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    for (a, b) in x0.iter().zip(&direct.x0) {
        assert!((a - b).abs() < 1e-12, "{x0:?} {:?}", direct.x0);
    }
    assert!((json["period"].as_f64().unwrap() - direct.period).abs() < 1e-12);
    // Without the registry the name is unknown: exit code 2, the known names listed.
    let e = saltation_cli::run(&cli, &mut Vec::new()).unwrap_err();
    assert_eq!(e.exit_code(), saltation_cli::EXIT_INPUT);
    assert!(e.message().contains("SlipRunner"), "{}", e.message());
}
