//! The eigenvalue routines are saltation-linalg's, re-exported under their old names and paths
//! (tested there); this checks that the re-exports are the same items and that this crate's
//! `lapack` feature turns on the LAPACK backend.

use nalgebra::DMatrix;
use saltation_orbit::eigen::NullVector;
use saltation_orbit::{
    eigenvalues, eigenvalues_with, null_vector, real_eigenvector, sort_by_modulus, spectral_radius,
    EigenBackend, EigenError,
};

#[test]
fn reexports_are_the_linalg_items() {
    let backend: saltation_linalg::EigenBackend = EigenBackend::Native;
    let _: fn(&DMatrix<f64>) -> Result<_, saltation_linalg::EigenError> = eigenvalues;
    let _: fn(&DMatrix<f64>, _) -> Result<_, saltation_linalg::EigenError> = eigenvalues_with;
    let _: fn(&DMatrix<f64>) -> Result<saltation_linalg::NullVector, EigenError> = null_vector;
    let _: fn(&DMatrix<f64>, f64) -> Result<NullVector, EigenError> = real_eigenvector;
    let a = DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 0.0, -3.0]);
    let mut mu = eigenvalues_with(&a, backend).unwrap();
    sort_by_modulus(&mut mu);
    assert_eq!(mu, saltation_linalg::eigenvalues(&a).unwrap());
    assert_eq!(spectral_radius(&mu), 3.0);
}

#[test]
fn lapack_feature_reaches_linalg() {
    assert_eq!(
        EigenBackend::Lapack.is_available(),
        cfg!(feature = "lapack")
    );
}
