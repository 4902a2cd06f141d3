//! RON model files (`models/*.ron`): a model with its parameters, named initial guesses, solver
//! settings. Users copy and edit them; the CLI and the examples read them.
//!
//! ```ron
//! (
//!     model: SimplestWalker(gamma: 0.009),
//!     guesses: [(label: "stable gait", u: [0.2, -0.2])],
//!     stride: (ode: (rtol: 1e-14, atol: Scalar(1e-14))),
//!     newton: (ftol: 1e-13),
//! )
//! ```
//!
//! Parse errors (syntax, unknown model, unknown parameter or field) carry line and column.

use crate::check::{field_offset, line_column};
use crate::Model;
use ron::extensions::Extensions;
use saltation_continuation::ContinuationSpec;
use saltation_hybrid::StrideOptions;
use saltation_orbit::{EigenBackend, NewtonOptions, OrbitOptions};
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
    /// Stride integration settings.
    #[serde(default)]
    pub stride: StrideOptions,
    /// Newton settings.
    #[serde(default)]
    pub newton: NewtonOptions,
    /// Eigenvalue backend.
    #[serde(default)]
    pub eigen: EigenBackend,
    /// Continuation script (branches, period-doubling switches, orbit diagram), if any.
    #[serde(default)]
    pub continuation: Option<ContinuationSpec>,
    /// Initial condition for `saltation simulate`, if any.
    #[serde(default)]
    pub initial: Option<InitialState>,
}

impl ModelFile {
    /// The orbit-solver settings of the file.
    pub fn orbit_options(&self) -> OrbitOptions {
        OrbitOptions {
            stride: self.stride.clone(),
            newton: self.newton.clone(),
            eigen: self.eigen,
        }
    }
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

/// Parses model-file text; `origin` names it in errors. A leading UTF-8 byte-order mark is
/// skipped. The parsed file is then checked ([`ModelFile::validate`]: parameter ranges,
/// guesses, solver and continuation settings); a failed check points at its field in the text.
pub fn parse_model_file(text: &str, origin: &str) -> Result<ModelFile, FileError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let file = ron_options().from_str::<ModelFile>(text).map_err(|e| {
        let message = e.code.to_string();
        // An equation model's compile error carries its place in the model: point there.
        if let Some(le) = crate::equations::LoadError::from_serde_message(&message) {
            let (line, column) = line_column(
                text,
                crate::check::expression_offset(text, &le.place, le.offset),
            );
            return FileError::Parse {
                origin: origin.to_string(),
                line,
                column,
                message: format!("model.{le}"),
            };
        }
        FileError::Parse {
            origin: origin.to_string(),
            line: e.span.start.line,
            column: e.span.start.col,
            message,
        }
    })?;
    if let Err(e) = file.validate() {
        let (line, column) = line_column(text, field_offset(text, &e.field));
        return Err(FileError::Parse {
            origin: origin.to_string(),
            line,
            column,
            message: e.reason,
        });
    }
    Ok(file)
}

/// Largest model file read (bytes): far above any real model, small enough that a wrong path
/// (a device, a huge data file) is refused instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Largest number of guesses in a model file.
pub const MAX_GUESSES: usize = 10_000;

/// Reads ([`read_text_file`]) and parses a model file.
pub fn load_model_file(path: &Path) -> Result<ModelFile, FileError> {
    let text = read_text_file(path)?;
    parse_model_file(&text, &path.display().to_string())
}

/// Reads a UTF-8 text input file (a model or study file): a regular file of at most
/// [`MAX_FILE_BYTES`] (a FIFO or a device would block or never end).
pub fn read_text_file(path: &Path) -> Result<String, FileError> {
    use std::io::Read;
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} bytes: a model file may have at most {MAX_FILE_BYTES}",
                meta.len()
            ),
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    String::from_utf8(bytes).map_err(|e| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
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
        assert!(matches!(ok.model, Model::SimplestWalker(w) if w.params.gamma == 0.01));
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
        assert!(matches!(ok.model, Model::VanDerPol(v) if v.params.epsilon == 2.0));
    }
}

#[cfg(test)]
mod shipped_files {
    use super::*;

    /// Every model file in `models/` and `models/equations/` loads (parses and passes
    /// [`ModelFile::validate`]), and the files of every model family are there. (Study files,
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
}
