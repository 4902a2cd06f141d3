//! The bad-input suite: a table of careless or hostile inputs to the `saltation` binary — a
//! shipped model file with some text replaced, and command-line arguments — each with the exit
//! code it must give and fragments its message must contain. Every case runs under a time
//! limit (a hang fails the test instead of stalling CI), in its own empty working directory
//! (nothing may appear there but what `--out` names), and must not panic, abort, print a number
//! with hundreds of digits, or write `null` where a number belongs.
//!
//! A second, generated table replaces every number of every shipped model file by NaN, ±∞ and
//! `1e309` in turn: each must be refused at load time (exit 2) with the file's line and column.
//!
//! The hand-written table is split by what it probes, one module each, each run as one test;
//! [`harness`] runs a table (each case as its own process, in its own directory, under the
//! time limit).

mod harness;

mod huge_rotation;

mod admissible;
mod admissible_guess;
mod affine;
mod basin;
mod basin2;
mod branches;
mod constants;
mod continue_shooting;
mod curve;
mod curve_grazing;
mod curve_script;
mod curve_shooting;
mod equations;
mod events;
mod files;
mod forcing;
mod guard_grazing;
mod integrator;
mod lyapunov;
mod messages;
mod mfpt;
mod mfpt_axes;
mod orbit;
mod output;
mod parameters;
mod probe3;
mod probe3_rest;
mod results;
mod schema;
mod sensitivity;
mod settings;
mod shooting;
mod shooting_accuracy;
mod shooting_refused;
mod simulate;
mod simulate_plot;
mod sizes;
mod study;

use harness::{literal_numbers, run_case, Case, Expect};

/// Every number of every shipped model file, replaced in turn by NaN, ±∞ and 1e309, is refused
/// when the file is loaded (exit 2, with the file's line and column), whatever the subcommand.
#[test]
fn every_number_non_finite() {
    let mut cases = Vec::new();
    for file in harness::shipped_files() {
        let text = harness::read_model(&file);
        let sub: &[&str] = if text.contains("continuation:") {
            &["orbit-diagram", "--count", "2", "--out", "{out}"]
        } else if text.contains("strategies:") {
            &["study", "--json"]
        } else {
            &["orbit"]
        };
        for (at, lit) in literal_numbers(&text) {
            for bad in ["NaN", "inf", "-inf", "1e309"] {
                let mut edited = text.clone();
                edited.replace_range(at..at + lit.len(), bad);
                let line = text[..at].matches('\n').count() + 1;
                cases.push(
                    Case::text(format!("{file}:{line}: {lit} -> {bad}"), &file, edited, sub)
                        .expect(Expect::Fails(2, &[]))
                        .located(),
                );
            }
        }
    }
    assert!(cases.len() > 100, "{}", cases.len());
    harness::run_all(cases);
}

#[test]
fn cases_run_in_isolation() {
    // The harness itself: a case that succeeds writes nothing outside --out.
    let case = Case::args(
        "orbit-diagram writes only under --out",
        &[
            "orbit-diagram",
            "{models}/simplest_walker_continuation.ron",
            "--count",
            "2",
            "--out",
            "{out}/figs",
        ],
    )
    .expect(Expect::Succeeds(&["files written"]));
    let dir = run_case(&case);
    let written: Vec<String> = std::fs::read_dir(dir.join("out").join("figs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(written.iter().any(|f| f.ends_with(".csv")), "{written:?}");
    assert!(!written.iter().any(|f| f.contains(".tmp")), "{written:?}");
    let _ = std::fs::remove_dir_all(dir);
}
