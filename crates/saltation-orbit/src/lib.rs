//! # saltation-orbit
//!
//! Fixed points of stride maps and Floquet stability, the layer between hybrid flows and
//! continuation. This part is independent of hybrid systems:
//!
//! | I want to … | use |
//! |---|---|
//! | solve a square system `F(u) = 0` with its exact Jacobian | [`solve`] with a [`SquareSystem`] and [`NewtonOptions`] ([`DampedNewton`] is the argmin solver underneath) |
//! | get Floquet multipliers of a monodromy / stride Jacobian | [`eigenvalues`] (pure Rust, never hangs) or [`eigenvalues_with`] and [`EigenBackend::Lapack`] (feature `lapack`) |
//! | order multipliers, get the spectral radius | [`sort_by_modulus`], [`spectral_radius`] |
//! | an eigenvector of a real multiplier (branch switching at −1) | [`real_eigenvector`], [`null_vector`] |
//! | decide stability, excluding trivial multipliers | [`is_stable`], [`is_stable_excluding`], [`Multiplier`] |
//! | check a Jacobian against finite differences | [`central_difference`] |
//!
//! Every module documents its method, equations and references.

#![warn(missing_docs)]

pub mod eigen;
pub mod fd;
pub mod newton;
pub mod stability;

pub use eigen::{
    eigenvalues, eigenvalues_with, null_vector, real_eigenvector, sort_by_modulus,
    spectral_radius, EigenBackend, EigenError, NullVector,
};
pub use fd::{central_difference, FdError};
pub use newton::{
    solve, Convergence, DampedNewton, NewtonError, NewtonFailure, NewtonOptions,
    NewtonOptionsError, NewtonReport, NewtonState, SquareSystem,
};
pub use stability::{
    flag_trivial_unit, is_stable, is_stable_excluding, Multiplier, StabilityError,
};
