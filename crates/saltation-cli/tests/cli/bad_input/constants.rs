//! Parameter values written as constant expressions (`gamma: "0.018/2"` in a file,
//! `--set gamma=0.018/2`): bad expressions, names, the time and non-finite values are refused
//! with the place, and a good one is used.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let walker = "simplest_walker.ron";
    let vdp = "equations/van_der_pol.ron";
    vec![
        Case::edit(
            "file value naming an unknown name",
            walker,
            &[("gamma: 0.009", "gamma: \"2*gama\"")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "unknown name `gama`"]))
        .located(),
        Case::edit(
            "file value 1/0",
            walker,
            &[("gamma: 0.009", "gamma: \"1/0\"")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "not a finite number"]))
        .located(),
        Case::edit(
            "file value reading t",
            walker,
            &[("gamma: 0.009", "gamma: \"t\"")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "time `t`"]))
        .located(),
        Case::edit(
            "file value out of range after evaluation",
            walker,
            &[("gamma: 0.009", "gamma: \"pi\"")],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:", "gamma"]))
        .located(),
        Case::edit(
            "equation model value log(-1)",
            vdp,
            &[("value: 1.0", "value: \"log(-1)\"")],
            &["orbit"],
        )
        .expect(Fails(2, &["van_der_pol.ron:", "not a finite number"]))
        .located(),
        Case::edit(
            "equation model value as an expression",
            vdp,
            &[("value: 1.0", "value: \"2/2\"")],
            &["orbit"],
        )
        .expect(Succeeds(&["epsilon = 1"])),
        Case::args(
            "--set with an expression",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--set",
                "gamma=0.018/2",
            ],
        )
        .expect(Succeeds(&["gamma = 0.009"])),
        Case::args(
            "--set 1/0",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--set",
                "gamma=1/0",
            ],
        )
        .expect(Fails(2, &["gamma=1/0", "not a finite number"])),
        Case::args(
            "--set with a name",
            &[
                "orbit",
                "{models}/simplest_walker.ron",
                "--set",
                "gamma=gamma/2",
            ],
        )
        .expect(Fails(2, &["not a number", "unknown name `gamma`"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
