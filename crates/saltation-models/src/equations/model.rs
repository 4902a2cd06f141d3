//! An equation model compiled: one flat program per mode, guard, enabling condition, reset and
//! chart, evaluated for any scalar (so Jacobians and parameter derivatives come from
//! forward-mode automatic differentiation through the evaluator: exact, not finite
//! differences).

use super::load::{compile_spec, Compiled, LoadError};
use super::spec::{EquationSpec, ParameterSpec};
use saltation_hybrid::{EvalModel, Guard, GuardInfo, ParamError, Scalar};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A hybrid model written as equations ([`EquationSpec`]), compiled once.
///
/// Built from its text with [`EquationModel::new`] (or from a model file: `model:
/// Equations(…)`); every mistake is a [`LoadError`] naming the place. Parameters are set by
/// name ([`saltation_hybrid::with_param`]), within their declared bounds.
#[derive(Debug, Clone)]
pub struct EquationModel {
    spec: EquationSpec,
    params: Vec<f64>,
    compiled: Arc<Compiled>,
}

impl PartialEq for EquationModel {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec && self.params == other.params
    }
}

/// Largest number of parameters passed on the stack to a dual-number evaluation (more go
/// through a heap buffer).
const STACK_PARAMS: usize = 32;

impl EquationModel {
    /// Compiles `spec`.
    pub fn new(spec: EquationSpec) -> Result<Self, LoadError> {
        let compiled = compile_spec(&spec)?;
        let params = spec.parameters.iter().map(|p| p.value).collect();
        Ok(Self {
            spec,
            params,
            compiled: Arc::new(compiled),
        })
    }

    /// The model's text, with the current parameter values.
    pub fn spec(&self) -> EquationSpec {
        let mut spec = self.spec.clone();
        for (p, &v) in spec.parameters.iter_mut().zip(&self.params) {
            p.value = v;
        }
        spec
    }

    /// Current parameter values, in the order of [`EvalModel::param_names`].
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    /// Runs `f` with the parameters as scalars of type `D` (on the stack for up to
    /// [`STACK_PARAMS`] parameters), parameter `k` replaced by `p` when `over` is `Some((k, p))`.
    #[inline]
    fn with_params<D: Scalar, R>(&self, over: Option<(usize, D)>, f: impl FnOnce(&[D]) -> R) -> R {
        let n = self.params.len();
        let fill = |p: &mut [D]| {
            for (d, &v) in p.iter_mut().zip(&self.params) {
                *d = D::from(v);
            }
            if let Some((k, v)) = over {
                if let Some(d) = p.get_mut(k) {
                    *d = v;
                }
            }
        };
        if n <= STACK_PARAMS {
            let mut p = [D::from(0.0); STACK_PARAMS];
            fill(&mut p[..n]);
            f(&p[..n])
        } else {
            let mut p = vec![D::from(0.0); n];
            fill(&mut p);
            f(&p)
        }
    }

    /// The flow with optional parameter override (see [`EquationModel::with_params`]).
    fn flow_over<D: Scalar>(
        &self,
        over: Option<(usize, D)>,
        mode: usize,
        t: f64,
        x: &[D],
        dx: &mut [D],
    ) {
        self.with_params(over, |p: &[D]| {
            self.compiled.flows[mode].eval(D::from(t), x, p, dx)
        });
        if dx.iter().any(|v| !v.re().is_finite()) {
            self.record_non_finite(mode, t, x);
        }
    }

    /// The guard function with optional parameter override.
    fn guard_over<D: Scalar>(&self, over: Option<(usize, D)>, mode: usize, j: usize, x: &[D]) -> D {
        let g = self.guard_index(mode, j);
        let mut out = [D::from(0.0)];
        self.with_params(over, |p: &[D]| {
            self.compiled.conditions[g].eval(D::from(0.0), x, p, &mut out);
        });
        out[0]
    }

    /// The chart with optional parameter override (`x = u` without a chart section).
    fn chart_over<D: Scalar>(&self, over: Option<(usize, D)>, u: &[D], x: &mut [D]) {
        match &self.compiled.chart {
            None => x.copy_from_slice(u),
            Some(c) => self.with_params(over, |p: &[D]| c.program.eval(D::from(0.0), u, p, x)),
        }
    }

    /// The reset with optional parameter override.
    fn reset_over<D: Scalar>(
        &self,
        over: Option<(usize, D)>,
        mode: usize,
        j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        let g = self.guard_index(mode, j);
        match &self.compiled.resets[g] {
            None => out.copy_from_slice(x),
            Some(prog) => {
                self.with_params(over, |p: &[D]| prog.eval(D::from(0.0), x, p, out));
            }
        }
    }

    /// The guard (global index) `j` of mode `mode`.
    fn guard_index(&self, mode: usize, j: usize) -> usize {
        self.compiled.guards_by_mode[mode][j]
    }

    /// The mode in which a stride starts: the target of the section's `after` guard (`None`
    /// without a section).
    pub fn section_start_mode(&self) -> Option<usize> {
        self.compiled.section_start
    }

    /// Values of the named outputs at `(t, x)`, with their names.
    pub fn outputs(&self, t: f64, x: &[f64]) -> Vec<(String, f64)> {
        let names = &self.spec.outputs;
        let mut out = vec![0.0; names.len()];
        if let Some(p) = &self.compiled.outputs {
            p.eval(t, x, &self.params, &mut out);
        }
        names.iter().map(|(n, _)| n.clone()).zip(out).collect()
    }

    /// Where a non-finite value of mode `mode`'s vector field at `(t, x)` comes from: the state
    /// whose derivative it is and the sub-expression that first became non-finite.
    pub fn explain_non_finite(&self, mode: usize, t: f64, x: &[f64]) -> Option<String> {
        let d = self
            .compiled
            .flows
            .get(mode)?
            .diagnose(t, x, &self.params)?;
        let state = self.spec.states.get(d.output)?;
        let place = match &d.site {
            saltation_equations::Site::Definition(name) => format!(" (in definition `{name}`)"),
            saltation_equations::Site::Output(_) => String::new(),
        };
        Some(format!(
            "d{state}/dt = `{}` in mode `{}` is {} at t = {}: `{}`{place} evaluates to {}",
            self.spec.modes[mode].flow[d.output],
            self.spec.modes[mode].name,
            d.value,
            saltation_ode::Num(t),
            d.expression,
            d.expression_value
        ))
    }

    /// Keeps the first non-finite evaluation of a vector field (the integrator only learns
    /// that a step failed; this says where).
    #[cold]
    fn record_non_finite<D: Scalar>(&self, mode: usize, t: f64, x: &[D]) {
        if let Ok(mut slot) = self.compiled.non_finite.lock() {
            if slot.is_none() {
                *slot = Some((mode, t, x.iter().map(|v| v.re()).collect()));
            }
        }
    }

    /// The first non-finite vector-field value met since the model was built, explained
    /// ([`EquationModel::explain_non_finite`]); `None` if there was none.
    pub fn non_finite_report(&self) -> Option<String> {
        let (mode, t, x) = self.compiled.non_finite.lock().ok()?.clone()?;
        self.explain_non_finite(mode, t, &x)
    }
}

/// Checks `value` against the parameter's declaration.
fn check_value(p: &ParameterSpec, value: f64) -> Result<(), ParamError> {
    if !value.is_finite() {
        return Err(ParamError::NonFinite {
            name: p.name.clone(),
            value,
        });
    }
    let below = p.min.is_some_and(|m| value < m);
    let above = p.max.is_some_and(|m| value > m);
    if below || above {
        return Err(ParamError::OutOfBounds {
            name: p.name.clone(),
            value,
            min: p.min,
            max: p.max,
        });
    }
    Ok(())
}

impl EvalModel for EquationModel {
    fn name(&self) -> &str {
        &self.spec.name
    }
    fn dim(&self) -> usize {
        self.spec.states.len()
    }
    fn modes(&self) -> usize {
        self.spec.modes.len()
    }
    fn mode_name(&self, mode: usize) -> String {
        self.spec
            .modes
            .get(mode)
            .map_or_else(|| format!("mode {mode}"), |m| m.name.clone())
    }
    fn flow<D: Scalar>(&self, mode: usize, t: f64, x: &[D], dx: &mut [D]) {
        self.flow_over(None, mode, t, x, dx);
    }
    /// Recognised from the compiled vector field (affine in the states, constant coefficients).
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool {
        self.compiled.affine.get(mode).copied().unwrap_or(false)
    }
    /// When no equation of the model reads `t`.
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        self.compiled.autonomous
    }
    fn flow_time_derivative(&self, _mode: usize, _t: f64, _x: &[f64], dfdt: &mut [f64]) -> bool {
        if self.compiled.autonomous {
            dfdt.fill(0.0);
            true
        } else {
            false
        }
    }
    fn guards(&self, mode: usize) -> usize {
        self.compiled.guards_by_mode.get(mode).map_or(0, Vec::len)
    }
    fn guard<D: Scalar>(&self, mode: usize, j: usize, x: &[D]) -> D {
        self.guard_over(None, mode, j, x)
    }
    /// Direction, target and failure from the file; the enabling condition is a compiled
    /// expression, evaluated by [`EvalModel::guard_enabled`] (overridden: a condition that is
    /// data, not a function of the model type).
    fn describe_guard(&self, mode: usize, j: usize) -> Guard<Self> {
        let g = self.guard_index(mode, j);
        let spec = &self.spec.guards[g];
        Guard {
            failure: spec.failure.clone().map(Into::into),
            ..Guard::to(self.compiled.targets[g]).crossing(spec.direction)
        }
    }
    /// Overridden rather than derived: the derived one would clone the failure text (a
    /// `String` from the file) at every guard check of the event location.
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo {
        let g = self.guard_index(mode, j);
        GuardInfo {
            direction: self.spec.guards[g].direction,
            target: self.compiled.targets[g],
        }
    }
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool {
        let g = self.guard_index(mode, j);
        match &self.compiled.enabled[g] {
            None => true,
            Some(p) => {
                let mut out = [0.0];
                p.eval(0.0, x, &self.params, &mut out);
                out[0] != 0.0
            }
        }
    }
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        let g = self.guard_index(mode, j);
        self.spec.guards[g].failure.clone()
    }
    fn reset<D: Scalar>(&self, mode: usize, j: usize, x: &[D], out: &mut [D]) {
        self.reset_over(None, mode, j, x, out)
    }
    fn reduced_dim(&self) -> usize {
        self.compiled
            .chart
            .as_ref()
            .map_or(self.dim(), |c| c.free.len())
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        self.chart_over(None, u, x)
    }
    // Dχ and Dπ by automatic differentiation through the chart's program (the defaults).
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        match &self.compiled.chart {
            None => u.copy_from_slice(x),
            Some(c) => {
                for (ui, &k) in u.iter_mut().zip(&c.free) {
                    *ui = x[k];
                }
            }
        }
    }
    fn state_names(&self) -> Vec<String> {
        self.spec.states.clone()
    }
    fn check_params(&self) -> Result<(), ParamError> {
        for (p, &v) in self.spec.parameters.iter().zip(&self.params) {
            check_value(p, v)?;
        }
        Ok(())
    }
    fn param_names(&self) -> Vec<String> {
        self.spec
            .parameters
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        self.params.get(k).copied()
    }
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        let Some(spec) = self.spec.parameters.get(k) else {
            return Err(ParamError::Unknown {
                name: format!("#{k}"),
                known: self.param_names(),
            });
        };
        check_value(spec, value)?;
        self.params[k] = value;
        Ok(())
    }
    /// Every parameter: the compiled programs take parameters as scalars, so a dual number
    /// in place of `p_k` carries `∂/∂p_k` through flows, guards, resets and the chart.
    fn param_derivatives(&self, k: usize) -> bool {
        k < self.params.len()
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
        self.flow_over(Some((k, p)), mode, t, x, dx);
    }
    fn guard_with_param<D: Scalar>(&self, k: usize, p: D, mode: usize, j: usize, x: &[D]) -> D {
        self.guard_over(Some((k, p)), mode, j, x)
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
        self.reset_over(Some((k, p)), mode, j, x, out)
    }
    fn chart_with_param<D: Scalar>(&self, k: usize, p: D, u: &[D], x: &mut [D]) {
        self.chart_over(Some((k, p)), u, x)
    }
}

impl Serialize for EquationModel {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.spec().serialize(s)
    }
}

impl<'de> Deserialize<'de> for EquationModel {
    /// Parses the text and compiles it. A compile error becomes a serde error whose message
    /// carries the expression's place ([`LoadError::to_serde_message`]), so that the model-file
    /// loader can point at the line and column inside the file.
    fn deserialize<De: serde::Deserializer<'de>>(d: De) -> Result<Self, De::Error> {
        let spec = EquationSpec::deserialize(d)?;
        EquationModel::new(spec).map_err(|e| serde::de::Error::custom(e.to_serde_message()))
    }
}
