//! Guard (event) functions: what the integrator watches for zero crossings.
//!
//! An event `i` fires at the first time `t*` in a step where its guard `g_i(t, y(t))` changes sign
//! in the requested [`Direction`] and its enabling condition holds at `(t*, y(t*))`. Crossings are
//! located on the method's dense output (see [`crate::root`]); a guard that is zero at the start of
//! an integration (the trajectory starts on it) is not re-detected there.

/// Which sign changes of a guard count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Direction {
    /// From negative to positive.
    Rising,
    /// From positive to negative.
    Falling,
    /// Either way (default).
    #[default]
    Either,
}

impl Direction {
    /// Whether a change from `before` to `after` (non-zero signs) matches.
    #[inline]
    pub fn matches(self, before: f64, after: f64) -> bool {
        match self {
            Direction::Rising => before < 0.0 && after > 0.0,
            Direction::Falling => before > 0.0 && after < 0.0,
            Direction::Either => (before < 0.0) != (after < 0.0),
        }
    }
}

/// A set of guard functions. Implement it for the guards of a model, or use a `Vec<Event>`.
pub trait EventSet {
    /// Number of guards.
    fn count(&self) -> usize;
    /// Value `g_i(t, y)` of guard `i`.
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64;
    /// Sign changes that count for guard `i` (default: either).
    fn direction(&self, _i: usize) -> Direction {
        Direction::Either
    }
    /// Enabling condition of guard `i`, tested at the located crossing (default: always).
    fn enabled(&self, _i: usize, _t: f64, _y: &[f64]) -> bool {
        true
    }
    /// Whether the integration stops at guard `i` (default: yes).
    fn terminal(&self, _i: usize) -> bool {
        true
    }
    /// The rate `dg_i/dt = ∇g_i · f (+ ∂g_i/∂t)` along the flow `f = y'` at `(t, y)`, with
    /// the size of its terms (`Σ |∂g_i/∂y_k f_k| + |∂g_i/∂t|`, for telling a zero from
    /// rounding; at least the smallest positive number where the gradient is not zero, 0 only
    /// for a guard that cannot move); `None` when the set cannot say (the default). A guard that sits at zero
    /// after a reset takes its sign for the next step from this rate (and, where it vanishes,
    /// from its change along the flow) instead of from its rounded value.
    fn rate(&self, _i: usize, _t: f64, _y: &[f64], _f: &[f64]) -> Option<(f64, f64)> {
        None
    }
}

/// No guards.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoEvents;

impl EventSet for NoEvents {
    fn count(&self) -> usize {
        0
    }
    fn value(&self, _i: usize, _t: f64, _y: &[f64]) -> f64 {
        1.0
    }
}

type GuardFn = Box<dyn Fn(f64, &[f64]) -> f64 + Send + Sync>;
type EnableFn = Box<dyn Fn(f64, &[f64]) -> bool + Send + Sync>;

/// One guard built from closures; a `Vec<Event>` is an [`EventSet`].
///
/// ```
/// use saltation_ode::{Direction, Event};
/// // Ground contact of a falling ball: height y[0] crossing zero downwards, while moving down.
/// let ground = Event::new(|_t, y: &[f64]| y[0])
///     .direction(Direction::Falling)
///     .enabled_when(|_t, y: &[f64]| y[1] < 0.0)
///     .terminal(true);
/// # let _ = ground;
/// ```
pub struct Event {
    guard: GuardFn,
    enable: Option<EnableFn>,
    direction: Direction,
    terminal: bool,
}

impl Event {
    /// A terminal guard triggered by sign changes in either direction.
    pub fn new(guard: impl Fn(f64, &[f64]) -> f64 + Send + Sync + 'static) -> Self {
        Self {
            guard: Box::new(guard),
            enable: None,
            direction: Direction::Either,
            terminal: true,
        }
    }
    /// Sets the direction filter.
    pub fn direction(mut self, d: Direction) -> Self {
        self.direction = d;
        self
    }
    /// Sets the enabling condition.
    pub fn enabled_when(mut self, c: impl Fn(f64, &[f64]) -> bool + Send + Sync + 'static) -> Self {
        self.enable = Some(Box::new(c));
        self
    }
    /// Terminal (stop the integration) or not (record and go on).
    pub fn terminal(mut self, terminal: bool) -> Self {
        self.terminal = terminal;
        self
    }
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event")
            .field("direction", &self.direction)
            .field("terminal", &self.terminal)
            .field("has_enable", &self.enable.is_some())
            .finish()
    }
}

impl EventSet for [Event] {
    fn count(&self) -> usize {
        self.len()
    }
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64 {
        (self[i].guard)(t, y)
    }
    fn direction(&self, i: usize) -> Direction {
        self[i].direction
    }
    fn enabled(&self, i: usize, t: f64, y: &[f64]) -> bool {
        self[i].enable.as_ref().is_none_or(|c| c(t, y))
    }
    fn terminal(&self, i: usize) -> bool {
        self[i].terminal
    }
}

impl EventSet for Vec<Event> {
    fn count(&self) -> usize {
        self.len()
    }
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64 {
        self.as_slice().value(i, t, y)
    }
    fn direction(&self, i: usize) -> Direction {
        self.as_slice().direction(i)
    }
    fn enabled(&self, i: usize, t: f64, y: &[f64]) -> bool {
        self.as_slice().enabled(i, t, y)
    }
    fn terminal(&self, i: usize) -> bool {
        self.as_slice().terminal(i)
    }
}

impl<E: EventSet + ?Sized> EventSet for &E {
    fn count(&self) -> usize {
        (**self).count()
    }
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64 {
        (**self).value(i, t, y)
    }
    fn direction(&self, i: usize) -> Direction {
        (**self).direction(i)
    }
    fn enabled(&self, i: usize, t: f64, y: &[f64]) -> bool {
        (**self).enabled(i, t, y)
    }
    fn terminal(&self, i: usize) -> bool {
        (**self).terminal(i)
    }
    fn rate(&self, i: usize, t: f64, y: &[f64], f: &[f64]) -> Option<(f64, f64)> {
        (**self).rate(i, t, y, f)
    }
}

/// An event that fired: which guard, when, and the state there.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventHit {
    /// Index of the guard in its [`EventSet`].
    pub index: usize,
    /// Located crossing time.
    pub t: f64,
    /// State at `t` (from the dense output).
    pub y: Vec<f64>,
    /// Whether the integration stopped there.
    pub terminal: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_filter() {
        assert!(Direction::Rising.matches(-1.0, 1.0));
        assert!(!Direction::Rising.matches(1.0, -1.0));
        assert!(Direction::Falling.matches(1.0, -1.0));
        assert!(Direction::Either.matches(1.0, -1.0));
        assert!(Direction::Either.matches(-1.0, 1.0));
        assert!(!Direction::Either.matches(1.0, 2.0));
    }
}
