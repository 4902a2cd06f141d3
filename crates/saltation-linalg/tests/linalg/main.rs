//! Integration tests of saltation-linalg, built as one test binary: [`eigen`] runs the
//! eigenvalue test set against every compiled backend, with the matrices and the deterministic
//! random numbers of [`common`].

mod common;

mod eigen;
