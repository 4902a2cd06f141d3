//! Whether a solved orbit is admissible: its declared conditions checked along the stride by
//! the one checker of [`saltation_hybrid::check_trace`].
//!
//! Single shooting checks one stride simulated again from `x₀`
//! ([`EvalModel::admissibility`]). Multiple shooting checks the stride its segments made: the
//! orbit's events (from the segments' converged starts), each smooth piece integrated again from
//! the state after the previous reset ([`saltation_hybrid::check_events`]). A whole-stride
//! integration from `x₀` of an orbit with a multiplier `|μ| ≫ 1` carries the integration error
//! amplified by up to `|μ|`, which moves the events and can flip the verdict although the orbit
//! was solved correctly by segments.

use crate::fixed_point::{OrbitOptions, PeriodicOrbit, Shooting};
use saltation_hybrid::{
    check_events, has_conditions, Admissibility, EvalModel, HybridError, CONDITION_TOL,
};

/// The admissibility of `orbit`, solved by `model` with `opts` (module documentation); `None`
/// for a model without conditions.
pub fn orbit_admissibility<M: EvalModel + ?Sized>(
    model: &M,
    orbit: &PeriodicOrbit,
    opts: &OrbitOptions,
) -> Option<Result<Admissibility, HybridError>> {
    match opts.shooting {
        Shooting::Single => model.admissibility(&orbit.x0, &opts.stride),
        Shooting::Multiple { .. } => has_conditions(model).then(|| {
            check_events(
                model,
                &orbit.x0,
                &orbit.events,
                orbit.period,
                &opts.stride,
                CONDITION_TOL,
            )
        }),
    }
}
