//! Basins of attraction on the section: a grid of starts over one or two reduced coordinates,
//! each iterated by the stride map until it converges to a periodic orbit, fails, or stays
//! undecided; the attractors found by Newton from the converged iterates.
//!
//! A start `u` (the section's reduced coordinates; those not on an axis fixed at `base`) is
//! iterated `u_{j+1} = π(P(χ(u_j)))`, each stride from the mode the last one ended in
//! ([`walk`]). After stride `j` the start has *converged with period `k`* for the smallest
//! `k ≤ max_period` with
//!
//! ```text
//! mode_j = mode_{j−k}  and  ‖u_j − u_{j−k}‖∞ ≤ tol · max(1, ‖u_j‖∞);
//! ```
//!
//! it has *failed* when a stride fails (a failure guard: the walker falls; or any stride
//! error, its cause kept in the model's words by [`crate::failure_cause`]); it is *undecided*
//! after `strides` strides without either.
//!
//! The attractors are identified afterwards, in the order of the cells ([`identify`]): a
//! converged iterate within `dedup_tol · max(1, ‖u‖∞)` (∞-norm) of a point of a known
//! attractor's cycle, in the same mode, belongs to it; otherwise Newton
//! ([`saltation_orbit::find_periodic_orbit`] on the `k`-fold stride) from the iterate gives a
//! periodic orbit, whose least period `d | k` is found by iterating it, and re-solved as a
//! period-`d` orbit for its multipliers; an orbit already known is merged. Ids count the
//! attractors in the order of the first cell reaching them, so the result depends only on the
//! per-cell outcomes — not on the thread count or on how the cells were split into shards.

mod grid;
mod identify;
mod walk;

pub use grid::{BasinAxis, BasinGrid, MAX_BASIN_AXES, MAX_BASIN_CELLS};
pub use identify::{identify, Attractor, BasinResult, CELL_FAILED, CELL_UNDECIDED};
pub use walk::{basin_cells, walk, StartOutcome};

use crate::error::ContinuationError;
use serde::{Deserialize, Serialize};

/// Largest number of strides per start.
pub const MAX_BASIN_STRIDES: usize = 1_000_000;

/// Largest period multiplicity detected.
pub const MAX_BASIN_PERIOD: usize = 64;

/// Settings of a basin computation (the stride settings are passed beside them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BasinOptions {
    /// Strides per start before it is undecided, in `1..=1 000 000` (default 50).
    pub strides: usize,
    /// Largest period `k` detected, in `1..=64` (default 8).
    pub max_period: usize,
    /// Relative return tolerance of the convergence test, in `(0, 1)` (default 1e-8).
    pub tol: f64,
    /// Relative distance under which an iterate belongs to an attractor's cycle, in
    /// `(tol, 1)` (default 1e-4).
    pub dedup_tol: f64,
}

impl Default for BasinOptions {
    fn default() -> Self {
        Self {
            strides: 50,
            max_period: 8,
            tol: 1e-8,
            dedup_tol: 1e-4,
        }
    }
}

impl BasinOptions {
    /// Checks every field against its documented range; the error names the field.
    pub fn validate(&self) -> Result<(), ContinuationError> {
        if !(1..=MAX_BASIN_STRIDES).contains(&self.strides) {
            return Err(ContinuationError::invalid(
                "strides",
                format!("{} must be in 1..={MAX_BASIN_STRIDES}", self.strides),
            ));
        }
        if !(1..=MAX_BASIN_PERIOD).contains(&self.max_period) {
            return Err(ContinuationError::invalid(
                "max_period",
                format!("{} must be in 1..={MAX_BASIN_PERIOD}", self.max_period),
            ));
        }
        if !(self.tol > 0.0 && self.tol < 1.0) {
            return Err(ContinuationError::invalid(
                "tol",
                format!("{} must be in (0, 1)", self.tol),
            ));
        }
        if !(self.dedup_tol > self.tol && self.dedup_tol < 1.0) {
            return Err(ContinuationError::invalid(
                "dedup_tol",
                format!("{} must be in (tol = {}, 1)", self.dedup_tol, self.tol),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
