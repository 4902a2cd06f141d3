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

use saltation_hybrid::{
    FlowJacobian, GuardGradient, GuardSpec, HybridModel, Limit, Param, ResetJacobian, Scalar,
};

/// Index of the nonlinearity `ε` in the parameter vector.
pub const EPSILON: usize = 0;

/// The oscillator's parameter: the nonlinearity (damping) `ε > 0` (default 1); the limit cycle
/// exists for every `ε > 0`, and is stiff (relaxation oscillations) for `ε ≫ 1`.
pub const PARAMS: &[Param] = &[Param::new("epsilon", 1.0)
    .above(Limit::Open(0.0))
    .described("epsilon > 0 (the limit cycle exists for every epsilon > 0)")];

/// The oscillator's guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionGuard {
    /// The Poincaré section `y = 0` crossed falling with `x > 0` (a maximum of `x`).
    Maximum,
}

/// The van der Pol oscillator with the Poincaré section `y = 0`, `x > 0` (its equations; the
/// parameter is `epsilon`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VanDerPol;

impl VanDerPol {
    /// Divergence of the vector field at the parameter values `p`, `tr f_x = ε(1 − x²)`, whose
    /// integral over one period is the logarithm of the nontrivial Floquet multiplier.
    pub fn divergence(p: &[f64], x: &[f64]) -> f64 {
        p[EPSILON] * (1.0 - x[0] * x[0])
    }
}

impl HybridModel for VanDerPol {
    type Guard = SectionGuard;
    fn name(&self) -> &str {
        "van_der_pol"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn mode_name(&self, _mode: usize) -> String {
        "flow".into()
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "dx/dt".into()]
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = (-x[0] * x[0] + 1.0) * x[1] * p[EPSILON] - x[0];
    }
    fn guards(&self, _mode: usize) -> &[SectionGuard] {
        &[SectionGuard::Maximum]
    }
    fn describe(&self, _mode: usize, g: SectionGuard) -> GuardSpec {
        match g {
            SectionGuard::Maximum => GuardSpec::to(0).falling().enabled_when(|_, x| x[0] > 0.0),
        }
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: SectionGuard, x: &[D]) -> D {
        match g {
            SectionGuard::Maximum => x[1],
        }
    }
    /// The identity: the section only marks the maxima.
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, g: SectionGuard, x: &[D], out: &mut [D]) {
        match g {
            SectionGuard::Maximum => out.copy_from_slice(x),
        }
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = D::from(0.0);
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[0];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<SectionGuard>> {
        Some(self)
    }
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<SectionGuard>> {
        Some(self)
    }
}

impl FlowJacobian for VanDerPol {
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        self.flow(p, mode, t, x, dx);
        let eps = p[EPSILON];
        jac.copy_from_slice(&[
            0.0,
            1.0,
            -2.0 * eps * x[0] * x[1] - 1.0,
            eps * (1.0 - x[0] * x[0]),
        ]);
    }
}

impl GuardGradient<SectionGuard> for VanDerPol {
    fn guard_gradient(
        &self,
        _p: &[f64],
        _mode: usize,
        g: SectionGuard,
        _x: &[f64],
        grad: &mut [f64],
    ) {
        match g {
            SectionGuard::Maximum => grad.copy_from_slice(&[0.0, 1.0]),
        }
    }
}

impl ResetJacobian<SectionGuard> for VanDerPol {
    fn reset_jacobian(
        &self,
        _p: &[f64],
        _mode: usize,
        g: SectionGuard,
        _x: &[f64],
        jac: &mut [f64],
    ) {
        match g {
            SectionGuard::Maximum => jac.copy_from_slice(&[1.0, 0.0, 0.0, 1.0]),
        }
    }
}
