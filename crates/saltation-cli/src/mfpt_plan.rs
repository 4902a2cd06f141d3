//! The arguments of `saltation mfpt` checked and turned into a [`Plan`]: which methods run
//! (`--method`), the terrain and its roughness levels, the chain's mesh (any number of axes,
//! one per reduced coordinate of the section), the sizes, and the nominal orbit.
//!
//! `--method both` (the default) runs the mesh chain and Monte Carlo side by side;
//! `--method chain` the chain alone and `--method monte-carlo` Monte Carlo alone. The chain
//! needs `--mesh`; an option of a method that does not run (`--mesh`, `--samples` without the
//! chain; `--runs`, `--max-steps`, `--seed` without Monte Carlo) is refused, not ignored.

use crate::basin::parse_axis_list;
use crate::input::LoadedModel;
use crate::mfpt::{MfptArgs, DEFAULT_MAX_STEPS, DEFAULT_RUNS, DEFAULT_SAMPLES, MAX_LEVELS};
use crate::CliError;
use saltation_continuation::basin::BasinGrid;
use saltation_continuation::mfpt::{validate_chain, Terrain, MAX_RUNS, MAX_SAMPLES, MAX_STEPS};
use saltation_continuation::ContinuationError;
use saltation_hybrid::{param_index, EvalModel};

/// Which methods `saltation mfpt` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Method {
    /// The mesh Markov chain and Monte Carlo, side by side.
    #[default]
    Both,
    /// The mesh Markov chain alone.
    Chain,
    /// Monte Carlo alone (no mesh).
    MonteCarlo,
}

impl Method {
    /// The method named `s`: `both`, `chain` or `monte-carlo` (the Python package's argument).
    pub fn parse(s: &str) -> Result<Self, CliError> {
        match s {
            "both" => Ok(Self::Both),
            "chain" => Ok(Self::Chain),
            "monte-carlo" => Ok(Self::MonteCarlo),
            _ => Err(bad(
                format!("--method {s}"),
                "expected both, chain or monte-carlo",
            )),
        }
    }

    /// Whether the chain runs.
    pub fn chain(self) -> bool {
        self != Self::MonteCarlo
    }

    /// Whether Monte Carlo runs.
    pub fn monte_carlo(self) -> bool {
        self != Self::Chain
    }
}

/// Everything the computation and the report need, with no model: what a shard file carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The model's name.
    pub model_name: String,
    /// The parameter drawn.
    pub param: String,
    /// The distribution as given.
    pub terrain: Terrain,
    /// The standard deviations of the levels (the distribution's own without `--roughness`).
    pub levels: Vec<f64>,
    /// Whether `--roughness` was given (the figure is written).
    pub sweep: bool,
    /// The chain's mesh; `None` when the chain does not run (`--method monte-carlo`).
    pub mesh: Option<BasinGrid>,
    /// Samples per mesh point (0 without the chain).
    pub samples: usize,
    /// Monte Carlo runs (0 when Monte Carlo does not run, `--method chain`).
    pub runs: usize,
    /// Stride cap per run.
    pub max_steps: usize,
    /// Seed.
    pub seed: u64,
    /// The nominal orbit's reduced state.
    pub u0: Vec<f64>,
    /// Its period.
    pub period: f64,
}

impl Plan {
    /// The distribution of level `l`.
    pub fn terrain_at(&self, l: usize) -> Result<Terrain, ContinuationError> {
        if self.sweep {
            self.terrain.with_sd(self.levels[l])
        } else {
            Ok(self.terrain)
        }
    }

    /// The number of mesh points (0 without the chain).
    pub fn cells(&self) -> usize {
        self.mesh.as_ref().map_or(0, BasinGrid::cells)
    }

    /// Whether Monte Carlo runs.
    pub fn monte_carlo(&self) -> bool {
        self.runs > 0
    }
}

pub(crate) fn bad(arg: impl Into<String>, reason: impl Into<String>) -> CliError {
    CliError::BadArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

/// The flag an input error of the library names.
pub(crate) fn input_error(args: &MfptArgs, e: ContinuationError) -> CliError {
    if !e.is_input_error() {
        return CliError::Continuation(e);
    }
    let field = e.field().unwrap_or("").to_string();
    let flag = if field.starts_with("mesh") {
        format!("--mesh {}", args.mesh.as_deref().unwrap_or(""))
    } else if field == "samples" {
        format!("--samples {}", args.samples.unwrap_or(DEFAULT_SAMPLES))
    } else if field == "distribution" {
        format!("--distribution {}", args.distribution)
    } else if field == "max_steps" {
        "--max-steps".into()
    } else if field == "runs" {
        "--runs".into()
    } else {
        format!("mfpt ({field})")
    };
    let reason = match &e {
        ContinuationError::InvalidOption { reason, .. } => reason.clone(),
        e => e.to_string(),
    };
    bad(flag, reason)
}

/// Parses `--roughness sd1,sd2,…`: finite, positive, at most [`MAX_LEVELS`].
pub fn parse_roughness(arg: &str) -> Result<Vec<f64>, CliError> {
    let flag = format!("--roughness {arg}");
    let parts: Vec<&str> = arg.split(',').map(str::trim).collect();
    if parts.len() > MAX_LEVELS {
        return Err(bad(
            &flag,
            format!("{} levels: at most {MAX_LEVELS}", parts.len()),
        ));
    }
    parts
        .iter()
        .map(|p| match p.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
            _ => Err(bad(
                &flag,
                format!("`{p}` is not a positive finite standard deviation"),
            )),
        })
        .collect()
}

/// Refuses the options of a method that does not run: `(flag, given)` pairs.
fn refuse_unused(method: Method, what: &str, given: &[(&str, bool)]) -> Result<(), CliError> {
    if let Some((flag, _)) = given.iter().find(|g| g.1) {
        let m = match method {
            Method::Both => "both",
            Method::Chain => "chain",
            Method::MonteCarlo => "monte-carlo",
        };
        return Err(bad(
            *flag,
            format!("is an option of {what}, which --method {m} does not run"),
        ));
    }
    Ok(())
}

/// The chain's mesh of `--mesh` over the model's reduced coordinates `names`: one axis per
/// coordinate (any number; the grid's checks are the chain's, at plan time).
fn parse_mesh(arg: &str, names: &[String]) -> Result<BasinGrid, CliError> {
    let flag = format!("--mesh {arg}");
    let n = arg.split(',').count();
    if n > names.len() {
        return Err(bad(
            &flag,
            format!(
                "{n} axes, but the section has {} reduced coordinate(s) ({}): one axis each",
                names.len(),
                names.join(", ")
            ),
        ));
    }
    let axes = parse_axis_list(arg, names, &flag)?;
    Ok(BasinGrid {
        axes,
        base: vec![0.0; names.len()],
    })
}

/// The plan of the arguments: checks every flag, finds the nominal orbit; with it the index
/// of the drawn parameter. (The Python package's `Model.mfpt` calls this too.)
pub fn plan(args: &MfptArgs, loaded: &LoadedModel) -> Result<(Plan, usize), CliError> {
    let model = &loaded.file.model;
    let method = args.method.unwrap_or_default();
    let dist_flag = format!("--distribution {}", args.distribution);
    let terrain = Terrain::parse(&args.distribution).map_err(|e| match e {
        ContinuationError::InvalidOption { reason, .. } => bad(&dist_flag, reason),
        e => CliError::Continuation(e),
    })?;
    if !method.chain() {
        refuse_unused(
            method,
            "the chain",
            &[
                ("--mesh", args.mesh.is_some()),
                ("--samples", args.samples.is_some()),
            ],
        )?;
    }
    if !method.monte_carlo() {
        refuse_unused(
            method,
            "Monte Carlo",
            &[
                ("--runs", args.runs.is_some()),
                ("--max-steps", args.max_steps.is_some()),
                ("--seed", args.seed.is_some()),
            ],
        )?;
    }
    let (levels, sweep) = match &args.roughness {
        Some(r) => {
            let levels = parse_roughness(r)?;
            for &sd in &levels {
                terrain
                    .with_sd(sd)
                    .map_err(|e| bad(format!("--roughness {r}"), e.to_string()))?;
            }
            (levels, true)
        }
        None => (vec![terrain.sd()], false),
    };
    let k = param_index(model, &args.param)
        .map_err(|e| bad(format!("--param {}", args.param), e.to_string()))?;
    let samples = args.samples.unwrap_or(DEFAULT_SAMPLES);
    let runs = args.runs.unwrap_or(DEFAULT_RUNS);
    if !(1..=MAX_RUNS).contains(&runs) {
        return Err(bad(
            format!("--runs {runs}"),
            format!("must be in 1..={MAX_RUNS}"),
        ));
    }
    let max_steps = args.max_steps.unwrap_or(DEFAULT_MAX_STEPS);
    if !(1..=MAX_STEPS).contains(&max_steps) {
        return Err(bad(
            format!("--max-steps {max_steps}"),
            format!("must be in 1..={MAX_STEPS}"),
        ));
    }
    let names = saltation_hybrid::reduced_names(model);
    let mesh = match (&args.mesh, method.chain()) {
        (Some(m), true) => Some(parse_mesh(m, &names)?),
        (None, true) => {
            return Err(bad(
                "--mesh",
                format!(
                    "the chain needs a mesh over every reduced coordinate ({}), e.g. {}; or \
                     --method monte-carlo for Monte Carlo alone",
                    names.join(", "),
                    names
                        .iter()
                        .map(|n| format!("{n}=a:b:N"))
                        .collect::<Vec<_>>()
                        .join(",")
                ),
            ))
        }
        (_, false) => None,
    };
    if !(1..=MAX_SAMPLES).contains(&samples) {
        return Err(bad(
            format!("--samples {samples}"),
            format!("must be in 1..={MAX_SAMPLES}"),
        ));
    }
    // Every level's samples, checked before anything runs: sizes, and values the model takes.
    for &sd in &levels {
        let t = if sweep {
            terrain.with_sd(sd)
        } else {
            Ok(terrain)
        }
        .map_err(|e| input_error(args, e))?;
        let mut extremes = vec![t.quantile(1e-9), t.quantile(1.0 - 1e-9)];
        if let Some(mesh) = &mesh {
            let s = t.stratified(samples);
            validate_chain(model, k, &s, &loaded.file.orbit.stride, mesh)
                .map_err(|e| input_error(args, e))?;
            extremes.splice(0..0, [s[0], s[s.len() - 1]]);
        }
        // The extreme samples and the quantiles 1e-9 and 1 − 1e-9 of the draws here; every
        // sample again before its strides, every draw before its stride.
        for &p in &extremes {
            if let Err(e) = model.with_param(&args.param, p) {
                let flag = match &args.roughness {
                    Some(r) => format!("--roughness {r}"),
                    None => dist_flag.clone(),
                };
                return Err(bad(
                    flag,
                    format!(
                        "the terrain sample {p} of `{}` ({}): {e}",
                        args.param,
                        t.label()
                    ),
                ));
            }
        }
    }
    // The nominal orbit at the mean.
    let at_mean = model.with_param(&args.param, terrain.mean()).map_err(|e| {
        bad(
            &dist_flag,
            format!("the mean {} of `{}`: {e}", terrain.mean(), args.param),
        )
    })?;
    let start = crate::input::first_guess(loaded)?;
    let solved = crate::orbit::solve(&at_mean, &start, &loaded.file.orbit)
        .map_err(|e| crate::error::explain(e, &at_mean))?;
    let mut w = Vec::new();
    if let Some(mesh) = &mesh {
        if !saltation_continuation::mfpt::weights(mesh, &solved.orbit.u0, &mut w) {
            return Err(bad(
                format!("--mesh {}", args.mesh.as_deref().unwrap_or("")),
                format!(
                    "the nominal orbit u0 = {:?} lies outside the mesh's box: widen it",
                    solved.orbit.u0
                ),
            ));
        }
    }
    let mc = method.monte_carlo();
    Ok((
        Plan {
            model_name: model.name().to_string(),
            param: args.param.clone(),
            terrain,
            levels,
            sweep,
            samples: if mesh.is_some() { samples } else { 0 },
            mesh,
            runs: if mc { runs } else { 0 },
            max_steps: if mc { max_steps } else { 0 },
            seed: if mc { args.seed.unwrap_or(0) } else { 0 },
            u0: solved.orbit.u0.clone(),
            period: solved.orbit.period,
        },
        k,
    ))
}
