//! The output destination is checked before anything is computed.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    vec![
        Case::args(
            "continue --out is a file",
            &[
                "continue",
                "{models}/simplest_walker_continuation.ron",
                "--out",
                "{models}/simplest_walker.ron",
            ],
        )
        .expect(Fails(2, &["simplest_walker.ron"])),
        Case::args(
            "orbit-diagram --out under a file",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--out",
                "{models}/van_der_pol.ron/figs",
            ],
        )
        .expect(Fails(2, &["van_der_pol.ron"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
