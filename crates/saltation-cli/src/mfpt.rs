//! `saltation mfpt`: the mean first-passage time of a gait on rough terrain
//! ([`saltation_continuation::mfpt`]) — parameter `--param` drawn afresh at every stride from
//! `--distribution normal(mean,sd)|uniform(a,b)` — by Byl & Tedrake's mesh Markov chain and
//! by Monte Carlo, side by side.
//!
//! The nominal orbit is the periodic orbit at the distribution's mean, by Newton from the
//! file's first guess. `--method both|chain|monte-carlo` picks the methods (default both;
//! [`crate::mfpt_plan`]). The chain: `--mesh NAME=a:b:N[,NAME=c:d:M,…]` (the syntax of
//! `basin --axes`, one axis per reduced coordinate, any number), `--samples K` stratified
//! terrain quantiles per mesh point (default 200); a stride that fails, or ends outside the mesh's box, is
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

use crate::basin::parse_shard;
use crate::format::{self, KeyValue};
use crate::input::{LoadedModel, ModelArgs};
use crate::mfpt_plan::{bad, input_error};
pub use crate::mfpt_plan::{parse_roughness, plan, Method, Plan};
use crate::mfpt_shard::MfptShardFile;
use crate::progress::ScriptBar;
use crate::CliError;
use clap::Args;
use saltation_continuation::mfpt::{
    agreement, chain_rows, mc_runs, solve_chain, summarize, ChainOptions, ChainRow, ChainSolution,
    McRun, McSummary,
};
use saltation_continuation::ContinuationError;
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

    /// The methods: both (default), chain, or monte-carlo (needs no mesh).
    #[arg(long, value_enum, value_name = "both|chain|monte-carlo")]
    pub method: Option<Method>,

    /// The chain's mesh, one axis per reduced coordinate: NAME=a:b:N[,NAME=c:d:M,…] (needed
    /// unless --method monte-carlo).
    #[arg(
        long,
        value_name = "NAME=a:b:N[,NAME=c:d:M,...]",
        allow_hyphen_values = true
    )]
    pub mesh: Option<String>,

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
    /// {"mean", "ci", "runs", "censored", …}}]}; the keys of a method that does not run are
    /// absent ("mesh", "samples" and every "chain" without the chain; "runs", "max_steps",
    /// "seed" and every "monte_carlo" without Monte Carlo).
    #[arg(long)]
    pub json: bool,
}

/// One level's transitions and walks (all of them, or a shard's).
#[derive(Debug, Clone, PartialEq)]
pub struct LevelData {
    /// Rows of the chain, by mesh point.
    pub rows: Vec<ChainRow>,
    /// The walks, by run.
    pub runs: Vec<McRun>,
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
    let cells: Vec<usize> = (i..plan.cells()).step_by(n).collect();
    let runs: Vec<usize> = (i..plan.runs).step_by(n).collect();
    let mut out = Vec::new();
    for l in 0..plan.levels.len() {
        let t = plan.terrain_at(l).map_err(|e| input_error(args, e))?;
        let sd = plan.levels[l];
        let mut rows = Vec::new();
        if let Some(mesh) = &plan.mesh {
            let samples = t.stratified(plan.samples);
            on(Progress::Start {
                level: l,
                sd,
                chain: true,
                total: cells.len(),
            });
            rows = chain_rows(model, k, &samples, stride, mesh, &cells, &|done, total| {
                on(Progress::Done {
                    chain: true,
                    done,
                    total,
                })
            })
            .map_err(|e| input_error(args, e))?;
        }
        let mut walks = Vec::new();
        if plan.monte_carlo() {
            on(Progress::Start {
                level: l,
                sd,
                chain: false,
                total: runs.len(),
            });
            walks = mc_runs(
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
            )
            .map_err(|e| input_error(args, e))?;
        }
        out.push(LevelData { rows, runs: walks });
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
    /// The chain's results (absent when the chain did not run, `--method monte-carlo`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainSolution>,
    /// Monte Carlo's (absent when it did not run, `--method chain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monte_carlo: Option<McSummary>,
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
    /// The mesh: axes and points (absent without the chain).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mesh: Option<serde_json::Value>,
    /// Samples per point (absent without the chain).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub samples: Option<usize>,
    /// Runs (absent without Monte Carlo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs: Option<usize>,
    /// Stride cap per run (absent without Monte Carlo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<usize>,
    /// Seed (absent without Monte Carlo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
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
        let chain = match &plan.mesh {
            Some(mesh) => Some(
                solve_chain(
                    mesh,
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
                })?,
            ),
            None => None,
        };
        let monte_carlo = plan.monte_carlo().then(|| summarize(&d.runs));
        levels.push(LevelJson {
            sd: plan.levels[l],
            distribution: t.label(),
            warnings: chain
                .as_ref()
                .map_or_else(Vec::new, |c| agreement(c, monte_carlo.as_ref())),
            chain,
            monte_carlo,
        });
    }
    Ok(MfptJson {
        model: plan.model_name.clone(),
        param: plan.param.clone(),
        distribution: plan.terrain.label(),
        mesh: plan.mesh.as_ref().map(|m| {
            serde_json::json!({
                "axes": m.axes.iter().map(|a| serde_json::json!({
                    "name": a.name, "from": a.from, "to": a.to, "count": a.count
                })).collect::<Vec<_>>(),
                "points": m.cells(),
            })
        }),
        samples: plan.mesh.is_some().then_some(plan.samples),
        runs: plan.monte_carlo().then_some(plan.runs),
        max_steps: plan.monte_carlo().then_some(plan.max_steps),
        seed: plan.monte_carlo().then_some(plan.seed),
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
                chain_mfpt: l.chain.as_ref().and_then(|c| c.mfpt),
                chain_steps: l.chain.as_ref().and_then(|c| c.expected_steps),
                mc_mean: l.monte_carlo.as_ref().and_then(|m| m.mean),
                mc_ci: l.monte_carlo.as_ref().and_then(|m| m.ci),
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
            .row("nominal orbit u0", format!("{:?}", plan.u0));
        if let Some(mesh) = &plan.mesh {
            t.row(
                "mesh",
                format!("{} points × {} samples", mesh.cells(), plan.samples),
            );
        }
        if plan.monte_carlo() {
            t.row(
                "Monte Carlo",
                format!(
                    "{} runs, at most {} strides, seed {}",
                    plan.runs, plan.max_steps, plan.seed
                ),
            );
        }
        let time = |v: Option<f64>| v.map_or("infinite".into(), |v| format::number(v, 14));
        for l in &j.levels {
            t.row(format!("sd {}", l.sd), l.distribution.clone());
            if let Some(c) = &l.chain {
                t.row("  chain 1/(1 − λ₂)", time(c.mfpt))
                    .row("  chain λ₂", format::number(c.lambda2, 14))
                    .row("  chain from the orbit", time(c.expected_steps))
                    .row(
                        "  absorbed",
                        format!(
                            "{} fell, {} left the mesh ({:.4} of all strides)",
                            c.fallen, c.left_mesh, c.absorbed_fraction
                        ),
                    );
                if let Some(n) = &c.note {
                    t.row("  chain note", n.clone());
                }
            }
            if let Some(mc) = &l.monte_carlo {
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
            }
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
