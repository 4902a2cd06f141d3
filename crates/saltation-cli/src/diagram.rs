//! `saltation orbit-diagram`: the brute-force orbit diagram of a model file's continuation
//! section ([`saltation_continuation::orbit_diagram`], parameter values in parallel): from a
//! start state, each parameter value runs a transient and records one state component per
//! stride; runs that fail are reported as ranges of parameter values with their cause in the
//! model's own words (a failure guard's text: "the walker fell …").
//!
//! The section's `orbit_diagram` gives the range, count, start state and settings; `--from`,
//! `--to`, `--count` override them. Without an `orbit_diagram` entry, `--from` and `--to` are
//! needed and the run starts from the file's first guess. Either way the strides are those of
//! the file's `orbit.stride`. Writes `<stem>_orbit_diagram.csv` and the figure to `figures/` or
//! `--out DIR`, and prints the failure ranges —
//! or, with `--json`, exactly [`report::diagram_json`], a public interface.
//!
//! With `--lyapunov`, the largest Lyapunov exponent is computed at every parameter value too
//! ([`saltation_continuation::lyapunov_sweep`], in parallel): from the diagram's start state
//! projected on the section, after the diagram's transient, over `--lyapunov-strides N`
//! strides (default 1000). It adds `<stem>_lyapunov.csv`, the figure
//! `<stem>_orbit_diagram_lyapunov` (the exponent in a panel under the diagram) and, with
//! `--json`, the key `"lyapunov": [{"param", "exponents", "failure"}]`.

use crate::continuation::{cli_error, continuation_spec, diagram_line, outputs, Overrides};
use crate::format::{self, KeyValue};
use crate::input::{LoadedModel, ModelArgs};
use crate::orbit::parameters;
use crate::progress::ScriptBar;
use crate::CliError;
use clap::Args;
use saltation_continuation::{
    lyapunov_sweep, orbit_diagram_with_progress, DiagramColumn, DiagramSpec, LyapunovColumn,
    OrbitDiagramOptions,
};
use saltation_hybrid::EvalModel;
use saltation_orbit::MAX_LYAPUNOV_STRIDES;
use saltation_report as report;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Default number of parameter values when the file gives none.
const DEFAULT_COUNT: usize = 200;

/// Default number of strides of each Lyapunov run (`--lyapunov`).
const DEFAULT_LYAPUNOV_STRIDES: usize = 1000;

/// Arguments of `saltation orbit-diagram`.
#[derive(Debug, Clone, Args)]
pub struct DiagramArgs {
    /// The model file (with a `continuation` section) and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// Vary this model parameter instead of the continuation section's `param`.
    #[arg(long, value_name = "NAME")]
    pub param: Option<String>,

    /// First parameter value (overrides the file's).
    #[arg(long, value_name = "A", allow_hyphen_values = true)]
    pub from: Option<f64>,

    /// Last parameter value (overrides the file's).
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    pub to: Option<f64>,

    /// Number of parameter values, evenly spaced from A to B (overrides the file's).
    #[arg(long, value_name = "N")]
    pub count: Option<usize>,

    /// Directory for the CSV and the figure (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Print one JSON object instead of the summary:
    /// {"param", "params": {name: value}, "columns": [{"param", "values", "failed_at", "failure", "cause"}],
    /// "first_failure", "failure_ranges": [{"from", "to", "count", "cause"}]}, with --lyapunov
    /// also "lyapunov": [{"param", "exponents", "failure"}].
    #[arg(long)]
    pub json: bool,

    /// Also compute the Lyapunov exponents at every parameter value (after the diagram's
    /// transient, from its start) and draw the largest in a panel under the diagram.
    #[arg(long)]
    pub lyapunov: bool,

    /// Strides of each Lyapunov run (default 1000; with --lyapunov).
    #[arg(long, value_name = "N", requires = "lyapunov")]
    pub lyapunov_strides: Option<usize>,
}

/// The strides of each Lyapunov run with `--lyapunov` (`None` without), checked.
fn lyapunov_strides(args: &DiagramArgs) -> Result<Option<usize>, CliError> {
    if !args.lyapunov {
        return Ok(None);
    }
    let n = args.lyapunov_strides.unwrap_or(DEFAULT_LYAPUNOV_STRIDES);
    if !(1..=MAX_LYAPUNOV_STRIDES).contains(&n) {
        return Err(CliError::BadArgument {
            arg: format!("--lyapunov-strides {n}"),
            reason: format!("must be in 1..={MAX_LYAPUNOV_STRIDES}"),
        });
    }
    Ok(Some(n))
}

/// The Lyapunov exponents of a planned diagram over `strides` strides at each of its
/// parameter values, from its start state projected on the section, after its transient.
pub fn compute_lyapunov(
    planned: &Planned,
    loaded: &LoadedModel,
    strides: usize,
    on_column: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<LyapunovColumn>, CliError> {
    let model = &loaded.file.model;
    let family = |p: f64| model.with_param(&planned.param, p);
    let d = &planned.diagram;
    let mut u = vec![0.0; model.reduced_dim()];
    model.project(&d.start, &mut u);
    lyapunov_sweep(
        &family,
        &diagram_params(d),
        &u,
        &loaded.file.orbit.stride,
        d.settings.transient,
        strides,
        on_column,
    )
    .map_err(|e| cli_error(loaded, &planned.overrides, e))
}

/// One line on the largest exponents of a sweep: its range and where it is positive.
fn lyapunov_line(lyapunov: &[LyapunovColumn]) -> String {
    let largest: Vec<f64> = lyapunov
        .iter()
        .filter_map(LyapunovColumn::largest)
        .collect();
    let positive = largest.iter().filter(|l| **l > 0.0).count();
    let (lo, hi) = largest
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    if largest.is_empty() {
        return format!(
            "largest Lyapunov exponent: no run succeeded ({} value(s))\n",
            lyapunov.len()
        );
    }
    format!(
        "largest Lyapunov exponent: from {} to {} per time; positive at {positive} of {} \
         value(s), {} failed\n",
        format::value(lo),
        format::value(hi),
        lyapunov.len(),
        lyapunov.len() - largest.len()
    )
}

/// The diagram to compute: the section's, with the command-line overrides (checked with the rest
/// by [`DiagramSpec::validate`]). Without a section, `--from` and `--to` are needed and the run
/// starts from the file's first guess.
pub fn diagram_spec(
    args: &DiagramArgs,
    loaded: &LoadedModel,
    section: Option<&DiagramSpec>,
) -> Result<DiagramSpec, CliError> {
    let model = &loaded.file.model;
    let mut d = match section {
        Some(d) => d.clone(),
        None => {
            let (Some(from), Some(to)) = (args.from, args.to) else {
                return Err(CliError::NoOrbitDiagram {
                    file: loaded.path.clone(),
                });
            };
            let guess = loaded
                .file
                .guesses
                .first()
                .ok_or_else(|| CliError::NoGuess {
                    file: loaded.path.clone(),
                })?;
            if guess.u.len() != model.reduced_dim() {
                return Err(CliError::GuessLength {
                    what: format!("guess \"{}\" {}", guess.label, format::vector(&guess.u)),
                    model: model.name().to_string(),
                    expected: model.reduced_dim(),
                    got: guess.u.len(),
                });
            }
            let mut start = vec![0.0; model.dim()];
            model.chart(&guess.u, &mut start);
            DiagramSpec {
                from,
                to,
                count: DEFAULT_COUNT,
                start,
                settings: OrbitDiagramOptions::default(),
            }
        }
    };
    if let Some(from) = args.from {
        d.from = from;
    }
    if let Some(to) = args.to {
        d.to = to;
    }
    if let Some(n) = args.count {
        d.count = n;
    }
    Ok(d)
}

/// The parameter values of a diagram: `count` values evenly spaced from `from` to `to`
/// ([`DiagramSpec::params`], as the library's script does).
pub fn diagram_params(d: &DiagramSpec) -> Vec<f64> {
    d.params()
}

/// An orbit diagram to compute, checked: the script's parameter and the diagram (range, count,
/// start state, settings) with the overrides applied.
#[derive(Debug, Clone)]
pub struct Planned {
    /// The parameter varied.
    pub param: String,
    /// The diagram.
    pub diagram: DiagramSpec,
    /// The command-line values that replaced the file's (to name them in errors).
    pub overrides: Overrides,
}

/// The orbit diagram of `loaded` with the overrides of `args` (`args.model`, `args.out` and
/// `args.json` are not read), checked before anything is computed.
pub fn plan(args: &DiagramArgs, loaded: &LoadedModel) -> Result<Planned, CliError> {
    loaded.require_forcing()?;
    let spec = continuation_spec(loaded, args.param.as_deref())?;
    let d = diagram_spec(args, loaded, spec.orbit_diagram.as_ref())?;
    let overrides = Overrides {
        param: args.param.clone(),
        from: args.from,
        to: args.to,
        count: args.count,
        shooting: None,
    };
    let model = &loaded.file.model;
    let family = |p: f64| model.with_param(&spec.param, p);
    d.validate_for(&family)
        .map_err(|e| cli_error(loaded, &overrides, e))?;
    Ok(Planned {
        param: spec.param,
        diagram: d,
        overrides,
    })
}

/// Computes a planned orbit diagram (parameter values in parallel), reporting each finished
/// value to `on_column(done, total)` (from the worker threads). The strides are those of the
/// file's one stride setting, with or without an `orbit_diagram` entry.
pub fn compute(
    planned: &Planned,
    loaded: &LoadedModel,
    on_column: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<DiagramColumn>, CliError> {
    let model = &loaded.file.model;
    let family = |p: f64| model.with_param(&planned.param, p);
    let d = &planned.diagram;
    orbit_diagram_with_progress(
        &family,
        &diagram_params(d),
        &d.start,
        &loaded.file.orbit.stride,
        &d.settings,
        on_column,
    )
    .map_err(|e| cli_error(loaded, &planned.overrides, e))
}

/// Runs `saltation orbit-diagram`.
pub fn run(args: &DiagramArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = args.model.load()?;
    let planned = plan(args, &loaded)?;
    let lyapunov_strides = lyapunov_strides(args)?;
    report::check_destination(&args.out)?;
    let model = &loaded.file.model;
    let (spec, d) = (&planned, &planned.diagram);
    let params = diagram_params(d);
    let mut bar = ScriptBar::new(&report::param_symbol(&spec.param));
    bar.start_counted("orbit diagram", params.len(), "parameter values");
    let start = Instant::now();
    let columns = compute(&planned, &loaded, &|done, total| bar.set_done(done, total));
    bar.finish();
    let columns = columns?;
    let lyapunov = match lyapunov_strides {
        Some(n) => {
            let mut bar = ScriptBar::new(&report::param_symbol(&spec.param));
            bar.start_counted("Lyapunov exponents", params.len(), "parameter values");
            let l = compute_lyapunov(&planned, &loaded, n, &|done, total| {
                bar.set_done(done, total)
            });
            bar.finish();
            Some(l?)
        }
        None => None,
    };
    let wall = start.elapsed();
    let outs = outputs(&args.out, &args.model.file);
    let mut files =
        report::write_orbit_diagram(&columns, model, &spec.param, d.settings.component, &outs)?;
    if let Some(l) = &lyapunov {
        files.extend(report::write_lyapunov_sweep(
            &outs,
            &columns,
            l,
            model,
            &spec.param,
            d.settings.component,
        )?);
    }
    let text = if args.json {
        let mut v = report::diagram_json(model, &spec.param, &columns);
        if let (Some(l), Some(obj)) = (&lyapunov, v.as_object_mut()) {
            obj.insert("lyapunov".into(), report::lyapunov_json(l));
        }
        serde_json::to_string(&v)? + "\n"
    } else {
        let sym = report::param_symbol(&spec.param);
        let mut t = KeyValue::new();
        t.row("model", format!("{} ({})", model.name(), loaded.path))
            .row("parameters", parameters(model))
            .row(
                "orbit diagram",
                format!(
                    "{sym} ({}) from {} to {}, {} value(s); {} transient + {} recorded \
                     stride(s) of {}",
                    spec.param,
                    report::shortest(d.from),
                    report::shortest(d.to),
                    params.len(),
                    d.settings.transient,
                    d.settings.keep,
                    report::state_name(model, d.settings.component)
                ),
            )
            .row("wall time", format::duration(wall));
        let mut text = t.render();
        text.push('\n');
        text.push_str(&diagram_line(&columns, model, &spec.param));
        if let Some(l) = &lyapunov {
            text.push_str(&lyapunov_line(l));
        }
        text.push_str("\nfiles written\n");
        for f in &files {
            text.push_str(&format!("  {}\n", f.display()));
        }
        text
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
