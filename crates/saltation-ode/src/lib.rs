//! # saltation-ode
//!
//! Initial-value integrators for Saltation, one front door for every family ([`Method`]):
//! explicit Runge–Kutta pairs from Butcher tableaus held as data (Euler, Heun, RK4;
//! Bogacki–Shampine 3(2), Runge–Kutta–Fehlberg 4(5), Dormand–Prince 5(4) and 8(5,3)), the
//! variable-order Adams–Bashforth–Moulton PECE ([`adams`]), and for stiff problems and index-1
//! DAEs (a singular mass matrix) Radau IIA of order 5, the variable-order NDF/BDF ([`bdf`]), a
//! Rosenbrock W-method, the trapezoidal rule and TR-BDF2. Error control with the MATLAB
//! (`max(r|y|, a)`) or CVODE (`r|y| + a`) weights (`rtol` floored at a few ulps), a PI step-size
//! controller, dense output of each method's own order, and event location that never skips a
//! crossing the step resolves (a guard's sign after a reset from its derivatives, sample
//! intervals screened for pairs of crossings, located on the dense output), with direction
//! filters, enabling conditions, and Zeno recognised from the accumulation of events; and an
//! exact stepper for autonomous affine systems ([`AffineExp`], `e^{Ãh}`), which the hybrid layer
//! uses in the modes that say they are affine (falling back to the chosen method where it
//! cannot take a mode).
//!
//! ## What you want to do
//! - **Integrate once**: [`Ivp`] — `Ivp::new(&sys, t0, &y0).solve(Method::Dop853, t_end, &opts)`.
//! - **Integrate piecewise** (stop at an event, apply a jump, go on): [`Solver`] with
//!   [`Solver::start`], [`Solver::integrate`], [`Solver::restart`].
//! - **Write a system**: implement [`OdeSystem`] (in-place `rhs`) or wrap a closure in
//!   [`FnSystem`]; guards implement [`EventSet`] or are a `Vec<`[`Event`]`>`.
//! - **Extended states** (state + variational matrix): set [`SolverOptions::error_dims`] to keep the
//!   extra components out of (or in) step control.
//! - **Study a method**: its [`Tableau`] and [`stability_polynomial`] / [`stability_function`].
//!
//! ## Error norm
//! With `w_i = r |y_i| + a_i` (or `max(r|y_i|, a_i)`), `|y_i| = max(|y_n,i|, |y_{n+1},i|)`, a step is
//! accepted when `‖e / w‖ ≤ 1` (RMS norm by default, max norm optional).
//!
//! ## Where the state sits
//! After [`Solver::integrate`] returns [`Stop::TimeReached`] the solver is exactly at the end
//! time; after [`Stop::Event`] it is exactly at the located event (state from the dense output).
#![warn(missing_docs)]
// Range checks are written `!(x > 0.0)` on purpose: they reject NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod adams;
mod any_stepper;
pub mod bdf;
mod control;
mod dim;
mod error;
pub mod events;
mod explicit_rk;
mod exponential;
mod ivp;
pub mod linalg;
mod locate;
mod method;
mod num;
mod options;
pub mod problems;
pub mod radau;
pub mod root;
pub mod rosenbrock;
pub mod sdirk;
mod size;
mod solver;
pub mod stability;
mod stats;
mod step_state;
mod stepper;
mod system;
pub mod tableau;
mod trajectory;
mod zeno;

pub use adams::Abm;
pub use any_stepper::AnyStepper;
pub use bdf::Bdf;
pub use control::{initial_step, PiController};
pub use error::OdeError;
pub use events::{Direction, Event, EventHit, EventSet, NoEvents};
pub use explicit_rk::ExplicitRk;
pub use exponential::AffineExp;
pub use ivp::{Ivp, IvpSolution};
pub use method::{Family, Method};
pub use num::Num;
pub use options::{
    Atol, ErrorNorm, ErrorWeight, ExplicitOptions, MultistepOptions, NewtonOptions, SolverOptions,
    ZenoLimit, MAX_COUNT, MAX_EVENT_SAMPLES, MAX_NEWTON_ITERS, MAX_ZENO_WINDOW, RTOL_FLOOR,
};
pub use radau::Radau5;
pub use rosenbrock::Rosenbrock23;
pub use sdirk::{Trapezoid, Trbdf2};
pub use size::{check_dense, MAX_DENSE_ENTRIES};
pub use solver::{Solver, Stop};
pub use stability::{amplification, stability_function, stability_polynomial};
pub use stats::Stats;
pub use stepper::{StepEnds, Stepper};
pub use system::{base_dim, FnSystem, OdeSystem};
pub use tableau::Tableau;
pub use trajectory::{Sampling, Trajectory};
pub use zeno::ZenoMonitor;
