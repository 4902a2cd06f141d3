//! Bridge from a [`SquareSystem`] (residual and Jacobian from one evaluation) to argmin's
//! [`Operator`] and [`Jacobian`] problem traits and to [`Accuracy`].
//!
//! `apply(u)` evaluates the system once and caches `J(u)`; `jacobian(u)` returns the cached
//! matrix when `u` is the last point evaluated (always the case in [`DampedNewton`]: the
//! Jacobian is asked for right after the residual at the same point), so each point costs one
//! evaluation. A failed evaluation is parked in a slot owned by the driver (the slot holds the
//! failure of the latest evaluation only) and argmin gets an opaque marker error; the driver
//! takes the typed error back out of the slot, so it never passes through argmin's `anyhow`
//! error.
//!
//! [`DampedNewton`]: super::DampedNewton

use super::solver::Accuracy;
use super::SquareSystem;
use argmin::core::{Error, Jacobian, Operator};
use nalgebra::{DMatrix, DVector};
use std::cell::{Cell, RefCell};

/// What went wrong inside an evaluation, kept for the driver.
#[derive(Debug)]
pub(crate) enum Failure<E> {
    /// The user's system returned an error.
    User {
        /// The error.
        error: E,
        /// Where it was evaluated.
        at: DVector<f64>,
    },
    /// The system returned a residual or Jacobian of the wrong shape.
    Shape {
        /// `"residual"` or `"jacobian"`.
        what: &'static str,
        /// Expected `(rows, cols)`.
        expected: (usize, usize),
        /// Returned `(rows, cols)`.
        found: (usize, usize),
    },
}

/// State shared between the driver and the problem owned by argmin's executor.
pub(crate) struct Shared<E> {
    /// The failure of the latest evaluation, if it failed.
    pub(crate) failure: RefCell<Option<Failure<E>>>,
    /// Number of system evaluations.
    pub(crate) evaluations: Cell<usize>,
}

impl<E> Shared<E> {
    pub(crate) fn new() -> Self {
        Self {
            failure: RefCell::new(None),
            evaluations: Cell::new(0),
        }
    }
}

/// Marker error handed to argmin when an evaluation failed; the typed cause is in [`Shared`].
/// `fatal` marks a broken system (wrong shapes), which ends the solve even at a trial point.
#[derive(Debug, thiserror::Error)]
#[error("system evaluation failed (the typed error is kept by the Newton driver)")]
pub(crate) struct EvaluationFailed {
    pub(crate) fatal: bool,
}

/// An argmin problem wrapping a borrowed [`SquareSystem`].
pub(crate) struct SystemProblem<'a, S: SquareSystem> {
    system: &'a S,
    shared: &'a Shared<S::Error>,
    cache: RefCell<Option<(DVector<f64>, DMatrix<f64>)>>,
}

impl<'a, S: SquareSystem> SystemProblem<'a, S> {
    pub(crate) fn new(system: &'a S, shared: &'a Shared<S::Error>) -> Self {
        Self {
            system,
            shared,
            cache: RefCell::new(None),
        }
    }

    /// Evaluates the system, checks shapes, caches the Jacobian; returns the residual.
    fn evaluate(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), Error> {
        self.shared
            .evaluations
            .set(self.shared.evaluations.get() + 1);
        *self.shared.failure.borrow_mut() = None;
        *self.cache.borrow_mut() = None;
        let n = u.len();
        let (f, j) = match self.system.eval(u) {
            Ok(fj) => fj,
            Err(error) => {
                return Err(self.park(Failure::User {
                    error,
                    at: u.clone(),
                }))
            }
        };
        if f.len() != n {
            return Err(self.park(Failure::Shape {
                what: "residual",
                expected: (n, 1),
                found: (f.len(), 1),
            }));
        }
        if j.shape() != (n, n) {
            return Err(self.park(Failure::Shape {
                what: "jacobian",
                expected: (n, n),
                found: j.shape(),
            }));
        }
        *self.cache.borrow_mut() = Some((u.clone(), j.clone()));
        Ok((f, j))
    }

    fn park(&self, failure: Failure<S::Error>) -> Error {
        let fatal = matches!(failure, Failure::Shape { .. });
        *self.shared.failure.borrow_mut() = Some(failure);
        Error::new(EvaluationFailed { fatal })
    }
}

impl<S: SquareSystem> Operator for SystemProblem<'_, S> {
    type Param = DVector<f64>;
    type Output = DVector<f64>;

    fn apply(&self, u: &DVector<f64>) -> Result<DVector<f64>, Error> {
        Ok(self.evaluate(u)?.0)
    }
}

impl<S: SquareSystem> Jacobian for SystemProblem<'_, S> {
    type Param = DVector<f64>;
    type Jacobian = DMatrix<f64>;

    fn jacobian(&self, u: &DVector<f64>) -> Result<DMatrix<f64>, Error> {
        if let Some((cu, cj)) = self.cache.borrow().as_ref() {
            if cu == u {
                return Ok(cj.clone());
            }
        }
        Ok(self.evaluate(u)?.1)
    }
}

impl<S: SquareSystem> Accuracy for SystemProblem<'_, S> {
    fn coarse_until(&self) -> Option<f64> {
        self.system.coarse_until()
    }

    fn refine(&self) -> bool {
        // A cached Jacobian is at the old accuracy.
        *self.cache.borrow_mut() = None;
        self.system.refine()
    }
}
