//! Which multipliers of a single-shooting orbit have no correct digits.
//!
//! Single shooting takes the multipliers as the eigenvalues of the stride Jacobian `P_x`, formed
//! by one integration of the variational equations over the whole stride. Its columns carry the
//! integration's relative error `rtol` (and at least the rounding `ε`) relative to their size,
//! so the computed matrix is `P_x + δP` with `‖δP‖_F ≲ η‖P_x‖_F`, `η = max(rtol, ε)`. An
//! eigenvalue moves by at most `κ‖δP‖` (Bauer–Fike, `κ` the condition of the eigenvector basis,
//! at least 1), so every multiplier is known only to within
//!
//! ```text
//! δ = max(rtol, ε) · ‖P_x‖_F,
//! ```
//!
//! and a multiplier with `|μ| ≤ δ` has no correct digit: nothing in the computation tells it
//! from any other value of that size. It is flagged when also `|μ| > η`: a multiplier at or
//! below `η` is zero to the integration's tolerance even for `‖P_x‖ = 1`, which every shooting
//! at that tolerance reports as noise (the zero of a reset that collapses a direction within
//! the section, as the hopper's); the flag is for what the stride's amplification `‖P_x‖`
//! destroyed. An orbit with a large multiplier (a gait of several steps
//! per stride past a period doubling) can have small multipliers below `δ`; multiple shooting
//! (`--shooting phases`) gets them from the segment Jacobians by the product QR, each to its own
//! relative accuracy. Only the `r` largest multipliers are judged (`r` the section's
//! dimension): `P_x = Dχ Dπ P_x` on the section has rank `≤ r`, and the `n − r` others are the
//! zeros a reset collapses, which single shooting reports as rounding noise whatever the orbit.

use crate::fixed_point::{OrbitOptions, PeriodicOrbit, Shooting};
use saltation_hybrid::EvalModel;

/// The multipliers of a single-shooting orbit that are below the accuracy of its `P_x`
/// (module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct MultiplierAccuracy {
    /// `δ = max(rtol, ε)·‖P_x‖_F`: what any multiplier may be off by.
    pub error_bound: f64,
    /// Indices (into the orbit's multipliers, by decreasing modulus) of those among the `r`
    /// largest with `η < |μ| ≤ δ`, `η = max(rtol, ε)`.
    pub unresolved: Vec<usize>,
}

/// The accuracy of `orbit`'s multipliers, solved by `model` with `opts`; `None` for multiple
/// shooting (the product QR resolves every multiplier to its own relative accuracy).
pub fn multiplier_accuracy<M: EvalModel + ?Sized>(
    model: &M,
    orbit: &PeriodicOrbit,
    opts: &OrbitOptions,
) -> Option<MultiplierAccuracy> {
    if !matches!(opts.shooting, Shooting::Single) {
        return None;
    }
    let eta = opts.stride.ode.rtol.max(f64::EPSILON);
    let error_bound = eta * orbit.jacobian.norm();
    let unresolved = orbit
        .multipliers
        .iter()
        .take(model.reduced_dim())
        .enumerate()
        .filter(|(_, m)| m.modulus() > eta && !(m.modulus() > error_bound))
        .map(|(i, _)| i)
        .collect();
    Some(MultiplierAccuracy {
        error_bound,
        unresolved,
    })
}
