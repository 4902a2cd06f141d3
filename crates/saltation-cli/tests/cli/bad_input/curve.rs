//! `saltation curve`: its arguments (kind, the two parameters, the end value, the guess), a
//! model with no bifurcation of the kind near the guess, and the ends of a curve that the
//! model's parameter ranges cut short.

use super::harness::Case;

/// `saltation curve` on the vibrating table with `extra` arguments.
fn curve(name: &str, extra: &[&str]) -> Case {
    let mut args = vec![
        "curve",
        "{models}/equations/vibrating_table.ron",
        "--out",
        "{out}",
    ];
    args.extend_from_slice(extra);
    Case::args(name, &args)
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let pd = [
        "--kind",
        "period_doubling",
        "--param",
        "Gamma",
        "--param2",
        "e",
    ];
    let with = |more: &[&'static str]| -> Vec<&'static str> {
        let mut v = pd.to_vec();
        v.extend_from_slice(more);
        v
    };
    vec![
        curve(
            "curve: unknown kind",
            &[
                "--kind", "flip", "--param", "Gamma", "--param2", "e", "--to2", "0.6",
            ],
        )
        .expect(Fails(2, &["flip", "--kind"])),
        curve(
            "curve: unknown parameter",
            &[
                "--kind", "fold", "--param", "nope", "--param2", "e", "--to2", "0.6",
            ],
        )
        .expect(Fails(2, &["--param nope", "nope"])),
        curve(
            "curve: unknown second parameter",
            &[
                "--kind", "fold", "--param", "Gamma", "--param2", "nope", "--to2", "0.6",
            ],
        )
        .expect(Fails(2, &["--param2 nope"])),
        curve(
            "curve: the same parameter twice",
            &[
                "--kind", "fold", "--param", "e", "--param2", "e", "--to2", "0.6",
            ],
        )
        .expect(Fails(2, &["--param2 e", "a curve needs two parameters"])),
        curve("curve: --to2 NaN", &with(&["--to2", "nan"]))
            .expect(Fails(2, &["--to2", "must be finite"])),
        curve("curve: --to2 infinite", &with(&["--to2", "-inf"]))
            .expect(Fails(2, &["--to2", "must be finite"])),
        curve("curve: --to2 at the start", &with(&["--to2", "0.5"]))
            .expect(Fails(2, &["--to2 0.5", "no length"])),
        curve("curve: --to2 missing", &pd).expect(Fails(2, &["--to2"])),
        curve(
            "curve: guess of the wrong length",
            &with(&["--to2", "0.6", "--guess", "0.5"]),
        )
        .expect(Fails(
            2,
            &["--guess", "1 value(s)", "2 reduced coordinate(s)"],
        )),
        curve(
            "curve: malformed guess",
            &with(&["--to2", "0.6", "--guess", "0.5,x"]),
        )
        .expect(Fails(2, &["malformed --guess `0.5,x`"])),
        curve(
            "curve: start outside a parameter's range",
            &with(&["--to2", "0.6", "--set", "e=1.5"]),
        )
        .expect(Fails(2, &["--set e=1.5"])),
        curve(
            "curve: no Neimark–Sacker on the table's orbit (det J = e² < 1)",
            &[
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
        .expect(Fails(
            1,
            &[
                "no Neimark–Sacker bifurcation found in `Gamma` from 1.2 at `e` = 0.5",
                "towards larger Gamma",
                "towards smaller Gamma",
                "period doubling at 1.52682",
            ],
        )),
        curve(
            "curve: the fold curve to e = 0.6",
            &[
                "--kind", "fold", "--param", "Gamma", "--param2", "e", "--to2", "0.6",
            ],
        )
        .expect(Succeeds(&[
            "fold curve in (Gamma, e): starts at the fold Gamma = 1.047197551",
            "end: the second parameter reached its end value",
        ])),
        curve(
            "curve: past the restitution's range (e ≤ 1)",
            &with(&["--to2", "1.5"]),
        )
        .expect(Succeeds(&["end: parameter rejected by the model", "e"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
