//! # Saltation
//!
//! Periodic orbits and Floquet stability of hybrid dynamical systems — systems whose smooth motion
//! is interrupted by impacts or mode switches (passive walkers, hopping robots, constrained
//! multibody models). Multipliers come from exact variational equations and saltation matrices,
//! not finite differences.
//!
//! This facade re-exports the layers so research code depends on one crate:
//! - [`linalg`]: eigenvalues of small real matrices (pure-Rust Francis QR, LAPACK optional) and
//!   null vectors.
//! - [`ode`]: integrators behind one [`ode::Method`] name each — explicit Runge–Kutta methods
//!   and pairs from Butcher tableaus, implicit methods (Radau IIA, NDF/BDF, Rosenbrock,
//!   trapezoid, TR-BDF2), the multistep Adams–Bashforth–Moulton — and the exact stepper of
//!   autonomous affine systems ([`ode::AffineExp`]); error control, dense output, event
//!   location, stiffness detection, stability functions.
//! - [`hybrid`]: the hybrid-model trait, Jacobians by automatic differentiation or by hand,
//!   variational equations, saltation matrices, stride maps, simulation traces.
//! - [`mechanics`]: constrained multibody systems with impacts (mass matrix, forces,
//!   constraints, contacts) turned into hybrid models.
//! - [`orbit`]: Newton shooting for fixed points, Floquet multipliers (the eigenvalue routines
//!   of [`linalg`], re-exported), stability, finite-difference checks.
//! - [`models`]: the models of the papers (rimless wheel, simplest walker, hoppers, monopod, …),
//!   the stiff test problems (ROBER, VDPOL, HIRES, OREGO) and models written as equations.
//! - [`scenario`]: RON model files — a model with its guesses, orbit settings, continuation
//!   script and initial state, checked on load with every mistake at its line and column.
//! - [`equations`]: the expression language of equation models (parser, compiled programs).
//! - [`continuation`]: branches in a parameter, bifurcations, branch switching, sweeps, orbit
//!   diagrams.
//! - [`plot`]: figures (Floquet plots, multipliers in the complex plane, time series, …); feature
//!   `plot`, on by default (`default-features = false` leaves plotters out).
//! - [`report`]: the output layer of the `saltation` command — its JSON objects, CSV tables,
//!   text summaries and figures of continuation results, orbit diagrams and simulations, and the
//!   monopod solver study (the `saltation-report` crate); feature `plot`.
//!
//! ## Define your own hybrid model, find its orbit, read its multipliers
//!
//! A ball kicked at every bounce, `v⁺ = −e v⁻ + c`: between bounces `x'' = −g`; the stride map on
//! the section `x = 0` is `v ↦ e v + c`, so the orbit has `v* = c / (1 − e)`, period `2 v*/g` and
//! the nontrivial multiplier `e` (the reset also collapses `x`, which gives a multiplier 0).
//!
//! ```
//! use saltation::hybrid::{Bound, GuardSpec, HybridModel, Param, Scalar};
//! use saltation::orbit::{find_periodic_orbit, OrbitOptions};
//!
//! /// The ball's equations; the numbers are its parameters, declared once.
//! struct KickedBall;
//!
//! const PARAMS: &[Param] = &[
//!     Param::new("e", 0.5).range(0.0, 1.0), // restitution
//!     Param::new("c", 2.0),                 // kick
//! ];
//! const E: usize = 0; // p[E] is e in every formula
//! const C: usize = 1;
//!
//! /// Its guards: one, the ground.
//! #[derive(Debug, Clone, Copy, PartialEq, Eq)]
//! enum Ground {
//!     Bounce,
//! }
//!
//! impl HybridModel for KickedBall {
//!     type Guard = Ground;
//!     fn name(&self) -> &str {
//!         "kicked_ball"
//!     }
//!     fn dim(&self) -> usize {
//!         2 // [height x, velocity v]
//!     }
//!     fn params(&self) -> &[Param] {
//!         PARAMS
//!     }
//!     // Written once for any scalar, the parameter values `p` too: Jacobians and parameter
//!     // derivatives come from automatic differentiation.
//!     fn flow<D: Scalar>(&self, _p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
//!         dx[0] = x[1];
//!         dx[1] = D::from(-9.81);
//!     }
//!     fn guards(&self, _mode: usize) -> &[Ground] {
//!         &[Ground::Bounce]
//!     }
//!     // The bounce counts when the height falls through zero; mode 0 follows.
//!     fn describe(&self, _mode: usize, g: Ground) -> GuardSpec {
//!         match g {
//!             Ground::Bounce => GuardSpec::to(0).falling(),
//!         }
//!     }
//!     fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: Ground, x: &[D]) -> D {
//!         match g {
//!             Ground::Bounce => x[0], // the ground
//!         }
//!     }
//!     fn reset<D: Scalar>(&self, p: &[D], _mode: usize, g: Ground, x: &[D], out: &mut [D]) {
//!         match g {
//!             Ground::Bounce => {
//!                 out[0] = D::from(0.0);
//!                 out[1] = -x[1] * p[E] + p[C];
//!             }
//!         }
//!     }
//!     // The section x = 0 has one reduced coordinate, u = [v].
//!     fn reduced_dim(&self) -> usize {
//!         1
//!     }
//!     // Chart and projection are generic too: their Jacobians come from automatic
//!     // differentiation.
//!     fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
//!         x[0] = D::from(0.0);
//!         x[1] = u[0];
//!     }
//!     fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
//!         u[0] = x[1];
//!     }
//! }
//!
//! // The equations with their parameter values (here the defaults; `Bound::with_named` or
//! // `set("e", 0.6)` change them, checked against the declared ranges).
//! let ball = Bound::new(KickedBall);
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
//! A family of models is one named parameter of a model ([`continuation::ParamFamily`]: `∂F/∂p`
//! exact when the model gives its dependence on the parameter, as built-in and equation models
//! do) or any `Fn(f64) -> Result<Model, ParamError>` (`∂F/∂p` by central differences; an `Err`
//! rejects a value, and the branch ends there). Here the rimless wheel is continued in its slope
//! `α` (pseudo-arclength, multipliers and bifurcation tests at every point), and each point is
//! checked against the closed form.
//!
//! ```
//! use saltation::continuation::{continue_branch, ContinuationOptions, EndReason, ParamFamily, Start};
//! use saltation::hybrid::{with_param, Bound};
//! use saltation::models::RimlessWheel;
//! use saltation::orbit::OrbitOptions;
//!
//! let family = ParamFamily::new(Bound::<RimlessWheel>::default(), "alpha").unwrap();
//! let mut opts = ContinuationOptions::default();
//! (opts.p_min, opts.p_max, opts.step) = (0.2, 0.4, 0.02);
//! let start = Start::new(0.2, vec![0.5]).labelled("rolling");
//! // The orbits' stride, Newton and eigenvalue settings go beside the continuation's own.
//! let branch = continue_branch(&family, &start, &OrbitOptions::default(), &opts).unwrap();
//! assert_eq!(branch.end, EndReason::ParameterBound);
//! for p in &branch.points {
//!     let wheel = with_param(family.base(), "alpha", p.param).unwrap();
//!     let exact = RimlessWheel::analytic_fixed_point(wheel.values()).unwrap();
//!     assert!((p.x0[1] - exact[1]).abs() < 1e-9);
//!     assert!((p.multipliers[0].re - 4.0 / 9.0).abs() < 1e-9); // μ² for every slope
//! }
//! assert!(branch.bifurcations.is_empty());
//! ```
//!
//! ## Switch branches at a period doubling
//!
//! The simplest walker's stable gait loses stability in a period doubling as the slope grows
//! (Garcia et al. 1998). Continuation finds it (a multiplier through −1); switching follows the
//! period-2 gait born there, whose two states the stride map swaps.
//!
//! ```
//! use saltation::continuation::{
//!     continue_branch, switch_period_doubling, BifurcationKind, ContinuationOptions,
//!     ParamFamily, Start,
//! };
//! use saltation::hybrid::Bound;
//! use saltation::models::SimplestWalker;
//! use saltation::ode::SolverOptions;
//! use saltation::orbit::OrbitOptions;
//!
//! let family = ParamFamily::new(Bound::<SimplestWalker>::default(), "gamma").unwrap();
//! let mut orbit = OrbitOptions::default();
//! orbit.stride.ode = SolverOptions::with_tol(1e-10);
//! let mut opts = ContinuationOptions::default();
//! (opts.p_max, opts.step, opts.max_step) = (0.0165, 1e-3, 2e-3);
//! let start = Start::new(0.009, vec![0.2, -0.2]).labelled("stable gait");
//! let branch = continue_branch(&family, &start, &orbit, &opts).unwrap();
//! let pd = branch
//!     .bifurcations
//!     .iter()
//!     .find(|b| b.kind == BifurcationKind::PeriodDoubling)
//!     .unwrap();
//! assert!(pd.multipliers.iter().any(|m| (m.re + 1.0).abs() < 1e-6));
//!
//! // One pseudo-arclength step of the doubled stride map along the critical eigenvector.
//! let switched = switch_period_doubling(&family, pd, 1, &orbit, &opts).unwrap();
//! let opts2 = ContinuationOptions {
//!     direction: switched.direction,
//!     step: switched.step,
//!     max_points: 8,
//!     ..opts.clone()
//! };
//! let period2 = continue_branch(&family, &switched.start, &orbit, &opts2).unwrap();
//! assert_eq!(period2.period_k, 2);
//! assert!(period2.points.len() > 1);
//! ```
#![warn(missing_docs)]

pub use saltation_continuation as continuation;
pub use saltation_equations as equations;
pub use saltation_hybrid as hybrid;
pub use saltation_linalg as linalg;
pub use saltation_mechanics as mechanics;
pub use saltation_models as models;
pub use saltation_ode as ode;
pub use saltation_orbit as orbit;
#[cfg(feature = "plot")]
pub use saltation_plot as plot;
#[cfg(feature = "plot")]
pub use saltation_report as report;
pub use saltation_scenario as scenario;

/// The README's code blocks, compiled as doctests so the README cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
