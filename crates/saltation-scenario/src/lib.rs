//! # saltation-scenario
//!
//! Model files (`models/*.ron`): a scenario for the models of [`saltation_models`] — which
//! model with which parameters, initial guesses of its periodic orbits, the orbit settings
//! ([`saltation_orbit::OrbitOptions`], written once as `orbit`), and optionally a continuation
//! script ([`ContinuationSection`], read into a [`saltation_continuation::ContinuationSpec`] and
//! run with those orbit settings beside it) and an initial state for simulation.
//!
//! The file schema is this crate's: [`ModelFile`], [`ContinuationSection`], [`DiagramSection`]
//! hold the library's option structs ([`saltation_orbit::OrbitOptions`],
//! [`saltation_continuation::ContinuationOptions`],
//! [`saltation_continuation::OrbitDiagramOptions`]) each once.
//!
//! | I want to … | use |
//! |---|---|
//! | read a model file | [`load_model_file`] (or [`parse_model_file`] for text) |
//! | the settings of a periodic-orbit solve | [`ModelFile::orbit`] |
//! | the continuation script to run | [`ModelFile::script`], with [`ModelFile::orbit`] beside it |
//! | check a file I built in code | [`ModelFile::validate`] |
//! | point an error of my own input file at its text | [`field_offset`], [`line_column`] |
//!
//! Loading checks everything that needs no computation ([`ModelFile::validate`]), and every
//! mistake is a [`FileError::Parse`] with the file's line and column: syntax, unknown names,
//! values out of range, an equation model's expression (at the character), and an orbit setting
//! where an older layout had it (a `stride` at the top level or in the continuation's
//! `settings`), with its place in `orbit`.
#![warn(missing_docs)]

mod check;
mod curves;
mod file;
mod locate;
mod moved;
mod read;
mod section;
#[cfg(test)]
mod tests;

pub use check::Invalid;
pub use curves::{CurveKindSection, CurveSection, DirectionSection};
pub use file::{
    load_model_file, parse_model_file, ron_options, FileError, Guess, InitialState, ModelFile,
    MAX_GUESSES,
};
pub use locate::{code_mask, field_offset, line_column};
pub use read::{read_text_file, MAX_FILE_BYTES};
pub use section::{ContinuationSection, DiagramSection, ShootingSetting};
