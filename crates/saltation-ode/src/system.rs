//! The problem a user implements: `y' = f(t, y)`.

/// A first-order system `y' = f(t, y)` of fixed dimension.
///
/// The required method is in-place and cheap; the integrators call it once per stage.
pub trait OdeSystem {
    /// Number of state components.
    fn dim(&self) -> usize;
    /// Writes `f(t, y)` into `dy` (both of length [`OdeSystem::dim`]).
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);
}

impl<S: OdeSystem + ?Sized> OdeSystem for &S {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        (**self).rhs(t, y, dy)
    }
}

/// An [`OdeSystem`] made from a closure `|t, y, dy|`.
///
/// ```
/// use saltation_ode::{FnSystem, OdeSystem};
/// let decay = FnSystem::new(1, |_t: f64, y: &[f64], dy: &mut [f64]| dy[0] = -y[0]);
/// let mut dy = [0.0];
/// decay.rhs(0.0, &[2.0], &mut dy);
/// assert_eq!(dy[0], -2.0);
/// ```
pub struct FnSystem<F> {
    dim: usize,
    f: F,
}

impl<F: Fn(f64, &[f64], &mut [f64])> FnSystem<F> {
    /// Wraps `f` as a system of dimension `dim`.
    pub fn new(dim: usize, f: F) -> Self {
        Self { dim, f }
    }
}

impl<F: Fn(f64, &[f64], &mut [f64])> OdeSystem for FnSystem<F> {
    fn dim(&self) -> usize {
        self.dim
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        (self.f)(t, y, dy)
    }
}
