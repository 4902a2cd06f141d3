//! Checking a model's declared admissibility conditions along a simulated trajectory, and an
//! initial state against them and against the mode's equalities.
//!
//! A model declares conditions `c_{m,i}(x; p) ≥ 0` that must hold while the state is in mode
//! `m` ([`crate::HybridModel::conditions`]). A trajectory (a [`Trace`]) is checked by running
//! its segments again with the same integrators, watching each condition of the segment's mode
//! as a non-terminal event falling through zero beside the mode's guards: the integrator's own
//! event location ([`saltation_ode::Solver`], on the method's dense output, with its interior
//! samples) finds the first time a condition becomes negative, even between two steps. The
//! guards stop the run where the trace's events are, so the segments are those of the trace.
//! Each step is screened at [`CONDITION_SAMPLES`] interior points at least (more than a
//! stride's default), since a condition may dip below zero and recover inside one step; a dip
//! narrower than the samples' spacing is not seen, like a guard's double crossing.
//! Besides the located crossings every condition is evaluated at the start of each segment
//! (right after a reset), at every step and just before each event: a value below
//! `−tol · s_{m,i}`, with `s_{m,i}` the largest `|c_{m,i}|` over the trajectory, is a
//! violation too (a condition that starts a mode already negative never crosses zero). A
//! crossing within `10⁻¹²·max(1, |t_e|)` of the segment's event `t_e` is the event itself (a
//! contact force that reaches zero exactly where lift-off happens).
//!
//! The earliest violation is reported ([`first_violation`]): its time and state, the condition
//! and mode, and the lowest value of that condition seen in that segment from there on (`0`
//! when it dips and recovers within one step). An orbit's verdict ([`check_trace`],
//! [`check_stride`]) names it as the model asks ([`crate::HybridModel::condition_kind`]: a
//! constrained contact that pulls or penetrates); a simulation's error names the condition
//! itself ([`ConditionViolation::error`]). Every model's conditions, the constrained
//! mechanical systems' contact forces and gaps included, are checked by this one algorithm.

use crate::admissibility::{Admissibility, Violation, ViolationKind};
use crate::error::{HybridError, StateFailure};
use crate::guards::ModeGuards;
use crate::model::EvalModel;
use crate::simulate::Trace;
use crate::state_solvers::StateSolvers;
use crate::stride::StrideOptions;
use crate::variational::ModeFlow;
use saltation_ode::{Direction, EventSet, Sampling, Stop, Trajectory, ZenoLimit, MAX_COUNT};

/// Default relative tolerance of [`check_trace`] (a value below `−tol · s` is a violation).
pub const CONDITION_TOL: f64 = 1e-9;

/// Fewest interior samples per step at which the conditions are screened for a sign change
/// (the file's `event_samples` when larger).
pub const CONDITION_SAMPLES: usize = 16;

/// Tolerance of [`check_initial_state`]: a condition below `−tol · max(1, ‖x‖∞)` or an
/// equality residual above it refuses the state.
pub const STATE_TOL: f64 = 1e-9;

/// Whether a model declares any admissibility condition.
pub fn has_conditions<M: EvalModel + ?Sized>(model: &M) -> bool {
    (0..model.modes()).any(|m| model.conditions(m) > 0)
}

/// The guards of a mode (terminal, indices `0..g`) followed by its conditions (non-terminal,
/// falling, indices `g..g + c`), and optionally the time derivative of one condition
/// (non-terminal, rising, index `g + c`: its zeros are the condition's local minima).
struct Watched<'a, M: ?Sized> {
    guards: ModeGuards<'a, M>,
    g: usize,
    /// The condition whose slope `dc/dt` is watched.
    slope: Option<usize>,
}

impl<M: EvalModel + ?Sized> Watched<'_, M> {
    /// The conditions of the mode.
    fn nc(&self) -> usize {
        self.guards.model.conditions(self.guards.mode)
    }
}

/// `dc/dt = ∇c · f` of condition `cond` of `mode` at `(t, x)`, by a central difference of `c`
/// along the flow direction `f̂ = f/‖f‖`: `‖f‖ (c(x + h f̂) − c(x − h f̂)) / 2h` with
/// `h = ε^{1/3} max(1, ‖x‖∞)` (error `O(h²)` of truncation plus `O(ε/h)` of rounding, both
/// `∼ ε^{2/3}` relative). Only its sign change matters: a zero of it misplaced by `δt` moves
/// the minimum's value by `O(δt²)`.
pub fn condition_slope<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    cond: usize,
    t: f64,
    x: &[f64],
) -> f64 {
    let n = model.dim();
    let x = &x[..n];
    let mut f = vec![0.0; n];
    model.flow(mode, t, x, &mut f);
    let nf = f.iter().map(|v| v * v).sum::<f64>().sqrt();
    if !(nf > 0.0 && nf.is_finite()) {
        return 0.0;
    }
    let h = f64::EPSILON.cbrt() * x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let shifted =
        |s: f64| -> Vec<f64> { x.iter().zip(&f).map(|(xi, fi)| xi + s * fi / nf).collect() };
    let (plus, minus) = (shifted(h), shifted(-h));
    nf * (model.condition(mode, cond, &plus) - model.condition(mode, cond, &minus)) / (2.0 * h)
}

impl<M: EvalModel + ?Sized> EventSet for Watched<'_, M> {
    fn count(&self) -> usize {
        self.g + self.nc() + usize::from(self.slope.is_some())
    }
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64 {
        let m = self.guards.model;
        if i < self.g {
            self.guards.value(i, t, y)
        } else if i < self.g + self.nc() {
            m.condition(self.guards.mode, i - self.g, &y[..m.dim()])
        } else {
            let cond = self.slope.unwrap_or(0);
            condition_slope(m, self.guards.mode, cond, t, y)
        }
    }
    fn direction(&self, i: usize) -> Direction {
        if i < self.g {
            self.guards.direction(i)
        } else if i < self.g + self.nc() {
            Direction::Falling
        } else {
            Direction::Rising
        }
    }
    fn enabled(&self, i: usize, t: f64, y: &[f64]) -> bool {
        i >= self.g || self.guards.enabled(i, t, y)
    }
    fn terminal(&self, i: usize) -> bool {
        i < self.g
    }
}

/// A value of a condition somewhere on the trajectory.
struct Sample {
    t: f64,
    mode: usize,
    cond: usize,
    value: f64,
    x: Vec<f64>,
    /// Index of the segment.
    seg: usize,
    /// Where in the segment.
    at: MinimumAt,
}

/// One smooth piece of a trace: mode, start and end.
struct Piece<'a> {
    mode: usize,
    t0: f64,
    x0: &'a [f64],
    /// End time and state before the event; `None` for the last piece (which ends at
    /// `trace.end`, by time or by a failure).
    event: Option<(f64, &'a [f64])>,
}

/// The smooth pieces of `trace`, which started at `(t0, x0)` in `start_mode`.
fn pieces<'a>(trace: &'a Trace, t0: f64, x0: &'a [f64], start_mode: usize) -> Vec<Piece<'a>> {
    let mut out = Vec::with_capacity(trace.events.len() + 1);
    let (mut mode, mut t, mut x) = (start_mode, t0, x0);
    for e in &trace.events {
        out.push(Piece {
            mode,
            t0: t,
            x0: x,
            event: Some((e.t, &e.x_minus)),
        });
        (mode, t, x) = (e.target, e.t, &e.x_plus);
    }
    out.push(Piece {
        mode,
        t0: t,
        x0: x,
        event: None,
    });
    out
}

/// The first violation of a declared condition along a trajectory ([`first_violation`]), in
/// the model's own terms: the mode's and the condition's indices and the condition's value.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionViolation {
    /// Time of the first violation.
    pub t: f64,
    /// Index of the mode.
    pub mode: usize,
    /// Index of the condition in its mode.
    pub condition: usize,
    /// Lowest value of the condition in that phase from `t` on (`≤ 0`).
    pub value: f64,
    /// The state at `t`.
    pub state: Vec<f64>,
    /// Index of the phase (smooth piece of the trajectory, `0` up to the number of events)
    /// where it happens.
    pub phase: usize,
}

impl ConditionViolation {
    /// As an orbit reports it: named and classified by
    /// [`EvalModel::condition_kind`], the value `c` itself or, for a contact that pulls,
    /// `λ = −c`.
    pub fn report<M: EvalModel + ?Sized>(&self, model: &M) -> Violation {
        let (condition, kind) = model.condition_kind(self.mode, self.condition);
        Violation {
            t: self.t,
            mode: model.mode_name(self.mode),
            condition,
            kind,
            value: match kind {
                ViolationKind::Pulls => 0.0 - self.value,
                _ => self.value,
            },
            state: self.state.clone(),
        }
    }
    /// As a simulation's error: the condition's own name and value, the mode, the time and the
    /// state.
    pub fn error<M: EvalModel + ?Sized>(&self, model: &M) -> HybridError {
        HybridError::Inadmissible(Box::new(StateFailure {
            what: model.condition_name(self.mode, self.condition),
            equality: false,
            mode: model.mode_name(self.mode),
            t: Some(self.t),
            value: self.value,
            state: self.state.clone(),
        }))
    }
}

/// Checks the declared conditions along `trace`, a simulation from `x0` at time `t0` with the
/// stride options `opts` (as [`crate::simulate`] ran it); `tol` is the relative tolerance (see
/// the module documentation). A model without conditions is admissible.
pub fn check_trace<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
    tol: f64,
) -> Result<Admissibility, HybridError> {
    let first = first_violation(model, trace, t0, x0, opts, tol)?;
    Ok(Admissibility {
        admissible: first.is_none(),
        violation: first.map(|v| v.report(model)),
    })
}

/// The declared conditions checked along one stride from `x0` ([`check_trace`] of a stride
/// simulated as the stride map runs it, with the stride options `opts`); a stride that fails
/// is an error. What orbits and continuation report for every model with conditions
/// ([`EvalModel::admissibility`]).
pub fn check_stride<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    opts: &StrideOptions,
    tol: f64,
) -> Result<Admissibility, HybridError> {
    let sim = crate::SimulateOptions {
        stride: opts.clone(),
        strides: 1,
        dt: None,
        at: Some(Vec::new()),
        ..crate::SimulateOptions::default()
    };
    let trace = crate::simulate(model, x0, &sim)?;
    if let Some(e) = trace.failure {
        return Err(e);
    }
    check_trace(model, &trace, sim.t0, x0, opts, tol)
}

/// The declared conditions checked along a stride known by its events: `events` (times from
/// the stride's start, each with its states before and after the reset) and its duration
/// `period`, from `x0` in the start mode of `opts` ([`check_trace`] of the trace those events
/// make). Each smooth piece is integrated again from its own start, `x0` or the state after
/// the previous reset, to its event, so an error made in one piece does not reach the next:
/// what a multiple-shooting orbit reports, whose events come from the segments' converged
/// starts. A stride whose monodromy matrix has a multiplier of `10⁸` amplifies the error of a
/// whole-stride integration ([`check_stride`]) by that factor, enough to move the events and
/// flip the verdict.
pub fn check_events<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    events: &[crate::EventRecord],
    period: f64,
    opts: &StrideOptions,
    tol: f64,
) -> Result<Admissibility, HybridError> {
    let n = model.dim();
    if x0.len() != n
        || events
            .iter()
            .any(|e| e.x_minus.len() < n || e.x_plus.len() < n)
    {
        return Err(HybridError::DimensionMismatch {
            what: "stride events checked for admissibility (state)",
            expected: n,
            got: x0.len(),
        });
    }
    let (x_end, mode_end) = events.last().map_or((x0.to_vec(), opts.start_mode), |e| {
        (e.x_plus.clone(), e.target)
    });
    let trace = Trace {
        events: events.to_vec(),
        stride_starts: vec![x0.to_vec()],
        end: (period, x_end, mode_end),
        ..Trace::default()
    };
    check_trace(model, &trace, 0.0, x0, opts, tol)
}

/// The first violation of the declared conditions along `trace` (arguments as for
/// [`check_trace`]); `None` when every condition holds, or the model declares none.
pub fn first_violation<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
    tol: f64,
) -> Result<Option<ConditionViolation>, HybridError> {
    if !(tol >= 0.0 && tol.is_finite()) {
        return Err(HybridError::InvalidOption {
            field: "admissibility tolerance",
            reason: "must be finite and ≥ 0",
        });
    }
    if !has_conditions(model) {
        return Ok(None);
    }
    let Scan {
        samples, crossings, ..
    } = scan(model, trace, t0, x0, opts, None)?;
    // The scale of each condition over the trajectory.
    let scale = |mode: usize, cond: usize| {
        samples
            .iter()
            .filter(|s| s.mode == mode && s.cond == cond)
            .fold(0.0f64, |m, s| m.max(s.value.abs()))
    };
    let below: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.value < -tol * scale(s.mode, s.cond))
        .collect();
    let first = below
        .iter()
        .copied()
        .chain(crossings.iter())
        .min_by(|a, b| a.t.total_cmp(&b.t));
    let Some(first) = first else {
        return Ok(None);
    };
    // The lowest value of that condition in that segment from the violation on.
    let lowest = samples
        .iter()
        .filter(|s| s.seg == first.seg && s.cond == first.cond && s.t >= first.t)
        .fold(first.value.min(0.0), |m, s| m.min(s.value));
    Ok(Some(ConditionViolation {
        t: first.t,
        mode: first.mode,
        condition: first.cond,
        value: lowest,
        state: first.x.clone(),
        phase: first.seg,
    }))
}

/// Where in its phase a condition takes a least value ([`PhaseMinima`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinimumAt {
    /// At the start of the phase (right after the reset that begins it).
    Start,
    /// At a local minimum inside the phase (a zero of `dc/dt` located on the dense output).
    Interior,
    /// At the end of the phase (just before the event that ends it).
    End,
}

/// A condition's candidates for its least value over one phase ([`phase_minima`]): its values
/// at the phase's start and end, and at its local minima inside.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseMinima {
    /// The mode of the phase.
    pub mode: usize,
    /// `(t, c)` at the start of the phase.
    pub start: (f64, f64),
    /// `(t, c)` at its end (just before the event; the trace's end for its last phase).
    pub end: (f64, f64),
    /// `(t, c)` at each located local minimum inside, in time order.
    pub interior: Vec<(f64, f64)>,
}

impl PhaseMinima {
    /// The value at `at`: the start's, the end's, or the least interior local minimum's
    /// (`None` when there is none).
    pub fn value(&self, at: MinimumAt) -> Option<f64> {
        match at {
            MinimumAt::Start => Some(self.start.1),
            MinimumAt::End => Some(self.end.1),
            MinimumAt::Interior => self
                .interior
                .iter()
                .map(|m| m.1)
                .min_by(|a, b| a.total_cmp(b)),
        }
    }

    /// The least of all candidates, `min_t c(x(t))` over the phase, and where it is.
    pub fn least(&self) -> (f64, MinimumAt) {
        let mut best = (self.start.1, MinimumAt::Start);
        for at in [MinimumAt::Interior, MinimumAt::End] {
            if let Some(v) = self.value(at) {
                if v < best.0 {
                    best = (v, at);
                }
            }
        }
        best
    }
}

/// The candidates for the least value of condition `cond` over phase `phase` (the `phase`-th
/// smooth piece, `0` up to the number of events) of `trace` (arguments as for
/// [`check_trace`]): its values at the phase's start and end and at its local minima inside,
/// each located as a zero of `dc/dt` ([`condition_slope`], watched as a rising event) by the
/// integrator's event location on its dense output, while the phase is run again exactly as
/// the checker runs it. `None` when the trace has no such phase or its mode has no such
/// condition.
pub fn phase_minima<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
    phase: usize,
    cond: usize,
) -> Result<Option<PhaseMinima>, HybridError> {
    if phase > trace.events.len() {
        return Ok(None);
    }
    let Scan {
        samples, minima, ..
    } = scan(model, trace, t0, x0, opts, Some((phase, cond)))?;
    let at = |which: MinimumAt| {
        samples
            .iter()
            .find(|s| s.seg == phase && s.cond == cond && s.at == which)
    };
    let Some(start) = at(MinimumAt::Start) else {
        return Ok(None);
    };
    let mode = start.mode;
    let end = match at(MinimumAt::End) {
        Some(e) => (e.t, e.value),
        None => (
            trace.end.0,
            model.condition(mode, cond, &trace.end.1[..model.dim()]),
        ),
    };
    Ok(Some(PhaseMinima {
        mode,
        start: (start.t, start.value),
        end,
        interior: minima.iter().map(|m| (m.t, m.value)).collect(),
    }))
}

/// What [`scan`] records.
struct Scan {
    /// Every condition's values at the phases' starts and ends and at the integrator's steps.
    samples: Vec<Sample>,
    /// The located crossings of zero (falling).
    crossings: Vec<Sample>,
    /// The located local minima of the watched condition.
    minima: Vec<Sample>,
}

/// Runs the pieces of `trace` again with the same integrators, each mode's guards and
/// conditions watched (and the slope of condition `slope.1` in piece `slope.0`).
fn scan<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
    slope: Option<(usize, usize)>,
) -> Result<Scan, HybridError> {
    let n = model.dim();
    let mut samples: Vec<Sample> = Vec::new();
    let mut crossings: Vec<Sample> = Vec::new();
    let mut minima: Vec<Sample> = Vec::new();
    // The trace has passed the Zeno limits already; the conditions' crossings added here may
    // coincide with its events (a contact force reaching zero at lift-off), which those limits
    // would take for an accumulation.
    let mut opts = opts.clone();
    opts.ode.zeno = ZenoLimit {
        max_events: MAX_COUNT,
        window: 2,
        min_span: 0.0,
        min_interval: 0.0,
    };
    // At least `CONDITION_SAMPLES` interior samples per step: the exact stepper of an affine
    // mode takes steps as long as a whole phase, and a condition that dips below zero and
    // recovers between two samples is not seen.
    opts.ode.event_samples = opts.ode.event_samples.max(CONDITION_SAMPLES);
    let opts = &opts;
    let mut solvers = StateSolvers::new(opts)?;
    let all = pieces(trace, t0, x0, opts.start_mode);
    let t_last = trace.end.0;
    for (seg, piece) in all.iter().enumerate() {
        let mode = piece.mode;
        let nc = model.conditions(mode);
        let eval_at = |t: f64, x: &[f64], at: MinimumAt, samples: &mut Vec<Sample>| {
            for cond in 0..nc {
                let value = model.condition(mode, cond, &x[..n]);
                samples.push(Sample {
                    t,
                    mode,
                    cond,
                    value,
                    x: x[..n].to_vec(),
                    seg,
                    at,
                });
            }
        };
        eval_at(piece.t0, piece.x0, MinimumAt::Start, &mut samples);
        if let Some((te, xm)) = piece.event {
            eval_at(te, xm, MinimumAt::End, &mut samples);
        }
        // Run the segment again with the conditions watched (a mode without conditions too,
        // so that each integrator's history stays that of the trace).
        let sys = ModeFlow { model, mode };
        let watched_slope = slope.filter(|&(s, c)| s == seg && c < nc).map(|(_, c)| c);
        let watched = Watched {
            guards: ModeGuards::new(model, mode),
            g: model.guards(mode),
            slope: watched_slope,
        };
        let t_limit = match piece.event {
            Some((te, _)) => te.max(piece.t0 + opts.t_max),
            None => t_last,
        };
        let (solver, first) = solvers.for_mode(opts, model, mode);
        let ode = |source| HybridError::Ode { mode, source };
        if first {
            solver
                .start(&sys, &watched, piece.t0, piece.x0)
                .map_err(ode)?;
        } else {
            solver
                .restart(&sys, &watched, piece.t0, piece.x0)
                .map_err(ode)?;
        }
        let logged = solver.event_log().len();
        let mut traj = Trajectory::new(if nc > 0 {
            Sampling::Steps
        } else {
            Sampling::None
        });
        let stop = solver
            .integrate(&sys, &watched, t_limit, Some(&mut traj))
            .map_err(ode)?;
        let t_end = match (&stop, piece.event) {
            (Stop::Event(hit), _) => hit.t,
            (Stop::TimeReached, Some((te, _))) => te,
            (Stop::TimeReached, None) => t_last,
        };
        for k in 0..traj.len() {
            if traj.t[k] < t_end {
                eval_at(traj.t[k], traj.state(k), MinimumAt::Interior, &mut samples);
            }
        }
        let near = 1e-12 * t_end.abs().max(1.0);
        for hit in &solver.event_log()[logged..] {
            let ends_by_event = piece.event.is_some();
            if hit.index < watched.g || (ends_by_event && hit.t >= t_end - near) {
                continue;
            }
            let cond = hit.index - watched.g;
            let sample = |cond: usize| Sample {
                t: hit.t,
                mode,
                cond,
                value: model.condition(mode, cond, &hit.y[..n]),
                x: hit.y[..n].to_vec(),
                seg,
                at: MinimumAt::Interior,
            };
            if cond < nc {
                crossings.push(sample(cond));
            } else if let Some(c) = watched_slope {
                minima.push(sample(c));
            }
        }
    }
    Ok(Scan {
        samples,
        crossings,
        minima,
    })
}

/// Checks the initial state `x` of a run in `mode`: every equality of the mode
/// ([`EvalModel::state_residual`]) holds and every condition is non-negative
/// ([`check_state_conditions`]), both within [`STATE_TOL`]` · max(1, ‖x‖∞)`. The error names
/// the equality or condition, the mode, the value and the state.
pub fn check_initial_state<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    x: &[f64],
) -> Result<(), HybridError> {
    let tol = state_tol(model, mode, x)?;
    if let Some((what, value)) = model.state_residual(mode, x) {
        if !(value.abs() <= tol) {
            return Err(HybridError::Inadmissible(Box::new(StateFailure {
                what,
                equality: true,
                mode: model.mode_name(mode),
                t: None,
                value,
                state: x.to_vec(),
            })));
        }
    }
    check_state_conditions(model, mode, x)
}

/// Checks a state `x` of `mode` against the mode's conditions alone (not its equalities):
/// each `c_{m,i}(x) ≥ −`[`STATE_TOL`]` · max(1, ‖x‖∞)` (a NaN value fails). What an orbit's
/// starting guess, mapped to its state, must satisfy; the error names the condition, the
/// mode, the value and the state.
pub fn check_state_conditions<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    x: &[f64],
) -> Result<(), HybridError> {
    let tol = state_tol(model, mode, x)?;
    for i in 0..model.conditions(mode) {
        let value = model.condition(mode, i, x);
        if !(value >= -tol) {
            return Err(HybridError::Inadmissible(Box::new(StateFailure {
                what: model.condition_name(mode, i),
                equality: false,
                mode: model.mode_name(mode),
                t: None,
                value,
                state: x.to_vec(),
            })));
        }
    }
    Ok(())
}

/// The absolute tolerance [`STATE_TOL`]` · max(1, ‖x‖∞)` of a state of `mode`, after checking
/// that the mode exists and the state has the model's dimension.
fn state_tol<M: EvalModel + ?Sized>(model: &M, mode: usize, x: &[f64]) -> Result<f64, HybridError> {
    if mode >= model.modes() {
        return Err(HybridError::BadMode {
            mode,
            modes: model.modes(),
        });
    }
    if x.len() != model.dim() {
        return Err(HybridError::DimensionMismatch {
            what: "initial state",
            expected: model.dim(),
            got: x.len(),
        });
    }
    Ok(STATE_TOL * x.iter().fold(1.0f64, |m, v| m.max(v.abs())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{simulate, Bound, GuardSpec, HybridModel, Param, Scalar, SimulateOptions};

    /// A ball under a ceiling: `ẏ = v`, `v̇ = −g`, bouncing on the floor `y = 0` with
    /// restitution `e`; admissible while `H − y ≥ 0` (below the ceiling), and, in the ground
    /// mode 1 (at rest, `ẋ = 0`), while `y = 0` (its equality) and the floor pushes, `g ≥ 0`.
    struct Ceiling;
    const G: usize = 0;
    const E: usize = 1;
    const H: usize = 2;
    const PARAMS: &[Param] = &[
        Param::new("g", 9.81),
        Param::new("e", 1.0),
        Param::new("H", 1.0),
    ];
    impl HybridModel for Ceiling {
        type Guard = ();
        fn name(&self) -> &str {
            "ceiling"
        }
        fn dim(&self) -> usize {
            2
        }
        fn modes(&self) -> usize {
            2
        }
        fn mode_name(&self, mode: usize) -> String {
            ["flight", "rest"][mode].into()
        }
        fn params(&self) -> &[Param] {
            PARAMS
        }
        fn autonomous(&self, _mode: usize) -> bool {
            true
        }
        fn flow<D: Scalar>(&self, p: &[D], mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
            if mode == 0 {
                dx[0] = x[1];
                dx[1] = -p[G];
            } else {
                dx[0] = x[1] * 0.0;
                dx[1] = x[1] * 0.0;
            }
        }
        fn guards(&self, mode: usize) -> &[()] {
            if mode == 0 {
                &[()]
            } else {
                &[]
            }
        }
        fn describe(&self, _mode: usize, _g: ()) -> GuardSpec {
            GuardSpec::to(0).falling()
        }
        fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, _g: (), x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, p: &[D], _mode: usize, _g: (), x: &[D], out: &mut [D]) {
            out[0] = x[0];
            out[1] = -x[1] * p[E];
        }
        fn conditions(&self, _mode: usize) -> usize {
            1
        }
        fn condition_name(&self, mode: usize, _i: usize) -> String {
            ["below ceiling", "floor pushes"][mode].into()
        }
        fn condition<D: Scalar>(&self, p: &[D], mode: usize, _i: usize, x: &[D]) -> D {
            if mode == 0 {
                -x[0] + p[H]
            } else {
                p[G]
            }
        }
        fn state_residual(&self, _p: &[f64], mode: usize, x: &[f64]) -> Option<(String, f64)> {
            (mode == 1).then(|| ("height at rest".to_string(), x[0]))
        }
    }

    fn ball(h: f64) -> Bound<Ceiling> {
        Bound::with_values(Ceiling, vec![9.81, 1.0, h]).unwrap()
    }

    /// Simulates to `t_end` from `(0, v0)` and checks the trace.
    fn check(model: &Bound<Ceiling>, v0: f64, t_end: f64, exact: bool) -> Admissibility {
        let mut sim = SimulateOptions {
            t_end: Some(t_end),
            dt: None,
            ..SimulateOptions::default()
        };
        sim.stride.exact_affine_phases = exact;
        sim.stride.ode = saltation_ode::SolverOptions::with_tol(1e-10);
        let x0 = [0.0, v0];
        let trace = simulate(model, &x0, &sim).unwrap();
        assert!(trace.failure.is_none());
        check_trace(model, &trace, 0.0, &x0, &sim.stride, CONDITION_TOL).unwrap()
    }

    #[test]
    fn first_crossing_of_the_ceiling_is_located_at_the_closed_form_time() {
        // Apex v0²/2g = 1.2742 above a ceiling at 1: first contact at t* = (v0 − √(v0² −
        // 2gH))/g, on both integrators (the exact one takes one step per flight).
        let (g, v0, h) = (9.81f64, 5.0f64, 1.0);
        let t_star = (v0 - (v0 * v0 - 2.0 * g * h).sqrt()) / g;
        for exact in [false, true] {
            let a = check(&ball(h), v0, 3.0, exact);
            let v = a.violation.expect("the ball hits the ceiling");
            assert!(!a.admissible);
            assert!((v.t - t_star).abs() < 1e-9, "{} vs {t_star}", v.t);
            assert!((v.state[0] - h).abs() < 1e-9, "{:?}", v.state);
            assert!((v.state[1] - (v0 - g * t_star)).abs() < 1e-8);
            assert_eq!(
                (v.condition.as_str(), v.mode.as_str()),
                ("below ceiling", "flight")
            );
            assert_eq!(v.kind, ViolationKind::Negative);
            // The lowest value seen is at most 0 and at least the apex's `H − v0²/2g`.
            assert!(v.value <= 0.0 && v.value >= h - v0 * v0 / (2.0 * g) - 1e-9);
        }
    }

    #[test]
    fn a_dip_inside_one_step_is_found() {
        const DIP: f64 = 1e-2;
        // Apex 1e-2 above the ceiling: the exact stepper crosses the apex inside one step of
        // 0.6 s (the dip lasts 0.09 s), and the interior samples see it.
        let (g, h) = (9.81f64, 1.0);
        let v0 = (2.0 * g * (h + DIP)).sqrt();
        let t_star = (v0 - (v0 * v0 - 2.0 * g * h).sqrt()) / g;
        let v = check(&ball(h), v0, 1.0, true).violation.unwrap();
        assert!((v.t - t_star).abs() < 1e-8, "{} vs {t_star}", v.t);
    }

    #[test]
    fn below_the_ceiling_the_bounces_are_admissible() {
        // Apex 1.2742 under a ceiling at 1.3, through several impacts.
        let a = check(&ball(1.3), 5.0, 3.0, false);
        assert!(a.admissible && a.violation.is_none(), "{a:?}");
        let a = check(&ball(1.3), 5.0, 3.0, true);
        assert!(a.admissible, "{a:?}");
    }

    #[test]
    fn an_orbit_reports_the_violation_through_the_evaluated_face() {
        let a = ball(1.0).admissibility(&[0.0, 5.0], &Default::default());
        let a = a.expect("the model declares conditions").unwrap();
        assert!(!a.admissible);
        assert!(
            ball(1.3)
                .admissibility(&[0.0, 5.0], &Default::default())
                .unwrap()
                .unwrap()
                .admissible
        );
    }

    /// The ceiling's clearance `H − y` over the first flight from `(0, v0)` is least at the
    /// apex, `H − v0²/2g` (an interior minimum located on the dense output, on both
    /// integrators, to far below the step samples' resolution); the floor's own phase is the
    /// flight itself, so phase 1 (the second flight, after the bounce with `e = 0.5`) has its
    /// minimum at the apex `H − (e v0)²/2g`. The ground mode's condition does not exist in
    /// flight: a phase past the trace is `None`.
    #[test]
    fn a_phase_minimum_is_located_inside_the_phase() {
        let (g, v0, h) = (9.81f64, 5.0f64, 1.3);
        let m = Bound::with_values(Ceiling, vec![g, 0.5, h]).unwrap();
        for exact in [false, true] {
            let mut sim = SimulateOptions {
                strides: 2,
                dt: None,
                ..SimulateOptions::default()
            };
            sim.stride.exact_affine_phases = exact;
            sim.stride.ode = saltation_ode::SolverOptions::with_tol(1e-10);
            let x0 = [0.0, v0];
            let trace = simulate(&m, &x0, &sim).unwrap();
            let min0 = phase_minima(&m, &trace, 0.0, &x0, &sim.stride, 0, 0)
                .unwrap()
                .unwrap();
            let apex = h - v0 * v0 / (2.0 * g);
            let (least, at) = min0.least();
            assert_eq!(at, MinimumAt::Interior);
            assert_eq!(min0.interior.len(), 1);
            assert!((least - apex).abs() < 1e-11, "{least} vs {apex}");
            assert!(
                (min0.interior[0].0 - v0 / g).abs() < 1e-6,
                "{:?}",
                min0.interior
            );
            // Start and end on the floor: the clearance is H there.
            assert!((min0.start.1 - h).abs() < 1e-12 && (min0.end.1 - h).abs() < 1e-9);
            assert!((min0.end.0 - 2.0 * v0 / g).abs() < 1e-9, "{:?}", min0.end);
            let min1 = phase_minima(&m, &trace, 0.0, &x0, &sim.stride, 1, 0)
                .unwrap()
                .unwrap();
            let apex1 = h - (0.5 * v0).powi(2) / (2.0 * g);
            let v1 = min1.value(MinimumAt::Interior).unwrap();
            assert!((v1 - apex1).abs() < 1e-11, "{v1} vs {apex1}");
            assert!(phase_minima(&m, &trace, 0.0, &x0, &sim.stride, 9, 0)
                .unwrap()
                .is_none());
        }
    }

    #[test]
    fn initial_states_are_checked_against_conditions_and_equalities() {
        let m = ball(1.0);
        assert!(check_initial_state(&m, 0, &[0.5, 1.0]).is_ok());
        assert!(check_initial_state(&m, 1, &[0.0, 0.0]).is_ok());
        match check_initial_state(&m, 0, &[1.5, 0.0]) {
            Err(HybridError::Inadmissible(f)) => {
                assert_eq!((f.what.as_str(), f.equality), ("below ceiling", false));
                assert!((f.value + 0.5).abs() < 1e-15 && f.t.is_none());
            }
            other => panic!("{other:?}"),
        }
        match check_initial_state(&m, 1, &[0.25, 0.0]) {
            Err(e @ HybridError::Inadmissible(_)) => {
                let text = e.to_string();
                assert!(text.contains("height at rest = 0.25"), "{text}");
                assert!(text.contains("mode `rest`"), "{text}");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            check_initial_state(&m, 2, &[0.0, 0.0]),
            Err(HybridError::BadMode { .. })
        ));
    }

    #[test]
    fn a_state_is_checked_against_its_conditions_alone() {
        let m = ball(1.0);
        // At rest 0.25 above the floor: the equality fails, the conditions hold.
        assert!(check_initial_state(&m, 1, &[0.25, 0.0]).is_err());
        assert!(check_state_conditions(&m, 1, &[0.25, 0.0]).is_ok());
        // Above the ceiling by 0.5, and within the tolerance 1e-9·max(1, |x|∞) of it.
        match check_state_conditions(&m, 0, &[1.5, -2.0]) {
            Err(HybridError::Inadmissible(f)) => {
                assert_eq!(
                    (f.what.as_str(), f.mode.as_str()),
                    ("below ceiling", "flight")
                );
                assert!((f.value + 0.5).abs() < 1e-15 && !f.equality);
                assert_eq!(f.state, [1.5, -2.0]);
            }
            other => panic!("{other:?}"),
        }
        assert!(check_state_conditions(&m, 0, &[1.0 + 1e-10, 0.0]).is_ok());
        assert!(check_state_conditions(&m, 0, &[1.0 + 1e-8, 0.0]).is_err());
        assert!(matches!(
            check_state_conditions(&m, 0, &[0.0]),
            Err(HybridError::DimensionMismatch { .. })
        ));
    }
}
