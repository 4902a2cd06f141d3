//! Messages: numbers printed short (subnormal settings, tiny guesses), command-line errors on
//! one line.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    let walker = "simplest_walker.ron";
    vec![
        Case::edit(
            "h_max subnormal prints a short number",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), h_max: 5e-324)",
            )],
            &["orbit"],
        )
        .expect(Fails(1, &["maximum number of steps", "e-319"])),
        Case::edit(
            "t_max subnormal prints a short number",
            walker,
            &[("t_max: 20.0", "t_max: 5e-324")],
            &["orbit"],
        )
        .expect(Fails(1, &["5e-324"])),
        Case::args(
            "clap errors are one line",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--count",
                "-1",
            ],
        )
        .expect(Fails(2, &["-1", "--help"])),
        Case::args(
            "a tiny guess prints short numbers",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--guess",
                "1e-300,-1e300",
            ],
        )
        .expect(Fails(1, &["1e-300", "-1e300"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
