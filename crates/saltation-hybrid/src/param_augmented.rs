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
//! The model supplies its dependence on the parameter through
//! [`EvalModel::flow_with_param`], [`EvalModel::guard_with_param`],
//! [`EvalModel::reset_with_param`] and [`EvalModel::chart_with_param`]; automatic
//! differentiation of the augmented functions gives `f_p`, `h_p`, `g_p` and `∂χ/∂p`.

use crate::guard::Guard;
use crate::model::{EvalModel, GuardInfo, Scalar};
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
    fn flow<D: Scalar>(&self, mode: usize, t: f64, x: &[D], dx: &mut [D]) {
        let n = self.n;
        if D::NDERIV == 0 && self.own_value(x[n].re()) {
            self.model.flow(mode, t, &x[..n], &mut dx[..n]);
        } else {
            self.model
                .flow_with_param(self.k, x[n], mode, t, &x[..n], &mut dx[..n]);
        }
        dx[n] = D::from(0.0);
    }
    /// `[[f_x, f_p], [0, 0]]` from the model's hand-written `f_x` and `f_p`
    /// ([`EvalModel::flow_param_derivative`]) when it writes both and `p` is its own value;
    /// otherwise `false`, and automatic differentiation in all `n + 1` directions (one pass,
    /// which for a model without a hand-written `f_p` costs less than its `f_x` plus a
    /// separate dual pass for `f_p`: measured on the walker's continuation).
    fn flow_and_jacobian(
        &self,
        mode: usize,
        t: f64,
        y: &[f64],
        dy: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        let (n, p) = (self.n, y[self.n]);
        if !self.own_value(p) {
            return false;
        }
        // f_x and f_p on the stack for small systems (this runs at every integration stage).
        crate::with_buffer(0.0, n * n + n, |buf| {
            let (fx, fp) = buf.split_at_mut(n * n);
            let x = &y[..n];
            if !self.model.flow_param_derivative(self.k, mode, t, x, fp) {
                return false;
            }
            let dx = &mut dy[..n];
            if !self.model.flow_and_jacobian(mode, t, x, dx, fx) {
                if !self.model.flow_jacobian(mode, t, x, fx) {
                    return false;
                }
                self.model.flow(mode, t, x, dx);
            }
            let m = n + 1;
            for (i, (row, f)) in jac.chunks_exact_mut(m).zip(fp.iter()).enumerate() {
                row[..n].copy_from_slice(&fx[i * n..(i + 1) * n]);
                row[n] = *f;
            }
            jac[n * m..].fill(0.0);
            dy[n] = 0.0;
            true
        })
    }
    fn guards(&self, mode: usize) -> usize {
        self.model.guards(mode)
    }
    fn guard<D: Scalar>(&self, mode: usize, j: usize, x: &[D]) -> D {
        let n = self.n;
        if D::NDERIV == 0 && self.own_value(x[n].re()) {
            return self.model.guard(mode, j, &x[..n]);
        }
        self.model.guard_with_param(self.k, x[n], mode, j, &x[..n])
    }
    /// The model's guard without its condition, which is typed by the model:
    /// [`EvalModel::guard_enabled`] forwards instead.
    fn describe_guard(&self, mode: usize, j: usize) -> Guard<Self> {
        let g = self.model.describe_guard(mode, j);
        Guard {
            direction: g.direction,
            target: g.target,
            enabled: None,
            failure: g.failure,
        }
    }
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo {
        self.model.guard_info(mode, j)
    }
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool {
        self.model.guard_enabled(mode, j, &x[..self.n])
    }
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        self.model.guard_failure(mode, j)
    }
    fn reset<D: Scalar>(&self, mode: usize, j: usize, x: &[D], out: &mut [D]) {
        let n = self.n;
        if D::NDERIV == 0 && self.own_value(x[n].re()) {
            self.model.reset(mode, j, &x[..n], &mut out[..n]);
        } else {
            self.model
                .reset_with_param(self.k, x[n], mode, j, &x[..n], &mut out[..n]);
        }
        out[n] = x[n];
    }
    fn flow_time_derivative(&self, mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]) -> bool {
        let n = self.n;
        dfdt[n] = 0.0;
        self.model
            .flow_time_derivative(mode, t, &x[..n], &mut dfdt[..n])
    }
    fn reduced_dim(&self) -> usize {
        self.model.reduced_dim() + 1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        let (n, r) = (self.n, u.len() - 1);
        self.model
            .chart_with_param(self.k, u[r], &u[..r], &mut x[..n]);
        x[n] = u[r];
    }
    // Dχ̃ = [[Dχ, ∂χ/∂p], [0, 1]] and Dπ̃ = [[Dπ, 0], [0, 1]] by automatic differentiation
    // (the trait's defaults).
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        let (n, r) = (self.n, u.len() - 1);
        self.model.project(&x[..n], &mut u[..r]);
        u[r] = x[n];
    }
    fn multipliers_on_section(&self) -> bool {
        self.model.multipliers_on_section()
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
    fn check_params(&self) -> Result<(), crate::ParamError> {
        self.model.check_params()
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
    fn param_names(&self) -> Vec<String> {
        self.model.param_names()
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        self.model.param_value(k)
    }
}
