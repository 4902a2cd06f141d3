//! Defects of the third bad-input probe (N1–N25 of its report), one case or test each: DAEs
//! given to explicit methods, a chart contradicting the reset, size limits, unbounded
//! per-step samples, unwritable stderr and closed stdout, non-finite JSON numbers, tolerances
//! below rounding, misnamed arguments, late refusals, output names, echoed input, study grids
//! and panels without data.

use super::harness::{self, Case};

/// The equation van der Pol with an `initial` section (for `simulate`), with each `(from, to)`
/// replaced once.
fn vdp(name: &str, edits: &[(&str, &str)], args: &[&str]) -> Case {
    let mut all = vec![(
        "    guesses:",
        "    initial: (t: 0.0, x: [2.0, 0.0], mode: 0),\n    guesses:",
    )];
    all.extend_from_slice(edits);
    Case::edit(name, "equations/van_der_pol.ron", &all, args)
}

/// An equation model of `n` states: `x0' = 1`, `xi' = −xi^power`, a guard at `x0 = 2` and the section
/// after it (free `x0`, the others 0), all starting at 1.
fn big_model(n: usize, power: u32) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("\"x{i}\"")).collect();
    let flow: Vec<String> = (0..n)
        .map(|i| match (i, power) {
            (0, _) => "\"1\"".into(),
            (_, 1) => format!("\"-x{i}\""),
            _ => format!("\"-x{i}^{power}\""),
        })
        .collect();
    let chart: Vec<String> = (1..n).map(|i| format!("(\"x{i}\", \"0\")")).collect();
    format!(
        "(model: Equations(name: \"big\", states: [{}], modes: [(name: \"m\", flow: [{}])], \
         guards: [(name: \"g\", from: \"m\", when: \"x0 - 2\", direction: Rising)], \
         section: (after: \"g\", free: [\"x0\"], chart: [{}])), guesses: [(label: \"g\", u: \
         [1.0])], orbit: (stride: (t_max: 5.0)), initial: (t: 0.0, x: [{}], mode: 0))",
        names.join(", "),
        flow.join(", "),
        chart.join(", "),
        vec!["1.0"; n].join(", ")
    )
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Partial, Succeeds};
    let dae = [("model: Robertson(", "model: RobertsonDae(")];
    let study_all_fail = "(\n    sets: [(b: 1951.0, m1: 1.88, k: 22.8, f: 0.051)],\n    methods: \
        [ode45], tolerances: [1e-3], epsilon: [0.05], strategies: [Events],\n    t_end: 2.0, \
        grid_step: 0.01, max_steps: 1,\n    reference: (method: dop853, tol: 1e-10, \
        check_method: radau5, check_tol: 1e-9),\n    repeats: 1,\n    ranking: (strategy: \
        Events, tol: 1e-3), figures: (set: 1, tol: 1e-3, strategy: Events),\n)\n";
    let grow = "(\n    model: Equations(name: \"grow\", states: [\"x\"], modes: [(name: \"m\", \
        flow: [\"x\"])]),\n    initial: (t: 0.0, x: [2.0], mode: 0),\n)\n";
    let long_name = "x".repeat(10_000);
    let long_set = format!("{long_name}=1");
    let mut cases =
        vec![
        // N1: an explicit method refuses a singular mass matrix (as abm does), before anything
        // is computed (N17: exit 2, nothing printed).
        Case::edit(
            "N1: RobertsonDae with dop853",
            "robertson.ron",
            &dae,
            &[
                "simulate", "--method", "dop853", "--t-end", "0.5", "--at", "0.5", "--json",
            ],
        )
        .expect(Fails(2, &["--method dop853", "identity mass matrix"])),
        Case::edit(
            "N1: RobertsonDae with ode23 (bs23)",
            "robertson.ron",
            &dae,
            &["simulate", "--method", "ode23", "--t-end", "0.5"],
        )
        .expect(Fails(2, &["--method ode23", "identity mass matrix"])),
        // N21: the DAE form with the trapezoidal rule at the file's tolerances.
        Case::edit(
            "N21: RobertsonDae with trapezoid at rtol 1e-8, atol 1e-14",
            "robertson.ron",
            &dae,
            &["simulate", "--method", "trapezoid", "--t-end", "40", "--at", "40"],
        )
        .expect(Succeeds(&["0.28416375", "0.7158270"])),
        // N13: causes named right.
        Case::edit(
            "N13: inconsistent DAE initial values with ndf",
            "robertson.ron",
            &[
                ("model: Robertson(", "model: RobertsonDae("),
                ("x: [1.0, 0.0, 0.0]", "x: [1.0, 0.0, 0.5]"),
            ],
            &["simulate", "--method", "ndf", "--t-end", "1"],
        )
        .expect(Fails(2, &["initial", "inconsistent initial values", "equation 2"])),
        vdp(
            "N13: Euler blowing up is not grazing",
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), h_fixed: Some(0.5))",
            )],
            &["simulate", "--method", "euler", "--t-end", "100"],
        )
        .expect(Partial(1, &["STOPPED EARLY"], &["NaN or Inf", "evaluates to"])),
        vdp(
            "N13: radau5 names a non-finite Jacobian",
            &[
                ("epsilon*(1 - x^2)*y - x", "sqrt(x^2)"),
                ("x: [2.0, 0.0]", "x: [0.0, 0.0]"),
            ],
            &["simulate", "--method", "radau5", "--t-end", "1"],
        )
        .expect(Partial(1, &["STOPPED EARLY"], &["Jacobian", "not differentiable"])),
        // N17: the other refusals at the start are input errors too.
        Case::edit(
            "N17: RobertsonDae with rosenbrock23",
            "robertson.ron",
            &dae,
            &["simulate", "--method", "rosenbrock23", "--t-end", "1"],
        )
        .expect(Fails(2, &["--method rosenbrock23", "mass matrix"])),
        vdp(
            "N17: pi_beta too large for dop853",
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), explicit: (pi_beta: Some(0.49)))",
            )],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["settings for dop853", "explicit.pi_beta"])),
        vdp(
            "N17: a flow that is NaN at the initial point",
            &[("flow: [\"y\",", "flow: [\"log(-1) + y\",")],
            &["simulate", "--t-end", "1"],
        )
        // Refused on load since constant folding finds it (probe3_rest has the others).
        .expect(Fails(2, &["`log(-1)` is made of numbers alone", "flow[0]"]))
        .located(),
        Case::edit(
            "N17: study grid of 1e7 + 1 points is refused on load",
            "monopod_study.ron",
            &[("t_end: 50.0,", "t_end: 10000.0,")],
            &["study", "--json"],
        )
        .expect(Fails(2, &["grid_step", "1e7 grid points"]))
        .located(),
        // N22: a grid step beyond the end time leaves one grid point.
        Case::edit(
            "N22: study grid_step > t_end",
            "monopod_study.ron",
            &[("grid_step: 0.001,", "grid_step: 60.0,")],
            &["study", "--json"],
        )
        .expect(Fails(2, &["grid_step", "must not exceed t_end"]))
        .located(),
        // N2: the walker's chart with dph pinned to 0 contradicts the heelstrike reset.
        Case::edit(
            "N2: a chart contradicting the reset",
            "equations/simplest_walker.ron",
            &[("(\"dph\", \"(1 - cos(2*th))*dth\")", "(\"dph\", \"0\")")],
            &["orbit", "--json"],
        )
        .expect(Fails(1, &["not a periodic orbit", "component 3", "chart"])),
        Case::edit(
            "N2: van der Pol with the chart x = 2",
            "equations/van_der_pol.ron",
            &[(
                "free: [\"x\"], chart: [(\"y\", \"0\")]",
                "free: [\"y\"], chart: [(\"x\", \"2\")]",
            )],
            &["orbit", "--guess", "0"],
        )
        .expect(Fails(1, &["not a periodic orbit", "chart"])),
        // N4: every step kept: max_steps bounded like the sample times.
        vdp(
            "N4: every step kept with max_steps 1e9",
            &[(
                "ode: (rtol: 1e-14, atol: Scalar(1e-14)),",
                "ode: (rtol: 1e-6, atol: Scalar(1e-6), h_max: 1e-7, max_steps: 1000000000),",
            )],
            &["simulate", "--t-end", "100", "--json"],
        )
        .expect(Fails(2, &["max_steps", "every step is kept", "--at"])),
        // N9: an output that is not finite is left out of the sample, never `null`.
        vdp(
            "N9: an output going NaN",
            &[(
                "section: (after: \"maximum\", free: [\"x\"], chart: [(\"y\", \"0\")]),",
                "section: (after: \"maximum\", free: [\"x\"], chart: [(\"y\", \"0\")]),\n        \
                 outputs: [(\"lx\", \"log(x)\")],",
            )],
            &["simulate", "--t-end", "10", "--json"],
        )
        .expect(Succeeds(&["\"lx\":0.69314718055994"])),
        // N9: the exact stepper's overflow: the last finite state, the cause named.
        Case::text(
            "N9: an exponential growth overflowing".into(),
            "grow.ron",
            grow.into(),
            &["simulate", "--t-end", "1000", "--at", "1000", "--json"],
        )
        .expect(Partial(1, &["\"x_end\":["], &["solution overflowed"])),
        // N12: tolerances below rounding.
        vdp(
            "N12: rtol = atol = 1e-300 with ndf",
            &[],
            &[
                "simulate", "--method", "ndf", "--rtol", "1e-300", "--atol", "1e-300", "--t-end",
                "0.1", "--at", "0.1",
            ],
        )
        .expect(Succeeds(&["rtol = 1.00e-300 (raised to 4ε = 8.88e-16", "end state"])),
        // N15, N16: argument names.
        Case::args(
            "N15: --rtol -1",
            &[
                "simulate",
                "{models}/robertson.ron",
                "--rtol",
                "-1",
                "--t-end",
                "1",
            ],
        )
        .expect(Fails(2, &["--rtol -1", "rtol"])),
        Case::args(
            "N15: --atol -1",
            &[
                "simulate",
                "{models}/robertson.ron",
                "--atol",
                "-1",
                "--t-end",
                "1",
            ],
        )
        .expect(Fails(2, &["--atol -1", "atol"])),
        Case::args(
            "N16: --at -1 alone",
            &["simulate", "{models}/bouncing_ball.ron", "--at", "-1"],
        )
        .expect(Fails(2, &["--at (its last time is the end time)", "t_end"])),
        // N18: an output named like a state.
        vdp(
            "N18: output named like a state",
            &[(
                "section: (after: \"maximum\", free: [\"x\"], chart: [(\"y\", \"0\")]),",
                "section: (after: \"maximum\", free: [\"x\"], chart: [(\"y\", \"0\")]),\n        \
                 outputs: [(\"x\", \"2*x\")],",
            )],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["outputs[0]", "already a column"]))
        .located(),
        // N23: the parameter's own range.
        Case::args(
            "N23: --set spokes=1e20",
            &[
                "orbit",
                "{models}/rimless_wheel.ron",
                "--set",
                "spokes=1e20",
            ],
        )
        .expect(Fails(2, &["3 <= spokes <= 1000"])),
        // N25: every run failed: the panel is not drawn, and the tables say so.
        Case::text(
            "N25: study --out with no finite point".into(),
            "study.ron",
            study_all_fail.into(),
            &["study", "--out", "{out}"],
        )
        .expect(Succeeds(&[
            "Figures not drawn",
            "work_precision_events: no method",
        ])),
    ];
    // N19: a 10 000-character name is not echoed in full.
    cases.push(
        Case::args(
            "N19: a huge unknown name",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--set",
                long_set.as_str(),
            ],
        )
        .expect(Fails(2, &["characters)"])),
    );
    // N3: dense matrices are bounded before they are allocated.
    let big = big_model(1100, 1);
    cases.push(
        Case::text(
            "N3: orbit of 1100 states".into(),
            "big.ron",
            big.clone(),
            &["orbit"],
        )
        .expect(Fails(2, &["variational matrix", "1100 × 1100", "limit"])),
    );
    cases.push(
        Case::text(
            "N3: affine simulate of 1100 states (exact stepper)".into(),
            "big.ron",
            big.clone(),
            &["simulate", "--t-end", "1", "--at", "1"],
        )
        .expect(Fails(2, &["propagator", "1101 × 1101"])),
    );
    cases.push(
        Case::text(
            "N3: radau5 on 1100 nonlinear states".into(),
            "big.ron",
            big_model(1100, 3),
            &[
                "simulate", "--method", "radau5", "--t-end", "1", "--at", "1",
            ],
        )
        .expect(Fails(2, &["Jacobian", "1100 × 1100"])),
    );
    cases
}

#[test]
fn probe3_cases() {
    harness::run_all(cases());
}

/// N5: with stderr unwritable an error still ends with its exit code (2 for bad input, 1 for a
/// failed computation), not an abort.
#[test]
fn n5_unwritable_stderr_keeps_the_exit_code() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let walker = harness::models_dir().join("simplest_walker.ron");
    let walker = walker.to_str().unwrap();
    for (args, code) in [
        (vec!["orbit", "/nonexistent"], 2),
        (vec!["orbit", "--bogus"], 2),
        (vec!["orbit", walker, "--guess", "3,3"], 1),
    ] {
        let out = harness::shell("probe3", "exec \"$0\" \"$@\" 2>/dev/full", &args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {out:?}");
    }
}
