//! The state augmented with a parameter, for exact parameter derivatives of a stride map.
//!
//! With `y = (x, p)`, the augmented system has the flow `ỹ' = (f_m(t, x; p), 0)`, the guards
//! `h_{m,j}(x; p)` and the resets `(g_{m,j}(x; p), p)`. Its stride map is `(P(x₀; p), p)`, so
//! the variational equations and saltation matrices of the augmented system, which the stride
//! machinery already computes, give the last column `∂P/∂p` exactly: along a smooth segment
//! `(∂x/∂p)' = f_x ∂x/∂p + f_p`, and at an event, with `∂t/∂p = −(h_x ∂x⁻/∂p + h_p)/(h_x f⁻)`,
//! `∂x⁺/∂p = g_x ∂x⁻/∂p + g_p + (f⁺ − g_x f⁻) (h_x ∂x⁻/∂p + h_p)/(h_x f⁻)` — the saltation
//! matrix `S = g_y + (f̃⁺ − g_y f̃⁻) h_y / (h_y f̃⁻)` of the augmented system (Aizerman &
//! Gantmacher 1958; see `docs/methods.md`). The section's chart is augmented the same way:
//! `χ̃(u, p) = (χ(u; p), p)` with `Dχ̃ = [[Dχ, ∂χ/∂p], [0, 1]]`.
//!
//! The model supplies `[f_x | f_p]`, `[h_x | h_p]`, `[g_x | g_p]` and `[Dχ | ∂χ/∂p]` through its
//! `*_in_param` functions ([`EvalModel::flow_in_param`], …): a dual number seeded in `p[k]`
//! for every [`crate::Bound`] model.

use crate::model::{EvalModel, GuardInfo};
use crate::stride::StrideOptions;
use saltation_ode::Atol;

/// Model `M` with its parameter `k` appended to the state as `x[n]` (constant along the flow,
/// kept by every reset).
#[derive(Debug, Clone, Copy)]
pub struct ParamAugmented<'a, M: ?Sized> {
    model: &'a M,
    k: usize,
    n: usize,
}

impl<'a, M: EvalModel + ?Sized> ParamAugmented<'a, M> {
    /// The augmented system of `model` in its parameter `k`; `None` unless the model gives exact
    /// derivatives in `k` ([`EvalModel::param_derivatives`]).
    pub fn new(model: &'a M, k: usize) -> Option<Self> {
        model.param_derivatives(k).then(|| Self {
            model,
            k,
            n: model.dim(),
        })
    }

    /// Whether `p` is the model's own value of the parameter: the augmented functions then
    /// evaluate as the model's own ones (`f(x; p) = f(x)`), which may be cheaper (cached
    /// pieces, a hand-written `f_x`).
    fn own_value(&self, p: f64) -> bool {
        self.model.param_value(self.k) == Some(p)
    }

    /// The model's own stride options made to fit the augmented state: a vector `atol` gets one
    /// more entry for `p` (the parameter is constant, so its value does not matter; the
    /// smallest of the others is used).
    pub fn stride_options(opts: &StrideOptions) -> StrideOptions {
        let mut o = opts.clone();
        if let Atol::Vector(v) = &mut o.ode.atol {
            let least = v.iter().copied().fold(f64::INFINITY, f64::min);
            v.push(if least.is_finite() { least } else { 1.0 });
        }
        o
    }
}

impl<M: EvalModel + ?Sized> EvalModel for ParamAugmented<'_, M> {
    fn name(&self) -> &str {
        self.model.name()
    }
    fn dim(&self) -> usize {
        self.n + 1
    }
    fn modes(&self) -> usize {
        self.model.modes()
    }
    fn mode_name(&self, mode: usize) -> String {
        self.model.mode_name(mode)
    }
    fn state_names(&self) -> Vec<String> {
        let mut names = self.model.state_names();
        names.push(
            self.model
                .param_names()
                .get(self.k)
                .cloned()
                .unwrap_or_else(|| format!("p{}", self.k)),
        );
        names
    }
    fn flow(&self, mode: usize, t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.n;
        if self.own_value(y[n]) {
            self.model.flow(mode, t, &y[..n], &mut dy[..n]);
        } else {
            crate::with_buffer(0.0, n * (n + 1), |jac| {
                self.model
                    .flow_in_param(self.k, y[n], mode, t, &y[..n], &mut dy[..n], jac)
            });
        }
        dy[n] = 0.0;
    }
    fn flow_jacobian(&self, mode: usize, t: f64, y: &[f64], jac: &mut [f64]) {
        crate::with_buffer(0.0, y.len(), |dy| {
            self.flow_and_jacobian(mode, t, y, dy, jac)
        });
    }
    /// `[[f_x, f_p], [0, 0]]`: one pass of the model's `flow_in_param`.
    fn flow_and_jacobian(&self, mode: usize, t: f64, y: &[f64], dy: &mut [f64], jac: &mut [f64]) {
        let (n, m) = (self.n, self.n + 1);
        self.model.flow_in_param(
            self.k,
            y[n],
            mode,
            t,
            &y[..n],
            &mut dy[..n],
            &mut jac[..n * m],
        );
        jac[n * m..].fill(0.0);
        dy[n] = 0.0;
    }
    fn flow_time_derivative(&self, mode: usize, t: f64, y: &[f64], dfdt: &mut [f64]) -> bool {
        let n = self.n;
        dfdt[n] = 0.0;
        self.model
            .flow_time_derivative(mode, t, &y[..n], &mut dfdt[..n])
    }
    fn flow_jacobian_is_constant(&self, _mode: usize) -> bool {
        // `f_p` depends on the state even where `f_x` does not.
        false
    }
    /// `false`: the augmented state is integrated, never stepped exactly.
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        false
    }
    /// The model's forcing at its own value of the parameter (where the augmented stride runs,
    /// `y[n] = p`: continuation builds the model at each `p`); the phase keeps its index.
    fn forcing(&self) -> Option<crate::Forcing<f64>> {
        let pk = self.model.param_value(self.k)?;
        self.model.forcing_in_param(self.k, pk).map(|(f, _)| f)
    }
    /// `(0, …, 0, ∂T/∂p)`: the period depends on the appended parameter only.
    fn forcing_period_gradient(&self, grad: &mut [f64]) {
        grad.fill(0.0);
        if let Some(pk) = self.model.param_value(self.k) {
            if let Some((_, dt)) = self.model.forcing_in_param(self.k, pk) {
                grad[self.n] = dt;
            }
        }
    }
    fn stride_event(&self, mode: usize, j: usize) -> bool {
        self.model.stride_event(mode, j)
    }
    fn mass_matrix(&self, mode: usize) -> Option<Vec<f64>> {
        let n = self.n;
        self.model.mass_matrix(mode).map(|m| {
            let mut big = vec![0.0; (n + 1) * (n + 1)];
            for i in 0..n {
                big[i * (n + 1)..i * (n + 1) + n].copy_from_slice(&m[i * n..(i + 1) * n]);
            }
            big[n * (n + 1) + n] = 1.0;
            big
        })
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
    fn guard_enabled(&self, mode: usize, j: usize, y: &[f64]) -> bool {
        self.model.guard_enabled(mode, j, &y[..self.n])
    }
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        self.model.guard_failure(mode, j)
    }
    fn guard_on_accumulation(&self, mode: usize, j: usize) -> Option<usize> {
        self.model.guard_on_accumulation(mode, j)
    }
    fn guard(&self, mode: usize, j: usize, y: &[f64]) -> f64 {
        let n = self.n;
        if self.own_value(y[n]) {
            return self.model.guard(mode, j, &y[..n]);
        }
        crate::with_buffer(0.0, n + 1, |g| {
            self.model.guard_in_param(self.k, y[n], mode, j, &y[..n], g)
        })
    }
    /// `[h_x, h_p]`.
    fn guard_gradient(&self, mode: usize, j: usize, y: &[f64], grad: &mut [f64]) {
        let n = self.n;
        self.model
            .guard_in_param(self.k, y[n], mode, j, &y[..n], grad);
    }
    fn reset(&self, mode: usize, j: usize, y: &[f64], out: &mut [f64]) {
        let n = self.n;
        if self.own_value(y[n]) {
            self.model.reset(mode, j, &y[..n], &mut out[..n]);
        } else {
            crate::with_buffer(0.0, n * (n + 1), |jac| {
                self.model
                    .reset_in_param(self.k, y[n], mode, j, &y[..n], &mut out[..n], jac)
            });
        }
        out[n] = y[n];
    }
    /// `[[g_x, g_p], [0, 1]]`.
    fn reset_jacobian(&self, mode: usize, j: usize, y: &[f64], jac: &mut [f64]) {
        let (n, m) = (self.n, self.n + 1);
        crate::with_buffer(0.0, n, |out| {
            self.model
                .reset_in_param(self.k, y[n], mode, j, &y[..n], out, &mut jac[..n * m])
        });
        jac[n * m..].fill(0.0);
        jac[n * m + n] = 1.0;
    }
    fn reduced_dim(&self) -> usize {
        self.model.reduced_dim() + 1
    }
    fn chart(&self, u: &[f64], x: &mut [f64]) {
        let (n, r) = (self.n, u.len() - 1);
        crate::with_buffer(0.0, n * (r + 1), |jac| {
            self.model
                .chart_in_param(self.k, u[r], &u[..r], &mut x[..n], jac)
        });
        x[n] = u[r];
    }
    /// `Dχ̃ = [[Dχ, ∂χ/∂p], [0, 1]]`.
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        let (n, r) = (self.n, u.len() - 1);
        crate::with_buffer(0.0, n, |x| {
            self.model
                .chart_in_param(self.k, u[r], &u[..r], x, &mut jac[..n * (r + 1)])
        });
        jac[n * (r + 1)..].fill(0.0);
        jac[n * (r + 1) + r] = 1.0;
    }
    fn project(&self, y: &[f64], u: &mut [f64]) {
        let (n, r) = (self.n, u.len() - 1);
        self.model.project(&y[..n], &mut u[..r]);
        u[r] = y[n];
    }
    /// `Dπ̃ = [[Dπ, 0], [0, 1]]`.
    fn project_jacobian(&self, y: &[f64], jac: &mut [f64]) {
        let (n, r) = (self.n, self.model.reduced_dim());
        crate::with_buffer(0.0, r * n, |dpi| {
            self.model.project_jacobian(&y[..n], dpi);
            jac.fill(0.0);
            for i in 0..r {
                jac[i * (n + 1)..i * (n + 1) + n].copy_from_slice(&dpi[i * n..(i + 1) * n]);
            }
        });
        jac[r * (n + 1) + n] = 1.0;
    }
    fn multipliers_on_section(&self) -> bool {
        self.model.multipliers_on_section()
    }
    fn admissibility(
        &self,
        _x0: &[f64],
        _opts: &StrideOptions,
    ) -> Option<Result<crate::Admissibility, crate::HybridError>> {
        None
    }
    /// The augmented flow is for derivatives in the parameter: its conditions are the model's.
    fn conditions(&self, _mode: usize) -> usize {
        0
    }
    fn condition_name(&self, mode: usize, i: usize) -> String {
        self.model.condition_name(mode, i)
    }
    fn condition(&self, mode: usize, i: usize, y: &[f64]) -> f64 {
        self.model.condition(mode, i, &y[..self.n])
    }
    fn condition_kind(&self, mode: usize, i: usize) -> (String, crate::ViolationKind) {
        self.model.condition_kind(mode, i)
    }
    fn state_residual(&self, mode: usize, y: &[f64]) -> Option<(String, f64)> {
        self.model.state_residual(mode, &y[..self.n])
    }
    fn param_names(&self) -> Vec<String> {
        self.model.param_names()
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        self.model.param_value(k)
    }
    /// The augmented system is a view of its model: its parameters are changed there.
    fn set_param_value(&mut self, k: usize, _value: f64) -> Result<(), crate::ParamError> {
        Err(crate::ParamError::Unknown {
            name: format!("#{k}"),
            known: Vec::new(),
        })
    }
    fn check_params(&self) -> Result<(), crate::ParamError> {
        self.model.check_params()
    }
    /// None: the augmented system is not differentiated in a second parameter.
    fn param_derivatives(&self, _k: usize) -> bool {
        false
    }
    /// Not differentiated in a second parameter ([`EvalModel::param_derivatives`] is
    /// `false`): NaN.
    fn flow_in_param(
        &self,
        _: usize,
        _: f64,
        _: usize,
        _: f64,
        _: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        dx.fill(f64::NAN);
        jac.fill(f64::NAN);
    }
    /// NaN, as [`EvalModel::flow_in_param`].
    fn guard_in_param(
        &self,
        _: usize,
        _: f64,
        _: usize,
        _: usize,
        _: &[f64],
        g: &mut [f64],
    ) -> f64 {
        g.fill(f64::NAN);
        f64::NAN
    }
    /// NaN, as [`EvalModel::flow_in_param`].
    fn reset_in_param(
        &self,
        _: usize,
        _: f64,
        _: usize,
        _: usize,
        _: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    ) {
        out.fill(f64::NAN);
        jac.fill(f64::NAN);
    }
    /// NaN, as [`EvalModel::flow_in_param`].
    fn chart_in_param(&self, _: usize, _: f64, _: &[f64], x: &mut [f64], jac: &mut [f64]) {
        x.fill(f64::NAN);
        jac.fill(f64::NAN);
    }
}
