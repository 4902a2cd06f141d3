//! Continuation scripts: which branches to continue in which parameter, whether to switch at
//! period doublings, and an optional orbit diagram — and the function that runs one with the
//! orbit options beside it. (A model file's `continuation` section is read into a script by
//! saltation-scenario.)

use crate::branch::{Bifurcation, BifurcationKind, Branch, EndReason};
use crate::diagram::{orbit_diagram_with_progress, DiagramColumn, OrbitDiagramOptions};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::ContinuationOptions;
use crate::run::{continue_branch_with_progress, Progress, Start};
use crate::switch::switch_period_doubling;
use saltation_hybrid::StrideOptions;
use saltation_orbit::{NewtonError, OrbitError, OrbitOptions, OrbitOptionsError};
use serde::{Deserialize, Serialize};

mod curves;
mod validate;

pub use curves::{run_script_curves, CurveSpec, ScriptCurve, MAX_CURVES, MAX_CURVES_PER_REQUEST};

/// Largest number of branches of one script ([`ContinuationSpec::branches`]).
pub const MAX_BRANCHES: usize = 1_000;

/// Largest number of successive period doublings one branch may follow
/// ([`BranchSpec::period_doublings`]): the last branch holds fixed points of `P^(2^10)`, each
/// evaluation 1024 strides.
pub const MAX_PERIOD_DOUBLINGS: usize = 10;

/// One branch to continue. Checked by [`BranchSpec::validate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchSpec {
    /// Label ("stable gait, up").
    pub label: String,
    /// Parameter value to start at: finite, and the model must be buildable there.
    pub from: f64,
    /// Parameter value to stop at (the direction follows from `from` → `to`): finite, not
    /// equal to `from`.
    pub to: f64,
    /// Guess of the orbit at `from`, in reduced coordinates: finite, of the model's reduced
    /// dimension.
    pub guess: Vec<f64>,
    /// How many successive period doublings to follow: 0 = none, 1 = switch onto the period-2
    /// branch at the first period doubling and continue it until its own period doubling, …;
    /// at most 10 ([`MAX_PERIOD_DOUBLINGS`]).
    #[serde(default)]
    pub period_doublings: usize,
    /// Largest number of points (overrides the settings), in `1..=100 000`
    /// ([`crate::MAX_POINTS`]).
    #[serde(default)]
    pub max_points: Option<usize>,
}

/// An orbit diagram to compute, with the stride settings of the script's orbit options.
/// Checked by [`DiagramSpec::validate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiagramSpec {
    /// First parameter value: finite.
    pub from: f64,
    /// Last parameter value: finite, with `to − from` finite (may equal `from`, or lie below
    /// it).
    pub to: f64,
    /// Number of parameter values, evenly spaced from `from` to `to`, in `1..=100 000`
    /// ([`crate::MAX_DIAGRAM_COUNT`]); `count × settings.keep` at most
    /// [`crate::MAX_DIAGRAM_VALUES`].
    pub count: usize,
    /// Start state (full state) for every parameter value: finite, of the model's dimension.
    pub start: Vec<f64>,
    /// Transient, kept strides, component ([`OrbitDiagramOptions::validate`]).
    pub settings: OrbitDiagramOptions,
}

/// A continuation script, run with the orbit options beside it ([`run_script`]). Checked by
/// [`ContinuationSpec::validate`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContinuationSpec {
    /// Name of the continuation parameter: a real-valued parameter of the model.
    pub param: String,
    /// Branches to continue, at most 1000 ([`MAX_BRANCHES`]); at least one unless there is an
    /// orbit diagram.
    pub branches: Vec<BranchSpec>,
    /// Step sizes, tolerances, detection (shared by all branches). `direction`, `p_min`,
    /// `p_max` must stay at their defaults: each branch's `from`/`to` sets them.
    pub settings: ContinuationOptions,
    /// Orbit diagram, if wanted.
    pub orbit_diagram: Option<DiagramSpec>,
    /// Two-parameter curves from the bifurcations of the branches, at most [`MAX_CURVES`]
    /// requests. [`run_script`] does not compute them: [`run_script_curves`] does, from its
    /// result (it needs the model itself, not only a one-parameter family).
    pub curves: Vec<CurveSpec>,
}

/// Everything a script produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptResult {
    /// The continuation parameter.
    pub param: String,
    /// Branches, including period-2k branches from switching.
    pub branches: Vec<Branch>,
    /// All bifurcations, in the order found.
    pub bifurcations: Vec<Bifurcation>,
    /// Orbit diagram columns, if requested.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orbit_diagram: Option<Vec<DiagramColumn>>,
    /// The two-parameter curves, when [`run_script_curves`] has added them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curves: Vec<ScriptCurve>,
}

impl ScriptResult {
    /// [`ContinuationError::NoBranchStarted`] if no branch of the script could start: it has
    /// branches, every one of them without a point. An orbit diagram beside them does not make
    /// the continuation a result (the diagram is a separate computation, `orbit-diagram` in the
    /// CLI). Lists each branch's label and why it could not start.
    pub fn no_branch_started(&self) -> Option<ContinuationError> {
        if self.branches.is_empty() || self.branches.iter().any(|b| !b.points.is_empty()) {
            return None;
        }
        let reasons = self
            .branches
            .iter()
            .map(|b| {
                let why = match &b.end {
                    EndReason::CorrectorFailed(s)
                    | EndReason::StrideFailed(s)
                    | EndReason::NotStarted(s) => s.clone(),
                    other => other.to_string(),
                };
                (b.label.clone(), why)
            })
            .collect();
        Some(ContinuationError::NoBranchStarted { reasons })
    }
}

/// What the progress callback of [`run_script`] is told (kept for compatibility; the richer
/// [`ScriptEvent`]s of [`run_script_with_events`] carry counts for a progress bar).
#[derive(Debug, Clone)]
pub enum ScriptProgress<'a> {
    /// A branch started.
    Branch(&'a str),
    /// A point was added to the current branch.
    Point(Progress),
    /// The orbit diagram started (number of parameter values).
    Diagram(usize),
}

/// What [`run_script_with_events`] reports, in order: for each branch `BranchStarted`, its
/// `Point`s, `BranchDone` (branches switched onto at period doublings follow their section
/// branch, with the same `index`); then, with an orbit diagram, `DiagramStarted` and one
/// `DiagramProgress` per finished parameter value. Enough for a count and a time estimate:
/// branch `index + 1` of `count`, `points` of `max_points` or `param` between `from` and `to`,
/// `done` of `total` diagram values.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ScriptEvent<'a> {
    /// A branch starts.
    BranchStarted {
        /// Its label.
        label: &'a str,
        /// Index of the section's branch (0-based) it belongs to.
        index: usize,
        /// Number of branches in the section.
        count: usize,
        /// Period-doubling switches that led to it (0 for the section's branch itself).
        switches: usize,
        /// Period multiplicity `k`.
        period_k: usize,
        /// Parameter value it starts at.
        from: f64,
        /// Parameter bound it runs towards.
        to: f64,
        /// Its point limit.
        max_points: usize,
    },
    /// A point was added to the current branch.
    Point {
        /// Index of the section's branch (as in `BranchStarted`).
        index: usize,
        /// Number of branches in the section.
        count: usize,
        /// Points so far, the limit, the parameter and step.
        progress: Progress,
    },
    /// The current branch ended.
    BranchDone {
        /// Index of the section's branch.
        index: usize,
        /// Number of branches in the section.
        count: usize,
        /// Its label.
        label: &'a str,
        /// Number of points it has.
        points: usize,
        /// Why it ended.
        end: &'a EndReason,
    },
    /// The orbit diagram starts.
    DiagramStarted {
        /// Number of parameter values.
        total: usize,
    },
    /// A parameter value of the orbit diagram is done (`done` = 1, 2, …, `total` in order).
    DiagramProgress {
        /// Parameter values done.
        done: usize,
        /// Number of parameter values.
        total: usize,
    },
}

impl<'a> ScriptEvent<'a> {
    /// The [`ScriptProgress`] this event was reported as before events existed, if any.
    pub fn as_progress(&self) -> Option<ScriptProgress<'a>> {
        match self {
            ScriptEvent::BranchStarted { label, .. } => Some(ScriptProgress::Branch(label)),
            ScriptEvent::Point { progress, .. } => Some(ScriptProgress::Point(*progress)),
            ScriptEvent::DiagramStarted { total } => Some(ScriptProgress::Diagram(*total)),
            ScriptEvent::BranchDone { .. } | ScriptEvent::DiagramProgress { .. } => None,
        }
    }
}

/// Runs a script: [`run_script_with_events`] reporting the [`ScriptProgress`] subset.
pub fn run_script<F: ModelFamily>(
    family: &F,
    orbit: &OrbitOptions,
    spec: &ContinuationSpec,
    progress: &mut dyn FnMut(ScriptProgress<'_>),
) -> Result<ScriptResult, ContinuationError> {
    run_script_with_events(family, orbit, spec, &mut |e| {
        if let Some(p) = e.as_progress() {
            progress(p);
        }
    })
}

/// Runs a script with the orbit options `orbit` (the stride, Newton and eigenvalue settings of
/// every branch; the orbit diagram integrates with its stride). First checks both
/// ([`ContinuationSpec::validate`]): bad input is an error naming
/// the field ([`ContinuationError::is_input_error`]), before anything is computed. Then a branch
/// whose start fails for a computational reason (no orbit found from the guess) is recorded with
/// that failure as its end reason (nothing is lost), as is a failed switch; a start that fails
/// because the input is bad is returned as an error. `events` sees each branch, point and
/// diagram value ([`ScriptEvent`]); the orbit diagram runs in parallel while the calling thread
/// reports its progress.
pub fn run_script_with_events<F: ModelFamily>(
    family: &F,
    orbit: &OrbitOptions,
    spec: &ContinuationSpec,
    events: &mut dyn FnMut(ScriptEvent<'_>),
) -> Result<ScriptResult, ContinuationError> {
    spec.validate(family, orbit)?;
    let mut out = ScriptResult {
        param: spec.param.clone(),
        branches: Vec::new(),
        bifurcations: Vec::new(),
        orbit_diagram: None,
        curves: Vec::new(),
    };
    let count = spec.branches.len();
    for (index, b) in spec.branches.iter().enumerate() {
        let mut opts = spec.settings.clone();
        opts.direction = if b.to >= b.from { 1.0 } else { -1.0 };
        opts.p_min = b.from.min(b.to);
        opts.p_max = b.from.max(b.to);
        if let Some(m) = b.max_points {
            opts.max_points = m;
        }
        let mut start = Start {
            param: b.from,
            u: b.guess.clone(),
            label: b.label.clone(),
            period_k: 1,
        };
        let mut switches = 0;
        loop {
            events(ScriptEvent::BranchStarted {
                label: &start.label,
                index,
                count,
                switches,
                period_k: start.period_k,
                from: start.param,
                to: if opts.direction > 0.0 {
                    opts.p_max
                } else {
                    opts.p_min
                },
                max_points: opts.max_points,
            });
            let mut report = |progress: Progress| {
                events(ScriptEvent::Point {
                    index,
                    count,
                    progress,
                })
            };
            let branch =
                match continue_branch_with_progress(family, &start, orbit, &opts, &mut report) {
                    Ok(br) => br,
                    // The section's own start: the validation has checked it, but a start that
                    // is bad input is never turned into a result.
                    Err(e) if switches == 0 && start_is_bad_input(&e) => {
                        return Err(start_error(index, b, e))
                    }
                    Err(e) => Branch {
                        label: start.label.clone(),
                        period_k: start.period_k,
                        points: Vec::new(),
                        end: EndReason::NotStarted(e.to_string()),
                        bifurcations: Vec::new(),
                    },
                };
            events(ScriptEvent::BranchDone {
                index,
                count,
                label: &branch.label,
                points: branch.points.len(),
                end: &branch.end,
            });
            out.bifurcations.extend(branch.bifurcations.iter().cloned());
            let pd = branch
                .bifurcations
                .iter()
                .find(|x| x.kind == BifurcationKind::PeriodDoubling)
                .cloned();
            let k = branch.period_k;
            out.branches.push(branch);
            if switches >= b.period_doublings {
                break;
            }
            let Some(pd) = pd else { break };
            match switch_period_doubling(family, &pd, k, orbit, &opts) {
                Ok(sw) => {
                    // Follow the new branch away from the flip, over the same parameter range,
                    // with the first step the switch measured.
                    opts.direction = sw.direction;
                    opts.step = sw.step;
                    start = sw.start;
                    switches += 1;
                    // The last branch of the chain is continued until its own period doubling.
                    opts.stop_at_period_doubling = switches == b.period_doublings;
                }
                Err(e) => {
                    let k2 = k.saturating_mul(2);
                    out.branches.push(Branch {
                        label: format!("period-{k2} from PD at {:.10}", pd.param),
                        period_k: k2,
                        points: Vec::new(),
                        end: EndReason::NotStarted(e.to_string()),
                        bifurcations: Vec::new(),
                    });
                    break;
                }
            }
        }
    }
    if let Some(d) = &spec.orbit_diagram {
        out.orbit_diagram = Some(diagram_with_events(family, &orbit.stride, d, events)?);
    }
    Ok(out)
}

/// Whether a failed start of a section's branch is bad input (not a computation that failed).
fn start_is_bad_input(e: &ContinuationError) -> bool {
    e.is_input_error() || matches!(e, ContinuationError::Param(_))
}

/// A failed start of branch `index` that is bad input, naming the branch's field.
fn start_error(index: usize, b: &BranchSpec, e: ContinuationError) -> ContinuationError {
    let field = |f: &str| format!("branches[{index}].{f}");
    match e {
        ContinuationError::Param(source) | ContinuationError::InvalidParameter { source, .. } => {
            ContinuationError::InvalidParameter {
                field: field("from"),
                value: b.from,
                source,
            }
        }
        ContinuationError::InvalidOption { field: f, reason } => {
            let f = if f == "start.param" {
                "from".to_string()
            } else if let Some(k) = f.strip_prefix("start.u") {
                format!("guess{k}")
            } else {
                f
            };
            ContinuationError::InvalidOption {
                field: field(&f),
                reason,
            }
        }
        // The settings' shooting, too many unknowns for this stride (known once the stride
        // from the guess is cut into segments): the settings' field, not the branch's.
        ContinuationError::Orbit(OrbitError::InvalidOptions(
            o @ OrbitOptionsError::Shooting { .. },
        )) => crate::options::shooting_error(o).within("settings."),
        ContinuationError::Orbit(OrbitError::Newton(NewtonError::InvalidOptions(n))) => {
            ContinuationError::invalid(format!("newton.{}", n.name), n.to_string())
        }
        ContinuationError::Orbit(o) => ContinuationError::invalid(field("guess"), o.to_string()),
        other => other,
    }
}

/// Runs the orbit diagram on a separate thread (its values in parallel) while this thread
/// passes its progress to `events`.
fn diagram_with_events<F: ModelFamily>(
    family: &F,
    stride: &StrideOptions,
    d: &DiagramSpec,
    events: &mut dyn FnMut(ScriptEvent<'_>),
) -> Result<Vec<DiagramColumn>, ContinuationError> {
    let params = d.params();
    let total = params.len();
    events(ScriptEvent::DiagramStarted { total });
    let (tx, rx) = std::sync::mpsc::channel::<usize>();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let on_column = move |done: usize, _total: usize| {
                // The receiver only goes away after this thread has ended.
                let _ = tx.send(done);
            };
            orbit_diagram_with_progress(family, &params, &d.start, stride, &d.settings, &on_column)
        });
        // Ends when the worker drops its sender: when it returns, or panics. The values
        // arrive in order (the worker's calls are serialised).
        for done in rx {
            events(ScriptEvent::DiagramProgress { done, total });
        }
        match worker.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests;
