//! The guards of one mode seen as the integrator's event set.

use crate::crossings::{Crossings, Rejected, Rejection};
use crate::error::HybridError;
use crate::model::EvalModel;
use saltation_ode::{Direction, EventSet};
use std::cell::RefCell;

/// The guards of `mode` of `model`, evaluated on the first `dim()` components of the
/// (possibly extended) state. It also notes the sign changes it sees that the integrator will
/// not take (wrong direction, not enabled): [`ModeGuards::take_rejected`].
pub struct ModeGuards<'a, M: ?Sized> {
    /// The model.
    pub model: &'a M,
    /// The current mode.
    pub mode: usize,
    /// Per guard, the latest (time, value) seen moving forward in time.
    last: RefCell<Vec<(f64, f64)>>,
    /// Crossings seen and not taken.
    rejected: RefCell<Crossings>,
    /// Scratch for a guard's gradient.
    grad: RefCell<Vec<f64>>,
}

impl<'a, M: EvalModel + ?Sized> ModeGuards<'a, M> {
    /// The guards of `mode`.
    pub fn new(model: &'a M, mode: usize) -> Self {
        Self {
            model,
            mode,
            last: RefCell::new(vec![(f64::NEG_INFINITY, 0.0); model.guards(mode)]),
            rejected: RefCell::new(Crossings::default()),
            grad: RefCell::new(vec![0.0; model.dim()]),
        }
    }

    /// The crossings seen and not taken so far (and forgets them).
    pub fn take_rejected(&self) -> Crossings {
        std::mem::take(&mut *self.rejected.borrow_mut())
    }

    /// Notes a sign change of guard `i` against its direction, comparing with the latest value
    /// at an earlier time (evaluations inside a step during root finding go back in time and
    /// are skipped).
    fn watch(&self, i: usize, t: f64, v: f64) {
        let mut last = self.last.borrow_mut();
        let Some(slot) = last.get_mut(i) else { return };
        if t <= slot.0 {
            return;
        }
        let before = slot.1;
        *slot = (t, v);
        if before == 0.0 || v == 0.0 || (before < 0.0) == (v < 0.0) {
            return;
        }
        let counts = self.model.guard_info(self.mode, i).direction;
        if !counts.matches(before, v) {
            self.rejected.borrow_mut().push(Rejected {
                guard: i,
                t,
                why: Rejection::Direction {
                    rising: v > 0.0,
                    counts,
                },
            });
        }
    }
}

impl<M: EvalModel + ?Sized> EventSet for ModeGuards<'_, M> {
    fn count(&self) -> usize {
        self.model.guards(self.mode)
    }
    #[inline]
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64 {
        let v = self.model.guard(self.mode, i, &y[..self.model.dim()]);
        self.watch(i, t, v);
        v
    }
    fn direction(&self, i: usize) -> Direction {
        self.model.guard_info(self.mode, i).direction
    }
    fn enabled(&self, i: usize, t: f64, y: &[f64]) -> bool {
        let on = self
            .model
            .guard_enabled(self.mode, i, &y[..self.model.dim()]);
        if !on {
            self.rejected.borrow_mut().push(Rejected {
                guard: i,
                t,
                why: Rejection::NotEnabled,
            });
        }
        on
    }
    fn terminal(&self, _i: usize) -> bool {
        true
    }
    /// `ḣ = h_x · f` (guards do not depend on time), with the exact gradient; the size is at
    /// least the smallest positive number when the gradient is not zero (only a guard with a
    /// zero gradient cannot move, whatever the flow).
    fn rate(&self, i: usize, _t: f64, y: &[f64], f: &[f64]) -> Option<(f64, f64)> {
        let n = self.model.dim();
        let mut grad = self.grad.borrow_mut();
        grad.resize(n, 0.0);
        self.model.guard_gradient(self.mode, i, &y[..n], &mut grad);
        let (mut rate, mut size) = (0.0, 0.0);
        for (g, f) in grad.iter().zip(&f[..n]) {
            rate += g * f;
            size += (g * f).abs();
        }
        if grad.iter().any(|&g| g != 0.0) {
            size = size.max(f64::MIN_POSITIVE);
        }
        Some((rate, size))
    }
}

/// The discrete part of an event of guard `j` of `mode` at time `t`: a failure guard ends the
/// stride with [`HybridError::Failure`] (listing the crossings `seen` and not taken before
/// it); otherwise the reset `x⁺ = g(x⁻)` and the target mode (checked to exist). Shared by
/// stride maps and simulation.
pub(crate) fn reset_at<M: EvalModel + ?Sized>(
    model: &M,
    (mode, j, t): (usize, usize, f64),
    x_minus: &[f64],
    seen: impl FnOnce() -> Crossings,
) -> Result<(usize, Vec<f64>), HybridError> {
    if let Some(what) = model.guard_failure(mode, j) {
        return Err(HybridError::Failure {
            mode,
            guard: j,
            t,
            what,
            seen: seen(),
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
    model.reset(mode, j, x_minus, &mut x_plus);
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
