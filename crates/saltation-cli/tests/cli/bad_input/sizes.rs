//! Sizes from input have limits: event counts, windows, sample counts, step and iteration
//! limits, orbit-diagram counts.

use super::harness::{read_model, run_case, Case, Expect};

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    let walker = "simplest_walker.ron";
    let cont = "simplest_walker_continuation.ron";
    vec![
        Case::edit(
            "events_per_stride 1e9",
            walker,
            &[("events_per_stride: 1,", "events_per_stride: 1000000000,")],
            &["orbit"],
        )
        .expect(Fails(2, &["events_per_stride"])),
        Case::edit(
            "events_per_stride u64::MAX",
            walker,
            &[(
                "events_per_stride: 1,",
                "events_per_stride: 18446744073709551615,",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["events_per_stride"])),
        Case::edit(
            "events_per_stride beyond u64",
            walker,
            &[(
                "events_per_stride: 1,",
                "events_per_stride: 18446744073709551616,",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["simplest_walker.ron:"])),
        Case::edit(
            "zeno window 1e9",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), zeno: (window: 1000000000))",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["zeno"])),
        Case::edit(
            "event_samples 1e9",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), event_samples: 1000000000)",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["event_samples"])),
        Case::edit(
            "max_steps u64::MAX",
            walker,
            &[(
                "atol: Scalar(1e-14))",
                "atol: Scalar(1e-14), max_steps: 18446744073709551615)",
            )],
            &["orbit"],
        )
        .expect(Fails(2, &["max_steps"])),
        Case::edit(
            "max_iters huge",
            walker,
            &[("max_iters: 30", "max_iters: 18446744073709551615")],
            &["orbit"],
        )
        .expect(Fails(2, &["max_iters"])),
        Case::args(
            "orbit-diagram --count 1e9",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--count",
                "1000000000",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["count"])),
        Case::args(
            "orbit-diagram --count u64::MAX",
            &[
                "orbit-diagram",
                "{models}/simplest_walker_continuation.ron",
                "--count",
                "18446744073709551615",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["count"])),
        Case::edit(
            "orbit_diagram keep huge",
            cont,
            &[("keep: 64", "keep: 18446744073709551615")],
            &["orbit-diagram", "--out", "{out}"],
        )
        .expect(Fails(2, &["keep"])),
        Case::edit(
            "orbit_diagram transient + keep wraps",
            cont,
            &[(
                "transient: 300, keep: 64",
                "transient: 18446744073709551615, keep: 64",
            )],
            &["orbit-diagram", "--out", "{out}"],
        )
        .expect(Fails(2, &["transient"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}

/// More guesses than a file may hold (10 000) are refused at load, before any solve.
#[test]
fn too_many_guesses() {
    let text = read_model("simplest_walker.ron");
    let many: String = (0..10_001)
        .map(|i| format!("(label: \"g{i}\", u: [0.2, -0.2]),"))
        .collect();
    let edited = text.replacen("guesses: [", &format!("guesses: [{many}"), 1);
    let case = Case::text(
        "10 001 guesses".into(),
        "simplest_walker.ron",
        edited,
        &["orbit", "--all"],
    )
    .expect(Expect::Fails(2, &["guesses", "at most 10000"]))
    .located();
    let dir = run_case(&case);
    let _ = std::fs::remove_dir_all(dir);
}
