//! `saltation sensitivity`: the gait sensitivity norm (Hobbelen & Wisse 2007) of a model's
//! periodic orbit for a disturbance entering as a one-stride change of a parameter.
//!
//! The orbit is found as by `saltation orbit` ([`saltation_orbit::find_periodic_orbit`] with the
//! file's settings); one stride of the state augmented with the parameter
//! ([`saltation_orbit::param_linearisation`]) gives the exact `A = ∂u_{k+1}/∂u_k`,
//! `B = ∂u_{k+1}/∂p`, the step time's gradients `∂T/∂u`, `∂T/∂p` and the end state's
//! `∂x⁺/∂u`, `∂x⁺/∂p`; then [`saltation_orbit::gait_sensitivity`] sums the impulse response.
//! The indicators are the step time (the stride's duration) by default, or the expressions of
//! `--indicators` ([`saltation_models::indicators`]: in the end state's components, `step_time`,
//! the parameters, an equation model's definitions and outputs), each `y = h(x⁺, T, p)`
//! linearised exactly by the chain rule:
//!
//! ```text
//! C = h_x ∂x⁺/∂u + h_T ∂T/∂u,    D = h_x ∂x⁺/∂p + h_T ∂T/∂p + h_p,
//! ```
//!
//! with `h_x`, `h_T`, `h_p` by automatic differentiation through the compiled expression. With
//! `--out DIR` the impulse response is also written as CSV with a figure
//! (`saltation_report::write_sensitivity`).
//!
//! With `--json` the output is exactly one JSON object, [`SensitivityJson`] (a public
//! interface).

use crate::format::{self, KeyValue};
use crate::input::{GuessArgs, LoadedModel, ModelArgs};
use crate::CliError;
use clap::Args;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{param_index, EvalModel, ParamAugmented, StrideMap};
use saltation_models::indicators::{Indicators, STEP_TIME};
use saltation_orbit::{gait_sensitivity, param_linearisation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;

/// Arguments of `saltation sensitivity`.
#[derive(Debug, Clone, Args)]
pub struct SensitivityArgs {
    /// The model file and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// Which initial guess (one; `--all` is refused).
    #[command(flatten)]
    pub guess: GuessArgs,

    /// The parameter whose one-stride change is the disturbance (the slope of a walker).
    #[arg(long, value_name = "PARAM")]
    pub disturbance: String,

    /// Gait indicators, comma-separated expressions (commas inside parentheses belong to the
    /// expression) in the states just after the stride (named as the model names them, else
    /// x0, x1, …), `step_time` (the stride's duration), the parameters and an equation model's
    /// definitions and outputs, e.g. --indicators "step_time,2*sin(th)"; default step_time.
    #[arg(long, value_name = "EXPR,...", allow_hyphen_values = true)]
    pub indicators: Option<String>,

    /// Print JSON instead of a table: one object {"disturbance", "indicators", "norm",
    /// "lyapunov_norm", "spectral_radius", "impulse_response", "strides", "params", "orbit"}.
    #[arg(long)]
    pub json: bool,

    /// Also write the impulse response as `<stem>_sensitivity.csv` and a figure
    /// (`<stem>_sensitivity.png`/`.svg`: each indicator against the stride number) into DIR.
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
}

/// The orbit the norm is computed at, in the JSON output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SensitivityOrbitJson {
    /// Fixed point in the section's reduced coordinates.
    pub u0: Vec<f64>,
    /// Fixed point, full state just after the stride's last reset.
    pub x0: Vec<f64>,
    /// Stride duration.
    pub period: f64,
}

/// The JSON output of `saltation sensitivity` (a public interface: exactly these keys).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SensitivityJson {
    /// The parameter disturbed for one stride.
    pub disturbance: String,
    /// The gait indicators, in the order of each `impulse_response` row: `["step_time"]` by
    /// default, else the expressions of `--indicators`.
    pub indicators: Vec<String>,
    /// The gait sensitivity norm `sqrt(Σ_k ‖y_k‖²)` over the impulse response.
    pub norm: f64,
    /// The same from the discrete Lyapunov equation (a cross-check); null where not solved.
    pub lyapunov_norm: Option<f64>,
    /// Spectral radius of the reduced stride Jacobian `A`.
    pub spectral_radius: f64,
    /// `y_k` per stride `k = 0, 1, …` (one row per stride, one entry per indicator) for a
    /// unit disturbance on stride 0.
    pub impulse_response: Vec<Vec<f64>>,
    /// Rows of `impulse_response`.
    pub strides: usize,
    /// The model's parameter values, by name.
    pub params: BTreeMap<String, f64>,
    /// The periodic orbit.
    pub orbit: SensitivityOrbitJson,
    /// `A` (rows), `B`, `C` (rows) and `D` of the linearisation.
    pub linearisation: LinearisationJson,
}

/// The linear system `x_{k+1} = A x_k + B d_k`, `y_k = C x_k + D d_k` in the JSON output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinearisationJson {
    /// `A`, by rows.
    pub a: Vec<Vec<f64>>,
    /// `B`.
    pub b: Vec<f64>,
    /// `C`, by rows (one per indicator).
    pub c: Vec<Vec<f64>>,
    /// `D` (one per indicator).
    pub d: Vec<f64>,
}

fn rows(m: &DMatrix<f64>) -> Vec<Vec<f64>> {
    m.row_iter().map(|r| r.iter().copied().collect()).collect()
}

/// The gait sensitivity norm of the orbit from `guess` for a one-stride change of parameter
/// `disturbance`: the object `saltation sensitivity --json` prints (also for the Python
/// package).
pub fn compute(
    loaded: &LoadedModel,
    guess: &GuessArgs,
    disturbance: &str,
) -> Result<SensitivityJson, CliError> {
    compute_with(loaded, guess, disturbance, None)
}

/// [`compute`] with the gait indicators `indicators` (the text of `--indicators`; `None`:
/// `step_time`).
pub fn compute_with(
    loaded: &LoadedModel,
    guess: &GuessArgs,
    disturbance: &str,
    indicators: Option<&str>,
) -> Result<SensitivityJson, CliError> {
    let model = &loaded.file.model;
    let k = param_index(model, disturbance).map_err(|e| CliError::BadArgument {
        arg: format!("--disturbance {}", disturbance),
        reason: e.to_string(),
    })?;
    let aug = ParamAugmented::new(model, k).ok_or_else(|| CliError::BadArgument {
        arg: format!("--disturbance {}", disturbance),
        reason: format!(
            "the {} model gives no exact derivatives in `{}`",
            model.name(),
            disturbance
        ),
    })?;
    let p = model.param_value(k).unwrap_or(f64::NAN);
    let list = indicators.unwrap_or(STEP_TIME);
    let indicators = Indicators::compile(model, list).map_err(|e| CliError::BadArgument {
        arg: format!("--indicators {list}"),
        reason: e.to_string(),
    })?;
    let guess = guess
        .select(loaded)?
        .into_iter()
        .next()
        .ok_or_else(|| CliError::NoGuess {
            file: loaded.path.clone(),
        })?;
    let opts = &loaded.file.orbit;
    let solved = crate::orbit::solve(model, &guess, opts)
        .map_err(|e| crate::orbit::shooting_refused(e, None, &loaded.path))
        .map_err(|e| crate::error::explain(e, model))?;
    let orbit = &solved.orbit;
    let fail = |reason: String| CliError::Sensitivity { reason };
    let mut map = StrideMap::new(
        &aug,
        ParamAugmented::<saltation_models::Model>::stride_options(&opts.stride),
    )
    .map_err(|e| fail(format!("the augmented stride map: {e}")))?;
    let lin = param_linearisation(&mut map, &orbit.u0, p).map_err(|e| {
        fail(format!(
            "the stride at the orbit, augmented with `{}`: {e}",
            disturbance
        ))
    })?;
    let r = lin.fu.nrows();
    let a = &lin.fu + DMatrix::identity(r, r);
    let (tu, tp) = match (lin.tu.last(), lin.tp.last()) {
        (Some(tu), Some(tp)) => (tu.clone(), *tp),
        _ => return Err(fail("the stride has no event to time the step by".into())),
    };
    let values: Vec<f64> = (0..model.param_names().len())
        .map(|j| model.param_value(j).unwrap_or(f64::NAN))
        .collect();
    let grads = indicators.gradients(&lin.stride.x, lin.stride.period, &values);
    let q = grads.len();
    let mut c = DMatrix::zeros(q, r);
    let mut d = DVector::zeros(q);
    for (i, g) in grads.iter().enumerate() {
        let hx = DVector::from_column_slice(&g.x);
        let row = lin.xu.tr_mul(&hx) + &tu * g.step_time;
        c.row_mut(i).copy_from(&row.transpose());
        d[i] = hx.dot(&lin.xp) + g.step_time * tp + g.p.get(k).copied().unwrap_or(0.0);
    }
    let g = gait_sensitivity(&a, &lin.fp, &c, &d).map_err(|e| fail(e.to_string()))?;
    Ok(SensitivityJson {
        disturbance: disturbance.to_string(),
        indicators: indicators.names().to_vec(),
        norm: g.norm,
        lyapunov_norm: g.lyapunov_norm,
        spectral_radius: g.spectral_radius,
        impulse_response: g
            .impulse_response
            .iter()
            .map(|y| y.iter().copied().collect())
            .collect(),
        strides: g.impulse_response.len(),
        params: saltation_report::params_json(model),
        orbit: SensitivityOrbitJson {
            u0: orbit.u0.clone(),
            x0: orbit.x0.clone(),
            period: orbit.period,
        },
        linearisation: LinearisationJson {
            a: rows(&a),
            b: lin.fp.iter().copied().collect(),
            c: rows(&c),
            d: d.iter().copied().collect(),
        },
    })
}

/// Runs `saltation sensitivity`.
pub fn run(args: &SensitivityArgs, out: &mut dyn Write) -> Result<(), CliError> {
    if args.guess.all {
        return Err(CliError::BadArgument {
            arg: "--all".into(),
            reason: "sensitivity works on one orbit: give --guess or --guess-label".into(),
        });
    }
    let loaded = args.model.load()?;
    loaded.require_forcing()?;
    let outputs = args.out.as_ref().map(|dir| saltation_report::Outputs {
        dir: dir.clone(),
        stem: saltation_report::stem_of(&args.model.file),
        render: Default::default(),
    });
    if let Some(o) = &outputs {
        o.check()?;
    }
    let json = compute_with(
        &loaded,
        &args.guess,
        &args.disturbance,
        args.indicators.as_deref(),
    )?;
    let model = &loaded.file.model;
    let files = match &outputs {
        Some(o) => saltation_report::write_sensitivity(
            o,
            model.name(),
            &json.disturbance,
            json.norm,
            &json.indicators,
            &json.impulse_response,
        )?,
        None => Vec::new(),
    };
    let text = if args.json {
        serde_json::to_string(&json)? + "\n"
    } else {
        let mut t = KeyValue::new();
        t.row("model", format!("{} ({})", model.name(), loaded.path))
            .row("parameters", crate::orbit::parameters(model))
            .row("disturbance", format!("{} (one stride)", args.disturbance))
            .row("indicators", json.indicators.join(", "))
            .row("period", format::number(json.orbit.period, 20))
            .row("spectral radius", format::number(json.spectral_radius, 20))
            .row("gait sensitivity norm", format::number(json.norm, 20))
            .row(
                "  by Lyapunov",
                json.lyapunov_norm
                    .map(|v| format::number(v, 20))
                    .unwrap_or_else(|| "not solved".into()),
            )
            .row("strides", json.impulse_response.len().to_string());
        for (i, y) in json.impulse_response.iter().take(6).enumerate() {
            let v: Vec<String> = y.iter().map(|v| format::number(*v, 20)).collect();
            t.row(format!("  y{i}"), v.join(", "));
        }
        for f in &files {
            t.row("wrote", f.display().to_string());
        }
        t.render()
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
