//! Reference tests of the trapezoidal rule (MATLAB `ode23t`) and TR-BDF2 (`ode23tb`) against
//! closed forms and published values.
//!
//! What is measured:
//! - order 2 of the solution and of the dense output with constant steps (least-squares slope of
//!   log error against log h, ±0.3);
//! - the one-step amplification on `y' = λy` equals the published stability functions
//!   `(1 + z/2)/(1 − z/2)` and `(1 + (√2 − 1) z)/(1 − (1 − √2/2) z)²`: `|R(−∞)| = 1` and `0`,
//!   `|R(iy)| ≤ 1`;
//! - a stiff linear problem (eigenvalues −1 and −10⁴) with closed form at rtol = atol = 1e-4,
//!   1e-7, 1e-10: with the local error held to the scaled tolerance `s · tol`,
//!   `s = sqrt(tol/10⁻³)`, a second-order method's global error is proportional to `tol` (it
//!   would go like `tol^(2/3)` with the error per step held to `tol`), and the measured
//!   `err / tol` stays within a factor 2 of its value at 1e-4 and below 3 (it is ≈ 0.9–1.4);
//! - Robertson's problem to t = 40 against the published reference values (Hairer & Wanner,
//!   *Solving ODEs II*, §IV.1), as an ODE and, with the trapezoidal rule, as the index-1 DAE
//!   `0 = y₁ + y₂ + y₃ − 1` (relative errors below `5 rtol` at rtol 1e-4 and 1e-7, in far fewer
//!   steps than an explicit method's stability limit allows);
//! - Robertson's problem to t = 10¹¹ at every rtol from 1e-2 to 1e-6 (within 10 tolerances of
//!   the published values, no stall) and OREGO at rtol 1e-2 … 1e-3 (within 300 tolerances);
//! - a variational system against its closed-form `Φ`;
//! - the falling ball through [`Solver`] (event time to 1e-10), and a bouncing one (restarts);
//! - the bad cases, and that steps do not allocate.

use crate::common::*;
use saltation_ode::{
    Atol, FnSystem, Ivp, Method, OdeError, OdeSystem, Sampling, SolverOptions, Stats, Stepper,
};
use std::f64::consts::SQRT_2;

const METHODS: [Method; 2] = [Method::Trapezoid, Method::Trbdf2];

mod bad_input;
mod events;
mod mass_matrix;
mod no_alloc;
mod robertson;
mod smooth;
mod stability;
mod stiff_linear;
mod variational;
