//! Work counters of an integration.

/// Work done by an integration (accumulated over restarts of one [`crate::Solver`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Evaluations of the vector field (including the initial-step estimate, dense output and
    /// finite-difference Jacobians).
    pub rhs_evals: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected step attempts (error test or Newton failure).
    pub rejected_steps: usize,
    /// Events located (terminal and non-terminal).
    pub events: usize,
    /// Guard-function evaluations (samples, ends and root finding).
    pub guard_evals: usize,
    /// Jacobian evaluations `∂f/∂y` (the system's own or by finite differences).
    pub jacobian_evals: usize,
    /// LU decompositions of iteration matrices (a complex one counts once).
    pub lu_decompositions: usize,
    /// Newton (corrector) iterations.
    pub newton_iters: usize,
    /// Newton iterations that failed to converge (the step was then retried smaller).
    pub newton_failures: usize,
}

impl std::ops::Add for Stats {
    type Output = Stats;

    /// The work of two integrations together (field by field).
    fn add(self, o: Stats) -> Stats {
        Stats {
            rhs_evals: self.rhs_evals + o.rhs_evals,
            steps: self.steps + o.steps,
            rejected_steps: self.rejected_steps + o.rejected_steps,
            events: self.events + o.events,
            guard_evals: self.guard_evals + o.guard_evals,
            jacobian_evals: self.jacobian_evals + o.jacobian_evals,
            lu_decompositions: self.lu_decompositions + o.lu_decompositions,
            newton_iters: self.newton_iters + o.newton_iters,
            newton_failures: self.newton_failures + o.newton_failures,
        }
    }
}
