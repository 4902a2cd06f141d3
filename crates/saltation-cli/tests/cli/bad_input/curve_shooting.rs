//! Multiple shooting for two-parameter curves (`curve --shooting single|phases|N`, and the
//! continuation file's `settings.shooting` for `curve` and for a section's `curves:`): fold and
//! period-doubling curves run by multiple shooting; Neimark–Sacker and grazing curves are
//! refused with a typed error naming the setting; words, zero and too many pieces are refused
//! as for `continue --shooting`.

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
            "curve --shooting phases: Neimark–Sacker curves are single shooting only",
            "neimark_sacker",
            &["--shooting", "phases"],
        )
        .expect(Fails(
            2,
            &["--shooting phases", "fold and period-doubling curves only"],
        )),
        curve(
            "curve --shooting 2: grazing curves are single shooting only",
            "grazing",
            &["--shooting", "2"],
        )
        .expect(Fails(2, &["--shooting 2", "fold and period-doubling"])),
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
        curve("curve --shooting -1", "fold", &["--shooting=-1"])
            .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::edit(
            "curve: the file's settings.shooting applies (Neimark–Sacker refused)",
            table,
            &[(
                SETTINGS,
                "settings: (corrector_tol: 1e-10, shooting: Phases),",
            )],
            &[
                "curve",
                "--out",
                "{out}",
                "--kind",
                "neimark_sacker",
                "--param",
                "Gamma",
                "--param2",
                "e",
                "--to2",
                "0.6",
            ],
        )
        .expect(Fails(2, &["shooting", "fold and period-doubling"])),
        Case::edit(
            "curves: a Neimark–Sacker request in a section with multiple shooting",
            table,
            &[(
                SETTINGS,
                "settings: (corrector_tol: 1e-10, shooting: PerMode(2)),\n        curves: [(kind: \
                 NeimarkSacker, branch: \"period-1 orbit\", param2: \"e\", to2: 0.6)],",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["curves[0].kind", "fold and period-doubling"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
