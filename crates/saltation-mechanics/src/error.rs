//! Errors of building a constrained model.

use thiserror::Error;

/// A constrained model could not be built from its description.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum MechanicsError {
    /// More unilateral contacts than [`crate::MAX_CONTACTS`].
    #[error("{count} unilateral contacts: at most {max} are supported (the modes are their 2^c subsets)")]
    TooManyContacts {
        /// Contacts declared.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// No coordinates, or more constraints than coordinates.
    #[error("{dofs} coordinates and {constraints} bilateral constraints: need 0 ≤ constraints < coordinates")]
    Dimensions {
        /// Coordinates.
        dofs: usize,
        /// Bilateral constraints.
        constraints: usize,
    },
    /// The Baumgarte rate is negative or not finite.
    #[error("baumgarte = {0}: must be finite and ≥ 0 (1/time; 0 switches the stabilisation off)")]
    Baumgarte(f64),
    /// The section names a coordinate twice or out of range, or has the wrong number of them.
    #[error("section: {0}")]
    Section(String),
}
