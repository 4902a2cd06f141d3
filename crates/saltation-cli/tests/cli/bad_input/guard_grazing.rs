//! `saltation curve --kind grazing` of a guard touched tangentially, on a model without
//! admissibility conditions: the forced impact oscillator, whose harmonic orbit grazes its stop
//! at `σ = A(ω, ζ)`; a stop the orbit never reaches within the parameter's range; the JSON's
//! name for the grazed guard.

use super::harness::Case;

const OSCILLATOR: &str = "equations/impact_oscillator_forced.ron";

/// The oscillator from `σ = 1.2` at `ω = 1.5` (the harmonic orbit's state at phase 0 as the
/// guess), with `more` after the common arguments.
fn oscillator(name: &str, more: &[&str]) -> Case {
    let mut args = vec![
        "curve",
        "{models}/equations/impact_oscillator_forced.ron",
        "--out",
        "{out}",
        "--kind",
        "grazing",
        "--param",
        "sigma",
        "--param2",
        "omega",
        "--set",
        "sigma=1.2",
        "--guess=-0.7887,0.1420",
    ];
    args.extend_from_slice(more);
    Case::args(name, &args)
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    vec![
        oscillator(
            "curve grazing (guard): the stop touched by the harmonic orbit",
            &["--to2", "1.55"],
        )
        .expect(Succeeds(&[
            "grazing (admissibility boundary) curve in (sigma, omega): starts at the grazing \
                 (admissibility boundary) sigma = 0.7943014",
            "grazing condition: `guard:stop` = 0 inside phase 0 (mode `free`)",
            "end: the second parameter reached its end value",
        ])),
        oscillator(
            "curve grazing (guard): the JSON names the guard",
            &["--to2", "1.52", "--json"],
        )
        .expect(Succeeds(&[
            r#""grazing":{"at":"interior","condition":"guard:stop","mode":"free","phase":0}"#,
            r#""end_reason":"reached""#,
        ])),
        Case::edit(
            "curve grazing (guard): a stop the orbit never reaches in the parameter's range",
            OSCILLATOR,
            &[(
                r#"(name: "sigma", value: 0.0)"#,
                r#"(name: "sigma", value: 1.2, min: 1.0, max: 1.5)"#,
            )],
            &[
                "curve",
                "--out",
                "{out}",
                "--kind",
                "grazing",
                "--param",
                "sigma",
                "--param2",
                "omega",
                "--guess=-0.7887,0.1420",
                "--to2",
                "1.6",
            ],
        )
        .expect(Fails(
            1,
            &[
                "no grazing (admissibility boundary) found in `sigma` from 1.2 at `omega` = 1.5",
                "towards larger sigma",
                "towards smaller sigma",
                "no bifurcation",
            ],
        )),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
