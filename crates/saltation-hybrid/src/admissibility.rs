//! Physical admissibility of a trajectory: conditions a model's equations do not enforce by
//! themselves, such as a unilateral contact that may only push. Models that have such
//! conditions report them through [`crate::EvalModel::admissibility`] (the constrained
//! mechanical systems of `saltation-mechanics` do); orbit results and continuation carry the
//! verdict, and a branch that crosses the boundary reports a grazing point.

use serde::{Deserialize, Serialize};

/// How a contact condition failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ViolationKind {
    /// A closed contact pulls (`λ_i > 0`).
    Pulls,
    /// An open contact's gap is negative (the body is inside the obstacle).
    Penetrates,
}

/// Where an orbit first fails to be admissible.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Violation {
    /// Time from the start of the stride.
    pub t: f64,
    /// Name of the mode (contact phase).
    pub mode: String,
    /// Name of the contact.
    pub contact: String,
    /// What failed.
    pub kind: ViolationKind,
    /// The offending value (`λ_i > 0` or gap `< 0`).
    pub value: f64,
}

/// Whether a trajectory is admissible, and if not where it first fails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Admissibility {
    /// Whether every contact condition holds within the tolerance.
    pub admissible: bool,
    /// The worst violation, if any.
    pub violation: Option<Violation>,
}
