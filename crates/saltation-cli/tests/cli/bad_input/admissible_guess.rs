//! Orbit guesses against the model's admissibility conditions: a guess whose start state (the
//! guess through the section's chart, in the stride's start mode) breaks a declared condition
//! of that mode is refused before Newton (exit 2, naming the guess, the condition, the mode,
//! the value and the state), unless `orbit --allow-inadmissible` is given. The unconstrained
//! hopper's equation file with the lower block's height made a section coordinate, so that a
//! guess can put it below the ground in flight (`lower block above ground`: `z_L ≥ 0`).

use super::harness::{run_all, Case, Expect};

const FILE: &str = "equations/hopper_unconstrained.ron";
const SECTION: &str =
    "section: (after: \"liftoff\", free: [\"z_U\", \"dz_U\"], chart: [(\"z_L\", \"0\"), (\"dz_L\", \"0\")]),";
const FREE_Z_L: &str =
    "section: (after: \"liftoff\", free: [\"z_U\", \"z_L\", \"dz_U\"], chart: [(\"dz_L\", \"0\")]),";
const GUESSES: &str = "guesses: [(label: \"hopping gait\", u: [1.02, 1.7])],";

/// The file with `z_L` free in the section and `guesses` as its guess list, run with `args`.
fn free(name: &str, guesses: &str, args: &[&str]) -> Case {
    Case::edit(name, FILE, &[(SECTION, FREE_Z_L), (GUESSES, guesses)], args)
}

fn cases() -> Vec<Case> {
    use Expect::{Fails, Succeeds};
    let good = "guesses: [(label: \"hopping gait\", u: [1.02, 0.0, 1.7])],";
    let bad = "guesses: [(label: \"foot below ground\", u: [1.02, -0.1, 1.7])],";
    let both = "guesses: [(label: \"hopping gait\", u: [1.02, 0.0, 1.7]), \
                (label: \"foot below ground\", u: [1.02, -0.1, 1.7])],";
    vec![
        free(
            "--guess with the lower block below the ground in flight",
            good,
            &["orbit", "--guess", "1.02,-0.1,1.7"],
        )
        .expect(Fails(
            2,
            &[
                "--guess (u = [z_U = 1.02, z_L = -0.1, dz_U = 1.7])",
                "mode `flight`",
                "condition `lower block above ground` = -0.1 < 0",
                "x = [1.02, -0.1, 1.7, 0]",
                "--allow-inadmissible",
            ],
        )),
        free(
            "file's guess with the lower block below the ground",
            bad,
            &["orbit", "--json"],
        )
        .expect(Fails(
            2,
            &[
                "guess \"foot below ground\"",
                "condition `lower block above ground` = -0.1 < 0",
                "mode `flight`",
            ],
        )),
        free(
            "labelled guess below the ground",
            both,
            &["orbit", "--guess-label", "foot below ground"],
        )
        .expect(Fails(2, &["guess \"foot below ground\"", "= -0.1 < 0"])),
        free(
            "--all refuses every guess up front when one is inadmissible",
            both,
            &["orbit", "--all", "--json"],
        )
        .expect(Fails(2, &["guess \"foot below ground\"", "= -0.1 < 0"])),
        // Allowed: Newton starts from it, and converges onto the gait (z_L = 0 at lift-off).
        free(
            "--guess below the ground, allowed",
            good,
            &[
                "orbit",
                "--guess",
                "1.02,-0.1,1.7",
                "--allow-inadmissible",
                "--json",
            ],
        )
        .expect(Succeeds(&["\"admissible\":true", "\"newton_iterations\""])),
        free(
            "--all with an inadmissible guess, allowed",
            both,
            &["orbit", "--all", "--allow-inadmissible", "--json"],
        )
        .expect(Succeeds(&["\"x0\"", "\"admissible\":true"])),
        // Within the tolerance 1e-9·max(1, ‖x‖∞) of the boundary: accepted.
        free(
            "--guess on the ground within rounding",
            good,
            &["orbit", "--guess", "1.02,-1e-12,1.7", "--json"],
        )
        .expect(Succeeds(&["\"admissible\":true"])),
        free(
            "--guess just outside the tolerance",
            good,
            &["orbit", "--guess", "1.02,-1e-6,1.7"],
        )
        .expect(Fails(
            2,
            &["condition `lower block above ground` = -1e-6 < 0"],
        )),
        free(
            "--allow-inadmissible given twice",
            good,
            &[
                "orbit",
                "--guess",
                "1.02,-0.1,1.7",
                "--allow-inadmissible",
                "--allow-inadmissible",
            ],
        )
        .expect(Fails(2, &["--allow-inadmissible"])),
        free(
            "--allow-inadmissible with a value",
            good,
            &["orbit", "--allow-inadmissible=yes"],
        )
        .expect(Fails(2, &["--allow-inadmissible"])),
        // The shipped hoppers' guesses start at lift-off on the ground (z_L = 0): accepted.
        Case::args(
            "constrained hopper's own guess",
            &["orbit", "{models}/hopper.ron", "--json"],
        )
        .expect(Succeeds(&["\"admissible\":true"])),
    ]
}

#[test]
fn table() {
    run_all(cases());
}
