//! `saltation lyapunov`: `--strides` out of range or not a number, `--guess` malformed, not
//! finite or of the wrong length, a start from which the walker falls.

use super::harness::{Case, Expect};

fn case(name: &str, args: &[&str], expect: Expect) -> Case {
    let mut v = vec!["lyapunov", "{models}/simplest_walker.ron"];
    v.extend_from_slice(args);
    Case::args(name, &v).expect(expect)
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    vec![
        case(
            "--strides 0",
            &["--strides", "0"],
            Fails(2, &["--strides 0", "1..=10000000"]),
        ),
        case(
            "--strides too many",
            &["--strides", "10000001"],
            Fails(2, &["1..=10000000"]),
        ),
        case(
            "--strides word",
            &["--strides", "ten"],
            Fails(2, &["--strides"]),
        ),
        case(
            "--guess words",
            &["--guess", "a,b"],
            Fails(2, &["malformed --guess"]),
        ),
        case(
            "--guess NaN",
            &["--guess", "NaN,0.2"],
            Fails(2, &["malformed --guess"]),
        ),
        case(
            "--guess too short",
            &["--guess", "0.2"],
            Fails(2, &["1 value(s)", "2 reduced coordinate(s)"]),
        ),
        case(
            "a start that falls",
            &["--guess", "0.2,0.3", "--strides", "5"],
            Fails(1, &["stride 0 failed", "the walker fell"]),
        ),
        case(
            "a short run works",
            &["--strides", "3", "--json"],
            Succeeds(&["\"exponents\"", "\"per_stride\""]),
        ),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}
