//! Checks of the shipped files: every file in `models/` loads, and the continuation files state
//! their orbit settings once.

use crate::load_model_file;
use saltation_ode::Atol;
use std::path::Path;

/// Every model file in `models/` and `models/equations/` loads (parses and passes
/// [`crate::ModelFile::validate`]), and the files of every model family are there. (Study files,
/// `*_study.ron`, are read by `saltation study`, not as model files.)
#[test]
fn model_files_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut names = Vec::new();
    for dir in [root.clone(), root.join("equations")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.extension().is_some_and(|e| e == "ron") && !stem.ends_with("_study") {
                load_model_file(&path).unwrap_or_else(|e| panic!("{e}"));
                names.push(stem);
            }
        }
    }
    for expected in [
        "simplest_walker",
        "rimless_wheel",
        "bouncing_ball",
        "van_der_pol",
        "robertson",
        "van_der_pol_stiff",
        "hires",
        "orego",
        "monopod",
        "hopper",
        "compass_gait",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "models/{expected}.ron is missing (found {names:?})"
        );
    }
}

/// The continuation files state their stride settings once, in `orbit`: the tolerances their
/// branches and orbit diagrams have run with since the continuation's `settings` stopped
/// carrying a copy (rtol = atol = 1e-10; the hopper's branch ends at strides longer than 5 s;
/// Newton at its defaults), and the script holds the continuation's own settings only.
#[test]
fn continuation_files_state_their_orbit_settings_once() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    for (name, t_max) in [
        ("simplest_walker_continuation.ron", 20.0),
        ("equations/simplest_walker_continuation.ron", 20.0),
        ("hopper_continuation.ron", 5.0),
        ("equations/compass_gait_continuation.ron", 5.0),
    ] {
        let file = load_model_file(&root.join(name)).unwrap_or_else(|e| panic!("{e}"));
        let s = &file.orbit.stride;
        assert_eq!(
            (s.ode.rtol, s.ode.atol.clone(), s.t_max),
            (1e-10, Atol::Scalar(1e-10), t_max),
            "{name}"
        );
        assert_eq!(file.orbit.newton, Default::default(), "{name}");
        assert!(file.script().is_some(), "{name}");
    }
}
