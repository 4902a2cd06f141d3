//! A model with its parameter values: the equations ([`HybridModel`]) and one vector `p` beside
//! them, evaluated as an [`EvalModel`] by every layer above (stride maps, Newton,
//! continuation). Setting a parameter writes `p[k]` after checking it against the model's
//! declarations; derivatives in `p[k]` seed a dual number there.

use crate::ad;
use crate::hybrid_model::HybridModel;
use crate::model::{EvalModel, GuardInfo};
use crate::param;
use crate::ParamError;

/// A [`HybridModel`] with its parameter values.
#[derive(Debug, Clone, PartialEq)]
pub struct Bound<M> {
    model: M,
    p: Vec<f64>,
}

impl<M: HybridModel> Bound<M> {
    /// `model` at its declared default parameter values.
    pub fn new(model: M) -> Self {
        let p = param::defaults(model.params());
        Self { model, p }
    }

    /// `model` at the values `p` (in the order of its declarations), checked.
    pub fn with_values(model: M, p: Vec<f64>) -> Result<Self, ParamError> {
        param::check_values(model.params(), &p)?;
        model.check_params(&p)?;
        Ok(Self { model, p })
    }

    /// `model` at the values `p` as a file gives them, not checked against the declarations:
    /// as with `Bound`'s own deserializer, the ranges are checked where the file is validated
    /// ([`EvalModel::check_params`]), so that the error can name the file's place. For the
    /// deserializer of a model whose equations have settings of their own beside the
    /// parameters (the monopod's phase-switch strategy).
    ///
    /// # Panics
    /// If `p` does not have one value per declared parameter.
    pub fn with_values_unchecked(model: M, p: Vec<f64>) -> Self {
        assert_eq!(p.len(), model.params().len(), "one value per parameter");
        Self { model, p }
    }

    /// `model` at its defaults with the named values replaced, checked.
    pub fn with_named<'a>(
        model: M,
        values: impl IntoIterator<Item = (&'a str, f64)>,
    ) -> Result<Self, ParamError> {
        let mut p = param::defaults(model.params());
        for (name, v) in values {
            p[param::index_of(model.params(), name)?] = v;
        }
        Self::with_values(model, p)
    }

    /// The equations.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The parameter values, in the order of the declarations.
    pub fn values(&self) -> &[f64] {
        &self.p
    }

    /// Value of the parameter called `name`.
    pub fn get(&self, name: &str) -> Result<f64, ParamError> {
        Ok(self.p[param::index_of(self.model.params(), name)?])
    }

    /// Sets the parameter called `name` (checked; unchanged on error).
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), ParamError> {
        let k = param::index_of(self.model.params(), name)?;
        self.set_at(k, value)
    }

    /// Sets parameter `k` (checked against its declaration and the model's own conditions;
    /// unchanged on error).
    pub fn set_at(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        let Some(decl) = self.model.params().get(k) else {
            return Err(ParamError::Unknown {
                name: format!("#{k}"),
                known: self
                    .model
                    .params()
                    .iter()
                    .map(|p| p.name.to_string())
                    .collect(),
            });
        };
        decl.check(value)?;
        let old = std::mem::replace(&mut self.p[k], value);
        if let Err(e) = self.model.check_params(&self.p) {
            self.p[k] = old;
            return Err(e);
        }
        Ok(())
    }

    /// The guard id of index `j` in `mode`.
    fn id(&self, mode: usize, j: usize) -> M::Guard {
        self.model.guards(mode)[j]
    }
}

impl<M: HybridModel> EvalModel for Bound<M> {
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
        self.model.flow(&self.p, mode, t, x, dx)
    }
    fn flow_jacobian(&self, mode: usize, t: f64, x: &[f64], jac: &mut [f64]) {
        crate::with_buffer(0.0, x.len(), |dx| {
            self.flow_and_jacobian(mode, t, x, dx, jac)
        });
    }
    fn flow_and_jacobian(&self, mode: usize, t: f64, x: &[f64], dx: &mut [f64], jac: &mut [f64]) {
        match self.model.hand_flow_jacobian() {
            Some(h) => h.flow_and_jacobian(&self.p, mode, t, x, dx, jac),
            None => ad::flow_and_jacobian(&self.model, &self.p, mode, t, x, dx, jac),
        }
    }
    /// Zero in an autonomous mode, the hand-written one if given, else not known (a finite
    /// difference in `t`).
    fn flow_time_derivative(&self, mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]) -> bool {
        if self.model.autonomous(mode) {
            dfdt.fill(0.0);
            return true;
        }
        match self.model.hand_time_derivative() {
            Some(h) => {
                h.flow_time_derivative(&self.p, mode, t, x, dfdt);
                true
            }
            None => false,
        }
    }
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool {
        self.model
            .affine_modes()
            .is_some_and(|a| a.jacobian_is_constant(mode))
    }
    fn flow_is_autonomous(&self, mode: usize) -> bool {
        self.model.autonomous(mode)
    }
    fn forcing(&self) -> Option<crate::Forcing<f64>> {
        self.model.forcing(&self.p)
    }
    /// `T` and `∂T/∂p_k` from one evaluation with a dual number seeded in `p[k]`.
    fn forcing_in_param(&self, k: usize, pk: f64) -> Option<(crate::Forcing<f64>, f64)> {
        use num_dual::Dual64;
        let mut p: Vec<Dual64> = self.p.iter().map(|&v| Dual64::from(v)).collect();
        *p.get_mut(k)? = Dual64::new(pk, 1.0);
        let f = self.model.forcing(&p)?;
        Some((
            crate::Forcing {
                phase: f.phase,
                period: f.period.re,
            },
            f.period.eps,
        ))
    }
    fn stride_event(&self, mode: usize, j: usize) -> bool {
        self.model.stride_event(mode, self.id(mode, j))
    }
    fn mass_matrix(&self, mode: usize) -> Option<Vec<f64>> {
        self.model
            .mass_matrix()
            .and_then(|m| m.mass_matrix(&self.p, mode))
    }
    fn guards(&self, mode: usize) -> usize {
        self.model.guards(mode).len()
    }
    fn guard_name(&self, mode: usize, j: usize) -> String {
        self.model.guard_name(mode, self.id(mode, j))
    }
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo {
        self.model.guard_info(mode, self.id(mode, j))
    }
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool {
        self.model.enabled(&self.p, mode, self.id(mode, j), x)
    }
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        self.model
            .describe(mode, self.id(mode, j))
            .failure
            .map(|f| f.into_owned())
    }
    fn guard_on_accumulation(&self, mode: usize, j: usize) -> Option<usize> {
        self.model
            .describe(mode, self.id(mode, j))
            .on_accumulation
            .filter(|&k| k < self.model.guards(mode).len() && k != j)
    }
    fn guard(&self, mode: usize, j: usize, x: &[f64]) -> f64 {
        self.model.guard(&self.p, mode, self.id(mode, j), x)
    }
    fn guard_gradient(&self, mode: usize, j: usize, x: &[f64], grad: &mut [f64]) {
        let g = self.id(mode, j);
        match self.model.hand_guard_gradient() {
            Some(h) => h.guard_gradient(&self.p, mode, g, x, grad),
            None => {
                ad::guard_gradient(&self.model, &self.p, mode, g, x, grad);
            }
        }
    }
    fn reset(&self, mode: usize, j: usize, x: &[f64], out: &mut [f64]) {
        self.model.reset(&self.p, mode, self.id(mode, j), x, out)
    }
    fn reset_jacobian(&self, mode: usize, j: usize, x: &[f64], jac: &mut [f64]) {
        let g = self.id(mode, j);
        match self.model.hand_reset_jacobian() {
            Some(h) => h.reset_jacobian(&self.p, mode, g, x, jac),
            None => crate::with_buffer(0.0, x.len(), |out| {
                ad::reset_jacobian(&self.model, &self.p, mode, g, x, out, jac)
            }),
        }
    }
    fn reduced_dim(&self) -> usize {
        self.model.reduced_dim()
    }
    fn chart(&self, u: &[f64], x: &mut [f64]) {
        self.model.chart(&self.p, u, x)
    }
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        match self.model.hand_section_jacobians() {
            Some(h) => h.chart_jacobian(&self.p, u, jac),
            None => ad::chart_jacobian(&self.model, &self.p, u, jac),
        }
    }
    fn project(&self, x: &[f64], u: &mut [f64]) {
        self.model.project(&self.p, x, u)
    }
    fn project_jacobian(&self, x: &[f64], jac: &mut [f64]) {
        match self.model.hand_section_jacobians() {
            Some(h) => h.project_jacobian(&self.p, x, jac),
            None => ad::project_jacobian(&self.model, &self.p, x, jac),
        }
    }
    fn multipliers_on_section(&self) -> bool {
        self.model.multipliers_on_section()
    }
    fn admissibility(
        &self,
        x0: &[f64],
        opts: &crate::StrideOptions,
    ) -> Option<Result<crate::Admissibility, crate::HybridError>> {
        crate::has_conditions(self)
            .then(|| crate::check_stride(self, x0, opts, crate::CONDITION_TOL))
    }
    fn conditions(&self, mode: usize) -> usize {
        self.model.conditions(mode)
    }
    fn condition_name(&self, mode: usize, i: usize) -> String {
        self.model.condition_name(mode, i)
    }
    fn condition(&self, mode: usize, i: usize, x: &[f64]) -> f64 {
        self.model.condition(&self.p, mode, i, x)
    }
    fn condition_kind(&self, mode: usize, i: usize) -> (String, crate::ViolationKind) {
        self.model.condition_kind(mode, i)
    }
    fn state_residual(&self, mode: usize, x: &[f64]) -> Option<(String, f64)> {
        self.model.state_residual(&self.p, mode, x)
    }
    fn param_names(&self) -> Vec<String> {
        self.model
            .params()
            .iter()
            .map(|p| p.name.to_string())
            .collect()
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        self.p.get(k).copied()
    }
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        self.set_at(k, value)
    }
    fn check_params(&self) -> Result<(), ParamError> {
        param::check_values(self.model.params(), &self.p)?;
        self.model.check_params(&self.p)
    }
    /// Every parameter: its value is a dual number in the formulas.
    fn param_derivatives(&self, k: usize) -> bool {
        k < self.p.len()
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
        // At the model's own value, its hand-written f_x and f_p where it has both (a
        // constrained system's implicit derivative); otherwise one pass of n + 1 directions.
        if self.p.get(k) == Some(&pk) {
            if let (Some(fj), Some(fp)) = (
                self.model.hand_flow_jacobian(),
                self.model.hand_flow_param_derivative(),
            ) {
                let n = x.len();
                let done = crate::with_buffer(0.0, n * n + n, |buf| {
                    let (fx, dfdp) = buf.split_at_mut(n * n);
                    if !fp.flow_param_derivative(&self.p, k, mode, t, x, dfdp) {
                        return false;
                    }
                    fj.flow_and_jacobian(&self.p, mode, t, x, dx, fx);
                    for (i, row) in jac.chunks_exact_mut(n + 1).enumerate() {
                        row[..n].copy_from_slice(&fx[i * n..(i + 1) * n]);
                        row[n] = dfdp[i];
                    }
                    true
                });
                if done {
                    return;
                }
            }
        }
        ad::flow_in_param(&self.model, &self.p, k, pk, mode, t, x, dx, jac)
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
        let g = self.id(mode, j);
        ad::guard_in_param(&self.model, &self.p, k, pk, mode, g, x, grad)
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
        let g = self.id(mode, j);
        ad::reset_in_param(&self.model, &self.p, k, pk, mode, g, x, out, jac)
    }
    fn chart_in_param(&self, k: usize, pk: f64, u: &[f64], x: &mut [f64], jac: &mut [f64]) {
        ad::chart_in_param(&self.model, &self.p, k, pk, u, x, jac)
    }
}

impl<M: HybridModel + Default> Default for Bound<M> {
    /// The model's equations at their default parameter values.
    fn default() -> Self {
        Self::new(M::default())
    }
}

/// In a file a model's parameters are written by name, any subset, the rest taking their
/// defaults: `SimplestWalker(gamma: 0.01)`; a value may be a constant expression in quotes
/// (`Vdp(omega: "2*pi*10")`, see [`saltation_equations::constant`]). An unknown name is an error naming the known ones,
/// at the name's position.
impl<'de, M: HybridModel + Default> serde::Deserialize<'de> for Bound<M> {
    fn deserialize<De: serde::Deserializer<'de>>(de: De) -> Result<Self, De::Error> {
        struct Named<M>(std::marker::PhantomData<M>);
        impl<'de, M: HybridModel + Default> serde::de::Visitor<'de> for Named<M> {
            type Value = Bound<M>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the model's parameters by name")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Bound<M>, A::Error> {
                use serde::de::Error;
                let mut b = Bound::new(M::default());
                let mut seen = vec![false; b.p.len()];
                while let Some(key) = map.next_key::<String>()? {
                    let Ok(k) = param::index_of(b.model.params(), &key) else {
                        return Err(A::Error::custom(unknown_field(&key, b.model.params())));
                    };
                    if std::mem::replace(&mut seen[k], true) {
                        return Err(A::Error::custom(format!("duplicate field `{key}`")));
                    }
                    b.p[k] = map.next_value::<saltation_equations::Number>()?.0;
                }
                // Ranges are checked where the file is validated (`EvalModel::check_params`), as
                // for every other setting, so that the error names the file's place.
                Ok(b)
            }
        }
        de.deserialize_struct("Params", &[], Named(std::marker::PhantomData))
    }
}

/// serde's own wording for an unknown field.
fn unknown_field(key: &str, params: &[crate::Param]) -> String {
    let names: Vec<String> = params.iter().map(|p| format!("`{}`", p.name)).collect();
    match names.len() {
        0 => format!("unknown field `{key}`, there are no fields"),
        1 => format!("unknown field `{key}`, expected {}", names[0]),
        2 => format!(
            "unknown field `{key}`, expected {} or {}",
            names[0], names[1]
        ),
        _ => format!(
            "unknown field `{key}`, expected one of {}",
            names.join(", ")
        ),
    }
}

/// The parameters by name, as files write them (`(gamma: 0.009)` in RON, an object in JSON):
/// a struct when every name is known at compile time, else a map.
impl<M: HybridModel> serde::Serialize for Bound<M> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeStruct};
        let decls = self.model.params();
        let names: Option<Vec<&'static str>> = decls
            .iter()
            .map(|d| match d.name {
                std::borrow::Cow::Borrowed(n) => Some(n),
                std::borrow::Cow::Owned(_) => None,
            })
            .collect();
        match names {
            Some(names) => {
                let mut st = s.serialize_struct("Params", names.len())?;
                for (n, v) in names.into_iter().zip(&self.p) {
                    st.serialize_field(n, v)?;
                }
                st.end()
            }
            None => {
                let mut m = s.serialize_map(Some(self.p.len()))?;
                for (decl, v) in decls.iter().zip(&self.p) {
                    m.serialize_entry(decl.name.as_ref(), v)?;
                }
                m.end()
            }
        }
    }
}
