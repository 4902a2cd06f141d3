//! The hopper in the paper's constrained form (Zana, Bodor, Bencsik & Zelei 2018, §2.1,
//! eqs. 1–10): four particles `z1..z4` on a vertical line, the upper block split into
//! `m1 = μ_U m_U`, `m2 = (1 − μ_U) m_U` and the lower into `m3 = μ_L m_L`, `m4 = (1 − μ_L) m_L`,
//! held together by the bilateral constraints `γ_b = [z1 − z2, z3 − z4]`; the spring and damper
//! act between particles 2 and 3; the ground is the unilateral contact `γ_g = z4`. Built with
//! the constrained-mechanics layer: accelerations, multipliers, the impact projection and the
//! saltation matrices all come from these few lines. The split ratios are arbitrary: results
//! do not depend on them.

use super::params::{
    HopperParams, D_F, D_F_DECL, D_G, D_G_DECL, G, G_DECL, K, K_DECL, L0, L0_DECL, M, MU, MU_DECL,
    M_DECL,
};
use saltation_hybrid::{Bound, Param, ParamError, Scalar};
use saltation_mechanics::{Constrained, ContactSet, MechanicalSystem, Section};

/// Mode of the constrained hopper in flight (no contact closed).
pub const FLIGHT: usize = 0;
/// Mode on the ground (the foot contact closed).
pub const GROUND: usize = 1;

/// Index of the split of the upper block `μ_U = m1 / m_U` in the constrained hopper's
/// parameter vector (after those of [`super::PARAMS`]).
pub const MU_U: usize = 7;
/// Index of the split of the lower block `μ_L = m3 / m_L`.
pub const MU_L: usize = 8;

/// The constrained hopper's parameters: those of [`super::PARAMS`] (same order, names, defaults
/// and ranges), then the mass splits `mu_U` ([`MU_U`]) and `mu_L` ([`MU_L`]), each in (0, 1),
/// default 0.5.
pub const PARTICLE_PARAMS: &[Param] = &[
    G_DECL,
    M_DECL,
    MU_DECL,
    K_DECL,
    D_F_DECL,
    D_G_DECL,
    L0_DECL,
    Param::new("mu_U", 0.5)
        .open_range(0.0, 1.0)
        .described("in (0, 1) (share of a block's mass)"),
    Param::new("mu_L", 0.5)
        .open_range(0.0, 1.0)
        .described("in (0, 1) (share of a block's mass)"),
];

/// The four particles of the constrained hopper (its mechanics; the parameters are
/// [`PARTICLE_PARAMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HopperParticles;

impl HopperParticles {
    /// The constrained hopper at the physical parameters `p` with the mass splits `μ_U`,
    /// `μ_L` (checked).
    pub fn bound(
        p: &HopperParams,
        mu_upper: f64,
        mu_lower: f64,
    ) -> Result<Bound<Hopper>, ParamError> {
        let mut values = p.values().to_vec();
        values.extend([mu_upper, mu_lower]);
        Bound::with_values(Hopper::default(), values)
    }
    /// Particle masses `m1..m4` at the parameter values `p` (in the order of
    /// [`PARTICLE_PARAMS`]).
    pub fn masses(p: &[f64]) -> [f64; 4] {
        masses(p)
    }
}

/// Particle masses `m1..m4` at the parameter values `p`.
fn masses<D: Scalar>(p: &[D]) -> [D; 4] {
    let (m, mu, mu_u, mu_l) = (p[M], p[MU], p[MU_U], p[MU_L]);
    let (m_upper, m_lower) = (mu * m, -(mu - 1.0) * m);
    [
        mu_u * m_upper,
        -(mu_u - 1.0) * m_upper,
        mu_l * m_lower,
        -(mu_l - 1.0) * m_lower,
    ]
}

impl MechanicalSystem for HopperParticles {
    fn name(&self) -> &str {
        "hopper"
    }
    fn dofs(&self) -> usize {
        4
    }
    fn params(&self) -> &[Param] {
        PARTICLE_PARAMS
    }
    fn coordinate_names(&self) -> Vec<String> {
        ["z1", "z2", "z3", "z4"].map(String::from).to_vec()
    }
    /// `H = diag(m1, m2, m3, m4)` (eq. 9).
    fn mass_matrix<D: Scalar>(&self, p: &[D], _q: &[D], h: &mut [D]) {
        h.fill(D::zero());
        for (i, mi) in masses(p).into_iter().enumerate() {
            h[i * 5] = mi;
        }
    }
    /// `C = [0, s, −s, 0] + g [m1, m2, m3, m4]` with the spring-damper force
    /// `s = k (z2 − z3 − L0) + d (ż2 − ż3)`, `d = d_F` in flight and `d_G` on the ground
    /// (eq. 10).
    fn forces<D: Scalar>(&self, p: &[D], closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]) {
        let (g, k, l0) = (p[G], p[K], p[L0]);
        let d = if closed.contains(0) { p[D_G] } else { p[D_F] };
        let s = (q[1] - q[2] - l0) * k + (qd[1] - qd[2]) * d;
        let m = masses(p);
        c[0] = m[0] * g;
        c[1] = s + m[1] * g;
        c[2] = -s + m[2] * g;
        c[3] = m[3] * g;
    }
    fn bilateral_count(&self) -> usize {
        2
    }
    /// `γ_b = [z1 − z2, z3 − z4]` (eq. 7).
    fn bilateral<D: Scalar>(&self, _p: &[D], q: &[D], gamma: &mut [D]) {
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
    fn gap<D: Scalar>(&self, _p: &[D], _i: usize, q: &[D]) -> D {
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
}

/// The constrained hopper as a hybrid model (what model files name `Hopper`, with its
/// parameters: `Bound<Hopper>`).
pub type Hopper = Constrained<HopperParticles>;
