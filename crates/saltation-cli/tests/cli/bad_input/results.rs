//! Input that once gave wrong results with exit 0: continuation and orbit-diagram ranges,
//! components and starts, branch settings, an equilibrium taken for an orbit.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let cont = "simplest_walker_continuation.ron";
    let hopper = "hopper_continuation.ron";
    vec![
        Case::edit(
            "continue: event-time predictor beyond the stride's events",
            hopper,
            &[("predictor: Arclength,", "predictor: EventTime(event: 2),")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["predictor.event", "event 2", "2 events"])),
        Case::edit(
            "continue: unknown predictor",
            hopper,
            &[("predictor: Arclength,", "predictor: FlightTime,")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["hopper_continuation.ron:", "FlightTime"]))
        .located(),
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
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
