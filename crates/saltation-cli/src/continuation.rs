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
use crate::CliError;
use clap::Args;
use saltation_continuation::{
    run_script_curves, run_script_with_events, ContinuationError, ContinuationSpec, ParamFamily,
    ScriptResult,
};
use saltation_hybrid::EvalModel;
use saltation_orbit::Shooting;
use saltation_plot::RenderOptions;
use saltation_report::{self as report, FigureContext, Outputs};
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
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub to: Option<f64>,

    /// Directory for the data files and figures (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Shooting of every branch's corrector: `single` (one stride), `phases` (multiple
    /// shooting, one segment per phase of the stride) or a number N (every phase in N pieces
    /// of equal time); as `orbit --shooting`. Overrides the file's
    /// `continuation: (settings: (shooting: …))`.
    #[arg(long, value_name = "single|phases|N", value_parser = crate::orbit::parse_shooting)]
    pub shooting: Option<Shooting>,

    /// Print one JSON object instead of the summary:
    /// {"param", "params": {name: value}, "branches": [{"label", "period_k", "points": [{"param", "x0", "period",
    /// "multipliers": [{"re", "im"}], "stable"}], "end"}], "bifurcations": [{"kind", "branch",
    /// "param", "x0", "multipliers"}]}.
    #[arg(long)]
    pub json: bool,
}

/// The file's continuation script ([`saltation_scenario::ModelFile::script`]: run with the
/// file's orbit settings beside it) with `--param` applied, and the parameter checked to be one
/// of the model's (the error lists the known names). Everything else is checked by the library
/// ([`ContinuationSpec::validate`], called by [`validate`] and by
/// [`saltation_continuation::run_script`]).
pub fn continuation_spec(
    loaded: &LoadedModel,
    param: Option<&str>,
) -> Result<ContinuationSpec, CliError> {
    let mut spec = loaded
        .file
        .script()
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
    loaded
        .file
        .model
        .param(&spec.param)
        .map_err(|source| CliError::ContinuationParam { origin, source })?;
    Ok(spec)
}

/// The command-line values that replaced the file's, to name them in errors.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overrides {
    /// `--param NAME`.
    pub param: Option<String>,
    /// `--from A` (orbit diagram).
    pub from: Option<f64>,
    /// `--to B` (every branch, or the orbit diagram).
    pub to: Option<f64>,
    /// `--count N` (orbit diagram).
    pub count: Option<usize>,
    /// `--shooting` (every branch's corrector).
    pub shooting: Option<Shooting>,
}

impl Overrides {
    /// The flag(s) that set `field` (a path of [`ContinuationError::field`]), e.g.
    /// `--from 1e308 --to -1e308` for `orbit_diagram.to`; `None` if it came from the file.
    fn flag_for(&self, e: &ContinuationError) -> Option<String> {
        if let (ContinuationError::NotContinuable { .. }, Some(p)) = (e, &self.param) {
            return Some(format!("--param {p}"));
        }
        let field = e.field()?;
        let range = || {
            let mut flags = Vec::new();
            if let Some(a) = self.from {
                flags.push(format!("--from {}", format::value(a)));
            }
            if let Some(b) = self.to {
                flags.push(format!("--to {}", format::value(b)));
            }
            (!flags.is_empty()).then(|| flags.join(" "))
        };
        if field.starts_with("branches[") && field.ends_with("].to") {
            return self.to.map(|b| format!("--to {}", format::value(b)));
        }
        match field {
            "settings.shooting" => self
                .shooting
                .map(|s| format!("--shooting {}", crate::orbit::shooting_name(s))),
            "orbit_diagram.from" | "orbit_diagram.to" => range(),
            "orbit_diagram.count" => self.count.map(|n| format!("--count {n}")),
            // A value between the ends: set by the range and the count.
            "orbit_diagram" => {
                let count = self.count.map(|n| format!("--count {n}"));
                match (range(), count) {
                    (Some(r), Some(c)) => Some(format!("{r} {c}")),
                    (r, c) => r.or(c),
                }
            }
            _ => None,
        }
    }
}

/// A library error as a [`CliError`]: bad input ([`ContinuationError::is_input_error`]) exits
/// with [`crate::EXIT_INPUT`], naming the command-line flag that set the field
/// ([`CliError::BadArgument`]) or the field of the file's continuation section
/// ([`CliError::Settings`]); anything else is a failed computation
/// ([`CliError::Continuation`]).
pub fn cli_error(loaded: &LoadedModel, overrides: &Overrides, e: ContinuationError) -> CliError {
    if !e.is_input_error() {
        return CliError::Continuation(e);
    }
    if let Some(arg) = overrides.flag_for(&e) {
        return CliError::BadArgument {
            arg,
            reason: e.to_string(),
        };
    }
    let part = match e.field() {
        Some(f) if f.starts_with("settings.") => "continuation settings",
        _ => "continuation section",
    };
    CliError::Settings {
        file: loaded.path.clone(),
        reason: format!("{part}: {e}"),
    }
}

/// Checks the section (with the overrides applied) for the loaded model and its orbit settings
/// ([`ContinuationSpec::validate`]), before anything is computed.
pub fn validate(
    loaded: &LoadedModel,
    spec: &ContinuationSpec,
    overrides: &Overrides,
) -> Result<(), CliError> {
    let model = &loaded.file.model;
    let family = |p: f64| model.with_param(&spec.param, p);
    spec.validate(&family, &loaded.file.orbit)
        .map_err(|e| cli_error(loaded, overrides, e))
}

/// Applies `--to` to every branch (checked with the rest by [`validate`]).
pub fn apply_to(spec: &mut ContinuationSpec, to: Option<f64>) {
    if let Some(to) = to {
        for b in &mut spec.branches {
            b.to = to;
        }
    }
}

/// The figure files go to `dir` under the model file's stem.
pub fn outputs(dir: &Path, file: &Path) -> Outputs {
    Outputs {
        dir: dir.to_path_buf(),
        stem: report::stem_of(file),
        render: RenderOptions::default(),
    }
}

/// Runs the script with a progress spinner (hidden unless stderr is a terminal): the branch
/// number out of the section's, and the orbit diagram's values done out of all
/// ([`compute_with_events`] with the spinner).
pub fn compute(
    loaded: &LoadedModel,
    spec: &ContinuationSpec,
    overrides: &Overrides,
) -> Result<ScriptResult, CliError> {
    let mut bar = ScriptBar::new(&report::param_symbol(&spec.param));
    let result = compute_with_events(loaded, spec, overrides, &mut |e| bar.event(e));
    bar.finish();
    result
}

/// Runs the script, reporting its events to `events`. A script whose branches all could not
/// start — with or without an orbit diagram — is a failed computation
/// ([`ContinuationError::NoBranchStarted`], listing why each branch could not start).
pub fn compute_with_events(
    loaded: &LoadedModel,
    spec: &ContinuationSpec,
    overrides: &Overrides,
    events: &mut dyn FnMut(saltation_continuation::ScriptEvent<'_>),
) -> Result<ScriptResult, CliError> {
    // The parameter by name: exact ∂F/∂p where the model gives it (built-in and equation
    // models), central differences otherwise.
    let family = ParamFamily::new(loaded.file.model.clone(), &spec.param).map_err(|source| {
        CliError::ContinuationParam {
            origin: format!("param: \"{}\"", spec.param),
            source,
        }
    })?;
    let result = run_script_with_events(&family, &loaded.file.orbit, spec, events)
        .map_err(|e| cli_error(loaded, overrides, e))?;
    match result.no_branch_started() {
        Some(e) => Err(CliError::Continuation(e)),
        None => Ok(result),
    }
}

/// The script's two-parameter curves (its `curves`, none without them) added to `result`,
/// with a progress bar per curve.
pub fn with_curves(
    loaded: &LoadedModel,
    spec: &ContinuationSpec,
    overrides: &Overrides,
    mut result: ScriptResult,
) -> Result<ScriptResult, CliError> {
    if spec.curves.is_empty() {
        return Ok(result);
    }
    let mut bar = ScriptBar::new(&report::param_symbol(&spec.param));
    let symbols: Vec<String> = spec
        .curves
        .iter()
        .map(|c| report::param_symbol(&c.param2))
        .collect();
    // The progress names the second parameter of the latest request (they rarely differ).
    let symbol2 = symbols.last().cloned().unwrap_or_default();
    let curves = run_script_curves(
        &loaded.file.model,
        &loaded.file.orbit,
        spec,
        &result,
        &mut |_, p| bar.curve_point(p, &symbol2),
    );
    bar.finish();
    result.curves = curves.map_err(|e| cli_error(loaded, overrides, e))?;
    Ok(result)
}

/// Runs `saltation continue`.
pub fn run(args: &ContinueArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = args.model.load()?;
    loaded.require_forcing()?;
    let mut spec = continuation_spec(&loaded, args.param.as_deref())?;
    apply_to(&mut spec, args.to);
    if let Some(s) = args.shooting {
        spec.settings.shooting = s;
    }
    let overrides = Overrides {
        param: args.param.clone(),
        to: args.to,
        shooting: args.shooting,
        ..Overrides::default()
    };
    validate(&loaded, &spec, &overrides)?;
    // Checked (and created) before the computation, so that an unusable destination fails
    // first; a directory made here is removed again if nothing is computed.
    let existed = args.out.exists();
    report::check_destination(&args.out)?;
    let start = Instant::now();
    let computed = compute(&loaded, &spec, &overrides)
        .and_then(|r| with_curves(&loaded, &spec, &overrides, r));
    let result = match computed {
        Ok(r) => r,
        Err(e) => {
            if !existed {
                // Only an empty directory is removed; nothing was written yet.
                let _ = std::fs::remove_dir(&args.out);
            }
            return Err(crate::error::explain(e, &loaded.file.model));
        }
    };
    let wall = start.elapsed();
    let ctx = FigureContext::for_script(&loaded.file.model, &loaded.file.orbit.stride, &spec);
    let files = report::write_continuation(&result, &ctx, &outputs(&args.out, &args.model.file))?;
    let text = if args.json {
        serde_json::to_string(&report::continuation_json(&loaded.file.model, &result))? + "\n"
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
    for c in &result.curves {
        text.push('\n');
        match (&c.curve, &c.not_started) {
            (Some(curve), _) => text.push_str(&report::curve_summary(curve)),
            (None, why) => text.push_str(&format!(
                "curve from branch \"{}\" #{}: not started: {}\n",
                c.branch,
                c.index,
                why.as_deref().unwrap_or("")
            )),
        }
    }
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

/// Most failure ranges listed in the summary (the JSON has them all).
const SHOWN_RANGES: usize = 8;

/// The orbit diagram's summary: how many parameter values failed, each range of consecutive
/// failed values with its cause in the model's own words (a failure guard's text, a guard
/// never reached, …), and the first failure's full message.
pub fn diagram_line(
    cols: &[saltation_continuation::DiagramColumn],
    _model: &saltation_models::Model,
    param: &str,
) -> String {
    let sym = report::param_symbol(param);
    let failed = cols.iter().filter(|c| c.failed_at.is_some()).count();
    let mut s = format!("orbit diagram: {} parameter value(s)", cols.len());
    let ranges = report::failure_ranges(cols);
    if ranges.is_empty() {
        s.push_str("; no run failed\n");
        return s;
    }
    s.push_str(&format!(
        "; {failed} of {} runs failed, in {} range(s):\n",
        cols.len(),
        ranges.len()
    ));
    for r in ranges.iter().take(SHOWN_RANGES) {
        let at = if r.count == 1 {
            format!("{sym} = {}", report::fixed(r.from, 12))
        } else {
            format!(
                "{sym} ∈ [{}, {}] ({} values)",
                report::fixed(r.from, 12),
                report::fixed(r.to, 12),
                r.count
            )
        };
        s.push_str(&format!("  {at}: {}\n", r.cause));
    }
    if ranges.len() > SHOWN_RANGES {
        s.push_str(&format!(
            "  … and {} more range(s) (all in the JSON: failure_ranges)\n",
            ranges.len() - SHOWN_RANGES
        ));
    }
    if let Some(q) = report::final_failure(cols) {
        s.push_str(&format!(
            "  every run fails from {sym} = {} on\n",
            report::fixed(q, 12)
        ));
    }
    let first = cols
        .iter()
        .filter(|c| c.failed_at.is_some())
        .min_by(|a, b| a.param.total_cmp(&b.param));
    if let Some(c) = first {
        if let (Some(k), Some(why)) = (c.failed_at, &c.failure) {
            s.push_str(&format!(
                "  first failure ({sym} = {}): stride {k}: {why}\n",
                report::fixed(c.param, 12)
            ));
        }
    }
    s
}
