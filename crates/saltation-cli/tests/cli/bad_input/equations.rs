//! Models written as equations: every mistake the loader must catch, each refused on load with
//! the file's line and column (exit 2) and a message naming the place — a syntax error with
//! its position in the expression, an unknown name with the nearest known ones, wrong counts,
//! a guard naming a missing mode, an undeclared parameter, a cycle among the definitions,
//! bounds — and a vector field that becomes NaN during integration, named by mode and
//! expression (exit 1).

use super::harness::{run_all, Case, Expect};

fn cases() -> Vec<Case> {
    use Expect::{Fails, Partial};
    let w = "equations/simplest_walker.ron";
    let edit = |name: &str, from: &str, to: &str, expect: &'static [&'static str]| {
        Case::edit(name, w, &[(from, to)], &["orbit"])
            .expect(Fails(2, expect))
            .located()
    };
    vec![
        edit(
            "syntax error inside an expression",
            "\"s + (dth^2 - cos(th - gamma))*sin(ph)\"",
            "\"s + (dth^2 - cos(th - gamma)*sin(ph)\"",
            &["modes[0].flow[3]", "character"],
        ),
        edit(
            "unknown name, nearest suggested",
            "when: \"ph - 2*th\"",
            "when: \"ph - 2*thh\"",
            &[
                "guards[0].when",
                "unknown name `thh`",
                "did you mean `th`",
                "character 8",
            ],
        ),
        edit(
            "parameter used but never declared",
            "(\"s\", \"sin(th - gamma)\")",
            "(\"s\", \"sin(th - slope)\")",
            &["let[0]", "unknown name `slope`"],
        ),
        edit(
            "unknown function",
            "(\"c2\", \"cos(2*th)\")",
            "(\"c2\", \"coss(2*th)\")",
            &["let[1]", "coss"],
        ),
        edit(
            "function with the wrong number of arguments",
            "(\"c2\", \"cos(2*th)\")",
            "(\"c2\", \"atan2(2*th)\")",
            &["let[1]", "atan2"],
        ),
        edit(
            "three expressions for four states",
            "flow: [\"dth\", \"s\", \"dph\",",
            "flow: [\"dth\", \"s\",",
            &["modes[0].flow", "3 expression(s) for 4 state(s)"],
        ),
        edit(
            "guard from a missing mode",
            "from: \"single stance\",\n                when: \"ph",
            "from: \"double stance\",\n                when: \"ph",
            &[
                "guards[0].from",
                "unknown mode `double stance`",
                "single stance",
            ],
        ),
        edit(
            "reset of a state that does not exist",
            "(\"dph\", \"c2*(1 - c2)*dth\")",
            "(\"dpsi\", \"c2*(1 - c2)*dth\")",
            &["guards[0].reset[3]", "unknown state `dpsi`", "dph"],
        ),
        edit(
            "reset naming a state twice",
            "(\"dph\", \"c2*(1 - c2)*dth\")",
            "(\"dth\", \"c2*(1 - c2)*dth\")",
            &["guards[0].reset[3]", "reset twice"],
        ),
        edit(
            "cycle among definitions",
            "(\"c2\", \"cos(2*th)\")",
            "(\"c2\", \"cos(2*th) + s2\"), (\"s2\", \"c2\")",
            &["let[", "cycle", "c2 -> s2 -> c2"],
        ),
        edit(
            "definition shadowing a state",
            "(\"c2\", \"cos(2*th)\")",
            "(\"ph\", \"cos(2*th)\")",
            &["ph", "declared twice"],
        ),
        edit(
            "state named like a function",
            "states: [\"th\", \"dth\", \"ph\", \"dph\"]",
            "states: [\"th\", \"dth\", \"exp\", \"dph\"]",
            &["states[2]", "reserved"],
        ),
        edit(
            "parameter outside its bounds",
            "value: 0.009, min:",
            "value: 2.0, min:",
            &["parameters[0]", "outside its min/max"],
        ),
        edit(
            "section after a missing guard",
            "after: \"heelstrike\"",
            "after: \"heelstrke\"",
            &["section.after", "did you mean `heelstrike`"],
        ),
        edit(
            "chart leaves a state undetermined",
            "chart: [(\"ph\", \"2*th\"), (\"dph\", \"(1 - cos(2*th))*dth\")]",
            "chart: [(\"ph\", \"2*th\")]",
            &["section.chart", "`dph` is neither free nor given"],
        ),
        edit(
            "chart uses a state that is not free",
            "(\"dph\", \"(1 - cos(2*th))*dth\")",
            "(\"dph\", \"(1 - cos(2*th))*ph\")",
            &["section.chart[1]", "unknown name `ph`"],
        ),
        edit(
            "failure guard with a reset",
            "failure: \"the walker fell (stance leg past horizontal)\"",
            "failure: \"the walker fell\", reset: [(\"th\", \"0\")]",
            &["guards[1].failure", "no `to` or `reset`"],
        ),
        edit(
            "a number too large for a double in an expression",
            "when: \"ph - 2*th\"",
            "when: \"ph - 1e999*th\"",
            &["guards[0].when"],
        ),
        edit(
            "empty expression",
            "when: \"ph - 2*th\"",
            "when: \"\"",
            &["guards[0].when"],
        ),
        edit(
            "unknown field in a guard",
            "direction: Rising,\n                enabled",
            "direction: Rising, trigger: 1,\n                enabled",
            &["trigger"],
        ),
        Case::edit(
            "start mode that is not where the section starts",
            "equations/hopper_unconstrained.ron",
            &[("start_mode: 0,", "start_mode: 1,")],
            &["orbit"],
        )
        .expect(Fails(
            2,
            &["section starts after its guard", "start_mode: 0"],
        ))
        .located(),
        Case::edit(
            "a guard with the wrong direction shows in the failure",
            w,
            &[(
                "when: \"ph - 2*th\",\n                direction: Rising,",
                "when: \"ph - 2*th\",\n                direction: Falling,",
            )],
            &["orbit"],
        )
        .expect(Fails(
            1,
            &[
                "the walker fell",
                "crossings seen and not taken",
                "guard 0",
                "it went from − to +, but the guard counts falling",
            ],
        )),
        Case::edit(
            "an enabling condition never true shows in the failure",
            w,
            &[("enabled: \"th < 0\"", "enabled: \"th > 1\"")],
            &["orbit"],
        )
        .expect(Fails(
            1,
            &["the walker fell", "its enabling condition was false"],
        )),
        Case::edit(
            "--set of an undeclared parameter",
            w,
            &[],
            &["orbit", "--set", "gama=0.01"],
        )
        .expect(Fails(2, &["unknown parameter `gama`", "gamma"])),
        Case::edit(
            "--set outside the bounds",
            w,
            &[],
            &["orbit", "--set", "gamma=3"],
        )
        .expect(Fails(2, &["gamma", "out of range"])),
        Case::edit(
            "NaN during integration names the mode and the expression",
            "equations/van_der_pol.ron",
            &[
                ("\"epsilon*(1 - x^2)*y - x\"", "\"epsilon*(1 - x^2)*y - q\""),
                (
                    "modes: [",
                    "let: [(\"q\", \"x + 0*sqrt(x)\")],\n        modes: [",
                ),
            ],
            &["orbit"],
        )
        .expect(Fails(
            1,
            &[
                "NaN or Inf",
                "dy/dt",
                "mode `flow`",
                "`sqrt(x)`",
                "definition `q`",
            ],
        )),
        Case::edit(
            "NaN during a simulation keeps what was computed",
            "equations/bouncing_ball.ron",
            &[("flow: [\"v\", \"-g\"]", "flow: [\"v\", \"-g + 0*log(x)\"]")],
            &["simulate", "--t-end", "3"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY"],
            &["dv/dt", "`log(x)`", "mode `flight`"],
        )),
    ]
}

#[test]
fn equation_files() {
    run_all(cases());
}
