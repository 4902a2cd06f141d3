//! Every built-in model behind one enum: what a RON model file names, and what the CLI runs.
//!
//! In a RON file the model is written as its variant with the parameters inside, e.g.
//! `model: SimplestWalker(gamma: 0.009)`; an unknown model or parameter name is a parse error
//! with line and column.

use crate::equations::EquationModel;
use crate::hopper::{Hopper, HopperUnconstrained};
use crate::{
    BouncingBall, Hires, Monopod, Orego, RimlessWheel, Robertson, RobertsonDae, SimplestWalker,
    VanDerPol, VanDerPolStiff,
};
use saltation_hybrid::{
    get_param, with_param, Bound, EvalModel, Guard, GuardInfo, ParamError, Scalar,
};
use serde::{Deserialize, Serialize};

/// One of the built-in models, with its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Model {
    /// [`RimlessWheel`].
    RimlessWheel(RimlessWheel),
    /// [`SimplestWalker`].
    SimplestWalker(Bound<SimplestWalker>),
    /// [`BouncingBall`].
    BouncingBall(BouncingBall),
    /// [`VanDerPol`].
    VanDerPol(VanDerPol),
    /// [`Robertson`].
    Robertson(Robertson),
    /// [`RobertsonDae`].
    RobertsonDae(RobertsonDae),
    /// [`VanDerPolStiff`].
    VanDerPolStiff(VanDerPolStiff),
    /// [`Hires`].
    Hires(Hires),
    /// [`Orego`].
    Orego(Orego),
    /// [`Hopper`]: the constrained four-particle hopper.
    Hopper(Bound<Hopper>),
    /// [`HopperUnconstrained`]: the two-block hopper in minimal coordinates.
    HopperUnconstrained(Bound<HopperUnconstrained>),
    /// [`Monopod`]: the dimensionless monopod on Hunt–Crossley ground.
    Monopod(Monopod),
    /// A model written as equations in the file ([`EquationModel`]).
    Equations(EquationModel),
}

/// Runs `$body` with `$m` bound to the variant's model.
macro_rules! each {
    ($self:expr, |$m:ident| $body:expr) => {
        match $self {
            Model::RimlessWheel($m) => $body,
            Model::SimplestWalker($m) => $body,
            Model::BouncingBall($m) => $body,
            Model::VanDerPol($m) => $body,
            Model::Robertson($m) => $body,
            Model::RobertsonDae($m) => $body,
            Model::VanDerPolStiff($m) => $body,
            Model::Hires($m) => $body,
            Model::Orego($m) => $body,
            Model::Hopper($m) => $body,
            Model::HopperUnconstrained($m) => $body,
            Model::Monopod($m) => $body,
            Model::Equations($m) => $body,
        }
    };
}

impl Model {
    /// Names of the built-in models (the RON variant names).
    pub const NAMES: [&'static str; 12] = [
        "RimlessWheel",
        "SimplestWalker",
        "BouncingBall",
        "VanDerPol",
        "Robertson",
        "RobertsonDae",
        "VanDerPolStiff",
        "Hires",
        "Orego",
        "Hopper",
        "HopperUnconstrained",
        "Monopod",
    ];

    /// The model called `name` (one of [`Model::NAMES`]) with its default parameters.
    pub fn with_defaults(name: &str) -> Option<Model> {
        Some(match name {
            "RimlessWheel" => Model::RimlessWheel(RimlessWheel::default()),
            "SimplestWalker" => Model::SimplestWalker(Bound::default()),
            "BouncingBall" => Model::BouncingBall(BouncingBall::default()),
            "VanDerPol" => Model::VanDerPol(VanDerPol::default()),
            "Robertson" => Model::Robertson(Robertson::default()),
            "RobertsonDae" => Model::RobertsonDae(RobertsonDae::default()),
            "VanDerPolStiff" => Model::VanDerPolStiff(VanDerPolStiff::default()),
            "Hires" => Model::Hires(Hires::default()),
            "Orego" => Model::Orego(Orego::default()),
            "Hopper" => Model::Hopper(Bound::default()),
            "HopperUnconstrained" => Model::HopperUnconstrained(Bound::default()),
            "Monopod" => Model::Monopod(Monopod::default()),
            _ => return None,
        })
    }

    /// The variant's name (its entry of [`Model::NAMES`], as written in RON files).
    pub fn variant_name(&self) -> &'static str {
        match self {
            Model::RimlessWheel(_) => "RimlessWheel",
            Model::SimplestWalker(_) => "SimplestWalker",
            Model::BouncingBall(_) => "BouncingBall",
            Model::VanDerPol(_) => "VanDerPol",
            Model::Robertson(_) => "Robertson",
            Model::RobertsonDae(_) => "RobertsonDae",
            Model::VanDerPolStiff(_) => "VanDerPolStiff",
            Model::Hires(_) => "Hires",
            Model::Orego(_) => "Orego",
            Model::Hopper(_) => "Hopper",
            Model::HopperUnconstrained(_) => "HopperUnconstrained",
            Model::Monopod(_) => "Monopod",
            Model::Equations(_) => "Equations",
        }
    }

    /// A copy with parameter `name` set to `value`, checked against the model's physical
    /// ranges ([`EvalModel::check_params`]).
    pub fn with_param(&self, name: &str, value: f64) -> Result<Model, ParamError> {
        with_param(self, name, value)
    }

    /// Value of parameter `name`.
    pub fn param(&self, name: &str) -> Result<f64, ParamError> {
        get_param(self, name)
    }
}

impl EvalModel for Model {
    fn name(&self) -> &str {
        each!(self, |m| m.name())
    }
    fn dim(&self) -> usize {
        each!(self, |m| m.dim())
    }
    fn modes(&self) -> usize {
        each!(self, |m| m.modes())
    }
    fn mode_name(&self, mode: usize) -> String {
        each!(self, |m| m.mode_name(mode))
    }
    fn flow<D: Scalar>(&self, mode: usize, t: f64, x: &[D], dx: &mut [D]) {
        each!(self, |m| m.flow(mode, t, x, dx))
    }
    fn guards(&self, mode: usize) -> usize {
        each!(self, |m| m.guards(mode))
    }
    fn guard<D: Scalar>(&self, mode: usize, j: usize, x: &[D]) -> D {
        each!(self, |m| m.guard(mode, j, x))
    }
    /// The variant's guard without its condition, which is typed by the variant:
    /// [`EvalModel::guard_enabled`] forwards instead.
    fn describe_guard(&self, mode: usize, j: usize) -> Guard<Self> {
        let g = self.guard_info(mode, j);
        Guard {
            failure: self.guard_failure(mode, j).map(Into::into),
            ..Guard::to(g.target).crossing(g.direction)
        }
    }
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo {
        each!(self, |m| m.guard_info(mode, j))
    }
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool {
        each!(self, |m| m.guard_enabled(mode, j, x))
    }
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        each!(self, |m| m.guard_failure(mode, j))
    }
    fn reset<D: Scalar>(&self, mode: usize, j: usize, x: &[D], out: &mut [D]) {
        each!(self, |m| m.reset(mode, j, x, out))
    }
    fn flow_jacobian(&self, mode: usize, t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        each!(self, |m| m.flow_jacobian(mode, t, x, jac))
    }
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool {
        each!(self, |m| m.flow_jacobian_is_constant(mode))
    }
    fn flow_is_autonomous(&self, mode: usize) -> bool {
        each!(self, |m| m.flow_is_autonomous(mode))
    }
    fn flow_time_derivative(&self, mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]) -> bool {
        each!(self, |m| m.flow_time_derivative(mode, t, x, dfdt))
    }
    fn flow_and_jacobian(
        &self,
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        each!(self, |m| m.flow_and_jacobian(mode, t, x, dx, jac))
    }
    fn guard_gradient(&self, mode: usize, j: usize, x: &[f64], grad: &mut [f64]) -> bool {
        each!(self, |m| m.guard_gradient(mode, j, x, grad))
    }
    fn reset_jacobian(&self, mode: usize, j: usize, x: &[f64], jac: &mut [f64]) -> bool {
        each!(self, |m| m.reset_jacobian(mode, j, x, jac))
    }
    fn reduced_dim(&self) -> usize {
        each!(self, |m| m.reduced_dim())
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        each!(self, |m| m.chart(u, x))
    }
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        each!(self, |m| m.chart_jacobian(u, jac))
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        each!(self, |m| m.project(x, u))
    }
    fn project_jacobian(&self, x: &[f64], jac: &mut [f64]) {
        each!(self, |m| m.project_jacobian(x, jac))
    }
    fn state_names(&self) -> Vec<String> {
        each!(self, |m| m.state_names())
    }
    fn admissibility(
        &self,
        x0: &[f64],
        opts: &saltation_hybrid::StrideOptions,
    ) -> Option<Result<saltation_hybrid::Admissibility, saltation_hybrid::HybridError>> {
        each!(self, |m| m.admissibility(x0, opts))
    }
    fn multipliers_on_section(&self) -> bool {
        each!(self, |m| m.multipliers_on_section())
    }
    fn check_params(&self) -> Result<(), ParamError> {
        each!(self, |m| m.check_params())
    }
    fn param_names(&self) -> Vec<String> {
        each!(self, |m| m.param_names())
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        each!(self, |m| m.param_value(k))
    }
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        each!(self, |m| m.set_param_value(k, value))
    }
    fn param_derivatives(&self, k: usize) -> bool {
        each!(self, |m| m.param_derivatives(k))
    }
    fn flow_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        mode: usize,
        t: f64,
        x: &[D],
        dx: &mut [D],
    ) {
        each!(self, |m| m.flow_with_param(k, p, mode, t, x, dx))
    }
    fn flow_param_derivative(
        &self,
        k: usize,
        mode: usize,
        t: f64,
        x: &[f64],
        dfdp: &mut [f64],
    ) -> bool {
        each!(self, |m| m.flow_param_derivative(k, mode, t, x, dfdp))
    }
    fn guard_with_param<D: Scalar>(&self, k: usize, p: D, mode: usize, j: usize, x: &[D]) -> D {
        each!(self, |m| m.guard_with_param(k, p, mode, j, x))
    }
    fn reset_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        mode: usize,
        j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        each!(self, |m| m.reset_with_param(k, p, mode, j, x, out))
    }
    fn chart_with_param<D: Scalar>(&self, k: usize, p: D, u: &[D], x: &mut [D]) {
        each!(self, |m| m.chart_with_param(k, p, u, x))
    }
    fn mass_matrix(&self, mode: usize) -> Option<Vec<f64>> {
        each!(self, |m| m.mass_matrix(mode))
    }
}
