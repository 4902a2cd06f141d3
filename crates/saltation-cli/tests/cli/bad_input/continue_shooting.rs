//! Multiple shooting in the continuation's correctors (`continue --shooting`, the continuation
//! settings' `shooting: …`, `curve --shooting`): words that are not a shooting, zero pieces, a
//! number of pieces beyond 64 bits or whose unknowns would not fit a dense Newton matrix, a bad
//! `shooting` field in the file (refused on load at its line and column, whatever the
//! subcommand), the event-time predictor, a time-forced model (curves: module `curve_shooting`).

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let cont = "simplest_walker_continuation.ron";
    let walker = "{models}/simplest_walker_continuation.ron";
    let tol = "corrector_tol: 1e-9,";
    let short = ["--to", "0.0095", "--out", "{out}"];
    let args = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["continue", walker];
        v.extend_from_slice(&short);
        v.extend_from_slice(extra);
        v
    };
    // Short branches, no period-doubling switch, a two-value orbit diagram.
    let small: &[(&str, &str)] = &[("count: 400", "count: 2"), ("period_doublings: 1", "")];
    let args_file = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["continue"];
        v.extend_from_slice(&short);
        v.extend_from_slice(extra);
        v
    };
    vec![
        Case::args(
            "continue --shooting with a word",
            &args(&["--shooting", "many"]),
        )
        .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::args("continue --shooting empty", &args(&["--shooting", ""]))
            .expect(Fails(2, &["--shooting"])),
        Case::args("continue --shooting negative", &args(&["--shooting=-2"]))
            .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::args(
            "continue --shooting beyond 64 bits",
            &args(&["--shooting", "99999999999999999999999"]),
        )
        .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::args("continue --shooting 0", &args(&["--shooting", "0"]))
            .expect(Fails(2, &["--shooting 0", "PerMode(0)", "1..=1000"])),
        Case::args("continue --shooting 1001", &args(&["--shooting", "1001"]))
            .expect(Fails(2, &["--shooting 1001", "1..=1000"])),
        Case::edit(
            "continue --shooting 1000: more unknowns than a dense Newton matrix may hold",
            cont,
            small,
            &args_file(&["--shooting", "1000"]),
        )
        .expect(Fails(2, &["--shooting 1000", "unknowns", "more than 1024"])),
        Case::edit(
            "settings shooting: PerMode(0), refused on load at its place",
            cont,
            &[(tol, "corrector_tol: 1e-9, shooting: PerMode(0),")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(
            2,
            &[
                "simplest_walker_continuation.ron:26:",
                "settings.shooting",
                "PerMode(0)",
                "1..=1000",
            ],
        ))
        .located(),
        Case::edit(
            "settings shooting: PerMode(0), for orbit too",
            cont,
            &[(tol, "corrector_tol: 1e-9, shooting: PerMode(0),")],
            &["orbit"],
        )
        .expect(Fails(
            2,
            &["simplest_walker_continuation.ron:26:", "shooting"],
        ))
        .located(),
        Case::edit(
            "settings shooting: a word that is not one",
            cont,
            &[(tol, "corrector_tol: 1e-9, shooting: Phase,")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["simplest_walker_continuation.ron:26:", "Phase"]))
        .located(),
        Case::edit(
            "settings shooting: the orbit options' spelling",
            cont,
            &[(
                tol,
                "corrector_tol: 1e-9, shooting: Multiple(segments: Phases),",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(
            2,
            &["simplest_walker_continuation.ron:26:", "Multiple"],
        ))
        .located(),
        Case::edit(
            "settings shooting: a negative number of pieces",
            cont,
            &[(tol, "corrector_tol: 1e-9, shooting: PerMode(-3),")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["simplest_walker_continuation.ron:26:"]))
        .located(),
        Case::edit(
            "settings shooting with the event-time predictor",
            cont,
            &[(
                tol,
                "corrector_tol: 1e-9, shooting: Phases, predictor: EventTime(event: 0),",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(
            2,
            &[
                "simplest_walker_continuation.ron:26:",
                "shooting",
                "event-time",
            ],
        ))
        .located(),
        Case::args(
            "continue --shooting phases on a time-forced model",
            &[
                "continue",
                "{models}/equations/vibrating_table_forced.ron",
                "--shooting",
                "phases",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["--shooting phases", "time-forced"])),
        Case::edit(
            "continue --shooting phases on short branches works",
            cont,
            small,
            &args_file(&["--shooting", "phases", "--json"]),
        )
        .expect(Succeeds(&["\"branches\""])),
        Case::args(
            "curve --shooting 0",
            &[
                "curve",
                "{models}/equations/vibrating_table.ron",
                "--out",
                "{out}",
                "--kind",
                "period_doubling",
                "--param",
                "Gamma",
                "--param2",
                "e",
                "--to2",
                "0.6",
                "--shooting",
                "0",
            ],
        )
        .expect(Fails(2, &["--shooting 0", "1..=1000"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
