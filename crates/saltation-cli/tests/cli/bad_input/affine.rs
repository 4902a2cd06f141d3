//! Stiff and huge affine modes with a method chosen in the file (issue 25, probe defect N6): the
//! exact affine stepper gives way to the file's method where it cannot take a mode, and what
//! then fails is reported by its real cause (the method's stiffness, the solution leaving the
//! floating-point range, the step count), never as an `h_max` nobody set.

use super::harness::Case;

/// A one-state equation model `x' = flow` from `x = 2`, run by `method`.
fn lin(name: &str, flow: &str, method: &str) -> Case {
    Case::text(
        name.into(),
        "lin.ron",
        format!(
            "(model: Equations(name: \"lin\", states: [\"x\"], modes: [(name: \"m\", flow: \
             [\"{flow}\"])]), orbit: (stride: (method: {method})), initial: (t: 0.0, x: [2.0], \
             mode: 0))"
        ),
        &["simulate", "--t-end", "1", "--at", "1", "--json"],
    )
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Partial, Succeeds};
    vec![
        lin("x' = -1e300 x with ndf: decays to 0", "-1e300*x", "Ndf")
            .expect(Succeeds(&["\"x_end\":[0.0]", "\"exact_affine_modes\":[]"])),
        lin("x' = -1e300 x with bdf", "-1e300*x", "Bdf")
            .expect(Succeeds(&["\"x_end\":[0.0]", "\"exact_affine_modes\":[]"])),
        lin("x' = -1e300 x with trbdf2", "-1e300*x", "Trbdf2")
            .expect(Succeeds(&["\"x_end\":[0.0]", "\"exact_affine_modes\":[]"])),
        lin("x' = -1e9 (x - 1) with ndf", "-1e9*(x - 1)", "Ndf")
            .expect(Succeeds(&["\"x_end\":[1.0]", "\"exact_affine_modes\":[]"])),
        lin(
            "x' = -1e300 x with dop853: stiff for an explicit method",
            "-1e300*x",
            "Dop853",
        )
        .expect(Partial(
            1,
            &["\"method\":\"dop853\""],
            &[
                "the problem is stiff",
                "explicit method `dop853`",
                "implicit method",
            ],
        )),
        lin(
            "x' = x + 1e308 with ndf: the solution overflows",
            "x + 1e308",
            "Ndf",
        )
        .expect(Partial(
            1,
            &["\"method\":\"ndf\""],
            &["`x + 1e308` evaluates to inf"],
        )),
        lin(
            "x' = -x with ndf: stepped exactly, and said so",
            "-x",
            "Ndf",
        )
        .expect(Succeeds(&[
            "\"method\":\"ndf\"",
            "\"exact_affine_modes\":[\"m\"]",
            "\"x_end\":[0.73575888234288",
        ])),
        Case::args(
            "hopper with k = 1e12: the step count is named, not h_max",
            &["orbit", "{models}/hopper.ron", "--set", "k=1e12"],
        )
        .expect(Fails(1, &["maximum number of steps (100000)", "in mode 0"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
