//! `saltation sensitivity`: the disturbance parameter, the orbit it needs, and the options it
//! refuses.

use super::harness::{Case, Expect};

fn cases() -> Vec<Case> {
    use super::harness::Expect::Fails;
    vec![
        Case::args(
            "unknown disturbance parameter lists the known ones",
            &[
                "sensitivity",
                "{models}/simplest_walker.ron",
                "--disturbance",
                "gama",
            ],
        )
        .expect(Fails(
            2,
            &["--disturbance gama", "unknown parameter", "known: gamma"],
        )),
        Case::args(
            "no --disturbance",
            &["sensitivity", "{models}/simplest_walker.ron"],
        )
        .expect(Fails(2, &["required arguments"])),
        Case::args(
            "empty disturbance name",
            &[
                "sensitivity",
                "{models}/rimless_wheel.ron",
                "--disturbance",
                "",
            ],
        )
        .expect(Fails(2, &["unknown parameter", "lambda2, alpha"])),
        Case::args(
            "unstable orbit: the norm does not exist",
            &[
                "sensitivity",
                "{models}/simplest_walker.ron",
                "--disturbance",
                "gamma",
                "--guess-label",
                "unstable (short-period) gait",
            ],
        )
        .expect(Fails(
            1,
            &["not stable", "spectral radius", "does not exist"],
        )),
        Case::args(
            "--all is refused (one orbit)",
            &[
                "sensitivity",
                "{models}/simplest_walker.ron",
                "--disturbance",
                "gamma",
                "--all",
            ],
        )
        .expect(Fails(2, &["--all", "one orbit"])),
        Case::args(
            "guess of the wrong length",
            &[
                "sensitivity",
                "{models}/rimless_wheel.ron",
                "--disturbance",
                "alpha",
                "--guess",
                "0.5,0.1",
            ],
        )
        .expect(Fails(2, &["reduced coordinate"])),
        Case::args(
            "no orbit from the guess",
            &[
                "sensitivity",
                "{models}/simplest_walker.ron",
                "--disturbance",
                "gamma",
                "--guess",
                "1.2,0.5",
            ],
        )
        .expect(Fails(1, &["no periodic orbit"])),
        Case::args(
            "a model without guards",
            &[
                "sensitivity",
                "{models}/robertson.ron",
                "--disturbance",
                "k1",
                "--guess",
                "1,0,0",
            ],
        )
        .expect(Fails(2, &["no guards"])),
        Case::args(
            "--out is an existing file, refused before computing",
            &[
                "sensitivity",
                "{models}/rimless_wheel.ron",
                "--disturbance",
                "alpha",
                "--out",
                "{models}/rimless_wheel.ron",
            ],
        )
        .expect(Fails(2, &["rimless_wheel.ron"])),
        Case::args(
            "rimless wheel: the norm and the Lyapunov cross-check in the JSON",
            &[
                "sensitivity",
                "{models}/rimless_wheel.ron",
                "--disturbance",
                "alpha",
                "--json",
            ],
        )
        .expect(Expect::Succeeds(&[
            "\"disturbance\":\"alpha\"",
            "\"indicators\":[\"step_time\"]",
            "\"norm\":5.1560154642",
            "\"lyapunov_norm\":5.1560154642",
            "\"impulse_response\":[[-3.3095665040",
        ])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
