//! Parameters of the vertical hopper (Zana, Bodor, Bencsik & Zelei 2018, §2 and §4.2): their
//! declarations, shared by both forms ([`PARAMS`]; the constrained form adds its mass splits),
//! and [`HopperParams`], the same values as a record for the closed-form reference.

use saltation_hybrid::{param, Limit, Param, ParamError};
use serde::{Deserialize, Serialize};

/// Index of gravity `g` in the parameter vector.
pub const G: usize = 0;
/// Index of the total mass `m`.
pub const M: usize = 1;
/// Index of the upper share of the mass `μ`.
pub const MU: usize = 2;
/// Index of the spring stiffness `k`.
pub const K: usize = 3;
/// Index of the flight-phase damping `d_F`.
pub const D_F: usize = 4;
/// Index of the ground-phase damping `d_G`.
pub const D_G: usize = 5;
/// Index of the spring rest length `L0`.
pub const L0: usize = 6;

/// Gravity `g` (m/s², > 0).
pub(super) const G_DECL: Param = Param::new("g", 9.81)
    .above(Limit::Open(0.0))
    .described("g > 0 (gravity, m/s²)");
/// Total mass `m` (kg, > 0).
pub(super) const M_DECL: Param = Param::new("m", 75.0)
    .above(Limit::Open(0.0))
    .described("m > 0 (total mass, kg)");
/// Upper share of the mass `μ` (`m_U = μ m`, `m_L = (1 − μ) m`; in (0, 1)).
pub(super) const MU_DECL: Param = Param::new("mu", 0.8)
    .open_range(0.0, 1.0)
    .described("0 < mu < 1 (upper share of the mass)");
/// Spring stiffness `k` (N/m, > 0).
pub(super) const K_DECL: Param = Param::new("k", 15_000.0)
    .above(Limit::Open(0.0))
    .described("k > 0 (spring stiffness, N/m)");
/// Flight-phase damping `d_F` (N s/m, ≥ 0).
pub(super) const D_F_DECL: Param = Param::new("d_F", 150.0)
    .above(Limit::Closed(0.0))
    .described("d_F ≥ 0 (flight damping, N s/m)");
/// Ground-phase damping `d_G` (N s/m; negative pumps energy in).
pub(super) const D_G_DECL: Param =
    Param::new("d_G", -80.0).described("a finite number (ground damping, N s/m)");
/// Spring rest length `L0` (m, ≥ 0).
pub(super) const L0_DECL: Param = Param::new("L0", 1.0)
    .above(Limit::Closed(0.0))
    .described("L0 ≥ 0 (spring rest length, m)");

/// The physical parameters shared by both forms, in the order of the index constants
/// ([`G`], [`M`], [`MU`], [`K`], [`D_F`], [`D_G`], [`L0`]). Names as in the paper: total mass
/// `m`, upper share `mu` (`m_U = μ m`, `m_L = (1 − μ) m`), spring `k` of rest length `L0`,
/// damper `d_F > 0` in flight and `d_G` on the ground (negative: an actuator that injects
/// energy), gravity `g`. Defaults: the set of §4.2 with `d_G = −80` N s/m (`D_G ≈ −0.0377`).
pub const PARAMS: &[Param] = &[G_DECL, M_DECL, MU_DECL, K_DECL, D_F_DECL, D_G_DECL, L0_DECL];

/// The physical parameters of [`PARAMS`] as a record: the input of the closed-form reference
/// ([`super::closed_form`]), and a convenient way to build either form at given values
/// ([`super::HopperUnconstrained::bound`], [`super::HopperParticles::bound`]). Defaults,
/// names and valid ranges are those of the declarations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HopperParams {
    /// Gravity `g` (m/s², > 0).
    pub g: f64,
    /// Total mass `m` (kg, > 0).
    pub m: f64,
    /// Upper share of the mass `μ` (in (0, 1)).
    pub mu: f64,
    /// Spring stiffness `k` (N/m, > 0).
    pub k: f64,
    /// Flight-phase damping `d_F` (N s/m, ≥ 0).
    #[serde(rename = "d_F")]
    pub d_f: f64,
    /// Ground-phase damping `d_G` (N s/m; negative pumps energy in).
    #[serde(rename = "d_G")]
    pub d_g: f64,
    /// Spring rest length `L0` (m, ≥ 0).
    #[serde(rename = "L0")]
    pub l0: f64,
}

impl Default for HopperParams {
    /// The declared defaults (§4.2 with `d_G = −80` N s/m).
    fn default() -> Self {
        Self::from_values(&param::defaults(PARAMS))
    }
}

impl HopperParams {
    /// The record of a parameter vector in the order of [`PARAMS`] (its first seven entries:
    /// the constrained form's vector, with the mass splits after them, does too).
    ///
    /// # Panics
    /// If `p` has fewer than seven entries.
    pub fn from_values(p: &[f64]) -> Self {
        Self {
            g: p[G],
            m: p[M],
            mu: p[MU],
            k: p[K],
            d_f: p[D_F],
            d_g: p[D_G],
            l0: p[L0],
        }
    }
    /// The values in the order of [`PARAMS`].
    pub fn values(&self) -> [f64; 7] {
        [self.g, self.m, self.mu, self.k, self.d_f, self.d_g, self.l0]
    }
    /// Upper mass `m_U = μ m`.
    pub fn m_upper(&self) -> f64 {
        self.mu * self.m
    }
    /// Lower mass `m_L = (1 − μ) m`.
    pub fn m_lower(&self) -> f64 {
        (1.0 - self.mu) * self.m
    }
    /// Dimensionless ground damping `D_G = d_G / (2 √(k m))` (the paper's `d_G / (2 α m)`,
    /// `α = √(k/m)`).
    pub fn ground_damping_ratio(&self) -> f64 {
        self.d_g / (2.0 * (self.k * self.m).sqrt())
    }
    /// `d_G` for a given `D_G`.
    pub fn d_g_for(&self, ratio: f64) -> f64 {
        ratio * 2.0 * (self.k * self.m).sqrt()
    }
    /// Checks every parameter against its declaration ([`PARAMS`]).
    pub fn check(&self) -> Result<(), ParamError> {
        param::check_values(PARAMS, &self.values())
    }
}
