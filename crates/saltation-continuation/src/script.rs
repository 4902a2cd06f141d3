//! Continuation scripts: the `continuation` section of a RON model file — which branches to
//! continue in which parameter, whether to switch at period doublings, and an optional orbit
//! diagram — and the function that runs one.

use crate::branch::{Bifurcation, BifurcationKind, Branch, EndReason};
use crate::diagram::{orbit_diagram, DiagramColumn, OrbitDiagramOptions};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::ContinuationOptions;
use crate::run::{continue_branch, Progress, Start};
use crate::switch::switch_period_doubling;
use serde::{Deserialize, Serialize};

/// One branch to continue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BranchSpec {
    /// Label ("stable gait, up").
    pub label: String,
    /// Parameter value to start at.
    pub from: f64,
    /// Parameter value to stop at (the direction follows from `from` → `to`).
    pub to: f64,
    /// Guess of the orbit at `from`, in reduced coordinates.
    pub guess: Vec<f64>,
    /// How many successive period doublings to follow: 0 = none, 1 = switch onto the period-2
    /// branch at the first period doubling and continue it until its own period doubling, …
    #[serde(default)]
    pub period_doublings: usize,
    /// Largest number of points (overrides the settings).
    #[serde(default)]
    pub max_points: Option<usize>,
}

/// An orbit diagram to compute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiagramSpec {
    /// First parameter value.
    pub from: f64,
    /// Last parameter value.
    pub to: f64,
    /// Number of parameter values.
    pub count: usize,
    /// Start state (full state) for every parameter value.
    pub start: Vec<f64>,
    /// Transient, kept strides, component, stride settings.
    #[serde(default)]
    pub settings: OrbitDiagramOptions,
}

/// The `continuation` section of a model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuationSpec {
    /// Name of the continuation parameter.
    pub param: String,
    /// Branches to continue.
    pub branches: Vec<BranchSpec>,
    /// Step sizes, tolerances, detection (shared by all branches).
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

/// What the progress callback is told.
#[derive(Debug, Clone)]
pub enum ScriptProgress<'a> {
    /// A branch started.
    Branch(&'a str),
    /// A point was added to the current branch.
    Point(Progress),
    /// The orbit diagram started (number of parameter values).
    Diagram(usize),
}

/// Runs a script. A branch whose start fails is recorded with that failure as its end reason
/// (nothing is lost); `progress` sees each branch and point.
pub fn run_script<F: ModelFamily>(
    family: &F,
    spec: &ContinuationSpec,
    progress: &mut dyn FnMut(ScriptProgress<'_>),
) -> Result<ScriptResult, ContinuationError> {
    spec.settings.validate()?;
    let mut out = ScriptResult {
        param: spec.param.clone(),
        branches: Vec::new(),
        bifurcations: Vec::new(),
        orbit_diagram: None,
    };
    for b in &spec.branches {
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
        let mut doublings_left = b.period_doublings;
        loop {
            progress(ScriptProgress::Branch(&start.label));
            let mut report = |p: Progress| progress(ScriptProgress::Point(p));
            let branch = match continue_branch(family, &start, &opts, &mut report) {
                Ok(br) => br,
                Err(e) => Branch {
                    label: start.label.clone(),
                    period_k: start.period_k,
                    points: Vec::new(),
                    end: EndReason::CorrectorFailed(format!("could not start: {e}")),
                    bifurcations: Vec::new(),
                },
            };
            out.bifurcations.extend(branch.bifurcations.iter().cloned());
            let pd = branch
                .bifurcations
                .iter()
                .find(|x| x.kind == BifurcationKind::PeriodDoubling)
                .cloned();
            let k = branch.period_k;
            out.branches.push(branch);
            if doublings_left == 0 {
                break;
            }
            let Some(pd) = pd else { break };
            match switch_period_doubling(family, &pd, k, &opts) {
                Ok((s, dir)) => {
                    // Follow the new branch away from the flip, over the same parameter range.
                    opts.direction = dir;
                    opts.step = opts.step.min(1e-4 * pd.param.abs().max(1e-2));
                    start = s;
                    doublings_left -= 1;
                    // The last branch of the chain is continued until its own period doubling.
                    opts.stop_at_period_doubling = doublings_left == 0;
                }
                Err(e) => {
                    out.branches.push(Branch {
                        label: format!("period-{} from PD at {:.10}", 2 * k, pd.param),
                        period_k: 2 * k,
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
        let n = d.count.max(1);
        let params: Vec<f64> = (0..n)
            .map(|i| d.from + (d.to - d.from) * i as f64 / (n.max(2) - 1) as f64)
            .collect();
        progress(ScriptProgress::Diagram(n));
        out.orbit_diagram = Some(orbit_diagram(family, &params, &d.start, &d.settings));
    }
    Ok(out)
}
