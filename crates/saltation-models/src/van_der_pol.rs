//! The van der Pol (1926) oscillator as a hybrid model with a Poincaré section.
//!
//! `ẍ − ε(1 − x²)ẋ + x = 0` as the first-order system in `[x, y = ẋ]`:
//! `f = [y, ε(1 − x²) y − x]`, `f_x = [[0, 1], [−2ε x y − 1, ε(1 − x²)]]`.
//!
//! The flow is smooth; the stride map is the Poincaré map of the section `h = y = 0` crossed
//! falling (from `y > 0` to `y < 0`), enabled only for `x > 0`: the maxima of `x`. There
//! `ẏ = −x < 0`, so the crossing is transversal. The reset is the identity, `g_x = I`, and the
//! mode does not change, so the saltation matrix `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)` is
//! `S = I` and the fixed-time monodromy is the plain flow Jacobian `Φ(T)`. Reduced coordinate on
//! the section: `u = [x]`, chart `χ(u) = (u, 0)`, projection `π(x, y) = x`.
//!
//! Floquet multipliers of the limit cycle (period `T`): the monodromy has `{1, μ}` with, by
//! Liouville's formula `det Φ(T) = exp(∮ tr f_x dt)`,
//!
//! ```text
//! μ = exp(∮ ε(1 − x²) dt)
//! ```
//!
//! ([`VanDerPol::divergence`]); the event-terminated stride Jacobian has `{0, μ}`. At `ε = 1`
//! the period is `T = 6.663286859323130…` ([`crate::reference::van_der_pol`]).

use saltation_hybrid::{check_range, EvalModel, Guard, ParamError, Scalar};
use serde::{Deserialize, Serialize};

/// Parameters of the van der Pol oscillator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VanDerPolParams {
    /// Nonlinearity (damping) `ε > 0` (default 1); the limit cycle exists for every `ε > 0`,
    /// and is stiff (relaxation oscillations) for `ε ≫ 1`.
    pub epsilon: f64,
}

impl Default for VanDerPolParams {
    fn default() -> Self {
        Self { epsilon: 1.0 }
    }
}

/// The van der Pol oscillator with the Poincaré section `y = 0`, `x > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct VanDerPol {
    /// Its parameters.
    pub params: VanDerPolParams,
}

impl VanDerPol {
    /// Divergence of the vector field, `tr f_x = ε(1 − x²)`, whose integral over one period
    /// is the logarithm of the nontrivial Floquet multiplier.
    pub fn divergence(&self, x: &[f64]) -> f64 {
        self.params.epsilon * (1.0 - x[0] * x[0])
    }
}

impl EvalModel for VanDerPol {
    saltation_hybrid::named_params!("epsilon" => params.epsilon);
    autonomous!();
    fn name(&self) -> &str {
        "van_der_pol"
    }
    fn dim(&self) -> usize {
        2
    }
    fn mode_name(&self, _mode: usize) -> String {
        "flow".into()
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = (-x[0] * x[0] + 1.0) * x[1] * self.params.epsilon - x[0];
    }
    fn guards(&self, _mode: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
        x[1]
    }
    fn describe_guard(&self, _mode: usize, _j: usize) -> Guard<Self> {
        Guard::to(0).falling().enabled_when(|_, x| x[0] > 0.0)
    }
    // Identity reset: the trait's default `reset`.
    fn flow_jacobian(&self, _mode: usize, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        let eps = self.params.epsilon;
        jac.copy_from_slice(&[
            0.0,
            1.0,
            -2.0 * eps * x[0] * x[1] - 1.0,
            eps * (1.0 - x[0] * x[0]),
        ]);
        true
    }
    fn guard_gradient(&self, _mode: usize, _j: usize, _x: &[f64], grad: &mut [f64]) -> bool {
        grad.copy_from_slice(&[0.0, 1.0]);
        true
    }
    fn reset_jacobian(&self, _mode: usize, _j: usize, _x: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[1.0, 0.0, 0.0, 1.0]);
        true
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = D::from(0.0);
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[0];
    }
    fn check_params(&self) -> Result<(), ParamError> {
        let e = self.params.epsilon;
        check_range(
            "epsilon",
            e,
            e > 0.0,
            "epsilon > 0 (the limit cycle exists for every epsilon > 0)",
        )
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "dx/dt".into()]
    }
}
