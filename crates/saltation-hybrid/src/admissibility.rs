//! Physical admissibility of a trajectory: conditions a model's equations do not enforce by
//! themselves, such as a unilateral contact that may only push. Every model declares them per
//! mode ([`crate::HybridModel::conditions`]; the constrained mechanical systems of
//! `saltation-mechanics` their contact forces and gaps), and one checker locates their first
//! violation along a trajectory ([`crate::check_trace`]); [`crate::EvalModel::admissibility`]
//! reports it for a stride, orbit results and continuation carry the verdict, and a branch
//! that crosses the boundary reports a grazing point.

use serde::{Deserialize, Serialize};

/// How a contact condition failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ViolationKind {
    /// A closed contact pulls (`λ_i > 0`; its declared condition is `−λ_i ≥ 0`, and the
    /// value reported is `λ_i`).
    Pulls,
    /// An open contact's gap is negative (the body is inside the obstacle; the value reported
    /// is the gap, the declared condition).
    Penetrates,
    /// A declared condition `c ≥ 0` of the mode is negative
    /// ([`crate::HybridModel::conditions`]).
    Negative,
}

/// Where an orbit first fails to be admissible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// Time from the start of the stride.
    pub t: f64,
    /// Name of the mode (contact phase).
    pub mode: String,
    /// Name of the contact, or of the declared condition.
    #[serde(alias = "contact")]
    pub condition: String,
    /// What failed.
    pub kind: ViolationKind,
    /// The offending value (`λ_i > 0`, a gap `< 0`, or the lowest value of a declared
    /// condition from there on in that phase).
    pub value: f64,
    /// The state where it first fails (empty where not recorded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<f64>,
}

/// Whether a trajectory is admissible, and if not where it first fails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Admissibility {
    /// Whether every contact condition holds within the tolerance.
    pub admissible: bool,
    /// The worst violation, if any.
    pub violation: Option<Violation>,
}
