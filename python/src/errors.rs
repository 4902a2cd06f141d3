//! Errors crossing into Python: a [`Failure`] is the name of the `saltation.Error` subclass to
//! raise (defined in `saltation/_errors.py`) and the command's one-line message
//! ([`CliError::message`]), so Python users read exactly what the `saltation` command prints
//! after `error: `.
//!
//! Which subclass: a file that cannot be read or parsed is `LoadError` (its message starts with
//! `file:line:column`); a parameter name or value is `ParamError`; any other bad input (exit code
//! [`EXIT_INPUT`] of the command: a guess of the wrong length, an unknown option, a tolerance out
//! of range) is `ArgumentError`; a computation that failed is the operation's own class
//! (`OrbitError`, `SimulationError`, `ContinuationError`, `BasinError`, `LyapunovError`,
//! `SensitivityError`, `MfptError`).

use pyo3::prelude::*;
use saltation_cli::{CliError, EXIT_INPUT};

/// Which computation failed, to name the class of a failed computation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `Model.orbit`.
    Orbit,
    /// `Model.simulate`.
    Simulate,
    /// `Model.continuation`, `Model.orbit_diagram`, `Model.curve`.
    Continuation,
    /// `Model.basin`, `saltation.merge_basins`.
    Basin,
    /// `Model.lyapunov`.
    Lyapunov,
    /// `Model.sensitivity`.
    Sensitivity,
    /// `Model.mfpt`.
    Mfpt,
}

/// An error to raise in Python: the class name in `saltation._errors` and the message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// `LoadError`, `ParamError`, `ArgumentError`, or the failed computation's class
    /// (`OrbitError`, `SimulationError`, `ContinuationError`, `BasinError`, `LyapunovError`,
    /// `SensitivityError`, `MfptError`).
    pub class: &'static str,
    /// The message (the command's, on one line).
    pub message: String,
}

impl Failure {
    /// A failure of class `class` with `message`.
    pub fn new(class: &'static str, message: impl Into<String>) -> Self {
        Self {
            class,
            message: message.into(),
        }
    }

    /// The class for a command error met during `op`.
    pub fn from_cli(e: &CliError, op: Op) -> Self {
        let class = match e {
            CliError::File(_) => "LoadError",
            CliError::Param { .. }
            | CliError::MalformedSet { .. }
            | CliError::ContinuationParam { .. } => "ParamError",
            e if e.exit_code() == EXIT_INPUT => "ArgumentError",
            _ => match op {
                Op::Orbit => "OrbitError",
                Op::Simulate => "SimulationError",
                Op::Continuation => "ContinuationError",
                Op::Basin => "BasinError",
                Op::Lyapunov => "LyapunovError",
                Op::Sensitivity => "SensitivityError",
                Op::Mfpt => "MfptError",
            },
        };
        Self::new(class, e.message())
    }

    /// The Python exception (an instance of `saltation._errors.<class>`).
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let made = py
            .import("saltation._errors")
            .and_then(|m| m.getattr(self.class))
            .and_then(|cls| cls.call1((self.message.clone(),)));
        match made {
            Ok(exc) => PyErr::from_value(exc),
            // The package's Python half is missing (the module imported on its own): still
            // an exception with the message.
            Err(_) => pyo3::exceptions::PyRuntimeError::new_err(self.message),
        }
    }
}

/// A result whose error is a [`Failure`].
pub type Outcome<T> = Result<T, Failure>;
