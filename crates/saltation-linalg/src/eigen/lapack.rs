//! LAPACK backend: `dgeev` (balancing, Hessenberg reduction, multishift QR with aggressive
//! early deflation for large matrices, `dlahqr` for small ones) through `nalgebra-lapack`.
//! Only compiled with the cargo feature `lapack`; links the system OpenBLAS (see `build.rs`).

use super::EigenError;
use nalgebra::{Complex, DMatrix};

/// Eigenvalues of a square, finite, nonempty matrix by LAPACK `dgeev` (no eigenvectors).
pub(crate) fn eigenvalues(m: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, EigenError> {
    let eig = nalgebra_lapack::Eigen::new(m.clone(), false, false)
        .ok_or(EigenError::LapackFailed { routine: "dgeev" })?;
    Ok(eig
        .eigenvalues_re
        .iter()
        .zip(eig.eigenvalues_im.iter())
        .map(|(&re, &im)| Complex::new(re, im))
        .collect())
}
