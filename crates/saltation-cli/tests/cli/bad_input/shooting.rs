//! Multiple shooting (`orbit: (shooting: …)`, `--shooting`): a number of pieces out of range,
//! so many pieces that the unknowns would not fit, words that are not a shooting, and models
//! where multiple shooting does not apply (time-forced, multipliers on the section).

use super::harness::{Case, Expect};

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    let walker = "simplest_walker.ron";
    let newton = "newton: (ftol";
    vec![
        Case::edit(
            "PerMode(0) in the file",
            walker,
            &[(
                newton,
                "shooting: Multiple(segments: PerMode(0)), newton: (ftol",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["shooting", "PerMode(0)", "1..=1000"])),
        Case::edit(
            "PerMode(1001) in the file",
            walker,
            &[(
                newton,
                "shooting: Multiple(segments: PerMode(1001)), newton: (ftol",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["shooting", "PerMode(1001)", "1..=1000"])),
        Case::edit(
            "a shooting that is not one",
            walker,
            &[(newton, "shooting: Multiple(segments: Phase), newton: (ftol")],
            &["orbit"],
        )
        .expect(Fails(2, &["Phase"])),
        Case::edit(
            "a negative number of pieces",
            walker,
            &[(
                newton,
                "shooting: Multiple(segments: PerMode(-3)), newton: (ftol",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &[])),
        Case::args(
            "--shooting 0",
            &["orbit", "{models}/simplest_walker.ron", "--shooting", "0"],
        )
        .expect(Fails(2, &["shooting", "PerMode(0)", "1..=1000"])),
        Case::args(
            "--shooting 1000: more unknowns than a dense Newton matrix may hold",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--shooting",
                "1000",
            ],
        )
        .expect(Fails(2, &["shooting", "3998 unknowns", "more than 1024"])),
        Case::args(
            "--shooting with a number beyond 64 bits",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--shooting",
                "99999999999999999999999",
            ],
        )
        .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::args(
            "--shooting with a word",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--shooting",
                "many",
            ],
        )
        .expect(Fails(2, &["--shooting", "single", "phases"])),
        Case::args(
            "--shooting phases on a time-forced model",
            &[
                "orbit",
                "{models}/equations/vibrating_table_forced.ron",
                "--shooting",
                "phases",
            ],
        )
        .expect(Fails(2, &["shooting", "time-forced", "Single"])),
        Case::edit(
            "Multiple on a time-forced model, in the file",
            "equations/vibrating_table_forced.ron",
            &[("orbit: (", "orbit: (shooting: Multiple(segments: Phases), ")],
            &["orbit"],
        )
        .expect(Fails(2, &["shooting", "time-forced"])),
        Case::args(
            "--shooting phases on a model whose multipliers are taken on the section",
            &["orbit", "{models}/hopper.ron", "--shooting", "phases"],
        )
        .expect(Fails(2, &["shooting", "on the section", "Single"])),
        Case::args(
            "--shooting single on the same model is fine",
            &[
                "orbit",
                "{models}/hopper.ron",
                "--shooting",
                "single",
                "--json",
            ],
        )
        .expect(Expect::Succeeds(&["\"shooting\":\"single\""])),
        Case::args(
            "--shooting phases says so in the JSON",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--shooting",
                "phases",
                "--json",
            ],
        )
        .expect(Expect::Succeeds(&[
            "\"shooting\":\"phases\"",
            "\"stable\":true",
        ])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
