//! Eigenvalues of small dense real matrices (Floquet multipliers) and null vectors (critical
//! eigenvectors for branch switching).
//!
//! # Method (native backend)
//! For `A ∈ ℝⁿˣⁿ` (n up to a few tens):
//! 1. **Balancing**: eigenvalues isolated by permutation are read off the
//!    diagonal exactly; the rest is scaled by `D⁻¹ A D`, `D` a diagonal of powers of two
//!    (Parlett–Reinsch, as in LAPACK `dgebal`).
//! 2. **Hessenberg reduction** by Householder reflectors, `H = Qᵀ A Q`.
//! 3. **Francis implicit double-shift QR** with the Ahues–Tisseur deflation test, exceptional
//!    shifts and a hard iteration cap of `30·max(10, n)` sweeps per eigenvalue (LAPACK
//!    `dlahqr`); 2×2 blocks are split as in `dlanv2`.
//!
//! The computed eigenvalues are exact for some `A + E` with `‖E‖ ≈ c·n·ε·‖A‖` (backward
//! stability of the QR algorithm, Golub and Van Loan, *Matrix Computations*, 4th ed., §7.5.6).
//! The forward error of a simple eigenvalue λ is about `κ(λ)·‖E‖`, with `κ(λ) = 1/|yᴴx|` for unit
//! left/right eigenvectors `y, x`; for an eigenvalue in a Jordan block of size `k` it is about
//! `‖E‖^{1/k}`, which no backward-stable method can beat.
//!
//! nalgebra's own `complex_eigenvalues()` never returns on cyclic companion matrices
//! (nalgebra issue #611); it is not used. This implementation always returns, either the
//! eigenvalues or [`EigenError::NoConvergence`].
//!
//! # LAPACK backend
//! With the cargo feature `lapack`, [`EigenBackend::Lapack`] computes the eigenvalues with
//! LAPACK `dgeev` (through `nalgebra-lapack`, linked against the system OpenBLAS).
//!
//! # Null vectors
//! [`null_vector`] returns the right singular vector of the smallest singular value (SVD,
//! Golub–Kahan–Reinsch, with an iteration cap), the best unit vector `v` in the sense of
//! minimising `‖A v‖₂`; [`real_eigenvector`] applies it to `A − λI`, e.g. the eigenvector of the
//! multiplier −1 at a period doubling.

mod balance;
mod francis;
#[cfg(feature = "lapack")]
mod lapack;

use nalgebra::{Complex, DMatrix, DVector};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Errors of the eigenvalue and null-vector routines.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum EigenError {
    /// The matrix is not square.
    #[error("matrix is not square: {rows}×{cols}")]
    NotSquare {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// The matrix (or the shift) has a NaN or infinite entry.
    #[error("matrix entry ({row}, {col}) is not finite: {value}")]
    NonFinite {
        /// Row of the first non-finite entry.
        row: usize,
        /// Column of the first non-finite entry.
        col: usize,
        /// The entry.
        value: f64,
    },
    /// The QR iteration (or the SVD) hit its iteration cap.
    #[error("eigenvalue iteration did not converge after {iterations} iterations")]
    NoConvergence {
        /// Iterations performed before giving up.
        iterations: usize,
    },
    /// The requested backend was not compiled in (the `lapack` feature is off).
    #[error("eigenvalue backend {backend:?} is not available (enable the cargo feature `lapack`)")]
    BackendUnavailable {
        /// The backend that was asked for.
        backend: EigenBackend,
    },
    /// A LAPACK routine reported failure (`info ≠ 0`).
    #[error("LAPACK routine {routine} failed")]
    LapackFailed {
        /// Name of the routine.
        routine: &'static str,
    },
    /// A null vector of an empty matrix was requested, or the eigenvalues of a product of no
    /// factors.
    #[error("the matrix is empty")]
    Empty,
    /// A factor of a product ([`crate::product_eigenvalues`]) differs in size from the first.
    #[error("factor {index} of the product is {size}×{size}, the first is {expected}×{expected}")]
    FactorShape {
        /// Position of the factor (0: applied first).
        index: usize,
        /// Its size.
        size: usize,
        /// The first factor's size.
        expected: usize,
    },
}

/// Which implementation computes eigenvalues.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum EigenBackend {
    /// Pure-Rust balancing + Hessenberg + Francis double-shift QR (this module). Always available.
    #[default]
    Native,
    /// LAPACK `dgeev`; needs the cargo feature `lapack` (otherwise
    /// [`EigenError::BackendUnavailable`]).
    Lapack,
}

impl EigenBackend {
    /// Whether this backend was compiled in.
    pub fn is_available(self) -> bool {
        match self {
            EigenBackend::Native => true,
            EigenBackend::Lapack => cfg!(feature = "lapack"),
        }
    }

    /// All backends compiled into this build, [`EigenBackend::Native`] first.
    pub fn available() -> Vec<EigenBackend> {
        [EigenBackend::Native, EigenBackend::Lapack]
            .into_iter()
            .filter(|b| b.is_available())
            .collect()
    }
}

/// Checks that `m` is square with finite entries.
pub(crate) fn check_matrix(m: &DMatrix<f64>) -> Result<(), EigenError> {
    if m.nrows() != m.ncols() {
        return Err(EigenError::NotSquare {
            rows: m.nrows(),
            cols: m.ncols(),
        });
    }
    for col in 0..m.ncols() {
        for row in 0..m.nrows() {
            let value = m[(row, col)];
            if !value.is_finite() {
                return Err(EigenError::NonFinite { row, col, value });
            }
        }
    }
    Ok(())
}

/// Eigenvalues of the square real matrix `m` with the native backend, sorted by
/// [`sort_by_modulus`] (decreasing modulus). Complex eigenvalues come in exactly conjugate pairs.
pub fn eigenvalues(m: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, EigenError> {
    eigenvalues_with(m, EigenBackend::Native)
}

/// Eigenvalues of the square real matrix `m` with the chosen backend, sorted by
/// [`sort_by_modulus`].
pub fn eigenvalues_with(
    m: &DMatrix<f64>,
    backend: EigenBackend,
) -> Result<Vec<Complex<f64>>, EigenError> {
    if !backend.is_available() {
        return Err(EigenError::BackendUnavailable { backend });
    }
    check_matrix(m)?;
    if m.nrows() == 0 {
        return Ok(Vec::new());
    }
    let mut values = match backend {
        EigenBackend::Native => native_eigenvalues(m)?,
        #[cfg(feature = "lapack")]
        EigenBackend::Lapack => lapack::eigenvalues(m)?,
        #[cfg(not(feature = "lapack"))]
        EigenBackend::Lapack => return Err(EigenError::BackendUnavailable { backend }),
    };
    sort_by_modulus(&mut values);
    Ok(values)
}

/// Native pipeline: isolate, balance, Hessenberg, Francis QR.
fn native_eigenvalues(m: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, EigenError> {
    let isolated = balance::isolate(m);
    let mut values: Vec<Complex<f64>> = isolated
        .eigenvalues
        .iter()
        .map(|&re| Complex::new(re, 0.0))
        .collect();
    let k = isolated.active.len();
    if k > 0 {
        let mut b = DMatrix::from_fn(k, k, |i, j| m[(isolated.active[i], isolated.active[j])]);
        balance::scale(&mut b);
        francis::hessenberg(&mut b);
        let (wr, wi) =
            francis::hessenberg_eigenvalues(&mut b).map_err(|e| EigenError::NoConvergence {
                iterations: e.iterations,
            })?;
        values.extend(wr.iter().zip(&wi).map(|(&re, &im)| Complex::new(re, im)));
    }
    Ok(values)
}

/// Sorts by decreasing modulus; ties (equal modulus) by decreasing real part, then decreasing
/// imaginary part, so that a conjugate pair lists `+im` first and the order is deterministic.
pub fn sort_by_modulus(values: &mut [Complex<f64>]) {
    values.sort_by(|a, b| {
        b.norm()
            .total_cmp(&a.norm())
            .then(b.re.total_cmp(&a.re))
            .then(b.im.total_cmp(&a.im))
    });
}

/// Spectral radius `max |λᵢ|` (0 for an empty slice).
pub fn spectral_radius(values: &[Complex<f64>]) -> f64 {
    values.iter().fold(0.0, |r, v| r.max(v.norm()))
}

/// A unit vector `v` minimising `‖A v‖₂`, with the singular values that say how good it is.
#[derive(Debug, Clone, PartialEq)]
pub struct NullVector {
    /// Unit 2-norm vector; sign fixed so that its largest-magnitude entry is positive.
    pub vector: DVector<f64>,
    /// Smallest singular value `σ_min = ‖A v‖₂`; relative to [`NullVector::sigma_max`] it says
    /// how close `A` is to singular.
    pub sigma_min: f64,
    /// Second smallest singular value (`+∞` for a 1×1 matrix). A clear gap
    /// `sigma_next ≫ sigma_min` means the null space is one-dimensional and `vector` well
    /// determined.
    pub sigma_next: f64,
    /// Largest singular value `‖A‖₂`.
    pub sigma_max: f64,
}

/// Maximum number of SVD sweeps in [`null_vector`] (per singular value, as nalgebra counts).
const SVD_MAX_ITER: usize = 1000;

/// Right singular vector of the smallest singular value of the square matrix `m`.
pub fn null_vector(m: &DMatrix<f64>) -> Result<NullVector, EigenError> {
    check_matrix(m)?;
    let n = m.nrows();
    if n == 0 {
        return Err(EigenError::Empty);
    }
    let svd = nalgebra::SVD::try_new(m.clone(), false, true, f64::EPSILON, SVD_MAX_ITER).ok_or(
        EigenError::NoConvergence {
            iterations: SVD_MAX_ITER,
        },
    )?;
    let sv = &svd.singular_values; // sorted in decreasing order
    let v_t = svd.v_t.as_ref().ok_or(EigenError::NoConvergence {
        iterations: SVD_MAX_ITER,
    })?;
    let mut vector: DVector<f64> = v_t.row(n - 1).transpose();
    let imax = vector.iamax();
    if vector[imax] < 0.0 {
        vector.neg_mut();
    }
    let norm = vector.norm();
    vector /= norm;
    Ok(NullVector {
        vector,
        sigma_min: sv[n - 1],
        sigma_next: if n >= 2 { sv[n - 2] } else { f64::INFINITY },
        sigma_max: sv[0],
    })
}

/// Eigenvector of `m` for the real eigenvalue `lambda`: [`null_vector`] of `m − λI`.
/// Use it with a multiplier computed by [`eigenvalues`] (or a known one such as −1 at a period
/// doubling); check [`NullVector::sigma_min`] against `sigma_max` to see that `λ` is indeed an
/// eigenvalue.
pub fn real_eigenvector(m: &DMatrix<f64>, lambda: f64) -> Result<NullVector, EigenError> {
    check_matrix(m)?;
    if !lambda.is_finite() {
        return Err(EigenError::NonFinite {
            row: 0,
            col: 0,
            value: lambda,
        });
    }
    let n = m.nrows();
    let shifted = m - DMatrix::<f64>::identity(n, n) * lambda;
    null_vector(&shifted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_input() {
        let m = DMatrix::from_row_slice(1, 2, &[1.0, 2.0]);
        assert_eq!(
            eigenvalues(&m),
            Err(EigenError::NotSquare { rows: 1, cols: 2 })
        );
        let mut m = DMatrix::<f64>::identity(3, 3);
        m[(2, 1)] = f64::NAN;
        assert!(matches!(
            eigenvalues(&m),
            Err(EigenError::NonFinite { row: 2, col: 1, .. })
        ));
        assert_eq!(eigenvalues(&DMatrix::zeros(0, 0)), Ok(vec![]));
        assert_eq!(null_vector(&DMatrix::zeros(0, 0)), Err(EigenError::Empty));
    }

    #[test]
    fn lapack_availability_matches_feature() {
        assert_eq!(
            EigenBackend::Lapack.is_available(),
            cfg!(feature = "lapack")
        );
        if !cfg!(feature = "lapack") {
            let m = DMatrix::<f64>::identity(2, 2);
            assert_eq!(
                eigenvalues_with(&m, EigenBackend::Lapack),
                Err(EigenError::BackendUnavailable {
                    backend: EigenBackend::Lapack
                })
            );
        }
    }

    #[test]
    fn sorting_is_by_decreasing_modulus() {
        let mut v = vec![
            Complex::new(0.1, 0.0),
            Complex::new(0.0, -2.0),
            Complex::new(0.0, 2.0),
            Complex::new(-1.0, 0.0),
        ];
        sort_by_modulus(&mut v);
        assert_eq!(v[0], Complex::new(0.0, 2.0));
        assert_eq!(v[1], Complex::new(0.0, -2.0));
        assert_eq!(v[2], Complex::new(-1.0, 0.0));
        assert_eq!(spectral_radius(&v), 2.0);
    }
}
