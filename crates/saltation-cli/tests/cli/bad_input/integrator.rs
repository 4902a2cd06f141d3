//! The stride's integrator settings in a file: per-state `atol` (one entry per state component;
//! Φ's rows take their state's), tolerances and step limits, unknown or misplaced fields, the
//! start mode, the method and its method-specific settings (explicit, Newton, multistep).

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let walker = "simplest_walker.ron";
    let ball = "bouncing_ball.ron";
    vec![
        Case::edit(
            "atol vector of the state's length",
            walker,
            &[(
                "atol: Scalar(1e-14)",
                "atol: Vector([1e-14, 1e-14, 1e-14, 1e-14])",
            )],
            &["orbit", "--json"],
        )
        .expect(Succeeds(&["\"period\":", "\"stable\":true"])),
        Case::edit(
            "atol vector too short",
            walker,
            &[("atol: Scalar(1e-14)", "atol: Vector([1e-14, 1e-14])")],
            &["orbit"],
        )
        .expect(Fails(2, &["atol", "expected 4, got 2"])),
        Case::edit(
            "atol vector empty",
            walker,
            &[("atol: Scalar(1e-14)", "atol: Vector([])")],
            &["orbit"],
        )
        .expect(Fails(2, &["atol"])),
        Case::edit(
            "atol vector with NaN",
            walker,
            &[(
                "atol: Scalar(1e-14)",
                "atol: Vector([1e-14, NaN, 1e-14, 1e-14])",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["atol"])),
        Case::edit(
            "exact_affine_phases off: the same gait",
            "hopper_unconstrained.ron",
            &[("t_max: 20.0", "t_max: 20.0, exact_affine_phases: false")],
            &["orbit", "--json"],
        )
        .expect(Succeeds(&["\"period\":", "\"stable\":"])),
        Case::edit(
            "exact_affine_phases not a bool",
            walker,
            &[("t_max: 20.0", "t_max: 20.0, exact_affine_phases: 1")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:17:", "boolean"])),
        Case::edit(
            "variational_error_control not a bool",
            walker,
            &[(
                "t_max: 20.0",
                "t_max: 20.0, variational_error_control: \"yes\"",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:17:", "boolean"])),
        Case::edit(
            "start_mode out of range",
            walker,
            &[(
                "events_per_stride: 1,",
                "events_per_stride: 1, start_mode: 3,",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["mode 3"])),
        Case::edit(
            "Euler without h_fixed",
            walker,
            &[("method: Dop853", "method: Euler")],
            &["orbit"],
        )
        .expect(Fails(2, &["h_fixed"])),
        Case::edit(
            "unknown field in ode",
            walker,
            &[(
                "ode: (rtol: 1e-14, atol: Scalar(1e-14))",
                "ode: (relative_tol: 1e-14)",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "relative_tol"])),
        Case::edit(
            "unknown field in zeno",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), zeno: (windoww: 3))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["windoww"])),
        Case::edit(
            "error_dims in a stride",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), error_dims: 4)",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["error_dims"])),
        Case::edit(
            "atol zero",
            walker,
            &[("atol: Scalar(1e-14)", "atol: Scalar(0)")],
            &["orbit"],
        )
        .expect(Fails(2, &["atol", "> 0"])),
        Case::edit(
            "rtol absurd",
            walker,
            &[("rtol: 1e-14", "rtol: 1e300")],
            &["orbit"],
        )
        .expect(Fails(2, &["rtol"])),
        Case::edit(
            "t_max NaN",
            walker,
            &[("t_max: 20.0", "t_max: NaN")],
            &["orbit"],
        )
        .expect(Fails(2, &["t_max"])),
        Case::edit(
            "explicit.pi_beta out of range",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), explicit: (pi_beta: 0.7))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["explicit.pi_beta"])),
        Case::edit(
            "pi_beta at the old place",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), pi_beta: Some(0.04))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "pi_beta"])),
        Case::edit(
            "newton.max_iters zero",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), newton: (max_iters: Some(0)))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["newton.max_iters"])),
        Case::edit(
            "newton.tol above 1",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), newton: (tol: Some(1.5)))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["newton.tol"])),
        Case::edit(
            "newton.jacobian_reuse NaN",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), newton: (jacobian_reuse: Some(NaN)))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["jacobian_reuse"])),
        Case::edit(
            "multistep.max_order 13",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), multistep: (max_order: Some(13)))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["multistep.max_order"])),
        Case::edit(
            "unknown field in the integrator's newton settings",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), newton: (iterations: 3))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "iterations"])),
        Case::edit(
            "stride method by a MATLAB name in the file",
            ball,
            &[("method: Dop853", "method: ode23")],
            &["simulate", "--t-end", "1", "--json"],
        )
        .expect(Succeeds(&["\"method\":\"bs23\""])),
        Case::edit(
            "stride method unknown in the file",
            ball,
            &[("method: Dop853", "method: ode99")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["bouncing_ball.ron:", "ode99"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
