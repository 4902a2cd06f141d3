//! # saltation-scenario
//!
//! Model files (`models/*.ron`): a scenario for the models of [`saltation_models`] — which
//! model with which parameters, initial guesses of its periodic orbits, the orbit settings
//! ([`saltation_orbit::OrbitOptions`], written once as `orbit`), and optionally a continuation
//! script ([`saltation_continuation::ContinuationSpec`], run with those orbit settings) and an
//! initial state for simulation.
//!
//! | I want to … | use |
//! |---|---|
//! | read a model file | [`load_model_file`] (or [`parse_model_file`] for text) |
//! | the settings of a periodic-orbit solve | [`ModelFile::orbit`] |
//! | the continuation script to run | [`ModelFile::continuation_spec`] |
//! | check a file I built in code | [`ModelFile::validate`] |
//! | point an error of my own input file at its text | [`field_offset`], [`line_column`] |
//!
//! Loading checks everything that needs no computation ([`ModelFile::validate`]), and every
//! mistake is a [`FileError::Parse`] with the file's line and column: syntax, unknown names,
//! values out of range, an equation model's expression (at the character), and a setting
//! written where nothing would read it (an orbit setting outside `orbit`, such as a `stride`
//! in the continuation's `settings`), with where it belongs.
#![warn(missing_docs)]

mod check;
mod file;
mod locate;
mod misplaced;
mod read;
#[cfg(test)]
mod tests;

pub use check::Invalid;
pub use file::{
    load_model_file, parse_model_file, ron_options, FileError, Guess, InitialState, ModelFile,
    MAX_GUESSES,
};
pub use locate::{code_mask, field_offset, line_column};
pub use read::{read_text_file, MAX_FILE_BYTES};
