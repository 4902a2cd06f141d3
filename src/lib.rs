//! # Saltation
//!
//! Periodic orbits and Floquet stability of hybrid dynamical systems — systems whose smooth motion
//! is interrupted by impacts or mode switches (passive walkers, hopping robots, constrained
//! multibody models). Multipliers come from exact variational equations and saltation matrices,
//! not finite differences.
//!
//! This facade re-exports the layers so research code depends on one crate:
//! - [`ode`]: integrators (explicit Runge–Kutta pairs, dense output, event location).
//! - [`hybrid`]: the hybrid-model trait, variational equations, saltation matrices, stride maps.
//! - [`orbit`]: Newton shooting for fixed points, Floquet multipliers, finite-difference checks.
//! - [`models`]: the models of the papers (rimless wheel, simplest walker, …), models written as
//!   equations, and RON model files.
//! - [`equations`]: the expression language of equation models (parser, compiled programs).
//! - [`continuation`]: branches in a parameter, bifurcations, branch switching, sweeps.
//! - [`plot`]: figures (Floquet plots, multipliers in the complex plane, time series, …); feature
//!   `plot`, on by default (`default-features = false` leaves plotters out).
//!
//! ## Define your own hybrid model, find its orbit, read its multipliers
//!
//! A ball kicked at every bounce, `v⁺ = −e v⁻ + c`: between bounces `x'' = −g`; the stride map on
//! the section `x = 0` is `v ↦ e v + c`, so the orbit has `v* = c / (1 − e)`, period `2 v*/g` and
//! the nontrivial multiplier `e` (the reset also collapses `x`, which gives a multiplier 0).
//!
//! ```
//! use saltation::hybrid::{GuardInfo, HybridModel, Scalar};
//! use saltation::ode::Direction;
//! use saltation::orbit::{find_periodic_orbit, OrbitOptions};
//!
//! struct KickedBall {
//!     e: f64,
//!     c: f64,
//! }
//!
//! impl HybridModel for KickedBall {
//!     fn name(&self) -> &str {
//!         "kicked_ball"
//!     }
//!     fn dim(&self) -> usize {
//!         2 // [height x, velocity v]
//!     }
//!     // Written once for any scalar: Jacobians come from automatic differentiation.
//!     fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
//!         dx[0] = x[1];
//!         dx[1] = D::from(-9.81);
//!     }
//!     fn guards(&self, _mode: usize) -> usize {
//!         1
//!     }
//!     fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
//!         x[0] // the ground
//!     }
//!     fn guard_info(&self, _mode: usize, _j: usize) -> GuardInfo {
//!         GuardInfo { direction: Direction::Falling, target: 0 }
//!     }
//!     fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
//!         out[0] = D::from(0.0);
//!         out[1] = -x[1] * self.e + self.c;
//!     }
//!     // The section x = 0 has one reduced coordinate, u = [v].
//!     fn reduced_dim(&self) -> usize {
//!         1
//!     }
//!     fn chart(&self, u: &[f64], x: &mut [f64]) {
//!         x.copy_from_slice(&[0.0, u[0]]);
//!     }
//!     fn chart_jacobian(&self, _u: &[f64], jac: &mut [f64]) {
//!         jac.copy_from_slice(&[0.0, 1.0]);
//!     }
//!     fn project(&self, x: &[f64], u: &mut [f64]) {
//!         u[0] = x[1];
//!     }
//!     fn project_jacobian(&self, _x: &[f64], jac: &mut [f64]) {
//!         jac.copy_from_slice(&[0.0, 1.0]);
//!     }
//! }
//!
//! let ball = KickedBall { e: 0.5, c: 2.0 };
//! let orbit = find_periodic_orbit(&ball, &[1.0], &OrbitOptions::default()).unwrap();
//! assert!((orbit.x0[1] - 4.0).abs() < 1e-10); // v* = c / (1 − e)
//! assert!((orbit.period - 8.0 / 9.81).abs() < 1e-10); // 2 v* / g
//! let mu = &orbit.multipliers; // by decreasing modulus: {e, 0}
//! assert!((mu[0].re - 0.5).abs() < 1e-10 && mu[1].modulus() < 1e-10);
//! assert!(orbit.stable);
//! ```
//!
//! ## Continue an orbit in a parameter
//!
//! A family of models is any `Fn(f64) -> Result<Model, ParamError>`. Here the rimless wheel is
//! continued in its slope `α` (pseudo-arclength, multipliers and bifurcation tests at every
//! point), and each point is checked against the closed form.
//!
//! ```
//! use saltation::continuation::{continue_branch, ContinuationOptions, EndReason, Start};
//! use saltation::hybrid::ParamError;
//! use saltation::models::{RimlessWheel, RimlessWheelParams};
//!
//! let family = |alpha: f64| -> Result<RimlessWheel, ParamError> {
//!     Ok(RimlessWheel { params: RimlessWheelParams { alpha, ..Default::default() } })
//! };
//! let mut opts = ContinuationOptions::default();
//! (opts.p_min, opts.p_max, opts.step) = (0.2, 0.4, 0.02);
//! let start = Start { param: 0.2, u: vec![0.5], label: "rolling".into(), period_k: 1 };
//! let branch = continue_branch(&family, &start, &opts, &mut |_| {}).unwrap();
//! assert_eq!(branch.end, EndReason::ParameterBound);
//! for p in &branch.points {
//!     let exact = family(p.param).unwrap().analytic_fixed_point().unwrap();
//!     assert!((p.x0[1] - exact[1]).abs() < 1e-9);
//!     assert!((p.multipliers[0].re - 4.0 / 9.0).abs() < 1e-9); // μ² for every slope
//! }
//! assert!(branch.bifurcations.is_empty());
//! ```
#![warn(missing_docs)]

pub use saltation_continuation as continuation;
pub use saltation_equations as equations;
pub use saltation_hybrid as hybrid;
pub use saltation_mechanics as mechanics;
pub use saltation_models as models;
pub use saltation_ode as ode;
pub use saltation_orbit as orbit;
#[cfg(feature = "plot")]
pub use saltation_plot as plot;

/// The README's code blocks, compiled as doctests so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
