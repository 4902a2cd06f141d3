//! Typed errors of continuation.

use saltation_hybrid::{HybridError, ParamError};
use saltation_orbit::{EigenError, OrbitError};
use thiserror::Error;

/// Why a continuation could not start or a computation along it failed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ContinuationError {
    /// The parameter value is invalid for the model.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The stride map failed.
    #[error(transparent)]
    Hybrid(#[from] HybridError),
    /// The starting orbit could not be found.
    #[error(transparent)]
    Orbit(#[from] OrbitError),
    /// Multipliers could not be computed.
    #[error(transparent)]
    Eigen(#[from] EigenError),
    /// The corrector did not converge.
    #[error("corrector did not converge at p = {p} after {iterations} iterations (residual {residual:e})")]
    Corrector {
        /// Parameter at the last iterate.
        p: f64,
        /// Iterations taken.
        iterations: usize,
        /// Last residual norm.
        residual: f64,
    },
    /// The bordered Newton matrix was singular.
    #[error("singular corrector matrix at p = {p}")]
    Singular {
        /// Parameter at the last iterate.
        p: f64,
    },
    /// An option is out of range.
    #[error("invalid continuation option `{field}`: {reason}")]
    InvalidOption {
        /// Field.
        field: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// Branch switching found no new branch.
    #[error("branch switching at p = {p} failed: {reason}")]
    Switch {
        /// Parameter of the bifurcation.
        p: f64,
        /// What happened.
        reason: String,
    },
}
