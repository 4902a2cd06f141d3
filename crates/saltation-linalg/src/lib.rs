//! # saltation-linalg
//!
//! Dense linear algebra for the layers above the integrators, on nalgebra matrices. It knows
//! nothing of ODEs, hybrid models or orbits, so every crate that needs it (the orbit layer for
//! Floquet multipliers, the models for the stiffness of a linearization) can depend on it
//! without depending on each other.
//!
//! | I want to … | use |
//! |---|---|
//! | eigenvalues of a small square real matrix | [`eigenvalues`] (pure Rust, never hangs) or [`eigenvalues_with`] and [`EigenBackend::Lapack`] (feature `lapack`) |
//! | order eigenvalues, get the spectral radius | [`sort_by_modulus`], [`spectral_radius`] |
//! | an eigenvector of a real eigenvalue | [`real_eigenvector`], [`null_vector`] |
//! | eigenvalues of a product `A_K ⋯ A_1` without forming it (moduli over many orders) | [`product_eigenvalues`] |
//!
//! The method and its references are in the module docs of [`eigen`].
//!
//! ```
//! use nalgebra::DMatrix;
//! use saltation_linalg::{eigenvalues, spectral_radius};
//!
//! // A rotation by 90° scaled by 1/2: eigenvalues ±0.5 i.
//! let a = DMatrix::from_row_slice(2, 2, &[0.0, 0.5, -0.5, 0.0]);
//! let mu = eigenvalues(&a).unwrap();
//! assert!((spectral_radius(&mu) - 0.5).abs() < 1e-15);
//! assert_eq!(mu[0].im, -mu[1].im);
//! ```

#![warn(missing_docs)]

pub mod eigen;
pub mod product;

pub use eigen::{
    eigenvalues, eigenvalues_with, null_vector, real_eigenvector, sort_by_modulus, spectral_radius,
    EigenBackend, EigenError, NullVector,
};
pub use product::product_eigenvalues;
