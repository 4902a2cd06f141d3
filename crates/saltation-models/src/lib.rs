//! # saltation-models
//!
//! The models of the Saltation papers, each implementing
//! [`saltation_hybrid::HybridModel`] with hand-written Jacobians (checked against automatic
//! differentiation in the tests) and a serde parameter struct.
//!
//! | model | equations (MODELS.md) | reference data |
//! |---|---|---|
//! | [`RimlessWheel`] | §1 | closed-form fixed point and multipliers, [`reference::rimless_benchmark`] |
//! | [`SimplestWalker`] | §2 | Table 1 of the walker-Jacobian paper, [`reference::walker_table1`] |
//! | [`BouncingBall`] | §5 | closed-form impact times, stride map and Zeno time |
//! | [`VanDerPol`] | §6 | period [`reference::van_der_pol`], `μ = exp(∮ ε(1 − x²) dt)` |
//!
//! [`Model`] holds any of them (what a RON model file names, see [`load_model_file`]).
#![warn(missing_docs)]

mod any;
mod bouncing_ball;
mod check;
mod file;
pub mod reference;
mod rimless_wheel;
mod simplest_walker;
#[cfg(test)]
mod tests;
mod van_der_pol;

pub use any::Model;
pub use bouncing_ball::{BouncingBall, BouncingBallParams};
pub use check::Invalid;
pub use file::{
    load_model_file, parse_model_file, ron_options, FileError, Guess, InitialState, ModelFile,
    MAX_FILE_BYTES, MAX_GUESSES,
};
pub use rimless_wheel::{RimlessWheel, RimlessWheelParams};
pub use simplest_walker::{SimplestWalker, SimplestWalkerParams};
pub use van_der_pol::{VanDerPol, VanDerPolParams};
