//! The bad-input suite: a table of careless or hostile inputs to the `saltation` binary — a
//! shipped model file with some text replaced, and command-line arguments — each with the exit
//! code it must give and fragments its message must contain. Every case runs under a time
//! limit (a hang fails the test instead of stalling CI), in its own empty working directory
//! (nothing may appear there but what `--out` names), and must not panic, abort, print a number
//! with hundreds of digits, or write `null` where a number belongs.
//!
//! A second, generated table replaces every number of every shipped model file by NaN, ±∞ and
//! `1e309` in turn: each must be refused at load time (exit 2) with the file's line and column.

mod support;

use support::{literal_numbers, run_case, Case, Expect};

/// The hand-written table: one row per defect found by probing, and the classes around it.
fn cases() -> Vec<Case> {
    use Expect::{Fails, Succeeds};
    let walker = "simplest_walker.ron";
    let cont = "simplest_walker_continuation.ron";
    let vdp = "van_der_pol.ron";
    let wheel = "rimless_wheel.ron";
    let ball = "bouncing_ball.ron";
    vec![
        // 1. Non-finite model parameters in a file (hung in the stepper's retry loop).
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
        // 2. A per-state atol: one entry per state component (Φ's rows take their state's).
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
        // 3. Sizes from input have limits.
        Case::edit(
            "events_per_stride 1e9",
            walker,
            &[("events_per_stride: 1,", "events_per_stride: 1000000000,")],
            &["orbit"],
        )
        .expect(Fails(2, &["events_per_stride"])),
        Case::edit(
            "events_per_stride u64::MAX",
            walker,
            &[(
                "events_per_stride: 1,",
                "events_per_stride: 18446744073709551615,",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["events_per_stride"])),
        Case::edit(
            "events_per_stride beyond u64",
            walker,
            &[(
                "events_per_stride: 1,",
                "events_per_stride: 18446744073709551616,",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:"])),
        Case::edit(
            "zeno window 1e9",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), zeno: (window: 1000000000))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["zeno"])),
        Case::edit(
            "event_samples 1e9",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), event_samples: 1000000000)",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["event_samples"])),
        Case::edit(
            "max_steps u64::MAX",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), max_steps: 18446744073709551615)",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["max_steps"])),
        Case::edit(
            "max_iters huge",
            walker,
            &[("max_iters: 30", "max_iters: 18446744073709551615")],
            &["orbit"],
        )
        .expect(Fails(2, &["max_iters"])),
        Case::args(
            "orbit-diagram --count 1e9",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--count",
                "1000000000",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["count"])),
        Case::args(
            "orbit-diagram --count u64::MAX",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--count",
                "18446744073709551615",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["count"])),
        Case::edit(
            "orbit_diagram keep huge",
            cont,
            &[("keep: 64", "keep: 18446744073709551615")],
            &["orbit-diagram", "--out", "{out}"],
        )
        .expect(Fails(2, &["keep"])),
        Case::edit(
            "orbit_diagram transient + keep wraps",
            cont,
            &[(
                "transient: 300, keep: 64",
                "transient: 18446744073709551615, keep: 64",
            )],
            &["orbit-diagram", "--out", "{out}"],
        )
        .expect(Fails(2, &["transient"])),
        // 4. Wrong results with exit 0.
        Case::edit(
            "continue: orbit_diagram count 0",
            cont,
            &[("count: 400", "count: 0")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["count"])),
        Case::edit(
            "continue: orbit_diagram component 99",
            cont,
            &[("component: 0", "component: 99")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["component"])),
        Case::edit(
            "continue: orbit_diagram start too short",
            cont,
            &[(
                "start: [0.2469, -0.2400, 0.4938, -0.0287]",
                "start: [0.2469, -0.2400]",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["start"])),
        Case::edit(
            "continue: orbit_diagram start NaN",
            cont,
            &[(
                "start: [0.2469, -0.2400, 0.4938, -0.0287]",
                "start: [0.2469, NaN, 0.4938, -0.0287]",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["start"])),
        Case::args(
            "orbit-diagram --from 1e308 --to -1e308",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--from",
                "1e308",
                "--to",
                "-1e308",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &[])),
        Case::args(
            "orbit-diagram --from -inf",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--from",
                "-inf",
                "--to",
                "0.01",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["--from", "finite"])),
        Case::args(
            "orbit-diagram --to nan",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--from",
                "0.01",
                "--to",
                "nan",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["--to", "finite"])),
        Case::edit(
            "branch from == to",
            cont,
            &[(
                "from: 0.009, to: 0.05, guess: [0.2, -0.2], period_doublings: 1",
                "from: 0.009, to: 0.009, guess: [0.2, -0.2]",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["from"])),
        Case::edit(
            "branch from NaN",
            cont,
            &[(
                "from: 0.009, to: 0.05, guess: [0.2, -0.2], period_doublings: 1",
                "from: NaN, to: 0.05, guess: [0.2, -0.2]",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["from"])),
        Case::edit(
            "branch max_points Some(0)",
            cont,
            &[(
                "period_doublings: 1)",
                "period_doublings: 1, max_points: Some(0))",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["max_points"])),
        Case::edit(
            "branch guess NaN",
            cont,
            &[(
                "from: 0.009, to: 0.05, guess: [0.2, -0.2], period_doublings: 1",
                "from: 0.009, to: 0.05, guess: [NaN, -0.2]",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["guess"])),
        Case::args(
            "continue in an integer parameter",
            &[
                "continue",
                "{models}/simplest_walker_continuation.ron",
                "--param",
                "spokes",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["spokes"])),
        Case::args(
            "continue --to equal to a branch start",
            &[
                "continue",
                "{models}/simplest_walker_continuation.ron",
                "--to",
                "0.009",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["--to"])),
        Case::args(
            "van der Pol equilibrium is not an orbit",
            &["orbit", "{models}/van_der_pol.ron", "--guess", "1e-300"],
        )
        .expect(Fails(1, &["equilibrium"])),
        Case::args(
            "van der Pol limit cycle still found",
            &["orbit", "{models}/van_der_pol.ron", "--json"],
        )
        .expect(Succeeds(&["\"period\":6.6632868593"])),
        // 5. Output destination checked before computing.
        Case::args(
            "continue --out is a file",
            &[
                "continue",
                "{models}/simplest_walker_continuation.ron",
                "--out",
                "{models}/simplest_walker.ron",
            ],
        )
        .expect(Fails(2, &["simplest_walker.ron"])),
        Case::args(
            "orbit-diagram --out under a file",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--out",
                "{models}/van_der_pol.ron/figs",
            ],
        )
        .expect(Fails(2, &["van_der_pol.ron"])),
        // 6. Settings found late, messages, file encoding, --all.
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
        // Second round of probing.
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
            "h_max subnormal prints a short number",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), h_max: 5e-324)",
            )],
            &["orbit"],
        )
        .expect(Fails(1, &["maximum number of steps", "e-319"])),
        Case::edit(
            "t_max subnormal prints a short number",
            walker,
            &[("t_max: 20.0", "t_max: 5e-324")],
            &["orbit"],
        )
        .expect(Fails(1, &["5e-324"])),
        Case::args(
            "clap errors are one line",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--count",
                "-1",
            ],
        )
        .expect(Fails(2, &["-1", "--help"])),
        Case::args("a device as the model", &["orbit", "/dev/zero"])
            .expect(Fails(2, &["not a regular file"])),
        Case::edit(
            "eigen: Lapack without the feature",
            walker,
            &[("newton: (ftol", "eigen: Lapack, newton: (ftol")],
            &["orbit"],
        )
        .expect(Fails(2, &["eigen", "lapack"])),
        Case::edit(
            "t_max NaN",
            walker,
            &[("t_max: 20.0", "t_max: NaN")],
            &["orbit"],
        )
        .expect(Fails(2, &["t_max"])),
        Case::edit(
            "ftol negative",
            walker,
            &[("ftol: 1e-13", "ftol: -1.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["ftol"])),
        Case::edit(
            "guess in the file is NaN",
            walker,
            &[("u: [0.2, -0.2]", "u: [NaN, -0.2]")],
            &["orbit"],
        )
        .expect(Fails(2, &["guess", "stable (long-period) gait"])),
        Case::args(
            "a tiny guess prints short numbers",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--guess",
                "1e-300,-1e300",
            ],
        )
        .expect(Fails(1, &["1e-300", "-1e300"])),
        Case::edit(
            "byte-order mark",
            walker,
            &[("// The simplest", "\u{feff}// The simplest")],
            &["orbit", "--json"],
        )
        .expect(Succeeds(&["\"period\":"])),
        Case::edit(
            "missing model",
            walker,
            &[("model: SimplestWalker(gamma: 0.009),", "")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "model"])),
        Case::edit(
            "duplicated section",
            walker,
            &[("newton: (ftol", "newton: (ftol: 1e-13), newton: (ftol")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "newton"])),
        Case::edit(
            "unknown model",
            walker,
            &[("SimplestWalker(", "SimplestWalk(")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "SimplestWalk"])),
        Case::edit(
            "unknown parameter",
            walker,
            &[("gamma: 0.009", "gama: 0.009")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "gama"])),
        Case::edit(
            "unknown field",
            walker,
            &[("t_max: 20.0", "t_maxx: 20.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "t_maxx"])),
        Case::edit(
            "--all keeps every guess's result",
            walker,
            &[("u: [0.19, -0.2]", "u: [1.2, 0.5]")],
            &["orbit", "--all", "--json"],
        )
        .expect(Expect::Partial(
            1,
            &["\"period\":", "\"error\":", "walker fell"],
            &["1 of 2 guesses failed"],
        )),
        Case::args(
            "no continuation section",
            &["continue", "{models}/simplest_walker.ron", "--out", "{out}"],
        )
        .expect(Fails(2, &["no `continuation` section"])),
        Case::args("unreadable file", &["orbit", "{out}/nowhere.ron"])
            .expect(Fails(2, &["cannot read"])),
        Case::args("a directory as the model", &["orbit", "{models}"])
            .expect(Fails(2, &["cannot read"])),
        // The integrator's method-specific settings.
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
        // `saltation simulate` and the `initial` section.
        Case::args(
            "simulate without an initial section",
            &["simulate", "{models}/simplest_walker.ron", "--t-end", "1"],
        )
        .expect(Fails(2, &["no `initial` section"])),
        Case::edit(
            "initial state of the wrong length",
            ball,
            &[("x: [1.0, 0.0]", "x: [1.0]")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &[
                "bouncing_ball.ron:19:",
                "initial state has 1 value",
                "2 state component",
            ],
        ))
        .located(),
        Case::edit(
            "initial mode out of range",
            ball,
            &[("mode: 0)", "mode: 5)")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &["bouncing_ball.ron:19:", "initial mode 5 is not a mode"],
        ))
        .located(),
        Case::edit(
            "unknown field in initial",
            ball,
            &[("x: [1.0, 0.0]", "y: [1.0, 0.0]")],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(2, &["bouncing_ball.ron:", "y"])),
        Case::args(
            "simulate with an unknown method",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--method",
                "rk45",
            ],
        )
        .expect(Fails(
            2,
            &["--method rk45", "unknown method", "ode45 (dp5)"],
        )),
        Case::args(
            "simulate by a MATLAB name",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--method",
                "ode45",
                "--json",
            ],
        )
        .expect(Succeeds(&[
            "\"method\":\"dp5\"",
            "\"events\":[{\"t\":0.4515236409857",
        ])),
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
        Case::args(
            "simulate --rtol out of range",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--rtol",
                "2",
            ],
        )
        .expect(Fails(2, &["--rtol 2", "rtol"])),
        Case::args(
            "simulate --atol zero",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--atol",
                "0",
            ],
        )
        .expect(Fails(2, &["--atol 0", "atol"])),
        Case::args(
            "simulate --atol NaN",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--atol",
                "NaN",
            ],
        )
        .expect(Fails(2, &["atol"])),
        Case::args(
            "simulate --t-end before the start",
            &["simulate", "{models}/bouncing_ball.ron", "--t-end", "-1"],
        )
        .expect(Fails(2, &["--t-end", "before the start"])),
        Case::args(
            "simulate --t-end infinite",
            &["simulate", "{models}/bouncing_ball.ron", "--t-end", "inf"],
        )
        .expect(Fails(2, &["--t-end", "finite"])),
        Case::args(
            "simulate without an end time",
            &["simulate", "{models}/bouncing_ball.ron"],
        )
        .expect(Fails(2, &["--t-end"])),
        Case::args(
            "simulate --at not increasing",
            &["simulate", "{models}/bouncing_ball.ron", "--at", "2,1"],
        )
        .expect(Fails(2, &["--at", "increasing"])),
        Case::args(
            "simulate --at after --t-end",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--at",
                "0.5,2",
            ],
        )
        .expect(Fails(2, &["--at", "after the end time"])),
        Case::args(
            "simulate --at malformed",
            &["simulate", "{models}/bouncing_ball.ron", "--at", "0.5,x"],
        )
        .expect(Fails(2, &["--at 0.5,x", "not a number"])),
        Case::args(
            "simulate --out is a file",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--t-end",
                "1",
                "--out",
                "{models}/bouncing_ball.ron",
            ],
        )
        .expect(Fails(2, &["bouncing_ball.ron"])),
        Case::args(
            "simulate into Zeno accumulation",
            &["simulate", "{models}/bouncing_ball.ron", "--t-end", "10"],
        )
        .expect(Fails(1, &["simulation of", "failed at t = 4.06"])),
        Case::args(
            "simulate at sample times",
            &[
                "simulate",
                "{models}/bouncing_ball.ron",
                "--at",
                "0,1,3",
                "--json",
            ],
        )
        .expect(Succeeds(&[
            "\"samples\":[{\"t\":0.0,\"x\":[1.0,0.0]",
            "\"t_end\":3.0",
        ])),
    ]
}

#[test]
fn bad_input_table() {
    support::run_all(cases());
}

/// Every number of every shipped model file, replaced in turn by NaN, ±∞ and 1e309, is refused
/// when the file is loaded (exit 2, with the file's line and column), whatever the subcommand.
#[test]
fn every_number_non_finite() {
    let mut cases = Vec::new();
    for file in support::shipped_files() {
        let text = support::read_model(&file);
        let sub: &[&str] = if text.contains("continuation:") {
            &["orbit-diagram", "--count", "2", "--out", "{out}"]
        } else {
            &["orbit"]
        };
        for (at, lit) in literal_numbers(&text) {
            for bad in ["NaN", "inf", "-inf", "1e309"] {
                let mut edited = text.clone();
                edited.replace_range(at..at + lit.len(), bad);
                let line = text[..at].matches('\n').count() + 1;
                cases.push(
                    Case::text(format!("{file}:{line}: {lit} -> {bad}"), &file, edited, sub)
                        .expect(Expect::Fails(2, &[]))
                        .located(),
                );
            }
        }
    }
    assert!(cases.len() > 100, "{}", cases.len());
    support::run_all(cases);
}

/// More guesses than a file may hold (10 000) are refused at load, before any solve.
#[test]
fn too_many_guesses() {
    let text = support::read_model("simplest_walker.ron");
    let many: String = (0..10_001)
        .map(|i| format!("(label: \"g{i}\", u: [0.2, -0.2]),"))
        .collect();
    let edited = text.replacen("guesses: [", &format!("guesses: [{many}"), 1);
    let case = Case::text(
        "10 001 guesses".into(),
        "simplest_walker.ron",
        edited,
        &["orbit", "--all"],
    )
    .expect(Expect::Fails(2, &["guesses", "at most 10000"]))
    .located();
    let dir = run_case(&case);
    let _ = std::fs::remove_dir_all(dir);
}

/// A FIFO (which would block a plain read forever) is refused as not a regular file.
#[test]
fn a_fifo_is_not_read() {
    let dir = std::env::temp_dir().join(format!("saltation-fifo-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let fifo = dir.join("model.ron");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo unavailable: skipped");
        return;
    }
    let case = Case::args(
        "a FIFO as the model",
        &["orbit", &fifo.display().to_string()],
    )
    .expect(Expect::Fails(2, &["not a regular file"]));
    let out = run_case(&case);
    let _ = std::fs::remove_dir_all(out);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn cases_run_in_isolation() {
    // The harness itself: a case that succeeds writes nothing outside --out.
    let case = Case::args(
        "orbit-diagram writes only under --out",
        &[
            "orbit-diagram",
            "{models}/simplest_walker_continuation.ron",
            "--count",
            "2",
            "--out",
            "{out}/figs",
        ],
    )
    .expect(Expect::Succeeds(&["files written"]));
    let dir = run_case(&case);
    let written: Vec<String> = std::fs::read_dir(dir.join("out").join("figs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(written.iter().any(|f| f.ends_with(".csv")), "{written:?}");
    assert!(!written.iter().any(|f| f.contains(".tmp")), "{written:?}");
    let _ = std::fs::remove_dir_all(dir);
}
