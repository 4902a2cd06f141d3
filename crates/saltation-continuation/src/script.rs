//! Continuation scripts: the `continuation` section of a RON model file — which branches to
//! continue in which parameter, whether to switch at period doublings, and an optional orbit
//! diagram — and the function that runs one.

use crate::branch::{Bifurcation, BifurcationKind, Branch, EndReason};
use crate::diagram::{
    check_start, check_total, orbit_diagram_with_progress, DiagramColumn, OrbitDiagramOptions,
    MAX_DIAGRAM_COUNT,
};
use crate::error::{num, ContinuationError};
use crate::family::ModelFamily;
use crate::options::{ContinuationOptions, MAX_POINTS};
use crate::run::{continue_branch, Progress, Start};
use crate::switch::switch_period_doubling;
use saltation_hybrid::{HybridModel, ParamError};
use saltation_orbit::{NewtonError, OrbitError};
use serde::{Deserialize, Serialize};

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

/// An orbit diagram to compute. Checked by [`DiagramSpec::validate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Transient, kept strides, component, stride settings
    /// ([`OrbitDiagramOptions::validate`]).
    #[serde(default)]
    pub settings: OrbitDiagramOptions,
}

/// The `continuation` section of a model file. Checked by [`ContinuationSpec::validate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuationSpec {
    /// Name of the continuation parameter: a real-valued parameter of the model.
    pub param: String,
    /// Branches to continue, at most 1000 ([`MAX_BRANCHES`]); at least one unless there is an
    /// orbit diagram.
    pub branches: Vec<BranchSpec>,
    /// Step sizes, tolerances, detection (shared by all branches). `direction`, `p_min`,
    /// `p_max` must stay at their defaults: each branch's `from`/`to` sets them.
    #[serde(default)]
    pub settings: ContinuationOptions,
    /// Orbit diagram, if wanted.
    #[serde(default)]
    pub orbit_diagram: Option<DiagramSpec>,
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
}

impl ScriptResult {
    /// [`ContinuationError::NoBranchStarted`] if the script computed nothing: it has branches,
    /// every one of them without a point (each could not start), and no orbit diagram. Lists
    /// each branch's label and end reason.
    pub fn no_branch_started(&self) -> Option<ContinuationError> {
        if self.branches.is_empty()
            || self.orbit_diagram.is_some()
            || self.branches.iter().any(|b| !b.points.is_empty())
        {
            return None;
        }
        let reasons = self
            .branches
            .iter()
            .map(|b| {
                let why = match &b.end {
                    EndReason::CorrectorFailed(s) | EndReason::StrideFailed(s) => s.clone(),
                    other => other.to_string(),
                };
                (b.label.clone(), why)
            })
            .collect();
        Some(ContinuationError::NoBranchStarted { reasons })
    }
}

/// Fractions of `to − from` at which [`BranchSpec::validate`] asks the model for a
/// non-integral parameter value (an integer parameter rejects it: it cannot be continued).
const PROBES: [f64; 3] = [0.381_966_011_250_105, 0.723_606_797_749_979, 1e-3];

/// Whether `e` says the parameter itself cannot take real values (unknown name, not a number,
/// an integer given a fraction), rather than that the value is out of range.
fn not_continuable(e: &ParamError) -> bool {
    matches!(
        e,
        ParamError::Unknown { .. } | ParamError::NotNumeric { .. }
    )
}

impl BranchSpec {
    /// Checks the branch for the family `family` in the parameter `param` (its name, for
    /// messages). Errors name the field relative to the branch (`from`, `guess[1]`,
    /// `max_points`); [`ContinuationSpec::validate`] prefixes `branches[i].`:
    /// - `from`, `to` finite and different; `max_points` in `1..=MAX_POINTS`;
    ///   `period_doublings` at most [`MAX_PERIOD_DOUBLINGS`]; `guess` finite;
    /// - the model can be built at `from` ([`ContinuationError::InvalidParameter`]), and the
    ///   guess has its reduced dimension;
    /// - the parameter takes non-integral values between `from` and `to`
    ///   ([`ContinuationError::NotContinuable`] for an integer parameter such as a number of
    ///   spokes, or one that is not a number).
    pub fn validate<F: ModelFamily>(
        &self,
        family: &F,
        param: &str,
    ) -> Result<(), ContinuationError> {
        let bad = |field: String, reason: String| {
            Err(ContinuationError::invalid(
                field,
                format!("branch \"{}\": {reason}", self.label),
            ))
        };
        if !self.from.is_finite() {
            return bad("from".into(), format!("{} is not finite", num(self.from)));
        }
        if !self.to.is_finite() {
            return bad("to".into(), format!("{} is not finite", num(self.to)));
        }
        if self.from == self.to {
            return bad(
                "to".into(),
                format!("equals from = {}: nothing to continue", num(self.from)),
            );
        }
        if let Some(m) = self.max_points {
            if !(1..=MAX_POINTS).contains(&m) {
                return bad(
                    "max_points".into(),
                    format!("{m} must be in 1..={MAX_POINTS}"),
                );
            }
        }
        if self.period_doublings > MAX_PERIOD_DOUBLINGS {
            return bad(
                "period_doublings".into(),
                format!(
                    "{} must be at most {MAX_PERIOD_DOUBLINGS}",
                    self.period_doublings
                ),
            );
        }
        if let Some(i) = self.guess.iter().position(|x| !x.is_finite()) {
            return bad(format!("guess[{i}]"), "is not finite".into());
        }
        let model = match family.model_at(self.from) {
            Ok(m) => m,
            Err(source) if not_continuable(&source) => {
                return Err(ContinuationError::NotContinuable {
                    param: param.to_string(),
                    value: self.from,
                    source,
                })
            }
            Err(source) => {
                return Err(ContinuationError::InvalidParameter {
                    field: "from".into(),
                    value: self.from,
                    source,
                })
            }
        };
        let r = model.reduced_dim();
        if self.guess.len() != r {
            return bad(
                "guess".into(),
                format!(
                    "{} value(s), but the model has {r} reduced coordinate(s)",
                    self.guess.len()
                ),
            );
        }
        for f in PROBES {
            let p = self.from + (self.to - self.from) * f;
            if !p.is_finite() || p.fract() == 0.0 {
                continue;
            }
            if let Err(source) = family.model_at(p) {
                if not_continuable(&source) {
                    return Err(ContinuationError::NotContinuable {
                        param: param.to_string(),
                        value: p,
                        source,
                    });
                }
            }
        }
        Ok(())
    }
}

impl DiagramSpec {
    /// The parameter values: `count` values evenly spaced from `from` to `to` (just `from` for
    /// `count = 1`). Finite when the spec is valid.
    pub fn params(&self) -> Vec<f64> {
        let n = self.count.max(1);
        let last = (n - 1).max(1) as f64;
        (0..n)
            .map(|i| self.from + (self.to - self.from) * (i as f64 / last))
            .collect()
    }

    /// `from`, `to`, `count` (what does not need the model).
    fn validate_range(&self) -> Result<(), ContinuationError> {
        let bad = |field: &str, reason: String| {
            Err(ContinuationError::invalid(
                format!("orbit_diagram.{field}"),
                reason,
            ))
        };
        if !self.from.is_finite() {
            return bad("from", format!("{} is not finite", num(self.from)));
        }
        if !self.to.is_finite() {
            return bad("to", format!("{} is not finite", num(self.to)));
        }
        let span = self.to - self.from;
        if !span.is_finite() {
            return bad(
                "to",
                format!(
                    "to − from = {} − ({}) = {span} is not finite",
                    num(self.to),
                    num(self.from)
                ),
            );
        }
        if !(1..=MAX_DIAGRAM_COUNT).contains(&self.count) {
            return bad(
                "count",
                format!("{} must be in 1..={MAX_DIAGRAM_COUNT}", self.count),
            );
        }
        Ok(())
    }

    /// Checks the diagram for a model with `dim` state components; errors name the field
    /// (`orbit_diagram.from`, `orbit_diagram.count`, `orbit_diagram.start[2]`,
    /// `orbit_diagram.settings.component`, …):
    /// - `from`, `to` and `to − from` finite; `count` in `1..=MAX_DIAGRAM_COUNT`, and
    ///   `count × settings.keep` at most [`crate::MAX_DIAGRAM_VALUES`];
    /// - `start` of length `dim` and finite;
    /// - `settings` ([`OrbitDiagramOptions::validate`]).
    pub fn validate(&self, dim: usize) -> Result<(), ContinuationError> {
        self.validate_range()?;
        check_start(&self.start, dim, "orbit_diagram.start")?;
        self.settings
            .validate(dim)
            .map_err(|e| e.within("orbit_diagram.settings."))?;
        check_total(self.count, self.settings.keep, "orbit_diagram.count")
    }

    /// Checks the diagram for the family: that the model can be built at every parameter value
    /// of the diagram ([`Self::params`]; [`ContinuationError::InvalidParameter`] naming the
    /// first that cannot: `orbit_diagram.from` for the first value, `orbit_diagram.to` for the
    /// last, `orbit_diagram` for one in between), then [`DiagramSpec::validate`] with the
    /// model's state dimension.
    pub fn validate_for<F: ModelFamily>(&self, family: &F) -> Result<(), ContinuationError> {
        self.validate_range()?;
        let params = self.params();
        let last = params.len() - 1;
        let mut dim = 0;
        for (i, &p) in params.iter().enumerate() {
            match family.model_at(p) {
                Ok(m) => {
                    if i == 0 {
                        dim = m.dim();
                    }
                }
                Err(source) => {
                    let field = if i == 0 {
                        "orbit_diagram.from"
                    } else if i == last {
                        "orbit_diagram.to"
                    } else {
                        "orbit_diagram"
                    };
                    return Err(ContinuationError::InvalidParameter {
                        field: field.into(),
                        value: p,
                        source,
                    });
                }
            }
        }
        self.validate(dim)
    }
}

impl ContinuationSpec {
    /// Checks the whole section for the family `family` (the models along [`Self::param`]),
    /// before anything is computed; errors name the field:
    /// - `settings.*` ([`ContinuationOptions::validate`]); `settings.direction`,
    ///   `settings.p_min`, `settings.p_max` at their defaults (each branch's `from`/`to` sets
    ///   them);
    /// - `branches`: at least one unless there is an orbit diagram, at most [`MAX_BRANCHES`];
    ///   each `branches[i].*`
    ///   ([`BranchSpec::validate`]: finite `from` ≠ `to`, guess, `max_points`,
    ///   `period_doublings`, the model at `from`, a parameter that can be continued);
    /// - `orbit_diagram.*` ([`DiagramSpec::validate_for`]).
    pub fn validate<F: ModelFamily>(&self, family: &F) -> Result<(), ContinuationError> {
        self.settings
            .validate()
            .map_err(|e| e.within("settings."))?;
        let defaults = ContinuationOptions::default();
        for (field, value, default) in [
            ("direction", self.settings.direction, defaults.direction),
            ("p_min", self.settings.p_min, defaults.p_min),
            ("p_max", self.settings.p_max, defaults.p_max),
        ] {
            if value != default {
                return Err(ContinuationError::invalid(
                    format!("settings.{field}"),
                    format!("{}: set by each branch's from/to; remove it", num(value)),
                ));
            }
        }
        if self.branches.is_empty() && self.orbit_diagram.is_none() {
            return Err(ContinuationError::invalid(
                "branches",
                "no branch and no orbit diagram: nothing to compute",
            ));
        }
        if self.branches.len() > MAX_BRANCHES {
            return Err(ContinuationError::invalid(
                "branches",
                format!("{} branches: at most {MAX_BRANCHES}", self.branches.len()),
            ));
        }
        for (i, b) in self.branches.iter().enumerate() {
            b.validate(family, &self.param)
                .map_err(|e| e.within(&format!("branches[{i}].")))?;
        }
        if let Some(d) = &self.orbit_diagram {
            d.validate_for(family)?;
        }
        Ok(())
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
    spec: &ContinuationSpec,
    progress: &mut dyn FnMut(ScriptProgress<'_>),
) -> Result<ScriptResult, ContinuationError> {
    run_script_with_events(family, spec, &mut |e| {
        if let Some(p) = e.as_progress() {
            progress(p);
        }
    })
}

/// Runs a script. First checks it ([`ContinuationSpec::validate`]): bad input is an error naming
/// the field ([`ContinuationError::is_input_error`]), before anything is computed. Then a branch
/// whose start fails for a computational reason (no orbit found from the guess) is recorded with
/// that failure as its end reason (nothing is lost), as is a failed switch; a start that fails
/// because the input is bad is returned as an error. `events` sees each branch, point and
/// diagram value ([`ScriptEvent`]); the orbit diagram runs in parallel while the calling thread
/// reports its progress.
pub fn run_script_with_events<F: ModelFamily>(
    family: &F,
    spec: &ContinuationSpec,
    events: &mut dyn FnMut(ScriptEvent<'_>),
) -> Result<ScriptResult, ContinuationError> {
    spec.validate(family)?;
    let mut out = ScriptResult {
        param: spec.param.clone(),
        branches: Vec::new(),
        bifurcations: Vec::new(),
        orbit_diagram: None,
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
            let branch = match continue_branch(family, &start, &opts, &mut report) {
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
                    end: EndReason::CorrectorFailed(format!("could not start: {e}")),
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
            match switch_period_doubling(family, &pd, k, &opts) {
                Ok((s, dir)) => {
                    // Follow the new branch away from the flip, over the same parameter range,
                    // with a small first step (never below the smallest).
                    opts.direction = dir;
                    opts.step = opts
                        .step
                        .min(1e-4 * pd.param.abs().max(1e-2))
                        .max(opts.min_step);
                    start = s;
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
                        end: EndReason::CorrectorFailed(e.to_string()),
                        bifurcations: Vec::new(),
                    });
                    break;
                }
            }
        }
    }
    if let Some(d) = &spec.orbit_diagram {
        out.orbit_diagram = Some(diagram_with_events(family, d, events)?);
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
        ContinuationError::Orbit(OrbitError::Newton(NewtonError::InvalidOptions(n))) => {
            ContinuationError::invalid(format!("settings.newton.{}", n.name), n.to_string())
        }
        ContinuationError::Orbit(o) => ContinuationError::invalid(field("guess"), o.to_string()),
        other => other,
    }
}

/// Runs the orbit diagram on a separate thread (its values in parallel) while this thread
/// passes its progress to `events`.
fn diagram_with_events<F: ModelFamily>(
    family: &F,
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
            orbit_diagram_with_progress(family, &params, &d.start, &d.settings, &on_column)
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
mod tests {
    use super::*;
    use crate::diagram::{MAX_DIAGRAM_VALUES, MAX_KEEP, MAX_TRANSIENT};
    use crate::test_models::{bounce, broken_family, integer_family, QuadraticBounce};

    fn branch(from: f64, to: f64) -> BranchSpec {
        BranchSpec {
            label: "lower".into(),
            from,
            to,
            guess: vec![0.1],
            period_doublings: 0,
            max_points: None,
        }
    }

    fn diagram() -> DiagramSpec {
        DiagramSpec {
            from: 0.05,
            to: 0.2,
            count: 4,
            start: vec![0.0, 0.2],
            settings: OrbitDiagramOptions {
                transient: 60,
                keep: 4,
                component: 1,
                ..OrbitDiagramOptions::default()
            },
        }
    }

    fn spec() -> ContinuationSpec {
        let mut settings = ContinuationOptions::default();
        (settings.step, settings.max_step) = (0.02, 0.02);
        settings.corrector_tol = 1e-12;
        ContinuationSpec {
            param: "p".into(),
            branches: vec![branch(0.1, 0.2)],
            settings,
            orbit_diagram: Some(diagram()),
        }
    }

    fn field_of(r: Result<(), ContinuationError>) -> String {
        match r {
            Err(e) => {
                assert!(e.is_input_error(), "{e}");
                e.field()
                    .unwrap_or_else(|| panic!("no field: {e}"))
                    .to_string()
            }
            Ok(()) => panic!("expected an error"),
        }
    }

    #[test]
    fn branch_fields_are_checked_and_named() {
        assert_eq!(branch(0.1, 0.2).validate(&bounce, "p"), Ok(()));
        type Edit = fn(&mut BranchSpec);
        let cases: &[(&str, Edit)] = &[
            ("from", |b| b.from = f64::NAN),
            ("from", |b| b.from = f64::NEG_INFINITY),
            ("to", |b| b.to = f64::INFINITY),
            ("to", |b| b.to = b.from),
            ("max_points", |b| b.max_points = Some(0)),
            ("max_points", |b| b.max_points = Some(MAX_POINTS + 1)),
            ("period_doublings", |b| {
                b.period_doublings = MAX_PERIOD_DOUBLINGS + 1
            }),
            ("guess[0]", |b| b.guess = vec![f64::NAN]),
            ("guess", |b| b.guess = vec![0.1, 0.2]),
            ("guess", |b| b.guess = vec![]),
        ];
        for (field, edit) in cases {
            let mut b = branch(0.1, 0.2);
            edit(&mut b);
            assert_eq!(field_of(b.validate(&bounce, "p")), *field, "{b:?}");
        }
        // The model cannot be built at `from`.
        let e = branch(0.1, 0.2).validate(&broken_family, "p").unwrap_err();
        assert!(
            matches!(e, ContinuationError::InvalidParameter { ref field, value, .. }
                if field == "from" && value == 0.1),
            "{e:?}"
        );
    }

    #[test]
    fn an_integer_parameter_cannot_be_continued() {
        // Fractional start: rejected at `from`.
        let e = branch(0.2, 0.3).validate(&integer_family, "n").unwrap_err();
        assert!(
            matches!(e, ContinuationError::NotContinuable { ref param, value, .. }
                if param == "n" && value == 0.2),
            "{e:?}"
        );
        // Integral ends: rejected in between.
        let e = branch(6.0, 8.0).validate(&integer_family, "n").unwrap_err();
        match e {
            ContinuationError::NotContinuable { param, value, .. } => {
                assert_eq!(param, "n");
                assert!(
                    value > 6.0 && value < 8.0 && value.fract() != 0.0,
                    "{value}"
                );
            }
            other => panic!("{other:?}"),
        }
        // An unknown name is the same kind of error.
        let unknown = |_p: f64| -> Result<QuadraticBounce, ParamError> {
            Err(ParamError::Unknown {
                name: "q".into(),
                known: vec!["p".into()],
            })
        };
        assert!(matches!(
            branch(0.1, 0.2).validate(&unknown, "q"),
            Err(ContinuationError::NotContinuable { .. })
        ));
    }

    #[test]
    fn diagram_fields_are_checked_and_named() {
        assert_eq!(diagram().validate(2), Ok(()));
        type Edit = fn(&mut DiagramSpec);
        let cases: &[(&str, Edit)] = &[
            ("orbit_diagram.from", |d| d.from = f64::NAN),
            ("orbit_diagram.to", |d| d.to = f64::INFINITY),
            ("orbit_diagram.to", |d| (d.from, d.to) = (1e308, -1e308)),
            ("orbit_diagram.count", |d| d.count = 0),
            ("orbit_diagram.count", |d| d.count = MAX_DIAGRAM_COUNT + 1),
            ("orbit_diagram.count", |d| {
                (d.count, d.settings.keep) = (MAX_DIAGRAM_VALUES / MAX_KEEP + 1, MAX_KEEP)
            }),
            ("orbit_diagram.start", |d| d.start = vec![0.0]),
            ("orbit_diagram.start[1]", |d| d.start = vec![0.0, f64::NAN]),
            ("orbit_diagram.settings.component", |d| {
                d.settings.component = 99
            }),
            ("orbit_diagram.settings.keep", |d| d.settings.keep = 0),
            ("orbit_diagram.settings.keep", |d| {
                d.settings.keep = usize::MAX
            }),
            ("orbit_diagram.settings.transient", |d| {
                d.settings.transient = MAX_TRANSIENT + 1
            }),
            ("orbit_diagram.settings.stride.t_max", |d| {
                d.settings.stride.t_max = f64::INFINITY
            }),
        ];
        for (field, edit) in cases {
            let mut d = diagram();
            edit(&mut d);
            assert_eq!(field_of(d.validate(2)), *field, "{d:?}");
            assert_eq!(field_of(d.validate_for(&bounce)), *field, "{d:?}");
        }
        let e = diagram().validate_for(&broken_family).unwrap_err();
        assert_eq!(e.field(), Some("orbit_diagram.from"), "{e}");
    }

    #[test]
    fn diagram_checks_the_model_at_every_value() {
        // The values are 0.05, 0.1, 0.15, 0.2: the first that cannot be built is named.
        fn window(lo: f64, hi: f64, p: f64) -> Result<QuadraticBounce, ParamError> {
            if p > lo && p < hi {
                Err(ParamError::NonFinite {
                    name: "p".into(),
                    value: p,
                })
            } else {
                bounce(p)
            }
        }
        type Family = fn(f64) -> Result<QuadraticBounce, ParamError>;
        let cases: [(Family, &str, f64); 3] = [
            (|p| window(0.12, 0.3, p), "orbit_diagram", 0.15),
            (|p| window(0.17, 0.3, p), "orbit_diagram.to", 0.2),
            (|p| window(0.0, 0.07, p), "orbit_diagram.from", 0.05),
        ];
        for (family, field, value) in cases {
            let e = diagram().validate_for(&family).unwrap_err();
            assert!(e.is_input_error(), "{e}");
            match e {
                ContinuationError::InvalidParameter {
                    field: ref f,
                    value: v,
                    ..
                } => {
                    assert_eq!(f, field, "{e}");
                    assert!((v - value).abs() < 1e-12, "{e}");
                }
                ref other => panic!("{other:?}"),
            }
        }
        // An integer parameter between integral ends: 3.5 is rejected.
        let d = DiagramSpec {
            from: 3.0,
            to: 4.0,
            count: 3,
            ..diagram()
        };
        let e = d.validate_for(&integer_family).unwrap_err();
        assert!(
            matches!(e, ContinuationError::InvalidParameter { ref field, value, .. }
                if field == "orbit_diagram" && value == 3.5),
            "{e:?}"
        );
        let d = DiagramSpec { count: 2, ..d };
        assert_eq!(d.validate_for(&integer_family), Ok(()));
    }

    #[test]
    fn a_script_where_no_branch_started_is_reported() {
        let failed = |label: &str| Branch {
            label: label.into(),
            period_k: 1,
            points: Vec::new(),
            end: EndReason::CorrectorFailed("could not start: no convergence".into()),
            bifurcations: Vec::new(),
        };
        let mut r = ScriptResult {
            param: "p".into(),
            branches: vec![failed("up"), failed("down")],
            bifurcations: Vec::new(),
            orbit_diagram: None,
        };
        let e = r.no_branch_started().expect("nothing started");
        assert!(!e.is_input_error(), "{e}");
        let text = e.to_string();
        assert!(
            text.contains("\"up\": could not start: no convergence; \"down\": could not start"),
            "{text}"
        );
        // A diagram, or one branch with points, is a result.
        r.orbit_diagram = Some(Vec::new());
        assert_eq!(r.no_branch_started(), None);
        r.orbit_diagram = None;
        let started = run_script(&bounce, &spec(), &mut |_| {}).unwrap();
        r.branches.push(started.branches[0].clone());
        assert_eq!(r.no_branch_started(), None);
        assert_eq!(started.no_branch_started(), None);
    }

    #[test]
    fn diagram_params_are_even_and_finite() {
        let d = DiagramSpec {
            from: 0.0,
            to: 1.7e308,
            count: 3,
            ..diagram()
        };
        let p = d.params();
        assert_eq!(p, [0.0, 0.85e308, 1.7e308]);
        let d = DiagramSpec {
            from: 2.0,
            to: 1.0,
            count: 5,
            ..diagram()
        };
        assert_eq!(d.params(), [2.0, 1.75, 1.5, 1.25, 1.0]);
        let d = DiagramSpec {
            count: 1,
            ..diagram()
        };
        assert_eq!(d.params(), [0.05]);
    }

    #[test]
    fn spec_errors_name_the_section_field() {
        assert_eq!(spec().validate(&bounce), Ok(()));
        type Edit = fn(&mut ContinuationSpec);
        let cases: &[(&str, Edit)] = &[
            ("settings.max_step", |s| s.settings.max_step = f64::NAN),
            ("settings.max_points", |s| s.settings.max_points = 0),
            ("branches[2].from", |s| {
                s.branches = vec![branch(0.1, 0.2), branch(0.1, 0.15), branch(f64::NAN, 0.2)]
            }),
            ("branches[1].to", |s| {
                s.branches = vec![branch(0.1, 0.2), branch(0.1, 0.1)]
            }),
            ("branches[0].max_points", |s| {
                s.branches[0].max_points = Some(0)
            }),
            ("branches", |s| {
                s.branches = vec![branch(0.1, 0.2); MAX_BRANCHES + 1]
            }),
            // Nothing to compute.
            ("branches", |s| {
                (s.branches, s.orbit_diagram) = (vec![], None)
            }),
            // Set per branch by `from`/`to`: the settings' values would be overwritten.
            ("settings.direction", |s| s.settings.direction = -1.0),
            ("settings.p_min", |s| s.settings.p_min = 0.0),
            ("settings.p_max", |s| s.settings.p_max = 1.0),
            ("orbit_diagram.count", |s| {
                if let Some(d) = &mut s.orbit_diagram {
                    d.count = 0;
                }
            }),
            ("orbit_diagram.settings.component", |s| {
                if let Some(d) = &mut s.orbit_diagram {
                    d.settings.component = 99;
                }
            }),
        ];
        for (field, edit) in cases {
            let mut s = spec();
            edit(&mut s);
            assert_eq!(field_of(s.validate(&bounce)), *field);
        }
        let e = ContinuationSpec {
            branches: vec![],
            orbit_diagram: None,
            ..spec()
        }
        .validate(&bounce)
        .unwrap_err();
        assert!(e.to_string().contains("nothing to compute"), "{e}");
        let mut s = spec();
        s.settings.p_max = 1.0;
        let e = s.validate(&bounce).unwrap_err();
        assert!(e.to_string().contains("from/to; remove it"), "{e}");
        // An orbit diagram alone is something to compute.
        let s = ContinuationSpec {
            branches: vec![],
            ..spec()
        };
        assert_eq!(s.validate(&bounce), Ok(()));
        let e = spec().validate(&broken_family).unwrap_err();
        assert_eq!(e.field(), Some("branches[0].from"), "{e}");
        let e = spec().validate(&integer_family).unwrap_err();
        assert_eq!(e.field(), Some("param"), "{e}");
        assert!(e.to_string().contains("cannot be continued"), "{e}");
    }

    #[test]
    fn run_script_rejects_an_invalid_section_before_computing() {
        let mut s = spec();
        if let Some(d) = &mut s.orbit_diagram {
            d.count = 0;
        }
        let mut events = 0;
        let r = run_script(&bounce, &s, &mut |_| events += 1);
        assert!(
            matches!(r, Err(ContinuationError::InvalidOption { ref field, .. })
                if field == "orbit_diagram.count"),
            "{r:?}"
        );
        assert_eq!(events, 0, "nothing was computed");
        let mut s = spec();
        s.branches[0].max_points = Some(0);
        let r = run_script(&bounce, &s, &mut |_| {});
        assert_eq!(
            r.as_ref().err().and_then(ContinuationError::field),
            Some("branches[0].max_points"),
            "{r:?}"
        );
        // A model that cannot be built at the start is an error, not a branch that "could not
        // start".
        let r = run_script(&broken_family, &spec(), &mut |_| {});
        assert!(
            matches!(r, Err(ContinuationError::InvalidParameter { .. })),
            "{r:?}"
        );
    }

    #[test]
    fn bad_starts_name_the_branch_field() {
        let b = branch(0.1, 0.2);
        let param = ParamError::NonFinite {
            name: "other".into(),
            value: f64::NAN,
        };
        let cases = [
            (ContinuationError::Param(param.clone()), "branches[3].from"),
            (
                ContinuationError::InvalidParameter {
                    field: "start.param".into(),
                    value: 0.1,
                    source: param,
                },
                "branches[3].from",
            ),
            (
                ContinuationError::invalid("start.u[1]", "is not finite"),
                "branches[3].guess[1]",
            ),
            (
                ContinuationError::Orbit(OrbitError::GuessLength {
                    expected: 1,
                    got: 2,
                }),
                "branches[3].guess",
            ),
        ];
        for (e, field) in cases {
            assert!(start_is_bad_input(&e), "{e}");
            let e = start_error(3, &b, e);
            assert!(e.is_input_error(), "{e}");
            assert_eq!(e.field(), Some(field), "{e}");
        }
        assert!(!start_is_bad_input(&ContinuationError::Singular { p: 0.1 }));
    }

    #[test]
    fn continue_branch_checks_its_start() {
        let start = |param: f64, u: f64| Start {
            param,
            u: vec![u],
            label: "s".into(),
            period_k: 1,
        };
        let opts = ContinuationOptions::default();
        type Family = fn(f64) -> Result<QuadraticBounce, ParamError>;
        let field = |f: Family, s: Start| {
            let e = continue_branch(&f, &s, &opts, &mut |_| {}).unwrap_err();
            assert!(e.is_input_error(), "{e}");
            e.field().map(str::to_string)
        };
        assert_eq!(
            field(bounce, start(f64::NAN, 0.1)).as_deref(),
            Some("start.param")
        );
        assert_eq!(
            field(bounce, start(0.1, f64::INFINITY)).as_deref(),
            Some("start.u[0]")
        );
        assert_eq!(
            field(broken_family, start(0.1, 0.1)).as_deref(),
            Some("start.param")
        );
        let mut bad = opts.clone();
        bad.max_points = 0;
        let e = continue_branch(&bounce, &start(0.1, 0.1), &bad, &mut |_| {}).unwrap_err();
        assert_eq!(e.field(), Some("max_points"));
    }

    #[test]
    fn events_count_branches_points_and_diagram_values() {
        let mut s = spec();
        s.branches.push(BranchSpec {
            label: "down".into(),
            ..branch(0.1, 0.05)
        });
        let mut log = Vec::new();
        let r = run_script_with_events(&bounce, &s, &mut |e| {
            log.push(match e {
                ScriptEvent::BranchStarted {
                    index,
                    count,
                    from,
                    to,
                    max_points,
                    ..
                } => format!("start {index}/{count} {from}->{to} max {max_points}"),
                ScriptEvent::Point {
                    index, progress, ..
                } => format!("point {index} {}/{}", progress.points, progress.max_points),
                ScriptEvent::BranchDone {
                    index, points, end, ..
                } => format!("done {index} {points} {end}"),
                ScriptEvent::DiagramStarted { total } => format!("diagram {total}"),
                ScriptEvent::DiagramProgress { done, total } => format!("value {done}/{total}"),
            })
        })
        .unwrap();
        assert_eq!(r.branches.len(), 2);
        for b in &r.branches {
            assert_eq!(b.end, EndReason::ParameterBound);
            for p in &b.points {
                let exact = QuadraticBounce::fixed_point(p.param);
                assert!((p.u[0] - exact).abs() < 1e-9, "{} vs {exact}", p.u[0]);
                assert!((p.multipliers[0].re - 2.0 * exact).abs() < 1e-8);
            }
        }
        let n0 = r.branches[0].points.len();
        let n1 = r.branches[1].points.len();
        let mut expected = vec!["start 0/2 0.1->0.2 max 200".to_string()];
        expected.extend((1..=n0).map(|k| format!("point 0 {k}/200")));
        expected.push(format!("done 0 {n0} parameter bound reached"));
        expected.push("start 1/2 0.1->0.05 max 200".into());
        expected.extend((1..=n1).map(|k| format!("point 1 {k}/200")));
        expected.push(format!("done 1 {n1} parameter bound reached"));
        expected.push("diagram 4".into());
        expected.extend((1..=4).map(|k| format!("value {k}/4")));
        assert_eq!(log, expected);
        let cols = r.orbit_diagram.unwrap();
        assert_eq!(cols.len(), 4);
        for c in &cols {
            let exact = QuadraticBounce::fixed_point(c.param);
            assert!(c.values.iter().all(|v| (v - exact).abs() < 1e-8), "{c:?}");
        }
    }
}
