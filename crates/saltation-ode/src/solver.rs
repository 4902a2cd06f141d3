//! The driver: runs a [`Stepper`] to an end time or a terminal event, records output and events.
//!
//! ```
//! use saltation_ode::{Direction, Event, FnSystem, Method, Solver, SolverOptions, Stop};
//! // A ball dropped from height 1 (g = 9.81) hits the ground at t = sqrt(2/9.81).
//! let ball = FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
//!     dy[0] = y[1];
//!     dy[1] = -9.81;
//! });
//! let ground = vec![Event::new(|_t, y: &[f64]| y[0]).direction(Direction::Falling)];
//! let mut solver = Solver::new(Method::Dop853.stepper(), SolverOptions::with_tol(1e-10)).unwrap();
//! solver.start(&ball, &ground, 0.0, &[1.0, 0.0]).unwrap();
//! match solver.integrate(&ball, &ground, 10.0, None).unwrap() {
//!     Stop::Event(hit) => assert!((hit.t - (2.0f64 / 9.81).sqrt()).abs() < 1e-14),
//!     Stop::TimeReached => panic!("the ball never landed"),
//! }
//! ```

use crate::events::{EventHit, EventSet};
use crate::locate::EventScanner;
use crate::stepper::Stepper;
use crate::trajectory::{Sampling, Trajectory};
use crate::zeno::ZenoMonitor;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Why [`Solver::integrate`] returned.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// The end time was reached; the solver sits exactly there.
    TimeReached,
    /// A terminal event fired; the solver sits exactly at the event (time and state of the hit).
    Event(EventHit),
}

/// An integrator with its workspace: start it, integrate to a time or an event, restart after a
/// jump, and so on. Statistics and the Zeno monitor accumulate over restarts.
#[derive(Debug, Clone)]
pub struct Solver<M: Stepper> {
    stepper: M,
    opts: SolverOptions,
    stats: Stats,
    scanner: EventScanner,
    zeno: ZenoMonitor,
    log: Vec<EventHit>,
    started: bool,
    /// Whether the Zeno monitor fits the geometric accumulation against the end time.
    zeno_fit: bool,
}

impl<M: Stepper> Solver<M> {
    /// A solver running `stepper` with validated `opts`.
    pub fn new(stepper: M, opts: SolverOptions) -> Result<Self, OdeError> {
        opts.validate()?;
        let zeno = ZenoMonitor::new(&opts.zeno);
        Ok(Self {
            stepper,
            opts,
            stats: Stats::default(),
            scanner: EventScanner::default(),
            zeno,
            log: Vec::new(),
            started: false,
            zeno_fit: true,
        })
    }

    /// Starts a new integration at `(t0, y0)`: clears statistics, event log and Zeno history.
    /// Guards that are exactly zero at `t0` are not detected there.
    pub fn start<S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        sys: &S,
        events: &E,
        t0: f64,
        y0: &[f64],
    ) -> Result<(), OdeError> {
        self.stats = Stats::default();
        self.zeno.clear();
        self.log.clear();
        self.scanner.forget_fired();
        self.restart(sys, events, t0, y0)
    }

    /// Restarts at `(t, y)` (after a reset map, or with another vector field `sys`), keeping
    /// statistics and the Zeno history.
    pub fn restart<S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        sys: &S,
        events: &E,
        t: f64,
        y: &[f64],
    ) -> Result<(), OdeError> {
        // The rest of the options was validated by `new`.
        self.opts.check_atol_len(sys.dim())?;
        self.stepper.start(sys, t, y, &self.opts, &mut self.stats)?;
        // With a mass matrix the step's ends carry f = M y', not y': screen events on the
        // stepper's dense output then.
        let dense_screen = events.count() > 0 && sys.mass_matrix().is_some();
        // The flow at the start (the stepper's own `f`), for the sign a guard at zero leaves
        // with (not with a mass matrix: the stepper's `f` is then `M y'`).
        let f0 = (!dense_screen).then(|| self.stepper.ends().f1);
        self.scanner.reset(
            sys,
            events,
            (t, y, f0),
            self.opts.event_samples,
            dense_screen,
            &mut self.stats,
        )?;
        self.started = true;
        Ok(())
    }

    /// Integrates until `t_end` or the first terminal event, recording into `out` if given.
    /// Non-terminal events are appended to [`Solver::event_log`].
    pub fn integrate<S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        sys: &S,
        events: &E,
        t_end: f64,
        mut out: Option<&mut Trajectory>,
    ) -> Result<Stop, OdeError> {
        if !self.started {
            return Err(OdeError::NotStarted);
        }
        let t_now = self.stepper.t();
        if !(t_end >= t_now) {
            return Err(OdeError::BackwardSpan { t: t_now, t_end });
        }
        if let Some(o) = out.as_deref_mut() {
            record_start(o, t_now, self.stepper.y());
        }
        let mut steps = 0usize;
        while self.stepper.t() < t_end {
            if steps >= self.opts.max_steps {
                return Err(OdeError::MaxSteps {
                    t: self.stepper.t(),
                    steps,
                });
            }
            self.stepper.step(sys, t_end, &self.opts, &mut self.stats)?;
            steps += 1;
            let hit = if events.count() > 0 {
                self.scanner
                    .scan(&mut self.stepper, sys, events, &mut self.stats)?
            } else {
                None
            };
            if hit.is_none() && events.count() > 0 && self.stepper.steps_need_guard_scale() {
                let h =
                    self.scanner
                        .guard_step_limit(&mut self.stepper, sys, events, &mut self.stats);
                self.stepper.limit_next_step(h);
            }
            // Non-terminal events before the stop (or in the whole step).
            let t_cut = hit.as_ref().map_or(f64::INFINITY, |h| h.t);
            if let Some(passed) = self.scanner.take_passed(t_cut) {
                for h in passed {
                    self.zeno.record(h.t, h.index, self.fit_end(t_end))?;
                    self.stats.events += 1;
                    self.log.push(h);
                }
            }
            if let Some(o) = out.as_deref_mut() {
                record_step(o, &mut self.stepper, sys, t_cut, &mut self.stats);
            }
            if let Some(hit) = hit {
                self.stats.events += 1;
                self.stepper.truncate(sys, hit.t, &hit.y, &mut self.stats);
                self.scanner
                    .after_stop(events, hit.t, &hit.y, &mut self.stats);
                self.scanner.mark_fired(hit.index, hit.t);
                if let Some(o) = out.as_deref_mut() {
                    let steps =
                        matches!(o.sampling, Sampling::Steps | Sampling::StepsAndGrid { .. });
                    if steps && o.t.last() != Some(&hit.t) {
                        o.push(hit.t, &hit.y);
                    }
                }
                self.zeno.record(hit.t, hit.index, self.fit_end(t_end))?;
                return Ok(Stop::Event(hit));
            }
        }
        Ok(Stop::TimeReached)
    }

    /// The guard that fired last (index, time, its value there), which a restart at that time
    /// treats as sitting at zero.
    pub fn last_fired(&self) -> Option<(usize, f64, f64)> {
        self.scanner.fired()
    }

    /// Takes over the last fired guard of another integrator (a restart on this one after an
    /// event located by the other).
    pub fn set_last_fired(&mut self, fired: Option<(usize, f64, f64)>) {
        self.scanner.set_fired(fired);
    }

    /// Whether an accumulation of events predicted before the end time of
    /// [`Solver::integrate`] ends it with [`OdeError::Zeno`] (default `true`). A caller whose
    /// run ends after a number of events rather than at a time (a given number of strides)
    /// turns it off: the accumulation point may lie beyond its last event. The other Zeno
    /// tests stay.
    pub fn set_zeno_fit(&mut self, on: bool) {
        self.zeno_fit = on;
    }

    fn fit_end(&self, t_end: f64) -> f64 {
        if self.zeno_fit {
            t_end
        } else {
            f64::NEG_INFINITY
        }
    }

    /// Current time.
    pub fn t(&self) -> f64 {
        self.stepper.t()
    }

    /// Current state.
    pub fn y(&self) -> &[f64] {
        self.stepper.y()
    }

    /// Work counters since [`Solver::start`].
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Non-terminal events met since [`Solver::start`].
    pub fn event_log(&self) -> &[EventHit] {
        &self.log
    }

    /// The options in force.
    pub fn options(&self) -> &SolverOptions {
        &self.opts
    }

    /// The stepper (for its name, order, dense output).
    pub fn stepper(&self) -> &M {
        &self.stepper
    }
}

fn record_start(o: &mut Trajectory, t: f64, y: &[f64]) {
    match &o.sampling {
        Sampling::Steps if o.t.last() != Some(&t) => o.push(t, y),
        Sampling::StepsAndGrid { .. } => {
            // The start, and past it every grid time at or before it.
            while o.sampling.time(o.cursor).is_some_and(|tk| tk <= t) {
                o.cursor += 1;
            }
            if o.t.last() != Some(&t) {
                o.push(t, y);
            }
        }
        Sampling::Times(_) | Sampling::Grid { .. } => {
            let mut hit = false;
            let mut cursor = o.cursor;
            while let Some(tk) = o.sampling.time(cursor).filter(|&tk| tk <= t) {
                hit |= tk == t;
                cursor += 1;
            }
            o.cursor = cursor;
            if hit {
                o.push(t, y);
            }
        }
        _ => {}
    }
}

/// Records the accepted step's output up to `t_cut` (a terminal event inside it).
fn record_step<M: Stepper, S: OdeSystem + ?Sized>(
    o: &mut Trajectory,
    stepper: &mut M,
    sys: &S,
    t_cut: f64,
    stats: &mut Stats,
) {
    let t1 = stepper.t();
    match &o.sampling {
        Sampling::None => {}
        Sampling::Steps => {
            if t1 <= t_cut {
                o.push(t1, stepper.y());
            }
        }
        Sampling::Times(_) | Sampling::Grid { .. } => {
            record_grid(o, stepper, sys, t1.min(t_cut), stats)
        }
        Sampling::StepsAndGrid { .. } => {
            // The grid inside the step, then its end (unless a terminal event cut it short:
            // the event's point is recorded by the caller).
            record_grid(o, stepper, sys, t1.min(t_cut), stats);
            if t1 <= t_cut && o.t.last() != Some(&t1) {
                o.push(t1, stepper.y());
            }
        }
    }
}

/// Records the sampling's times up to `end` (within the accepted step) from the dense output.
fn record_grid<M: Stepper, S: OdeSystem + ?Sized>(
    o: &mut Trajectory,
    stepper: &mut M,
    sys: &S,
    end: f64,
    stats: &mut Stats,
) {
    let t1 = stepper.t();
    let n = stepper.y().len();
    o.dim = n;
    while let Some(tk) = o.sampling.time(o.cursor).filter(|&tk| tk <= end) {
        o.cursor += 1;
        if o.t.last() == Some(&tk) {
            continue;
        }
        let row = o.y.len();
        o.y.resize(row + n, 0.0);
        if tk == t1 {
            o.y[row..].copy_from_slice(stepper.y());
        } else {
            stepper.dense(sys, tk, &mut o.y[row..], stats);
        }
        o.t.push(tk);
    }
}
