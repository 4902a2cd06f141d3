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
//!    `‖F(u_k + λδ)‖₂ < (1 − αλ)‖F_k‖₂`; a NaN/∞ residual or a failed evaluation (the system's
//!    error, e.g. a walker that falls) at a trial point counts as no decrease. Below `λ_min` the
//!    line search has failed ([`NewtonError::Diverged`]) — unless `‖F_k‖₂` is at the round-off
//!    floor, `‖F_k‖₂ ≤ 64·n·ε·max(1, ‖u_k‖₂)`: then nothing is left to decrease and `u_k` is
//!    the root to working precision ([`Convergence::RoundOff`], with the residual achieved;
//!    a tolerance below double precision is not an error).
//! 4. `u_{k+1} = u_k + λδ`; stop when `‖F(u_{k+1})‖₂ ≤ ftol·max(1, ‖u_{k+1}‖₂)`, fail after
//!    `max_iters` steps ([`NewtonError::MaxIterations`]).
//!
//! Near a root with nonsingular, Lipschitz `J`, full steps are accepted and convergence is
//! quadratic, `‖F_{k+1}‖ ≤ C‖F_k‖²` (Dennis and Schnabel, *Numerical Methods for Unconstrained
//! Optimization and Nonlinear Equations*, SIAM 1996, Thm. 5.2.1; line search: their §6.3 and
//! Alg. A6.3.1). `δ` is a descent direction of `½‖F‖²` (`∇(½‖F‖²)·δ = −‖F‖²`), so the
//! sufficient-decrease test holds for small enough `λ`; `λ_min` bounds the work when it does not
//! (no root nearby, or `J` nearly singular).
//!
//! # Inexact evaluations
//! A system may evaluate `F` coarsely while `‖F‖` is large (a stride integrated at a loose
//! tolerance: an error far below the residual cannot change the iteration; Dembo, Eisenstat and
//! Steihaug, "Inexact Newton methods", SIAM J. Numer. Anal. 19 (1982)). Its accuracy changes
//! only at accepted iterates and only when the solver asks ([`SquareSystem::refine`]), never
//! inside a line search, so the residuals a sufficient-decrease test compares always come from
//! the same accuracy. The solver switches to full accuracy when an accepted iterate's residual
//! is at most [`SquareSystem::coarse_until`], when the convergence test passes on a coarse
//! residual, and before it reports a failure (singular matrix, line search, small step) computed
//! from coarse evaluations; after switching it evaluates the current iterate again and goes on
//! from that. A reported solution, residual and Jacobian are therefore always at full accuracy.
//!
//! argmin's own `GaussNewtonLS` and `TrustRegion` are not used: the first solves the normal
//! equations and was seen to stop without moving, the second to take zero-length steps.
//!
//! # Errors of the user's system
//! [`SquareSystem::eval`] returns `(F(u), J(u))` or the user's typed error (e.g. "guard never
//! reached" from a hybrid flow). At a line-search trial point it only shrinks the step. At the
//! initial guess, or when an accepted iterate is evaluated again at full accuracy, it ends the
//! solve as [`NewtonError::System`] with the error value itself, the iteration and the point; it
//! is kept in a slot outside argmin and never converted to a string.

mod bridge;
mod solver;

pub(crate) use solver::newton_step;
pub use solver::{Accuracy, Convergence, DampedNewton, NewtonFailure, NewtonState};

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

    /// Residual `F(u) ∈ ℝⁿ` and Jacobian `∂F/∂u ∈ ℝⁿˣⁿ` at `u`, at the accuracy in force.
    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), Self::Error>;

    /// `Some(τ)` while evaluations are coarse (reduced accuracy): the solver calls
    /// [`SquareSystem::refine`] at the first accepted iterate with `‖F‖₂ ≤ τ`. `None` (the
    /// default) when every evaluation is at full accuracy.
    fn coarse_until(&self) -> Option<f64> {
        None
    }

    /// Switches to full accuracy; returns `true` if evaluations were coarse until now (the solver
    /// then evaluates its current iterate again). Called only between line searches. The default
    /// does nothing and returns `false`.
    fn refine(&self) -> bool {
        false
    }
}

/// Options of the damped Newton method (also the RON/JSON schema; missing fields take their
/// defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewtonOptions {
    /// Converged when `‖F(u)‖₂ ≤ ftol·max(1, ‖u‖₂)`: relative to the scale of the state when
    /// `‖u‖₂ > 1`, absolute (units of `F`) below. In `[0, 1)`. Default `1e-12`.
    pub ftol: f64,
    /// Converged when the Newton step `‖δ‖₂ ≤ xtol·(1 + ‖u‖₂)` (relative). In `[0, 1)`.
    /// Default `1e-14`.
    pub xtol: f64,
    /// Maximum number of Newton steps, from 1 to [`MAX_NEWTON_ITERS`]. Default 50.
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

/// Largest [`NewtonOptions::max_iters`]: Newton converges in a handful of steps near a root; far
/// more steps than this mean no convergence, and each costs at least one evaluation.
pub const MAX_NEWTON_ITERS: u64 = 10_000;

/// An option outside its valid range.
#[derive(Debug, Clone, PartialEq, Error)]
#[error("invalid Newton option `{name}` = {}: must be {requirement}", saltation_ode::Num(*value))]
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
            (0.0..1.0).contains(&self.ftol),
            ">= 0 and < 1",
        )?;
        check(
            "xtol",
            self.xtol,
            (0.0..1.0).contains(&self.xtol),
            ">= 0 and < 1",
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
        )?;
        check(
            "max_iters",
            self.max_iters as f64,
            (1..=MAX_NEWTON_ITERS).contains(&self.max_iters),
            "in 1..=10000",
        )
    }

    /// Whether `residual_norm = ‖F(u)‖₂` passes the residual test at `u`:
    /// `‖F(u)‖₂ ≤ ftol·max(1, ‖u‖₂)`.
    pub fn residual_converged(&self, residual_norm: f64, u: &DVector<f64>) -> bool {
        residual_norm <= self.ftol * norm2(u.as_slice()).max(1.0)
    }
}

/// Result of a successful solve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewtonReport {
    /// The root `u*`.
    pub solution: DVector<f64>,
    /// `F(u*)`.
    pub residual: DVector<f64>,
    /// `‖F(u*)‖₂` ([`norm2`], which neither overflows nor underflows).
    pub residual_norm: f64,
    /// `J(u*)`, from the same evaluation as `residual` (the Floquet matrix for shooting).
    pub jacobian: DMatrix<f64>,
    /// Number of Newton steps taken.
    pub iterations: usize,
    /// `‖F‖₂` at the initial guess and after every step (`iterations + 1` entries), at the
    /// accuracy in force at that iterate (an entry is the full-accuracy value once the system
    /// was refined there).
    pub residual_history: Vec<f64>,
    /// Damping `λ` of every step (`iterations` entries; 1 = full Newton step).
    pub dampings: Vec<f64>,
    /// Number of evaluations of the system (residual and Jacobian together).
    pub evaluations: usize,
    /// Which criterion stopped the iteration.
    pub converged_by: Convergence,
    /// Line-search trial points where the system's evaluation failed (each counted as no
    /// decrease).
    #[serde(default)]
    pub failed_trials: usize,
    /// The iteration at which the system was switched from coarse to full accuracy
    /// ([`SquareSystem::refine`]), if it was.
    #[serde(default)]
    pub refined_at: Option<usize>,
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
    /// The line search failed (at full accuracy), or the residual at the initial guess (or at an
    /// iterate evaluated again at full accuracy) is not finite.
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
        /// `‖F‖₂` there, at the accuracy in force (coarse if the system never got below its
        /// [`SquareSystem::coarse_until`] threshold).
        residual: f64,
        /// Steps taken.
        iterations: usize,
    },
    /// The user's system returned an error at the initial guess (`iteration` 0) or at an
    /// accepted iterate evaluated again at full accuracy; the solve stopped there. (An error at a
    /// line-search trial point only shrinks the step.)
    #[error("system evaluation failed at iteration {iteration} (u = {}): {error}", format_vector(.iterate.as_slice()))]
    System {
        /// The user's error.
        error: E,
        /// The point where the evaluation failed.
        iterate: DVector<f64>,
        /// Newton steps completed before.
        iteration: usize,
    },
    /// argmin reported something this driver does not produce (a bug, not a user error).
    #[error("internal error in the Newton driver: {message}")]
    Internal {
        /// argmin's description.
        message: String,
    },
}

impl<E> NewtonError<E> {
    /// The iteration and the iterate the failure happened at, for the variants that have one.
    pub fn iterate(&self) -> Option<(usize, &DVector<f64>)> {
        match self {
            NewtonError::Singular { iterate, iteration }
            | NewtonError::Diverged {
                iterate, iteration, ..
            }
            | NewtonError::System {
                iterate, iteration, ..
            } => Some((*iteration, iterate)),
            NewtonError::MaxIterations {
                iterate,
                iterations,
                ..
            } => Some((*iterations, iterate)),
            _ => None,
        }
    }
}

/// Euclidean norm `‖v‖₂` without overflow or underflow: `s·(Σ(vᵢ/s)²)^{1/2}` with
/// `s = maxᵢ|vᵢ|` (the scaling of LAPACK's `dnrm2`; Blue, ACM TOMS 4 (1978)). NaN if an entry is
/// NaN, `+∞` if one is infinite, 0 for an empty vector.
pub fn norm2(v: &[f64]) -> f64 {
    if v.iter().any(|x| x.is_nan()) {
        return f64::NAN;
    }
    let s = v.iter().fold(0.0_f64, |m, x| m.max(x.abs()));
    if s == 0.0 || s.is_infinite() {
        return s;
    }
    s * v.iter().map(|x| (x / s) * (x / s)).sum::<f64>().sqrt()
}

/// `[a, b, c]` with every entry in Rust's shortest round-trip form.
pub(crate) fn format_vector(v: &[f64]) -> String {
    let entries: Vec<String> = v.iter().map(|x| format!("{x:?}")).collect();
    format!("[{}]", entries.join(", "))
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
            let iteration = solver::failed_at(&err).unwrap_or(0);
            // The slot describes `err` only if `err` is the marker of a failed evaluation.
            let failure = shared
                .failure
                .into_inner()
                .filter(|_| err.downcast_ref::<bridge::EvaluationFailed>().is_some());
            return Err(match failure {
                Some(bridge::Failure::User { error, at }) => NewtonError::System {
                    error,
                    iterate: at,
                    iteration,
                },
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
                    message: format!("{err:#}"),
                },
            });
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
                failed_trials: solver.failed_trials(),
                refined_at: solver.refined_at(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn norm2_neither_overflows_nor_underflows() {
        assert_eq!(norm2(&[3e-300, 4e-300]), 5e-300);
        assert_eq!(norm2(&[3e300, -4e300]), 5e300);
        assert_eq!(norm2(&[3.0, 4.0]), 5.0);
        assert_eq!(norm2(&[]), 0.0);
        assert_eq!(norm2(&[0.0, -0.0]), 0.0);
        assert!(norm2(&[1.0, f64::NAN, f64::INFINITY]).is_nan());
        assert_eq!(norm2(&[1.0, f64::NEG_INFINITY]), f64::INFINITY);
    }

    #[test]
    fn huge_residuals_are_finite_and_the_test_is_relative_to_u() {
        // F(u) = 1e200 (u − 1): ‖F‖ = 2e200 at u = 3 (its square overflows).
        struct Steep;
        impl SquareSystem for Steep {
            type Error = std::convert::Infallible;
            fn dim(&self) -> usize {
                1
            }
            fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), Self::Error> {
                Ok((
                    DVector::from_element(1, 1e200 * (u[0] - 1.0)),
                    DMatrix::from_element(1, 1, 1e200),
                ))
            }
        }
        let rep = solve(
            &Steep,
            &DVector::from_element(1, 3.0),
            &NewtonOptions::default(),
        );
        let rep = rep.unwrap();
        assert_eq!(rep.residual_history[0], 2e200);
        assert_eq!(rep.solution[0], 1.0);
        // ftol·max(1, ‖u‖): 1e-12 absolute up to ‖u‖ = 1, relative beyond.
        let o = NewtonOptions::default();
        let u = |x: f64| DVector::from_element(1, x);
        assert!(o.residual_converged(1e-12, &u(0.5)));
        assert!(!o.residual_converged(2e-12, &u(0.5)));
        assert!(o.residual_converged(1e-6, &u(1e6)));
        assert!(!o.residual_converged(1.1e-6, &u(1e6)));
    }
}
