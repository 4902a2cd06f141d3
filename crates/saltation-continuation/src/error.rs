//! Typed errors of continuation.

use saltation_hybrid::{HybridError, ParamError};
use saltation_ode::Num;
use saltation_orbit::{EigenError, NewtonError, OrbitError, OrbitOptionsError};
use thiserror::Error;

/// Why a continuation could not start or a computation along it failed.
///
/// [`ContinuationError::is_input_error`] separates bad input (an option out of range, a branch
/// or orbit diagram that cannot be run as written, a parameter that cannot be continued) from
/// computations that failed.
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
    /// An input field is out of range: an option, a field of a script's branch or of its orbit
    /// diagram.
    #[error("invalid `{field}`: {reason}")]
    InvalidOption {
        /// Path of the field, e.g. `max_step`, `settings.max_step`, `branches[2].from`,
        /// `orbit_diagram.count`, `orbit_diagram.settings.component`.
        field: String,
        /// What is wrong, with the valid range.
        reason: String,
    },
    /// The model cannot be built at a parameter value the input gives (the value is outside the
    /// model's range, another parameter of the model is invalid, the parameter is unknown).
    #[error("`{field}` = {}: the model cannot be built there: {source}", Num(*value))]
    InvalidParameter {
        /// Path of the field that gave the value, e.g. `branches[0].from`.
        field: String,
        /// The parameter value.
        value: f64,
        /// The model's answer.
        #[source]
        source: ParamError,
    },
    /// The continuation parameter cannot be varied continuously: it takes integral values only
    /// (e.g. a number of spokes) or is not a number.
    #[error(
        "parameter `{param}` cannot be continued: the model rejects the value {} ({source})",
        Num(*value)
    )]
    NotContinuable {
        /// The parameter's name.
        param: String,
        /// The value the model rejected.
        value: f64,
        /// The model's answer.
        #[source]
        source: ParamError,
    },
    /// No branch of a script could start (the orbit was not found from any branch's guess),
    /// whether or not the script also has an orbit diagram
    /// ([`crate::ScriptResult::no_branch_started`]).
    #[error("no branch could start: {}", start_failures(reasons))]
    NoBranchStarted {
        /// Each branch's label and why it could not start.
        reasons: Vec<(String, String)>,
    },
    /// The mean first-passage time could not be computed (an iteration did not converge).
    #[error("mean first-passage time: {reason}")]
    Mfpt {
        /// What did not converge, with the numbers.
        reason: String,
    },
    /// A curve could not start: the one-parameter branch from its guess met no bifurcation
    /// of the curve's kind.
    #[error(
        "no {kind} found in `{param}` from {} at `{param2}` = {}: {found}",
        Num(*from),
        Num(*at)
    )]
    NoBifurcation {
        /// The kind looked for, in words.
        kind: String,
        /// The parameter the branch walked.
        param: String,
        /// The parameter held.
        param2: String,
        /// Where the branch started.
        from: f64,
        /// The held parameter's value.
        at: f64,
        /// What the branch(es) found instead, and how they ended.
        found: String,
    },
    /// A grazing curve's grazing function cannot be evaluated at `(p, p2)` (its phase no
    /// longer exists, or is in another mode), or its grazing condition cannot be identified.
    #[error("grazing condition at ({}, {}): {reason}", Num(*p), Num(*p2))]
    Grazing {
        /// The first parameter.
        p: f64,
        /// The second parameter.
        p2: f64,
        /// What happened.
        reason: String,
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

/// `"label": reason; …` for [`ContinuationError::NoBranchStarted`].
fn start_failures(reasons: &[(String, String)]) -> String {
    reasons
        .iter()
        .map(|(label, why)| format!("\"{label}\": {why}"))
        .collect::<Vec<_>>()
        .join("; ")
}

impl ContinuationError {
    /// An [`ContinuationError::InvalidOption`] for `field`.
    pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ContinuationError::InvalidOption {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// Whether the error is bad input rather than a failed computation: an option or script
    /// field out of range, a model that cannot be built at a given parameter value, a parameter
    /// that cannot be continued, a guess of the wrong length or not finite, invalid Newton
    /// or orbit options (a shooting with more unknowns than a dense Newton matrix may hold).
    pub fn is_input_error(&self) -> bool {
        match self {
            ContinuationError::InvalidOption { .. }
            | ContinuationError::InvalidParameter { .. }
            | ContinuationError::NotContinuable { .. } => true,
            ContinuationError::Orbit(o) => matches!(
                o,
                OrbitError::GuessLength { .. }
                    | OrbitError::InvalidOptions(_)
                    | OrbitError::Newton(
                        NewtonError::InvalidOptions(_) | NewtonError::NonFiniteGuess { .. }
                    )
            ),
            _ => false,
        }
    }

    /// The input field an input error names (`branches[2].from`, `orbit_diagram.count`,
    /// `param`), if it names one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ContinuationError::InvalidOption { field, .. }
            | ContinuationError::InvalidParameter { field, .. } => Some(field),
            ContinuationError::NotContinuable { .. } => Some("param"),
            ContinuationError::Orbit(OrbitError::InvalidOptions(OrbitOptionsError::Shooting {
                ..
            })) => Some("shooting"),
            _ => None,
        }
    }

    /// The same error with its field path prefixed by `prefix` (`settings.` + `max_step`).
    pub(crate) fn within(self, prefix: &str) -> Self {
        match self {
            ContinuationError::InvalidOption { field, reason } => {
                ContinuationError::InvalidOption {
                    field: format!("{prefix}{field}"),
                    reason,
                }
            }
            ContinuationError::InvalidParameter {
                field,
                value,
                source,
            } => ContinuationError::InvalidParameter {
                field: format!("{prefix}{field}"),
                value,
                source,
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_messages_are_short() {
        assert_eq!(Num(0.0165).to_string(), "0.0165");
        assert_eq!(Num(-1e308).to_string(), "-1e308");
        assert_eq!(Num(1e-9).to_string(), "1e-9");
        assert_eq!(Num(f64::NAN).to_string(), "NaN");
        let e = ContinuationError::NotContinuable {
            param: "n".into(),
            value: 1e300,
            source: ParamError::NotNumeric { name: "n".into() },
        };
        assert!(e.to_string().contains("value 1e300 ("), "{e}");
        assert!(e.is_input_error());
        assert!(!ContinuationError::Singular { p: 0.0 }.is_input_error());
    }
}
