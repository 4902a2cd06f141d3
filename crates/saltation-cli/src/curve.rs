//! `saltation curve`: a codimension-one bifurcation of the model file's orbit continued in two
//! parameters ([`saltation_continuation::continue_curve`]). From the guess at the model's
//! values of `--param P` and `--param2 P2` (after `--set`), the bifurcation of `--kind` is
//! located in `P` on the one-parameter branch, then followed in the plane until `P2` reaches
//! `--to2`. The step settings are the file's `continuation` settings where it has them.
//!
//! Writes `<stem>_curve.csv`, `<stem>_codim2.csv` and `<stem>_curve.json` to `figures/` or
//! `--out DIR`, then prints a summary — or, with `--json`, exactly the object of
//! [`report::curve_json`], a public interface.

use crate::format::KeyValue;
use crate::input::{GuessArgs, LoadedModel, ModelArgs};
use crate::orbit::parameters;
use crate::progress::ScriptBar;
use crate::CliError;
use clap::builder::PossibleValuesParser;
use clap::Args;
use saltation_continuation::{
    continue_curve_with_progress, ContinuationError, Curve, CurveDirection, CurveKind,
    CurveOptions, CurveProgress, CurveStart, PlaneFamily,
};
use saltation_hybrid::EvalModel;
use saltation_plot::RenderOptions;
use saltation_report::{self as report, Outputs};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `saltation curve`.
#[derive(Debug, Clone, Args)]
pub struct CurveArgs {
    /// The model file and parameter overrides (the start is at the model's values).
    #[command(flatten)]
    pub model: ModelArgs,

    /// Which bifurcation to continue.
    #[arg(long, value_name = "KIND", value_parser = PossibleValuesParser::new(CurveKind::NAMES))]
    pub kind: String,

    /// The parameter in which the bifurcation is located first.
    #[arg(long, value_name = "NAME")]
    pub param: String,

    /// The second parameter, continued until --to2.
    #[arg(long, value_name = "NAME")]
    pub param2: String,

    /// Where the curve ends: this value of the second parameter.
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub to2: f64,

    /// Which way along the curve from its start: forward (towards --to2) or backward (away from
    /// it; the curve then ends where it comes back to --to2, or at a limit).
    #[arg(long, value_name = "WAY", default_value = "forward",
          value_parser = PossibleValuesParser::new(CurveDirection::NAMES))]
    pub direction: String,

    /// Initial guess in the section's reduced coordinates, comma-separated; default: the
    /// file's first guess.
    #[arg(long, value_name = "V1,V2,...", allow_hyphen_values = true)]
    pub guess: Option<String>,

    /// Shooting of the correctors, as `continue --shooting`: `single` (one stride), `phases`
    /// (multiple shooting, one segment per phase of the stride) or a number N (every phase in
    /// N pieces of equal time). Multiple shooting borders the defining system on the lifted
    /// cyclic block matrix of the segments, never their product.
    /// Overrides the file's continuation settings' `shooting`.
    #[arg(long, value_name = "single|phases|N", value_parser = crate::orbit::parse_shooting)]
    pub shooting: Option<saltation_orbit::Shooting>,

    /// Directory for the data files (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Print one JSON object instead of the summary: {"kind", "params": [P, P2],
    /// "param_values", "points": [{"params": [p, p2], "x0", "period", "multipliers":
    /// [{"re", "im"}]}], "codim2": [{"kind", "params": [p, p2], ...}], "end", "end_reason"}.
    #[arg(long)]
    pub json: bool,
}

/// A library error as a [`CliError`]: bad input names the flag that set the field, or the
/// file's continuation settings; anything else is a failed computation.
fn cli_error(args: &CurveArgs, loaded: &LoadedModel, e: ContinuationError) -> CliError {
    if !e.is_input_error() {
        return crate::error::explain(CliError::Continuation(e), &loaded.file.model);
    }
    let field = e.field().unwrap_or_default().to_string();
    let arg = match field.as_str() {
        "kind" => Some(format!("--kind {}", args.kind)),
        "param" => Some(format!("--param {}", args.param)),
        "param2" => Some(format!("--param2 {}", args.param2)),
        "to2" => Some(format!("--to2 {}", crate::format::value(args.to2))),
        "settings.shooting" | "shooting" => args
            .shooting
            .map(|s| format!("--shooting {}", crate::orbit::shooting_name(s))),
        f if f.starts_with("start.") => Some(match &args.guess {
            Some(g) if f.starts_with("start.u") => format!("--guess {g}"),
            _ => format!("--set {}/{}", args.param, args.param2),
        }),
        _ => None,
    };
    match arg {
        Some(arg) => CliError::BadArgument {
            arg,
            reason: e.to_string(),
        },
        None => CliError::Settings {
            file: loaded.path.clone(),
            reason: format!("continuation settings: {e}"),
        },
    }
}

/// A checked curve computation: what `saltation curve` continues, before it runs.
pub struct CurvePlan {
    /// The model in the plane `(P, P2)`.
    pub family: PlaneFamily<saltation_models::Model>,
    /// Which bifurcation.
    pub kind: CurveKind,
    /// The guess at the model's values of `P`, `P2`.
    pub start: CurveStart,
    /// The curve's options (the file's continuation settings where it has them).
    pub opts: CurveOptions,
}

/// Extra settings applied to a curve's options after the file's (the Python package's keyword
/// options), with their own error.
pub type ApplySettings<'a> = &'a dyn Fn(&mut CurveOptions) -> Result<(), CliError>;

/// Checks the arguments against the loaded model (`args.model` is not read) and plans the
/// curve; `settings`, when given, is applied to the curve's options after the file's (the
/// Python package's keyword options) and checked with them.
pub fn plan(
    args: &CurveArgs,
    loaded: &LoadedModel,
    settings: Option<ApplySettings<'_>>,
) -> Result<CurvePlan, CliError> {
    loaded.require_forcing()?;
    let model = &loaded.file.model;
    let kind = CurveKind::parse(&args.kind).ok_or_else(|| CliError::BadArgument {
        arg: format!("--kind {}", args.kind),
        reason: format!("one of {}", CurveKind::NAMES.join(", ")),
    })?;
    let family = PlaneFamily::new(model.clone(), &args.param, &args.param2)
        .map_err(|e| cli_error(args, loaded, e))?;
    let guess = GuessArgs {
        guess: args.guess.clone(),
        ..GuessArgs::default()
    }
    .select(loaded)?
    .remove(0);
    let [p0, p2_0] = family.base_values();
    let direction =
        CurveDirection::parse(&args.direction).ok_or_else(|| CliError::BadArgument {
            arg: format!("--direction {}", args.direction),
            reason: format!("one of {}", CurveDirection::NAMES.join(", ")),
        })?;
    let mut opts = CurveOptions::to(args.to2);
    opts.direction = direction;
    if let Some(spec) = loaded.file.script() {
        opts.settings = spec.settings;
    }
    if let Some(s) = args.shooting {
        opts.settings.shooting = s;
    }
    if let Some(apply) = settings {
        apply(&mut opts)?;
    }
    let start = CurveStart::new(p0, p2_0, guess.u.clone());
    opts.validate_with(&loaded.file.orbit)
        .map_err(|e| cli_error(args, loaded, e))?;
    if args.to2 == p2_0 {
        return Err(CliError::BadArgument {
            arg: format!("--to2 {}", crate::format::value(args.to2)),
            reason: format!(
                "is the model's value of {}: the curve would have no length",
                args.param2
            ),
        });
    }
    Ok(CurvePlan {
        family,
        kind,
        start,
        opts,
    })
}

/// Continues the planned curve, reporting each point to `progress`.
pub fn compute(
    args: &CurveArgs,
    loaded: &LoadedModel,
    plan: &CurvePlan,
    progress: &mut dyn FnMut(CurveProgress),
) -> Result<Curve, CliError> {
    continue_curve_with_progress(
        &plan.family,
        plan.kind,
        &plan.start,
        &loaded.file.orbit,
        &plan.opts,
        progress,
    )
    .map_err(|e| cli_error(args, loaded, e))
}

/// Runs `saltation curve`.
pub fn run(args: &CurveArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = args.model.load()?;
    let model = &loaded.file.model;
    let planned = plan(args, &loaded, None)?;
    let existed = args.out.exists();
    report::check_destination(&args.out)?;
    let started = Instant::now();
    let mut bar = ScriptBar::new(&report::param_symbol(&args.param));
    let symbol2 = report::param_symbol(&args.param2);
    let result = compute(args, &loaded, &planned, &mut |p| {
        bar.curve_point(p, &symbol2)
    });
    bar.finish();
    let curve = match result {
        Ok(c) => c,
        Err(e) => {
            if !existed {
                let _ = std::fs::remove_dir(&args.out);
            }
            return Err(e);
        }
    };
    let wall = started.elapsed();
    let outputs = Outputs {
        dir: args.out.clone(),
        stem: report::stem_of(&args.model.file),
        render: RenderOptions::default(),
    };
    let files = report::write_curve(model, &curve, &outputs)?;
    let text = if args.json {
        serde_json::to_string(&report::curve_json(model, &curve))? + "\n"
    } else {
        human(&loaded, &curve, wall, &files)
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// The summary: model, the curve, its codimension-two points, the files written.
fn human(
    loaded: &LoadedModel,
    curve: &Curve,
    wall: std::time::Duration,
    files: &[PathBuf],
) -> String {
    let model = &loaded.file.model;
    let mut t = KeyValue::new();
    t.row("model", format!("{} ({})", model.name(), loaded.path))
        .row("parameters", parameters(model))
        .row("wall time", crate::format::duration(wall));
    let mut text = t.render();
    text.push('\n');
    text.push_str(&report::curve_summary(curve));
    text.push_str("\nfiles written\n");
    for f in files {
        text.push_str(&format!("  {}\n", f.display()));
    }
    text
}
