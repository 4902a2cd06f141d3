//! Damped Newton method for square nonlinear systems `F(u) = 0`, `F: ℝⁿ → ℝⁿ`, with the exact
//! Jacobian, written as an argmin [`Solver`](argmin::core::Solver) ([`DampedNewton`]) and run
//! by argmin's `Executor` through the driver [`solve`].
//!
//! # Method
//! At the iterate `u_k` with residual `F_k = F(u_k)` and Jacobian `J_k = F'(u_k)`:
//! 1. Newton direction: solve `J_k δ = −F_k` by LU with partial pivoting of the equilibrated
//!    matrix `R J_k C` (`R`, `C` diagonal powers of two making every row and column of max-norm
//!    ≈ 1). A pivot below `8·n·ε` means `J_k` is singular to working precision
//!    ([`NewtonError::Singular`]).
//! 2. If `‖δ‖₂ ≤ xtol·(1 + ‖u_k‖₂)`, stop: converged on the step (the step is not taken, so the
//!    reported Jacobian is exactly the one at the solution).
//! 3. Backtracking (Armijo on `‖F‖₂`): `λ = 1, ½, ¼, …` until
//!    `‖F(u_k + λδ)‖₂ < (1 − αλ)‖F_k‖₂`; a NaN/∞ residual at a trial point counts as no
//!    decrease. Below `λ_min` the line search has failed ([`NewtonError::Diverged`]).
//! 4. `u_{k+1} = u_k + λδ`; stop when `‖F(u_{k+1})‖₂ ≤ ftol`, fail after `max_iters` steps
//!    ([`NewtonError::MaxIterations`]).
//!
//! Near a root with nonsingular, Lipschitz `J`, full steps are accepted and convergence is
//! quadratic, `‖F_{k+1}‖ ≤ C‖F_k‖²` (Dennis and Schnabel, *Numerical Methods for Unconstrained
//! Optimization and Nonlinear Equations*, SIAM 1996, Thm. 5.2.1; line search: their §6.3 and
//! Alg. A6.3.1). `δ` is a descent direction of `½‖F‖²` (`∇(½‖F‖²)·δ = −‖F‖²`), so the
//! sufficient-decrease test holds for small enough `λ`; `λ_min` bounds the work when it does not
//! (no root nearby, or `J` nearly singular).
//!
//! argmin's own `GaussNewtonLS` and `TrustRegion` are not used: the first solves the normal
//! equations and was seen to stop without moving, the second to take zero-length steps.
//!
//! # Errors of the user's system
//! [`SquareSystem::eval`] returns `(F(u), J(u))` or the user's typed error (e.g. "guard never
//! reached" from a hybrid flow). Such an error ends the solve as [`NewtonError::System`] with the
//! error value itself; it is kept in a slot outside argmin and never converted to a string.

mod bridge;
mod solver;

pub use solver::{Convergence, DampedNewton, NewtonFailure, NewtonState};

use argmin::core::{Executor, State, TerminationReason};
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A square nonlinear system `F(u) = 0` whose residual and Jacobian come from one evaluation
/// (as the stride map and its variational Jacobian come from one integration).
pub trait SquareSystem {
    /// The error an evaluation can return (e.g. an integration failure or a missed guard).
    type Error;

    /// Number of unknowns `n` (and of equations).
    fn dim(&self) -> usize;

    /// Residual `F(u) ∈ ℝⁿ` and Jacobian `∂F/∂u ∈ ℝⁿˣⁿ` at `u`.
    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), Self::Error>;
}

/// Options of the damped Newton method (also the RON/JSON schema; missing fields take their
/// defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewtonOptions {
    /// Converged when `‖F(u)‖₂ ≤ ftol` (units of `F`). Finite, `≥ 0`. Default `1e-12`.
    pub ftol: f64,
    /// Converged when the Newton step `‖δ‖₂ ≤ xtol·(1 + ‖u‖₂)` (relative). Finite, `≥ 0`.
    /// Default `1e-14`.
    pub xtol: f64,
    /// Maximum number of Newton steps. Default 50.
    pub max_iters: u64,
    /// Smallest damping factor `λ` the backtracking may try, in `(0, 1]`. Default `1/1024`.
    pub min_damping: f64,
    /// Armijo constant `α` of the sufficient-decrease test `‖F(u+λδ)‖ < (1 − αλ)‖F(u)‖`, in
    /// `[0, 1)`. Default `1e-4`.
    pub armijo: f64,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        Self {
            ftol: 1e-12,
            xtol: 1e-14,
            max_iters: 50,
            min_damping: 1.0 / 1024.0,
            armijo: 1e-4,
        }
    }
}

/// An option outside its valid range.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("invalid Newton option `{name}` = {value}: must be {requirement}")]
pub struct NewtonOptionsError {
    /// Field name.
    pub name: &'static str,
    /// Offending value.
    pub value: f64,
    /// The valid range, in words.
    pub requirement: &'static str,
}

impl NewtonOptions {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), NewtonOptionsError> {
        let check = |name, value: f64, ok: bool, requirement| {
            if ok {
                Ok(())
            } else {
                Err(NewtonOptionsError {
                    name,
                    value,
                    requirement,
                })
            }
        };
        check(
            "ftol",
            self.ftol,
            self.ftol >= 0.0 && self.ftol.is_finite(),
            "finite and >= 0",
        )?;
        check(
            "xtol",
            self.xtol,
            self.xtol >= 0.0 && self.xtol.is_finite(),
            "finite and >= 0",
        )?;
        check(
            "min_damping",
            self.min_damping,
            self.min_damping > 0.0 && self.min_damping <= 1.0,
            "in (0, 1]",
        )?;
        check(
            "armijo",
            self.armijo,
            (0.0..1.0).contains(&self.armijo),
            "in [0, 1)",
        )
    }
}

/// Result of a successful solve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewtonReport {
    /// The root `u*`.
    pub solution: DVector<f64>,
    /// `F(u*)`.
    pub residual: DVector<f64>,
    /// `‖F(u*)‖₂`.
    pub residual_norm: f64,
    /// `J(u*)`, from the same evaluation as `residual` (the Floquet matrix for shooting).
    pub jacobian: DMatrix<f64>,
    /// Number of Newton steps taken.
    pub iterations: usize,
    /// `‖F‖₂` at the initial guess and after every step (`iterations + 1` entries).
    pub residual_history: Vec<f64>,
    /// Damping `λ` of every step (`iterations` entries; 1 = full Newton step).
    pub dampings: Vec<f64>,
    /// Number of evaluations of the system (residual and Jacobian together).
    pub evaluations: usize,
    /// Which criterion stopped the iteration.
    pub converged_by: Convergence,
}

/// Why a solve failed. `iterate` fields hold the last accepted iterate.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum NewtonError<E> {
    /// The options are invalid.
    #[error(transparent)]
    InvalidOptions(#[from] NewtonOptionsError),
    /// Wrong dimension of the initial guess, or of what the system returned.
    #[error("dimension mismatch in {what}: expected {expected:?}, found {found:?}")]
    DimensionMismatch {
        /// `"initial guess"`, `"residual"` or `"jacobian"`.
        what: &'static str,
        /// Expected `(rows, cols)`.
        expected: (usize, usize),
        /// Actual `(rows, cols)`.
        found: (usize, usize),
    },
    /// The initial guess has a NaN or infinite entry.
    #[error("initial guess entry {index} is not finite")]
    NonFiniteGuess {
        /// Index of the offending entry.
        index: usize,
    },
    /// The Newton matrix is singular to working precision (or not finite).
    #[error("singular Newton matrix at iteration {iteration}")]
    Singular {
        /// The iterate where `J` is singular.
        iterate: DVector<f64>,
        /// Newton steps completed before.
        iteration: usize,
    },
    /// The line search failed, or the residual at the initial guess is not finite.
    #[error("Newton diverged at iteration {iteration} (residual {residual:e})")]
    Diverged {
        /// The last accepted iterate.
        iterate: DVector<f64>,
        /// `‖F‖₂` there.
        residual: f64,
        /// Newton steps completed before.
        iteration: usize,
    },
    /// No convergence within `max_iters` steps.
    #[error("Newton did not converge in {iterations} iterations (residual {residual:e})")]
    MaxIterations {
        /// The last iterate.
        iterate: DVector<f64>,
        /// `‖F‖₂` there.
        residual: f64,
        /// Steps taken.
        iterations: usize,
    },
    /// The user's system returned an error; the solve stopped there.
    #[error("system evaluation failed: {0}")]
    System(E),
    /// argmin reported something this driver does not produce (a bug, not a user error).
    #[error("internal error in the Newton driver: {message}")]
    Internal {
        /// argmin's description.
        message: String,
    },
}

/// Solves `F(u) = 0` from `u0` by the damped Newton method (see the module documentation).
pub fn solve<S: SquareSystem>(
    system: &S,
    u0: &DVector<f64>,
    options: &NewtonOptions,
) -> Result<NewtonReport, NewtonError<S::Error>> {
    options.validate()?;
    let n = system.dim();
    if u0.len() != n {
        return Err(NewtonError::DimensionMismatch {
            what: "initial guess",
            expected: (n, 1),
            found: (u0.len(), 1),
        });
    }
    if let Some(index) = u0.iter().position(|v| !v.is_finite()) {
        return Err(NewtonError::NonFiniteGuess { index });
    }
    let shared = bridge::Shared::new();
    let problem = bridge::SystemProblem::new(system, &shared);
    let max_iters = options.max_iters;
    let outcome = Executor::new(problem, DampedNewton::new(options.clone()))
        .configure(|state| state.param(u0.clone()).max_iters(max_iters))
        .run();
    let evaluations = shared.evaluations.get();
    let result = match outcome {
        Ok(result) => result,
        Err(err) => {
            return Err(match shared.failure.into_inner() {
                Some(bridge::Failure::User(e)) => NewtonError::System(e),
                Some(bridge::Failure::Shape {
                    what,
                    expected,
                    found,
                }) => NewtonError::DimensionMismatch {
                    what,
                    expected,
                    found,
                },
                None => NewtonError::Internal {
                    message: err.to_string(),
                },
            })
        }
    };
    let solver = result.solver();
    let state = result.state();
    let iterate = state.get_param().cloned().unwrap_or_else(|| u0.clone());
    let residual = state.get_cost();
    let iteration = solver.residual_history().len().saturating_sub(1);
    match state.get_termination_reason() {
        Some(TerminationReason::SolverConverged) => {
            let (Some(res), Some(jac)) = (state.get_residuals(), state.get_jacobian()) else {
                return Err(NewtonError::Internal {
                    message: "converged state without residual or Jacobian".to_string(),
                });
            };
            Ok(NewtonReport {
                solution: iterate,
                residual: res.clone(),
                residual_norm: residual,
                jacobian: jac.clone(),
                iterations: iteration,
                residual_history: solver.residual_history().to_vec(),
                dampings: solver.dampings().to_vec(),
                evaluations,
                converged_by: solver.convergence().unwrap_or(Convergence::Residual),
            })
        }
        Some(TerminationReason::MaxItersReached) => Err(NewtonError::MaxIterations {
            iterate,
            residual,
            iterations: iteration,
        }),
        _ => Err(match solver.failure() {
            Some(NewtonFailure::Singular { iteration })
            | Some(NewtonFailure::NonFiniteJacobian { iteration }) => {
                NewtonError::Singular { iterate, iteration }
            }
            Some(NewtonFailure::LineSearch { iteration })
            | Some(NewtonFailure::NonFiniteResidual { iteration }) => NewtonError::Diverged {
                iterate,
                residual,
                iteration,
            },
            None => NewtonError::Internal {
                message: format!(
                    "unexpected termination: {:?}",
                    state.get_termination_reason()
                ),
            },
        }),
    }
}
