//! The problem a user implements: `M y' = f(t, y)`.
//!
//! Only [`OdeSystem::dim`] and [`OdeSystem::rhs`] are required. The implicit methods also use
//! the Jacobian `∂f/∂y` (finite differences when [`OdeSystem::jacobian`] is not provided), the
//! Rosenbrock method `∂f/∂t`, and a system may carry a constant mass matrix `M` (identity by
//! default; a singular `M` makes an index-1 DAE, integrated by the methods that accept one).
//!
//! ## Variational systems
//! A system whose state is `[x, Φ]` with `x' = f(t, x)` and `Φ' = f_x(t, x) Φ` (`x` of length
//! `n`, `Φ` an `n × c` matrix stored row-major) says so through
//! [`OdeSystem::variational_columns`] `= c`. Its Jacobian is block lower-triangular with
//! `I ⊗ f_x` on the diagonal, so the implicit methods solve their Newton systems with the `n × n`
//! iteration matrix of `f_x` alone (a staggered corrector), never a matrix of size `n (1 + c)`;
//! [`OdeSystem::jacobian`] then returns `f_x` (`n × n`), and [`OdeSystem::mass_matrix`] the
//! `n × n` `M` of `M x' = f` (applied to `Φ` as well).

/// A first-order system `M y' = f(t, y)` of fixed dimension.
///
/// The required method is in-place and cheap; the integrators call it once per stage.
pub trait OdeSystem {
    /// Number of state components.
    fn dim(&self) -> usize;
    /// Writes `f(t, y)` into `dy` (both of length [`OdeSystem::dim`]).
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]);

    /// Writes the Jacobian `∂f/∂y` at `(t, y)` into `jac` (row-major, `jac[i·n + k] = ∂f_i/∂y_k`,
    /// `n` the base dimension: [`OdeSystem::dim`], or `dim / (1 + c)` for a variational system)
    /// and returns `true`; returns `false` (the default) when no Jacobian is provided, and the
    /// implicit methods then use finite differences.
    fn jacobian(&self, _t: f64, _y: &[f64], _jac: &mut [f64]) -> bool {
        false
    }

    /// Writes `∂f/∂t` at `(t, y)` into `dfdt` (length `n`, the base dimension) and returns `true`;
    /// `false` (the default) means finite differences (only the Rosenbrock method needs it;
    /// an autonomous system may write zeros).
    fn time_derivative(&self, _t: f64, _y: &[f64], _dfdt: &mut [f64]) -> bool {
        false
    }

    /// The constant mass matrix `M` (row-major `n × n`, `n` the base dimension); `None` (the
    /// default) means `M = I`. A singular `M` makes the system a differential-algebraic
    /// equation (index 1: the algebraic rows must determine their variables through `∂f/∂y`).
    /// Read once when an integration starts.
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        None
    }

    /// Number of columns `c` of the variational matrix `Φ` carried after the state (see the
    /// module docs); 0 (the default) for a plain system.
    fn variational_columns(&self) -> usize {
        0
    }

    /// Whether `f(t, y) = A y + b` with `A` and `b` constant (independent of `t` and `y`): the
    /// claim that lets [`crate::AffineExp`] step the system exactly. `false` by default.
    fn is_autonomous_affine(&self) -> bool {
        false
    }
}

impl<S: OdeSystem + ?Sized> OdeSystem for &S {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        (**self).rhs(t, y, dy)
    }
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        (**self).jacobian(t, y, jac)
    }
    fn time_derivative(&self, t: f64, y: &[f64], dfdt: &mut [f64]) -> bool {
        (**self).time_derivative(t, y, dfdt)
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        (**self).mass_matrix()
    }
    fn variational_columns(&self) -> usize {
        (**self).variational_columns()
    }
    fn is_autonomous_affine(&self) -> bool {
        (**self).is_autonomous_affine()
    }
}

/// Base dimension `n` of a system of dimension `dim` carrying `c` variational columns
/// (`dim = n (1 + c)`); `None` when `dim` is not of that form.
pub fn base_dim(dim: usize, c: usize) -> Option<usize> {
    if c == 0 {
        return Some(dim);
    }
    // n + n c = dim with c = n for a square Φ; in general n = dim / (1 + c).
    dim.is_multiple_of(1 + c).then(|| dim / (1 + c))
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
