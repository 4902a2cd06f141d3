//! `saltation lyapunov`: Lyapunov exponents on the section, with the tangent vectors carried
//! through every phase by the variational equations and through every impact by the saltation
//! matrix — the stride map's exact reduced Jacobian — and re-orthonormalised by QR each stride
//! ([`saltation_orbit::lyapunov_exponents`]). Starts at `--guess` or the file's first guess.

use crate::input::{parse_guess, LoadedModel, ModelArgs};
use crate::CliError;
use clap::Args;
use saltation_hybrid::EvalModel;
use saltation_orbit::{lyapunov_exponents, LyapunovError, LyapunovSpectrum};
use std::io::Write;

/// Default number of strides.
const DEFAULT_STRIDES: usize = 1000;

/// Arguments of `saltation lyapunov`.
#[derive(Debug, Clone, Args)]
pub struct LyapunovArgs {
    /// The model file and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// Start (reduced coordinates of the section), e.g. --guess 0.2,-0.2; default the file's
    /// first guess.
    #[arg(long, value_name = "u1,u2,...", allow_hyphen_values = true)]
    pub guess: Option<String>,

    /// Strides (default 1000).
    #[arg(long, value_name = "N")]
    pub strides: Option<usize>,

    /// Strides discarded before accumulating (default 0): the start iterated onto its
    /// attractor first.
    #[arg(long, value_name = "N")]
    pub transient: Option<usize>,

    /// Print one JSON object: {"exponents": [...] (per unit time, descending), "per_stride":
    /// [...], "strides", "time"}.
    #[arg(long)]
    pub json: bool,
}

/// The exponents from `guess` (already parsed; `None`: the file's first guess) over
/// `strides` strides (`None`: 1000) — what `saltation lyapunov` prints without
/// `--transient`, also for the Python package.
pub fn compute(
    loaded: &LoadedModel,
    guess: Option<Vec<f64>>,
    strides: Option<usize>,
) -> Result<LyapunovSpectrum, CliError> {
    compute_after(loaded, guess, strides, None)
}

/// [`compute`] after `transient` strides discarded (`None`: 0).
pub fn compute_after(
    loaded: &LoadedModel,
    guess: Option<Vec<f64>>,
    strides: Option<usize>,
    transient: Option<usize>,
) -> Result<LyapunovSpectrum, CliError> {
    let model = &loaded.file.model;
    let u = match guess {
        Some(u) => u,
        None => loaded
            .file
            .guesses
            .first()
            .ok_or_else(|| CliError::NoGuess {
                file: loaded.path.clone(),
            })?
            .u
            .clone(),
    };
    if u.len() != model.reduced_dim() {
        return Err(CliError::GuessLength {
            what: format!("start {}", crate::format::vector(&u)),
            model: model.name().to_string(),
            expected: model.reduced_dim(),
            got: u.len(),
        });
    }
    let strides = strides.unwrap_or(DEFAULT_STRIDES);
    let transient = transient.unwrap_or(0);
    lyapunov_exponents(model, &loaded.file.orbit.stride, &u, transient, strides).map_err(
        |e| match e {
            LyapunovError::Strides(_) | LyapunovError::Start(_) => CliError::BadArgument {
                arg: format!("--strides {strides}"),
                reason: e.to_string(),
            },
            LyapunovError::Transient(_) => CliError::BadArgument {
                arg: format!("--transient {transient}"),
                reason: e.to_string(),
            },
            e => CliError::Lyapunov(Box::new(e)),
        },
    )
}

/// Runs `saltation lyapunov`.
pub fn run(args: &LyapunovArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let guess = args.guess.as_deref().map(parse_guess).transpose()?;
    let loaded = args.model.load()?;
    loaded.require_forcing()?;
    let model = &loaded.file.model;
    let transient = args.transient.unwrap_or(0);
    let s = compute_after(&loaded, guess.clone(), args.strides, args.transient)?;
    // `compute` succeeded, so without --guess the file has a first guess.
    let u = guess.unwrap_or_else(|| {
        let first = loaded.file.guesses.first();
        first.map(|g| g.u.clone()).unwrap_or_default()
    });
    let text = if args.json {
        serde_json::to_string(&s)? + "\n"
    } else {
        let mut t = crate::format::KeyValue::new();
        t.row("model", format!("{} ({})", model.name(), loaded.path))
            .row("parameters", crate::orbit::parameters(model))
            .row("start", crate::format::vector(&u))
            .row(
                "strides",
                format!(
                    "{} ({} time units) after {transient} transient stride(s)",
                    s.strides,
                    crate::format::value(s.time)
                ),
            )
            .row("exponents (per time)", crate::format::vector(&s.exponents))
            .row(
                "exponents (per stride)",
                crate::format::vector(&s.per_stride),
            );
        t.render()
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
