//! Writing the output files of `saltation continue` / `saltation orbit-diagram`: the
//! destination is checked before anything is computed, every file is replaced whole or not at
//! all, and a failure in the middle writes none of the set (the files are renamed into place
//! together at the end) and leaves no temporary file. Each test works in its own directory under the system's temporary directory.

use saltation_cli::report::{
    self, check_destination, write_atomic, DestinationProblem, Outputs, ReportError, WriteFailure,
};
use saltation_continuation::DiagramColumn;
use saltation_plot::RenderOptions;
use saltation_scenario::parse_model_file;
use std::path::{Path, PathBuf};

use crate::support::fails;

/// A fresh temporary directory for the test `name`.
fn temp_dir(name: &str) -> PathBuf {
    crate::support::temp_dir("output", name)
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const WHEEL: &str = "(model: RimlessWheel(lambda2: 0.6666666666666666, alpha: 0.2, spokes: 6))";

/// The wheel with a guess and a continuation section (for `saltation orbit-diagram`).
const WHEEL_SCRIPT: &str = r#"(
    model: RimlessWheel(lambda2: 0.6666666666666666, alpha: 0.2, spokes: 6),
    guesses: [(label: "steady rolling", u: [0.5])],
    continuation: (
        param: "alpha",
        branches: [(label: "steady rolling", from: 0.2, to: 0.3, guess: [0.5])],
    ),
)"#;

/// Three parameter values, the last one failed.
fn columns() -> Vec<DiagramColumn> {
    let col = |param: f64, values: Vec<f64>, failed: bool| DiagramColumn {
        param,
        values,
        failed_at: failed.then_some(2),
        failure: failed.then(|| "fell at t = 1".to_string()),
        cause: failed.then(|| "fell".to_string()),
    };
    vec![
        col(0.1, vec![0.5, 0.25], false),
        col(0.2, vec![0.4, 0.3], false),
        col(1e300, vec![], true),
    ]
}

#[test]
fn unusable_destination_is_reported_with_its_path() {
    let dir = temp_dir("dest");
    let file = dir.join("taken");
    std::fs::write(&file, "a file").unwrap();

    let e = check_destination(&file).unwrap_err();
    assert!(e.is_destination(), "{e:?}");
    assert!(matches!(
        &e,
        ReportError::Destination {
            problem: DestinationProblem::NotADirectory,
            ..
        }
    ));
    assert!(e.to_string().contains(&file.display().to_string()), "{e}");

    let under = file.join("figures");
    let e = check_destination(&under).unwrap_err();
    assert!(e.is_destination(), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(&under.display().to_string()), "{msg}");
    assert!(msg.contains("not a directory"), "{msg}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file");

    // A missing directory is created, and the probe file does not stay.
    let fresh = dir.join("new").join("figures");
    check_destination(&fresh).unwrap();
    assert!(names(&fresh).is_empty());
}

#[test]
fn atomic_write_replaces_an_old_file_whole() {
    let dir = temp_dir("atomic");
    let path = dir.join("x_branches.csv");
    std::fs::write(&path, "an older and longer file\n".repeat(100)).unwrap();
    write_atomic(&path, b"param\n1\n").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "param\n1\n");
    assert_eq!(names(&dir), ["x_branches.csv"]);
}

#[test]
fn orbit_diagram_files_are_written_and_replaced() {
    let dir = temp_dir("diagram");
    let model = parse_model_file(WHEEL, "wheel.ron").unwrap().model;
    let out = Outputs {
        dir: dir.clone(),
        stem: "wheel".into(),
        render: RenderOptions::new(200, 140),
    };
    std::fs::write(dir.join("wheel_orbit_diagram.svg"), "old").unwrap();
    let files = report::write_orbit_diagram(&columns(), &model, "alpha", 0, &out).unwrap();
    let expect: Vec<PathBuf> = ["csv", "png", "svg"]
        .iter()
        .map(|e| dir.join(format!("wheel_orbit_diagram.{e}")))
        .collect();
    assert_eq!(files, expect);
    assert_eq!(
        names(&dir),
        [
            "wheel_orbit_diagram.csv",
            "wheel_orbit_diagram.png",
            "wheel_orbit_diagram.svg"
        ]
    );
    let svg = std::fs::read_to_string(dir.join("wheel_orbit_diagram.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(80)]);
    // Huge values stay short in the CSV.
    let csv = std::fs::read_to_string(&expect[0]).unwrap();
    assert!(csv.ends_with("1e300,,,2\n"), "{csv}");
}

#[test]
fn failure_in_the_middle_writes_none_of_the_set() {
    let dir = temp_dir("partial");
    let model = parse_model_file(WHEEL, "wheel.ron").unwrap().model;
    let out = Outputs {
        dir: dir.clone(),
        stem: "wheel".into(),
        render: RenderOptions::new(200, 140),
    };
    // The figure's name is taken by a directory: its rename fails.
    let png = dir.join("wheel_orbit_diagram.png");
    std::fs::create_dir(&png).unwrap();
    let e = report::write_orbit_diagram(&columns(), &model, "alpha", 0, &out).unwrap_err();
    match &e {
        ReportError::Partial {
            written,
            failed,
            source,
        } => {
            assert!(written.is_empty(), "{written:?}");
            assert_eq!(failed, &png);
            assert!(matches!(**source, WriteFailure::Io(_)), "{source:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!e.is_destination());
    assert!(e.written().is_empty());
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "{msg}");
    assert!(msg.contains("no file was written"), "{msg}");
    assert!(msg.contains(&png.display().to_string()), "{msg}");
    // No temporary file, and not the CSV made before the failure.
    assert_eq!(names(&dir), ["wheel_orbit_diagram.png"]);
    assert!(png.is_dir());
}

#[test]
fn cli_with_a_file_as_output_directory_fails_cleanly() {
    let dir = temp_dir("cli");
    let model = dir.join("wheel.ron");
    std::fs::write(&model, WHEEL_SCRIPT).unwrap();
    let taken = dir.join("taken");
    std::fs::write(&taken, "a file").unwrap();
    let (model, taken_path) = (model.display().to_string(), taken.display().to_string());
    let args = [
        "orbit-diagram",
        &model,
        "--from",
        "0.2",
        "--to",
        "0.21",
        "--count",
        "2",
        "--out",
        &taken_path,
    ];
    fails(&args, 2, &[&taken_path]);
    assert_eq!(std::fs::read_to_string(&taken).unwrap(), "a file");
    assert_eq!(names(&dir), ["taken", "wheel.ron"]);
}
