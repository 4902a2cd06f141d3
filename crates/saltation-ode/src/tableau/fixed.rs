//! Classical fixed-step methods: forward Euler, Heun (explicit trapezoid) and the classical
//! fourth-order Runge–Kutta method (Kutta 1901). They have no error estimate and use the cubic
//! Hermite dense output.

use super::{DenseOutput, ErrorEstimate, Tableau};

/// Forward Euler, order 1: `y_{n+1} = y_n + h f(t_n, y_n)`.
pub static EULER: Tableau = Tableau {
    name: "euler",
    c: &[0.0],
    a: &[&[]],
    b: &[1.0],
    order: 1,
    error_order: 1,
    fsal: false,
    error: ErrorEstimate::None,
    dense: DenseOutput::Hermite,
};

/// Heun's method (explicit trapezoidal rule), order 2.
pub static HEUN: Tableau = Tableau {
    name: "heun",
    c: &[0.0, 1.0],
    a: &[&[], &[1.0]],
    b: &[0.5, 0.5],
    order: 2,
    error_order: 2,
    fsal: false,
    error: ErrorEstimate::None,
    dense: DenseOutput::Hermite,
};

/// The classical Runge–Kutta method of order 4.
pub static RK4: Tableau = Tableau {
    name: "rk4",
    c: &[0.0, 0.5, 0.5, 1.0],
    a: &[&[], &[0.5], &[0.0, 0.5], &[0.0, 0.0, 1.0]],
    b: &[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
    order: 4,
    error_order: 4,
    fsal: false,
    error: ErrorEstimate::None,
    dense: DenseOutput::Hermite,
};
