//! A simulation as output: the JSON object of `saltation simulate --json` ([`SimulationJson`],
//! made by [`simulation_json`]), and the files of `saltation simulate --out` — the samples and
//! events as CSV, and a figure of stacked panels, one per chosen variable, with the events
//! marked ([`crate::simulation_figure`]).

use super::files::{Batch, Outputs};
use super::simulation_plot::{figure_height, simulation_figure, Plotted};
use super::{csv_field, shortest, state_name, ReportError};
use saltation_hybrid::{EvalModel, Trace};
use saltation_models::Model;
use saltation_ode::Method;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One sample of the trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SampleJson {
    /// Time.
    pub t: f64,
    /// State.
    pub x: Vec<f64>,
    /// Mode.
    pub mode: usize,
    /// An equation model's named `outputs` at the sample (absent for a model without any). An
    /// output whose expression is not finite at the sample (NaN or ±∞, e.g. `log(x)` at
    /// `x ≤ 0`) is left out of that sample's map (JSON has no such numbers, and `null` would
    /// stand where a number is promised); the CSV writes it as `NaN` or `inf`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub outputs: BTreeMap<String, f64>,
}

/// One event of the trajectory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventJson {
    /// Time.
    pub t: f64,
    /// Guard that fired (index within its mode).
    pub guard: usize,
    /// Mode before.
    pub from: usize,
    /// Mode after.
    pub to: usize,
}

/// Integrator work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StatsJson {
    /// Vector-field evaluations (finite-difference Jacobians included).
    pub rhs_evals: usize,
    /// Jacobian evaluations.
    pub jacobian_evals: usize,
    /// LU decompositions.
    pub lu_decompositions: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps.
    pub rejected_steps: usize,
}

/// The JSON output of `saltation simulate` (a public interface: exactly these keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulationJson {
    /// Method name (the short name, also when a MATLAB alias was given).
    pub method: String,
    /// The model's parameter values the simulation ran with, by name.
    pub params: std::collections::BTreeMap<String, f64>,
    /// Names of the modes whose flow was stepped exactly by the matrix exponential instead of
    /// `method` (autonomous affine modes, unless `--method` was given, `exact_affine_phases`
    /// is off or the exact stepper could not take the mode). Empty when `method` did all.
    pub exact_affine_modes: Vec<String>,
    /// End time.
    pub t_end: f64,
    /// State at the end time.
    pub x_end: Vec<f64>,
    /// Mode at the end time.
    pub mode_end: usize,
    /// The samples.
    pub samples: Vec<SampleJson>,
    /// The events, in order.
    pub events: Vec<EventJson>,
    /// Integrator work.
    pub stats: StatsJson,
    /// Wall-clock time of the integration, in seconds.
    pub wall_s: f64,
    /// Why the simulation stopped before its end (only present then: the object then holds
    /// everything computed up to that point, and the command exits with an error status).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The JSON object of a finished simulation of `model`.
pub fn simulation_json(
    model: &Model,
    method: Method,
    trace: &Trace,
    wall_s: f64,
) -> SimulationJson {
    let s = trace.stats;
    SimulationJson {
        method: method.name().to_string(),
        params: crate::params_json(model),
        exact_affine_modes: trace
            .exact_affine_modes
            .iter()
            .map(|&m| model.mode_name(m))
            .collect(),
        t_end: trace.end.0,
        x_end: trace.end.1.clone(),
        mode_end: trace.end.2,
        samples: (0..trace.t.len())
            .map(|k| SampleJson {
                t: trace.t[k],
                x: trace.x[k].clone(),
                mode: trace.mode[k],
                outputs: match model {
                    Model::Equations(m) => m
                        .model()
                        .outputs(m.values(), trace.t[k], &trace.x[k])
                        .into_iter()
                        .filter(|(_, v)| v.is_finite())
                        .collect(),
                    _ => BTreeMap::new(),
                },
            })
            .collect(),
        events: trace
            .events
            .iter()
            .map(|e| EventJson {
                t: e.t,
                guard: e.guard,
                from: e.mode,
                to: e.target,
            })
            .collect(),
        stats: StatsJson {
            rhs_evals: s.rhs_evals,
            jacobian_evals: s.jacobian_evals,
            lu_decompositions: s.lu_decompositions,
            steps: s.steps,
            rejected_steps: s.rejected_steps,
        },
        wall_s,
        error: trace.failure.as_ref().map(ToString::to_string),
    }
}

/// `t, mode, <state names>[, <outputs>]`: one row per sample; an equation model's named
/// `outputs` follow the states.
pub fn samples_csv(j: &SimulationJson, model: &Model) -> String {
    let outputs = |t: f64, x: &[f64]| match model {
        Model::Equations(m) => m.model().outputs(m.values(), t, x),
        _ => Vec::new(),
    };
    let mut s = String::from("t,mode");
    for i in 0..model.dim() {
        s.push(',');
        s.push_str(&csv_field(&state_name(model, i)));
    }
    if let Some(p) = j.samples.first() {
        for (name, _) in outputs(p.t, &p.x) {
            s.push(',');
            s.push_str(&csv_field(&name));
        }
    }
    s.push('\n');
    for p in &j.samples {
        s.push_str(&format!("{},{}", shortest(p.t), p.mode));
        for x in
            p.x.iter()
                .copied()
                .chain(outputs(p.t, &p.x).into_iter().map(|o| o.1))
        {
            s.push(',');
            s.push_str(&shortest(x));
        }
        s.push('\n');
    }
    s
}

/// `t, guard, from, to`: one row per event.
pub fn events_csv(j: &SimulationJson) -> String {
    let mut s = String::from("t,guard,from,to\n");
    for e in &j.events {
        s.push_str(&format!(
            "{},{},{},{}\n",
            shortest(e.t),
            e.guard,
            e.from,
            e.to
        ));
    }
    s
}

/// Writes `_simulation.csv`, `_events.csv` and the `_simulation` figure of the variables
/// `plot` (`None`: every state; see [`simulation_figure`]), one panel each, when there are at
/// least two samples; returns the paths. The figure is as tall as its panels need
/// ([`figure_height`]). Atomic files, first failure stops the batch.
pub fn write_simulation(
    j: &SimulationJson,
    model: &Model,
    out: &Outputs,
    plot: Option<&[Plotted]>,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text("simulation.csv", &samples_csv(j, model))?;
    batch.text("events.csv", &events_csv(j))?;
    if j.samples.len() >= 2 {
        let fig = simulation_figure(j, model, plot);
        let mut render = out.render.clone();
        render.height = figure_height(render.height, fig.panels.len());
        batch.figure_with("simulation", &fig, &render)?;
    }
    batch.finish()
}
