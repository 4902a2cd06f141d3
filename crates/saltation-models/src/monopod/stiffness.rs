//! Stiffness of the monopod's stance phase: the stiffness ratio
//! `SR = max |Re λ| / min |Re λ|` (the study's eq. 28) of the stance system linearized at an
//! equilibrium with the toe in the ground.
//!
//! At rest (`ẏ1 = ẏ2 = 0`) eq. (19) gives `y2 = y1 + 1 − f*/m1*`, and eq. (18) then
//! `c k* |y1|^0.5 y1 = −4π² f*/m1*` (`c = 4π² − m1*`), so the true equilibrium has
//!
//! ```text
//! |y1|^1.5 = 4π² f* / (k* m1* c).
//! ```
//!
//! The study's eq. (29) has `|y1|^1.5 = 4π² f*/(k* m1*)`: the factor `1/c` is missing, so its
//! toe sits `c^(2/3)` times deeper (11.2× for the nominal `m1* = 1.88`). With `r = |y1|^1.5`
//! the linearized stance system has the characteristic polynomial
//!
//! ```text
//! λ⁴ + b* r λ³ + (4π² + 1.5 c k* r^(1/3)) λ² + m1* b* r λ + 1.5 c k* m1* r^(1/3) = 0,
//! ```
//!
//! which at the eq. (29) depth is the study's eq. (31).

use super::{Monopod, B, F, FOUR_PI_SQ, K, M1};
use nalgebra::DMatrix;
use saltation_linalg::{eigenvalues, EigenError};

/// Coefficients `[1, a3, a2, a1, a0]` of a quartic `λ⁴ + a3 λ³ + a2 λ² + a1 λ + a0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharacteristicPolynomial(pub [f64; 5]);

impl CharacteristicPolynomial {
    /// The stance system's polynomial at toe depth `|y1|^1.5 = r` (module docs), at the
    /// parameter values `p`.
    pub fn at_depth(p: &[f64], r: f64) -> Self {
        let (b, m1, k) = (p[B], p[M1], p[K]);
        let c = FOUR_PI_SQ - m1;
        let r3 = r.cbrt();
        Self([
            1.0,
            b * r,
            FOUR_PI_SQ + 1.5 * c * k * r3,
            m1 * b * r,
            1.5 * c * k * m1 * r3,
        ])
    }

    /// The study's eq. (31), written as printed, at the parameter values `p`:
    /// `λ⁴ + (4π² b* f*/(k* m1*)) λ³ + (4π² + 1.5 c k* (4π² f*/(k* m1*))^(1/3)) λ²
    ///  + (4π² b* f*/k*) λ + 1.5 (4π² f*)^(1/3) (k* m1*)^(2/3) c`.
    pub fn eq31(p: &[f64]) -> Self {
        let (b, m1, k, f) = (p[B], p[M1], p[K], p[F]);
        let c = FOUR_PI_SQ - m1;
        let q = FOUR_PI_SQ * f / (k * m1);
        Self([
            1.0,
            FOUR_PI_SQ * b * f / (k * m1),
            FOUR_PI_SQ + 1.5 * c * k * q.cbrt(),
            FOUR_PI_SQ * b * f / k,
            1.5 * (FOUR_PI_SQ * f).cbrt() * (k * m1).powf(2.0 / 3.0) * c,
        ])
    }

    /// Its four roots, as the eigenvalues of the companion matrix.
    pub fn roots(&self) -> Result<Vec<nalgebra::Complex<f64>>, EigenError> {
        let a = self.0;
        let mut comp = DMatrix::zeros(4, 4);
        for i in 0..4 {
            comp[(0, i)] = -a[i + 1] / a[0];
        }
        for i in 1..4 {
            comp[(i, i - 1)] = 1.0;
        }
        eigenvalues(&comp)
    }
}

/// The stiffness of one parameter set at both equilibria.
#[derive(Debug, Clone, PartialEq)]
pub struct Stiffness {
    /// The study's equilibrium (29).
    pub eq29: [f64; 4],
    /// The true equilibrium of (18)–(19).
    pub eq_true: [f64; 4],
    /// Eigenvalues of the stance Jacobian at (29).
    pub eigen_eq29: Vec<nalgebra::Complex<f64>>,
    /// Eigenvalues of the stance Jacobian at the true equilibrium.
    pub eigen_true: Vec<nalgebra::Complex<f64>>,
    /// `SR` at (29).
    pub sr_eq29: f64,
    /// `SR` at the true equilibrium.
    pub sr_true: f64,
}

/// `SR = max |Re λ| / min |Re λ|` (eq. 28); infinite if some `Re λ = 0`.
pub fn stiffness_ratio(eigen: &[nalgebra::Complex<f64>]) -> f64 {
    let re = eigen.iter().map(|l| l.re.abs());
    let max = re.clone().fold(0.0, f64::max);
    let min = re.fold(f64::INFINITY, f64::min);
    max / min
}

impl Monopod {
    /// The equilibrium with toe depth `|y1|^1.5 = r` at the parameter values `p`:
    /// `[−r^(2/3), 0, −r^(2/3) + 1 − f*/m1*, 0]`.
    fn equilibrium_at_depth(p: &[f64], r: f64) -> [f64; 4] {
        let y1 = -r.powf(2.0 / 3.0);
        [y1, 0.0, y1 + 1.0 - p[F] / p[M1], 0.0]
    }

    /// The study's equilibrium (29) at the parameter values `p`, `|y1|^1.5 = 4π² f*/(k* m1*)`
    /// (not a rest point of (18): see the module docs).
    pub fn equilibrium_eq29(p: &[f64]) -> [f64; 4] {
        Self::equilibrium_at_depth(p, FOUR_PI_SQ * p[F] / (p[K] * p[M1]))
    }

    /// The true rest point of (18)–(19) in stance at the parameter values `p`,
    /// `|y1|^1.5 = 4π² f*/(k* m1* (4π² − m1*))`.
    pub fn equilibrium(p: &[f64]) -> [f64; 4] {
        Self::equilibrium_at_depth(p, FOUR_PI_SQ * p[F] / (p[K] * p[M1] * (FOUR_PI_SQ - p[M1])))
    }

    /// Eigenvalues of the stance Jacobian at `q`, at the parameter values `p`.
    pub fn stance_eigenvalues(
        p: &[f64],
        q: &[f64; 4],
    ) -> Result<Vec<nalgebra::Complex<f64>>, EigenError> {
        let mut jac = [0.0; 16];
        Self::jacobian(p, true, q, &mut jac);
        eigenvalues(&DMatrix::from_row_slice(4, 4, &jac))
    }

    /// The stance system's stiffness at both equilibria, at the parameter values `p`.
    pub fn stiffness(p: &[f64]) -> Result<Stiffness, EigenError> {
        let eq29 = Self::equilibrium_eq29(p);
        let eq_true = Self::equilibrium(p);
        let eigen_eq29 = Self::stance_eigenvalues(p, &eq29)?;
        let eigen_true = Self::stance_eigenvalues(p, &eq_true)?;
        Ok(Stiffness {
            sr_eq29: stiffness_ratio(&eigen_eq29),
            sr_true: stiffness_ratio(&eigen_true),
            eq29,
            eq_true,
            eigen_eq29,
            eigen_true,
        })
    }
}
