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
//! ([`HybridModel::guard_failure`]).
//! Post-impact states satisfy `φ = 2θ`, `φ̇ = (1 − cos 2θ) θ̇`: the section's reduced
//! coordinates are `u = (θ, θ̇)`.

use saltation_hybrid::{check_range, Guard, HybridModel, ParamError, Scalar};
use serde::{Deserialize, Serialize};
use std::f64::consts::FRAC_PI_2;

/// Index of the heel-strike guard.
pub const HEEL_STRIKE: usize = 0;
/// Index of the fall guard (stance leg past horizontal).
pub const FALL: usize = 1;

/// Parameters of the simplest walker.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimplestWalkerParams {
    /// Slope `γ` in radians (benchmark 0.009; gaits exist for 0 < γ ≲ 0.019).
    pub gamma: f64,
}

impl Default for SimplestWalkerParams {
    fn default() -> Self {
        Self { gamma: 0.009 }
    }
}

/// The simplest walker.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SimplestWalker {
    /// Its parameters.
    pub params: SimplestWalkerParams,
}

impl HybridModel for SimplestWalker {
    autonomous!();
    fn name(&self) -> &str {
        "simplest_walker"
    }
    fn dim(&self) -> usize {
        4
    }
    fn mode_name(&self, _mode: usize) -> String {
        "single stance".into()
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        field(D::from(self.params.gamma), x, dx);
    }
    saltation_hybrid::named_params!("gamma" => params.gamma);
    fn param_derivatives(&self, k: usize) -> bool {
        // γ enters the flow only (guards, resets and the chart do not depend on it).
        k == 0
    }
    fn flow_with_param<D: Scalar>(
        &self,
        _k: usize,
        gamma: D,
        _mode: usize,
        _t: f64,
        x: &[D],
        dx: &mut [D],
    ) {
        field(gamma, x, dx);
    }
    fn guards(&self, _mode: usize) -> usize {
        2
    }
    fn guard<D: Scalar>(&self, _mode: usize, j: usize, x: &[D]) -> D {
        if j == HEEL_STRIKE {
            x[2] - x[0] * 2.0
        } else {
            x[0] * x[0] - FRAC_PI_2 * FRAC_PI_2
        }
    }
    fn describe_guard(&self, _mode: usize, j: usize) -> Guard<Self> {
        if j == HEEL_STRIKE {
            // Only with the stance leg past vertical: not the mid-stance scuffing crossing.
            Guard::to(0).rising().enabled_when(|_, x| x[0] < 0.0)
        } else {
            Guard::failure("the walker fell (stance leg past horizontal)").rising()
        }
    }
    fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
        let c = (x[0] * 2.0).cos();
        out[0] = -x[0];
        out[1] = c * x[1];
        out[2] = x[0] * -2.0;
        out[3] = c * (-c + 1.0) * x[1];
    }
    fn flow_jacobian(&self, mode: usize, t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        // One source for f_x: the combined evaluation (its f part is discarded here).
        let mut dx = [0.0; 4];
        self.flow_and_jacobian(mode, t, x, &mut dx, jac)
    }
    fn flow_and_jacobian(
        &self,
        _mode: usize,
        _t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) -> bool {
        let (s, c) = (x[0] - self.params.gamma).sin_cos();
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
        true
    }
    fn guard_gradient(&self, _mode: usize, j: usize, x: &[f64], grad: &mut [f64]) -> bool {
        if j == FALL {
            grad.copy_from_slice(&[2.0 * x[0], 0.0, 0.0, 0.0]);
            return true;
        }
        grad.copy_from_slice(&[-2.0, 0.0, 1.0, 0.0]);
        true
    }
    fn reset_jacobian(&self, _mode: usize, _j: usize, x: &[f64], jac: &mut [f64]) -> bool {
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
        true
    }
    fn reduced_dim(&self) -> usize {
        2
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = u[1];
        x[2] = u[0] * 2.0;
        x[3] = (-(u[0] * 2.0).cos() + 1.0) * u[1];
    }
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        let (s2, c2) = (2.0 * u[0]).sin_cos();
        jac.copy_from_slice(&[1.0, 0.0, 0.0, 1.0, 2.0, 0.0, 2.0 * s2 * u[1], 1.0 - c2]);
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[0];
        u[1] = x[1];
    }
    fn project_jacobian(&self, _x: &[f64], jac: &mut [f64]) {
        jac.copy_from_slice(&[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
    }
    fn check_params(&self) -> Result<(), ParamError> {
        let g = self.params.gamma;
        check_range(
            "gamma",
            g,
            g.abs() < std::f64::consts::FRAC_PI_2,
            "|gamma| < pi/2 (slope in radians; gaits exist for 0 < gamma < 0.019)",
        )
    }
    fn state_names(&self) -> Vec<String> {
        vec!["θ".into(), "dθ/dt".into(), "φ".into(), "dφ/dt".into()]
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
