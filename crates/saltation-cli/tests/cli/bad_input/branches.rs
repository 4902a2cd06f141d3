//! Branches that cannot start, switching at period doublings, and orbit-diagram failures: a
//! script whose branches all fail is exit 1 with each branch's real cause, even beside an orbit
//! diagram (probe defect N10); the vibrating table's parameters, start and switch; failed
//! orbit-diagram runs reported as ranges with their cause in the model's words.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let table = "equations/vibrating_table.ron";
    vec![
        Case::args(
            "continue: no branch can start, the file has an orbit diagram (N10)",
            &[
                "continue",
                "{models}/equations/compass_gait_continuation.ron",
                "--param",
                "m",
                "--to",
                "0",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(
            1,
            &[
                "no branch could start: \"period-1 gait, up\": the walker fell",
                "\"period-1 gait, down\": the walker fell",
            ],
        )),
        Case::edit(
            "vibrating table: restitution below 0",
            table,
            &[],
            &["orbit", "--set", "e=-0.1"],
        )
        .expect(Fails(2, &["e", "0 <= e <= 1"])),
        Case::edit(
            "vibrating table: branch starts below the period-1 orbit's existence",
            table,
            &[("from: 1.2, to: 2.0", "from: 0.9, to: 2.0")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(1, &["no branch could start: \"period-1 orbit\": "])),
        Case::edit(
            "vibrating table: too many period doublings",
            table,
            &[("period_doublings: 1", "period_doublings: 11")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["period_doublings", "11"])),
        Case::edit(
            "vibrating table: switch at the flip onto the period-2 branch",
            table,
            &[],
            &["continue", "--out", "{out}"],
        )
        .expect(Succeeds(&[
            "period doubling at Gamma = 1.5268237005",
            "branch \"period-2 from PD at 1.5268237005\" (period 2)",
            "stopped at its first period doubling",
            "period doubling at Gamma = 1.66713066",
        ])),
        Case::edit(
            "vibrating table: orbit diagram without failures",
            table,
            &[],
            &[
                "orbit-diagram",
                "--from",
                "1.2",
                "--to",
                "1.7",
                "--count",
                "3",
                "--out",
                "{out}",
            ],
        )
        .expect(Succeeds(&["no run failed"])),
        Case::args(
            "orbit diagram: consecutive failures are one range with the model's cause",
            &[
                "orbit-diagram",
                "{models}/equations/simplest_walker_continuation.ron",
                "--from",
                "0.0205",
                "--to",
                "0.0245",
                "--count",
                "2",
                "--out",
                "{out}",
            ],
        )
        .expect(Succeeds(&[
            "2 of 2 runs failed, in 1 range(s)",
            "(2 values): the walker fell (stance leg past horizontal)\n",
            "every run fails from γ = 0.020500000000 on",
        ])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
