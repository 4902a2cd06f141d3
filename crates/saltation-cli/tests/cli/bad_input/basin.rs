//! `saltation basin` and `saltation merge`: malformed and out-of-range `--axes`, `--at`,
//! `--strides`, `--max-period`, `--shard`; grids too large for memory; unknown coordinates
//! (with the nearest names); an unusable `--out`; merges of missing, foreign, duplicated,
//! incomplete or mismatching shard files.

use super::harness::{Case, Expect};
use crate::support::{model, saltation, temp_dir};

fn basin(args: &[&str]) -> Vec<String> {
    let mut v = vec![
        "basin".to_string(),
        "{models}/simplest_walker.ron".to_string(),
    ];
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

fn case(name: &str, args: &[&str], expect: Expect) -> Case {
    let owned = basin(args);
    let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
    Case::args(name, &refs).expect(expect)
}

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    vec![
        case("no --axes", &[], Fails(2, &["required arguments"])),
        case(
            "axis without =",
            &["--axes", "u0"],
            Fails(2, &["NAME=a:b:N"]),
        ),
        case(
            "axis without count",
            &["--axes", "u0=0:1"],
            Fails(2, &["NAME=a:b:N"]),
        ),
        case(
            "axis with four parts",
            &["--axes", "u0=0:1:2:3"],
            Fails(2, &["NAME=a:b:N"]),
        ),
        case(
            "count 0",
            &["--axes", "u0=0.1:0.2:0"],
            Fails(2, &["at least 1"]),
        ),
        case(
            "count not a number",
            &["--axes", "u0=0.1:0.2:x"],
            Fails(2, &["whole number"]),
        ),
        case(
            "count negative",
            &["--axes", "u0=0.1:0.2:-3"],
            Fails(2, &["whole number"]),
        ),
        case(
            "count fractional",
            &["--axes", "u0=0.1:0.2:2.5"],
            Fails(2, &["whole number"]),
        ),
        case(
            "end not a number",
            &["--axes", "u0=a:0.2:3"],
            Fails(2, &["not a finite number"]),
        ),
        case(
            "end NaN",
            &["--axes", "u0=NaN:0.2:3"],
            Fails(2, &["not a finite number"]),
        ),
        case(
            "end overflows",
            &["--axes", "u0=0:1e309:3"],
            Fails(2, &["not a finite number"]),
        ),
        case(
            "three axes",
            &["--axes", "u0=0:1:2,u1=0:1:2,u0=0:1:2"],
            Fails(2, &["3 axes", "one or two"]),
        ),
        case(
            "one coordinate on both axes",
            &["--axes", "u1=0:1:2,u1=0:1:2"],
            Fails(2, &["both axes"]),
        ),
        case(
            "unknown coordinate, with the nearest",
            &["--axes", "θx=0:1:2"],
            Fails(
                2,
                &[
                    "unknown section coordinate `θx`",
                    "did you mean `θ`",
                    "`u0`, `u1`",
                ],
            ),
        ),
        case(
            "coordinate index past the section",
            &["--axes", "u2=0:1:2"],
            Fails(2, &["unknown section coordinate `u2`"]),
        ),
        case(
            "10¹⁰ cells: more than memory allows",
            &["--axes", "u0=0:1:100000,u1=0:1:100000"],
            Fails(2, &["cells", "at most 100000000"]),
        ),
        case(
            "a count product that overflows",
            &["--axes", "u0=0:1:18446744073709551615,u1=0:1:3"],
            Fails(2, &["at most 100000000"]),
        ),
        case(
            "--at on an axis",
            &["--axes", "u0=0.1:0.2:2", "--at", "u0=0.2"],
            Fails(2, &["already given"]),
        ),
        case(
            "--at twice",
            &["--axes", "u0=0.1:0.2:2", "--at", "u1=0.2", "--at", "u1=0.1"],
            Fails(2, &["already given"]),
        ),
        case(
            "--at without =",
            &["--axes", "u0=0.1:0.2:2", "--at", "u1"],
            Fails(2, &["NAME=VALUE"]),
        ),
        case(
            "--at unknown",
            &["--axes", "u0=0.1:0.2:2", "--at", "dθ=0.1"],
            Fails(2, &["unknown section coordinate `dθ`", "did you mean"]),
        ),
        case(
            "--at not a number",
            &["--axes", "u0=0.1:0.2:2", "--at", "u1=inf"],
            Fails(2, &["not a finite number"]),
        ),
        case(
            "--strides 0",
            &["--axes", "u0=0.1:0.2:2", "--strides", "0"],
            Fails(2, &["--strides", "1..=1000000"]),
        ),
        case(
            "--strides too many",
            &["--axes", "u0=0.1:0.2:2", "--strides", "1000001"],
            Fails(2, &["--strides", "1..=1000000"]),
        ),
        case(
            "--strides word",
            &["--axes", "u0=0.1:0.2:2", "--strides", "many"],
            Fails(2, &["--strides"]),
        ),
        case(
            "--max-period 0",
            &["--axes", "u0=0.1:0.2:2", "--max-period", "0"],
            Fails(2, &["--max-period", "1..=64"]),
        ),
        case(
            "--max-period 65",
            &["--axes", "u0=0.1:0.2:2", "--max-period", "65"],
            Fails(2, &["--max-period", "1..=64"]),
        ),
        case(
            "--shard 3/2",
            &["--axes", "u0=0.1:0.2:2", "--shard", "3/2"],
            Fails(2, &["--shard 3/2", "below N"]),
        ),
        case(
            "--shard 2/2",
            &["--axes", "u0=0.1:0.2:2", "--shard", "2/2"],
            Fails(2, &["below N", "count from 0"]),
        ),
        case(
            "--shard 0/0",
            &["--axes", "u0=0.1:0.2:2", "--shard", "0/0"],
            Fails(2, &["at least 1"]),
        ),
        case(
            "--shard 1",
            &["--axes", "u0=0.1:0.2:2", "--shard", "1"],
            Fails(2, &["i/N"]),
        ),
        case(
            "--shard words",
            &["--axes", "u0=0.1:0.2:2", "--shard", "a/b"],
            Fails(2, &["whole numbers"]),
        ),
        case(
            "--out is a file",
            &[
                "--axes",
                "u0=0.1:0.2:2",
                "--out",
                "{models}/simplest_walker.ron",
            ],
            Fails(2, &["simplest_walker.ron"]),
        ),
        case(
            "a small basin works",
            &[
                "--axes",
                "u0=0.19:0.21:2",
                "--strides",
                "5",
                "--json",
                "--out",
                "{out}",
            ],
            Succeeds(&["\"attractors\"", "\"cells\""]),
        ),
        Case::args("merge of a missing directory", &["merge", "{out}/none"])
            .expect(Fails(2, &["cannot read"])),
        Case::args("merge of nothing", &["merge"]).expect(Fails(2, &["required arguments"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}

/// Runs `saltation <args>` and returns (exit code, stderr).
fn code(args: &[&str]) -> (Option<i32>, String) {
    let out = saltation(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Shards that do not make one run are refused by name: another model setting, another
/// number of shards, a shard twice, a shard missing, a file that is not a shard.
#[test]
fn merge_refuses_shards_of_different_runs() {
    let dir = temp_dir("bad-basin", "merge");
    let walker = model("simplest_walker.ron");
    let shard = |out: &str, s: &str, extra: &[&str]| {
        let mut args = vec![
            "basin",
            walker.as_str(),
            "--axes",
            "u0=0.19:0.21:3",
            "--strides",
            "5",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--shard", s, "--out", out]);
        let (c, e) = code(&args);
        assert_eq!(c, Some(0), "{e}");
    };
    let d = |name: &str| dir.join(name).display().to_string();
    let empty = d("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (c, e) = code(&["merge", &empty]);
    assert_eq!(c, Some(2));
    assert!(e.contains("no shard files"), "{e}");

    let (a, b) = (d("a"), d("b"));
    shard(&a, "0/2", &[]);
    let (c, e) = code(&["merge", &a, "--out", &d("o1")]);
    assert_eq!(c, Some(2));
    assert!(e.contains("shard(s) 1 of 2 missing"), "{e}");

    shard(&b, "1/2", &["--set", "gamma=0.01"]);
    let (c, e) = code(&["merge", &a, &b, "--out", &d("o2")]);
    assert_eq!(c, Some(2));
    assert!(e.contains("another run") && e.contains("--set"), "{e}");

    let c3 = d("c");
    shard(&c3, "1/3", &[]);
    let (c, e) = code(&["merge", &a, &c3, "--out", &d("o3")]);
    assert_eq!(c, Some(2));
    assert!(e.contains("number of shards"), "{e}");

    let twice = d("twice");
    shard(&twice, "0/2", &[]);
    let (c, e) = code(&["merge", &a, &twice, "--out", &d("o4")]);
    assert_eq!(c, Some(2));
    assert!(e.contains("twice"), "{e}");

    let junk = d("junk");
    std::fs::create_dir_all(&junk).unwrap();
    std::fs::write(dir.join("junk/x_basin_shard_0_of_1.json"), "{\"not\": 1}").unwrap();
    let (c, e) = code(&["merge", &junk, "--out", &d("o5")]);
    assert_eq!(c, Some(2));
    assert!(e.contains("not a basin shard file"), "{e}");
}
