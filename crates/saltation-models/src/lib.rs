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

/// `impl EvalModel` by forwarding every method to an inner model: `$via!(self, |m| body)`
/// runs `body` with `m` bound to the inner model (a match over the built-in variants, or the
/// registered model's box), so the list of methods is written once.
macro_rules! forward_eval {
    ($via:ident) => {
        forward_eval!(@each $via;
            name() -> &str;
            dim() -> usize;
            modes() -> usize;
            mode_name(mode: usize) -> String;
            state_names() -> Vec<String>;
            flow(mode: usize, t: f64, x: &[f64], dx: &mut [f64]);
            flow_jacobian(mode: usize, t: f64, x: &[f64], jac: &mut [f64]);
            flow_and_jacobian(mode: usize, t: f64, x: &[f64], dx: &mut [f64], jac: &mut [f64]);
            flow_time_derivative(mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]) -> bool;
            flow_jacobian_is_constant(mode: usize) -> bool;
            flow_is_autonomous(mode: usize) -> bool;
            forcing() -> Option<saltation_hybrid::Forcing<f64>>;
            forcing_period_gradient(grad: &mut [f64]);
            forcing_in_param(k: usize, pk: f64) -> Option<(saltation_hybrid::Forcing<f64>, f64)>;
            stride_event(mode: usize, j: usize) -> bool;
            mass_matrix(mode: usize) -> Option<Vec<f64>>;
            guards(mode: usize) -> usize;
            guard_name(mode: usize, j: usize) -> String;
            guard_info(mode: usize, j: usize) -> saltation_hybrid::GuardInfo;
            guard_enabled(mode: usize, j: usize, x: &[f64]) -> bool;
            guard_failure(mode: usize, j: usize) -> Option<String>;
            guard_on_accumulation(mode: usize, j: usize) -> Option<usize>;
            guard(mode: usize, j: usize, x: &[f64]) -> f64;
            guard_gradient(mode: usize, j: usize, x: &[f64], grad: &mut [f64]);
            reset(mode: usize, j: usize, x: &[f64], out: &mut [f64]);
            reset_jacobian(mode: usize, j: usize, x: &[f64], jac: &mut [f64]);
            reduced_dim() -> usize;
            chart(u: &[f64], x: &mut [f64]);
            chart_jacobian(u: &[f64], jac: &mut [f64]);
            project(x: &[f64], u: &mut [f64]);
            project_jacobian(x: &[f64], jac: &mut [f64]);
            multipliers_on_section() -> bool;
            admissibility(x0: &[f64], opts: &saltation_hybrid::StrideOptions)
                -> Option<Result<saltation_hybrid::Admissibility, saltation_hybrid::HybridError>>;
            conditions(mode: usize) -> usize;
            condition_name(mode: usize, i: usize) -> String;
            condition(mode: usize, i: usize, x: &[f64]) -> f64;
            condition_kind(mode: usize, i: usize) -> (String, saltation_hybrid::ViolationKind);
            state_residual(mode: usize, x: &[f64]) -> Option<(String, f64)>;
            param_names() -> Vec<String>;
            param_value(k: usize) -> Option<f64>;
            check_params() -> Result<(), saltation_hybrid::ParamError>;
            param_derivatives(k: usize) -> bool;
            flow_in_param(k: usize, pk: f64, mode: usize, t: f64, x: &[f64], dx: &mut [f64],
                jac: &mut [f64]);
            guard_in_param(k: usize, pk: f64, mode: usize, j: usize, x: &[f64], grad: &mut [f64])
                -> f64;
            reset_in_param(k: usize, pk: f64, mode: usize, j: usize, x: &[f64], out: &mut [f64],
                jac: &mut [f64]);
            chart_in_param(k: usize, pk: f64, u: &[f64], x: &mut [f64], jac: &mut [f64]);
        );
        fn set_param_value(
            &mut self,
            k: usize,
            value: f64,
        ) -> Result<(), saltation_hybrid::ParamError> {
            $via!(self, |m| m.set_param_value(k, value))
        }
    };
    (@each $via:ident; $($name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;)*) => {
        $(fn $name(&self, $($arg: $ty),*) $(-> $ret)? { $via!(self, |m| m.$name($($arg),*)) })*
    };
}

mod any;
mod bouncing_ball;
pub mod equations;
mod hires;
pub mod hopper;
pub mod indicators;
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
