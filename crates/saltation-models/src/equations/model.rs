//! An equation model compiled: one flat program per mode, guard, enabling condition, reset and
//! chart, evaluated for any scalar (so Jacobians and parameter derivatives come from
//! forward-mode automatic differentiation through the evaluator: exact, not finite
//! differences).

use super::load::{compile_spec, Compiled, LoadError};
use super::spec::{EquationSpec, ParameterSpec};
use saltation_hybrid::{GuardInfo, HybridModel, ParamError, Scalar};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A hybrid model written as equations ([`EquationSpec`]), compiled once.
///
/// Built from its text with [`EquationModel::new`] (or from a model file: `model:
/// Equations(…)`); every mistake is a [`LoadError`] naming the place. Parameters are set by
/// name ([`EquationModel::with_param`]), within their declared bounds.
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

    /// Parameter names, in order.
    pub fn param_names(&self) -> Vec<String> {
        self.spec
            .parameters
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// Current parameter values, in the order of [`EquationModel::param_names`].
    pub fn params(&self) -> &[f64] {
        &self.params
    }

    fn index_of(&self, name: &str) -> Result<usize, ParamError> {
        self.spec
            .parameters
            .iter()
            .position(|p| p.name == name)
            .ok_or_else(|| ParamError::Unknown {
                name: name.into(),
                known: self.param_names(),
            })
    }

    /// Value of parameter `name`.
    pub fn param(&self, name: &str) -> Result<f64, ParamError> {
        Ok(self.params[self.index_of(name)?])
    }

    /// A copy with parameter `name` set to `value` (finite and within its declared bounds).
    pub fn with_param(&self, name: &str, value: f64) -> Result<Self, ParamError> {
        let i = self.index_of(name)?;
        check_value(&self.spec.parameters[i], value)?;
        let mut m = self.clone();
        m.params[i] = value;
        Ok(m)
    }

    /// Index of parameter `name` (for [`EquationModel::flow_param_derivative`]).
    pub fn param_index(&self, name: &str) -> Result<usize, ParamError> {
        self.index_of(name)
    }

    /// `∂f/∂p_k` of mode `mode` at `(t, x)`, exact (one dual-number pass seeded on `p_k`).
    pub fn flow_param_derivative(&self, mode: usize, t: f64, x: &[f64], k: usize, out: &mut [f64]) {
        use num_dual::Dual64;
        let xd: Vec<Dual64> = x.iter().map(|&v| Dual64::from(v)).collect();
        let pd: Vec<Dual64> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                if i == k {
                    Dual64::from(v).derivative()
                } else {
                    Dual64::from(v)
                }
            })
            .collect();
        let mut o = vec![Dual64::from(0.0); out.len()];
        self.compiled.flows[mode].eval(Dual64::from(t), &xd, &pd, &mut o);
        for (d, v) in out.iter_mut().zip(&o) {
            *d = v.eps;
        }
    }

    /// Runs `f` with the parameters as scalars of type `D` (on the stack for up to
    /// [`STACK_PARAMS`] parameters).
    #[inline]
    fn with_params<D: Scalar, R>(&self, f: impl FnOnce(&[D]) -> R) -> R {
        let n = self.params.len();
        if n <= STACK_PARAMS {
            let mut p = [D::from(0.0); STACK_PARAMS];
            for (d, &v) in p.iter_mut().zip(&self.params) {
                *d = D::from(v);
            }
            f(&p[..n])
        } else {
            let p: Vec<D> = self.params.iter().map(|&v| D::from(v)).collect();
            f(&p)
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

impl HybridModel for EquationModel {
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
        self.with_params(|p: &[D]| self.compiled.flows[mode].eval(D::from(t), x, p, dx));
        if dx.iter().any(|v| !v.re().is_finite()) {
            self.record_non_finite(mode, t, x);
        }
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
        let g = self.guard_index(mode, j);
        let mut out = [D::from(0.0)];
        self.with_params(|p: &[D]| {
            self.compiled.conditions[g].eval(D::from(0.0), x, p, &mut out);
        });
        out[0]
    }
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
        let g = self.guard_index(mode, j);
        match &self.compiled.resets[g] {
            None => out.copy_from_slice(x),
            Some(prog) => {
                self.with_params(|p: &[D]| prog.eval(D::from(0.0), x, p, out));
            }
        }
    }
    fn reduced_dim(&self) -> usize {
        self.compiled
            .chart
            .as_ref()
            .map_or(self.dim(), |c| c.free.len())
    }
    fn chart(&self, u: &[f64], x: &mut [f64]) {
        match &self.compiled.chart {
            None => x.copy_from_slice(u),
            Some(c) => c.program.eval(0.0, u, &self.params, x),
        }
    }
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        let Some(c) = &self.compiled.chart else {
            saltation_hybrid::identity(jac, self.dim());
            return;
        };
        // One dual pass per reduced coordinate: column j of Dχ.
        use num_dual::Dual64;
        let (n, r) = (self.dim(), c.free.len());
        let p: Vec<Dual64> = self.params.iter().map(|&v| Dual64::from(v)).collect();
        let mut ud: Vec<Dual64> = u.iter().map(|&v| Dual64::from(v)).collect();
        let mut col = vec![Dual64::from(0.0); n];
        for j in 0..r {
            ud[j] = Dual64::from(u[j]).derivative();
            c.program.eval(Dual64::from(0.0), &ud, &p, &mut col);
            for i in 0..n {
                jac[i * r + j] = col[i].eps;
            }
            ud[j] = Dual64::from(u[j]);
        }
    }
    fn project(&self, x: &[f64], u: &mut [f64]) {
        match &self.compiled.chart {
            None => u.copy_from_slice(x),
            Some(c) => {
                for (ui, &k) in u.iter_mut().zip(&c.free) {
                    *ui = x[k];
                }
            }
        }
    }
    fn project_jacobian(&self, _x: &[f64], jac: &mut [f64]) {
        let n = self.dim();
        match &self.compiled.chart {
            None => saltation_hybrid::identity(jac, n),
            Some(c) => {
                jac.fill(0.0);
                for (i, &k) in c.free.iter().enumerate() {
                    jac[i * n + k] = 1.0;
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
