//! Admissibility of a periodic orbit of a constrained model: it is physical only if every
//! closed contact pushes (`λ_i ≤ 0`) through its whole contact phase, right after touchdown
//! included, and every open contact's gap stays non-negative through its free phase. The
//! stride map cannot see either failure by itself: an orbit found by shooting may pass
//! through the ground between two integration steps, or start a contact phase with a pulling
//! force whose guard never changes sign.
//!
//! The constrained model declares these as its conditions (`−λ_i ≥ 0` of each closed contact,
//! the gap of each open one: [`crate::Constrained`]'s `HybridModel::conditions`), and they are
//! checked like every model's, by [`saltation_hybrid::check_stride`]: located on the dense
//! output as events, and evaluated right after every event. A violation is reported under
//! the contact's name, as a contact that pulls (the value `λ_i > 0`) or penetrates (the gap).

use crate::model::Constrained;
use crate::system::MechanicalSystem;
use saltation_hybrid::{check_stride, Admissibility, Bound, HybridError, StrideOptions};
use serde::{Deserialize, Serialize};

/// Options of [`check_admissibility`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdmissibilityOptions {
    /// Relative tolerance: a multiplier above `tol · max|λ|` or a gap below `−tol · max|gap|`
    /// over the stride (each contact in each mode on its own scale) is a violation (default
    /// [`saltation_hybrid::CONDITION_TOL`], 1e-9).
    pub tol: f64,
}

impl Default for AdmissibilityOptions {
    fn default() -> Self {
        Self {
            tol: saltation_hybrid::CONDITION_TOL,
        }
    }
}

/// Checks one stride of `model` (a constrained model at its parameter values) from `x0` (a
/// state on the orbit, e.g. its fixed point) with the stride options `stride`: the contact
/// conditions' first violation, located on the dense output ([`check_stride`]).
pub fn check_admissibility<S: MechanicalSystem + Clone>(
    model: &Bound<Constrained<S>>,
    x0: &[f64],
    stride: &StrideOptions,
    opts: &AdmissibilityOptions,
) -> Result<Admissibility, HybridError> {
    check_stride(model, x0, stride, opts.tol)
}
