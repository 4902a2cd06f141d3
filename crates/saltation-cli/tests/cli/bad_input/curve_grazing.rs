//! `saltation curve --kind grazing`: a model without admissibility conditions whose guards are
//! never touched tangentially, a branch that meets no grazing, and a grazing curve that runs
//! (the vibrating table under a ceiling, whose apex grazes it inside the flight).

use super::harness::Case;

const TABLE: &str = "equations/vibrating_table.ron";
const G_PARAM: &str = r#"(name: "g", value: 1.0, min: 0.0),"#;
const SECTION: &str = "        section: (after:";

/// The table with a ceiling at `h` (`H − y ≥ 0` in flight), run with `args` after the file.
fn under_ceiling(name: &str, h: &'static str, args: &[&str]) -> Case {
    let param = format!("{G_PARAM}\n            (name: \"H\", value: {h}),");
    let cond = format!(
        "        admissible: [(name: \"below ceiling\", mode: \"flight\", when: \"H - y\")],\n{SECTION}"
    );
    let mut all = vec!["curve", "--out", "{out}"];
    all.extend_from_slice(args);
    Case::edit(
        name,
        TABLE,
        &[(G_PARAM, param.leak()), (SECTION, cond.leak())],
        &all,
    )
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let grazing = [
        "--kind", "grazing", "--param", "Gamma", "--param2", "e", "--to2", "0.7",
    ];
    vec![
        // A guard touched tangentially is a grazing too: the table's branches touch none.
        Case::args(
            "curve grazing: a model without admissibility conditions, no guard touched",
            &[
                "curve",
                "{models}/equations/vibrating_table.ron",
                "--out",
                "{out}",
                "--kind",
                "grazing",
                "--param",
                "Gamma",
                "--param2",
                "e",
                "--to2",
                "0.6",
            ],
        )
        .expect(Fails(
            1,
            &["no grazing (admissibility boundary) found in `Gamma` from 1.2 at `e` = 0.5"],
        )),
        under_ceiling(
            "curve grazing: a ceiling the orbits never reach",
            "1000.0",
            &grazing,
        )
        .expect(Fails(
            1,
            &[
                "no grazing (admissibility boundary) found in `Gamma` from 1.2 at `e` = 0.5",
                "towards larger Gamma",
                "towards smaller Gamma",
            ],
        )),
        under_ceiling(
            "curve grazing: the table's apex under a ceiling, through its grazing–flip",
            "5.984802200544679",
            &grazing,
        )
        .expect(Succeeds(&[
            "grazing (admissibility boundary) curve in (Gamma, e): starts at the grazing \
             (admissibility boundary) Gamma = 1.48294393",
            "grazing condition: `below ceiling` = 0 inside phase 0 (mode `flight`)",
            "grazing–flip at Gamma = ",
            "end: the second parameter reached its end value",
        ])),
        under_ceiling(
            "curve grazing: --to2 at the start",
            "5.984802200544679",
            &[
                "--kind", "grazing", "--param", "Gamma", "--param2", "e", "--to2", "0.5",
            ],
        )
        .expect(Fails(2, &["--to2 0.5", "no length"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
