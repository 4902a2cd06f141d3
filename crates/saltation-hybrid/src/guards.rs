//! The guards of one mode seen as the integrator's event set.

use crate::error::HybridError;
use crate::model::HybridModel;
use saltation_ode::{Direction, EventSet};

/// The guards of `mode` of `model`, evaluated on the first `dim()` components of the
/// (possibly extended) state.
pub struct ModeGuards<'a, M: ?Sized> {
    /// The model.
    pub model: &'a M,
    /// The current mode.
    pub mode: usize,
}

impl<M: HybridModel + ?Sized> EventSet for ModeGuards<'_, M> {
    fn count(&self) -> usize {
        self.model.guards(self.mode)
    }
    #[inline]
    fn value(&self, i: usize, _t: f64, y: &[f64]) -> f64 {
        self.model
            .guard::<f64>(self.mode, i, &y[..self.model.dim()])
    }
    fn direction(&self, i: usize) -> Direction {
        self.model.guard_info(self.mode, i).direction
    }
    fn enabled(&self, i: usize, _t: f64, y: &[f64]) -> bool {
        self.model
            .guard_enabled(self.mode, i, &y[..self.model.dim()])
    }
    fn terminal(&self, _i: usize) -> bool {
        true
    }
}

/// The discrete part of an event of guard `j` of `mode` at time `t`: a failure guard ends the
/// stride with [`HybridError::Failure`]; otherwise the reset `x⁺ = g(x⁻)` and the target mode
/// (checked to exist). Shared by stride maps and simulation.
pub(crate) fn reset_at<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    t: f64,
    x_minus: &[f64],
) -> Result<(usize, Vec<f64>), HybridError> {
    if let Some(what) = model.guard_failure(mode, j) {
        return Err(HybridError::Failure {
            mode,
            guard: j,
            t,
            what,
        });
    }
    let target = model.guard_info(mode, j).target;
    if target >= model.modes() {
        return Err(HybridError::BadMode {
            mode: target,
            modes: model.modes(),
        });
    }
    let mut x_plus = vec![0.0; x_minus.len()];
    model.reset::<f64>(mode, j, x_minus, &mut x_plus);
    Ok((target, x_plus))
}

/// [`HybridError::NonFinite`] if the state after a reset is not finite.
pub(crate) fn check_reset_finite(x_plus: &[f64]) -> Result<(), HybridError> {
    if x_plus.iter().any(|v| !v.is_finite()) {
        return Err(HybridError::NonFinite {
            what: "state after a reset",
        });
    }
    Ok(())
}
