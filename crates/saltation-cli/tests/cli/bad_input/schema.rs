//! The file schema: each setting has one place. The stride, Newton and eigenvalue settings are
//! the file's `orbit` block, and everything the file computes runs with them — the orbit, the
//! continuation's branches and its orbit diagram, with or without an `orbit_diagram` entry.
//! Written where an older layout had them, they are refused at their line and column with their
//! new place, whatever the subcommand.

use super::harness::Case;
use crate::support::{floats, json, model};

fn cases() -> Vec<Case> {
    use super::harness::Expect::{Fails, Succeeds};
    let walker = "simplest_walker.ron";
    let cont = "simplest_walker_continuation.ron";
    let hopper = "hopper_continuation.ron";
    vec![
        Case::edit(
            "stride at the top level, for simulate",
            walker,
            &[("    orbit: (", "    stride: (t_max: 20.0),\n    orbit: (")],
            &["simulate", "--out", "{out}"],
        )
        .expect(Fails(2, &["`stride` moved: write it in `orbit.stride`"]))
        .located(),
        Case::edit(
            "eigen in a branch",
            cont,
            &[(
                "period_doublings: 1)",
                "period_doublings: 1, eigen: Native)",
            )],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["`eigen` moved: write it in `orbit.eigen`"]))
        .located(),
        Case::edit(
            "eigen in the orbit diagram's settings",
            cont,
            &[("component: 0)", "component: 0, eigen: Native)")],
            &["orbit-diagram", "--count", "2", "--out", "{out}"],
        )
        .expect(Fails(2, &["`eigen` moved: write it in `orbit.eigen`"]))
        .located(),
        Case::edit(
            "newton in the continuation's settings, for orbit-diagram",
            hopper,
            &[(
                "predictor: Arclength,",
                "predictor: Arclength, newton: (max_iters: 3),",
            )],
            &[
                "orbit-diagram",
                "--from",
                "-80",
                "--to",
                "-79",
                "--count",
                "2",
                "--out",
                "{out}",
            ],
        )
        .expect(Fails(2, &["`newton` moved: write it in `orbit.newton`"]))
        .located(),
        // A misspelt field keeps the parser's message with the fields it expects.
        Case::edit(
            "a misspelt continuation setting",
            cont,
            &[("corrector_tol: 1e-9,", "corector_tol: 1e-9,")],
            &["continue", "--out", "{out}"],
        )
        .expect(Fails(2, &["corector_tol", "corrector_tol"]))
        .located(),
        // The file's stride is the diagram's: a stride limit below the walker's step time
        // fails every stride of the diagram (no gait recorded), where the default limit would not.
        Case::edit(
            "the orbit stride limits the diagram's strides",
            cont,
            &[("t_max: 20.0", "t_max: 0.5")],
            &["orbit-diagram", "--count", "2", "--json", "--out", "{out}"],
        )
        .expect(Succeeds(&["\"failed_at\":0"])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}

/// Probe defect N8: `orbit-diagram` on a file whose continuation section has no
/// `orbit_diagram` entry ran with default stride settings (one event per stride) and found no
/// gait of the hopper, whose stride is two events. It runs with the file's `orbit.stride` now:
/// at `d_G = -80` the brute-force iteration from the file's guess settles on the stable gait
/// that Newton's method finds there (`saltation orbit`, multiplier ≈ 0.47), and every value of
/// the range is a gait.
#[test]
fn orbit_diagram_without_a_section_uses_the_file_stride() {
    let file = model("hopper_continuation.ron");
    let out = crate::support::temp_dir("schema", "n8");
    let out = out.display().to_string();
    let args = [
        "orbit-diagram",
        &file,
        "--from",
        "-80",
        "--to",
        "-1",
        "--count",
        "5",
        "--json",
        "--out",
        &out,
    ];
    let diagram = json(&args);
    let orbit = json(&["orbit", &file, "--json"]);
    assert_eq!(orbit["stable"], serde_json::Value::Bool(true), "{orbit}");
    let lift_off = floats(&orbit["x0"])[0];
    let columns = diagram["columns"].as_array().expect("columns");
    assert_eq!(columns.len(), 5);
    for c in columns {
        assert!(c["failed_at"].is_null(), "a gait at every d_G: {c}");
    }
    assert_eq!(columns[0]["param"].as_f64(), Some(-80.0));
    let values = floats(&columns[0]["values"]);
    assert_eq!(values.len(), 100);
    for v in values {
        assert!(
            (v - lift_off).abs() < 1e-6,
            "d_G = -80: {v} vs the orbit's {lift_off}"
        );
    }
}
