//! Single shooting whose small multipliers have no correct digits: the compass gait at 5.5°,
//! past its period doubling, with twelve steps per stride (largest multiplier ≈ 2970). Single
//! shooting finds the orbit, but its second and third multipliers (≈ 6e-11 and 3e-13) are below
//! the stride Jacobian's accuracy `max(rtol, ε)·‖P_x‖_F ≈ 2e-9`: the JSON says so
//! (`multiplier_accuracy`, indices 1 and 2) and the table warns and names `--shooting phases`;
//! with `--shooting phases` nothing is flagged. The one-step gait at 3° is not flagged (its reset
//! zero is not among the section's multipliers).

use super::harness::{Case, Expect};
use std::process::Command;

/// The gait file at 5.5° with `steps` steps per stride, from the one-step gait's fixed point.
fn gait_edits(steps: &'static str) -> Vec<(&'static str, &'static str)> {
    vec![
        (
            "(name: \"phi\", value: 0.05235987755982989,",
            "(name: \"phi\", value: 0.09599310885968812,",
        ),
        ("events_per_stride: 1,", steps),
        ("t_max: 5.0,", "t_max: 100.0,"),
        (
            "u: [0.2187, -0.3774, -1.0924]",
            "u: [0.23738164454414282, 0.03742899689063299, -1.178703035353069]",
        ),
    ]
}

fn cases() -> Vec<Case> {
    let file = "equations/compass_gait.ron";
    let twelve = gait_edits("events_per_stride: 12,");
    vec![
        Case::edit(
            "12 steps, single shooting, JSON",
            file,
            &twelve,
            &["orbit", "--json"],
        )
        .expect(Expect::Succeeds(&[
            "\"multiplier_accuracy\":{\"error_bound\":",
            "\"unresolved\":[1,2]",
            "--shooting phases",
        ])),
        Case::edit(
            "12 steps, single shooting, table",
            file,
            &twelve,
            &["orbit"],
        )
        .expect(Expect::Succeeds(&[
            "WARNING",
            "μ2, μ3",
            "--shooting phases",
        ])),
        Case::edit(
            "12 steps, --shooting phases",
            file,
            &twelve,
            &["orbit", "--shooting", "phases", "--json"],
        )
        .expect(Expect::Succeeds(&["\"shooting\":\"phases\""])),
    ]
}

#[test]
fn table() {
    super::harness::run_all(cases());
}

/// What is not flagged: multiple shooting at twelve steps, and single shooting of the shipped
/// one-step gait (3°).
#[test]
fn multiple_shooting_and_a_well_conditioned_orbit_are_not_flagged() {
    let dir = std::env::temp_dir().join(format!("shooting_accuracy_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = super::harness::read_model("equations/compass_gait.ron");
    let shipped = text.clone();
    for (from, to) in gait_edits("events_per_stride: 12,") {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    let twelve = dir.join("gait12.ron");
    std::fs::write(&twelve, text).unwrap();
    let one = dir.join("gait1.ron");
    std::fs::write(&one, shipped).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_saltation"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let t = twelve.to_str().unwrap();
    let phases = run(&["orbit", t, "--shooting", "phases", "--json"]);
    assert!(!phases.contains("multiplier_accuracy"), "{phases}");
    let single = run(&["orbit", one.to_str().unwrap(), "--json"]);
    assert!(single.contains("\"stable\":true"), "{single}");
    assert!(!single.contains("multiplier_accuracy"), "{single}");
    let table = run(&["orbit", one.to_str().unwrap()]);
    assert!(!table.contains("WARNING"), "{table}");
    std::fs::remove_dir_all(&dir).ok();
}
