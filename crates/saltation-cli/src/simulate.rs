//! `saltation simulate`: runs a model file's model forward in time from the file's `initial`
//! section (time, state, mode) through its events and resets
//! ([`saltation_hybrid::simulate`] over a time span).
//!
//! Method and tolerances come from the file's `orbit.stride` settings unless `--method`,
//! `--rtol`, `--atol` override them; `--method` takes every method name and the MATLAB names
//! (`ode45`, `ode15s`, …). The end time is `--t-end`, else the last `--at` time. Samples are at
//! the `--at` times (from the integrator's dense output), else at every accepted step, at the
//! events and at [`DENSE_POINTS`] evenly spaced times from the dense output (so that curves
//! through them are smooth however long the steps). With `--json` the output is exactly one
//! [`SimulationJson`] object, a public interface; with `--out DIR` the samples and events are
//! also written as CSV with a figure of stacked panels, one per variable that `--plot` names
//! (every state by default), the events marked ([`report::write_simulation`]).

use crate::format::{self, KeyValue};
use crate::input::{parse_guess, LoadedModel, ModelArgs};
use crate::orbit::parameters;
use crate::CliError;
use clap::Args;
use saltation_hybrid::{
    check_initial_state, first_violation, simulate, EvalModel, SimulateOptions, CONDITION_TOL,
};
use saltation_models::Model;
use saltation_ode::{Atol, Method};
use saltation_report::{self as report, simulation_json, Outputs, SimulationJson};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `saltation simulate`.
#[derive(Debug, Clone, Args)]
pub struct SimulateArgs {
    /// The model file (with an `initial` section) and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// Integration method (default: the file's `orbit.stride.method`): euler, heun, rk4, bs23,
    /// rkf45, dp5, dop853, radau5, ndf, bdf, rosenbrock23, trapezoid, trbdf2, abm, or a MATLAB name
    /// (ode45, ode23, ode113, ode15s, ode23s, ode23t, ode23tb). Given, it integrates every
    /// mode: the exact stepping of autonomous affine modes by the matrix exponential is off.
    #[arg(long, value_name = "NAME")]
    pub method: Option<String>,

    /// Relative tolerance (default: the file's).
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    pub rtol: Option<f64>,

    /// Absolute tolerance, one value for every component (default: the file's).
    #[arg(long, value_name = "A", allow_hyphen_values = true)]
    pub atol: Option<f64>,

    /// End time (default: the last --at time).
    #[arg(long = "t-end", value_name = "T", allow_hyphen_values = true)]
    pub t_end: Option<f64>,

    /// Sample times, comma-separated and increasing (e.g. --at 5,10,20); default: every step,
    /// every event and 2000 evenly spaced times (dense output).
    #[arg(long, value_name = "T1,T2,...", allow_hyphen_values = true)]
    pub at: Option<String>,

    /// Do not check the model's admissibility conditions (the ball above the table, a contact
    /// that pushes): neither the initial state (which is otherwise refused, with exit code 2,
    /// when it breaks a condition or an equality of its mode, e.g. a closed contact's gap)
    /// nor the trajectory (which otherwise ends with exit code 1 at its first violation,
    /// naming the condition, the time and the state).
    #[arg(long = "allow-inadmissible")]
    pub allow_inadmissible: bool,

    /// Print one JSON object instead of the summary: {"method", "params": {name: value},
    /// "exact_affine_modes", "t_end",
    /// "x_end", "mode_end", "samples": [{"t", "x", "mode", "outputs"}] (an equation model's
    /// outputs, each left out where it is not finite), "events": [{"t", "guard", "from", "to"}],
    /// "stats": {"rhs_evals", "jacobian_evals", "lu_decompositions", "steps",
    /// "rejected_steps"}, "wall_s"}.
    #[arg(long)]
    pub json: bool,

    /// Also write the samples and events as CSV and a figure to this directory: one panel per
    /// variable against time (those of --plot), the events as vertical lines.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// What the figure of --out shows, one panel each, top to bottom: state names, output
    /// names of an equation model and `mode`, comma-separated (e.g. --plot x,y,mode; at most
    /// 16). Default: every state (the first 16 of a larger state).
    #[arg(long, value_name = "NAME,...")]
    pub plot: Option<String>,
}

/// Evenly spaced sample times added to every step by default (without `--at`): a figure
/// 1000 pixels wide gets two points a pixel, whatever the step sizes.
pub const DENSE_POINTS: u32 = 2000;

/// What to run, from the file and the command line.
struct Plan {
    method: Method,
    t0: f64,
    x0: Vec<f64>,
    opts: SimulateOptions,
}

/// The method, tolerances, span and samples: the file's with the command line's overrides,
/// checked by [`SimulateOptions::validate_for`].
fn plan(args: &SimulateArgs, loaded: &LoadedModel) -> Result<Plan, CliError> {
    let file = &loaded.file;
    let init = file.initial.as_ref().ok_or_else(|| CliError::NoInitial {
        file: loaded.path.clone(),
    })?;
    let mut stride = file.orbit.stride.clone();
    if let Some(name) = &args.method {
        stride.method = Method::from_name(name).ok_or_else(|| CliError::BadArgument {
            arg: format!("--method {name}"),
            reason: format!("unknown method; known: {}", Method::names_list()),
        })?;
        // An explicit method is what integrates every mode (no exact affine stepping).
        stride.exact_affine_phases = false;
    }
    if let Some(r) = args.rtol {
        stride.ode.rtol = r;
    }
    if let Some(a) = args.atol {
        stride.ode.atol = Atol::Scalar(a);
    }
    stride.start_mode = init.mode;
    let at = args.at.as_deref().map(parse_times).transpose()?;
    let t_end = match (args.t_end, at.as_ref().and_then(|a| a.last())) {
        (Some(t), _) => t,
        (None, Some(&last)) => last,
        (None, None) => {
            return Err(CliError::BadArgument {
                arg: "saltation simulate".into(),
                reason: "give the end time with --t-end T (or sample times with --at)".into(),
            })
        }
    };
    // Without sample times: every step and DENSE_POINTS evenly spaced times, unless the span
    // is empty or so far from 0 that its grid would not be representable (each grid time is
    // k·dt, and k must stay well below 2^53).
    let dt = (t_end - init.t) / f64::from(DENSE_POINTS);
    let representable = init.t.abs().max(t_end.abs()) / dt < 1e14;
    let dense = (at.is_none() && dt > 0.0 && dt.is_finite() && representable).then_some(dt);
    let opts = SimulateOptions {
        stride,
        strides: 1,
        dt: dense,
        keep_steps: true,
        t0: init.t,
        t_end: Some(t_end),
        at,
    };
    opts.validate_for(&file.model)
        .map_err(|e| bad_setting(args, e))?;
    if !args.allow_inadmissible {
        check_initial_state(&file.model, init.mode, &init.x).map_err(|e| {
            CliError::BadArgument {
                arg: format!("`initial` of {}", loaded.path),
                reason: format!("{e} (--allow-inadmissible runs it anyway)"),
            }
        })?;
    }
    Ok(Plan {
        method: opts.stride.method,
        t0: init.t,
        x0: init.x.clone(),
        opts,
    })
}

/// A setting refused by validation, named by the command-line argument that set it.
fn bad_setting(args: &SimulateArgs, e: saltation_hybrid::HybridError) -> CliError {
    let text = e.to_string();
    let arg = if text.contains("`rtol`") && args.rtol.is_some() {
        format!("--rtol {}", format::value(args.rtol.unwrap_or_default()))
    } else if text.contains("`atol`") && args.atol.is_some() {
        format!("--atol {}", format::value(args.atol.unwrap_or_default()))
    } else if text.contains("`t_end`") && args.t_end.is_some() {
        "--t-end".to_string()
    } else if text.contains("`t_end`") {
        // No --t-end: the end time is the last --at time.
        "--at (its last time is the end time)".to_string()
    } else if text.contains("`at`") {
        "--at".to_string()
    } else {
        "settings".to_string()
    };
    CliError::BadArgument { arg, reason: text }
}

/// A failure before anything was computed that is the input's fault (exit code 2, nothing
/// printed): the method cannot integrate this model (a mass matrix an explicit method cannot
/// take), an option the method refuses when it starts (`explicit.pi_beta`), or a vector field
/// that is not finite at the initial state.
fn refused_at_start(
    args: &SimulateArgs,
    plan: &Plan,
    trace: &saltation_hybrid::Trace,
) -> Option<CliError> {
    use saltation_hybrid::HybridError;
    use saltation_ode::OdeError;
    let started = trace.t.len() > 1 || !trace.events.is_empty();
    let Some(HybridError::Ode { source, .. }) = &trace.failure else {
        return None;
    };
    if started {
        return None;
    }
    let arg = match source {
        OdeError::MassMatrixUnsupported { .. } => match &args.method {
            Some(m) => format!("--method {m}"),
            None => format!("method {} (the file's)", plan.method.name()),
        },
        OdeError::InvalidOption { .. } | OdeError::FixedStepNeedsStep { .. } => {
            format!("settings for {}", plan.method.name())
        }
        OdeError::NonFiniteRhs { .. } | OdeError::InconsistentInitial { .. } => {
            "initial".to_string()
        }
        OdeError::TooLarge { .. } => format!("method {} on this model", plan.method.name()),
        _ => return None,
    };
    Some(CliError::BadArgument {
        arg,
        reason: source.to_string(),
    })
}

/// `--at`: comma-separated finite times.
fn parse_times(arg: &str) -> Result<Vec<f64>, CliError> {
    parse_guess(arg).map_err(|e| CliError::BadArgument {
        arg: format!("--at {arg}"),
        reason: e
            .to_string()
            .split(": ")
            .last()
            .unwrap_or("not a list of numbers")
            .to_string(),
    })
}

/// A computed simulation: its JSON object (what was computed, up to a failure) and the failure,
/// if the run ended early.
#[derive(Debug)]
pub struct Simulated {
    /// The samples, events and work ([`SimulationJson`], the `--json` output).
    pub json: SimulationJson,
    /// Why the run ended before its end time ([`CliError::Simulation`]), if it did.
    pub failure: Option<CliError>,
}

/// Plans (the file's settings with the arguments' overrides, checked) and runs the simulation of
/// `loaded`: what `saltation simulate` prints, and what the Python package returns. Bad input is
/// the error; a run that fails on the way returns what it computed with its
/// [`Simulated::failure`]. `args.model`, `args.out` and `args.plot` are not read.
pub fn compute(args: &SimulateArgs, loaded: &LoadedModel) -> Result<Simulated, CliError> {
    let plan = plan(args, loaded)?;
    let model = &loaded.file.model;
    let start = Instant::now();
    let mut trace = simulate(model, &plan.x0, &plan.opts).map_err(|e| CliError::BadArgument {
        arg: "settings".into(),
        reason: e.to_string(),
    })?;
    // The first violation of an admissibility condition ends the run with an error, like a
    // failure at that time (the samples after it are printed, and are unphysical).
    let mut t_fail = trace.end.0;
    if trace.failure.is_none() && !args.allow_inadmissible {
        let stride = &plan.opts.stride;
        match first_violation(model, &trace, plan.t0, &plan.x0, stride, CONDITION_TOL) {
            Ok(Some(v)) => {
                t_fail = v.t;
                trace.failure = Some(v.error(model));
            }
            Ok(None) => {}
            Err(e) => trace.failure = Some(e),
        }
    }
    let wall = start.elapsed();
    if let Some(e) = refused_at_start(args, &plan, &trace) {
        return Err(crate::error::explain(e, model));
    }
    // A failed simulation loses nothing: what was computed before the failure is kept.
    let json = simulation_json(model, plan.method, &trace, wall.as_secs_f64());
    let failure = trace.failure.map(|e| {
        crate::error::explain(
            CliError::Simulation {
                file: loaded.path.clone(),
                method: plan.method.name(),
                t: t_fail,
                source: Box::new(e),
            },
            model,
        )
    });
    Ok(Simulated { json, failure })
}

/// Runs `saltation simulate`.
pub fn run(args: &SimulateArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = args.model.load()?;
    let plan = plan(args, &loaded)?;
    if args.plot.is_some() && args.out.is_none() {
        return Err(CliError::BadArgument {
            arg: "--plot".into(),
            reason: "chooses what the figure of --out DIR shows: give --out DIR as well".into(),
        });
    }
    let plot = args
        .plot
        .as_deref()
        .map(|list| {
            report::choose_plot(&loaded.file.model, list).map_err(|e| CliError::BadArgument {
                arg: "--plot".into(),
                reason: e.to_string(),
            })
        })
        .transpose()?;
    let outputs = args.out.as_ref().map(|dir| Outputs {
        dir: dir.clone(),
        stem: report::stem_of(&args.model.file),
        render: Default::default(),
    });
    if let Some(o) = &outputs {
        o.check()?;
    }
    let model = &loaded.file.model;
    let Simulated { json, failure } = compute(args, &loaded)?;
    // A failed simulation loses nothing: what was computed before the failure is printed and
    // written like a finished one, and then the error is returned.
    let files = match &outputs {
        Some(o) => report::write_simulation(&json, model, o, plot.as_deref())?,
        None => Vec::new(),
    };
    let text = if args.json {
        serde_json::to_string(&json)? + "\n"
    } else {
        human(&loaded, &plan, &json, &files)
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The summary table.
fn human(loaded: &LoadedModel, plan: &Plan, j: &SimulationJson, files: &[PathBuf]) -> String {
    let model: &Model = &loaded.file.model;
    let o = &plan.opts.stride;
    let method = match plan.method.matlab_name() {
        Some(m) => format!("{} (MATLAB {m})", plan.method.name()),
        None => plan.method.name().to_string(),
    };
    let atol = match &o.ode.atol {
        Atol::Scalar(a) => format::short(*a),
        Atol::Vector(v) => format::vector(v),
    };
    let names = model.state_names();
    let mut t = KeyValue::new();
    t.row("model", format!("{} ({})", model.name(), loaded.path))
        .row("parameters", parameters(model))
        .row("method", method)
        .row(
            "exact stepping",
            if j.exact_affine_modes.is_empty() {
                "none (the method integrates every mode)".to_string()
            } else {
                format!(
                    "modes {} stepped exactly by e^(A h) (affine); --method turns this off",
                    j.exact_affine_modes.join(", ")
                )
            },
        )
        .row(
            "tolerances",
            if o.ode.rtol < saltation_ode::RTOL_FLOOR {
                format!(
                    "rtol = {} (raised to 4ε = {} in the error weights), atol = {atol}",
                    format::short(o.ode.rtol),
                    format::short(saltation_ode::RTOL_FLOOR)
                )
            } else {
                format!("rtol = {}, atol = {atol}", format::short(o.ode.rtol))
            },
        )
        .row(
            "span",
            format!(
                "t = {} to {} from mode {}",
                format::value(plan.t0),
                format::value(j.t_end),
                o.start_mode
            ),
        )
        .row("end state", format!("(mode {})", j.mode_end));
    if let Some(e) = &j.error {
        t.row("STOPPED EARLY", e.clone());
    }
    for (i, x) in j.x_end.iter().enumerate() {
        let name = names.get(i).cloned().unwrap_or_else(|| format!("x{i}"));
        t.row(format!("  {name}"), format::number(*x, 24));
    }
    let s = &j.stats;
    t.row("events", j.events.len().to_string())
        .row(
            "work",
            format!(
                "{} steps ({} rejected), {} f evaluations, {} Jacobians, {} LU",
                s.steps, s.rejected_steps, s.rhs_evals, s.jacobian_evals, s.lu_decompositions
            ),
        )
        .row(
            "wall time",
            format::duration(std::time::Duration::from_secs_f64(j.wall_s)),
        );
    let mut text = t.render();
    if plan.opts.at.is_some() {
        text.push_str("\nsamples\n");
        let mut head = format!("{:>14} {:>5}", "t", "mode");
        for n in &names {
            head.push_str(&format!(" {n:>24}"));
        }
        text.push_str(&head);
        text.push('\n');
        for s in &j.samples {
            let mut row = format!("{:>14} {:>5}", format::value(s.t), s.mode);
            for x in &s.x {
                row.push(' ');
                row.push_str(&format::number(*x, 24));
            }
            text.push_str(&row);
            text.push('\n');
        }
    }
    if !files.is_empty() {
        text.push_str("\nfiles written\n");
        for f in files {
            text.push_str(&format!("  {}\n", f.display()));
        }
    }
    text
}
