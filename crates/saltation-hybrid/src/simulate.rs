//! Simulation through events and resets, with a trace (times, states, modes, events) for plots
//! and tables: a number of strides, or a time span.

use crate::error::HybridError;
use crate::event_loop::{JumpWork, Segment, SegmentEnd};
use crate::model::EvalModel;
use crate::state_solvers::{falls_back, StateSolvers};
use crate::stride::{EventRecord, StrideOptions};
use crate::variational::ModeFlow;
use saltation_ode::{Sampling, Stats, Trajectory};

/// What to simulate.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulateOptions {
    /// Integration settings, start mode, events per stride and time limit per stride.
    pub stride: StrideOptions,
    /// Number of strides (at most [`MAX_STRIDES`]); ignored when `t_end` is set.
    pub strides: usize,
    /// Output interval (dense output); `None` records every integration step. Ignored when `at`
    /// is set.
    pub dt: Option<f64>,
    /// With `dt`: record every integration step as well as the `dt` grid
    /// ([`Sampling::StepsAndGrid`]), so that curves through the samples are smooth and miss
    /// no fast transient (the figure of `saltation simulate`). Default `false`.
    pub keep_steps: bool,
    /// Start time (default 0).
    pub t0: f64,
    /// Integrate from `t0` to this time through any number of events (bounded by the Zeno
    /// limits) instead of a number of strides; reaching it is success.
    pub t_end: Option<f64>,
    /// Sample exactly at these times (increasing, within the simulated span), from the
    /// integrator's dense output, instead of every `dt`.
    pub at: Option<Vec<f64>>,
}

/// Largest [`SimulateOptions::strides`].
pub const MAX_STRIDES: usize = 1_000_000;
/// Largest number of sample times ([`SimulateOptions::at`], or the span over `dt`), and of
/// samples kept when every step is kept (a longer run ends with
/// [`HybridError::TooManySamples`]).
pub const MAX_SAMPLES: usize = 10_000_000;

impl Default for SimulateOptions {
    fn default() -> Self {
        Self {
            stride: StrideOptions::default(),
            strides: 1,
            dt: Some(0.01),
            keep_steps: false,
            t0: 0.0,
            t_end: None,
            at: None,
        }
    }
}

impl SimulateOptions {
    /// Checks every field (the stride options against the model).
    pub fn validate_for<M: EvalModel + ?Sized>(&self, model: &M) -> Result<(), HybridError> {
        self.stride.validate_for(model)?;
        let bad = |field, reason| Err(HybridError::InvalidOption { field, reason });
        if self.strides > MAX_STRIDES {
            return bad("strides", "must be at most 1000000");
        }
        if !self.t0.is_finite() {
            return bad("t0", "must be finite");
        }
        if let Some(t_end) = self.t_end {
            if !(t_end.is_finite() && t_end >= self.t0) {
                return bad("t_end", "must be finite and not before the start time");
            }
        }
        if let Some(dt) = self.dt {
            if !(dt > 0.0 && dt.is_finite()) {
                return bad("dt", "must be finite and > 0");
            }
            // Samples per segment: over the whole span, or over one stride's time limit.
            let span = self
                .t_end
                .map_or(self.stride.t_max, |t_end| t_end - self.t0);
            if self.at.is_none() && !(span / dt <= MAX_SAMPLES as f64) {
                return bad("dt", "gives more than 1e7 samples in one segment");
            }
            // The grid times are k·dt: k must stay far below 2^53 for them to be distinct.
            let far = self.t0.abs().max((self.t0 + span).abs());
            if self.at.is_none() && !(far / dt <= 1e15) {
                return bad(
                    "dt",
                    "is too small for times this far from 0 (the grid times k·dt would repeat)",
                );
            }
        }
        // Every step kept: one segment alone may keep `max_steps` samples.
        let every_step = self.dt.is_none() || self.keep_steps;
        if self.at.is_none() && every_step && self.stride.ode.max_steps > MAX_SAMPLES {
            return bad(
                "max_steps",
                "must be at most 1e7 when every step is kept (no sample times): give sample \
                 times (`--at`, or `at`/`dt`)",
            );
        }
        if let Some(at) = &self.at {
            if at.len() > MAX_SAMPLES {
                return bad("at", "at most 1e7 sample times");
            }
            if at.iter().any(|t| !t.is_finite()) {
                return bad("at", "every sample time must be finite");
            }
            if at.windows(2).any(|w| !(w[1] > w[0])) {
                return bad("at", "sample times must be strictly increasing");
            }
            if at.first().is_some_and(|&t| t < self.t0) {
                return bad("at", "sample times must not be before the start time");
            }
            if let (Some(&last), Some(t_end)) = (at.last(), self.t_end) {
                if last > t_end {
                    return bad("at", "sample times must not be after the end time");
                }
            }
        }
        Ok(())
    }
}

/// A simulated trajectory. If the simulation failed, `failure` says why and everything before
/// it is kept.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Sample times.
    pub t: Vec<f64>,
    /// States at the samples.
    pub x: Vec<Vec<f64>>,
    /// Mode at each sample.
    pub mode: Vec<usize>,
    /// Events, in order.
    pub events: Vec<EventRecord>,
    /// States at the start of each stride (the first is the initial state).
    pub stride_starts: Vec<Vec<f64>>,
    /// Where the simulation ended: time, state and mode (after the last reset).
    pub end: (f64, Vec<f64>, usize),
    /// Integrator work over the whole simulation.
    pub stats: Stats,
    /// Why the simulation stopped early, if it did.
    pub failure: Option<HybridError>,
    /// The modes whose flow was stepped exactly (`[x(t + h); 1] = e^{Ãh} [x(t); 1]`, the
    /// autonomous affine modes unless `exact_affine_phases` is off or the exact stepper failed
    /// there and `method` took over), in the order first used.
    pub exact_affine_modes: Vec<usize>,
}

/// Simulates from `x0` at time `opts.t0` in `opts.stride.start_mode`: `opts.strides` strides, or
/// up to `opts.t_end`. The modes are integrated as in a stride: by `opts.stride.method`, or
/// stepped exactly where [`crate::StrideOptions::steps_exactly`] says so (autonomous affine
/// modes, unless `exact_affine_phases` is off, as a solver comparison wants).
pub fn simulate<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    opts: &SimulateOptions,
) -> Result<Trace, HybridError> {
    opts.validate_for(model)?;
    let n = model.dim();
    if x0.len() != n {
        return Err(HybridError::DimensionMismatch {
            what: "initial state",
            expected: n,
            got: x0.len(),
        });
    }
    if x0.iter().any(|v| !v.is_finite()) {
        return Err(HybridError::NonFinite {
            what: "initial state",
        });
    }
    // The method's integrator, and the exact one for the autonomous affine modes, as in a
    // stride.
    let mut solvers = StateSolvers::new(&opts.stride)?;
    // A number of strides ends after its events, perhaps before their accumulation point:
    // only a time span is checked against a predicted accumulation.
    solvers.set_zeno_fit(opts.t_end.is_some());
    let mut work = JumpWork::new(n);
    let mut trace = Trace::default();
    let mut mode = opts.stride.start_mode;
    let mut x = x0.to_vec();
    let mut t = opts.t0;
    let mut first = true;
    let span = opts.t_end.is_some();
    let strides = if span { 1 } else { opts.strides };
    'strides: for _ in 0..strides {
        trace.stride_starts.push(x.clone());
        let t_limit = opts.t_end.unwrap_or(t + opts.stride.t_max);
        let mut events_left = opts.stride.events_per_stride;
        while span || events_left > 0 {
            let sys = ModeFlow { model, mode };
            let mut traj = Trajectory::new(sampling(opts, t, t_limit, first));
            let exact = solvers.steps_exactly(&opts.stride, model, mode);
            let mut res = run_segment(&mut solvers, opts, (model, mode, &sys), (t, &x, t_limit))
                .advance(&mut traj, &mut work);
            if exact {
                if res.as_ref().err().is_some_and(falls_back) {
                    // The exact stepper cannot take this mode (stiff or huge A): the method
                    // runs the segment again from its start.
                    solvers.fall_back(mode);
                    traj = Trajectory::new(sampling(opts, t, t_limit, first));
                    res = run_segment(&mut solvers, opts, (model, mode, &sys), (t, &x, t_limit))
                        .advance(&mut traj, &mut work);
                } else if res.is_ok() {
                    solvers.note_exact(mode);
                }
            }
            let (solver, _) = solvers.for_mode(&opts.stride, model, mode);
            first = false;
            for k in 0..traj.len() {
                trace.t.push(traj.t[k]);
                trace.x.push(traj.state(k).to_vec());
                trace.mode.push(mode);
            }
            let c = match res {
                Err(e) => {
                    // End where the integrator stopped (its last accepted point; a state
                    // that is not finite, from a step that failed, is not reported as the end).
                    if solver.y().len() == n && solver.y().iter().all(|v| v.is_finite()) {
                        t = solver.t();
                        x.copy_from_slice(solver.y());
                    }
                    trace.failure = Some(e);
                    break 'strides;
                }
                Ok(SegmentEnd::TimeReached) if span => {
                    t = t_limit;
                    x.copy_from_slice(solver.y());
                    break 'strides;
                }
                Ok(SegmentEnd::TimeReached) => {
                    trace.failure = Some(HybridError::GuardNotReached {
                        mode,
                        t_max: opts.stride.t_max,
                        seen: std::mem::take(&mut work.rejected),
                    });
                    break 'strides;
                }
                Ok(SegmentEnd::Event(c)) => c,
            };
            // Only the events that count end a stride, as in the stride map (a stroboscopic
            // section's impacts between its strobes do not).
            if model.stride_event(mode, c.guard) {
                events_left = events_left.saturating_sub(1);
            }
            let dense_grid = opts.at.is_none();
            // Close the segment exactly at the event (not for explicit sample times).
            if dense_grid && trace.t.last() != Some(&c.t) {
                trace.t.push(c.t);
                trace.x.push(c.y_minus.clone());
                trace.mode.push(mode);
            }
            trace.events.push(EventRecord {
                t: c.t,
                mode,
                guard: c.guard,
                target: c.target,
                x_minus: c.y_minus,
                x_plus: c.x_plus.clone(),
            });
            mode = c.target;
            x = c.x_plus;
            t = c.t;
            if dense_grid {
                trace.t.push(t);
                trace.x.push(x.clone());
                trace.mode.push(mode);
            }
            if trace.t.len() > MAX_SAMPLES {
                // Only when every step is kept: validation bounds the other samplings; a
                // segment adds at most `max_steps` ≤ MAX_SAMPLES.
                trace.failure = Some(HybridError::TooManySamples {
                    limit: MAX_SAMPLES,
                    t,
                });
                break 'strides;
            }
        }
    }
    trace.stats = solvers.stats();
    trace.exact_affine_modes = solvers.exact_modes().to_vec();
    trace.end = (t, x, mode);
    Ok(trace)
}

/// One segment of a simulation on the integrator [`StateSolvers::for_mode`] picks, ready to
/// [`SegmentRun::advance`].
struct SegmentRun<'a, 's, M: ?Sized> {
    solvers: &'s mut StateSolvers,
    model: &'a M,
    mode: usize,
    sys: &'a ModeFlow<'a, M>,
    opts: &'a SimulateOptions,
    start: (f64, &'a [f64], f64),
}

fn run_segment<'a, 's, M: EvalModel + ?Sized>(
    solvers: &'s mut StateSolvers,
    opts: &'a SimulateOptions,
    (model, mode, sys): (&'a M, usize, &'a ModeFlow<'a, M>),
    start: (f64, &'a [f64], f64),
) -> SegmentRun<'a, 's, M> {
    SegmentRun {
        solvers,
        model,
        mode,
        sys,
        opts,
        start,
    }
}

impl<M: EvalModel + ?Sized> SegmentRun<'_, '_, M> {
    fn advance(
        self,
        traj: &mut Trajectory,
        work: &mut JumpWork,
    ) -> Result<SegmentEnd, HybridError> {
        let (solver, first) = self
            .solvers
            .for_mode(&self.opts.stride, self.model, self.mode);
        let seg = Segment {
            model: self.model,
            mode: self.mode,
            sys: self.sys,
            first,
            grazing_tol: self.opts.stride.grazing_tol,
            accumulate: true,
        };
        let (t, x, t_limit) = self.start;
        seg.advance(solver, t, x, t_limit, Some(traj), work)
    }
}

/// Output times of a segment from `t` to `t_limit`: the requested times in the segment
/// (including `t` itself only on the first segment, so that a time at an event is recorded
/// once), the `dt` grid with the segment's start (with every step too for `keep_steps`), or
/// every step.
fn sampling(opts: &SimulateOptions, t: f64, t_limit: f64, first: bool) -> Sampling {
    if let Some(at) = &opts.at {
        let times = at
            .iter()
            .copied()
            .filter(|&s| (s > t || (first && s == t)) && s <= t_limit)
            .collect();
        return Sampling::Times(times);
    }
    match opts.dt {
        // The segment's start and the grid points k·dt in (t, t_limit], made as the
        // integration reaches them (a segment usually ends at an event long before t_limit).
        Some(dt) if opts.keep_steps => Sampling::StepsAndGrid {
            start: t,
            dt,
            end: t_limit,
        },
        Some(dt) => Sampling::Grid {
            start: t,
            dt,
            end: t_limit,
        },
        None => Sampling::Steps,
    }
}
