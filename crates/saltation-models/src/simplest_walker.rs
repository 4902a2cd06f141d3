//! The simplest walking model (Garcia, Chatterjee, Ruina & Coleman, J. Biomech. Eng. 120
//! (1998); equations as in Bhounsule 2014, §4, eq. (22)).
//!
//! State `x = [θ, θ̇, φ, φ̇]` (stance-leg angle from the slope normal, angle between the legs;
//! foot mass → 0, time in units of `sqrt(l/g)`), slope `γ`:
//! `f = [θ̇, sin(θ − γ), φ̇, sin(θ − γ) + θ̇² sin φ − cos(θ − γ) sin φ]`.
//! Heel-strike guard `h = φ − 2θ`, rising, enabled only with the stance leg past vertical
//! (`θ < 0`) — the mid-stance crossing (foot scuffing, θ > 0, falling) is not an event. Reset
//! `θ⁺ = −θ⁻`, `θ̇⁺ = cos(2θ⁻) θ̇⁻`, `φ⁺ = −2θ⁻`, `φ̇⁺ = cos(2θ⁻)(1 − cos 2θ⁻) θ̇⁻`.
//! A second guard, `h₁ = θ² − (π/2)²` (rising), fires when the stance leg passes horizontal
//! either way: the walker fell, and a stride that meets it fails
//! ([`EvalModel::guard_failure`]).
//! Post-impact states satisfy `φ = 2θ`, `φ̇ = (1 − cos 2θ) θ̇`: the section's reduced
//! coordinates are `u = (θ, θ̇)`.

use saltation_hybrid::{
    FlowJacobian, GuardGradient, GuardSpec, HybridModel, Param, ResetJacobian, Scalar,
    SectionJacobians,
};
use std::f64::consts::FRAC_PI_2;

/// Index of the slope `γ` in the parameter vector.
pub const GAMMA: usize = 0;

/// The simplest walker's parameters: the slope `γ` in radians (benchmark 0.009; gaits exist for
/// 0 < γ ≲ 0.019).
pub const PARAMS: &[Param] = &[Param::new("gamma", 0.009)
    .open_range(-FRAC_PI_2, FRAC_PI_2)
    .described("|gamma| < pi/2 (slope in radians; gaits exist for 0 < gamma < 0.019)")];

/// The walker's guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalkerGuard {
    /// Heel strike (`h = φ − 2θ` rising with the stance leg past vertical).
    HeelStrike,
    /// The stance leg passes horizontal: the walker fell.
    Fall,
}

/// The simplest walker (its equations; the slope is the parameter `gamma`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SimplestWalker;

impl HybridModel for SimplestWalker {
    type Guard = WalkerGuard;
    fn name(&self) -> &str {
        "simplest_walker"
    }
    fn dim(&self) -> usize {
        4
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn mode_name(&self, _mode: usize) -> String {
        "single stance".into()
    }
    fn state_names(&self) -> Vec<String> {
        vec!["θ".into(), "dθ/dt".into(), "φ".into(), "dφ/dt".into()]
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        field(p[GAMMA], x, dx);
    }
    fn guards(&self, _mode: usize) -> &[WalkerGuard] {
        &[WalkerGuard::HeelStrike, WalkerGuard::Fall]
    }
    fn describe(&self, _mode: usize, g: WalkerGuard) -> GuardSpec {
        match g {
            // Only with the stance leg past vertical: not the mid-stance scuffing crossing.
            WalkerGuard::HeelStrike => GuardSpec::to(0).rising().enabled_when(|_, x| x[0] < 0.0),
            WalkerGuard::Fall => {
                GuardSpec::failure("the walker fell (stance leg past horizontal)").rising()
            }
        }
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: WalkerGuard, x: &[D]) -> D {
        match g {
            WalkerGuard::HeelStrike => x[2] - x[0] * 2.0,
            WalkerGuard::Fall => x[0] * x[0] - FRAC_PI_2 * FRAC_PI_2,
        }
    }
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, g: WalkerGuard, x: &[D], out: &mut [D]) {
        match g {
            WalkerGuard::HeelStrike | WalkerGuard::Fall => {
                let c = (x[0] * 2.0).cos();
                out[0] = -x[0];
                out[1] = c * x[1];
                out[2] = x[0] * -2.0;
                out[3] = c * (-c + 1.0) * x[1];
            }
        }
    }
    fn reduced_dim(&self) -> usize {
        2
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = u[1];
        x[2] = u[0] * 2.0;
        x[3] = (-(u[0] * 2.0).cos() + 1.0) * u[1];
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[0];
        u[1] = x[1];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<WalkerGuard>> {
        Some(self)
    }
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<WalkerGuard>> {
        Some(self)
    }
    fn hand_section_jacobians(&self) -> Option<&dyn SectionJacobians> {
        Some(self)
    }
}

impl FlowJacobian for SimplestWalker {
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        _mode: usize,
        _t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        let (s, c) = (x[0] - p[GAMMA]).sin_cos();
        let (sp, cp) = x[2].sin_cos();
        dx[0] = x[1];
        dx[1] = s;
        dx[2] = x[3];
        dx[3] = s + x[1] * x[1] * sp - c * sp;
        jac.fill(0.0);
        jac[1] = 1.0;
        jac[4] = c;
        jac[11] = 1.0;
        jac[12] = c + s * sp;
        jac[13] = 2.0 * x[1] * sp;
        jac[14] = (x[1] * x[1] - c) * cp;
    }
}

impl GuardGradient<WalkerGuard> for SimplestWalker {
    fn guard_gradient(
        &self,
        _p: &[f64],
        _mode: usize,
        g: WalkerGuard,
        x: &[f64],
        grad: &mut [f64],
    ) {
        match g {
            WalkerGuard::HeelStrike => grad.copy_from_slice(&[-2.0, 0.0, 1.0, 0.0]),
            WalkerGuard::Fall => grad.copy_from_slice(&[2.0 * x[0], 0.0, 0.0, 0.0]),
        }
    }
}

impl ResetJacobian<WalkerGuard> for SimplestWalker {
    fn reset_jacobian(
        &self,
        _p: &[f64],
        _mode: usize,
        _g: WalkerGuard,
        x: &[f64],
        jac: &mut [f64],
    ) {
        let (s2, c2) = (2.0 * x[0]).sin_cos();
        jac.copy_from_slice(&[
            -1.0,
            0.0,
            0.0,
            0.0,
            -2.0 * s2 * x[1],
            c2,
            0.0,
            0.0,
            -2.0,
            0.0,
            0.0,
            0.0,
            2.0 * s2 * x[1] * (2.0 * c2 - 1.0),
            c2 * (1.0 - c2),
            0.0,
            0.0,
        ]);
    }
}

impl SectionJacobians for SimplestWalker {
    fn chart_jacobian(&self, _p: &[f64], u: &[f64], jac: &mut [f64]) {
        let (s2, c2) = (2.0 * u[0]).sin_cos();
        jac.copy_from_slice(&[1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 2.0 * s2 * u[1], 1.0 - c2]);
    }
    fn project_jacobian(&self, _p: &[f64], _x: &[f64], jac: &mut [f64]) {
        jac.copy_from_slice(&[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    }
}

/// The stance-phase field of eq. (1) of Garcia et al. (1998) on the slope `gamma`.
fn field<D: Scalar>(gamma: D, x: &[D], dx: &mut [D]) {
    let a = x[0] - gamma;
    let (s, c) = (a.sin(), a.cos());
    let sp = x[2].sin();
    dx[0] = x[1];
    dx[1] = s;
    dx[2] = x[3];
    dx[3] = s + x[1] * x[1] * sp - c * sp;
}
