//! # saltation-orbit
//!
//! Fixed points of stride maps and Floquet stability, the layer between hybrid flows and
//! continuation. This part is independent of hybrid systems:
//!
//! | I want to … | use |
//! |---|---|
//! | solve a square system `F(u) = 0` with its exact Jacobian | [`solve`] with a [`SquareSystem`] and [`NewtonOptions`] ([`DampedNewton`] is the argmin solver underneath) |
//! | … with cheap coarse evaluations far from the root | [`SquareSystem::coarse_until`], [`SquareSystem::refine`] |
//! | get Floquet multipliers of a monodromy / stride Jacobian | [`eigenvalues`] (pure Rust, never hangs) or [`eigenvalues_with`] and [`EigenBackend::Lapack`] (feature `lapack`) |
//! | order multipliers, get the spectral radius | [`sort_by_modulus`], [`spectral_radius`] |
//! | an eigenvector of a real multiplier (branch switching at −1) | [`real_eigenvector`], [`null_vector`] |
//! | decide stability, excluding trivial multipliers | [`is_stable`], [`is_stable_excluding`], [`Multiplier`] |
//! | check a Jacobian against finite differences | [`central_difference`] |
//! | find a periodic orbit of a hybrid model | [`find_periodic_orbit`] with [`OrbitOptions`] (checked by [`OrbitOptions::validate`]) |
//! | … of a very unstable orbit (multipliers over many orders) | [`OrbitOptions::shooting`] = [`Shooting::Multiple`] |
//! | eigenvalues of a product of matrices without forming it | [`product_eigenvalues`] |
//! | linearise the stride map in a parameter; the gait sensitivity norm | [`param_linearisation`], [`gait_sensitivity`] |
//!
//! Every module documents its method, equations and references. The eigenvalue routines are
//! those of `saltation-linalg`, re-exported here (also as the module [`eigen`]).
//!
//! ```
//! use nalgebra::{DMatrix, DVector};
//! use saltation_orbit::{eigenvalues, solve, spectral_radius, NewtonOptions, SquareSystem};
//!
//! /// Fixed point of the linear map u ↦ A u + b, as F(u) = A u + b − u = 0.
//! struct Affine {
//!     a: DMatrix<f64>,
//!     b: DVector<f64>,
//! }
//! impl SquareSystem for Affine {
//!     type Error = std::convert::Infallible;
//!     fn dim(&self) -> usize {
//!         self.b.len()
//!     }
//!     fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), Self::Error> {
//!         let n = self.dim();
//!         Ok((&self.a * u + &self.b - u, &self.a - DMatrix::identity(n, n)))
//!     }
//! }
//!
//! let map = Affine {
//!     a: DMatrix::from_row_slice(2, 2, &[0.0, 0.5, -0.5, 0.0]),
//!     b: DVector::from_vec(vec![1.0, 0.0]),
//! };
//! let report = solve(&map, &DVector::zeros(2), &NewtonOptions::default()).unwrap();
//! assert!(report.residual_norm <= 1e-12);
//! // Floquet multipliers of the fixed point: eigenvalues of the map's Jacobian A = J + I.
//! let jac = &report.jacobian + DMatrix::identity(2, 2);
//! let mu = eigenvalues(&jac).unwrap(); // ±0.5 i
//! assert!((spectral_radius(&mu) - 0.5).abs() < 1e-15);
//! ```

#![warn(missing_docs)]
// Range checks are written `!(x > 0.0)` on purpose: they reject NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod accuracy;
pub mod admissibility;
pub mod fd;
pub mod fixed_point;
pub mod lyapunov;
pub mod newton;
pub mod sensitivity;
pub mod stability;

pub use accuracy::{multiplier_accuracy, MultiplierAccuracy};
pub use admissibility::orbit_admissibility;
pub use fd::{central_difference, FdError};
pub use fixed_point::multiple::{
    joined_events, matching_conditions, SegmentPlan, SetupError as ShootingSetupError,
};
pub use fixed_point::{
    find_periodic_orbit, multipliers_of, reduced_map, reduced_residual, section_jacobian,
    stride_jacobian_fd, Degeneracy, OrbitError, OrbitOptions, OrbitOptionsError, PeriodicOrbit,
    Phase, Segments, Shooting, CHART_TOLERANCE, ISOLATION_FRACTION, MAX_PIECES_PER_PHASE,
    MAX_SHOOTING_UNKNOWNS,
};
pub use lyapunov::{lyapunov_exponents, LyapunovError, LyapunovSpectrum, MAX_LYAPUNOV_STRIDES};
pub use newton::{
    norm2, solve, Accuracy, Convergence, DampedNewton, NewtonError, NewtonFailure, NewtonOptions,
    NewtonOptionsError, NewtonReport, NewtonState, SquareSystem, MAX_NEWTON_ITERS,
};
pub use sensitivity::{
    gait_sensitivity, param_linearisation, GaitSensitivity, ParamLinearisation, SensitivityError,
};
pub use stability::{
    flag_trivial_unit, is_stable, is_stable_excluding, Multiplier, StabilityError,
};

// The eigenvalue routines are saltation-linalg's (below the integrators, so that the models use
// them without depending on this crate); they are public here under the same names, and their
// module as `eigen`.
pub use saltation_linalg::eigen;
pub use saltation_linalg::{
    eigenvalues, eigenvalues_with, null_vector, product_eigenvalues, real_eigenvector,
    sort_by_modulus, spectral_radius, EigenBackend, EigenError, NullVector,
};
