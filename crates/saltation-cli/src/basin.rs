//! `saltation basin`: the basins of attraction of a model's periodic orbits on its section
//! ([`saltation_continuation::basin`]): a grid of starts over one or two reduced coordinates,
//! each iterated by the stride map until it returns to within a tolerance after `k` strides
//! (period `k`), fails (a failure guard: the walker falls; or any stride error), or stays
//! undecided after `--strides` strides; the attractors by Newton from the converged iterates,
//! with their multipliers.
//!
//! `--axes NAME=a:b:N[,NAME=c:d:M]`: `N` values of coordinate `NAME` from `a` to `b` (and `M`
//! of a second one); `NAME` is a reduced coordinate's state name or `u0`, `u1`, … (its index).
//! The coordinates on no axis are `--at NAME=VALUE` where given, otherwise those of the first
//! attractor: the file's first guess solved by Newton. Cells are row-major: cell `(i, j)`
//! (value `i` of the first axis, `j` of the second) is `cells[i·M + j]`.
//!
//! `--shard i/N` (`0 ≤ i < N`) computes the cells `i, i + N, i + 2N, …` (interleaved, so every
//! shard gets a share of the slow cells) and writes `<stem>_basin_shard_<i>_of_<N>.json` to
//! `--out`; `saltation merge DIR…` joins the shards of one run into exactly the unsharded
//! result ([`crate::merge`]). The result depends only on the cells' outcomes: identical byte
//! for byte at any thread count (`RAYON_NUM_THREADS`) and however it was sharded.

use crate::basin_json::{self, BasinRun};
use crate::input::{parse_set, LoadedModel, ModelArgs};
use crate::merge::ShardFile;
use crate::progress::ScriptBar;
use crate::CliError;
use clap::Args;
use saltation_continuation::basin::{
    basin_cells, BasinAxis, BasinGrid, BasinOptions, StartOutcome,
};
use saltation_continuation::ContinuationError;
use saltation_hybrid::EvalModel;
use saltation_report as report;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `saltation basin`.
#[derive(Debug, Clone, Args)]
pub struct BasinArgs {
    /// The model file and parameter overrides.
    #[command(flatten)]
    pub model: ModelArgs,

    /// The grid: NAME=a:b:N[,NAME=c:d:M] (NAME a reduced coordinate's state name, or u0, u1, …).
    #[arg(
        long,
        value_name = "NAME=a:b:N[,NAME=c:d:M]",
        allow_hyphen_values = true
    )]
    pub axes: String,

    /// A coordinate on no axis (repeatable); the others are the first attractor's.
    #[arg(long = "at", value_name = "NAME=VALUE", allow_hyphen_values = true)]
    pub at: Vec<String>,

    /// Strides per start before it is undecided (default 50).
    #[arg(long, value_name = "K")]
    pub strides: Option<usize>,

    /// Largest return period detected, in strides (default 8).
    #[arg(long, value_name = "K")]
    pub max_period: Option<usize>,

    /// Compute only shard i of N (0 ≤ i < N: cells i, i+N, …) and write its shard file.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,

    /// Directory for the JSON, the figure or the shard file (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Print one JSON object: {"axes": [{"name", "from", "to", "count"}], "attractors":
    /// [{"id", "label", "x0", "period_k", "multipliers", …}], "cells": [...] (row-major:
    /// attractor id ≥ 0, −1 failed, −2 undecided), "fractions": {id or "failed"/"undecided":
    /// fraction}, "failure_causes", "undecided_causes"}.
    #[arg(long)]
    pub json: bool,
}

fn bad(arg: impl Into<String>, reason: impl Into<String>) -> CliError {
    CliError::BadArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

/// The index of the reduced coordinate `name`: a name of [`saltation_hybrid::reduced_names`]
/// or `u<i>`; unknown names get the nearest known ones.
pub fn coordinate(name: &str, names: &[String], arg: &str) -> Result<usize, CliError> {
    if let Some(i) = names.iter().position(|n| n == name) {
        return Ok(i);
    }
    if let Some(i) = name
        .strip_prefix('u')
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&i| i < names.len() && name == format!("u{i}"))
    {
        return Ok(i);
    }
    let mut known: Vec<String> = names.to_vec();
    known.extend((0..names.len()).map(|i| format!("u{i}")));
    known.dedup();
    let hint = saltation_equations::did_you_mean(&saltation_equations::suggest(
        name,
        known.iter().map(String::as_str),
    ));
    Err(bad(
        arg,
        format!(
            "unknown section coordinate `{name}`{hint}; the section's are {}",
            known
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ))
}

/// A finite number (or a constant expression such as `-pi/8`).
fn number(s: &str, arg: &str) -> Result<f64, CliError> {
    let (_, v) = parse_set(&format!("x={s}")).map_err(|e| {
        bad(
            arg,
            format!("`{s}` is not a finite number ({})", e.message()),
        )
    })?;
    Ok(v)
}

/// Parses `--axes NAME=a:b:N[,NAME=c:d:M]`.
pub fn parse_axes(arg: &str, names: &[String]) -> Result<Vec<BasinAxis>, CliError> {
    let flag = format!("--axes {arg}");
    let n = arg.split(',').count();
    if n > saltation_continuation::basin::MAX_BASIN_AXES {
        return Err(bad(&flag, format!("{n} axes: give one or two")));
    }
    parse_axis_list(arg, names, &flag)
}

/// Parses `NAME=a:b:N[,NAME=c:d:M,…]`, any number of axes, each on its own coordinate of
/// `names`; errors name `flag`. (The grid's own checks —
/// finite ends, the size — are [`saltation_continuation::basin::BasinGrid::validate_axes`].)
pub fn parse_axis_list(
    arg: &str,
    names: &[String],
    flag: &str,
) -> Result<Vec<BasinAxis>, CliError> {
    let parts: Vec<&str> = arg.split(',').collect();
    let two = parts.len() == 2;
    let flag = flag.to_string();
    let mut axes = Vec::new();
    for p in parts {
        let Some((name, range)) = p.split_once('=') else {
            return Err(bad(&flag, format!("`{p}` is not NAME=a:b:N")));
        };
        let name = name.trim();
        let r: Vec<&str> = range.split(':').collect();
        let [a, b, n] = r.as_slice() else {
            return Err(bad(&flag, format!("`{p}` is not NAME=a:b:N")));
        };
        let count: usize = n.trim().parse().map_err(|_| {
            bad(
                &flag,
                format!("the count `{n}` of `{name}` is not a whole number"),
            )
        })?;
        if count == 0 {
            return Err(bad(
                &flag,
                format!("the count of `{name}` must be at least 1"),
            ));
        }
        let index = coordinate(name, names, &flag)?;
        if axes.iter().any(|x: &BasinAxis| x.index == index) {
            let on = if two { "both axes" } else { "two axes" };
            return Err(bad(&flag, format!("`{name}` is on {on}")));
        }
        axes.push(BasinAxis {
            name: names[index].clone(),
            index,
            from: number(a.trim(), &flag)?,
            to: number(b.trim(), &flag)?,
            count,
        });
    }
    Ok(axes)
}

/// Parses `--shard i/N`: `(i, N)` with `0 ≤ i < N`.
pub fn parse_shard(arg: &str) -> Result<(usize, usize), CliError> {
    let flag = format!("--shard {arg}");
    let Some((i, n)) = arg.split_once('/') else {
        return Err(bad(&flag, "expected i/N, e.g. 0/8"));
    };
    let (Ok(i), Ok(n)) = (i.trim().parse::<usize>(), n.trim().parse::<usize>()) else {
        return Err(bad(&flag, "i and N must be whole numbers, e.g. 0/8"));
    };
    if n == 0 {
        return Err(bad(&flag, "N must be at least 1"));
    }
    if i >= n {
        return Err(bad(
            &flag,
            format!("i must be below N (0 ≤ i < {n}; shards count from 0)"),
        ));
    }
    Ok((i, n))
}

/// The basin settings of the arguments.
pub fn options(args: &BasinArgs) -> Result<BasinOptions, CliError> {
    let mut o = BasinOptions::default();
    if let Some(k) = args.strides {
        o.strides = k;
    }
    if let Some(k) = args.max_period {
        o.max_period = k;
    }
    o.validate().map_err(|e| match e {
        ContinuationError::InvalidOption { field, reason } => {
            let flag = field.replace('_', "-");
            bad(format!("--{flag}"), reason)
        }
        e => CliError::Continuation(e),
    })?;
    Ok(o)
}

/// The grid: the axes, and the other coordinates from `--at` or the first attractor.
pub fn grid(args: &BasinArgs, loaded: &LoadedModel) -> Result<BasinGrid, CliError> {
    let model = &loaded.file.model;
    let names = saltation_hybrid::reduced_names(model);
    let axes = parse_axes(&args.axes, &names)?;
    let mut given: Vec<Option<f64>> = vec![None; names.len()];
    for a in &axes {
        given[a.index] = Some(a.from);
    }
    for at in &args.at {
        let flag = format!("--at {at}");
        let Some((name, value)) = at.split_once('=') else {
            return Err(bad(&flag, "expected NAME=VALUE"));
        };
        let i = coordinate(name.trim(), &names, &flag)?;
        if given[i].is_some() {
            return Err(bad(
                &flag,
                format!(
                    "`{}` is already given (an axis or an earlier --at)",
                    names[i]
                ),
            ));
        }
        given[i] = Some(number(value.trim(), &flag)?);
    }
    let base = if given.iter().all(Option::is_some) {
        given.iter().map(|v| v.unwrap_or(0.0)).collect()
    } else {
        let start = crate::input::first_guess(loaded)?;
        let solved = crate::orbit::solve(model, &start, &loaded.file.orbit)
            .map_err(|e| crate::error::explain(e, model))?;
        solved
            .orbit
            .u0
            .iter()
            .zip(&given)
            .map(|(u, g)| g.unwrap_or(*u))
            .collect()
    };
    let g = BasinGrid { axes, base };
    g.validate(model.reduced_dim())
        .map_err(|e| bad(format!("--axes {}", args.axes), e.to_string()))?;
    Ok(g)
}

/// The outcomes of `cells` with a progress line.
pub(crate) fn outcomes(
    loaded: &LoadedModel,
    g: &BasinGrid,
    opts: &BasinOptions,
    cells: &[usize],
) -> Result<Vec<StartOutcome>, CliError> {
    let mut bar = ScriptBar::new("basin");
    bar.start_counted("basin", cells.len(), "starts");
    let r = outcomes_with(loaded, g, opts, cells, &|done, total| {
        bar.set_done(done, total)
    });
    bar.finish();
    r
}

/// The outcomes of `cells`, each finished cell reported to `on_cell(done, total)` (from the
/// worker threads).
pub fn outcomes_with(
    loaded: &LoadedModel,
    g: &BasinGrid,
    opts: &BasinOptions,
    cells: &[usize],
    on_cell: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<StartOutcome>, CliError> {
    basin_cells(
        &loaded.file.model,
        &loaded.file.orbit.stride,
        g,
        opts,
        cells,
        on_cell,
    )
    .map_err(|e| {
        if e.is_input_error() {
            bad("basin", e.to_string())
        } else {
            CliError::Continuation(e)
        }
    })
}

/// The cells of shard `i` of `n` of a grid of `total` cells: `i, i + n, i + 2n, …`.
pub fn shard_cells(i: usize, n: usize, total: usize) -> Vec<usize> {
    (i..total).step_by(n.max(1)).collect()
}

/// Runs `saltation basin`.
pub fn run(args: &BasinArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let opts = options(args)?;
    let loaded = args.model.load()?;
    loaded.require_forcing()?;
    let g = grid(args, &loaded)?;
    report::check_destination(&args.out)?;
    let total = g.cells();
    if let Some((i, n)) = shard {
        let cells = shard_cells(i, n, total);
        let outs = outcomes(&loaded, &g, &opts, &cells)?;
        let text = saltation_scenario::read_text_file(&args.model.file)?;
        let file = ShardFile::new(&loaded, &text, &args.model.set, &g, &opts, i, n, &outs);
        let path = file.write(&args.out, &args.model.file)?;
        let msg = if args.json {
            serde_json::to_string(&serde_json::json!({
                "shard": i, "of": n, "cells": cells.len(), "file": path.display().to_string()
            }))? + "\n"
        } else {
            format!(
                "shard {i}/{n}: {} of {total} cells\nfile written\n  {}\n",
                cells.len(),
                path.display()
            )
        };
        out.write_all(msg.as_bytes())?;
        out.flush()?;
        return Ok(());
    }
    let all: Vec<usize> = (0..total).collect();
    let outs = outcomes(&loaded, &g, &opts, &all)?;
    let run = BasinRun {
        model: &loaded.file.model,
        orbit: &loaded.file.orbit,
        opts: &opts,
        grid: &g,
        path: &loaded.path,
        stem_of: &args.model.file,
    };
    basin_json::finish(&run, &outs, &args.out, args.json, out)
}
