//! Two-parameter curves: the `curves` of a continuation section (every field of a request) and
//! `saltation curve --direction`. Mistakes in a file are refused at load time, located; a
//! request for a bifurcation the branch does not have is reported, not dropped.

use super::harness::Case;

/// The shipped forced table's first curve request.
const REQUEST: &str =
    "(kind: PeriodDoubling, branch: \"period 1\", index: 0, param2: \"e\", to2: 0.8)";

/// The forced table with its first curve request replaced by `request`, run with `continue`.
fn request(name: &str, request: &'static str) -> Case {
    Case::edit(
        name,
        "equations/vibrating_table_forced.ron",
        &[(REQUEST, request)],
        &["continue", "--out", "{out}"],
    )
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let table = "equations/vibrating_table_forced.ron";
    let curve = |direction: &'static str| {
        Case::args(
            "curve: --direction",
            &[
                "curve",
                "{models}/equations/vibrating_table.ron",
                "--kind",
                "period_doubling",
                "--param",
                "Gamma",
                "--param2",
                "e",
                "--to2",
                "0.6",
                "--direction",
                direction,
                "--out",
                "{out}",
            ],
        )
    };
    vec![
        curve("sideways").expect(Fails(2, &["sideways", "--direction"])),
        curve("").expect(Fails(2, &["--direction"])),
        curve("Backward").expect(Fails(2, &["Backward", "--direction"])),
        curve("backward").expect(Succeeds(&[
            "period doubling curve in (Gamma, e)",
            "parameter rejected by the model",
        ])),
        request(
            "curves: grazing curves cannot be asked for",
            "(kind: Grazing, branch: \"period 1\", param2: \"e\", to2: 0.8)",
        )
        .expect(Fails(2, &["Grazing"]))
        .located(),
        request(
            "curves: kind in snake case",
            "(kind: period_doubling, branch: \"period 1\", param2: \"e\", to2: 0.8)",
        )
        .expect(Fails(2, &["period_doubling"]))
        .located(),
        request(
            "curves: kind missing",
            "(branch: \"period 1\", param2: \"e\", to2: 0.8)",
        )
        .expect(Fails(2, &["kind"]))
        .located(),
        request(
            "curves: unknown field",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: 0.8, param: \"Gamma\")",
        )
        .expect(Fails(2, &["param"]))
        .located(),
        request(
            "curves: a branch the section does not have",
            "(kind: Fold, branch: \"period 2\", param2: \"e\", to2: 0.8)",
        )
        .expect(Fails(
            2,
            &["curves[0].branch", "\"period 2\"", "\"period 1\""],
        ))
        .located(),
        request(
            "curves: unknown second parameter",
            "(kind: Fold, branch: \"period 1\", param2: \"E\", to2: 0.8)",
        )
        .expect(Fails(2, &["curves[0].param2", "E"]))
        .located(),
        request(
            "curves: the second parameter is the first",
            "(kind: Fold, branch: \"period 1\", param2: \"Gamma\", to2: 0.8)",
        )
        .expect(Fails(2, &["curves[0].param2", "needs a second one"]))
        .located(),
        request(
            "curves: to2 at the model's value",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: 0.5)",
        )
        .expect(Fails(2, &["curves[0].to2", "no length"]))
        .located(),
        request(
            "curves: to2 NaN",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: NaN)",
        )
        .expect(Fails(2, &["to2"]))
        .located(),
        request(
            "curves: to2 missing",
            "(kind: Fold, branch: \"period 1\", param2: \"e\")",
        )
        .expect(Fails(2, &["to2"]))
        .located(),
        request(
            "curves: negative index",
            "(kind: Fold, branch: \"period 1\", index: -1, param2: \"e\", to2: 0.8)",
        )
        .expect(Fails(2, &[]))
        .located(),
        request(
            "curves: index not an integer",
            "(kind: Fold, branch: \"period 1\", index: 0.5, param2: \"e\", to2: 0.8)",
        )
        .expect(Fails(2, &[]))
        .located(),
        request(
            "curves: unknown direction",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: 0.8, direction: Up)",
        )
        .expect(Fails(2, &["Up"]))
        .located(),
        request(
            "curves: max_points 0",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: 0.8, max_points: 0)",
        )
        .expect(Fails(2, &["curves[0].max_points", "1..=100000"]))
        .located(),
        request(
            "curves: max_points beyond the limit",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: 0.8, max_points: 1000000000)",
        )
        .expect(Fails(2, &["curves[0].max_points"]))
        .located(),
        Case::edit(
            "curves: not a list",
            table,
            &[("curves: [", "curves: (")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &[]))
        .located(),
        Case::edit(
            "curves: a section with no branches",
            table,
            &[(
                "branches: [\n            (label: \"period 1\", from: 1.5, to: 2.5, guess: [4.9, 0.13], period_doublings: 1),\n        ],",
                "branches: [],",
            )],
            &["orbit-diagram", "--count", "2", "--out", "{out}"],
        )
        .expect(Fails(2, &["curves", "has none"]))
        .located(),
        Case::edit(
            "curves: --param makes the second parameter the first",
            table,
            &[(REQUEST, "(kind: Fold, branch: \"period 1\", param2: \"omega\", to2: 7.0)")],
            &["continue", "--param", "omega", "--out", "{out}"],
        )
        .expect(Fails(2, &["curves[0].param2", "needs a second one"])),
        request(
            "curves: a bifurcation the branch does not have is reported",
            "(kind: Fold, branch: \"period 1\", param2: \"e\", to2: 0.8)",
        )
        .expect(Succeeds(&["not started: no fold on branch \"period 1\""])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
