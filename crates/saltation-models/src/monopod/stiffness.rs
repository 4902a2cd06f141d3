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

use super::{Monopod, FOUR_PI_SQ};
use nalgebra::DMatrix;
use saltation_linalg::{eigenvalues, EigenError};

/// Coefficients `[1, a3, a2, a1, a0]` of a quartic `λ⁴ + a3 λ³ + a2 λ² + a1 λ + a0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharacteristicPolynomial(pub [f64; 5]);

impl CharacteristicPolynomial {
    /// The stance system's polynomial at toe depth `|y1|^1.5 = r` (module docs).
    pub fn at_depth(m: &Monopod, r: f64) -> Self {
        let c = FOUR_PI_SQ - m.m1;
        let r3 = r.cbrt();
        Self([
            1.0,
            m.b * r,
            FOUR_PI_SQ + 1.5 * c * m.k * r3,
            m.m1 * m.b * r,
            1.5 * c * m.k * m.m1 * r3,
        ])
    }

    /// The study's eq. (31), written as printed:
    /// `λ⁴ + (4π² b* f*/(k* m1*)) λ³ + (4π² + 1.5 c k* (4π² f*/(k* m1*))^(1/3)) λ²
    ///  + (4π² b* f*/k*) λ + 1.5 (4π² f*)^(1/3) (k* m1*)^(2/3) c`.
    pub fn eq31(m: &Monopod) -> Self {
        let c = FOUR_PI_SQ - m.m1;
        let q = FOUR_PI_SQ * m.f / (m.k * m.m1);
        Self([
            1.0,
            FOUR_PI_SQ * m.b * m.f / (m.k * m.m1),
            FOUR_PI_SQ + 1.5 * c * m.k * q.cbrt(),
            FOUR_PI_SQ * m.b * m.f / m.k,
            1.5 * (FOUR_PI_SQ * m.f).cbrt() * (m.k * m.m1).powf(2.0 / 3.0) * c,
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
    /// The equilibrium with toe depth `|y1|^1.5 = r`: `[−r^(2/3), 0, −r^(2/3) + 1 − f*/m1*, 0]`.
    fn equilibrium_at_depth(&self, r: f64) -> [f64; 4] {
        let y1 = -r.powf(2.0 / 3.0);
        [y1, 0.0, y1 + 1.0 - self.f / self.m1, 0.0]
    }

    /// The study's equilibrium (29), `|y1|^1.5 = 4π² f*/(k* m1*)` (not a rest point of (18):
    /// see the module docs).
    pub fn equilibrium_eq29(&self) -> [f64; 4] {
        self.equilibrium_at_depth(FOUR_PI_SQ * self.f / (self.k * self.m1))
    }

    /// The true rest point of (18)–(19) in stance, `|y1|^1.5 = 4π² f*/(k* m1* (4π² − m1*))`.
    pub fn equilibrium(&self) -> [f64; 4] {
        self.equilibrium_at_depth(FOUR_PI_SQ * self.f / (self.k * self.m1 * (FOUR_PI_SQ - self.m1)))
    }

    /// Eigenvalues of the stance Jacobian at `q`.
    pub fn stance_eigenvalues(
        &self,
        q: &[f64; 4],
    ) -> Result<Vec<nalgebra::Complex<f64>>, EigenError> {
        let mut jac = [0.0; 16];
        self.jacobian(true, q, &mut jac);
        eigenvalues(&DMatrix::from_row_slice(4, 4, &jac))
    }

    /// The stance system's stiffness at both equilibria.
    pub fn stiffness(&self) -> Result<Stiffness, EigenError> {
        let eq29 = self.equilibrium_eq29();
        let eq_true = self.equilibrium();
        let eigen_eq29 = self.stance_eigenvalues(&eq29)?;
        let eigen_true = self.stance_eigenvalues(&eq_true)?;
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
