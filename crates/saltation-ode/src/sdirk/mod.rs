//! Singly diagonally implicit one-step methods: the trapezoidal rule (MATLAB `ode23t`) and
//! TR-BDF2 (MATLAB `ode23tb`), both of order 2 with a free interpolant.
//!
//! - [`newton`]: the simplified Newton iteration both use for their implicit stages
//!   (`M z = h f(t, v + g z)`, iteration matrix `M − g h J`, `J` refreshed after a slowly
//!   contracting step or a failure).
//! - [`mass`]: the constant mass matrix (identity, invertible, or singular for an index-1 DAE;
//!   the trapezoidal rule accepts a singular one, TR-BDF2 and the Rosenbrock method do not).
//! - [`step`]: the step-size control of the order-2 methods (with the tolerance scaling that
//!   makes their global error proportional to the tolerance) and the stepping machinery both
//!   steppers share (`Core`: the shared `StepState` with `f(t, y)`, Newton outcome
//!   handling, error test, acceptance).
//! - [`trapezoid`], [`trbdf2`]: the steppers (their formulas, predictors, error estimates, dense
//!   output) and their stability functions, re-exported as [`trapezoid_stability`] and
//!   [`trbdf2_stability`].

pub(crate) mod mass;
pub(crate) mod newton;
pub(crate) mod step;
mod trapezoid;
mod trbdf2;

pub use trapezoid::Trapezoid;
pub use trbdf2::Trbdf2;
// The stability functions, for the lecture figures (wired into `crate::stability`).
#[allow(unused_imports)]
pub use trapezoid::stability_function as trapezoid_stability;
#[allow(unused_imports)]
pub use trbdf2::stability_function as trbdf2_stability;

#[allow(dead_code)] // used by the stability functions
/// Complex division `a / b` of `(re, im)` pairs (Smith's algorithm, no spurious overflow).
pub(crate) fn cdiv(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    if b.0.abs() >= b.1.abs() {
        let r = b.1 / b.0;
        let den = b.0 + b.1 * r;
        ((a.0 + a.1 * r) / den, (a.1 - a.0 * r) / den)
    } else {
        let r = b.0 / b.1;
        let den = b.0 * r + b.1;
        ((a.0 * r + a.1) / den, (a.1 * r - a.0) / den)
    }
}
