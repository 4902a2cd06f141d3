//! Shared by `benches/ode_walker_step.rs` and `examples/ode_walker_repeat.rs` (included with
//! `#[path]`): the walker's stance vector field for the `ode_solvers` crate, and the states our
//! DOP853 evaluates the RHS at on one stance phase.

use ode_solvers::{System, Vector4};
use saltation::ode::problems::{HeelStrike, WALKER_GAMMA};
use saltation::ode::{Ivp, Method, OdeSystem, SolverOptions};
use std::cell::RefCell;

/// The walker's stance vector field (`WalkerStance`) for `ode_solvers`.
pub struct PeerWalker;

impl System<f64, Vector4<f64>> for PeerWalker {
    fn system(&self, _t: f64, x: &Vector4<f64>, dx: &mut Vector4<f64>) {
        let (s, c) = (x[0] - WALKER_GAMMA).sin_cos();
        let sp = x[2].sin();
        dx[0] = x[1];
        dx[1] = s;
        dx[2] = x[3];
        dx[3] = s + x[1] * x[1] * sp - c * sp;
    }
}

/// Records the states the integrator evaluates the RHS at.
struct Recorder<S> {
    inner: S,
    states: RefCell<Vec<Vec<f64>>>,
}

impl<S: OdeSystem> OdeSystem for Recorder<S> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.states.borrow_mut().push(y.to_vec());
        self.inner.rhs(t, y, dy)
    }
}

/// The states our DOP853 evaluates the RHS at on one stance phase from `y0` to heel-strike, one
/// per RHS evaluation.
pub fn recorded_states<S: OdeSystem>(sys: S, y0: &[f64], opts: &SolverOptions) -> Vec<Vec<f64>> {
    let rec = Recorder {
        inner: sys,
        states: RefCell::new(Vec::new()),
    };
    Ivp::new(&rec, 0.0, y0)
        .events(&HeelStrike)
        .solve(Method::Dop853, 10.0, opts)
        .expect("the walker's stance phase integrates");
    rec.states.into_inner()
}
