//! Floquet multipliers as plain data, and the stability test.
//!
//! A periodic orbit is (linearly, asymptotically) stable iff all its *nontrivial* Floquet
//! multipliers lie strictly inside the unit circle, `|μ| < 1`. Trivial multipliers are those the
//! problem forces: `+1` for the flow direction of an autonomous orbit's full-state monodromy
//! matrix, and zeros for the dimensions a stride map loses at a reset (zeros are inside the unit
//! circle and never decide stability). The caller says which multipliers are trivial, either by
//! flags ([`is_stable_excluding`]) or by the number of multipliers at `+1`
//! ([`flag_trivial_unit`], [`is_stable`]).

use nalgebra::Complex;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A Floquet multiplier `μ = re + i·im` (a plain serde struct for tables, JSON and RON).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Multiplier {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Multiplier {
    /// A multiplier from its real and imaginary parts.
    pub fn new(re: f64, im: f64) -> Self {
        Self { re, im }
    }

    /// Modulus `|μ|`.
    pub fn modulus(&self) -> f64 {
        self.re.hypot(self.im)
    }

    /// Argument `arg μ ∈ (−π, π]` in radians.
    pub fn arg(&self) -> f64 {
        self.im.atan2(self.re)
    }

    /// As a complex number.
    pub fn to_complex(&self) -> Complex<f64> {
        Complex::new(self.re, self.im)
    }
}

impl From<Complex<f64>> for Multiplier {
    fn from(c: Complex<f64>) -> Self {
        Self { re: c.re, im: c.im }
    }
}

impl From<Multiplier> for Complex<f64> {
    fn from(m: Multiplier) -> Self {
        m.to_complex()
    }
}

/// Errors of the stability helpers.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum StabilityError {
    /// Fewer multipliers within `tol` of `+1` than the caller declared trivial: the monodromy
    /// matrix is inaccurate or the orbit is not what was assumed.
    #[error("expected {expected} trivial multiplier(s) at +1 within {tol}, the nearest remaining is at distance {distance}")]
    TrivialNotFound {
        /// Number of trivial unit multipliers declared.
        expected: usize,
        /// The tolerance on `|μ − 1|`.
        tol: f64,
        /// Distance to `+1` of the nearest multiplier not yet flagged (`+∞` if none is left).
        distance: f64,
    },
    /// The flag slice does not match the multiplier slice.
    #[error("{flags} trivial flags for {multipliers} multipliers")]
    LengthMismatch {
        /// Number of multipliers.
        multipliers: usize,
        /// Number of flags.
        flags: usize,
    },
}

/// `true` iff every multiplier not flagged trivial has `|μ| < 1` (strictly).
pub fn is_stable_excluding(
    multipliers: &[Multiplier],
    trivial: &[bool],
) -> Result<bool, StabilityError> {
    if multipliers.len() != trivial.len() {
        return Err(StabilityError::LengthMismatch {
            multipliers: multipliers.len(),
            flags: trivial.len(),
        });
    }
    Ok(multipliers
        .iter()
        .zip(trivial)
        .all(|(m, &t)| t || m.modulus() < 1.0))
}

/// Flags the `count` multipliers nearest to `+1` as trivial, each required to satisfy
/// `|μ − 1| ≤ tol` (else [`StabilityError::TrivialNotFound`]).
pub fn flag_trivial_unit(
    multipliers: &[Multiplier],
    count: usize,
    tol: f64,
) -> Result<Vec<bool>, StabilityError> {
    let mut flags = vec![false; multipliers.len()];
    for _ in 0..count {
        let nearest = multipliers
            .iter()
            .enumerate()
            .filter(|(i, _)| !flags[*i])
            .map(|(i, m)| (i, (m.re - 1.0).hypot(m.im)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match nearest {
            Some((i, d)) if d <= tol => flags[i] = true,
            other => {
                return Err(StabilityError::TrivialNotFound {
                    expected: count,
                    tol,
                    distance: other.map_or(f64::INFINITY, |(_, d)| d),
                })
            }
        }
    }
    Ok(flags)
}

/// Stability with `trivial_unit` trivial multipliers at `+1` (0 for a reduced stride map, 1 for
/// the full-state monodromy of an autonomous orbit), located within `trivial_tol`:
/// [`flag_trivial_unit`] then [`is_stable_excluding`].
pub fn is_stable(
    multipliers: &[Multiplier],
    trivial_unit: usize,
    trivial_tol: f64,
) -> Result<bool, StabilityError> {
    let flags = flag_trivial_unit(multipliers, trivial_unit, trivial_tol)?;
    is_stable_excluding(multipliers, &flags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modulus_and_conversions() {
        let m = Multiplier::from(Complex::new(3.0, -4.0));
        assert_eq!(m.modulus(), 5.0);
        assert_eq!(Complex::from(m), Complex::new(3.0, -4.0));
        assert!((Multiplier::new(0.0, 1.0).arg() - std::f64::consts::FRAC_PI_2).abs() < 1e-15);
    }

    #[test]
    fn stability_with_and_without_trivial_multiplier() {
        let mu = [
            Multiplier::new(1.0 + 1e-10, 0.0),
            Multiplier::new(0.3, 0.4),
            Multiplier::new(0.3, -0.4),
            Multiplier::new(0.0, 0.0),
        ];
        // The +1 multiplier (slightly outside by rounding) decides unless excluded.
        assert_eq!(is_stable(&mu, 0, 1e-8), Ok(false));
        assert_eq!(is_stable(&mu, 1, 1e-8), Ok(true));
        assert!(matches!(
            is_stable(&mu, 2, 1e-8),
            Err(StabilityError::TrivialNotFound { expected: 2, .. })
        ));
        assert_eq!(
            is_stable_excluding(&mu, &[true, false, false, false]),
            Ok(true)
        );
        assert!(is_stable_excluding(&mu, &[true]).is_err());
        // Exactly on the unit circle is not stable.
        assert_eq!(is_stable(&[Multiplier::new(-1.0, 0.0)], 0, 0.0), Ok(false));
    }
}
