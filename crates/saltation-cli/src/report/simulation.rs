//! The files of `saltation simulate --out`: the samples and events as CSV, and a time-series
//! figure of every state component with the events marked.

use super::files::{Batch, Outputs};
use super::{csv_field, shortest, state_name, ReportError};
use crate::simulate::SimulationJson;
use saltation_hybrid::EvalModel;
use saltation_models::Model;
use saltation_plot::{Series, TimeSeries};
use std::path::PathBuf;

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

/// Every state component against time, events as vertical lines; a logarithmic time axis when
/// the samples span more than four decades of positive times (e.g. Robertson's problem).
pub fn simulation_figure(j: &SimulationJson, model: &Model) -> TimeSeries {
    let name = model.name().replace('_', " ");
    let mut fig = TimeSeries::new(format!("{name}: simulation ({})", j.method), "t", "state");
    let positive: Vec<f64> = j.samples.iter().map(|p| p.t).filter(|&t| t > 0.0).collect();
    let (lo, hi) = positive
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(a, b), &t| (a.min(t), b.max(t)));
    let log_t = hi / lo > 1e4 && positive.len() == j.samples.len();
    fig.log_x = log_t;
    for i in 0..model.dim() {
        let (t, x): (Vec<f64>, Vec<f64>) = j.samples.iter().map(|p| (p.t, p.x[i])).unzip();
        fig = fig.with_series(Series::new(state_name(model, i), t, x));
    }
    let events: Vec<f64> = j.events.iter().map(|e| e.t).collect();
    if !events.is_empty() {
        fig = fig.with_events("events", events);
    }
    fig
}

/// Writes `_simulation.csv`, `_events.csv` and the `_simulation` figure (when there are at
/// least two samples); returns the paths. Atomic files, first failure stops the batch.
pub fn write_simulation(
    j: &SimulationJson,
    model: &Model,
    out: &Outputs,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text("simulation.csv", &samples_csv(j, model))?;
    batch.text("events.csv", &events_csv(j))?;
    if j.samples.len() >= 2 {
        batch.figure("simulation", &simulation_figure(j, model))?;
    }
    Ok(batch.finish())
}
