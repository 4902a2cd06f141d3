//! The hopper in minimal coordinates (Zelei & Insperger 2018; Zana et al. 2018, §2 left panel
//! and §4.1): state `x = [z_U, z_L, ż_U, ż_L]`, written by hand as an independent check of
//! the constrained form.
//!
//! - Flight: `m_U z̈_U = −m_U g − s`, `m_L z̈_L = −m_L g + s`, `s = k(z_U − z_L − L0) + d_F(ż_U − ż_L)`.
//! - Ground (`z_L = ż_L = 0` held): `m_U z̈_U = −m_U g − k(z_U − z_L − L0) − d_G(ż_U − ż_L)`,
//!   `z̈_L = 0`; contact multiplier `λ = −m_L g + k(z_U − z_L − L0) + d_G(ż_U − ż_L)` (minus the
//!   upward ground force).
//! - Touchdown: `z_L` falls through 0; `ż_L⁺ = 0`. Lift-off: `λ` rises through 0; identity.
//! - Section: lift-off, reduced coordinates `u = (z_U, ż_U)`.

use super::HopperParams;
use saltation_hybrid::{EvalModel, Guard, ParamError, Scalar};
use serde::{Deserialize, Serialize};

/// The unconstrained two-block hopper.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HopperUnconstrained {
    /// Its parameters.
    pub params: HopperParams,
}

impl HopperUnconstrained {
    /// Ground contact multiplier `λ` at `x` (pushing: `λ < 0`).
    pub fn contact_multiplier<D: Scalar>(&self, x: &[D]) -> D {
        let p = &self.params;
        (x[0] - x[1] - p.l0) * p.k + (x[2] - x[3]) * p.d_g - p.m_lower() * p.g
    }
}

impl EvalModel for HopperUnconstrained {
    saltation_hybrid::named_params!("g" => params.g, "m" => params.m, "mu" => params.mu, "k" => params.k, "d_F" => params.d_f, "d_G" => params.d_g, "L0" => params.l0);
    autonomous!();
    fn name(&self) -> &str {
        "hopper_unconstrained"
    }
    fn dim(&self) -> usize {
        4
    }
    fn modes(&self) -> usize {
        2
    }
    fn mode_name(&self, mode: usize) -> String {
        if mode == 0 { "flight" } else { "ground" }.into()
    }
    fn flow<D: Scalar>(&self, mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let p = &self.params;
        let (mu_, ml) = (p.m_upper(), p.m_lower());
        dx[0] = x[2];
        dx[1] = x[3];
        if mode == 0 {
            let s = (x[0] - x[1] - p.l0) * p.k + (x[2] - x[3]) * p.d_f;
            dx[2] = -s / mu_ - p.g;
            dx[3] = s / ml - p.g;
        } else {
            let s = (x[0] - x[1] - p.l0) * p.k + (x[2] - x[3]) * p.d_g;
            dx[2] = -s / mu_ - p.g;
            dx[3] = x[3] * 0.0;
        }
    }
    fn guards(&self, _mode: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, mode: usize, _j: usize, x: &[D]) -> D {
        if mode == 0 {
            x[1]
        } else {
            self.contact_multiplier(x)
        }
    }
    fn describe_guard(&self, mode: usize, _j: usize) -> Guard<Self> {
        if mode == 0 {
            Guard::to(1).falling()
        } else {
            Guard::to(0).rising()
        }
    }
    fn reset<D: Scalar>(&self, mode: usize, _j: usize, x: &[D], out: &mut [D]) {
        out.copy_from_slice(x);
        if mode == 0 {
            out[3] = x[3] * 0.0;
        }
    }
    /// Both phases are linear spring-damper motions under gravity.
    fn flow_jacobian_is_constant(&self, _mode: usize) -> bool {
        true
    }
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn flow_jacobian(&self, mode: usize, _t: f64, _x: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.params;
        let (mu_, ml) = (p.m_upper(), p.m_lower());
        let d = if mode == 0 { p.d_f } else { p.d_g };
        jac.fill(0.0);
        jac[2] = 1.0;
        jac[7] = 1.0;
        jac[8..12].copy_from_slice(&[-p.k / mu_, p.k / mu_, -d / mu_, d / mu_]);
        if mode == 0 {
            jac[12..16].copy_from_slice(&[p.k / ml, -p.k / ml, d / ml, -d / ml]);
        }
        true
    }
    fn guard_gradient(&self, mode: usize, _j: usize, _x: &[f64], grad: &mut [f64]) -> bool {
        let p = &self.params;
        if mode == 0 {
            grad.copy_from_slice(&[0.0, 1.0, 0.0, 0.0]);
        } else {
            grad.copy_from_slice(&[p.k, -p.k, p.d_g, -p.d_g]);
        }
        true
    }
    fn reset_jacobian(&self, mode: usize, _j: usize, _x: &[f64], jac: &mut [f64]) -> bool {
        saltation_hybrid::identity(jac, 4);
        if mode == 0 {
            jac[15] = 0.0;
        }
        true
    }
    fn state_names(&self) -> Vec<String> {
        ["z_U", "z_L", "dz_U", "dz_L"].map(String::from).to_vec()
    }
    fn check_params(&self) -> Result<(), ParamError> {
        self.params.check()
    }
    fn reduced_dim(&self) -> usize {
        2
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x.copy_from_slice(&[u[0], D::from(0.0), u[1], D::from(0.0)]);
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u.copy_from_slice(&[x[0], x[2]]);
    }
}
