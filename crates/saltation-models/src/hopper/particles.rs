//! The hopper in the paper's constrained form (Zana, Bodor, Bencsik & Zelei 2018, §2.1,
//! eqs. 1–10): four particles `z1..z4` on a vertical line, the upper block split into
//! `m1 = μ_U m_U`, `m2 = (1 − μ_U) m_U` and the lower into `m3 = μ_L m_L`, `m4 = (1 − μ_L) m_L`,
//! held together by the bilateral constraints `γ_b = [z1 − z2, z3 − z4]`; the spring and damper
//! act between particles 2 and 3; the ground is the unilateral contact `γ_g = z4`. Built with
//! the constrained-mechanics layer: accelerations, multipliers, the impact projection and the
//! saltation matrices all come from these few lines. The split ratios are arbitrary: results
//! do not depend on them.

use super::HopperParams;
use saltation_hybrid::{check_range, param_scalars, ParamError, Scalar};
use saltation_mechanics::{Constrained, ContactSet, MechanicalSystem, Section};
use serde::{Deserialize, Serialize};

/// Mode of the constrained hopper in flight (no contact closed).
pub const FLIGHT: usize = 0;
/// Mode on the ground (the foot contact closed).
pub const GROUND: usize = 1;

/// Parameters of the constrained hopper: those of [`HopperParams`] plus the mass splits.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct HopperParticles {
    /// Gravity `g` (m/s²).
    pub g: f64,
    /// Total mass `m` (kg).
    pub m: f64,
    /// Upper share of the mass `μ`.
    pub mu: f64,
    /// Spring stiffness `k` (N/m).
    pub k: f64,
    /// Flight damping `d_F` (N s/m).
    pub d_F: f64,
    /// Ground damping `d_G` (N s/m).
    pub d_G: f64,
    /// Spring rest length `L0` (m).
    pub L0: f64,
    /// Split of the upper block `μ_U = m1 / m_U` (in (0, 1); default 0.5).
    pub mu_U: f64,
    /// Split of the lower block `μ_L = m3 / m_L` (in (0, 1); default 0.5).
    pub mu_L: f64,
}

impl Default for HopperParticles {
    fn default() -> Self {
        Self::from_params(HopperParams::default(), 0.5, 0.5)
    }
}

impl HopperParticles {
    /// The particles of a hopper with splits `μ_U`, `μ_L`.
    pub fn from_params(p: HopperParams, mu_upper: f64, mu_lower: f64) -> Self {
        Self {
            g: p.g,
            m: p.m,
            mu: p.mu,
            k: p.k,
            d_F: p.d_f,
            d_G: p.d_g,
            L0: p.l0,
            mu_U: mu_upper,
            mu_L: mu_lower,
        }
    }
    /// The physical parameters (without the splits).
    pub fn params(&self) -> HopperParams {
        HopperParams {
            g: self.g,
            m: self.m,
            mu: self.mu,
            k: self.k,
            d_f: self.d_F,
            d_g: self.d_G,
            l0: self.L0,
        }
    }
    /// Particle masses `m1..m4`.
    pub fn masses(&self) -> [f64; 4] {
        masses(&self.scalars::<f64>(None))
    }
    /// The parameters in the order of [`MechanicalSystem::param_names`] as scalars, with
    /// parameter `k` replaced by `p` when given.
    fn scalars<D: Scalar>(&self, with: Option<(usize, D)>) -> [D; PARAMS] {
        let values = std::array::from_fn(|i| self.param_value(i).unwrap_or(f64::NAN));
        param_scalars(values, with)
    }
    /// `H = diag(m1, m2, m3, m4)` (eq. 9) at the parameters `p`.
    fn mass_matrix_at<D: Scalar>(p: &[D; PARAMS], h: &mut [D]) {
        h.fill(D::zero());
        for (i, mi) in masses(p).into_iter().enumerate() {
            h[i * 5] = mi;
        }
    }
    /// `C = [0, s, −s, 0] + g [m1, m2, m3, m4]` with the spring-damper force
    /// `s = k (z2 − z3 − L0) + d (ż2 − ż3)`, `d = d_F` in flight and `d_G` on the ground
    /// (eq. 10), at the parameters `p`.
    fn forces_at<D: Scalar>(p: &[D; PARAMS], closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]) {
        let [g, _, _, k, d_f, d_g, l0, _, _] = *p;
        let d = if closed.contains(0) { d_g } else { d_f };
        let s = (q[1] - q[2] - l0) * k + (qd[1] - qd[2]) * d;
        let m = masses(p);
        c[0] = m[0] * g;
        c[1] = s + m[1] * g;
        c[2] = -s + m[2] * g;
        c[3] = m[3] * g;
    }
}

/// Number of parameters: `g, m, mu, k, d_F, d_G, L0, mu_U, mu_L`.
const PARAMS: usize = 9;

/// Particle masses `m1..m4` of the parameters `[g, m, mu, k, d_F, d_G, L0, mu_U, mu_L]`.
fn masses<D: Scalar>(p: &[D; PARAMS]) -> [D; 4] {
    let [_, m, mu, _, _, _, _, mu_u, mu_l] = *p;
    let (m_upper, m_lower) = (mu * m, -(mu - 1.0) * m);
    [
        mu_u * m_upper,
        -(mu_u - 1.0) * m_upper,
        mu_l * m_lower,
        -(mu_l - 1.0) * m_lower,
    ]
}

impl MechanicalSystem for HopperParticles {
    saltation_hybrid::named_params!(
        "g" => g, "m" => m, "mu" => mu, "k" => k, "d_F" => d_F, "d_G" => d_G, "L0" => L0,
        "mu_U" => mu_U, "mu_L" => mu_L,
    );
    fn name(&self) -> &str {
        "hopper"
    }
    fn dofs(&self) -> usize {
        4
    }
    fn coordinate_names(&self) -> Vec<String> {
        ["z1", "z2", "z3", "z4"].map(String::from).to_vec()
    }
    /// `H = diag(m1, m2, m3, m4)` (eq. 9).
    fn mass_matrix<D: Scalar>(&self, _q: &[D], h: &mut [D]) {
        Self::mass_matrix_at(&self.scalars(None), h)
    }
    /// `C = [0, s, −s, 0] + g [m1, m2, m3, m4]`, `s = k (z2 − z3 − L0) + d (ż2 − ż3)` (eq. 10).
    fn forces<D: Scalar>(&self, closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]) {
        Self::forces_at(&self.scalars(None), closed, q, qd, c)
    }
    /// Every parameter enters through the masses and forces only.
    fn param_derivatives(&self, k: usize) -> bool {
        k < PARAMS
    }
    fn mass_matrix_with_param<D: Scalar>(&self, k: usize, p: D, _q: &[D], h: &mut [D]) {
        Self::mass_matrix_at(&self.scalars(Some((k, p))), h)
    }
    fn forces_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        closed: ContactSet,
        q: &[D],
        qd: &[D],
        c: &mut [D],
    ) {
        Self::forces_at(&self.scalars(Some((k, p))), closed, q, qd, c)
    }
    fn bilateral_count(&self) -> usize {
        2
    }
    /// `γ_b = [z1 − z2, z3 − z4]` (eq. 7).
    fn bilateral<D: Scalar>(&self, q: &[D], gamma: &mut [D]) {
        gamma[0] = q[0] - q[1];
        gamma[1] = q[2] - q[3];
    }
    fn contact_count(&self) -> usize {
        1
    }
    fn contact_name(&self, _i: usize) -> String {
        "foot".into()
    }
    /// `γ_g = z4` (eq. 8).
    fn gap<D: Scalar>(&self, _i: usize, q: &[D]) -> D {
        q[3]
    }
    /// `γ_b` and `γ_g` are linear in `q`.
    fn constraints_are_linear(&self) -> bool {
        true
    }
    /// `H = diag(m1, m2, m3, m4)` does not depend on `q`.
    fn mass_matrix_is_constant(&self) -> bool {
        true
    }
    /// Gravity and the spring-damper force `s` are affine in `(q, q̇)` in both modes.
    fn forces_are_linear(&self) -> bool {
        true
    }
    fn mode_name(&self, closed: ContactSet) -> String {
        if closed.is_empty() {
            "flight"
        } else {
            "ground"
        }
        .into()
    }
    /// Shooting at lift-off (the paper's choice, §3.4): all constraints hold, so the state is
    /// fixed by `(z1, ż1)`.
    fn section(&self) -> Option<Section> {
        Some(Section {
            closed: ContactSet::NONE.with(0),
            independent: vec![0],
            guess: Vec::new(),
        })
    }
    fn check_params(&self) -> Result<(), ParamError> {
        self.params().check()?;
        for (name, v) in [("mu_U", self.mu_U), ("mu_L", self.mu_L)] {
            check_range(
                name,
                v,
                v > 0.0 && v < 1.0,
                "in (0, 1) (share of a block's mass)",
            )?;
        }
        Ok(())
    }
}

/// The constrained hopper as a hybrid model (what model files name `Hopper`).
pub type Hopper = Constrained<HopperParticles>;
