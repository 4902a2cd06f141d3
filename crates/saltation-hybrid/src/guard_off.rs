//! A model with one guard switched off: what a grazing of that guard is measured on.
//!
//! [`GuardOff`] is a model whose guard `j` of mode `m` (if any is named) is never enabled
//! ([`EvalModel::guard_enabled`] is `false`), everything else the model's own. Where an orbit
//! grazes that guard its clearance `γ` (the guard's least interior value,
//! [`crate::guard_touches`]) is a smooth function of the orbit and the parameters on both
//! sides of zero only if the orbit is followed through the guard without firing it: on the
//! far side the model itself fires the guard, and the phase the clearance was measured in
//! ends there. Grazing curves evaluate `γ` on it, as one-sided differences would not reach
//! across.

use crate::model::{EvalModel, GuardInfo};
use crate::ParamError;

/// `model` with guard `off = (mode, guard)` never enabled (`None`: the model itself; see the
/// module documentation).
#[derive(Debug, Clone)]
pub struct GuardOff<M> {
    /// The model.
    pub model: M,
    /// The mode and index of the guard switched off.
    pub off: Option<(usize, usize)>,
}

impl<M> GuardOff<M> {
    fn off(&self, mode: usize, j: usize) -> bool {
        self.off == Some((mode, j))
    }
}

impl<M: EvalModel> EvalModel for GuardOff<M> {
    fn name(&self) -> &str {
        self.model.name()
    }
    fn dim(&self) -> usize {
        self.model.dim()
    }
    fn modes(&self) -> usize {
        self.model.modes()
    }
    fn mode_name(&self, mode: usize) -> String {
        self.model.mode_name(mode)
    }
    fn state_names(&self) -> Vec<String> {
        self.model.state_names()
    }
    fn flow(&self, mode: usize, t: f64, x: &[f64], dx: &mut [f64]) {
        self.model.flow(mode, t, x, dx)
    }
    fn flow_jacobian(&self, mode: usize, t: f64, x: &[f64], jac: &mut [f64]) {
        self.model.flow_jacobian(mode, t, x, jac)
    }
    fn flow_and_jacobian(&self, mode: usize, t: f64, x: &[f64], dx: &mut [f64], jac: &mut [f64]) {
        self.model.flow_and_jacobian(mode, t, x, dx, jac)
    }
    fn flow_time_derivative(&self, mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]) -> bool {
        self.model.flow_time_derivative(mode, t, x, dfdt)
    }
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool {
        self.model.flow_jacobian_is_constant(mode)
    }
    fn flow_is_autonomous(&self, mode: usize) -> bool {
        self.model.flow_is_autonomous(mode)
    }
    fn forcing(&self) -> Option<crate::Forcing<f64>> {
        self.model.forcing()
    }
    fn forcing_period_gradient(&self, grad: &mut [f64]) {
        self.model.forcing_period_gradient(grad)
    }
    fn forcing_in_param(&self, k: usize, pk: f64) -> Option<(crate::Forcing<f64>, f64)> {
        self.model.forcing_in_param(k, pk)
    }
    fn stride_event(&self, mode: usize, j: usize) -> bool {
        self.model.stride_event(mode, j)
    }
    fn mass_matrix(&self, mode: usize) -> Option<Vec<f64>> {
        self.model.mass_matrix(mode)
    }
    fn guards(&self, mode: usize) -> usize {
        self.model.guards(mode)
    }
    fn guard_name(&self, mode: usize, j: usize) -> String {
        self.model.guard_name(mode, j)
    }
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo {
        self.model.guard_info(mode, j)
    }
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool {
        !self.off(mode, j) && self.model.guard_enabled(mode, j, x)
    }
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        self.model.guard_failure(mode, j)
    }
    fn guard_on_accumulation(&self, mode: usize, j: usize) -> Option<usize> {
        self.model.guard_on_accumulation(mode, j)
    }
    fn guard(&self, mode: usize, j: usize, x: &[f64]) -> f64 {
        self.model.guard(mode, j, x)
    }
    fn guard_gradient(&self, mode: usize, j: usize, x: &[f64], grad: &mut [f64]) {
        self.model.guard_gradient(mode, j, x, grad)
    }
    fn reset(&self, mode: usize, j: usize, x: &[f64], out: &mut [f64]) {
        self.model.reset(mode, j, x, out)
    }
    fn reset_jacobian(&self, mode: usize, j: usize, x: &[f64], jac: &mut [f64]) {
        self.model.reset_jacobian(mode, j, x, jac)
    }
    fn reduced_dim(&self) -> usize {
        self.model.reduced_dim()
    }
    fn chart(&self, u: &[f64], x: &mut [f64]) {
        self.model.chart(u, x)
    }
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        self.model.chart_jacobian(u, jac)
    }
    fn project(&self, x: &[f64], u: &mut [f64]) {
        self.model.project(x, u)
    }
    fn project_jacobian(&self, x: &[f64], jac: &mut [f64]) {
        self.model.project_jacobian(x, jac)
    }
    fn multipliers_on_section(&self) -> bool {
        self.model.multipliers_on_section()
    }
    fn conditions(&self, mode: usize) -> usize {
        self.model.conditions(mode)
    }
    fn condition_name(&self, mode: usize, i: usize) -> String {
        self.model.condition_name(mode, i)
    }
    fn condition(&self, mode: usize, i: usize, x: &[f64]) -> f64 {
        self.model.condition(mode, i, x)
    }
    fn condition_kind(&self, mode: usize, i: usize) -> (String, crate::ViolationKind) {
        self.model.condition_kind(mode, i)
    }
    fn state_residual(&self, mode: usize, x: &[f64]) -> Option<(String, f64)> {
        self.model.state_residual(mode, x)
    }
    fn admissibility(
        &self,
        x0: &[f64],
        opts: &crate::StrideOptions,
    ) -> Option<Result<crate::Admissibility, crate::HybridError>> {
        self.model.admissibility(x0, opts)
    }
    fn param_names(&self) -> Vec<String> {
        self.model.param_names()
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        self.model.param_value(k)
    }
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        self.model.set_param_value(k, value)
    }
    fn check_params(&self) -> Result<(), ParamError> {
        self.model.check_params()
    }
    fn param_derivatives(&self, k: usize) -> bool {
        self.model.param_derivatives(k)
    }
    fn flow_in_param(
        &self,
        k: usize,
        pk: f64,
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        self.model.flow_in_param(k, pk, mode, t, x, dx, jac)
    }
    fn guard_in_param(
        &self,
        k: usize,
        pk: f64,
        mode: usize,
        j: usize,
        x: &[f64],
        grad: &mut [f64],
    ) -> f64 {
        self.model.guard_in_param(k, pk, mode, j, x, grad)
    }
    fn reset_in_param(
        &self,
        k: usize,
        pk: f64,
        mode: usize,
        j: usize,
        x: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        self.model.reset_in_param(k, pk, mode, j, x, out, jac)
    }
    fn chart_in_param(&self, k: usize, pk: f64, u: &[f64], x: &mut [f64], jac: &mut [f64]) {
        self.model.chart_in_param(k, pk, u, x, jac)
    }
}
