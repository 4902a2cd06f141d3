//! Reference tests of the variable-order NDF (`ndf`, MATLAB `ode15s`) and BDF (`bdf`)
//! integrators against closed forms and published values.
//!
//! - convergence orders 1–5 of the solution and of the dense output (both families);
//! - a stiff linear (vector Prothero–Robinson) problem with closed form: error vs tolerance;
//! - Robertson's chemical kinetics to t = 40 against the published reference, as an ODE and as
//!   an index-1 DAE with a singular mass matrix;
//! - a variational system against its closed-form Φ;
//! - a falling ball's ground contact through `Solver`, and the restart at order 1 after it;
//! - the walker's stance phase with its variational matrix to the heel strike;
//! - work counters, no allocation per step, and the bad cases.
//!
//! One module a concern: [`orders`], [`stiff`] (the stiff linear problem and Robertson's),
//! [`variational`], [`events`], [`work`] (counters, allocation) and [`options`] (and bad cases).

use saltation_ode::{Method, MultistepOptions, SolverOptions};

mod events;
mod options;
mod orders;
mod stiff;
mod variational;
mod work;

/// The two families, run through every test.
const FAMILIES: [Method; 2] = [Method::Ndf, Method::Bdf];

fn opts_k(tol: f64, k: usize) -> SolverOptions {
    SolverOptions {
        multistep: MultistepOptions { max_order: Some(k) },
        max_steps: 10_000_000,
        ..SolverOptions::with_tol(tol)
    }
}

fn robertson_opts(rtol: f64) -> SolverOptions {
    SolverOptions {
        rtol,
        // y₂ is of size 10⁻⁵: its absolute tolerance must be well below that.
        atol: saltation_ode::Atol::Scalar(rtol * 1e-6),
        ..Default::default()
    }
}
