//! The guards of one mode seen as the integrator's event set.

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
