//! # saltation-models
//!
//! The models of the Saltation papers, each implementing
//! [`saltation_hybrid::HybridModel`] with hand-written Jacobians (checked against automatic
//! differentiation in the tests) and a serde parameter struct.
#![warn(missing_docs)]

mod any;
mod bouncing_ball;
mod file;
pub mod reference;
mod rimless_wheel;
mod simplest_walker;
#[cfg(test)]
mod tests;
mod van_der_pol;

pub use any::Model;
pub use bouncing_ball::{BouncingBall, BouncingBallParams};
pub use file::{load_model_file, parse_model_file, ron_options, FileError, Guess, ModelFile};
pub use rimless_wheel::{RimlessWheel, RimlessWheelParams};
pub use simplest_walker::{SimplestWalker, SimplestWalkerParams};
pub use van_der_pol::{VanDerPol, VanDerPolParams};
