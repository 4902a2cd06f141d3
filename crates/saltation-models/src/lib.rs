//! # saltation-models
//!
//! The models of the Saltation papers, each implementing
//! [`saltation_hybrid::EvalModel`] with hand-written Jacobians (checked against automatic
//! differentiation in the tests) and a serde parameter struct.
//!
//! | model | equations | reference data |
//! |---|---|---|
//! | [`RimlessWheel`] | Coleman 2009; Bhounsule 2014 §3 | closed-form fixed point and multipliers, [`reference::rimless_benchmark`] |
//! | [`SimplestWalker`] | Garcia et al. 1998; Bhounsule 2014 §4 | Table 1 of Bhounsule 2014, [`reference::walker_table1`] |
//! | [`BouncingBall`] | a lecture's event example | closed-form impact times, stride map and Zeno time |
//! | [`Monopod`] | Hunt–Crossley ground; the solver study's eqs. (18)–(19) | stiffness polynomial (31), the two strategies against each other |
//! | [`VanDerPol`] | van der Pol 1926 | period [`reference::van_der_pol`], `μ = exp(∮ ε(1 − x²) dt)` |
//!
//! The stiff test problems are plain ODEs (one mode, no guards) with the published reference
//! solutions of the Test Set for IVP Solvers (Mazzia & Magherini) in [`mod@reference`]:
//!
//! | model | problem | reference data |
//! |---|---|---|
//! | [`Robertson`], [`RobertsonDae`] | ROBER, Robertson (1966); the DAE with `M = diag(1, 1, 0)` | [`reference::rober`] at `t = 40` and `10¹¹` |
//! | [`VanDerPolStiff`] | VDPOL, Hairer & Wanner's scaled form, `ε = 10⁻⁶` | [`reference::vdpol`] at `t = 2` |
//! | [`Hires`] | HIRES, Schäfer (1975) | [`reference::hires`] at `t = 321.8122` |
//! | [`Orego`] | OREGO, the Oregonator of Field & Noyes (1974) | [`reference::orego`] at `t = 360` |
//!
//! [`Model`] holds any of them: what a RON model file names (the files themselves — guesses,
//! orbit settings, continuation scripts — are read by the `saltation-scenario` crate).
#![warn(missing_docs)]

mod any;
mod bouncing_ball;
pub mod equations;
mod hires;
pub mod hopper;
pub mod monopod;
mod orego;
pub mod reference;
pub mod registry;
mod rimless_wheel;
mod robertson;
mod simplest_walker;
#[cfg(test)]
mod tests;
mod van_der_pol;
mod van_der_pol_stiff;

pub use any::Model;
pub use bouncing_ball::{BallGuard, BouncingBall};
pub use equations::{EquationModel, EquationSpec};
pub use hires::Hires;
pub use monopod::{Monopod, MonopodGuard, Strategy};
pub use orego::Orego;
pub use registry::{Custom, NameTaken, Registry};
pub use rimless_wheel::{RimlessWheel, WheelGuard};
pub use robertson::{Robertson, RobertsonDae};
pub use simplest_walker::{SimplestWalker, WalkerGuard};
pub use van_der_pol::{SectionGuard, VanDerPol};
pub use van_der_pol_stiff::VanDerPolStiff;
