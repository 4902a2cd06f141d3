//! The CLI's error type: what failed, in one line, and which exit code that earns.

use saltation_continuation::ContinuationError;
use saltation_hybrid::ParamError;
use saltation_orbit::OrbitError;
use saltation_report::study::StudyError;
use saltation_report::ReportError;
use saltation_scenario::FileError;
use thiserror::Error;

/// Exit code for bad input: unreadable or invalid model file, unknown parameter, malformed
/// `--set` or `--guess`, no guess to start from, an unusable `--out` directory (clap's usage
/// errors use the same code).
pub const EXIT_INPUT: u8 = 2;

/// Exit code for a computation that failed: no convergence, integration failure, no multipliers,
/// or the output could not be written.
pub const EXIT_COMPUTATION: u8 = 1;

/// Why a `saltation` command failed. [`CliError::exit_code`] says whose fault it was;
/// [`CliError::message`] is the one-line text printed after `error: `.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CliError {
    /// The model file could not be read or parsed (parse errors carry `file:line:column`).
    #[error("{0}")]
    File(#[from] FileError),
    /// A `--set name=value` is not of that form or its value is not a number.
    #[error("malformed --set `{arg}`: {reason}")]
    MalformedSet {
        /// The argument as given.
        arg: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A `--set` names a parameter the model does not have, or a value it cannot take.
    #[error("--set {arg}: {source}")]
    Param {
        /// The argument as given.
        arg: String,
        /// The model's answer (lists the known parameters when the name is unknown).
        #[source]
        source: ParamError,
    },
    /// A `--guess` is not a comma-separated list of finite numbers.
    #[error("malformed --guess `{arg}`: {reason}")]
    MalformedGuess {
        /// The argument as given.
        arg: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A guess has the wrong number of reduced coordinates.
    #[error(
        "{what} has {got} value(s), but the {model} section has {expected} reduced coordinate(s)"
    )]
    GuessLength {
        /// Which guess, with its values (`--guess [0.2]`).
        what: String,
        /// The model's name.
        model: String,
        /// The reduced dimension.
        expected: usize,
        /// The number of values given.
        got: usize,
    },
    /// A guess's start state (the guess mapped to the state by the model's chart, in the
    /// stride's start mode) breaks a declared admissibility condition of that mode: refused
    /// before Newton, unless `--allow-inadmissible` is given.
    #[error("{what} starts outside the model's admissible states: {source} (--allow-inadmissible solves from it anyway)")]
    InadmissibleGuess {
        /// Which guess, with its values.
        what: String,
        /// The condition, the mode, its value and the state
        /// ([`saltation_hybrid::HybridError::Inadmissible`]).
        #[source]
        source: Box<saltation_hybrid::HybridError>,
    },
    /// The file has no guesses and none was given on the command line.
    #[error("{file} has no initial guesses; give one with --guess v1,v2,...")]
    NoGuess {
        /// The model file.
        file: String,
    },
    /// `--guess-label` names no guess of the file.
    #[error("{file} has no guess labelled \"{label}\" (labels: {})", quoted(.known))]
    UnknownLabel {
        /// The label asked for.
        label: String,
        /// The model file.
        file: String,
        /// The labels the file has.
        known: Vec<String>,
    },
    /// The file's solver settings are out of range.
    #[error("invalid settings in {file}: {reason}")]
    Settings {
        /// The model file.
        file: String,
        /// Which setting and why.
        reason: String,
    },
    /// No periodic orbit was found from a guess.
    #[error("no periodic orbit from {what}: {source}{detail}")]
    Orbit {
        /// Which guess, with its values.
        what: String,
        /// What went wrong (boxed: orbit errors carry iterates and are large).
        #[source]
        source: Box<OrbitError>,
        /// Extra context (e.g. `; last iterate u = [..]`), possibly empty.
        detail: String,
    },
    /// The model file has no `continuation` section.
    #[error(
        "{file} has no `continuation` section (see models/simplest_walker_continuation.ron \
         for one)"
    )]
    NoContinuation {
        /// The model file.
        file: String,
    },
    /// The continuation section has no orbit diagram and the command line does not give one.
    #[error("{file} has no `orbit_diagram` in its continuation section: give --from and --to")]
    NoOrbitDiagram {
        /// The model file.
        file: String,
    },
    /// The continuation parameter (from the file or `--param`) is not a parameter of the model.
    #[error("continuation parameter ({origin}): {source}")]
    ContinuationParam {
        /// Where the name came from (`--param gama`, `param: "gama" in models/x.ron`).
        origin: String,
        /// The model's answer (lists the known parameters when the name is unknown).
        #[source]
        source: ParamError,
    },
    /// The gait sensitivity norm could not be computed (an unstable orbit, a failed stride).
    #[error("gait sensitivity: {reason}")]
    Sensitivity {
        /// Why.
        reason: String,
    },
    /// A command-line value is out of range.
    #[error("{arg}: {reason}")]
    BadArgument {
        /// The argument as given (`--count 0`).
        arg: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The model file has no `initial` section for `saltation simulate`.
    #[error(
        "{file} has no `initial` section: add `initial: (t: 0.0, x: [..], mode: 0)` (see \
         models/robertson.ron for one)"
    )]
    NoInitial {
        /// The model file.
        file: String,
    },
    /// A simulation stopped before its end time.
    #[error("simulation of {file} with {method} failed at t = {}: {source}", saltation_ode::Num(*t))]
    Simulation {
        /// The model file.
        file: String,
        /// Method name.
        method: &'static str,
        /// Time reached.
        t: f64,
        /// Why (boxed: hybrid errors are large).
        #[source]
        source: Box<saltation_hybrid::HybridError>,
    },
    /// The model reads the time but declares no forcing period (or an unusable one): it has no
    /// periodic orbits to compute.
    #[error("{file}: {source}")]
    Forcing {
        /// The model file.
        file: String,
        /// The hybrid layer's refusal, saying how to declare the forcing.
        #[source]
        source: Box<saltation_hybrid::HybridError>,
    },
    /// A computation failed on a non-finite vector field of an equation model: the error, and
    /// where the value came from (mode, state, sub-expression).
    #[error("{source}; {detail}")]
    Explained {
        /// The error as reported by the computation.
        source: Box<CliError>,
        /// Which expression of which mode became non-finite.
        detail: String,
    },
    /// The solver study could not be made (its reference failed; a failed run is a result).
    #[error("study failed: {0}")]
    Study(#[from] StudyError),
    /// The Lyapunov exponents could not be computed (a stride failed, the tangent map
    /// collapsed).
    #[error("lyapunov exponents: {0}")]
    Lyapunov(Box<saltation_orbit::LyapunovError>),
    /// The continuation itself failed (not a branch ending, which is a result).
    #[error("continuation failed: {0}")]
    Continuation(#[from] ContinuationError),
    /// The output files (data or figures) could not be written.
    #[error("{0}")]
    Report(#[from] ReportError),
    /// With `--all`, some guesses failed (their errors are in the output beside the others'
    /// results).
    #[error("{failed} of {total} guesses failed (first: {first})")]
    GuessesFailed {
        /// Number of failed guesses.
        failed: usize,
        /// Number of guesses.
        total: usize,
        /// The first failure's message.
        first: String,
    },
    /// The result could not be serialised.
    #[error("cannot serialise the result: {0}")]
    Json(#[from] serde_json::Error),
    /// The result could not be written to stdout (a full disk, a reader that closed the pipe):
    /// the output is incomplete.
    #[error("cannot write the output: {0}; the output is incomplete")]
    Output(#[from] std::io::Error),
}

fn quoted(labels: &[String]) -> String {
    if labels.is_empty() {
        return "none".into();
    }
    labels
        .iter()
        .map(|l| format!("\"{l}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `e` with the explanation of an equation model's first non-finite vector-field value, if
/// the model is one and met one (the integrator itself only knows that a step failed).
pub fn explain(e: CliError, model: &saltation_models::Model) -> CliError {
    match model {
        saltation_models::Model::Equations(m) => match m.model().non_finite_report() {
            Some(detail) if e.to_string().contains("NaN or Inf") => CliError::Explained {
                source: Box::new(e),
                detail,
            },
            // The step shrank to its floor after attempts that met a non-finite value (a step
            // into a region where the field is not defined): that is the cause to name.
            Some(detail) if e.to_string().contains("fell below its floor") => CliError::Explained {
                source: Box::new(e),
                detail: format!("the vector field returned NaN or Inf on the way: {detail}"),
            },
            _ => e,
        },
        _ => e,
    }
}

impl CliError {
    /// The process exit code: [`EXIT_INPUT`] for bad input, [`EXIT_COMPUTATION`] for a failed
    /// computation.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Explained { source, .. } => source.exit_code(),
            CliError::Report(e) if e.is_destination() => EXIT_INPUT,
            CliError::Orbit { source, .. } if matches!(**source, OrbitError::InvalidOptions(_)) => {
                EXIT_INPUT
            }
            CliError::File(_)
            | CliError::MalformedSet { .. }
            | CliError::Param { .. }
            | CliError::MalformedGuess { .. }
            | CliError::GuessLength { .. }
            | CliError::InadmissibleGuess { .. }
            | CliError::NoGuess { .. }
            | CliError::UnknownLabel { .. }
            | CliError::Settings { .. }
            | CliError::NoContinuation { .. }
            | CliError::NoOrbitDiagram { .. }
            | CliError::ContinuationParam { .. }
            | CliError::BadArgument { .. }
            | CliError::NoInitial { .. }
            | CliError::Forcing { .. } => EXIT_INPUT,
            CliError::Orbit { .. }
            | CliError::Simulation { .. }
            | CliError::Lyapunov(_)
            | CliError::GuessesFailed { .. }
            | CliError::Sensitivity { .. }
            | CliError::Continuation(_)
            | CliError::Study(_)
            | CliError::Report(_)
            | CliError::Json(_)
            | CliError::Output(_) => EXIT_COMPUTATION,
        }
    }

    /// The message on one line (line breaks in wrapped messages, e.g. from the RON parser,
    /// become spaces).
    pub fn message(&self) -> String {
        let text = self.to_string();
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        shorten(&lines.join(" "))
    }
}

/// Longest word (run without spaces) a message echoes in full.
const MAX_WORD: usize = 200;
/// Characters kept of a longer word.
const KEPT_OF_WORD: usize = 40;
/// Longest message printed in full (a list of 10 000 known names is not read).
const MAX_MESSAGE: usize = 2000;

/// `text` with echoed input kept readable: a word longer than [`MAX_WORD`] characters (a huge
/// expression, name or literal) is cut to its first [`KEPT_OF_WORD`] with `… (N characters)`,
/// and a message still longer than [`MAX_MESSAGE`] is cut there with `… (N characters in all)`.
fn shorten(text: &str) -> String {
    let words: Vec<String> = text
        .split(' ')
        .map(|w| {
            let n = w.chars().count();
            if n > MAX_WORD {
                let head: String = w.chars().take(KEPT_OF_WORD).collect();
                format!("{head}… ({n} characters)")
            } else {
                w.to_string()
            }
        })
        .collect();
    let out = words.join(" ");
    let n = out.chars().count();
    if n > MAX_MESSAGE {
        let head: String = out.chars().take(MAX_MESSAGE).collect();
        format!("{head}… ({n} characters in all)")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_echoed_input_is_cut() {
        let name = "x".repeat(10_000);
        let e = CliError::BadArgument {
            arg: format!("--set {name}=1"),
            reason: "unknown parameter".into(),
        };
        let m = e.message();
        assert!(m.len() < 200, "{m}");
        assert!(m.contains("… (10003 characters)"), "{m}");
        assert!(m.ends_with("unknown parameter"), "{m}");
        // A long list of short words is cut as a whole.
        let list = vec!["abc"; 5000].join(", ");
        let e = CliError::BadArgument {
            arg: "--param q".into(),
            reason: format!("known: {list}"),
        };
        let m = e.message();
        assert!(m.chars().count() < MAX_MESSAGE + 40, "{}", m.len());
        let all = e.to_string().chars().count();
        assert!(m.ends_with(&format!("({all} characters in all)")), "{m}");
        // Ordinary messages are unchanged.
        let short = CliError::BadArgument {
            arg: "--count 0".into(),
            reason: "must be in 1..=100000".into(),
        };
        assert_eq!(short.message(), "--count 0: must be in 1..=100000");
    }
}
