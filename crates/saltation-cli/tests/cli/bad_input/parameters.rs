//! Model parameters that are not finite or out of range, in a file or through `--set`, through every
//! subcommand (a non-finite parameter once hung in the stepper's retry loop).

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    let walker = "simplest_walker.ron";
    let cont = "simplest_walker_continuation.ron";
    let vdp = "van_der_pol.ron";
    let wheel = "rimless_wheel.ron";
    let ball = "bouncing_ball.ron";
    let hopper = "hopper.ron";
    let monopod = "monopod.ron";
    let simulate = &["simulate", "--t-end", "1"];
    vec![
        Case::edit(
            "monopod unknown strategy",
            monopod,
            &[("strategy: Events)", "strategy: Hopping)")],
            simulate,
        )
        .expect(Fails(2, &["monopod.ron:", "Hopping", "Strategy", "IfElse"]))
        .located(),
        Case::edit(
            "monopod strategy as a number",
            monopod,
            &[("strategy: Events)", "strategy: 1)")],
            simulate,
        )
        .expect(Fails(2, &["monopod.ron:", "identifier"]))
        .located(),
        Case::args(
            "monopod --set m1=50",
            &[
                "simulate",
                "{models}/monopod.ron",
                "--t-end",
                "1",
                "--set",
                "m1=50",
            ],
        )
        .expect(Fails(2, &["--set m1=50", "`m1`", "out of range", "4 pi^2"])),
        Case::args(
            "monopod --set m1 = 4 pi^2",
            &[
                "simulate",
                "{models}/monopod.ron",
                "--t-end",
                "1",
                "--set",
                "m1=39.47841760435743",
            ],
        )
        .expect(Fails(2, &["`m1`", "out of range"])),
        Case::args(
            "monopod --set f=-1",
            &[
                "simulate",
                "{models}/monopod.ron",
                "--t-end",
                "1",
                "--set",
                "f=-1",
            ],
        )
        .expect(Fails(2, &["--set f=-1", "`f`", "out of range", "f > 0"])),
        Case::args(
            "monopod --set f=0",
            &[
                "simulate",
                "{models}/monopod.ron",
                "--t-end",
                "1",
                "--set",
                "f=0",
            ],
        )
        .expect(Fails(2, &["`f`", "out of range"])),
        Case::args(
            "monopod --set strategy=1",
            &[
                "simulate",
                "{models}/monopod.ron",
                "--t-end",
                "1",
                "--set",
                "strategy=1",
            ],
        )
        .expect(Fails(
            2,
            &["unknown parameter `strategy`", "known: b, m1, k, f"],
        )),
        Case::edit(
            "monopod m1 out of range in the file",
            monopod,
            &[("m1: 1.88", "m1: 50.0")],
            simulate,
        )
        .expect(Fails(2, &["monopod.ron:", "m1", "out of range"]))
        .located(),
        Case::edit(
            "monopod b negative in the file",
            monopod,
            &[("b: 1951.0", "b: -1.0")],
            simulate,
        )
        .expect(Fails(2, &["monopod.ron:", "b", "out of range"]))
        .located(),
        Case::edit("monopod k NaN", monopod, &[("k: 22.8", "k: NaN")], simulate)
            .expect(Fails(2, &["monopod.ron:", "k", "not finite"]))
            .located(),
        Case::args(
            "hopper mu out of range",
            &["orbit", "{models}/hopper.ron", "--set", "mu=1.5"],
        )
        .expect(Fails(2, &["mu", "out of range", "0 < mu < 1"])),
        Case::edit(
            "hopper mass split 0",
            hopper,
            &[("mu_U: 0.5", "mu_U: 0.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["hopper.ron:", "mu_U", "out of range"])),
        Case::edit(
            "hopper stiffness negative",
            "hopper_unconstrained.ron",
            &[("k: 15000.0", "k: -1.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["k", "out of range"])),
        Case::args(
            "hopper parameter in the wrong case",
            &["orbit", "{models}/hopper.ron", "--set", "d_g=-60"],
        )
        .expect(Fails(2, &["unknown parameter `d_g`", "d_G"])),
        Case::edit(
            "hopper unknown field",
            hopper,
            &[("mu_L: 0.5", "mu_L: 0.5, mu_X: 0.5")],
            &["orbit"],
        )
        .expect(Fails(2, &["hopper.ron:", "mu_X"]))
        .located(),
        Case::edit(
            "gamma NaN",
            walker,
            &[("gamma: 0.009", "gamma: NaN")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "gamma", "not finite"])),
        Case::edit(
            "gamma inf",
            walker,
            &[("gamma: 0.009", "gamma: inf")],
            &["orbit"],
        )
        .expect(Fails(2, &["gamma", "not finite"])),
        Case::edit(
            "gamma 1e309",
            walker,
            &[("gamma: 0.009", "gamma: 1e309")],
            &["orbit"],
        )
        .expect(Fails(2, &["gamma", "not finite"])),
        Case::edit(
            "gamma out of range",
            walker,
            &[("gamma: 0.009", "gamma: 3.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["gamma", "out of range", "pi/2"])),
        Case::edit(
            "epsilon NaN",
            vdp,
            &[("epsilon: 1.0", "epsilon: NaN")],
            &["orbit"],
        )
        .expect(Fails(2, &["epsilon", "not finite"])),
        Case::edit(
            "epsilon negative",
            vdp,
            &[("epsilon: 1.0", "epsilon: -1.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["epsilon", "out of range"])),
        Case::edit(
            "alpha inf",
            wheel,
            &[("alpha: 0.2", "alpha: inf")],
            &["orbit"],
        )
        .expect(Fails(2, &["alpha", "not finite"])),
        Case::edit(
            "lambda2 NaN",
            wheel,
            &[("lambda2: 0.6666666666666666", "lambda2: NaN")],
            &["orbit"],
        )
        .expect(Fails(2, &["lambda2", "not finite"])),
        Case::edit("spokes 0", wheel, &[("spokes: 6", "spokes: 0")], &["orbit"])
            .expect(Fails(2, &["spokes", "3 <= spokes"])),
        Case::edit(
            "restitution 2",
            ball,
            &[("e: 0.8", "e: 2.0")],
            &["orbit", "--guess", "1"],
        )
        .expect(Fails(2, &["restitution"])),
        Case::edit(
            "gamma NaN through continue",
            cont,
            &[("gamma: 0.009", "gamma: NaN")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["gamma", "not finite"])),
        Case::edit(
            "gamma NaN through orbit-diagram",
            cont,
            &[("gamma: 0.009", "gamma: NaN")],
            &["orbit-diagram", "--out", "{out}"],
        )
        .expect(Fails(2, &["gamma", "not finite"])),
        Case::args(
            "--set gamma=nan",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--set",
                "gamma=nan",
            ],
        )
        .expect(Fails(2, &["--set", "not a finite number"])),
        Case::args(
            "--set spokes=1e20",
            &[
                "orbit",
                "{models}/rimless_wheel.ron",
                "--set",
                "spokes=1e20",
            ],
        )
        .expect(Fails(2, &["spokes", "out of range"])),
        Case::args(
            "--set spokes=2.5",
            &["orbit", "{models}/rimless_wheel.ron", "--set", "spokes=2.5"],
        )
        .expect(Fails(2, &["spokes"])),
        Case::args(
            "--set gamma=5",
            &["orbit", "{models}/simplest_walker.ron", "--set", "gamma=5"],
        )
        .expect(Fails(2, &["gamma", "out of range"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
