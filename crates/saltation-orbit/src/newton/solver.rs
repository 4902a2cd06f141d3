//! The damped Newton method as an argmin [`Solver`]: one call of `next_iter` is one Newton step
//! with backtracking; argmin's [`Executor`](argmin::core::Executor) owns the loop.

use super::NewtonOptions;
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
    /// The residual at the initial guess is NaN or infinite.
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
    /// `‖F(u)‖₂ ≤ ftol`.
    Residual,
    /// The Newton step satisfied `‖δ‖₂ ≤ xtol·(1 + ‖u‖₂)` (the step is not taken).
    Step,
}

/// Damped Newton solver for square systems `F(u) = 0` with exact Jacobian, for argmin problems
/// implementing [`Operator`] (`u ↦ F(u)`) and [`Jacobian`] (`u ↦ J(u)`). See the
/// [module documentation](crate::newton) for the method.
#[derive(Debug, Clone)]
pub struct DampedNewton {
    options: NewtonOptions,
    history: Vec<f64>,
    dampings: Vec<f64>,
    failure: Option<NewtonFailure>,
    convergence: Option<Convergence>,
}

impl DampedNewton {
    /// A solver with the given options (validate them first with [`NewtonOptions::validate`];
    /// `max_iters` is the executor's business: set it on the state).
    pub fn new(options: NewtonOptions) -> Self {
        Self {
            options,
            history: Vec::new(),
            dampings: Vec::new(),
            failure: None,
            convergence: None,
        }
    }

    /// `‖F‖₂` at the initial guess and after every accepted step.
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
}

/// Newton step `δ = −J⁻¹F` by LU with partial pivoting on the equilibrated matrix `R J C`
/// (`R`, `C` diagonal powers of two); `None` if singular.
fn newton_step(j: &DMatrix<f64>, r: &DVector<f64>) -> Option<DVector<f64>> {
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
        + Jacobian<Param = DVector<f64>, Jacobian = DMatrix<f64>>,
{
    fn name(&self) -> &str {
        "damped Newton"
    }

    fn init(
        &mut self,
        problem: &mut Problem<O>,
        mut state: NewtonState,
    ) -> Result<(NewtonState, Option<KV>), Error> {
        let u = state
            .take_param()
            .ok_or_else(|| ArgminError::NotInitialized {
                text: "damped Newton needs an initial guess (state.param)".to_string(),
            })?;
        let r = problem.apply(&u)?;
        let fnorm = r.norm();
        self.history = vec![fnorm];
        self.dampings.clear();
        self.failure = None;
        self.convergence = None;
        if !fnorm.is_finite() {
            let state = state.param(u).residuals(r).cost(fnorm);
            return Ok((
                self.fail(NewtonFailure::NonFiniteResidual { iteration: 0 }, state),
                None,
            ));
        }
        let j = problem.jacobian(&u)?;
        state = state.param(u).residuals(r).jacobian(j).cost(fnorm);
        if fnorm <= self.options.ftol {
            state = self.converge(Convergence::Residual, state);
        }
        Ok((state, None))
    }

    fn next_iter(
        &mut self,
        problem: &mut Problem<O>,
        mut state: NewtonState,
    ) -> Result<(NewtonState, Option<KV>), Error> {
        let iteration = self.history.len() - 1;
        let (u, r, j) = match (
            state.take_param(),
            state.take_residuals(),
            state.take_jacobian(),
        ) {
            (Some(u), Some(r), Some(j)) => (u, r, j),
            _ => {
                return Err(ArgminError::NotInitialized {
                    text: "damped Newton state lacks u, F(u) or J(u)".to_string(),
                }
                .into())
            }
        };
        let fnorm = state.get_cost();
        let n = u.len();
        if j.shape() != (n, n) || r.len() != n {
            return Err(ArgminError::InvalidParameter {
                text: format!(
                    "damped Newton needs a square system: u has {n} entries, F {} and J is {}×{}",
                    r.len(),
                    j.nrows(),
                    j.ncols()
                ),
            }
            .into());
        }
        if j.iter().any(|v| !v.is_finite()) {
            let state = state.param(u).residuals(r).jacobian(j);
            return Ok((
                self.fail(NewtonFailure::NonFiniteJacobian { iteration }, state),
                None,
            ));
        }
        let Some(delta) = newton_step(&j, &r) else {
            let state = state.param(u).residuals(r).jacobian(j);
            return Ok((
                self.fail(NewtonFailure::Singular { iteration }, state),
                None,
            ));
        };
        if delta.norm() <= self.options.xtol * (1.0 + u.norm()) {
            let state = state.param(u).residuals(r).jacobian(j);
            return Ok((self.converge(Convergence::Step, state), None));
        }
        // Backtracking on ‖F‖: halve λ until ‖F(u + λδ)‖ < (1 − αλ)‖F(u)‖.
        let mut lambda = 1.0_f64;
        let (trial, r_trial, t_norm) = loop {
            let trial = &u + &delta * lambda;
            let r_trial = problem.apply(&trial)?;
            let t_norm = r_trial.norm();
            if t_norm.is_finite() && t_norm < (1.0 - self.options.armijo * lambda) * fnorm {
                break (trial, r_trial, t_norm);
            }
            lambda *= 0.5;
            if lambda < self.options.min_damping {
                let state = state.param(u).residuals(r).jacobian(j);
                return Ok((
                    self.fail(NewtonFailure::LineSearch { iteration }, state),
                    None,
                ));
            }
        };
        let j_trial = problem.jacobian(&trial)?;
        self.history.push(t_norm);
        self.dampings.push(lambda);
        state = state
            .param(trial)
            .residuals(r_trial)
            .jacobian(j_trial)
            .cost(t_norm);
        if t_norm <= self.options.ftol {
            state = self.converge(Convergence::Residual, state);
        }
        let kv = argmin::kv!("residual" => t_norm; "damping" => lambda; "step" => delta.norm(););
        Ok((state, Some(kv)))
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
    fn singular_matrices_are_detected() {
        let r = DVector::from_vec(vec![1.0, 1.0]);
        let j = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0]);
        assert!(newton_step(&j, &r).is_none());
        let j = DMatrix::from_row_slice(2, 2, &[1.0, 1.0 / 3.0, 3.0, 1.0]);
        assert!(newton_step(&j, &r).is_none());
        assert!(newton_step(&DMatrix::zeros(2, 2), &r).is_none());
    }
}
