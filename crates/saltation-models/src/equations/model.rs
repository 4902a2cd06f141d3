//! An equation model compiled: one flat program per mode, guard, enabling condition, reset and
//! chart, evaluated for any scalar (so Jacobians and parameter derivatives come from
//! forward-mode automatic differentiation through the evaluator: exact, not finite
//! differences).
//!
//! The model is the equations only ([`HybridModel`]); its parameters are declared from the
//! file (name, value as the default, `min`/`max` as the valid range) and their values live
//! beside it in a [`saltation_hybrid::Bound`], which passes them to every program as `p`. A
//! dual number seeded in `p[k]` carries `∂/∂p_k` through flows, guards, resets and the chart.

use super::load::{compile_spec, Compiled, LoadError, NonFiniteAt};
use super::spec::EquationSpec;
use saltation_hybrid::{AffineModes, Forcing, GuardInfo, GuardSpec, HybridModel, Param, Scalar};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A hybrid model written as equations ([`EquationSpec`]), compiled once.
///
/// Built from its text with [`EquationModel::new`] (or from a model file: `model:
/// Equations(…)`, read as a [`saltation_hybrid::Bound`] whose values are the file's); every
/// mistake is a [`LoadError`] naming the place. Its guards are numbered in the order of the
/// file's `guards` list (`type Guard = usize`); its parameters are set by name
/// ([`saltation_hybrid::Bound::set`], [`saltation_hybrid::with_param`]), within their declared
/// bounds.
#[derive(Debug, Clone)]
pub struct EquationModel {
    // Behind an `Arc` like the programs: the text is read-only once compiled, and a `Model`
    // stays small whatever the file holds.
    spec: Arc<EquationSpec>,
    compiled: Arc<Compiled>,
}

impl PartialEq for EquationModel {
    /// The same text (the compiled programs follow from it).
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
}

impl EquationModel {
    /// Compiles `spec`.
    pub fn new(spec: EquationSpec) -> Result<Self, LoadError> {
        let compiled = compile_spec(&spec)?;
        Ok(Self {
            spec: Arc::new(spec),
            compiled: Arc::new(compiled),
        })
    }

    /// The model's text as loaded (each parameter's `value` is its default).
    pub fn spec(&self) -> &EquationSpec {
        &self.spec
    }

    /// The model's text with the parameter values `p` (in the order of the declarations), as
    /// a model file writes it.
    pub fn spec_with(&self, p: &[f64]) -> EquationSpec {
        let mut spec = EquationSpec::clone(&self.spec);
        for (decl, &v) in spec.parameters.iter_mut().zip(p) {
            decl.value = v;
        }
        spec
    }

    /// The number of declared states `n` (a time-forced model has one more, its phase `t`).
    fn declared(&self) -> usize {
        self.spec.states.len()
    }

    /// The index of the stroboscopic section's strobe among the guards, if there is one.
    fn strobe(&self) -> Option<usize> {
        self.compiled
            .strobe
            .as_ref()
            .map(|_| self.spec.guards.len())
    }

    /// `t` for the programs at the state `x`: the forcing phase `x[n]` of a time-forced model,
    /// else `t`; and the declared states.
    fn time_and_states<'x, D: Scalar>(&self, t: D, x: &'x [D]) -> (D, &'x [D]) {
        let n = self.declared();
        match (&self.compiled.forcing, x.get(n)) {
            (Some(_), Some(&phase)) => (phase, &x[..n]),
            _ => (t, x),
        }
    }

    /// Whether the model declares `forcing` (its state then ends with the phase `t`).
    pub fn is_forced(&self) -> bool {
        self.compiled.forcing.is_some()
    }

    /// The mode in which a stride starts: the target of the section's `after` guard (`None`
    /// without a section, or with a stroboscopic one, which starts in any mode).
    pub fn section_start_mode(&self) -> Option<usize> {
        self.compiled.section_start
    }

    /// Values of the named outputs at `(t, x)` with the parameter values `p`, with their names.
    pub fn outputs(&self, p: &[f64], t: f64, x: &[f64]) -> Vec<(String, f64)> {
        let names = &self.spec.outputs;
        let mut out = vec![0.0; names.len()];
        if let Some(prog) = &self.compiled.outputs {
            let (t, x) = self.time_and_states(t, x);
            prog.eval(t, x, p, &mut out);
        }
        names.iter().map(|(n, _)| n.clone()).zip(out).collect()
    }

    /// Where a non-finite value of mode `mode`'s vector field at `(t, x)` with the parameter
    /// values `p` comes from: the state whose derivative it is and the sub-expression that
    /// first became non-finite.
    pub fn explain_non_finite(&self, p: &[f64], mode: usize, t: f64, x: &[f64]) -> Option<String> {
        let (t, x) = self.time_and_states(t, x);
        let d = self.compiled.flows.get(mode)?.diagnose(t, x, p)?;
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

    /// Keeps the first non-finite evaluation of a vector field, with the parameter values it
    /// had (the integrator only learns that a step failed; this says where).
    #[cold]
    fn record_non_finite<D: Scalar>(&self, p: &[D], mode: usize, t: f64, x: &[D]) {
        if let Ok(mut slot) = self.compiled.non_finite.lock() {
            if slot.is_none() {
                let re = |v: &[D]| v.iter().map(|v| v.re()).collect();
                *slot = Some(NonFiniteAt {
                    mode,
                    t,
                    x: re(x),
                    p: re(p),
                });
            }
        }
    }

    /// The first non-finite vector-field value met since the model was built, explained
    /// ([`EquationModel::explain_non_finite`]); `None` if there was none.
    pub fn non_finite_report(&self) -> Option<String> {
        let at = self.compiled.non_finite.lock().ok()?.clone()?;
        self.explain_non_finite(&at.p, at.mode, at.t, &at.x)
    }
}

impl HybridModel for EquationModel {
    /// The index of the guard in the file's `guards` list.
    type Guard = usize;

    fn name(&self) -> &str {
        &self.spec.name
    }
    /// The declared states, and the forcing phase `t` after them in a time-forced model.
    fn dim(&self) -> usize {
        self.declared() + usize::from(self.is_forced())
    }
    /// The file's parameters: its `value` the default, `min`/`max` the closed range (an
    /// error names the parameter and its bounds, [`saltation_hybrid::ParamError::OutOfBounds`]).
    fn params(&self) -> &[Param] {
        &self.compiled.params
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
    fn state_names(&self) -> Vec<String> {
        let mut names = self.spec.states.clone();
        if self.is_forced() {
            names.push("t".to_string());
        }
        names
    }
    /// When no equation of the model reads `t`, or the model is time-forced (`t` is then its
    /// phase, a state).
    fn autonomous(&self, _mode: usize) -> bool {
        self.compiled.autonomous
    }
    /// The phase after the declared states and the file's `forcing.period`.
    fn forcing<D: Scalar>(&self, p: &[D]) -> Option<Forcing<D>> {
        let prog = self.compiled.forcing.as_ref()?;
        let mut out = [D::from(0.0)];
        prog.eval(D::from(0.0), &[], p, &mut out);
        Some(Forcing {
            phase: self.declared(),
            period: out[0],
        })
    }
    /// With a stroboscopic section only its strobe counts.
    fn stride_event(&self, _mode: usize, g: usize) -> bool {
        self.strobe().is_none_or(|s| s == g)
    }
    /// The forcing period must stay finite and positive.
    fn check_params(&self, p: &[f64]) -> Result<(), saltation_hybrid::ParamError> {
        let (Some(f), Some(spec)) = (self.forcing(p), &self.spec.forcing) else {
            return Ok(());
        };
        if f.period > 0.0 && f.period.is_finite() {
            return Ok(());
        }
        // Name the first parameter the period reads, with its value.
        let (name, value) = self
            .spec
            .parameters
            .iter()
            .zip(p)
            .find(|(d, _)| spec.period.contains(d.name.as_str()))
            .map_or((String::from("?"), f64::NAN), |(d, &v)| (d.name.clone(), v));
        Err(saltation_hybrid::ParamError::Rejected {
            name,
            value,
            reason: format!(
                "the forcing period `{}` is then {} (must be finite and > 0)",
                spec.period, f.period
            ),
        })
    }
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, t: f64, x: &[D], dx: &mut [D]) {
        let n = self.declared();
        let (tt, xs) = self.time_and_states(D::from(t), x);
        self.compiled.flows[mode].eval(tt, xs, p, &mut dx[..n]);
        if let Some(d) = dx.get_mut(n) {
            *d = D::from(1.0);
        }
        if dx.iter().any(|v| !v.re().is_finite()) {
            self.record_non_finite(p, mode, t, x);
        }
    }
    /// The guards whose `from` is `mode`, in the order of the file.
    fn guards(&self, mode: usize) -> &[usize] {
        self.compiled
            .guards_by_mode
            .get(mode)
            .map_or(&[][..], Vec::as_slice)
    }
    /// Direction, target and failure from the file. The enabling condition is a compiled
    /// expression, not a function: [`HybridModel::enabled`] evaluates it.
    fn describe(&self, mode: usize, g: usize) -> GuardSpec {
        if self.strobe() == Some(g) {
            return GuardSpec::to(mode).rising();
        }
        let spec = &self.spec.guards[g];
        GuardSpec {
            failure: spec.failure.clone().map(Into::into),
            on_accumulation: self.compiled.on_accumulation[g],
            ..GuardSpec::to(self.compiled.targets[g]).crossing(spec.direction)
        }
    }
    /// The name the file gives the guard (`strobe` for a stroboscopic section's).
    fn guard_name(&self, _mode: usize, g: usize) -> String {
        if self.strobe() == Some(g) {
            return "strobe".to_string();
        }
        self.spec
            .guards
            .get(g)
            .map_or_else(|| format!("guard {g}"), |s| s.name.clone())
    }
    /// Without the failure text, so that the event location's question allocates nothing.
    fn guard_info(&self, mode: usize, g: usize) -> GuardInfo {
        if self.strobe() == Some(g) {
            return GuardInfo {
                direction: saltation_ode::Direction::Rising,
                target: mode,
            };
        }
        GuardInfo {
            direction: self.spec.guards[g].direction,
            target: self.compiled.targets[g],
        }
    }
    /// The file's `when`; the strobe of a stroboscopic section is `t − t₀ − T`.
    fn guard<D: Scalar>(&self, p: &[D], _mode: usize, g: usize, x: &[D]) -> D {
        let mut out = [D::from(0.0)];
        if let (Some(phase), Some(f)) = (&self.compiled.strobe, self.forcing(p)) {
            if g == self.spec.guards.len() {
                phase.eval(D::from(0.0), &[], p, &mut out);
                return x[f.phase] - out[0] - f.period;
            }
        }
        let (t, xs) = self.time_and_states(D::from(0.0), x);
        self.compiled.conditions[g].eval(t, xs, p, &mut out);
        out[0]
    }
    /// The file's `reset` (identity without one); a forced model's phase is kept, and the
    /// strobe of a stroboscopic section takes one period off it.
    fn reset<D: Scalar>(&self, p: &[D], _mode: usize, g: usize, x: &[D], out: &mut [D]) {
        let n = self.declared();
        let resets = &self.compiled.resets;
        match resets.get(g).and_then(Option::as_ref) {
            None => out.copy_from_slice(x),
            Some(prog) => {
                let (t, xs) = self.time_and_states(D::from(0.0), x);
                prog.eval(t, xs, p, &mut out[..n]);
                if let Some(o) = out.get_mut(n) {
                    *o = x[n];
                }
            }
        }
        if g == resets.len() {
            if let Some(f) = self.forcing(p) {
                out[f.phase] = x[f.phase] - f.period;
            }
        }
    }
    /// The file's `enabled` expression at the crossing, true where non-zero and not NaN
    /// (always enabled without one).
    fn enabled(&self, p: &[f64], _mode: usize, g: usize, x: &[f64]) -> bool {
        match self.compiled.enabled.get(g).and_then(Option::as_ref) {
            None => true,
            Some(prog) => {
                let mut out = [0.0];
                let (t, xs) = self.time_and_states(0.0, x);
                prog.eval(t, xs, p, &mut out);
                // NaN is not "non-zero": an undefined condition does not enable the guard.
                out[0] != 0.0 && !out[0].is_nan()
            }
        }
    }
    /// The file's `admissible` entries whose `mode` is `mode`, in the order of the file.
    fn conditions(&self, mode: usize) -> usize {
        self.compiled
            .admissible_by_mode
            .get(mode)
            .map_or(0, Vec::len)
    }
    fn condition_name(&self, mode: usize, i: usize) -> String {
        self.compiled
            .admissible_by_mode
            .get(mode)
            .and_then(|c| c.get(i))
            .map_or_else(
                || format!("condition {i}"),
                |&c| self.spec.admissible[c].name.clone(),
            )
    }
    fn condition<D: Scalar>(&self, p: &[D], mode: usize, i: usize, x: &[D]) -> D {
        let c = self.compiled.admissible_by_mode[mode][i];
        let mut out = [D::from(0.0)];
        self.compiled.admissible[c].eval(D::from(0.0), x, p, &mut out);
        out[0]
    }
    fn reduced_dim(&self) -> usize {
        self.compiled
            .chart
            .as_ref()
            .map_or(self.dim(), |c| c.free.len())
    }
    /// The section's chart program (`x = u` without a section); `Dχ` and `Dπ` by automatic
    /// differentiation through it.
    ///
    /// In a time-forced model `t` there is the phase: the free coordinate `t` of an event
    /// section, or the stroboscopic section's phase.
    fn chart<D: Scalar>(&self, p: &[D], u: &[D], x: &mut [D]) {
        let n = self.declared();
        match &self.compiled.chart {
            None => x.copy_from_slice(u),
            Some(c) if !self.is_forced() => c.program.eval(D::from(0.0), u, p, x),
            Some(c) => {
                let t = match &self.compiled.strobe {
                    Some(phase) => {
                        let mut out = [D::from(0.0)];
                        phase.eval(D::from(0.0), &[], p, &mut out);
                        out[0]
                    }
                    None => c
                        .free
                        .iter()
                        .position(|&i| i == n)
                        .map_or(D::from(0.0), |k| u[k]),
                };
                let declared = c.free.iter().filter(|&&i| i < n).count();
                saltation_hybrid::with_buffer(D::from(0.0), declared, |us| {
                    let values = c.free.iter().zip(u).filter(|(&i, _)| i < n);
                    for (slot, (_, &v)) in us.iter_mut().zip(values) {
                        *slot = v;
                    }
                    c.program.eval(t, us, p, x);
                });
            }
        }
    }
    /// The section's free states.
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        match &self.compiled.chart {
            None => u.copy_from_slice(x),
            Some(c) => {
                for (ui, &k) in u.iter_mut().zip(&c.free) {
                    *ui = x[k];
                }
            }
        }
    }
    fn affine_modes(&self) -> Option<&dyn AffineModes> {
        Some(self)
    }
}

impl AffineModes for EquationModel {
    /// Recognised from the compiled vector field (affine in the states, coefficients that do
    /// not depend on them).
    fn jacobian_is_constant(&self, mode: usize) -> bool {
        self.compiled.affine.get(mode).copied().unwrap_or(false)
    }
}

impl Serialize for EquationModel {
    /// The text as loaded.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.spec.serialize(s)
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

/// An equation model with its parameter values as a model file writes it: the text, each
/// parameter's `value` the current one (`model: Equations(name: …, parameters: [(name:
/// "gamma", value: 0.009)], …)`). For `#[serde(with = "saltation_models::equations::in_file")]`
/// on a `Bound<EquationModel>`.
pub mod in_file {
    use super::EquationModel;
    use saltation_hybrid::Bound;
    use serde::{Deserialize, Serialize};

    /// The text with the current values.
    pub fn serialize<S: serde::Serializer>(
        m: &Bound<EquationModel>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        m.model().spec_with(m.values()).serialize(s)
    }

    /// The compiled text at the file's values ([`EquationModel`]'s `Deserialize`: located
    /// errors); the loader checks them against their bounds.
    pub fn deserialize<'de, De: serde::Deserializer<'de>>(
        d: De,
    ) -> Result<Bound<EquationModel>, De::Error> {
        EquationModel::deserialize(d).map(Bound::new)
    }
}
