//! `saltation continue`: runs the continuation script of a model file
//! ([`saltation_continuation::run_script`]): every branch in the file's `continuation` section,
//! period-doubling switches, and the orbit diagram if the section asks for one.
//!
//! Writes the branch data (CSV and JSON) and the figures ([`crate::report`]) to `figures/` or
//! `--out DIR`, then prints a summary — or, with `--json`, exactly the JSON object of
//! [`report::continuation_json`], a public interface. A progress spinner goes to stderr when it
//! is a terminal.

use crate::format::{self, KeyValue};
use crate::input::{LoadedModel, ModelArgs};
use crate::orbit::parameters;
use crate::progress::ScriptBar;
use crate::report::{self, FigureContext, Outputs};
use crate::CliError;
use clap::Args;
use saltation_continuation::{run_script, ContinuationSpec, ScriptResult};
use saltation_hybrid::HybridModel;
use saltation_plot::RenderOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Arguments of `saltation continue`.
#[derive(Debug, Clone, Args)]
pub struct ContinueArgs {
    /// The model file (with a `continuation` section) and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// Continue in this model parameter instead of the section's `param`.
    #[arg(long, value_name = "NAME")]
    pub param: Option<String>,

    /// End every branch at this parameter value instead of its `to`.
    #[arg(long, value_name = "VALUE", allow_negative_numbers = true)]
    pub to: Option<f64>,

    /// Directory for the data files and figures (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Print one JSON object instead of the summary:
    /// {"param", "branches": [{"label", "period_k", "points": [{"param", "x0", "period",
    /// "multipliers": [{"re", "im"}], "stable"}], "end"}], "bifurcations": [{"kind", "branch",
    /// "param", "x0", "multipliers"}]}.
    #[arg(long)]
    pub json: bool,
}

/// The file's continuation section with the command-line overrides applied and checked: the
/// parameter exists, the settings are in range, every guess has the model's reduced dimension.
pub fn continuation_spec(
    loaded: &LoadedModel,
    param: Option<&str>,
) -> Result<ContinuationSpec, CliError> {
    let mut spec = loaded
        .file
        .continuation
        .clone()
        .ok_or_else(|| CliError::NoContinuation {
            file: loaded.path.clone(),
        })?;
    let origin = match param {
        Some(p) => {
            spec.param = p.to_string();
            format!("--param {p}")
        }
        None => format!("param: \"{}\" in {}", spec.param, loaded.path),
    };
    let model = &loaded.file.model;
    model
        .param(&spec.param)
        .map_err(|source| CliError::ContinuationParam { origin, source })?;
    spec.settings.validate().map_err(|e| CliError::Settings {
        file: loaded.path.clone(),
        reason: format!("continuation settings: {e}"),
    })?;
    let expected = model.reduced_dim();
    if let Some(b) = spec.branches.iter().find(|b| b.guess.len() != expected) {
        return Err(CliError::GuessLength {
            what: format!(
                "the guess of branch \"{}\" {}",
                b.label,
                format::vector(&b.guess)
            ),
            model: model.name().to_string(),
            expected,
            got: b.guess.len(),
        });
    }
    Ok(spec)
}

/// Applies `--to` to every branch; a branch that would start at its end is an input error.
fn apply_to(spec: &mut ContinuationSpec, to: Option<f64>) -> Result<(), CliError> {
    let Some(to) = to else { return Ok(()) };
    let bad = |reason: String| CliError::BadArgument {
        arg: format!("--to {to}"),
        reason,
    };
    if !to.is_finite() {
        return Err(bad("not a finite number".into()));
    }
    for b in &mut spec.branches {
        if b.from == to {
            return Err(bad(format!(
                "branch \"{}\" starts at {to}: nothing to continue",
                b.label
            )));
        }
        b.to = to;
    }
    Ok(())
}

/// The figure files go to `dir` under the model file's stem.
pub fn outputs(dir: &Path, file: &Path) -> Outputs {
    Outputs {
        dir: dir.to_path_buf(),
        stem: report::stem_of(file),
        render: RenderOptions::default(),
    }
}

/// Runs the script with a progress spinner (hidden unless stderr is a terminal).
pub fn compute(loaded: &LoadedModel, spec: &ContinuationSpec) -> Result<ScriptResult, CliError> {
    let model = &loaded.file.model;
    let family = |p: f64| model.with_param(&spec.param, p);
    let mut bar = ScriptBar::new(&report::param_symbol(&spec.param));
    let result = run_script(&family, spec, &mut |e| bar.report(e));
    bar.finish();
    Ok(result?)
}

/// Runs `saltation continue`.
pub fn run(args: &ContinueArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = args.model.load()?;
    let mut spec = continuation_spec(&loaded, args.param.as_deref())?;
    apply_to(&mut spec, args.to)?;
    let start = Instant::now();
    let result = compute(&loaded, &spec)?;
    let wall = start.elapsed();
    let ctx = FigureContext::for_script(&loaded.file.model, &spec);
    let files = report::write_continuation(&result, &ctx, &outputs(&args.out, &args.model.file))?;
    let text = if args.json {
        serde_json::to_string(&report::continuation_json(&result))? + "\n"
    } else {
        human(&loaded, &result, wall, &files)
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The summary: model, totals, per-branch lines and bifurcations, the orbit diagram's first
/// failure, and the files written.
pub fn human(
    loaded: &LoadedModel,
    result: &ScriptResult,
    wall: Duration,
    files: &[PathBuf],
) -> String {
    let model = &loaded.file.model;
    let sym = report::param_symbol(&result.param);
    let points: usize = result.branches.iter().map(|b| b.points.len()).sum();
    let mut t = KeyValue::new();
    t.row("model", format!("{} ({})", model.name(), loaded.path))
        .row("parameters", parameters(model))
        .row(
            "continuation",
            format!(
                "in {sym} ({}): {} branch(es), {points} point(s), {} bifurcation(s)",
                result.param,
                result.branches.len(),
                result.bifurcations.len()
            ),
        )
        .row("wall time", format::duration(wall));
    let mut text = t.render();
    text.push('\n');
    text.push_str(&report::summary(result));
    if let Some(cols) = &result.orbit_diagram {
        text.push('\n');
        text.push_str(&diagram_line(cols, model, &result.param));
    }
    text.push_str("\nfiles written\n");
    for f in files {
        text.push_str(&format!("  {}\n", f.display()));
    }
    text
}

/// `orbit diagram: N parameter values; runs fail (walker falls) from γ = …` and the first
/// failure's reason.
pub fn diagram_line(
    cols: &[saltation_continuation::DiagramColumn],
    model: &saltation_models::Model,
    param: &str,
) -> String {
    let sym = report::param_symbol(param);
    let failed = cols.iter().filter(|c| c.failed_at.is_some()).count();
    let mut s = format!("orbit diagram: {} parameter value(s)", cols.len());
    match report::first_failure(cols) {
        Some(p) => {
            s.push_str(&format!(
                "; runs fail ({}) from {sym} = {p:.12} ({failed} of {} failed)\n",
                report::failure_label(model),
                cols.len()
            ));
            match report::final_failure(cols) {
                Some(q) if q > p => s.push_str(&format!(
                    "  every run fails from {sym} = {q:.12} on (the failures below are isolated)\n"
                )),
                Some(_) => {}
                None => s.push_str(&format!(
                    "  the largest {sym} did not fail: the failures are isolated\n"
                )),
            }
            let why = cols
                .iter()
                .find(|c| c.param == p)
                .and_then(|c| c.failure.clone().map(|f| (c.failed_at, f)));
            if let Some((Some(k), why)) = why {
                s.push_str(&format!("  first failure: stride {k}: {why}\n"));
            }
        }
        None => s.push_str("; no run failed\n"),
    }
    s
}
