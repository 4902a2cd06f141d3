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
