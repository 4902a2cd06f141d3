//! # Saltation
//!
//! Periodic orbits and Floquet stability of hybrid dynamical systems — systems whose smooth motion
//! is interrupted by impacts or mode switches (passive walkers, hopping robots, constrained
//! multibody models).
//!
//! This facade re-exports the layers so research code depends on one crate:
//! - [`ode`]: integrators (explicit Runge–Kutta pairs, dense output, event location).
#![warn(missing_docs)]

pub use saltation_ode as ode;
