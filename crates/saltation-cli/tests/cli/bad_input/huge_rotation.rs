//! A rotation by the angle `1e150 t` (`x' = 1e150 y`, `y' = −1e150 x`, norm preserved) with the
//! exact affine stepper off, run by every implicit method: no method can resolve it in the
//! step budget, so each must fail with the cause (exit 1), never return a state it damped to
//! 0 with rc 0 (radau5 did: its second error estimate assumed the rejected error decays), nor
//! blame the vector field (the trapezoidal rule did: its error estimate's third divided
//! difference underflowed to `0 · ∞`).
//! A rotation it can resolve (`1e3 t`) is followed to the closed form `(cos 500, −sin 500)`.

use super::harness::Case;

/// The rotation `x' = a y`, `y' = −a x` from `(1, 0)`, simulated by `method` to `t_end` at
/// `rtol` (`atol = rtol / 100`).
fn rotation(name: &str, a: &str, method: &str, t_end: &str, rtol: &str) -> Case {
    let atol = format!("{}", rtol.parse::<f64>().expect("a number") / 100.0);
    Case::text(
        name.into(),
        "rotation.ron",
        format!(
            "(model: Equations(name: \"rotation\", states: [\"x\", \"y\"], modes: [(name: \"m\", \
             flow: [\"{a}*y\", \"-{a}*x\"])]), orbit: (stride: (exact_affine_phases: false)), \
             initial: (t: 0.0, x: [1.0, 0.0], mode: 0))"
        ),
        &[
            "simulate", "--method", method, "--rtol", rtol, "--atol", &atol, "--t-end", t_end,
            "--at", t_end, "--json",
        ],
    )
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Partial, Succeeds};
    let mut cases: Vec<Case> = [
        "radau5",
        "ndf",
        "bdf",
        "rosenbrock23",
        "trapezoid",
        "trbdf2",
    ]
    .into_iter()
    .map(|m| {
        rotation(&format!("1e150 rotation with {m}"), "1e150", m, "1", "1e-8").expect(Partial(
            1,
            &["\"error\":\"integration failed in mode 0"],
            &["maximum number of steps (100000)"],
        ))
    })
    .collect();
    // cos 500 = -0.883849273431478, -sin 500 = 0.46777180532247614.
    cases.push(
        rotation(
            "1e3 rotation with radau5: the closed form",
            "1e3",
            "radau5",
            "0.5",
            "1e-8",
        )
        .expect(Succeeds(&["\"x_end\":[-0.8838492", ",0.4677718"])),
    );
    cases
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
