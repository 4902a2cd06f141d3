//! One-call convenience: integrate an initial-value problem with a built-in method.
//!
//! ```
//! use saltation_ode::{FnSystem, Ivp, Method, Sampling, SolverOptions};
//! let osc = FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
//!     dy[0] = y[1];
//!     dy[1] = -y[0];
//! });
//! let sol = Ivp::new(&osc, 0.0, &[1.0, 0.0])
//!     .sampling(Sampling::Times(vec![1.0, 2.0]))
//!     .solve(Method::Dp5, 2.0, &SolverOptions::with_tol(1e-10))
//!     .unwrap();
//! assert!((sol.trajectory.state(0)[0] - 1f64.cos()).abs() < 1e-8);
//! assert!((sol.y[0] - 2f64.cos()).abs() < 1e-8);
//! ```

use crate::events::{EventHit, EventSet, NoEvents};
use crate::solver::{Solver, Stop};
use crate::trajectory::{Sampling, Trajectory};
use crate::{Method, OdeError, OdeSystem, SolverOptions, Stats};

/// An initial-value problem `y' = f(t, y)`, `y(t0) = y0`, with optional guards and output.
pub struct Ivp<'a, S: ?Sized, E: ?Sized = NoEvents> {
    sys: &'a S,
    events: &'a E,
    t0: f64,
    y0: &'a [f64],
    sampling: Sampling,
}

/// Result of [`Ivp::solve`].
#[derive(Debug, Clone)]
pub struct IvpSolution {
    /// Final time (the end time or a terminal event's time).
    pub t: f64,
    /// Final state.
    pub y: Vec<f64>,
    /// Why the integration ended.
    pub stop: Stop,
    /// Recorded output.
    pub trajectory: Trajectory,
    /// Non-terminal events met.
    pub events: Vec<EventHit>,
    /// Work counters.
    pub stats: Stats,
}

impl<'a, S: OdeSystem + ?Sized> Ivp<'a, S, NoEvents> {
    /// The problem `y' = sys(t, y)`, `y(t0) = y0`, no guards, no recorded output.
    pub fn new(sys: &'a S, t0: f64, y0: &'a [f64]) -> Self {
        Ivp {
            sys,
            events: &NoEvents,
            t0,
            y0,
            sampling: Sampling::None,
        }
    }
}

impl<'a, S: OdeSystem + ?Sized, E: EventSet + ?Sized> Ivp<'a, S, E> {
    /// Watches these guards.
    pub fn events<E2: EventSet + ?Sized>(self, events: &'a E2) -> Ivp<'a, S, E2> {
        Ivp {
            sys: self.sys,
            events,
            t0: self.t0,
            y0: self.y0,
            sampling: self.sampling,
        }
    }

    /// Records output per `sampling`.
    pub fn sampling(mut self, sampling: Sampling) -> Self {
        self.sampling = sampling;
        self
    }

    /// Integrates to `t_end` (or the first terminal event) with `method`.
    pub fn solve(
        &self,
        method: Method,
        t_end: f64,
        opts: &SolverOptions,
    ) -> Result<IvpSolution, OdeError> {
        let mut solver = Solver::new(method.stepper(), opts.clone())?;
        solver.start(self.sys, self.events, self.t0, self.y0)?;
        let mut trajectory = Trajectory::new(self.sampling.clone());
        let stop = solver.integrate(self.sys, self.events, t_end, Some(&mut trajectory))?;
        Ok(IvpSolution {
            t: solver.t(),
            y: solver.y().to_vec(),
            stop,
            trajectory,
            events: solver.event_log().to_vec(),
            stats: solver.stats(),
        })
    }
}
