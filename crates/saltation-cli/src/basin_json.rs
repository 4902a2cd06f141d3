//! The result of a basin (whole or merged from shards): its JSON object — a public interface —,
//! the text summary, and the files (`<stem>_basin.json` and the figure).

use crate::format::KeyValue;
use crate::CliError;
use saltation_continuation::basin::{identify, BasinGrid, BasinOptions, BasinResult, StartOutcome};
use saltation_hybrid::EvalModel;
use saltation_models::Model;
use saltation_orbit::{Multiplier, OrbitOptions};
use saltation_report as report;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// What a basin's result is made from.
pub(crate) struct BasinRun<'a> {
    pub model: &'a Model,
    pub orbit: &'a OrbitOptions,
    pub opts: &'a BasinOptions,
    pub grid: &'a BasinGrid,
    /// The model file, for the summary.
    pub path: &'a str,
    /// Where the file names' stem comes from.
    pub stem_of: &'a Path,
}

/// One axis of the JSON.
#[derive(Serialize)]
struct AxisJson<'a> {
    name: &'a str,
    from: f64,
    to: f64,
    count: usize,
}

/// One attractor of the JSON.
#[derive(Serialize)]
struct AttractorJson<'a> {
    id: usize,
    label: &'a str,
    x0: &'a [f64],
    period_k: usize,
    multipliers: &'a [Multiplier],
    u0: &'a [f64],
    period: f64,
    stable: bool,
    first_cell: usize,
}

/// A cause with its count.
#[derive(Serialize)]
struct CauseJson<'a> {
    cause: &'a str,
    count: usize,
}

/// The JSON object of `saltation basin --json` and `saltation merge --json`.
#[derive(Serialize)]
struct BasinJson<'a> {
    axes: Vec<AxisJson<'a>>,
    attractors: Vec<AttractorJson<'a>>,
    cells: &'a [i64],
    fractions: serde_json::Map<String, serde_json::Value>,
    failure_causes: Vec<CauseJson<'a>>,
    undecided_causes: Vec<CauseJson<'a>>,
}

/// The JSON text (one line and a newline) of a basin.
pub fn json_text(r: &BasinResult) -> Result<String, CliError> {
    let (per, failed, undecided) = r.fractions();
    let mut fractions = serde_json::Map::new();
    for (id, f) in per.iter().enumerate() {
        fractions.insert(id.to_string(), (*f).into());
    }
    fractions.insert("failed".into(), failed.into());
    fractions.insert("undecided".into(), undecided.into());
    fn causes(list: &[(String, usize)]) -> Vec<CauseJson<'_>> {
        list.iter()
            .map(|(cause, count)| CauseJson {
                cause,
                count: *count,
            })
            .collect()
    }
    let j = BasinJson {
        axes: r
            .grid
            .axes
            .iter()
            .map(|a| AxisJson {
                name: &a.name,
                from: a.from,
                to: a.to,
                count: a.count,
            })
            .collect(),
        attractors: r
            .attractors
            .iter()
            .map(|a| AttractorJson {
                id: a.id,
                label: &a.label,
                x0: &a.x0,
                period_k: a.period_k,
                multipliers: &a.multipliers,
                u0: &a.u0,
                period: a.period,
                stable: a.stable,
                first_cell: a.first_cell,
            })
            .collect(),
        cells: &r.cells,
        fractions,
        failure_causes: causes(&r.failure_causes),
        undecided_causes: causes(&r.undecided_causes),
    };
    Ok(serde_json::to_string(&j)? + "\n")
}

/// The text summary.
fn human(run: &BasinRun<'_>, r: &BasinResult, files: &[std::path::PathBuf]) -> String {
    let (per, failed, undecided) = r.fractions();
    let mut t = KeyValue::new();
    t.row("model", format!("{} ({})", run.model.name(), run.path))
        .row("parameters", crate::orbit::parameters(run.model));
    for a in &r.grid.axes {
        t.row(
            "axis",
            format!(
                "{} from {} to {}, {} value(s)",
                a.name,
                report::shortest(a.from),
                report::shortest(a.to),
                a.count
            ),
        );
    }
    t.row(
        "starts",
        format!(
            "{} cells, at most {} strides each",
            r.cells.len(),
            run.opts.strides
        ),
    );
    for (a, f) in r.attractors.iter().zip(&per) {
        let mus: Vec<String> = a
            .multipliers
            .iter()
            .map(|m| crate::format::value(m.re.hypot(m.im)))
            .collect();
        t.row(
            &a.label,
            format!(
                "{:.4} of the cells; u = {}; |μ| = {}",
                f,
                crate::format::vector(&a.u0),
                mus.join(", ")
            ),
        );
    }
    t.row("failed", format!("{failed:.4} of the cells"));
    for (c, n) in &r.failure_causes {
        t.row("  cause", format!("{c} ({n} cells)"));
    }
    t.row("undecided", format!("{undecided:.4} of the cells"));
    for (c, n) in &r.undecided_causes {
        t.row("  cause", format!("{c} ({n} cells)"));
    }
    let mut text = t.render();
    text.push_str("\nfiles written\n");
    for f in files {
        text.push_str(&format!("  {}\n", f.display()));
    }
    text
}

/// The basin of the outcomes of every cell (the attractors identified, as
/// [`identify`] does) and its JSON text.
pub fn result(
    model: &Model,
    orbit: &OrbitOptions,
    opts: &BasinOptions,
    grid: &BasinGrid,
    outcomes: &[StartOutcome],
) -> Result<(BasinResult, String), CliError> {
    let r = identify(model, orbit, opts, grid, outcomes)?;
    let text = json_text(&r)?;
    Ok((r, text))
}

/// Identifies the attractors of the outcomes of every cell, writes `<stem>_basin.json` and the
/// figure to `dir`, and prints the JSON (`json`) or the summary.
pub(crate) fn finish(
    run: &BasinRun<'_>,
    outcomes: &[StartOutcome],
    dir: &Path,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let (r, text) = result(run.model, run.orbit, run.opts, run.grid, outcomes)?;
    let outputs = crate::continuation::outputs(dir, run.stem_of);
    let files = report::write_basin(&text, &map(&r), &outputs)?;
    let shown = if json { text } else { human(run, &r, &files) };
    out.write_all(shown.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The basin map: the cells coloured by attractor, the attractors' cycle points marked.
fn map(r: &BasinResult) -> saltation_plot::BasinMap {
    use saltation_plot::{BasinMap, GridAxis};
    let axis = |k: usize| {
        r.grid.axes.get(k).map(|a| GridAxis {
            from: a.from,
            to: a.to,
            count: a.count,
        })
    };
    let name = |k: usize| r.grid.axes.get(k).map_or(String::new(), |a| a.name.clone());
    let coord = |u: &[f64], k: usize| {
        r.grid
            .axes
            .get(k)
            .and_then(|a| u.get(a.index).copied())
            .unwrap_or(f64::NAN)
    };
    BasinMap {
        title: "basins of attraction".into(),
        x_label: name(0),
        y_label: name(1),
        x: axis(0),
        y: axis(1),
        cells: r.cells.clone(),
        labels: r.attractors.iter().map(|a| a.label.clone()).collect(),
        points: r
            .attractors
            .iter()
            .flat_map(|a| a.cycle.iter().map(|(u, _)| (coord(u, 0), coord(u, 1))))
            .collect(),
    }
}
