//! Central finite-difference Jacobians, for checking variational (exact) Jacobians.
//!
//! For `f: ℝⁿ → ℝᵐ` and a step `h > 0`,
//!
//! ```text
//! J_ij ≈ (f_i(x + h e_j) − f_i(x − h e_j)) / 2h,
//! ```
//!
//! with truncation error `h²/6 · ∂³f_i/∂x_j³ = O(h²)` and rounding error about `ε·|f|/h`,
//! so `h ≈ (3ε)^{1/3}·scale ≈ 1e-5…1e-6` balances the two for functions computed to full
//! precision (for `f` from an integrator with tolerance `tol`, about `tol^{1/3}`).
//! The denominator is the difference of the two perturbed coordinates as actually represented,
//! `(x_j + h) − (x_j − h)`, which removes the representation error of the step
//! (Nocedal and Wright, *Numerical Optimization*, 2nd ed., §8.1). Costs `2n` evaluations.

use nalgebra::{DMatrix, DVector};
use thiserror::Error;

/// Errors of [`central_difference`].
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum FdError<E> {
    /// The step is not a positive finite number.
    #[error("finite-difference step must be positive and finite, got {step}")]
    InvalidStep {
        /// The step that was given.
        step: f64,
    },
    /// The point has a NaN or infinite coordinate.
    #[error("coordinate {index} of the point is not finite")]
    NonFinitePoint {
        /// Index of the offending coordinate.
        index: usize,
    },
    /// `f` returned vectors of different lengths at different points.
    #[error("f returned a vector of length {found}, expected {expected} (column {column})")]
    InconsistentOutput {
        /// Length of the first output.
        expected: usize,
        /// Length of the offending output.
        found: usize,
        /// Column (coordinate) being differenced.
        column: usize,
    },
    /// `f` itself failed.
    #[error("function evaluation failed: {0}")]
    Function(E),
}

/// Central-difference Jacobian `∂f/∂x` (size `m × n`) at `x` with the absolute step `step`.
///
/// Errors: [`FdError::InvalidStep`] for `step ≤ 0` or non-finite, [`FdError::NonFinitePoint`],
/// [`FdError::InconsistentOutput`] if `f` changes its output length, [`FdError::Function`]
/// wrapping an error of `f`. For `n = 0` the result is `0 × 0` (no evaluation).
pub fn central_difference<E>(
    mut f: impl FnMut(&DVector<f64>) -> Result<DVector<f64>, E>,
    x: &DVector<f64>,
    step: f64,
) -> Result<DMatrix<f64>, FdError<E>> {
    if !(step > 0.0 && step.is_finite()) {
        return Err(FdError::InvalidStep { step });
    }
    if let Some(index) = x.iter().position(|v| !v.is_finite()) {
        return Err(FdError::NonFinitePoint { index });
    }
    let n = x.len();
    let mut jac: Option<DMatrix<f64>> = None;
    let mut xp = x.clone();
    for j in 0..n {
        let xj = x[j];
        let plus = xj + step;
        let minus = xj - step;
        xp[j] = plus;
        let fp = f(&xp).map_err(FdError::Function)?;
        xp[j] = minus;
        let fm = f(&xp).map_err(FdError::Function)?;
        xp[j] = xj;
        let m = jac.as_ref().map_or(fp.len(), |jm| jm.nrows());
        for len in [fp.len(), fm.len()] {
            if len != m {
                return Err(FdError::InconsistentOutput {
                    expected: m,
                    found: len,
                    column: j,
                });
            }
        }
        let jm = jac.get_or_insert_with(|| DMatrix::zeros(m, n));
        let denom = plus - minus;
        jm.set_column(j, &((fp - fm) / denom));
    }
    Ok(jac.unwrap_or_else(|| DMatrix::zeros(0, 0)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    /// f(x, y) = (sin x · y, x² + exp(y), x y³); analytic Jacobian below.
    fn f(v: &DVector<f64>) -> Result<DVector<f64>, Infallible> {
        let (x, y) = (v[0], v[1]);
        Ok(DVector::from_vec(vec![
            x.sin() * y,
            x * x + y.exp(),
            x * y.powi(3),
        ]))
    }

    fn jac(v: &DVector<f64>) -> DMatrix<f64> {
        let (x, y) = (v[0], v[1]);
        DMatrix::from_row_slice(
            3,
            2,
            &[
                x.cos() * y,
                x.sin(),
                2.0 * x,
                y.exp(),
                y.powi(3),
                3.0 * x * y * y,
            ],
        )
    }

    #[test]
    fn matches_analytic_jacobian_with_second_order_error() {
        let x = DVector::from_vec(vec![0.7, -1.3]);
        let exact = jac(&x);
        let e1 = (central_difference(f, &x, 1e-2).unwrap() - &exact).amax();
        let e2 = (central_difference(f, &x, 5e-3).unwrap() - &exact).amax();
        // Halving h divides the O(h²) error by ~4.
        let ratio = e1 / e2;
        assert!((3.5..4.5).contains(&ratio), "ratio {ratio}");
        let best = (central_difference(f, &x, 1e-5).unwrap() - &exact).amax();
        assert!(best < 1e-9, "error {best}");
    }

    #[test]
    fn reports_bad_input_and_user_errors() {
        let x = DVector::from_vec(vec![1.0]);
        assert_eq!(
            central_difference(f, &x, 0.0),
            Err(FdError::InvalidStep { step: 0.0 })
        );
        assert_eq!(
            central_difference(f, &DVector::from_vec(vec![f64::NAN]), 1e-6),
            Err(FdError::NonFinitePoint { index: 0 })
        );
        let failing = |_: &DVector<f64>| -> Result<DVector<f64>, &'static str> { Err("guard") };
        assert_eq!(
            central_difference(failing, &x, 1e-6),
            Err(FdError::Function("guard"))
        );
        let mut calls = 0;
        let growing = |_: &DVector<f64>| -> Result<DVector<f64>, Infallible> {
            calls += 1;
            Ok(DVector::zeros(calls))
        };
        assert!(matches!(
            central_difference(growing, &x, 1e-6),
            Err(FdError::InconsistentOutput { .. })
        ));
    }

    #[test]
    fn empty_input_gives_empty_jacobian() {
        let j = central_difference(f, &DVector::zeros(0), 1e-6).unwrap();
        assert_eq!(j.shape(), (0, 0));
    }
}
