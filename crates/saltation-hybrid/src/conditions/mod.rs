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

mod guard_touch;
mod minima;
mod scan;
mod state;
#[cfg(test)]
mod tests;

pub use guard_touch::{guard_condition_name, guard_touches, least_guard_touch, GuardTouch};
pub use minima::{phase_minima, MinimumAt, PhaseMinima};
pub use scan::condition_slope;
pub use state::{check_initial_state, check_state_conditions, STATE_TOL};

use crate::admissibility::{Admissibility, Violation, ViolationKind};
use crate::error::{HybridError, StateFailure};
use crate::model::EvalModel;
use crate::simulate::Trace;
use crate::stride::StrideOptions;
use scan::{scan, Sample, Scan};

/// Default relative tolerance of [`check_trace`] (a value below `−tol · s` is a violation).
pub const CONDITION_TOL: f64 = 1e-9;

/// Fewest interior samples per step at which the conditions are screened for a sign change
/// (the file's `event_samples` when larger).
pub const CONDITION_SAMPLES: usize = 16;

/// Whether a model declares any admissibility condition.
pub fn has_conditions<M: EvalModel + ?Sized>(model: &M) -> bool {
    (0..model.modes()).any(|m| model.conditions(m) > 0)
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
    } = scan(model, trace, t0, x0, opts, None, false)?;
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
