//! `saltation orbit`: a periodic orbit of a model file's model by Newton shooting
//! ([`saltation_orbit::find_periodic_orbit`] with the file's settings), with its Floquet
//! multipliers.
//!
//! Human output is a table (model, parameters, fixed point with the model's state names, period,
//! multipliers with moduli, stability, residual, Newton iterations, wall time). With `--json` the
//! output is exactly one JSON object, [`OrbitJson`] (or an array of them with `--all`); its keys
//! are a public interface. Models with contact conditions (the constrained mechanical systems)
//! also say whether the orbit is admissible, and if not where it fails.

use crate::format::{self, KeyValue};
use crate::input::{GuessArgs, LoadedModel, ModelArgs, StartingGuess};
use crate::CliError;
use clap::Args;
use saltation_hybrid::{
    check_state_conditions, Admissibility, EvalModel, HybridError, Violation, ViolationKind,
};
use saltation_models::Model;
use saltation_orbit::{
    find_periodic_orbit, multiplier_accuracy, orbit_admissibility, MultiplierAccuracy, NewtonError,
    OrbitError, OrbitOptions, PeriodicOrbit, Segments, Shooting,
};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::time::{Duration, Instant};

/// Arguments of `saltation orbit`.
#[derive(Debug, Clone, Args)]
pub struct OrbitArgs {
    /// The model file and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// Which initial guess(es).
    #[command(flatten)]
    pub guess: GuessArgs,

    /// Solve from a guess whose start state breaks an admissibility condition of the start
    /// mode (the foot below the ground in flight, a contact that pulls), which is otherwise
    /// refused before Newton with exit code 2, naming the condition, the mode and the value.
    #[arg(long = "allow-inadmissible")]
    pub allow_inadmissible: bool,

    /// Print JSON instead of a table: one object
    /// {"params": {name: value}, "x0", "period", "multipliers": [{"re", "im"}], "stable", "residual", "newton_iterations", "shooting"}
    /// (an array of them with --all, where a guess that failed is {"guess", "label", "error"}).
    #[arg(long)]
    pub json: bool,

    /// Shooting: `single` (one stride), `phases` (multiple shooting, one segment per phase of
    /// the stride) or a number N (multiple shooting, every phase in N pieces of equal time);
    /// overrides the file's `orbit: (shooting: …)`.
    #[arg(long, value_name = "single|phases|N", value_parser = parse_shooting)]
    pub shooting: Option<Shooting>,
}

/// `single`, `phases` or a number of pieces per phase (range-checked with the other options).
pub fn parse_shooting(arg: &str) -> Result<Shooting, String> {
    match arg.trim() {
        "single" => Ok(Shooting::Single),
        "phases" => Ok(Shooting::Multiple {
            segments: Segments::Phases,
        }),
        other => other
            .parse::<usize>()
            .map(|n| Shooting::Multiple {
                segments: Segments::PerMode(n),
            })
            .map_err(|_| {
                format!("`{arg}` is not `single`, `phases` or a number of pieces per phase")
            }),
    }
}

/// The shooting in the words of `--shooting`: `single`, `phases` or the pieces per phase.
pub fn shooting_name(s: Shooting) -> String {
    match s {
        Shooting::Single => "single".to_string(),
        Shooting::Multiple {
            segments: Segments::Phases,
        } => "phases".to_string(),
        Shooting::Multiple {
            segments: Segments::PerMode(n),
        } => n.to_string(),
    }
}

/// A guess that failed under `--all`, in the JSON array (a public interface: exactly these keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailedGuessJson {
    /// The guess, in reduced coordinates.
    pub guess: Vec<f64>,
    /// The file's label of the guess, if any.
    pub label: Option<String>,
    /// Why no orbit was found (the one-line error message).
    pub error: String,
}

/// A Floquet multiplier in the JSON output.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiplierJson {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

/// The JSON output of `saltation orbit` (a public interface: exactly these keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrbitJson {
    /// The model's parameter values the orbit was computed at, by name.
    pub params: std::collections::BTreeMap<String, f64>,
    /// Fixed point, full state just after the stride's last reset.
    pub x0: Vec<f64>,
    /// Stride duration.
    pub period: f64,
    /// Floquet multipliers (eigenvalues of the full-state stride Jacobian), by decreasing
    /// modulus.
    pub multipliers: Vec<MultiplierJson>,
    /// Whether every multiplier lies strictly inside the unit circle.
    pub stable: bool,
    /// `‖F(u*)‖` at the solution.
    pub residual: f64,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// The shooting used, as `--shooting` spells it: `"single"`, `"phases"` or the number of
    /// pieces per phase.
    pub shooting: String,
    /// The stride's smooth phases in the order met from the section (models with more than one
    /// mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phases: Option<Vec<PhaseJson>>,
    /// Whether the orbit is physically admissible (contact forces push, gaps stay open); only
    /// for models with such conditions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admissible: Option<bool>,
    /// Where an inadmissible orbit first fails, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<String>,
    /// Where an inadmissible orbit first fails: `{"t", "mode", "condition", "kind", "value",
    /// "state"}` (time from the stride's start, the phase's name, the condition's, its lowest
    /// value there, the state where it first fails).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation_at: Option<Violation>,
    /// Single shooting only, when some of the section's multipliers are below what the stride
    /// Jacobian resolves: `{"error_bound", "unresolved", "advice"}`, `error_bound =
    /// max(rtol, ε)·‖P_x‖_F` (what any multiplier may be off by) and `unresolved` the indices
    /// (0-based, into `multipliers`) of those with `max(rtol, ε) < |μ| ≤ error_bound`: no
    /// correct digit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier_accuracy: Option<MultiplierAccuracyJson>,
    /// Wall time of the solve alone (Newton, multipliers, admissibility), in seconds, without
    /// start-up and file reading.
    pub solve_seconds: f64,
}

/// Multipliers of a single-shooting orbit without a correct digit, in the JSON output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiplierAccuracyJson {
    /// `max(rtol, ε)·‖P_x‖_F`.
    pub error_bound: f64,
    /// Indices into `multipliers` of those with `|μ| ≤ error_bound`.
    pub unresolved: Vec<usize>,
    /// What to do: rerun with `--shooting phases`.
    pub advice: String,
}

/// The advice given with unresolved multipliers.
pub const ACCURACY_ADVICE: &str = "these multipliers have no correct digits (the stride Jacobian \
    is known only to error_bound); rerun with --shooting phases to resolve them";
/// The advice for a model whose multipliers are taken on the section (no multiple shooting).
pub const ACCURACY_ADVICE_SECTION: &str = "these multipliers have no correct digits (the stride \
    Jacobian is known only to error_bound); a smaller rtol lowers error_bound (multiple shooting \
    does not apply to this model)";

/// One phase of the stride in the JSON output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PhaseJson {
    /// Name of the mode.
    pub mode: String,
    /// Duration.
    pub duration: f64,
}

/// In words: where an orbit stops being admissible.
pub fn violation_text(v: &Violation) -> String {
    let what = match v.kind {
        ViolationKind::Pulls => format!("{} pulls (λ = {})", v.condition, format::value(v.value)),
        ViolationKind::Penetrates => {
            format!(
                "{} penetrates (gap = {})",
                v.condition,
                format::value(v.value)
            )
        }
        _ => format!(
            "condition `{}` < 0 (lowest value {})",
            v.condition,
            format::value(v.value)
        ),
    };
    format!("{what} in phase {} at t = {}", v.mode, format::value(v.t))
}

impl OrbitJson {
    /// The JSON of a solved guess of `model`.
    pub fn new(model: &Model, s: &Solved) -> Self {
        let o = &s.orbit;
        let (admissible, violation) = match &s.admissibility {
            None => (None, None),
            Some(Ok(a)) => (Some(a.admissible), a.violation.as_ref().map(violation_text)),
            Some(Err(e)) => (
                Some(false),
                Some(format!("the stride checked for admissibility failed: {e}")),
            ),
        };
        Self {
            params: saltation_report::params_json(model),
            x0: o.x0.clone(),
            period: o.period,
            multipliers: o
                .multipliers
                .iter()
                .map(|m| MultiplierJson { re: m.re, im: m.im })
                .collect(),
            stable: o.stable,
            residual: o.residual,
            newton_iterations: o.newton_iterations,
            shooting: shooting_name(s.shooting),
            phases: (model.modes() > 1).then(|| {
                o.phases()
                    .iter()
                    .map(|p| PhaseJson {
                        mode: model.mode_name(p.mode),
                        duration: p.duration,
                    })
                    .collect()
            }),
            admissible,
            violation,
            violation_at: match &s.admissibility {
                Some(Ok(a)) => a.violation.clone(),
                _ => None,
            },
            multiplier_accuracy: s
                .accuracy
                .as_ref()
                .filter(|a| !a.unresolved.is_empty())
                .map(|a| MultiplierAccuracyJson {
                    error_bound: a.error_bound,
                    unresolved: a.unresolved.clone(),
                    advice: if model.multipliers_on_section() {
                        ACCURACY_ADVICE_SECTION
                    } else {
                        ACCURACY_ADVICE
                    }
                    .to_string(),
                }),
            solve_seconds: s.wall.as_secs_f64(),
        }
    }
}

/// One solved guess.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The guess it started from.
    pub guess: StartingGuess,
    /// The orbit found.
    pub orbit: PeriodicOrbit,
    /// Wall-clock time of the solve (with the admissibility check).
    pub wall: Duration,
    /// The admissibility check, for models with contact conditions.
    pub admissibility: Option<Result<Admissibility, HybridError>>,
    /// The shooting used.
    pub shooting: Shooting,
    /// With single shooting: the accuracy of the multipliers, and those without a correct digit
    /// ([`saltation_orbit::accuracy`]).
    pub accuracy: Option<MultiplierAccuracy>,
}

/// A solve refused for its shooting (more unknowns than a dense Newton matrix may hold, known
/// once the stride from the guess is cut) as bad input named by where the shooting came from:
/// `--shooting N` ([`CliError::BadArgument`]), else the file's `orbit: (shooting: …)`
/// ([`CliError::Settings`]). Any other error is returned as it is.
pub(crate) fn shooting_refused(e: CliError, flag: Option<Shooting>, file: &str) -> CliError {
    let CliError::Orbit { source, .. } = &e else {
        return e;
    };
    let OrbitError::InvalidOptions(o @ saltation_orbit::OrbitOptionsError::Shooting { .. }) =
        &**source
    else {
        return e;
    };
    match flag {
        Some(s) => CliError::BadArgument {
            arg: format!("--shooting {}", shooting_name(s)),
            reason: o.to_string(),
        },
        None => CliError::Settings {
            file: file.to_string(),
            reason: format!("orbit: (shooting: …): {o}"),
        },
    }
}

/// Solves from one guess, turning a failure into a [`CliError::Orbit`] that says what happened.
pub fn solve(
    model: &Model,
    guess: &StartingGuess,
    opts: &OrbitOptions,
) -> Result<Solved, CliError> {
    let start = Instant::now();
    let names = saltation_hybrid::reduced_names(model);
    let orbit = find_periodic_orbit(model, &guess.u, opts).map_err(|source| {
        // Where Newton was when it failed (a system failure names its iterate itself).
        let detail = match &source {
            OrbitError::Newton(NewtonError::System { .. }) => String::new(),
            OrbitError::Newton(e) => e
                .iterate()
                .map(|(k, u)| {
                    format!(
                        "; last iterate (iteration {k}) u = {}",
                        format::named(&names, u.as_slice())
                    )
                })
                .unwrap_or_default(),
            _ => String::new(),
        };
        CliError::Orbit {
            what: format!("{} (u = {})", guess.what, format::named(&names, &guess.u)),
            source: Box::new(source),
            detail,
        }
    })?;
    let admissibility = orbit_admissibility(model, &orbit, opts);
    let accuracy = multiplier_accuracy(model, &orbit, opts);
    Ok(Solved {
        accuracy,
        guess: guess.clone(),
        orbit,
        wall: start.elapsed(),
        admissibility,
        shooting: opts.shooting,
    })
}

/// Refuses a guess whose start state `χ(u)` breaks a declared condition of the start mode
/// ([`check_state_conditions`]). A chart that gives no finite state is left to Newton, which
/// says where it fails.
pub fn check_guess(model: &Model, start_mode: usize, g: &StartingGuess) -> Result<(), CliError> {
    let mut x = vec![0.0; model.dim()];
    model.chart(&g.u, &mut x);
    if !x.iter().all(|v| v.is_finite()) {
        return Ok(());
    }
    check_state_conditions(model, start_mode, &x).map_err(|e| CliError::InadmissibleGuess {
        what: format!(
            "{} (u = {})",
            g.what,
            format::named(&saltation_hybrid::reduced_names(model), &g.u)
        ),
        source: Box::new(e),
    })
}

/// Runs `saltation orbit`.
///
/// With one guess, a failure is the error and nothing is printed. With `--all` every guess gets
/// its result or its error in the output, and the command then fails with
/// [`CliError::GuessesFailed`] (exit 1) if any guess failed.
pub fn run(args: &OrbitArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let loaded = args.model.load()?;
    loaded.require_forcing()?;
    let guesses = args.guess.select(&loaded)?;
    // The loader validated the settings against the model (`ModelFile::validate`); a
    // `--shooting` is checked by the solve.
    let mut opts = loaded.file.orbit.clone();
    if let Some(s) = args.shooting {
        opts.shooting = s;
    }
    let opts = &opts;
    let model = &loaded.file.model;
    if !args.allow_inadmissible {
        for g in &guesses {
            check_guess(model, opts.stride.start_mode, g)?;
        }
    }
    if !args.guess.all {
        let mut solved = Vec::with_capacity(guesses.len());
        for g in &guesses {
            solved.push(
                solve(model, g, opts)
                    .map_err(|e| shooting_refused(e, args.shooting, &loaded.path))
                    .map_err(|e| crate::error::explain(e, model))?,
            );
        }
        let text = match (args.json, solved.first()) {
            (true, Some(s)) => serde_json::to_string(&OrbitJson::new(model, s))? + "\n",
            _ => human(&loaded, &solved),
        };
        out.write_all(text.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let results: Vec<Result<Solved, CliError>> = guesses
        .iter()
        .map(|g| {
            solve(model, g, opts)
                .map_err(|e| shooting_refused(e, args.shooting, &loaded.path))
                .map_err(|e| crate::error::explain(e, model))
        })
        .collect();
    // Refused input (the shooting too fine for a guess's stride) is refused, not one guess's
    // failure among others.
    let mut results = results;
    if let Some(i) = results
        .iter()
        .position(|r| matches!(r, Err(e) if e.exit_code() == crate::EXIT_INPUT))
    {
        // An error (found above): it is the command's.
        results.swap_remove(i)?;
    }
    let text = if args.json {
        let items: Vec<serde_json::Value> = results
            .iter()
            .zip(&guesses)
            .map(|(r, g)| match r {
                Ok(s) => serde_json::to_value(OrbitJson::new(model, s)),
                Err(e) => serde_json::to_value(FailedGuessJson {
                    guess: g.u.clone(),
                    label: g.label.clone(),
                    error: e.message(),
                }),
            })
            .collect::<Result<_, _>>()?;
        serde_json::to_string(&items)? + "\n"
    } else {
        let solved: Vec<Solved> = results
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .cloned()
            .collect();
        let mut text = human(&loaded, &solved);
        for e in results.iter().filter_map(|r| r.as_ref().err()) {
            text.push_str(&format!("\nfailed: {}\n", e.message()));
        }
        text
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    let failed: Vec<String> = results
        .iter()
        .filter_map(|r| r.as_ref().err().map(CliError::message))
        .collect();
    match failed.first() {
        None => Ok(()),
        Some(first) => Err(CliError::GuessesFailed {
            failed: failed.len(),
            total: results.len(),
            first: first.clone(),
        }),
    }
}

/// The model's parameters as `name = value, …`.
pub fn parameters(model: &Model) -> String {
    model
        .param_names()
        .iter()
        .filter_map(|n| {
            model
                .param(n)
                .ok()
                .map(|v| format!("{n} = {}", format::value(v)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human-readable tables: the model once, then one block per solved guess.
pub fn human(loaded: &LoadedModel, solved: &[Solved]) -> String {
    let model = &loaded.file.model;
    let mut t = KeyValue::new();
    t.row("model", format!("{} ({})", model.name(), loaded.path))
        .row("parameters", parameters(model));
    let names = model.state_names();
    let reduced = saltation_hybrid::reduced_names(model);
    for s in solved {
        let o = &s.orbit;
        let u = format::named(&reduced, &s.guess.u);
        let guess = match &s.guess.label {
            Some(label) => format!("\"{label}\": u = {u}"),
            None => format!("u = {u} (--guess)"),
        };
        t.row("", "").row("guess", guess).row(
            "fixed point",
            "(full state just after the stride's last reset)",
        );
        for (i, x) in o.x0.iter().enumerate() {
            let name = names.get(i).cloned().unwrap_or_else(|| format!("x{i}"));
            t.row(format!("  {name}"), format::number(*x, 20));
        }
        t.row("period", format::number(o.period, 20)).row(
            "multipliers",
            format!("{:>20} {:>20} {:>20}", "re", "im", "|μ|"),
        );
        for (i, m) in o.multipliers.iter().enumerate() {
            t.row(
                format!("  μ{}", i + 1),
                format!(
                    "{} {} {}",
                    format::number(m.re, 20),
                    format::number(m.im, 20),
                    format::number(m.modulus(), 20)
                ),
            );
        }
        if let Some(a) = s.accuracy.as_ref().filter(|a| !a.unresolved.is_empty()) {
            let which: Vec<String> = a.unresolved.iter().map(|i| format!("μ{}", i + 1)).collect();
            t.row(
                "WARNING",
                format!(
                    "{} below the stride Jacobian's accuracy {} (max(rtol, ε)·‖P_x‖): no correct \
                     digits; {}",
                    which.join(", "),
                    format::value(a.error_bound),
                    if model.multipliers_on_section() {
                        "a smaller rtol lowers the bound"
                    } else {
                        "rerun with --shooting phases"
                    }
                ),
            );
        }
        let radius = o
            .multipliers
            .iter()
            .map(|m| m.modulus())
            .fold(0.0, f64::max);
        let stable = if o.stable {
            format!("yes (spectral radius {radius:.6} < 1)")
        } else {
            format!("no (spectral radius {radius:.6} ≥ 1)")
        };
        let phases: Vec<String> = o
            .phases()
            .iter()
            .map(|p| format!("{} {}", model.mode_name(p.mode), format::value(p.duration)))
            .collect();
        t.row("stable", stable).row("phases", phases.join(", "));
        match &s.admissibility {
            None => {}
            Some(Ok(a)) if a.admissible => {
                t.row("admissible", "yes (every admissibility condition holds)");
            }
            Some(Ok(a)) => {
                let why = a.violation.as_ref().map(violation_text).unwrap_or_default();
                t.row("admissible", format!("NO: {why}"));
            }
            Some(Err(e)) => {
                t.row(
                    "admissible",
                    format!("NO: the stride checked for admissibility failed: {e}"),
                );
            }
        }
        let (residual, shooting) = match s.shooting {
            Shooting::Single => ("‖π(P(χ(u))) − u‖", "single".to_string()),
            Shooting::Multiple { .. } => (
                "matching conditions of the segments",
                format!(
                    "multiple ({}), multipliers by the product QR",
                    match shooting_name(s.shooting).as_str() {
                        "phases" => "one segment per phase".to_string(),
                        n => format!("{n} pieces per phase"),
                    }
                ),
            ),
        };
        t.row(
            "residual",
            format!("{} ({residual})", format::short(o.residual)),
        )
        .row("shooting", shooting)
        .row("Newton", format!("{} iterations", o.newton_iterations))
        .row("wall time", format::duration(s.wall));
    }
    t.render()
}
