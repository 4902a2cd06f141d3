//! The flags of the Lyapunov sweep and transient: `lyapunov --transient` out of range or not a
//! number, or so long that the start falls during it (the stride named, transient included);
//! `orbit-diagram --lyapunov-strides` out of range, not a number, or without `--lyapunov`;
//! `sensitivity --indicators` with an unknown name, a syntax error (its position in the list),
//! an empty list or item, `t` in an autonomous model, too many indicators.

use super::harness::{Case, Expect};

fn lyapunov(name: &str, args: &[&str], expect: Expect) -> Case {
    let mut v = vec!["lyapunov", "{models}/simplest_walker.ron"];
    v.extend_from_slice(args);
    Case::args(name, &v).expect(expect)
}

fn diagram(name: &str, args: &[&str], expect: Expect) -> Case {
    let mut v = vec![
        "orbit-diagram",
        "{models}/simplest_walker_continuation.ron",
        "--count",
        "2",
        "--out",
        "{out}",
    ];
    v.extend_from_slice(args);
    Case::args(name, &v).expect(expect)
}

fn sensitivity(name: &str, indicators: &str, expect: Expect) -> Case {
    let v = vec![
        "sensitivity",
        "{models}/equations/simplest_walker.ron",
        "--disturbance",
        "gamma",
        "--indicators",
        indicators,
    ];
    Case::args(name, &v).expect(expect)
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    vec![
        lyapunov(
            "--transient too many",
            &["--transient", "10000001"],
            Fails(2, &["--transient 10000001", "0..=10000000"]),
        ),
        lyapunov(
            "--transient word",
            &["--transient", "ten"],
            Fails(2, &["--transient"]),
        ),
        lyapunov(
            "--transient negative",
            &["--transient", "-1"],
            Fails(2, &["-1"]),
        ),
        lyapunov(
            "a start that falls during the transient",
            &["--guess", "0.2,0.3", "--transient", "5", "--strides", "5"],
            Fails(1, &["stride 0 failed", "the walker fell"]),
        ),
        lyapunov(
            "a transient then a short run works",
            &["--transient", "3", "--strides", "3", "--json"],
            Succeeds(&["\"exponents\""]),
        ),
        diagram(
            "--lyapunov-strides 0",
            &["--lyapunov", "--lyapunov-strides", "0"],
            Fails(2, &["--lyapunov-strides 0", "1..=10000000"]),
        ),
        diagram(
            "--lyapunov-strides too many",
            &["--lyapunov", "--lyapunov-strides", "10000001"],
            Fails(2, &["--lyapunov-strides 10000001"]),
        ),
        diagram(
            "--lyapunov-strides word",
            &["--lyapunov", "--lyapunov-strides", "many"],
            Fails(2, &["--lyapunov-strides"]),
        ),
        diagram(
            "--lyapunov-strides without --lyapunov",
            &["--lyapunov-strides", "10"],
            Fails(2, &["--lyapunov"]),
        ),
        diagram(
            "--lyapunov with a short run works",
            &[
                "--lyapunov",
                "--lyapunov-strides",
                "5",
                "--from",
                "0.017",
                "--to",
                "0.0171",
            ],
            Succeeds(&[
                "largest Lyapunov exponent",
                "_lyapunov.csv",
                "_orbit_diagram_lyapunov",
            ]),
        ),
        sensitivity(
            "--indicators unknown name",
            "step_time,thh",
            Fails(
                2,
                &["--indicators", "`thh`", "did you mean `th`", "character 10"],
            ),
        ),
        sensitivity(
            "--indicators syntax error",
            "th, 2*(dth",
            Fails(
                2,
                &["indicator `2*(dth`", "character 6 of the list", "unclosed"],
            ),
        ),
        sensitivity(
            "--indicators empty list",
            "",
            Fails(2, &["the list of indicators is empty"]),
        ),
        sensitivity(
            "--indicators empty item",
            "th,,dth",
            Fails(2, &["indicator 2", "is empty"]),
        ),
        sensitivity(
            "--indicators time in an autonomous model",
            "t*th",
            Fails(2, &["`t`", "step_time"]),
        ),
        sensitivity(
            "--indicators too many",
            &["th"; 65].join(","),
            Fails(2, &["65 indicators", "at most 64"]),
        ),
        sensitivity(
            "--indicators an output and a function with a comma",
            "hip_height,atan2(th, dth)",
            Succeeds(&["hip_height, atan2(th, dth)", "gait sensitivity norm"]),
        ),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
