//! Admissibility conditions: the `admissible` field of an equation model (a missing mode, a
//! condition declared twice or without a name, a malformed expression, an unknown field: each
//! refused on load with the file's line and column), and `simulate` from an initial state that
//! breaks a condition or an equality of its mode (the probe's N7: refused with exit 2 naming the
//! condition, the mode, the value and the state) or along a trajectory that breaks one (exit 1
//! at the first violation, with what was computed printed).

use super::harness::{run_all, Case, Expect};

/// The constrained hopper's `initial` line, replaced by each of N7's states.
const HOPPER_INITIAL: &str = "x: [1.15, 1.15, 0.15, 0.15, 0.0, 0.0, 0.0, 0.0], mode: 0";

fn cases() -> Vec<Case> {
    use Expect::{Fails, Partial, Succeeds};
    let eq = "equations/hopper_unconstrained.ron";
    let ground = "(name: \"ground force\", mode: \"ground\", when: \"-(spring + d_G*(dz_U - dz_L) - m_L*g)\")";
    let edit = |name: &str, to: &str, expect: &'static [&'static str]| {
        Case::edit(name, eq, &[(ground, to)], &["orbit"])
            .expect(Fails(2, expect))
            .located()
    };
    let hopper = |name: &str, to: &str, expect: &'static [&'static str]| {
        Case::edit(
            name,
            "hopper.ron",
            &[(HOPPER_INITIAL, to)],
            &["simulate", "--t-end", "3", "--at", "3"],
        )
        .expect(Fails(2, expect))
    };
    vec![
        edit(
            "condition in a mode that does not exist, nearest suggested",
            "(name: \"ground force\", mode: \"grund\", when: \"z_L\")",
            &[
                "admissible[1].mode",
                "unknown mode `grund`",
                "did you mean `ground`",
            ],
        ),
        edit(
            "condition declared twice in its mode",
            "(name: \"lower block above ground\", mode: \"flight\", when: \"z_L + 1\")",
            &["admissible[1].name", "declared twice"],
        ),
        edit(
            "condition without a name",
            "(name: \" \", mode: \"ground\", when: \"z_L\")",
            &["admissible[1].name", "needs a name"],
        ),
        edit(
            "condition with an unknown name in its expression",
            "(name: \"ground force\", mode: \"ground\", when: \"-lambda\")",
            &["admissible[1].when", "unknown name `lambda`"],
        ),
        edit(
            "condition with a syntax error",
            "(name: \"ground force\", mode: \"ground\", when: \"-(spring + \")",
            &["admissible[1].when", "character"],
        ),
        Case::edit(
            "condition with an unknown field",
            eq,
            &[(
                ground,
                "(name: \"ground force\", mode: \"ground\", if: \"z_L\")",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["hopper_unconstrained.ron:", "if"])),
        // N7: the constrained hopper's initial state against its constraints and contacts.
        hopper(
            "ground mode with the foot moving into the ground",
            "x: [1.3, 1.3, 0.0, 0.0, 0.0, 0.0, -5.0, -5.0], mode: 1",
            &[
                "`initial` of",
                "mode `ground`",
                "velocity constraint residual",
                "= 5 is not 0",
                "x = [1.3, 1.3, 0, 0, 0, 0, -5, -5]",
            ],
        ),
        hopper(
            "foot below the ground in flight",
            "x: [1.3, 1.3, -0.1, -0.1, 0.0, 0.0, 0.0, 0.0], mode: 0",
            &["mode `flight`", "condition `foot gap` = -0.1 < 0"],
        ),
        hopper(
            "rigid link broken (z1 != z2)",
            "x: [1.3, 1.2, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0], mode: 0",
            &["mode `flight`", "position constraint residual", "0.1"],
        ),
        hopper(
            "ground mode while airborne",
            "x: [1.3, 1.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0], mode: 1",
            &[
                "mode `ground`",
                "position constraint residual",
                "= 0.3 is not 0",
            ],
        ),
        hopper(
            "rigid link's rate broken (dz1 != dz2)",
            "x: [1.3, 1.3, 0.3, 0.3, 1.0, 0.0, 0.0, 0.0], mode: 0",
            &[
                "mode `flight`",
                "velocity constraint residual",
                "= 1 is not 0",
            ],
        ),
        // The same on the unconstrained hopper (its declared equalities and conditions).
        Case::edit(
            "unconstrained hopper: ground mode while airborne",
            "hopper_unconstrained.ron",
            &[(
                "x: [1.15, 0.15, 0.0, 0.0], mode: 0",
                "x: [1.15, 0.15, 0.0, 0.0], mode: 1",
            )],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &["mode `ground`", "z_L on the ground = 0.15 is not 0"],
        )),
        Case::edit(
            "unconstrained hopper: ground pulls at the start",
            "hopper_unconstrained.ron",
            &[(
                "x: [1.15, 0.15, 0.0, 0.0], mode: 0",
                "x: [1.5, 0.0, 0.0, 0.0], mode: 1",
            )],
            &["simulate", "--t-end", "1"],
        )
        .expect(Fails(
            2,
            &["condition `ground force`", "< 0", "x = [1.5, 0, 0, 0]"],
        )),
        // Along a trajectory: dropped from 1.3 m, the foot lands at 2.43 m/s and the negative
        // ground damping makes the ground pull (λ⁺ = 80 · 2.43 − 15 · 9.81 = 46.9 N).
        Case::edit(
            "simulate into a pulling ground",
            "hopper.ron",
            &[(
                HOPPER_INITIAL,
                "x: [1.3, 1.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0], mode: 0",
            )],
            &["simulate", "--t-end", "3", "--at", "3"],
        )
        .expect(Partial(
            1,
            &["STOPPED EARLY", "condition `foot force`"],
            &[
                "failed at t = 0.2473",
                "of mode `ground`: condition `foot force` = -46.93",
            ],
        )),
        Case::edit(
            "simulate into a pulling ground, allowed",
            "hopper.ron",
            &[(
                HOPPER_INITIAL,
                "x: [1.3, 1.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0], mode: 0",
            )],
            &[
                "simulate",
                "--t-end",
                "3",
                "--at",
                "3",
                "--allow-inadmissible",
            ],
        )
        .expect(Succeeds(&["samples"])),
        Case::edit(
            "initial state refused unless allowed",
            "hopper.ron",
            &[(
                HOPPER_INITIAL,
                "x: [1.3, 1.3, 0.3, 0.3, 0.0, 0.0, 0.0, 0.0], mode: 1",
            )],
            &["simulate", "--t-end", "0.1", "--allow-inadmissible"],
        )
        .expect(Succeeds(&["end state"])),
    ]
}

#[test]
fn table() {
    run_all(cases());
}
