//! What a constrained model at its parameter values reports beyond a hybrid model: the
//! multipliers, the constraint residuals and the impact's energy split, called on the
//! [`Bound`] that the rest of Saltation evaluates (`hopper.impact_energy(mode, 0, &x)`).

use crate::model::{Constrained, ImpactEnergy};
use crate::system::MechanicalSystem;
use saltation_hybrid::Bound;

/// [`Constrained`]'s reports at the parameter values of a [`Bound`] (each the method of the same
/// name of [`Constrained`] with `p = values()`).
pub trait ContactReports {
    /// Multipliers `λ` in `mode` at `x` ([`Constrained::multipliers`]).
    fn multipliers(&self, mode: usize, x: &[f64]) -> Option<Vec<f64>>;
    /// Multiplier of contact `i` in `mode` at `x` ([`Constrained::contact_multiplier`]).
    fn contact_multiplier(&self, mode: usize, i: usize, x: &[f64]) -> Option<f64>;
    /// `(max |γ|, max |G q̇|)` of `mode` at `x` ([`Constrained::constraint_residual`]).
    fn constraint_residual(&self, mode: usize, x: &[f64]) -> (f64, f64);
    /// Energy split of the impact closing contact `i` from `mode` at `x`
    /// ([`Constrained::impact_energy`]).
    fn impact_energy(&self, mode: usize, i: usize, x: &[f64]) -> Option<ImpactEnergy>;
}

impl<S: MechanicalSystem + Clone> ContactReports for Bound<Constrained<S>> {
    fn multipliers(&self, mode: usize, x: &[f64]) -> Option<Vec<f64>> {
        self.model().multipliers(self.values(), mode, x)
    }
    fn contact_multiplier(&self, mode: usize, i: usize, x: &[f64]) -> Option<f64> {
        self.model().contact_multiplier(self.values(), mode, i, x)
    }
    fn constraint_residual(&self, mode: usize, x: &[f64]) -> (f64, f64) {
        self.model().constraint_residual(self.values(), mode, x)
    }
    fn impact_energy(&self, mode: usize, i: usize, x: &[f64]) -> Option<ImpactEnergy> {
        self.model().impact_energy(self.values(), mode, i, x)
    }
}
