//! A shooting too fine for the model's stride (1000 pieces of a one-phase stride of the
//! four-state walker: 3998 unknowns, more than a dense Newton matrix of 1024 may hold) is known
//! only once the stride from the guess is cut, but it is still refused input: exit 2 naming
//! where the shooting came from (`--shooting 1000`, the file's `orbit: (shooting: …)` or the
//! continuation settings' `settings.shooting`), on every path that takes one — `continue` ran
//! with it as four branches that "could not start" (exit 1), `orbit --all` as failed guesses.

use super::harness::Case;

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    let walker = "{models}/simplest_walker.ron";
    let cont = "simplest_walker_continuation.ron";
    let orbit_file = |s: &str| format!("    orbit: (shooting: {s}, ");

    vec![
        Case::args(
            "orbit --shooting 1000",
            &["orbit", walker, "--shooting", "1000"],
        )
        .expect(Fails(2, &["--shooting 1000", "more than 1024"])),
        Case::args(
            "orbit --all --shooting 1000: refused, not failed guesses",
            &["orbit", walker, "--all", "--shooting", "1000"],
        )
        .expect(Fails(2, &["--shooting 1000", "more than 1024"])),
        Case::args(
            "orbit --all --json --shooting 1000",
            &["orbit", walker, "--all", "--json", "--shooting", "1000"],
        )
        .expect(Fails(2, &["--shooting 1000", "more than 1024"])),
        Case::edit(
            "orbit with the file's orbit shooting of 1000 pieces",
            "simplest_walker.ron",
            &[(
                "    orbit: (",
                &orbit_file("Multiple(segments: PerMode(1000))"),
            )],
            &["orbit"],
        )
        .expect(Fails(
            2,
            &["simplest_walker.ron", "orbit: (shooting", "more than 1024"],
        )),
        Case::edit(
            "sensitivity with the file's orbit shooting of 1000 pieces",
            "simplest_walker.ron",
            &[(
                "    orbit: (",
                &orbit_file("Multiple(segments: PerMode(1000))"),
            )],
            &["sensitivity", "--disturbance", "gamma"],
        )
        .expect(Fails(
            2,
            &["simplest_walker.ron", "orbit: (shooting", "more than 1024"],
        )),
        Case::edit(
            "continue with the settings' shooting of 1000 pieces",
            cont,
            &[(
                "corrector_tol: 1e-9,",
                "corrector_tol: 1e-9, shooting: PerMode(1000),",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["settings.shooting", "more than 1024"])),
        Case::args(
            "continue --shooting 1000 --json",
            &[
                "continue",
                "{models}/simplest_walker_continuation.ron",
                "--shooting",
                "1000",
                "--json",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["--shooting 1000", "more than 1024"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
