//! RON model files (`models/*.ron`): a model with its parameters, named initial guesses, the
//! orbit settings, and optionally a continuation script and an initial state. Users copy and edit
//! them; the CLI and the examples read them.
//!
//! ```ron
//! (
//!     model: SimplestWalker(gamma: 0.009),
//!     guesses: [(label: "stable gait", u: [0.2, -0.2])],
//!     orbit: (
//!         stride: (ode: (rtol: 1e-14, atol: Scalar(1e-14))),
//!         newton: (ftol: 1e-13),
//!     ),
//! )
//! ```
//!
//! The orbit settings ([`OrbitOptions`]: `stride`, `newton`, `eigen`) are written once, in
//! `orbit`; every computation on the file uses them, the continuation script and its orbit
//! diagram included. Parse errors (syntax, unknown model, unknown parameter or field, an orbit
//! setting written where an older layout had it, with its new place) carry line and column.

use crate::locate::{expression_offset, field_offset, line_column};
use crate::moved::{checked_option, Checked, Moves, ORBIT_SETTINGS};
use crate::read::read_text_file;
use crate::section::ContinuationSection;
use ron::extensions::Extensions;
use saltation_continuation::ContinuationSpec;
use saltation_models::equations::LoadError;
use saltation_models::Model;
use saltation_orbit::OrbitOptions;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A named initial guess in the section's reduced coordinates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guess {
    /// What the guess is for ("stable gait").
    pub label: String,
    /// Reduced coordinates.
    pub u: Vec<f64>,
}

/// Where `saltation simulate` starts: a time, a full state and a mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitialState {
    /// Start time (default 0).
    #[serde(default)]
    pub t: f64,
    /// Full state (one value per state component).
    pub x: Vec<f64>,
    /// Mode (default 0).
    #[serde(default)]
    pub mode: usize,
}

/// The contents of a model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    /// The model and its parameters.
    pub model: Model,
    /// Initial guesses for the periodic orbits of interest.
    #[serde(default)]
    pub guesses: Vec<Guess>,
    /// The orbit settings: stride integration, Newton, eigenvalue backend. The one block of
    /// them in the file: orbits, simulations, the continuation script and its orbit diagram
    /// all use it.
    #[serde(default)]
    pub orbit: OrbitOptions,
    /// Continuation script (branches, period-doubling switches, orbit diagram), if any: the
    /// continuation's own settings only; it runs with [`ModelFile::orbit`] beside it.
    #[serde(default, deserialize_with = "checked_option")]
    pub continuation: Option<ContinuationSection>,
    /// Initial condition for `saltation simulate`, if any.
    #[serde(default)]
    pub initial: Option<InitialState>,
}

impl ModelFile {
    /// The file's continuation script ([`ContinuationSection::to_spec`]), to run with
    /// [`ModelFile::orbit`] beside it ([`saltation_continuation::run_script`]). `None` without
    /// a `continuation` section.
    pub fn script(&self) -> Option<ContinuationSpec> {
        self.continuation.as_ref().map(ContinuationSection::to_spec)
    }
}

impl Moves for ModelFile {
    const MOVED: &'static [(&'static str, &'static str)] = ORBIT_SETTINGS;
}

/// A model file could not be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FileError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a valid model file.
    #[error("{origin}:{line}:{column}: {message}")]
    Parse {
        /// File name (or `<string>`).
        origin: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
}

/// RON options used for model files: newtype variants may be written without the inner
/// parentheses (`SimplestWalker(gamma: 0.009)`), and `Some(..)` may be omitted.
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::UNWRAP_VARIANT_NEWTYPES | Extensions::IMPLICIT_SOME)
}

/// Largest number of guesses in a model file.
pub const MAX_GUESSES: usize = 10_000;

/// Parses model-file text; `origin` names it in errors. A leading UTF-8 byte-order mark is
/// skipped. An orbit setting where an older layout had it (`stride` at the top level or in the
/// continuation's `settings`) is an error naming its place in `orbit`. The parsed file is then
/// checked ([`ModelFile::validate`]: parameter ranges, guesses, orbit and continuation settings);
/// a failed check points at its field in the text.
pub fn parse_model_file(text: &str, origin: &str) -> Result<ModelFile, FileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let at = |offset: usize, message: String| {
        let (line, column) = line_column(text, offset);
        FileError::Parse {
            origin: origin.to_string(),
            line,
            column,
            message,
        }
    };
    let file = ron_options()
        .from_str::<Checked<ModelFile>>(text)
        .map_err(|e| {
            let message = e.code.to_string();
            // An equation model's compile error carries its place in the model: point there.
            if let Some(le) = LoadError::from_serde_message(&message) {
                return at(
                    expression_offset(text, &le.place, le.offset),
                    format!("model.{le}"),
                );
            }
            FileError::Parse {
                origin: origin.to_string(),
                line: e.span.start.line,
                column: e.span.start.col,
                message,
            }
        })?;
    let file = file.0;
    if let Err(e) = file.validate() {
        return Err(at(field_offset(text, &e.field), e.reason));
    }
    Ok(file)
}

/// Reads ([`read_text_file`]) and parses ([`parse_model_file`]) a model file.
pub fn load_model_file(path: &Path) -> Result<ModelFile, FileError> {
    let text = read_text_file(path)?;
    parse_model_file(&text, &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reports_positions() {
        let ok = parse_model_file(
            "(model: SimplestWalker(gamma: 0.01), guesses: [(label: \"a\", u: [0.2, -0.2])])",
            "t.ron",
        )
        .unwrap();
        assert!(matches!(ok.model, Model::SimplestWalker(w) if w.get("gamma") == Ok(0.01)));
        let err =
            parse_model_file("(\n  model: SimplestWalker(gama: 0.01),\n)", "t.ron").unwrap_err();
        match err {
            FileError::Parse {
                line,
                column,
                message,
                ..
            } => {
                assert_eq!(line, 2, "{message}");
                assert!(column > 1 && message.contains("gama"), "{column} {message}");
            }
            other => panic!("{other}"),
        }
        let err = parse_model_file("(model: Walker(gamma: 0.01))", "t.ron").unwrap_err();
        assert!(err.to_string().contains("Walker"), "{err}");
        assert!(err.to_string().starts_with("t.ron:1:"), "{err}");
    }

    /// Non-finite and out-of-range parameters are errors at the parameter's position, with the
    /// physical range in the message; a byte-order mark is skipped.
    #[test]
    fn parameters_are_checked_on_load() {
        for (value, what) in [
            ("NaN", "not finite"),
            ("inf", "not finite"),
            ("-inf", "not finite"),
            ("1e309", "not finite"),
            ("2.0", "|gamma| < pi/2"),
        ] {
            let text = format!("// walker\n(\n  model: SimplestWalker(gamma: {value}),\n)");
            let err = parse_model_file(&text, "t.ron").unwrap_err().to_string();
            assert!(err.starts_with("t.ron:3:25: "), "{value}: {err}");
            assert!(
                err.contains("gamma") && err.contains(what),
                "{value}: {err}"
            );
        }
        let err = parse_model_file(
            "(model: RimlessWheel(lambda2: 0.5, alpha: 0.2, spokes: 0))",
            "w.ron",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("w.ron:1:48: ") && err.contains("3 <= spokes"),
            "{err}"
        );
        let ok = parse_model_file("\u{feff}(model: VanDerPol(epsilon: 2.0))", "b.ron").unwrap();
        assert!(matches!(ok.model, Model::VanDerPol(v) if v.get("epsilon") == Ok(2.0)));
    }

    /// Orbit settings are checked on load and located under `orbit`; the continuation script
    /// holds only its own settings.
    #[test]
    fn orbit_settings_are_checked_and_the_script_is_the_section() {
        let err = parse_model_file(
            "(model: SimplestWalker(gamma: 0.01),\n orbit: (stride: (t_max: -1.0)))",
            "t.ron",
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("t.ron:2:19: ") && err.contains("t_max"),
            "{err}"
        );
        let file = parse_model_file(
            "(model: SimplestWalker(gamma: 0.01),
              orbit: (stride: (t_max: 20.0), newton: (max_iters: 7)),
              continuation: (param: \"gamma\",
                  branches: [(label: \"a\", from: 0.01, to: 0.02, guess: [0.2, -0.2])],
                  settings: (step: 1e-3, shooting: PerMode(4))))",
            "t.ron",
        )
        .unwrap();
        let spec = file.script().unwrap();
        assert_eq!(
            spec.settings.shooting,
            saltation_orbit::Shooting::Multiple {
                segments: saltation_orbit::Segments::PerMode(4)
            }
        );
        assert_eq!(file.orbit.stride.t_max, 20.0);
        assert_eq!(file.orbit.newton.max_iters, 7);
        assert_eq!(spec.settings.step, 1e-3);
        assert_eq!(spec.branches[0].guess, [0.2, -0.2]);
        assert_eq!(spec.orbit_diagram, None);
    }
}
