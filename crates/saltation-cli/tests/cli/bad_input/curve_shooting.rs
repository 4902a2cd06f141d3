//! Multiple shooting for two-parameter curves (`curve --shooting single|phases|N`, and the
//! continuation file's `settings.shooting`): curves run by multiple shooting from the flag and
//! from the file; words, zero, negative and too many pieces are refused as for
//! `continue --shooting`, and a bad `shooting` in the file on load, at its place.

use super::harness::Case;

/// `curve` on the vibrating table from its file's orbit, `kind` in (Gamma, e) to e = 0.6.
fn curve(name: &str, kind: &'static str, extra: &[&'static str]) -> Case {
    let mut args = vec![
        "curve",
        "{models}/equations/vibrating_table.ron",
        "--out",
        "{out}",
        "--kind",
        kind,
        "--param",
        "Gamma",
        "--param2",
        "e",
        "--to2",
        "0.6",
    ];
    args.extend_from_slice(extra);
    Case::args(name, &args)
}

/// The vibrating table's continuation settings (as shipped).
const SETTINGS: &str =
    "settings: (step: 0.01, min_step: 1e-9, max_step: 0.02, max_points: 400, corrector_tol: 1e-10),";

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let table = "equations/vibrating_table.ron";
    vec![
        curve(
            "curve --shooting phases: a period-doubling curve by multiple shooting",
            "period_doubling",
            &["--shooting", "phases", "--json"],
        )
        .expect(Succeeds(&["\"end_reason\":\"reached\""])),
        curve(
            "curve --shooting 3: three pieces per phase",
            "period_doubling",
            &["--shooting", "3", "--json"],
        )
        .expect(Succeeds(&["\"end_reason\":\"reached\""])),
        curve(
            "curve --shooting with a word",
            "fold",
            &["--shooting", "segments"],
        )
        .expect(Fails(2, &["--shooting", "single", "phases"])),
        curve("curve --shooting 0", "fold", &["--shooting", "0"])
            .expect(Fails(2, &["--shooting 0", "1..=1000"])),
        curve("curve --shooting 1001", "fold", &["--shooting", "1001"])
            .expect(Fails(2, &["--shooting 1001", "1..=1000"])),
        curve(
            "curve --shooting 1000: more unknowns than a dense Newton matrix may hold",
            "period_doubling",
            &["--shooting", "1000"],
        )
        .expect(Fails(
            2,
            &["--shooting 1000", "2999 unknowns", "more than 1024"],
        )),
        curve("curve --shooting -1", "fold", &["--shooting=-1"])
            .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::edit(
            "curve: the file's settings.shooting applies",
            table,
            &[(
                SETTINGS,
                "settings: (corrector_tol: 1e-10, shooting: PerMode(2)),",
            )],
            &[
                "curve",
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
                "--json",
            ],
        )
        .expect(Succeeds(&["\"end_reason\":\"reached\""])),
        Case::edit(
            "curve: settings shooting PerMode(0) in the file, refused on load at its place",
            table,
            &[(
                SETTINGS,
                "settings: (corrector_tol: 1e-10, shooting: PerMode(0)),",
            )],
            &[
                "curve",
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
            ],
        )
        .expect(Fails(2, &["shooting", "PerMode(0)"]))
        .located(),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
