//! One guard described once: its crossing direction, target mode, enabling condition and
//! whether it marks a failure ([`crate::HybridModel::describe`]).

use saltation_ode::Direction;
use std::borrow::Cow;

/// Everything about one typed guard of a [`crate::HybridModel`] except its function `h` and its
/// reset `g`: crossing direction, target mode, enabling condition, failure.
///
/// Built like [`Guard`]: [`GuardSpec::to`] or [`GuardSpec::failure`], then
/// [`GuardSpec::rising`] / [`GuardSpec::falling`] and [`GuardSpec::enabled_when`], whose
/// condition reads the parameter values `p` and the state `x` at the located crossing:
///
/// ```
/// # use saltation_hybrid::GuardSpec;
/// // Heel strike into mode 0, counted only with the stance leg past vertical (θ = x[0] < 0).
/// let heel = GuardSpec::to(0).rising().enabled_when(|_p, x| x[0] < 0.0);
/// let fall = GuardSpec::failure("the walker fell").rising();
/// # assert!(heel.failure.is_none() && fall.failure.is_some());
/// ```
#[derive(Clone)]
pub struct GuardSpec {
    /// Sign changes of `h` that count (default [`Direction::Either`]).
    pub direction: Direction,
    /// Mode entered after the reset (unused for a failure guard).
    pub target: usize,
    /// Enabling condition `c(p, x)` at the located crossing (`None`: always enabled).
    #[allow(clippy::type_complexity)]
    pub enabled: Option<fn(&[f64], &[f64]) -> bool>,
    /// `Some(what failed)`: meeting this guard ends the stride with
    /// [`crate::HybridError::Failure`].
    pub failure: Option<Cow<'static, str>>,
    /// Where the crossings of this guard accumulate (Zeno: a ball chattering to rest), the
    /// simulation goes on through this other guard of the same mode (its index in
    /// [`crate::HybridModel::guards`]): its reset and target mode are applied at the last
    /// located crossing (a sticking mode). `None` (the default): the accumulation ends the run
    /// with the Zeno error.
    pub on_accumulation: Option<usize>,
}

impl GuardSpec {
    /// A transition into mode `target`, either direction, always enabled.
    pub fn to(target: usize) -> Self {
        Self {
            direction: Direction::Either,
            target,
            enabled: None,
            failure: None,
            on_accumulation: None,
        }
    }

    /// A failure guard: meeting it ends the stride, reporting `what` failed.
    pub fn failure(what: impl Into<Cow<'static, str>>) -> Self {
        Self {
            failure: Some(what.into()),
            ..Self::to(0)
        }
    }

    /// Counts only crossings of `h` from negative to positive.
    pub fn rising(self) -> Self {
        self.crossing(Direction::Rising)
    }

    /// Counts only crossings of `h` from positive to negative.
    pub fn falling(self) -> Self {
        self.crossing(Direction::Falling)
    }

    /// Counts the crossings of `direction`.
    pub fn crossing(mut self, direction: Direction) -> Self {
        self.direction = direction;
        self
    }

    /// On accumulation of this guard's crossings, go on through guard `j` of the same mode
    /// ([`GuardSpec::on_accumulation`]).
    pub fn on_accumulation(mut self, j: usize) -> Self {
        self.on_accumulation = Some(j);
        self
    }

    /// Counts a crossing only where `condition(p, x)` holds.
    pub fn enabled_when(mut self, condition: fn(&[f64], &[f64]) -> bool) -> Self {
        self.enabled = Some(condition);
        self
    }
}

impl std::fmt::Debug for GuardSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuardSpec")
            .field("direction", &self.direction)
            .field("target", &self.target)
            .field("enabled", &self.enabled.map(|_| "condition"))
            .field("failure", &self.failure)
            .field("on_accumulation", &self.on_accumulation)
            .finish()
    }
}
