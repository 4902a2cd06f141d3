//! Work counters of an integration.

/// Work done by an integration (accumulated over restarts of one [`crate::Solver`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Evaluations of the vector field (including the initial-step estimate and dense output).
    pub rhs_evals: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected step attempts.
    pub rejected_steps: usize,
    /// Events located (terminal and non-terminal).
    pub events: usize,
    /// Guard-function evaluations (samples, ends and root finding).
    pub guard_evals: usize,
}
