//! The hopper in minimal coordinates (Zelei & Insperger 2018; Zana et al. 2018, §2 left panel
//! and §4.1): state `x = [z_U, z_L, ż_U, ż_L]`, written by hand as an independent check of
//! the constrained form. Parameters: [`super::PARAMS`] (`m_U = μ m`, `m_L = (1 − μ) m`).
//!
//! - Flight: `m_U z̈_U = −m_U g − s`, `m_L z̈_L = −m_L g + s`, `s = k(z_U − z_L − L0) + d_F(ż_U − ż_L)`.
//! - Ground (`z_L = ż_L = 0` held): `m_U z̈_U = −m_U g − k(z_U − z_L − L0) − d_G(ż_U − ż_L)`,
//!   `z̈_L = 0`; contact multiplier `λ = −m_L g + k(z_U − z_L − L0) + d_G(ż_U − ż_L)` (minus the
//!   upward ground force).
//! - Touchdown: `z_L` falls through 0; `ż_L⁺ = 0`. Lift-off: `λ` rises through 0; identity.
//! - Section: lift-off, reduced coordinates `u = (z_U, ż_U)`.

use super::params::{HopperParams, D_F, D_G, G, K, L0, M, MU, PARAMS};
use saltation_hybrid::{
    AffineModes, Bound, FlowJacobian, GuardGradient, GuardSpec, HybridModel, Param, ParamError,
    ResetJacobian, Scalar,
};

/// The unconstrained two-block hopper (its equations; the parameters are [`super::PARAMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HopperUnconstrained;

/// The two-block hopper's guards: one per mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HopperGuard {
    /// In flight: the lower block reaches the ground (`z_L` falls through 0).
    Touchdown,
    /// On the ground: the contact multiplier `λ` rises through 0 (the ground would pull).
    LiftOff,
}

impl HopperUnconstrained {
    /// The two-block hopper at the parameters `p` (checked).
    pub fn bound(p: &HopperParams) -> Result<Bound<Self>, ParamError> {
        Bound::with_values(Self, p.values().to_vec())
    }
    /// Ground contact multiplier `λ` at the parameter values `p` and the state `x` (pushing:
    /// `λ < 0`).
    pub fn contact_multiplier<D: Scalar>(&self, p: &[D], x: &[D]) -> D {
        (x[0] - x[1] - p[L0]) * p[K] + (x[2] - x[3]) * p[D_G] - m_lower(p) * p[G]
    }
}

/// Upper mass `m_U = μ m`.
fn m_upper<D: Scalar>(p: &[D]) -> D {
    p[MU] * p[M]
}

/// Lower mass `m_L = (1 − μ) m`.
fn m_lower<D: Scalar>(p: &[D]) -> D {
    (-p[MU] + 1.0) * p[M]
}

impl HybridModel for HopperUnconstrained {
    type Guard = HopperGuard;
    fn name(&self) -> &str {
        "hopper_unconstrained"
    }
    fn dim(&self) -> usize {
        4
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn modes(&self) -> usize {
        2
    }
    fn mode_name(&self, mode: usize) -> String {
        if mode == 0 { "flight" } else { "ground" }.into()
    }
    fn state_names(&self) -> Vec<String> {
        ["z_U", "z_L", "dz_U", "dz_L"].map(String::from).to_vec()
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let (mu_, ml) = (m_upper(p), m_lower(p));
        dx[0] = x[2];
        dx[1] = x[3];
        if mode == 0 {
            let s = (x[0] - x[1] - p[L0]) * p[K] + (x[2] - x[3]) * p[D_F];
            dx[2] = -s / mu_ - p[G];
            dx[3] = s / ml - p[G];
        } else {
            let s = (x[0] - x[1] - p[L0]) * p[K] + (x[2] - x[3]) * p[D_G];
            dx[2] = -s / mu_ - p[G];
            dx[3] = x[3] * 0.0;
        }
    }
    fn guards(&self, mode: usize) -> &[HopperGuard] {
        if mode == 0 {
            &[HopperGuard::Touchdown]
        } else {
            &[HopperGuard::LiftOff]
        }
    }
    fn describe(&self, _mode: usize, guard: HopperGuard) -> GuardSpec {
        match guard {
            HopperGuard::Touchdown => GuardSpec::to(1).falling(),
            HopperGuard::LiftOff => GuardSpec::to(0).rising(),
        }
    }
    fn guard<D: Scalar>(&self, p: &[D], _mode: usize, guard: HopperGuard, x: &[D]) -> D {
        match guard {
            HopperGuard::Touchdown => x[1],
            HopperGuard::LiftOff => self.contact_multiplier(p, x),
        }
    }
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, guard: HopperGuard, x: &[D], out: &mut [D]) {
        out.copy_from_slice(x);
        match guard {
            HopperGuard::Touchdown => out[3] = x[3] * 0.0,
            HopperGuard::LiftOff => {}
        }
    }
    /// In flight the lower block is above the ground, `z_L ≥ 0`; on the ground the ground
    /// pushes, `−λ ≥ 0`.
    fn conditions(&self, _mode: usize) -> usize {
        1
    }
    fn condition_name(&self, mode: usize, _i: usize) -> String {
        if mode == 0 {
            "lower block above ground"
        } else {
            "ground force"
        }
        .into()
    }
    fn condition<D: Scalar>(&self, p: &[D], mode: usize, _i: usize, x: &[D]) -> D {
        if mode == 0 {
            x[1]
        } else {
            -self.contact_multiplier(p, x)
        }
    }
    /// On the ground the lower block rests on it: `z_L = 0` and `ż_L = 0`.
    fn state_residual(&self, _p: &[f64], mode: usize, x: &[f64]) -> Option<(String, f64)> {
        if mode == 0 {
            return None;
        }
        Some(if x[1].abs() >= x[3].abs() {
            ("z_L on the ground".into(), x[1])
        } else {
            ("dz_L on the ground".into(), x[3])
        })
    }
    fn reduced_dim(&self) -> usize {
        2
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x.copy_from_slice(&[u[0], D::from(0.0), u[1], D::from(0.0)]);
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u.copy_from_slice(&[x[0], x[2]]);
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<HopperGuard>> {
        Some(self)
    }
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<HopperGuard>> {
        Some(self)
    }
    fn affine_modes(&self) -> Option<&dyn AffineModes> {
        Some(self)
    }
}

/// Both phases are linear spring-damper motions under gravity.
impl AffineModes for HopperUnconstrained {
    fn jacobian_is_constant(&self, _mode: usize) -> bool {
        true
    }
}

impl FlowJacobian for HopperUnconstrained {
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
        let (mu_, ml) = (m_upper(p), m_lower(p));
        let (k, d) = (p[K], if mode == 0 { p[D_F] } else { p[D_G] });
        jac.fill(0.0);
        jac[2] = 1.0;
        jac[7] = 1.0;
        jac[8..12].copy_from_slice(&[-k / mu_, k / mu_, -d / mu_, d / mu_]);
        if mode == 0 {
            jac[12..16].copy_from_slice(&[k / ml, -k / ml, d / ml, -d / ml]);
        }
    }
}

impl GuardGradient<HopperGuard> for HopperUnconstrained {
    fn guard_gradient(
        &self,
        p: &[f64],
        _mode: usize,
        guard: HopperGuard,
        _x: &[f64],
        grad: &mut [f64],
    ) {
        match guard {
            HopperGuard::Touchdown => grad.copy_from_slice(&[0.0, 1.0, 0.0, 0.0]),
            HopperGuard::LiftOff => grad.copy_from_slice(&[p[K], -p[K], p[D_G], -p[D_G]]),
        }
    }
}

impl ResetJacobian<HopperGuard> for HopperUnconstrained {
    fn reset_jacobian(
        &self,
        _p: &[f64],
        _mode: usize,
        guard: HopperGuard,
        _x: &[f64],
        jac: &mut [f64],
    ) {
        saltation_hybrid::identity(jac, 4);
        match guard {
            HopperGuard::Touchdown => jac[15] = 0.0,
            HopperGuard::LiftOff => {}
        }
    }
}
