//! Time-forced models (`forcing: (period: …)`, stroboscopic sections, `t` as the forcing
//! phase) and the expression language's `floor`, `mod` and `wrap`: every mistake refused on
//! load with the file's line and column (exit 2) and a message naming the place, and a model
//! whose vector field reads `t` without a declared period refused by `orbit`, `continue` and
//! `orbit-diagram` with a message that says how to declare it, while `simulate` runs it.

use super::harness::{run_all, Case, Expect};

fn cases() -> Vec<Case> {
    use Expect::{Fails, Succeeds};
    let table = "equations/vibrating_table_forced.ron";
    let osc = "equations/impact_oscillator_forced.ron";
    let edit = |name: &str, file: &str, edits: &[(&str, &str)], expect: &'static [&'static str]| {
        Case::edit(name, file, edits, &["orbit"])
            .expect(Fails(2, expect))
            .located()
    };
    // The oscillator without `forcing`, its section an event section (the flow reads `t`).
    let unforced: &[(&str, &str)] = &[
        ("        forcing: (period: \"2*pi/omega\"),\n", ""),
        (
            "section: (stroboscopic: (phase: \"0\"), free: [\"x\", \"v\"]),",
            "section: (after: \"stop\", free: [\"v\"], chart: [(\"x\", \"sigma\")]),",
        ),
        ("u: [-0.5, 0.3]", "u: [-1.2]"),
        ("x: [-0.5, 0.3, 0.0]", "x: [-0.5, 0.3]"),
    ];
    let undeclared: &'static [&'static str] = &[
        "declares no forcing period",
        "forcing: (period: \"2*pi/omega\")",
        "simulate",
    ];
    vec![
        edit(
            "forcing period reading a state",
            table,
            &[("period: \"2*pi/omega\"", "period: \"2*pi/v\"")],
            &["forcing.period", "unknown name `v`"],
        ),
        edit(
            "forcing period reading the time",
            table,
            &[("period: \"2*pi/omega\"", "period: \"2*pi/omega + t\"")],
            &["forcing.period", "cannot read the time"],
        ),
        edit(
            "forcing period zero at the file's values",
            table,
            &[("period: \"2*pi/omega\"", "period: \"0*omega\"")],
            &["forcing.period", "must be finite and > 0"],
        ),
        edit(
            "forcing with an unknown field",
            table,
            &[(
                "(period: \"2*pi/omega\")",
                "(period: \"2*pi/omega\", phase: 0.0)",
            )],
            &["phase"],
        ),
        Case::edit(
            "forcing period made negative by --set",
            table,
            &[("period: \"2*pi/omega\"", "period: \"omega - 1\"")],
            &["orbit", "--set", "omega=0.5"],
        )
        .expect(Fails(
            2,
            &["omega", "forcing period", "must be finite and > 0"],
        )),
        edit(
            "a guard reading t without forcing",
            table,
            &[("        forcing: (period: \"2*pi/omega\"),\n", "")],
            &["guards[0].when", "reads the time `t`", "forcing: (period:"],
        ),
        edit(
            "event section of a forced model without the phase free",
            table,
            &[("free: [\"v\", \"t\"]", "free: [\"v\"]")],
            &["section.free", "list it in `free`"],
        ),
        edit(
            "the phase listed twice",
            table,
            &[("free: [\"v\", \"t\"]", "free: [\"v\", \"t\", \"t\"]")],
            &["section.free[2]", "listed twice"],
        ),
        edit(
            "stroboscopic section without forcing",
            osc,
            &[("        forcing: (period: \"2*pi/omega\"),\n", "")],
            &["section.stroboscopic", "forcing"],
        ),
        edit(
            "stroboscopic section with the phase free",
            osc,
            &[("free: [\"x\", \"v\"]", "free: [\"x\", \"v\", \"t\"]")],
            &["section.free[2]", "fixed on a stroboscopic section"],
        ),
        edit(
            "stroboscopic phase reading a state",
            osc,
            &[("phase: \"0\"", "phase: \"x\"")],
            &["section.stroboscopic.phase", "unknown name `x`"],
        ),
        edit(
            "stroboscopic phase not finite",
            osc,
            &[("phase: \"0\"", "phase: \"1/0\"")],
            &["section.stroboscopic.phase", "not finite"],
        ),
        edit(
            "section with both after and stroboscopic",
            osc,
            &[("(stroboscopic:", "(after: \"stop\", stroboscopic:")],
            &["section.stroboscopic", "not both"],
        ),
        edit(
            "section with neither after nor stroboscopic",
            osc,
            &[("(stroboscopic: (phase: \"0\"), free:", "(free:")],
            &["section", "say where strides start"],
        ),
        edit(
            "mod with one argument",
            osc,
            &[("\"x - sigma\"", "\"mod(x - sigma)\"")],
            &["guards[0].when", "mod"],
        ),
        edit(
            "wrap with two arguments",
            osc,
            &[("\"x - sigma\"", "\"wrap(x, sigma)\"")],
            &["guards[0].when", "wrap"],
        ),
        Case::args(
            "guess without the forcing phase",
            &[
                "orbit",
                "{models}/equations/vibrating_table_forced.ron",
                "--guess",
                "4.9",
            ],
        )
        .expect(Fails(2, &["1 value(s)", "2 reduced coordinate(s)"])),
        Case::edit(
            "initial state without the forcing phase",
            table,
            &[(
                "x: [0.266867058297047, 4.905, 0.127007495489371]",
                "x: [0.266867058297047, 4.905]",
            )],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &["initial state has 2 value", "3 state component"],
        ))
        .located(),
        Case::edit(
            "orbit of a model reading t without forcing",
            osc,
            unforced,
            &["orbit"],
        )
        .expect(Fails(2, undeclared)),
        Case::edit(
            "orbit-diagram of a model reading t without forcing",
            osc,
            unforced,
            &[
                "orbit-diagram",
                "--param",
                "omega",
                "--from",
                "1.4",
                "--to",
                "1.6",
                "--count",
                "2",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, undeclared)),
        Case::edit(
            "continue of a model reading t without forcing",
            osc,
            unforced,
            &[
                "continue", "--param", "omega", "--to", "1.6", "--out", "{out}",
            ],
        )
        .expect(Fails(2, undeclared)),
        Case::edit(
            "simulate of a model reading t without forcing runs",
            osc,
            unforced,
            &["simulate", "--t-end", "2"],
        )
        .expect(Succeeds(&[])),
    ]
}

#[test]
fn table() {
    run_all(cases());
}
