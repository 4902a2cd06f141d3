//! `saltation orbit`'s own settings: the eigenvalue backend, Newton tolerances, guesses, and
//! `--all` keeping every guess's result.

use super::harness::{Case, Expect};

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    let walker = "simplest_walker.ron";
    vec![
        Case::edit(
            "eigen: Lapack without the feature",
            walker,
            &[("newton: (ftol", "eigen: Lapack, newton: (ftol")],
            &["orbit"],
        )
        .expect(Fails(2, &["eigen", "lapack"])),
        Case::edit(
            "ftol negative",
            walker,
            &[("ftol: 1e-13", "ftol: -1.0")],
            &["orbit"],
        )
        .expect(Fails(2, &["ftol"])),
        Case::args(
            "orbit of a model without guards",
            &["orbit", "{models}/robertson.ron", "--guess", "1,0,0"],
        )
        .expect(Fails(2, &["no guards", "use simulate"])),
        Case::edit(
            "guess in the file is NaN",
            walker,
            &[("u: [0.2, -0.2]", "u: [NaN, -0.2]")],
            &["orbit"],
        )
        .expect(Fails(2, &["guess", "stable (long-period) gait"])),
        Case::edit(
            "--all keeps every guess's result",
            walker,
            &[("u: [0.19, -0.2]", "u: [1.2, 0.5]")],
            &["orbit", "--all", "--json"],
        )
        .expect(Expect::Partial(
            1,
            &["\"period\":", "\"error\":", "walker fell"],
            &["1 of 2 guesses failed"],
        )),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
