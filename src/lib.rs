//! # Saltation
//!
//! Periodic orbits and Floquet stability of hybrid dynamical systems — systems whose smooth motion
//! is interrupted by impacts or mode switches (passive walkers, hopping robots, constrained
//! multibody models).
//!
//! This facade re-exports the layers so research code depends on one crate:
//! - [`ode`]: integrators (explicit Runge–Kutta pairs, dense output, event location).
//! - [`hybrid`]: the hybrid-model trait, variational equations, saltation matrices, stride maps.
//! - [`orbit`]: Newton shooting for fixed points, Floquet multipliers, finite-difference checks.
//! - [`models`]: the models of the papers (rimless wheel, simplest walker, …).
//! - [`plot`]: figures (Floquet plots, multipliers in the complex plane, time series, …).
#![warn(missing_docs)]

pub use saltation_hybrid as hybrid;
pub use saltation_models as models;
pub use saltation_ode as ode;
pub use saltation_orbit as orbit;
pub use saltation_plot as plot;
