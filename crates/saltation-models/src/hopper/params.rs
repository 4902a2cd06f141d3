//! Parameters of the vertical hopper (Zana, Bodor, Bencsik & Zelei 2018, §2 and §4.2).

use saltation_hybrid::{check_range, ParamError};
use serde::{Deserialize, Serialize};

/// Physical parameters shared by both forms of the hopper. Names as in the paper: total mass
/// `m`, upper share `mu` (`m_U = μ m`, `m_L = (1 − μ) m`), spring `k` of rest length `L0`,
/// damper `d_F > 0` in flight and `d_G` on the ground (negative: an actuator that injects
/// energy), gravity `g`. Defaults: the set of §4.2 with `d_G = −80` N s/m (`D_G ≈ −0.0377`).
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
    fn default() -> Self {
        Self {
            g: 9.81,
            m: 75.0,
            mu: 0.8,
            k: 15_000.0,
            d_f: 150.0,
            d_g: -80.0,
            l0: 1.0,
        }
    }
}

impl HopperParams {
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
    /// Checks every parameter's physical range.
    pub fn check(&self) -> Result<(), ParamError> {
        check_range("g", self.g, self.g > 0.0, "g > 0 (gravity, m/s²)")?;
        check_range("m", self.m, self.m > 0.0, "m > 0 (total mass, kg)")?;
        check_range(
            "mu",
            self.mu,
            self.mu > 0.0 && self.mu < 1.0,
            "0 < mu < 1 (upper share of the mass)",
        )?;
        check_range("k", self.k, self.k > 0.0, "k > 0 (spring stiffness, N/m)")?;
        check_range(
            "d_F",
            self.d_f,
            self.d_f >= 0.0,
            "d_F ≥ 0 (flight damping, N s/m)",
        )?;
        check_range(
            "d_G",
            self.d_g,
            true,
            "a finite number (ground damping, N s/m)",
        )?;
        check_range(
            "L0",
            self.l0,
            self.l0 >= 0.0,
            "L0 ≥ 0 (spring rest length, m)",
        )
    }
}
