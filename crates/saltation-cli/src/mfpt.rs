//! `saltation mfpt`: the mean first-passage time of a gait on rough terrain
//! ([`saltation_continuation::mfpt`]) — parameter `--param` drawn afresh at every stride from
//! `--distribution normal(mean,sd)|uniform(a,b)` — by Byl & Tedrake's mesh Markov chain and
//! by Monte Carlo, side by side.
//!
//! The nominal orbit is the periodic orbit at the distribution's mean, by Newton from the
//! file's first guess. The chain: `--mesh NAME=a:b:N[,NAME=c:d:M]` (the syntax of `basin
//! --axes`, every reduced coordinate on an axis), `--samples K` stratified terrain quantiles
//! per mesh point (default 200); a stride that fails, or ends outside the mesh's box, is
//! absorbed ("fallen", the two counted apart). Monte Carlo: `--runs R` walks from the nominal
//! orbit (default 1000), each stride with a fresh draw, censored at `--max-steps S` (default
//! 10 000), run `r` seeded from `--seed` (default 0) and `r`.
//!
//! `--roughness sd1,sd2,…` repeats both at each standard deviation (same kind of
//! distribution, same mean; a uniform one of half-width `√3·sd`; the same seed at every level)
//! and writes `<stem>_mfpt.csv` and the figure `<stem>_mfpt.png`/`.svg` (the times against
//! the roughness, log scale) to `--out`.
//!
//! `--shard i/N` computes the mesh points `i, i + N, …` and the runs `i, i + N, …` of every
//! level and writes `<stem>_mfpt_shard_<i>_of_<N>.json` to `--out`; `saltation merge DIR…`
//! joins the shards into exactly the unsharded result ([`crate::mfpt_shard`]). Output is the
//! same byte for byte at any thread count.

use crate::basin::{parse_axes, parse_shard};
use crate::format::{self, KeyValue};
use crate::input::{LoadedModel, ModelArgs, StartingGuess};
use crate::mfpt_shard::MfptShardFile;
use crate::progress::ScriptBar;
use crate::CliError;
use clap::Args;
use saltation_continuation::basin::BasinGrid;
use saltation_continuation::mfpt::{
    agreement, chain_rows, mc_runs, solve_chain, summarize, validate_chain, ChainOptions, ChainRow,
    ChainSolution, McRun, McSummary, Terrain, MAX_RUNS, MAX_STEPS,
};
use saltation_continuation::ContinuationError;
use saltation_hybrid::{param_index, EvalModel};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Default terrain samples per mesh point.
pub const DEFAULT_SAMPLES: usize = 200;
/// Default Monte Carlo runs.
pub const DEFAULT_RUNS: usize = 1000;
/// Default stride cap per run.
pub const DEFAULT_MAX_STEPS: usize = 10_000;
/// Largest number of `--roughness` levels.
pub const MAX_LEVELS: usize = 64;

/// Arguments of `saltation mfpt`.
#[derive(Debug, Clone, Args)]
pub struct MfptArgs {
    /// The model file and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// The parameter drawn at every stride (the slope of a walker, the ground of a hopper).
    #[arg(long, value_name = "PARAM")]
    pub param: String,

    /// Its distribution: normal(mean,sd) or uniform(a,b).
    #[arg(
        long,
        value_name = "normal(mean,sd)|uniform(a,b)",
        allow_hyphen_values = true
    )]
    pub distribution: String,

    /// The chain's mesh over every reduced coordinate: NAME=a:b:N[,NAME=c:d:M].
    #[arg(
        long,
        value_name = "NAME=a:b:N[,NAME=c:d:M]",
        allow_hyphen_values = true
    )]
    pub mesh: String,

    /// Terrain samples (stratified quantiles) per mesh point (default 200).
    #[arg(long, value_name = "K")]
    pub samples: Option<usize>,

    /// Monte Carlo runs (default 1000).
    #[arg(long, value_name = "R")]
    pub runs: Option<usize>,

    /// Strides per run before it is censored (default 10000).
    #[arg(long, value_name = "S")]
    pub max_steps: Option<usize>,

    /// Seed of the Monte Carlo draws (default 0).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seed: Option<u64>,

    /// Standard deviations to repeat both methods at: sd1,sd2,… (writes the figure).
    #[arg(long, value_name = "sd1,sd2,...", allow_hyphen_values = true)]
    pub roughness: Option<String>,

    /// Compute only shard i of N (0 ≤ i < N) and write its shard file.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,

    /// Directory for the figure or the shard file (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Print one JSON object: {"model", "param", "distribution", "mesh", "samples", "runs",
    /// "max_steps", "seed", "nominal", "levels": [{"sd", "distribution", "chain": {"mfpt",
    /// "lambda2", "expected_steps", "points", "absorbed_fraction", …}, "monte_carlo":
    /// {"mean", "ci", "runs", "censored", …}}]}.
    #[arg(long)]
    pub json: bool,
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
    /// The mesh.
    pub mesh: BasinGrid,
    /// Samples per mesh point.
    pub samples: usize,
    /// Monte Carlo runs.
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
}

/// One level's transitions and walks (all of them, or a shard's).
#[derive(Debug, Clone, PartialEq)]
pub struct LevelData {
    /// Rows of the chain, by mesh point.
    pub rows: Vec<ChainRow>,
    /// The walks, by run.
    pub runs: Vec<McRun>,
}

fn bad(arg: impl Into<String>, reason: impl Into<String>) -> CliError {
    CliError::BadArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

/// The flag an input error of the library names.
fn input_error(args: &MfptArgs, e: ContinuationError) -> CliError {
    if !e.is_input_error() {
        return CliError::Continuation(e);
    }
    let field = e.field().unwrap_or("").to_string();
    let flag = if field.starts_with("mesh") {
        format!("--mesh {}", args.mesh)
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

/// The plan of the arguments: checks every flag, finds the nominal orbit; with it the index
/// of the drawn parameter. (The Python package's `Model.mfpt` calls this too.)
pub fn plan(args: &MfptArgs, loaded: &LoadedModel) -> Result<(Plan, usize), CliError> {
    let model = &loaded.file.model;
    let dist_flag = format!("--distribution {}", args.distribution);
    let terrain = Terrain::parse(&args.distribution).map_err(|e| match e {
        ContinuationError::InvalidOption { reason, .. } => bad(&dist_flag, reason),
        e => CliError::Continuation(e),
    })?;
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
    let axes = parse_axes(&args.mesh, &names).map_err(|e| match e {
        CliError::BadArgument { reason, .. } => bad(format!("--mesh {}", args.mesh), reason),
        e => e,
    })?;
    let mesh = BasinGrid {
        axes,
        base: vec![0.0; model.reduced_dim()],
    };
    if !(1..=saltation_continuation::mfpt::MAX_SAMPLES).contains(&samples) {
        return Err(bad(
            format!("--samples {samples}"),
            format!(
                "must be in 1..={}",
                saltation_continuation::mfpt::MAX_SAMPLES
            ),
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
        let s = t.stratified(samples);
        validate_chain(model, k, &s, &loaded.file.orbit.stride, &mesh)
            .map_err(|e| input_error(args, e))?;
        // The extreme samples and the quantiles 1e-9 and 1 − 1e-9 of the draws here; every
        // sample again before its strides, every draw before its stride.
        for &p in &[
            s[0],
            s[s.len() - 1],
            t.quantile(1e-9),
            t.quantile(1.0 - 1e-9),
        ] {
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
    let guess = loaded
        .file
        .guesses
        .first()
        .ok_or_else(|| CliError::NoGuess {
            file: loaded.path.clone(),
        })?;
    let start = StartingGuess {
        what: format!("guess \"{}\"", guess.label),
        label: Some(guess.label.clone()),
        u: guess.u.clone(),
    };
    let solved = crate::orbit::solve(&at_mean, &start, &loaded.file.orbit)
        .map_err(|e| crate::error::explain(e, &at_mean))?;
    let mut w = Vec::new();
    if !saltation_continuation::mfpt::weights(&mesh, &solved.orbit.u0, &mut w) {
        return Err(bad(
            format!("--mesh {}", args.mesh),
            format!(
                "the nominal orbit u0 = {:?} lies outside the mesh's box: widen it",
                solved.orbit.u0
            ),
        ));
    }
    Ok((
        Plan {
            model_name: model.name().to_string(),
            param: args.param.clone(),
            terrain,
            levels,
            sweep,
            mesh,
            samples,
            runs,
            max_steps,
            seed: args.seed.unwrap_or(0),
            u0: solved.orbit.u0.clone(),
            period: solved.orbit.period,
        },
        k,
    ))
}

/// The mesh points and runs of shard `i` of `n`, every level, with progress lines.
pub(crate) fn compute(
    args: &MfptArgs,
    loaded: &LoadedModel,
    plan: &Plan,
    k: usize,
    shard: (usize, usize),
) -> Result<Vec<LevelData>, CliError> {
    let bar = std::sync::Mutex::new(None::<ScriptBar>);
    let on = |e: Progress| {
        let mut b = bar.lock().unwrap_or_else(|p| p.into_inner());
        match e {
            Progress::Start {
                sd, chain, total, ..
            } => {
                if let Some(old) = b.take() {
                    old.finish();
                }
                let mut nb = ScriptBar::new("mfpt");
                let (what, unit) = if chain {
                    ("chain", "points")
                } else {
                    ("Monte Carlo", "runs")
                };
                nb.start_counted(&format!("{what} sd {sd}"), total, unit);
                *b = Some(nb);
            }
            Progress::Done { done, total, .. } => {
                if let Some(nb) = b.as_ref() {
                    nb.set_done(done, total);
                }
            }
        }
    };
    let out = compute_with(args, loaded, plan, k, shard, &on);
    if let Some(old) = bar.into_inner().unwrap_or_else(|p| p.into_inner()) {
        old.finish();
    }
    out
}

/// A progress event of [`compute_with`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Progress {
    /// Level `level` (standard deviation `sd`) starts its chain (`chain`) or its Monte Carlo
    /// walks: `total` mesh points or runs.
    Start {
        /// The level's index.
        level: usize,
        /// Its standard deviation.
        sd: f64,
        /// The chain's transitions (else the Monte Carlo walks).
        chain: bool,
        /// Points or runs to do.
        total: usize,
    },
    /// `done` of `total` points or runs of the current part are done.
    Done {
        /// The chain's transitions (else the Monte Carlo walks).
        chain: bool,
        /// Done.
        done: usize,
        /// Of.
        total: usize,
    },
}

/// [`compute`] reporting its progress to `on` (from worker threads) instead of the terminal:
/// the one computation behind `saltation mfpt` and the Python package's `Model.mfpt`.
pub fn compute_with(
    args: &MfptArgs,
    loaded: &LoadedModel,
    plan: &Plan,
    k: usize,
    (i, n): (usize, usize),
    on: &(dyn Fn(Progress) + Sync),
) -> Result<Vec<LevelData>, CliError> {
    let model = &loaded.file.model;
    let stride = &loaded.file.orbit.stride;
    let cells: Vec<usize> = (i..plan.mesh.cells()).step_by(n).collect();
    let runs: Vec<usize> = (i..plan.runs).step_by(n).collect();
    let mut out = Vec::new();
    for l in 0..plan.levels.len() {
        let t = plan.terrain_at(l).map_err(|e| input_error(args, e))?;
        let samples = t.stratified(plan.samples);
        let sd = plan.levels[l];
        on(Progress::Start {
            level: l,
            sd,
            chain: true,
            total: cells.len(),
        });
        let rows = chain_rows(
            model,
            k,
            &samples,
            stride,
            &plan.mesh,
            &cells,
            &|done, total| {
                on(Progress::Done {
                    chain: true,
                    done,
                    total,
                })
            },
        );
        let rows = rows.map_err(|e| input_error(args, e))?;
        on(Progress::Start {
            level: l,
            sd,
            chain: false,
            total: runs.len(),
        });
        let walks = mc_runs(
            model,
            k,
            &t,
            stride,
            &plan.u0,
            plan.max_steps,
            plan.seed,
            &runs,
            &|done, total| {
                on(Progress::Done {
                    chain: false,
                    done,
                    total,
                })
            },
        );
        out.push(LevelData {
            rows,
            runs: walks.map_err(|e| input_error(args, e))?,
        });
    }
    Ok(out)
}

/// One level in the JSON output.
#[derive(Debug, Clone, Serialize)]
pub struct LevelJson {
    /// The standard deviation.
    pub sd: f64,
    /// The distribution.
    pub distribution: String,
    /// The chain's results.
    pub chain: ChainSolution,
    /// Monte Carlo's.
    pub monte_carlo: McSummary,
    /// Why the chain's times may not be converged
    /// ([`saltation_continuation::mfpt::agreement`]); absent when there is no reason.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The JSON output of `saltation mfpt` (and of `saltation merge` on its shards).
#[derive(Debug, Clone, Serialize)]
pub struct MfptJson {
    /// The model's name.
    pub model: String,
    /// The parameter drawn.
    pub param: String,
    /// The distribution as given.
    pub distribution: String,
    /// The mesh: axes and points.
    pub mesh: serde_json::Value,
    /// Samples per point.
    pub samples: usize,
    /// Runs.
    pub runs: usize,
    /// Stride cap per run.
    pub max_steps: usize,
    /// Seed.
    pub seed: u64,
    /// The nominal orbit: `u0`, `period`, the parameter value.
    pub nominal: serde_json::Value,
    /// The levels.
    pub levels: Vec<LevelJson>,
}

/// Solves every level's chain and summarizes its walks: the `--json` object of `saltation
/// mfpt` (the Python package's `Model.mfpt` returns it too).
pub fn result(plan: &Plan, data: &[LevelData]) -> Result<MfptJson, CliError> {
    let mut levels = Vec::new();
    for (l, d) in data.iter().enumerate() {
        let t = plan.terrain_at(l).map_err(CliError::Continuation)?;
        let chain = solve_chain(
            &plan.mesh,
            &d.rows,
            plan.samples,
            &plan.u0,
            &ChainOptions::default(),
        )
        .map_err(|e| match e {
            ContinuationError::InvalidOption { reason, .. } => {
                bad(format!("--mesh (sd {})", plan.levels[l]), reason)
            }
            e => CliError::Continuation(e),
        })?;
        let monte_carlo = summarize(&d.runs);
        levels.push(LevelJson {
            sd: plan.levels[l],
            distribution: t.label(),
            warnings: agreement(&chain, &monte_carlo),
            chain,
            monte_carlo,
        });
    }
    Ok(MfptJson {
        model: plan.model_name.clone(),
        param: plan.param.clone(),
        distribution: plan.terrain.label(),
        mesh: serde_json::json!({
            "axes": plan.mesh.axes.iter().map(|a| serde_json::json!({
                "name": a.name, "from": a.from, "to": a.to, "count": a.count
            })).collect::<Vec<_>>(),
            "points": plan.mesh.cells(),
        }),
        samples: plan.samples,
        runs: plan.runs,
        max_steps: plan.max_steps,
        seed: plan.seed,
        nominal: serde_json::json!({
            "u0": plan.u0, "period": plan.period, "param_value": plan.terrain.mean()
        }),
        levels,
    })
}

/// Solves every level and prints the result (and the figure with `--roughness`).
pub(crate) fn finish(
    plan: &Plan,
    data: &[LevelData],
    out_dir: &Path,
    stem_of: &Path,
    json: bool,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let j = result(plan, data)?;
    let mut files = Vec::new();
    if plan.sweep {
        let outputs = crate::continuation::outputs(out_dir, stem_of);
        let fig: Vec<saltation_report::MfptLevel> = j
            .levels
            .iter()
            .map(|l| saltation_report::MfptLevel {
                sd: l.sd,
                chain_mfpt: l.chain.mfpt,
                chain_steps: l.chain.expected_steps,
                mc_mean: l.monte_carlo.mean,
                mc_ci: l.monte_carlo.ci,
            })
            .collect();
        files = saltation_report::write_mfpt(&outputs, &plan.model_name, &plan.param, &fig)?;
    }
    let text = if json {
        serde_json::to_string(&j)? + "\n"
    } else {
        let mut t = KeyValue::new();
        t.row("model", plan.model_name.clone())
            .row("drawn every stride", plan.param.clone())
            .row("distribution", plan.terrain.label())
            .row("nominal orbit u0", format!("{:?}", plan.u0))
            .row(
                "mesh",
                format!("{} points × {} samples", plan.mesh.cells(), plan.samples),
            )
            .row(
                "Monte Carlo",
                format!(
                    "{} runs, at most {} strides, seed {}",
                    plan.runs, plan.max_steps, plan.seed
                ),
            );
        let time = |v: Option<f64>| v.map_or("infinite".into(), |v| format::number(v, 14));
        for l in &j.levels {
            t.row(format!("sd {}", l.sd), l.distribution.clone())
                .row("  chain 1/(1 − λ₂)", time(l.chain.mfpt))
                .row("  chain λ₂", format::number(l.chain.lambda2, 14))
                .row("  chain from the orbit", time(l.chain.expected_steps))
                .row(
                    "  absorbed",
                    format!(
                        "{} fell, {} left the mesh ({:.4} of all strides)",
                        l.chain.fallen, l.chain.left_mesh, l.chain.absorbed_fraction
                    ),
                );
            if let Some(n) = &l.chain.note {
                t.row("  chain note", n.clone());
            }
            let mc = &l.monte_carlo;
            match (mc.mean, mc.ci) {
                (Some(m), Some([lo, hi])) => t.row(
                    "  Monte Carlo",
                    format!(
                        "{} [{}, {}] ({} censored)",
                        format::number(m, 14),
                        format::number(lo, 12),
                        format::number(hi, 12),
                        mc.censored
                    ),
                ),
                _ => t.row(
                    "  Monte Carlo",
                    mc.note.clone().unwrap_or_else(|| "no estimate".into()),
                ),
            };
            for w in &l.warnings {
                t.row("  WARNING", w.clone());
            }
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

/// Runs `saltation mfpt`.
pub fn run(args: &MfptArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let loaded = args.model.load()?;
    loaded.require_forcing()?;
    let (plan, k) = plan(args, &loaded)?;
    saltation_report::check_destination(&args.out)?;
    if let Some((i, n)) = shard {
        let data = compute(args, &loaded, &plan, k, (i, n))?;
        let text = saltation_scenario::read_text_file(&args.model.file)?;
        let file = MfptShardFile::new(&loaded, &text, &args.model.set, &plan, i, n, &data);
        let path = file.write(&args.out, &args.model.file)?;
        let msg = if args.json {
            serde_json::to_string(&serde_json::json!({
                "shard": i, "of": n, "file": path.display().to_string()
            }))? + "\n"
        } else {
            format!("shard {i}/{n}\nfile written\n  {}\n", path.display())
        };
        out.write_all(msg.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let data = compute(args, &loaded, &plan, k, (0, 1))?;
    finish(&plan, &data, &args.out, &args.model.file, args.json, out)
}
