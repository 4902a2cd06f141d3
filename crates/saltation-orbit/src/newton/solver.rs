//! The damped Newton method as an argmin [`Solver`]: one call of `next_iter` is one Newton step
//! with backtracking; argmin's [`Executor`](argmin::core::Executor) owns the loop.

use super::bridge::EvaluationFailed;
use super::{norm2, NewtonOptions};
use argmin::core::{
    ArgminError, Error, IterState, Jacobian, Operator, Problem, Solver, State, TerminationReason,
    KV,
};
use nalgebra::{DMatrix, DVector};

/// The argmin state used by [`DampedNewton`]: parameter `u`, Jacobian `J(u)` and residual
/// `F(u)` (in argmin's `jacobian` and `residuals` slots), cost `‖F(u)‖₂`.
pub type NewtonState = IterState<DVector<f64>, (), DMatrix<f64>, (), DVector<f64>, f64>;

/// Pivot threshold of the singularity test: after row and column equilibration (every row and
/// column of `J` scaled to max-norm 1 by powers of two) a pivot of LU with partial pivoting below
/// `SINGULAR_PIVOT · n · ε` counts as zero.
const SINGULAR_PIVOT: f64 = 8.0;

/// Accuracy control of a problem solved by [`DampedNewton`] (inexact Newton; see the
/// [module documentation](crate::newton)). The defaults describe a problem evaluated at full
/// accuracy throughout: `impl Accuracy for MyProblem {}`.
pub trait Accuracy {
    /// `Some(τ)` while evaluations are coarse: the solver calls [`Accuracy::refine`] at the first
    /// accepted iterate with `‖F‖₂ ≤ τ`. Default `None`.
    fn coarse_until(&self) -> Option<f64> {
        None
    }

    /// Switches to full accuracy; `true` if evaluations were coarse until now. Default: `false`.
    fn refine(&self) -> bool {
        false
    }
}

/// Why [`DampedNewton`] stopped without converging (kept in the solver, see
/// [`DampedNewton::failure`]). The state's `param` is the last accepted iterate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum NewtonFailure {
    /// The Newton matrix is singular: LU found a (relatively) zero pivot or the solve overflowed.
    Singular {
        /// Newton steps completed before.
        iteration: usize,
    },
    /// The Jacobian has a NaN or infinite entry.
    NonFiniteJacobian {
        /// Newton steps completed before.
        iteration: usize,
    },
    /// The residual at the initial guess (or at an iterate evaluated again at full accuracy) is
    /// NaN or infinite.
    NonFiniteResidual {
        /// Newton steps completed before.
        iteration: usize,
    },
    /// Backtracking went below the minimum damping without sufficient decrease of `‖F‖`.
    LineSearch {
        /// Newton steps completed before.
        iteration: usize,
    },
}

/// How [`DampedNewton`] converged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Convergence {
    /// `‖F(u)‖₂ ≤ ftol·max(1, ‖u‖₂)`.
    Residual,
    /// The Newton step satisfied `‖δ‖₂ ≤ xtol·(1 + ‖u‖₂)` (the step is not taken).
    Step,
    /// The residual stalled at the round-off floor: no step along the Newton direction
    /// decreased it, and it is at most `ROUNDOFF_ULPS·n·ε·max(1, ‖u‖₂)` (64 units in the last
    /// place per equation), the accuracy to which `F` itself is computed. `u` is the root to
    /// working precision although the requested `ftol` (or `xtol`) is below what double
    /// precision can reach; the report's residual is the one achieved.
    RoundOff,
}

/// Units in the last place, per equation, of the round-off floor of a residual (relative to
/// `max(1, ‖u‖₂)`, as the residual test): a residual below `ROUNDOFF_ULPS·n·ε·max(1, ‖u‖₂)` is
/// indistinguishable from zero in double precision, so a line search that cannot decrease it
/// has converged, not diverged.
const ROUNDOFF_ULPS: f64 = 64.0;

/// Whether `fnorm` is at the round-off floor of an `n`-dimensional residual at `u`.
pub(crate) fn at_roundoff_floor(fnorm: f64, u: &DVector<f64>) -> bool {
    let n = u.len().max(1) as f64;
    fnorm <= ROUNDOFF_ULPS * n * f64::EPSILON * norm2(u.as_slice()).max(1.0)
}

/// Context attached to an evaluation error that ends the solve (argmin gets the error with this
/// context; the driver reads the iteration back).
#[derive(Debug, Clone, Copy)]
struct FailedAt {
    iteration: usize,
}

impl std::fmt::Display for FailedAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "evaluation failed after {} Newton step(s)",
            self.iteration
        )
    }
}

/// The Newton steps completed before the evaluation failure `err` ended a solve.
pub(crate) fn failed_at(err: &Error) -> Option<usize> {
    err.downcast_ref::<FailedAt>().map(|f| f.iteration)
}

/// Damped Newton solver for square systems `F(u) = 0` with exact Jacobian, for argmin problems
/// implementing [`Operator`] (`u ↦ F(u)`), [`Jacobian`] (`u ↦ J(u)`) and [`Accuracy`]. See the
/// [module documentation](crate::newton) for the method.
///
/// An error of the problem at a line-search trial point counts as no decrease (unless it is a
/// broken-system error of this crate's driver); an error at the initial guess, at an accepted
/// iterate or when an iterate is evaluated again ends the run with the error, with context
/// naming the iteration.
#[derive(Debug, Clone)]
pub struct DampedNewton {
    options: NewtonOptions,
    history: Vec<f64>,
    dampings: Vec<f64>,
    failure: Option<NewtonFailure>,
    convergence: Option<Convergence>,
    failed_trials: usize,
    refined_at: Option<usize>,
}

/// One evaluated point: `u`, `F(u)`, `‖F(u)‖₂` and, when the residual is finite, `J(u)`.
struct Point {
    u: DVector<f64>,
    r: DVector<f64>,
    fnorm: f64,
    j: Option<DMatrix<f64>>,
}

impl Point {
    fn into_state(self, state: NewtonState) -> NewtonState {
        let state = state.param(self.u).residuals(self.r).cost(self.fnorm);
        match self.j {
            Some(j) => state.jacobian(j),
            None => state,
        }
    }
}

/// What one Newton step from the current iterate gave.
enum Step {
    /// A trial point passed the sufficient-decrease test.
    Accepted {
        point: Point,
        lambda: f64,
        step_norm: f64,
    },
    /// The Newton step is below `xtol·(1 + ‖u‖)`.
    Small,
    /// No step: singular or non-finite Jacobian, or the line search failed.
    Failed(NewtonFailure),
}

/// `u`, `F(u)` and (if finite) `J(u)`; an error gets the context "failed at `iteration`".
fn evaluate<O>(problem: &mut Problem<O>, u: DVector<f64>, iteration: usize) -> Result<Point, Error>
where
    O: Operator<Param = DVector<f64>, Output = DVector<f64>>
        + Jacobian<Param = DVector<f64>, Jacobian = DMatrix<f64>>,
{
    let at = |e: Error| e.context(FailedAt { iteration });
    let r = problem.apply(&u).map_err(at)?;
    let fnorm = norm2(r.as_slice());
    let j = if fnorm.is_finite() {
        Some(problem.jacobian(&u).map_err(at)?)
    } else {
        None
    };
    Ok(Point { u, r, fnorm, j })
}

/// Whether `err` comes from a broken system (wrong shapes), which no smaller step can mend.
fn is_fatal(err: &Error) -> bool {
    err.downcast_ref::<EvaluationFailed>()
        .is_some_and(|f| f.fatal)
}

impl DampedNewton {
    /// A solver with the given options (checked by [`NewtonOptions::validate`] when the run
    /// starts; `max_iters` is the executor's business: set it on the state).
    pub fn new(options: NewtonOptions) -> Self {
        Self {
            options,
            history: Vec::new(),
            dampings: Vec::new(),
            failure: None,
            convergence: None,
            failed_trials: 0,
            refined_at: None,
        }
    }

    /// `‖F‖₂` at the initial guess and after every accepted step (at full accuracy once the
    /// problem was refined: an entry is replaced when its iterate is evaluated again).
    pub fn residual_history(&self) -> &[f64] {
        &self.history
    }

    /// Damping factor `λ` of every accepted step.
    pub fn dampings(&self) -> &[f64] {
        &self.dampings
    }

    /// Why the solver gave up, if it did.
    pub fn failure(&self) -> Option<NewtonFailure> {
        self.failure
    }

    /// How the solver converged, if it did.
    pub fn convergence(&self) -> Option<Convergence> {
        self.convergence
    }

    /// Line-search trial points whose evaluation failed.
    pub fn failed_trials(&self) -> usize {
        self.failed_trials
    }

    /// The iteration at which the problem was switched to full accuracy, if it was.
    pub fn refined_at(&self) -> Option<usize> {
        self.refined_at
    }

    fn fail(&mut self, failure: NewtonFailure, state: NewtonState) -> NewtonState {
        self.failure = Some(failure);
        let text = match failure {
            NewtonFailure::Singular { .. } => "singular Newton matrix",
            NewtonFailure::NonFiniteJacobian { .. } => "non-finite Jacobian",
            NewtonFailure::NonFiniteResidual { .. } => "non-finite residual",
            NewtonFailure::LineSearch { .. } => "line search failed",
        };
        state.terminate_with(TerminationReason::SolverExit(text.to_string()))
    }

    fn converge(&mut self, how: Convergence, state: NewtonState) -> NewtonState {
        self.convergence = Some(how);
        state.terminate_with(TerminationReason::SolverConverged)
    }

    /// Asks the problem for full accuracy; `true` if it was coarse.
    fn refine<O: Accuracy>(&mut self, problem: &Problem<O>, iteration: usize) -> bool {
        let refined = problem.problem.as_ref().is_some_and(|p| p.refine());
        if refined && self.refined_at.is_none() {
            self.refined_at = Some(iteration);
        }
        refined
    }

    /// Makes `p` the current iterate: if the problem is coarse and `p`'s residual is non-finite,
    /// below the problem's threshold, or passes the convergence test, switches to full accuracy
    /// and evaluates `p` again. Returns the point and whether it passes the residual test
    /// `‖F‖₂ ≤ ftol·max(1, ‖u‖₂)` (at full accuracy whenever the problem has levels).
    fn settle<O>(
        &mut self,
        problem: &mut Problem<O>,
        p: Point,
        iteration: usize,
    ) -> Result<(Point, bool), Error>
    where
        O: Operator<Param = DVector<f64>, Output = DVector<f64>>
            + Jacobian<Param = DVector<f64>, Jacobian = DMatrix<f64>>
            + Accuracy,
    {
        let threshold = problem.problem.as_ref().and_then(|p| p.coarse_until());
        let switch = !p.fnorm.is_finite()
            || threshold.is_some_and(|tau| p.fnorm <= tau)
            || self.options.residual_converged(p.fnorm, &p.u);
        let p = if switch && self.refine(problem, iteration) {
            evaluate(problem, p.u, iteration)?
        } else {
            p
        };
        let converged = p.fnorm.is_finite() && self.options.residual_converged(p.fnorm, &p.u);
        Ok((p, converged))
    }

    /// One Newton step with backtracking from `cur`.
    fn step<O>(
        &mut self,
        problem: &mut Problem<O>,
        cur: &Point,
        iteration: usize,
    ) -> Result<Step, Error>
    where
        O: Operator<Param = DVector<f64>, Output = DVector<f64>>
            + Jacobian<Param = DVector<f64>, Jacobian = DMatrix<f64>>,
    {
        let n = cur.u.len();
        let shape = cur.j.as_ref().map_or((n, n), |j| j.shape());
        if shape != (n, n) || cur.r.len() != n {
            return Err(ArgminError::InvalidParameter {
                text: format!(
                    "damped Newton needs a square system: u has {n} entries, F {} and J is {}×{}",
                    cur.r.len(),
                    shape.0,
                    shape.1
                ),
            }
            .into());
        }
        let Some(j) = cur.j.as_ref().filter(|j| j.iter().all(|v| v.is_finite())) else {
            return Ok(Step::Failed(NewtonFailure::NonFiniteJacobian { iteration }));
        };
        let Some(delta) = newton_step(j, &cur.r) else {
            return Ok(Step::Failed(NewtonFailure::Singular { iteration }));
        };
        let step_norm = norm2(delta.as_slice());
        if step_norm <= self.options.xtol * (1.0 + norm2(cur.u.as_slice())) {
            return Ok(Step::Small);
        }
        // Backtracking on ‖F‖: halve λ until ‖F(u + λδ)‖ < (1 − αλ)‖F(u)‖; λ ≥ min_damping > 0
        // (validated) bounds the number of trials.
        let mut lambda = 1.0_f64;
        while lambda >= self.options.min_damping {
            let trial = &cur.u + &delta * lambda;
            match problem.apply(&trial) {
                Ok(r) => {
                    let fnorm = norm2(r.as_slice());
                    if fnorm.is_finite() && fnorm < (1.0 - self.options.armijo * lambda) * cur.fnorm
                    {
                        let j = problem.jacobian(&trial).map_err(|e| {
                            e.context(FailedAt {
                                iteration: iteration + 1,
                            })
                        })?;
                        let point = Point {
                            u: trial,
                            r,
                            fnorm,
                            j: Some(j),
                        };
                        return Ok(Step::Accepted {
                            point,
                            lambda,
                            step_norm,
                        });
                    }
                }
                Err(e) if is_fatal(&e) => return Err(e.context(FailedAt { iteration })),
                // The system failed at the trial point (e.g. the walker fell): no decrease.
                Err(_) => self.failed_trials += 1,
            }
            lambda *= 0.5;
        }
        Ok(Step::Failed(NewtonFailure::LineSearch { iteration }))
    }
}

/// Newton step `δ = −J⁻¹F` by LU with partial pivoting on the equilibrated matrix `R J C`
/// (`R`, `C` diagonal powers of two); `None` if singular. `j` is square and `r` matches it
/// (checked by the caller).
pub(crate) fn newton_step(j: &DMatrix<f64>, r: &DVector<f64>) -> Option<DVector<f64>> {
    let n = j.nrows();
    let pow2 = |m: f64| {
        if m > 0.0 {
            (-m.log2().round()).exp2()
        } else {
            1.0
        }
    };
    let rs: Vec<f64> = (0..n).map(|i| pow2(j.row(i).amax())).collect();
    let mut a = DMatrix::from_fn(n, n, |i, k| rs[i] * j[(i, k)]);
    let cs: Vec<f64> = (0..n).map(|k| pow2(a.column(k).amax())).collect();
    for (k, c) in cs.iter().enumerate() {
        a.column_mut(k).scale_mut(*c);
    }
    let lu = a.lu();
    let min_pivot = lu.u().diagonal().amin();
    if min_pivot.is_nan() || min_pivot <= SINGULAR_PIVOT * n as f64 * f64::EPSILON {
        return None;
    }
    let rhs = DVector::from_fn(n, |i, _| -rs[i] * r[i]);
    let y = lu.solve(&rhs)?;
    let delta = DVector::from_fn(n, |k, _| cs[k] * y[k]);
    delta.iter().all(|v| v.is_finite()).then_some(delta)
}

impl<O> Solver<O, NewtonState> for DampedNewton
where
    O: Operator<Param = DVector<f64>, Output = DVector<f64>>
        + Jacobian<Param = DVector<f64>, Jacobian = DMatrix<f64>>
        + Accuracy,
{
    fn name(&self) -> &str {
        "damped Newton"
    }

    fn init(
        &mut self,
        problem: &mut Problem<O>,
        mut state: NewtonState,
    ) -> Result<(NewtonState, Option<KV>), Error> {
        self.options
            .validate()
            .map_err(|e| ArgminError::InvalidParameter {
                text: e.to_string(),
            })?;
        let u = state
            .take_param()
            .ok_or_else(|| ArgminError::NotInitialized {
                text: "damped Newton needs an initial guess (state.param)".to_string(),
            })?;
        self.dampings.clear();
        self.failure = None;
        self.convergence = None;
        self.failed_trials = 0;
        self.refined_at = None;
        let p = evaluate(problem, u, 0)?;
        let (p, converged) = self.settle(problem, p, 0)?;
        self.history = vec![p.fnorm];
        let finite = p.fnorm.is_finite();
        let state = p.into_state(state);
        let state = if !finite {
            self.fail(NewtonFailure::NonFiniteResidual { iteration: 0 }, state)
        } else if converged {
            self.converge(Convergence::Residual, state)
        } else {
            state
        };
        Ok((state, None))
    }

    fn next_iter(
        &mut self,
        problem: &mut Problem<O>,
        mut state: NewtonState,
    ) -> Result<(NewtonState, Option<KV>), Error> {
        let iteration = self.history.len().saturating_sub(1);
        let fnorm = state.get_cost();
        let mut cur = match (
            state.take_param(),
            state.take_residuals(),
            state.take_jacobian(),
        ) {
            (Some(u), Some(r), Some(j)) => Point {
                u,
                r,
                fnorm,
                j: Some(j),
            },
            _ => {
                return Err(ArgminError::NotInitialized {
                    text: "damped Newton state lacks u, F(u) or J(u)".to_string(),
                }
                .into())
            }
        };
        // A failure (or a small step) computed from coarse evaluations is retried once, from the
        // same iterate evaluated at full accuracy: at most two passes.
        let mut retried = false;
        loop {
            let failure = match self.step(problem, &cur, iteration)? {
                Step::Accepted {
                    point,
                    lambda,
                    step_norm,
                } => {
                    let (point, converged) = self.settle(problem, point, iteration + 1)?;
                    self.history.push(point.fnorm);
                    self.dampings.push(lambda);
                    let kv = argmin::kv!(
                        "residual" => point.fnorm; "damping" => lambda; "step" => step_norm;
                    );
                    let finite = point.fnorm.is_finite();
                    let state = point.into_state(state);
                    let state = if !finite {
                        let failure = NewtonFailure::NonFiniteResidual {
                            iteration: iteration + 1,
                        };
                        self.fail(failure, state)
                    } else if converged {
                        self.converge(Convergence::Residual, state)
                    } else {
                        state
                    };
                    return Ok((state, Some(kv)));
                }
                Step::Small => None,
                Step::Failed(failure) => Some(failure),
            };
            if !retried && self.refine(problem, iteration) {
                retried = true;
                let again = evaluate(problem, cur.u, iteration)?;
                let (again, converged) = self.settle(problem, again, iteration)?;
                if let Some(last) = self.history.last_mut() {
                    *last = again.fnorm;
                }
                cur = again;
                if !cur.fnorm.is_finite() {
                    let failure = NewtonFailure::NonFiniteResidual { iteration };
                    return Ok((self.fail(failure, cur.into_state(state)), None));
                }
                if converged {
                    return Ok((
                        self.converge(Convergence::Residual, cur.into_state(state)),
                        None,
                    ));
                }
                continue;
            }
            // A line search that fails at the round-off floor (at full accuracy) has nothing left
            // to decrease: the iterate is the root to working precision.
            let stalled = matches!(failure, Some(NewtonFailure::LineSearch { .. }))
                && at_roundoff_floor(cur.fnorm, &cur.u);
            let state = cur.into_state(state);
            let state = match failure {
                None => self.converge(Convergence::Step, state),
                Some(_) if stalled => self.converge(Convergence::RoundOff, state),
                Some(failure) => self.fail(failure, state),
            };
            return Ok((state, None));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equilibrated_step_handles_bad_scaling() {
        // Well conditioned after scaling, although the raw pivots differ by 1e40.
        let j = DMatrix::from_row_slice(2, 2, &[1e20, 0.0, 0.0, 1e-20]);
        let r = DVector::from_vec(vec![1e20, 1e-20]);
        let d = newton_step(&j, &r).unwrap();
        assert!((d[0] + 1.0).abs() < 1e-15 && (d[1] + 1.0).abs() < 1e-15);
    }

    #[test]
    fn the_roundoff_floor_scales_with_the_dimension_and_the_state() {
        let u = |x: &[f64]| DVector::from_column_slice(x);
        // 64 ε ≈ 1.42e-14 per equation, absolute up to ‖u‖ = 1.
        assert!(at_roundoff_floor(1.2e-15, &u(&[0.3, 0.1])));
        assert!(at_roundoff_floor(2.8e-14, &u(&[0.3, 0.1])));
        assert!(!at_roundoff_floor(2.9e-14, &u(&[0.3, 0.1])));
        assert!(!at_roundoff_floor(1e-12, &u(&[0.3])));
        // Relative beyond ‖u‖ = 1.
        assert!(at_roundoff_floor(1e-12, &u(&[1e3])));
        assert!(!at_roundoff_floor(f64::NAN, &u(&[1.0])));
    }

    #[test]
    fn singular_matrices_are_detected() {
        let r = DVector::from_vec(vec![1.0, 1.0]);
        let j = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0]);
        assert!(newton_step(&j, &r).is_none());
        let j = DMatrix::from_row_slice(2, 2, &[1.0, 1.0 / 3.0, 3.0, 1.0]);
        assert!(newton_step(&j, &r).is_none());
        assert!(newton_step(&DMatrix::zeros(2, 2), &r).is_none());
    }
}
