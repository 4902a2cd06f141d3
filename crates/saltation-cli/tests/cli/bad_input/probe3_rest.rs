//! The rest of three defects of the third bad-input probe: a non-finite Jacobian named as the
//! vector field's failure by the BDF, Rosenbrock and SDIRK methods (N13), flows with a constant
//! part that is NaN or infinite refused only when integrated, with exit code 1 (N17), and a
//! result lost without a word when standard output is closed or cannot be written (N20).

use super::harness::{self, Case};

/// The equation van der Pol with an `initial` section, with each `(from, to)` replaced once.
fn vdp(name: &str, edits: &[(&str, &str)], args: &[&str]) -> Case {
    let mut all = vec![(
        "    guesses:",
        "    initial: (t: 0.0, x: [2.0, 0.0], mode: 0),\n    guesses:",
    )];
    all.extend_from_slice(edits);
    Case::edit(name, "equations/van_der_pol.ron", &all, args)
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Partial};
    let mut cases = Vec::new();
    // N13: `sqrt(x^2)` is finite at 0 but its derivative x/|x| is 0/0: every method that
    // evaluates the Jacobian names it (radau5 did; the others said "singular iteration
    // matrix").
    for method in [
        "radau5",
        "bdf",
        "ndf",
        "rosenbrock23",
        "trapezoid",
        "trbdf2",
        "ode15s",
    ] {
        cases.push(
            vdp(
                &format!("N13: {method} names a non-finite Jacobian"),
                &[
                    ("epsilon*(1 - x^2)*y - x", "sqrt(x^2)"),
                    ("x: [2.0, 0.0]", "x: [0.0, 0.0]"),
                ],
                &["simulate", "--method", method, "--t-end", "1"],
            )
            .expect(Partial(
                1,
                &["STOPPED EARLY"],
                &[
                    "the Jacobian ∂f/∂x is not finite at t = 0",
                    "not differentiable",
                ],
            )),
        );
    }
    // N17: a part of a flow made of numbers alone that is NaN or infinite is refused when the
    // file is read (exit 2, with the line, the column and the part), by `orbit` as by
    // `simulate`.
    for (flow, part) in [
        (
            "log(-1) + y",
            "`log(-1)` is made of numbers alone and its value is NaN",
        ),
        (
            "1/0 + y",
            "`1/0` is made of numbers alone and its value is inf",
        ),
        (
            "y + 0/0",
            "`0/0` is made of numbers alone and its value is NaN",
        ),
        ("sqrt(-1)*y", "`sqrt(-1)` is made of numbers alone"),
        ("y - asin(2)", "`asin(2)` is made of numbers alone"),
        (
            "pow(10,400)",
            "`pow(10,400)` is made of numbers alone and its value is inf",
        ),
    ] {
        let edit = format!("flow: [\"{flow}\",");
        for sub in [&["orbit"][..], &["simulate", "--t-end", "1"][..]] {
            cases.push(
                vdp(
                    &format!("N17: flow `{flow}` with {}", sub[0]),
                    &[("flow: [\"y\",", &edit)],
                    sub,
                )
                .expect(Fails(
                    2,
                    Box::leak(Box::new([part, "modes[0].flow[0]", "at character"])),
                ))
                .located(),
            );
        }
    }
    // The same in a `let`, a guard and a reset: refused in its own text.
    cases.push(
        vdp(
            "N17: a let that is log(0)",
            &[
                (
                    "modes: [",
                    "let: [(\"k\", \"2*log(0)\")],\n        modes: [",
                ),
                ("flow: [\"y\",", "flow: [\"y + k\","),
            ],
            &["orbit"],
        )
        .expect(Fails(
            2,
            &["`log(0)` is made of numbers alone", "value is -inf"],
        ))
        .located(),
    );
    // A branch on the state may leave a region undefined on purpose: loaded, and the NaN is
    // named when the integration reaches it.
    cases.push(
        vdp(
            "N17: 0/0 inside a branch on the state is allowed",
            &[("flow: [\"y\",", "flow: [\"if(x > 1, y, 0/0)\",")],
            &["simulate", "--t-end", "10"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY"],
            &["NaN or Inf", "if(x > 1, y, 0/0)"],
        )),
    );
    cases
}

#[test]
fn probe3_rest_cases() {
    harness::run_all(cases());
}

/// N20: with standard output closed the command refuses to run (exit 2, a message on stderr)
/// instead of computing a result that goes nowhere; `>/dev/null`, a choice, still runs.
#[test]
fn n20_closed_stdout_is_refused() {
    let walker = harness::models_dir().join("simplest_walker.ron");
    let walker = walker.to_str().unwrap();
    let out = harness::shell("probe3-rest", "exec \"$0\" \"$@\" >&-", &["orbit", walker]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        err.starts_with("error: standard output is closed") && err.contains("/dev/null"),
        "{err}"
    );
    let out = harness::shell(
        "probe3-rest",
        "exec \"$0\" \"$@\" >/dev/null",
        &["orbit", walker],
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");
}

/// N20: a write that fails is reported, with exit code 1: a full disk (`ENOSPC`), and a reader
/// that goes away before the result is written (`EPIPE`, a result of more than a pipe's
/// buffer).
#[test]
fn n20_failed_writes_are_reported() {
    let walker = harness::models_dir().join("simplest_walker.ron");
    let walker = walker.to_str().unwrap();
    if std::path::Path::new("/dev/full").exists() {
        let out = harness::shell(
            "probe3-rest",
            "exec \"$0\" \"$@\" >/dev/full",
            &["orbit", walker],
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(
            err.contains("cannot write the output") && err.contains("incomplete"),
            "{err}"
        );
    }
    // 2000 samples of the stiff van der Pol as JSON are far more than 64 KiB; `head` reads
    // one byte and exits, so the rest of the write meets a closed pipe.
    let vdp = harness::models_dir().join("van_der_pol_stiff.ron");
    let at: Vec<String> = (1..=2000).map(|k| format!("{}", k as f64 * 1e-3)).collect();
    let out = harness::shell(
        "probe3-rest",
        "{ \"$0\" \"$@\"; echo \"rc=$?\" >&2; } | head -c 1 >/dev/null",
        &[
            "simulate",
            vdp.to_str().unwrap(),
            "--at",
            &at.join(","),
            "--json",
        ],
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rc=1"), "{err}");
    assert!(
        err.contains("cannot write the output") && err.contains("incomplete"),
        "{err}"
    );
}
