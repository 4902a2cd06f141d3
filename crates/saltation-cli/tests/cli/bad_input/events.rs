//! Event location and accumulation (issue 25, probe defects N6, N11, N13, N14): guards that are
//! NaN or identically zero, an `enabled` condition that is NaN, a ball that cannot leave the
//! floor (restitution 0), the event cap, `on_accumulation` naming a guard that cannot take
//! over, and the exact affine stepper under `--method` and on stiff or huge affine modes.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Partial, Succeeds};
    let ball = "equations/bouncing_ball.ron";
    let table = "equations/vibrating_table_sticking.ron";
    vec![
        Case::edit(
            "guard that is NaN everywhere",
            ball,
            &[("when: \"x\"", "when: \"sqrt(-1 - x^2)\"")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY"],
            &["guard `impact`", "of mode 0", "not a number", "at t = 0"],
        )),
        Case::edit(
            "guard identically zero",
            ball,
            &[("when: \"x\"", "when: \"x - x\"")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY"],
            &["stays exactly 0", "can never fire"],
        )),
        Case::edit(
            "enabled condition NaN does not enable the guard",
            ball,
            &[("enabled: \"v < 0\"", "enabled: \"sqrt(-1 - v^2)\"")],
            &["simulate", "--t-end", "1", "--json"],
        )
        .expect(Succeeds(&["\"events\":[]"])),
        Case::edit(
            "restitution 0: the ball cannot leave the floor (Zeno at once)",
            ball,
            &[],
            &["simulate", "--set", "e=0", "--t-end", "5"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY"],
            &["event accumulation (Zeno)", "accumulate at t ≈ 0.45152364"],
        )),
        Case::edit(
            "event cap is named as a cap, not as Zeno",
            "bouncing_ball.ron",
            &[(
                "atol: Scalar(1e-12))",
                "atol: Scalar(1e-12), zeno: (max_events: 3))",
            )],
            &["simulate", "--t-end", "3"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY"],
            &["event cap reached", "zeno.max_events = 3"],
        )),
        Case::edit(
            "on_accumulation names an unknown guard",
            table,
            &[("on_accumulation: \"stick\",", "on_accumulation: \"stik\",")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["on_accumulation", "stik"]))
        .located(),
        Case::edit(
            "on_accumulation names the guard itself",
            table,
            &[(
                "on_accumulation: \"stick\",",
                "on_accumulation: \"impact\",",
            )],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["on_accumulation", "another guard"]))
        .located(),
        Case::args(
            "--method turns exact affine stepping off",
            &[
                "simulate",
                "{models}/equations/bouncing_ball.ron",
                "--method",
                "radau5",
                "--t-end",
                "1",
                "--json",
            ],
        )
        .expect(Succeeds(&["\"exact_affine_modes\":[]"])),
        Case::text(
            "stiff affine mode with the file's method: the exact stepper gives way".into(),
            "lin.ron",
            "(model: Equations(name: \"lin\", states: [\"x\"], modes: [(name: \"m\", flow: \
             [\"-1e9*(x - 1)\"])]), orbit: (stride: (method: Radau5)), initial: (t: 0.0, x: \
             [2.0], mode: 0))"
                .into(),
            &["simulate", "--t-end", "1", "--at", "1", "--json"],
        )
        .expect(Succeeds(&["\"x_end\":[1.0]", "\"exact_affine_modes\":[]"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
