//! Inputs shared by the subcommands: the model file with `--set` overrides, and initial guesses.
//!
//! A subcommand that works on a model file flattens [`ModelArgs`] into its arguments and calls
//! [`ModelArgs::load`]; guesses come from [`GuessArgs::select`] (a `--guess` on the command line,
//! a labelled guess of the file, all of them, or by default the file's first).

use crate::CliError;
use clap::Args;
use saltation_hybrid::EvalModel;
use saltation_scenario::{load_model_file, Guess, ModelFile};
use std::path::PathBuf;

/// The model file and parameter overrides.
#[derive(Debug, Clone, Args)]
pub struct ModelArgs {
    /// Model file (RON), e.g. models/simplest_walker.ron.
    #[arg(value_name = "MODEL.ron")]
    pub file: PathBuf,

    /// Override a model parameter, e.g. --set gamma=0.012 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// A model file read from disk with the `--set` overrides applied to its model.
#[derive(Debug, Clone)]
pub struct LoadedModel {
    /// The file as given on the command line (for messages).
    pub path: String,
    /// Its contents, `model` with the overrides applied.
    pub file: ModelFile,
}

impl LoadedModel {
    /// Refuses a model whose vector field reads the time without a declared forcing period
    /// ([`saltation_hybrid::require_declared_forcing`]): what `orbit`, `continue` and
    /// `orbit-diagram` check first (`simulate` runs such a model in true time).
    pub fn require_forcing(&self) -> Result<(), CliError> {
        saltation_hybrid::require_declared_forcing(&self.file.model).map_err(|source| {
            CliError::Forcing {
                file: self.path.clone(),
                source: Box::new(source),
            }
        })
    }
}

impl ModelArgs {
    /// Reads the file and applies the `--set` overrides in order.
    pub fn load(&self) -> Result<LoadedModel, CliError> {
        // Malformed overrides are reported before the file is even read.
        let sets = self
            .set
            .iter()
            .map(|arg| parse_set(arg).map(|(name, value)| (arg, name, value)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut file = load_model_file(&self.file)?;
        for (arg, name, value) in sets {
            file.model = file
                .model
                .with_param(name, value)
                .map_err(|source| CliError::Param {
                    arg: arg.clone(),
                    source,
                })?;
        }
        Ok(LoadedModel {
            path: self.file.display().to_string(),
            file,
        })
    }
}

/// Splits `name=value` into the name and a finite number; the value may be a constant
/// expression (`2*pi*10`).
pub fn parse_set(arg: &str) -> Result<(&str, f64), CliError> {
    let bad = |reason: String| CliError::MalformedSet {
        arg: arg.to_string(),
        reason,
    };
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected NAME=VALUE, e.g. gamma=0.012".into()))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("the parameter name is empty".into()));
    }
    let value = value.trim();
    // A number, or a constant expression (`omega=2*pi*10`) as in model files.
    let x: f64 = match value.parse() {
        Ok(x) => x,
        Err(_) => saltation_equations::constant(value).map_err(|e| match e {
            saltation_equations::ConstantError::Expression { .. } => bad(format!(
                "`{value}` is not a number (nor a constant expression: {e})"
            )),
            e => bad(e.to_string()),
        })?,
    };
    if !x.is_finite() {
        return Err(bad(format!("`{value}` is not a finite number")));
    }
    Ok((name, x))
}

/// Parses a comma-separated list of finite numbers (`0.19,-0.2`).
pub fn parse_guess(arg: &str) -> Result<Vec<f64>, CliError> {
    let bad = |reason: String| CliError::MalformedGuess {
        arg: arg.to_string(),
        reason,
    };
    if arg.trim().is_empty() {
        return Err(bad("expected comma-separated numbers, e.g. 0.2,-0.2".into()));
    }
    arg.split(',')
        .enumerate()
        .map(|(i, s)| {
            let s = s.trim();
            match s.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                Ok(_) => Err(bad(format!("value {} `{s}` is not finite", i + 1))),
                Err(_) if s.is_empty() => Err(bad(format!("value {} is empty", i + 1))),
                Err(_) => Err(bad(format!("value {} `{s}` is not a number", i + 1))),
            }
        })
        .collect()
}

/// Which initial guess(es) to start from.
#[derive(Debug, Clone, Default, Args)]
pub struct GuessArgs {
    /// Initial guess in the section's reduced coordinates, comma-separated
    /// (e.g. --guess 0.19,-0.2); default: the file's first guess.
    #[arg(
        long,
        value_name = "V1,V2,...",
        allow_hyphen_values = true,
        conflicts_with_all = ["guess_label", "all"]
    )]
    pub guess: Option<String>,

    /// Start from the file's guess with this label.
    #[arg(long, value_name = "LABEL", conflicts_with = "all")]
    pub guess_label: Option<String>,

    /// Start from every guess in the file, one result each.
    #[arg(long)]
    pub all: bool,
}

/// An initial guess with a description for messages and tables.
#[derive(Debug, Clone, PartialEq)]
pub struct StartingGuess {
    /// Where it came from: `guess "stable gait" of models/x.ron` or `--guess`.
    pub what: String,
    /// The file's label, if it came from the file.
    pub label: Option<String>,
    /// Reduced coordinates.
    pub u: Vec<f64>,
}

/// The file's first guess (`NoGuess` when it has none): where the analyses that start from
/// the nominal orbit (basins, the mean first-passage time) solve for it.
pub fn first_guess(loaded: &LoadedModel) -> Result<StartingGuess, CliError> {
    let guess = loaded
        .file
        .guesses
        .first()
        .ok_or_else(|| CliError::NoGuess {
            file: loaded.path.clone(),
        })?;
    Ok(StartingGuess {
        what: format!("guess \"{}\"", guess.label),
        label: Some(guess.label.clone()),
        u: guess.u.clone(),
    })
}

impl GuessArgs {
    /// The guesses to start from, each checked against the model's reduced dimension.
    pub fn select(&self, loaded: &LoadedModel) -> Result<Vec<StartingGuess>, CliError> {
        let file = &loaded.file;
        let from_file = |g: &Guess| StartingGuess {
            what: format!("guess \"{}\" of {}", g.label, loaded.path),
            label: Some(g.label.clone()),
            u: g.u.clone(),
        };
        let guesses = if let Some(arg) = &self.guess {
            vec![StartingGuess {
                what: "--guess".into(),
                label: None,
                u: parse_guess(arg)?,
            }]
        } else if let Some(label) = &self.guess_label {
            let g = file
                .guesses
                .iter()
                .find(|g| &g.label == label)
                .ok_or_else(|| CliError::UnknownLabel {
                    label: label.clone(),
                    file: loaded.path.clone(),
                    known: file.guesses.iter().map(|g| g.label.clone()).collect(),
                })?;
            vec![from_file(g)]
        } else if self.all {
            file.guesses.iter().map(from_file).collect()
        } else {
            file.guesses.iter().take(1).map(from_file).collect()
        };
        if guesses.is_empty() {
            return Err(CliError::NoGuess {
                file: loaded.path.clone(),
            });
        }
        let expected = file.model.reduced_dim();
        if let Some(g) = guesses.iter().find(|g| g.u.len() != expected) {
            return Err(CliError::GuessLength {
                what: format!("{} {}", g.what, crate::format::vector(&g.u)),
                model: file.model.name().to_string(),
                expected,
                got: g.u.len(),
            });
        }
        Ok(guesses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_parsing() {
        assert_eq!(parse_set("gamma=0.012").unwrap(), ("gamma", 0.012));
        assert_eq!(parse_set(" gamma = 1e-2 ").unwrap(), ("gamma", 0.01));
        for bad in [
            "gamma",
            "=1",
            "gamma=",
            "gamma=abc",
            "gamma=nan",
            "gamma=inf",
        ] {
            let e = parse_set(bad).unwrap_err();
            assert!(matches!(e, CliError::MalformedSet { .. }), "{bad}: {e}");
            assert!(e.to_string().contains(bad), "{e}");
        }
    }

    #[test]
    fn guess_parsing() {
        assert_eq!(parse_guess("0.19,-0.2").unwrap(), vec![0.19, -0.2]);
        assert_eq!(parse_guess(" 0.5 ").unwrap(), vec![0.5]);
        for bad in ["", "0.2,", "0.2,x", "0.2;0.3", "nan"] {
            let e = parse_guess(bad).unwrap_err();
            assert!(matches!(e, CliError::MalformedGuess { .. }), "{bad}: {e}");
        }
    }
}
