//! Running the study: the reference solution of each parameter set, then every solver at every
//! tolerance with each phase-switch strategy, one run at a time (so that no parallel work
//! distorts the timings).
//!
//! Each run is integrated twice over: once with output on the uniform grid (from the dense
//! output) for the accuracy criteria, and then `repeats` times with no output but the end state
//! for the solution duration SD, whose median is kept (repeats stop early once a run has been
//! timed for `repeat_budget_s`). A run that fails (too many steps, step size underflow, …) is
//! recorded with its error as status and no criteria; it never stops the study.

use super::criteria::{divergence_time, grid_touchdowns, integrated_absolute_error};
use super::spec::StudySpec;
use saltation_hybrid::{simulate, Bound, HybridError, SimulateOptions, StrideOptions, Trace};
use saltation_models::monopod::{Monopod, Stiffness, Strategy, FLIGHT, STANCE};
use saltation_ode::{Method, SolverOptions};
use std::time::Instant;
use thiserror::Error;

/// The study could not be made (a bad run is not such a failure: it is recorded).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum StudyError {
    /// The reference solution of a set (or its cross-check) failed.
    #[error("reference solution of set {set} ({method} at tol {tol:e}) failed: {source}")]
    Reference {
        /// 1-based set index.
        set: usize,
        /// Method.
        method: &'static str,
        /// Tolerance.
        tol: f64,
        /// Why.
        #[source]
        source: HybridError,
    },
    /// The stance eigenvalues of a set could not be computed.
    #[error("stiffness of set {set}: {reason}")]
    Stiffness {
        /// 1-based set index.
        set: usize,
        /// Why.
        reason: String,
    },
}

/// The name a method has in the study's tables: its MATLAB name if it stands in for one.
pub fn study_name(m: Method) -> &'static str {
    m.matlab_name().unwrap_or(m.name())
}

/// One run of the study.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRecord {
    /// 1-based set index.
    pub set: usize,
    /// Method.
    pub method: Method,
    /// Tolerance (rtol = atol).
    pub tol: f64,
    /// Strategy.
    pub strategy: Strategy,
    /// Solution duration: median wall time of the timed repeats (s).
    pub sd_s: Option<f64>,
    /// Divergence time (eq. 32).
    pub dt: Option<f64>,
    /// Integral of the absolute error of `y1` (eq. 33).
    pub iae: Option<f64>,
    /// Vector-field evaluations of one run.
    pub rhs_evals: usize,
    /// Accepted steps of one run.
    pub steps: usize,
    /// Touchdowns: located events for the events strategy, downward zero crossings of `y1` on
    /// the grid for if-else.
    pub contacts: usize,
    /// `"ok"`, or why the run failed.
    pub status: String,
}

/// The reference solution of one set.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// `y1` on the grid.
    pub y1: Vec<f64>,
    /// `y2` on the grid.
    pub y2: Vec<f64>,
    /// Touchdown times.
    pub touchdowns: Vec<f64>,
    /// Largest `|y1 − y1_check|` on the grid against the cross-check (an estimate of the larger
    /// of the two errors, so a conservative one of the reference's).
    pub error_estimate: f64,
    /// Largest `|y1 − y1_10|` on the grid against the same method at ten times the tolerance
    /// (an estimate of the looser run's error, so an upper one of the reference's).
    pub tol_step_difference: f64,
    /// Wall time of the reference run (s).
    pub wall_s: f64,
}

/// What the figures need beyond the records: the grid solutions of one set, tolerance and
/// strategy.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FigureRuns {
    /// `y1` of each method that succeeded.
    pub y1: Vec<(Method, Vec<f64>)>,
}

/// Everything the study computed.
#[derive(Debug, Clone)]
pub struct StudyResult {
    /// The grid.
    pub t: Vec<f64>,
    /// Reference per set.
    pub references: Vec<Reference>,
    /// Stiffness per set.
    pub stiffness: Vec<Stiffness>,
    /// Every run, in the order run (set, strategy, tolerance, method).
    pub runs: Vec<RunRecord>,
    /// The runs shown in the response and error figures.
    pub figure: FigureRuns,
    /// Wall time of the whole study (s).
    pub wall_s: f64,
}

impl StudyResult {
    /// The largest error estimate of the references.
    pub fn error_estimate(&self) -> f64 {
        self.references
            .iter()
            .map(|r| r.error_estimate)
            .fold(0.0, f64::max)
    }
}

/// Integrates `model` from `spec.initial` over `[0, t_end]` with output at the times `at` and at
/// most `max_steps` steps per segment.
fn integrate(
    model: &Bound<Monopod>,
    (method, tol, max_steps): (Method, f64, usize),
    spec: &StudySpec,
    at: Vec<f64>,
) -> Result<Trace, HybridError> {
    let start_mode = match model.model().strategy {
        Strategy::Events if spec.initial[0] <= 0.0 => STANCE,
        _ => FLIGHT,
    };
    let opts = SimulateOptions {
        stride: StrideOptions {
            method,
            ode: SolverOptions {
                max_steps,
                ..SolverOptions::with_tol(tol)
            },
            start_mode,
            events_per_stride: 1,
            t_max: spec.t_end,
            // A solver study: the method integrates every phase, the linear flight too (not
            // stepped exactly by the matrix exponential).
            exact_affine_phases: false,
            ..StrideOptions::default()
        },
        strides: 1,
        dt: None,
        keep_steps: false,
        t0: 0.0,
        t_end: Some(spec.t_end),
        at: Some(at),
    };
    let trace = simulate(model, &spec.initial, &opts)?;
    match trace.failure {
        Some(e) => Err(e),
        None => Ok(trace),
    }
}

/// The `k`-th component on the grid of a trace sampled on it.
fn component(trace: &Trace, k: usize) -> Vec<f64> {
    trace.x.iter().map(|x| x[k]).collect()
}

/// Reference solution of one set: `spec.reference.method` with events, cross-checked.
fn reference(spec: &StudySpec, set: usize, grid: &[f64]) -> Result<Reference, StudyError> {
    let r = spec.reference;
    let model = spec.sets[set].model(Strategy::Events);
    let err = |method: Method, tol, source| StudyError::Reference {
        set: set + 1,
        method: study_name(method),
        tol,
        source,
    };
    let start = Instant::now();
    let trace = integrate(&model, (r.method, r.tol, r.max_steps), spec, grid.to_vec())
        .map_err(|e| err(r.method, r.tol, e))?;
    let wall_s = start.elapsed().as_secs_f64();
    let check = integrate(
        &model,
        (r.check_method, r.check_tol, r.max_steps),
        spec,
        grid.to_vec(),
    )
    .map_err(|e| err(r.check_method, r.check_tol, e))?;
    let looser = (r.tol * 10.0).min(0.1);
    let step = integrate(&model, (r.method, looser, r.max_steps), spec, grid.to_vec())
        .map_err(|e| err(r.method, looser, e))?;
    let y1 = component(&trace, 0);
    let largest_difference = |other: &Trace| {
        y1.iter()
            .zip(&other.x)
            .map(|(a, x)| (a - x[0]).abs())
            .fold(0.0, f64::max)
    };
    let error_estimate = largest_difference(&check);
    let tol_step_difference = largest_difference(&step);
    Ok(Reference {
        tol_step_difference,
        y2: component(&trace, 2),
        touchdowns: touchdowns(&trace),
        y1,
        error_estimate,
        wall_s,
    })
}

/// Times of the events into stance.
fn touchdowns(trace: &Trace) -> Vec<f64> {
    trace
        .events
        .iter()
        .filter(|e| e.target == STANCE)
        .map(|e| e.t)
        .collect()
}

/// Median of a non-empty list.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// One run: accuracy on the grid against `reference`, then the timed repeats.
fn run_one(
    spec: &StudySpec,
    set: usize,
    strategy: Strategy,
    (tol, epsilon): (f64, f64),
    method: Method,
    grid: &[f64],
    reference: &Reference,
) -> (RunRecord, Option<Vec<f64>>) {
    let model = spec.sets[set].model(strategy);
    let mut rec = RunRecord {
        set: set + 1,
        method,
        tol,
        strategy,
        sd_s: None,
        dt: None,
        iae: None,
        rhs_evals: 0,
        steps: 0,
        contacts: 0,
        status: "ok".into(),
    };
    let settings = (method, tol, spec.max_steps);
    let trace = match integrate(&model, settings, spec, grid.to_vec()) {
        Ok(t) => t,
        Err(e) => {
            rec.status = e.to_string();
            return (rec, None);
        }
    };
    let y1 = component(&trace, 0);
    rec.rhs_evals = trace.stats.rhs_evals;
    rec.steps = trace.stats.steps;
    rec.contacts = match strategy {
        Strategy::Events => touchdowns(&trace).len(),
        Strategy::IfElse => grid_touchdowns(&y1),
    };
    rec.dt = Some(divergence_time(
        grid,
        &y1,
        &reference.y1,
        epsilon,
        spec.dt_floor,
    ));
    rec.iae = Some(integrated_absolute_error(
        spec.grid_step,
        &y1,
        &reference.y1,
    ));
    let mut times = Vec::with_capacity(spec.repeats);
    let mut spent = 0.0;
    while times.len() < spec.repeats && (times.is_empty() || spent < spec.repeat_budget_s) {
        let start = Instant::now();
        let res = integrate(&model, settings, spec, vec![spec.t_end]);
        let wall = start.elapsed().as_secs_f64();
        if let Err(e) = res {
            // Deterministic integrators fail the same way every time; say so if one does not.
            rec.status = format!("timed repeat failed: {e}");
            rec.dt = None;
            rec.iae = None;
            return (rec, None);
        }
        spent += wall;
        times.push(wall);
    }
    rec.sd_s = Some(median(times));
    (rec, Some(y1))
}

/// Runs the whole study; `progress(done, total)` is called after each run (the references
/// count as one run per set).
pub fn run_study(
    spec: &StudySpec,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<StudyResult, StudyError> {
    let start = Instant::now();
    let grid = spec.grid();
    let total = spec.progress_steps();
    let mut done = 0;
    let mut references = Vec::with_capacity(spec.sets.len());
    let mut stiffness = Vec::with_capacity(spec.sets.len());
    let mut runs = Vec::with_capacity(spec.sets.len() * spec.runs_per_set());
    let mut figure = FigureRuns::default();
    for set in 0..spec.sets.len() {
        let s =
            Monopod::stiffness(&spec.sets[set].values()).map_err(|e| StudyError::Stiffness {
                set: set + 1,
                reason: e.to_string(),
            })?;
        stiffness.push(s);
        let reference = reference(spec, set, &grid)?;
        done += 1;
        progress(done, total);
        for &strategy in &spec.strategies {
            for (i, &tol) in spec.tolerances.iter().enumerate() {
                for &method in &spec.methods {
                    let eps = spec.epsilon_for(i);
                    let (rec, y1) =
                        run_one(spec, set, strategy, (tol, eps), method, &grid, &reference);
                    let f = &spec.figures;
                    if let (Some(y1), true) = (
                        y1,
                        set + 1 == f.set && tol == f.tol && strategy == f.strategy,
                    ) {
                        figure.y1.push((method, y1));
                    }
                    runs.push(rec);
                    done += 1;
                    progress(done, total);
                }
            }
        }
        references.push(reference);
    }
    Ok(StudyResult {
        t: grid,
        references,
        stiffness,
        runs,
        figure,
        wall_s: start.elapsed().as_secs_f64(),
    })
}
