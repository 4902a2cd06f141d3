//! The analyses beyond one orbit, as functions of a `_Model`: two-parameter curves
//! (`saltation curve`), basins of attraction and their shards (`saltation basin`, `saltation
//! merge`), Lyapunov exponents (`saltation lyapunov`), the gait sensitivity norm
//! (`saltation sensitivity`) and the mean first-passage time on rough terrain and its shards
//! (`saltation mfpt`, `saltation merge`). Each runs the command's own library function with the
//! GIL released and returns the command's `--json` object as text with the result's numpy arrays
//! ([`crate::results`]); errors carry the command's messages ([`crate::errors`]).

use crate::errors::{Failure, Op, Outcome};
use crate::model::{detached, list, no_file, to_json, PyModel};
use crate::options::{drop_nulls, merge};
use crate::progress::{Item, Reporter};
use crate::results;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use saltation_cli::basin::{self, BasinArgs};
use saltation_cli::basin_json as basin_result;
use saltation_cli::curve::{self, CurveArgs};
use saltation_cli::input::{GuessArgs, LoadedModel};
use saltation_cli::merge::{self as shards, ShardFile};
use saltation_cli::mfpt::{self, MfptArgs};
use saltation_cli::mfpt_shard::MfptShardFile;
use saltation_cli::{explain, lyapunov, report, sensitivity, CliError};
use saltation_continuation::CurveOptions;
use serde_json::Value;
use std::path::PathBuf;

/// Runs `work` with the GIL released ([`detached`]), its progress reported to the callback
/// `progress` ([`Reporter`]); an exception the callback raised is the call's error, before the
/// work's own.
fn reported<T: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(&Reporter) -> Outcome<T> + Send,
) -> PyResult<T> {
    let reporter = Reporter::new(progress);
    let out = detached(py, || work(&reporter));
    if let Some(e) = reporter.take_raised() {
        return Err(e);
    }
    out
}

/// The command's error as the failure of `op`, with the model's report of a non-finite value
/// where that explains it ([`explain`]).
fn failure(loaded: &LoadedModel, op: Op) -> impl Fn(CliError) -> Failure + Copy + '_ {
    move |e| Failure::from_cli(&explain(e, &loaded.file.model), op)
}

/// A result with its JSON text ([`to_json`]).
fn with_json<T: serde::Serialize>(value: T, op: Op) -> Outcome<(T, String)> {
    let text = to_json(&value, op)?;
    Ok((value, text))
}

/// Shard files from their texts `parts`, read by `read(text, origin)`; shard `k` is named
/// `parts[k]` (its path, and `merge parts[k]` as the origin in messages).
fn shard_files<F>(
    parts: &[String],
    read: impl Fn(&str, &str) -> Result<F, CliError>,
) -> Result<Vec<(PathBuf, F)>, CliError> {
    parts
        .iter()
        .enumerate()
        .map(|(k, text)| {
            let name = format!("parts[{k}]");
            read(text, &format!("merge {name}")).map(|f| (PathBuf::from(name), f))
        })
        .collect()
}

/// The curve's options with the overrides `over` (a JSON object: `search`, `codim2`, and the
/// continuation settings' fields — `step`, `max_points`, … — by name), read back with the
/// options' own checks (unknown names refused).
fn curve_overrides(opts: &mut CurveOptions, over: &str) -> Result<(), CliError> {
    let bad = |reason: String| CliError::BadArgument {
        arg: "options".into(),
        reason,
    };
    let over: Value = serde_json::from_str(over).map_err(|e| bad(e.to_string()))?;
    let Value::Object(items) = over else {
        return Err(bad("must be a mapping".into()));
    };
    let mut nested = serde_json::Map::new();
    let mut settings = serde_json::Map::new();
    for (k, v) in items {
        if k == "search" || k == "codim2" {
            nested.insert(k, v);
        } else {
            settings.insert(k, v);
        }
    }
    nested.insert("settings".into(), Value::Object(settings));
    let mut value = serde_json::to_value(&*opts).map_err(|e| bad(e.to_string()))?;
    drop_nulls(&mut value);
    merge(&mut value, &Value::Object(nested));
    let to2 = opts.to2;
    *opts = serde_json::from_value(value).map_err(|e| bad(format!("invalid option: {e}")))?;
    opts.to2 = to2;
    Ok(())
}

/// Continues a codimension-one bifurcation in two parameters: JSON of `saltation curve
/// --json` and the arrays. `options` is a JSON object of overrides (see [`curve_overrides`]);
/// `shooting` is `--shooting`'s word (`single`, `phases` or a number of pieces per phase).
#[pyfunction]
#[pyo3(signature = (model, kind, param, param2, to2, guess=None, options=None, progress=None, shooting=None))]
#[allow(clippy::too_many_arguments)]
pub fn curve_json<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyModel>,
    kind: String,
    param: String,
    param2: String,
    to2: f64,
    guess: Option<Vec<f64>>,
    options: Option<String>,
    progress: Option<Py<PyAny>>,
    shooting: Option<String>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let loaded = &model.get().loaded;
    let (c, text) = reported(py, progress, move |rep| {
        let fail = |e: CliError| Failure::from_cli(&e, Op::Continuation);
        let shooting = shooting
            .as_deref()
            .map(saltation_cli::orbit::parse_shooting)
            .transpose()
            .map_err(|reason| {
                fail(CliError::BadArgument {
                    arg: "shooting".into(),
                    reason,
                })
            })?;
        let args = CurveArgs {
            model: no_file(),
            kind,
            param,
            param2,
            to2,
            direction: "forward".into(),
            guess: guess.as_deref().map(list),
            shooting,
            out: PathBuf::new(),
            json: true,
        };
        let apply = |o: &mut CurveOptions| match &options {
            Some(text) => curve_overrides(o, text),
            None => Ok(()),
        };
        let planned = curve::plan(&args, loaded, Some(&apply)).map_err(fail)?;
        let c = curve::compute(&args, loaded, &planned, &mut |p| {
            rep.report((
                "curve",
                vec![
                    ("points", Item::Int(p.points)),
                    ("max_points", Item::Int(p.max_points)),
                    ("p", Item::Float(p.params[0])),
                    ("p2", Item::Float(p.params[1])),
                    ("step", Item::Float(p.step)),
                ],
            ))
        })
        .map_err(fail)?;
        let text = to_json(
            &report::curve_json(&loaded.file.model, &c),
            Op::Continuation,
        )?;
        Ok((c, text))
    })?;
    Ok((text, results::curve_arrays(py, &c)?))
}

/// The basin of attraction on a grid (`axes`, `at` as the command's `--axes`, `--at`):
/// the whole basin (JSON of `saltation basin --json` and the arrays), or with `shard = (i, n)`
/// the text of shard `i` of `n`'s file (as `saltation basin --shard` writes it) and `None`.
#[pyfunction]
#[pyo3(signature = (model, axes, at=Vec::new(), strides=None, max_period=None, shard=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn basin_json<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyModel>,
    axes: String,
    at: Vec<String>,
    strides: Option<usize>,
    max_period: Option<usize>,
    shard: Option<(usize, usize)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<(String, Option<Bound<'py, PyDict>>)> {
    let m = model.get();
    let loaded = &m.loaded;
    let sets = m.sets();
    let out = reported(py, progress, move |rep| {
        let fail = failure(loaded, Op::Basin);
        let shard_arg = shard.map(|(i, n)| format!("{i}/{n}"));
        if let Some(s) = &shard_arg {
            basin::parse_shard(s).map_err(fail)?;
        }
        let args = BasinArgs {
            model: no_file(),
            axes,
            at,
            strides,
            max_period,
            shard: shard_arg,
            out: PathBuf::new(),
            json: true,
        };
        let opts = basin::options(&args).map_err(fail)?;
        loaded.require_forcing().map_err(fail)?;
        let g = basin::grid(&args, loaded).map_err(fail)?;
        let total = g.cells();
        let cells = match shard {
            Some((i, n)) => basin::shard_cells(i, n, total),
            None => (0..total).collect(),
        };
        rep.report(("basin_started", vec![("total", Item::Int(cells.len()))]));
        let report = |done: usize, total: usize| {
            rep.report((
                "basin",
                vec![("done", Item::Int(done)), ("total", Item::Int(total))],
            ))
        };
        let outs = basin::outcomes_with(loaded, &g, &opts, &cells, &report).map_err(fail)?;
        match shard {
            Some((i, n)) => {
                let file = ShardFile::new(loaded, &m.text, &sets, &g, &opts, i, n, &outs);
                Ok(Err(file.to_text().map_err(fail)?))
            }
            None => {
                let (r, text) =
                    basin_result::result(&loaded.file.model, &loaded.file.orbit, &opts, &g, &outs)
                        .map_err(fail)?;
                Ok(Ok((r, text)))
            }
        }
    })?;
    Ok(match out {
        Ok((r, text)) => (text, Some(results::basin_arrays(py, &r)?)),
        Err(shard_text) => (shard_text, None),
    })
}

/// Joins basin shards (their files' texts, in any order) into exactly the unsharded basin,
/// as `saltation merge` does: JSON of `saltation merge --json` and the arrays. Shard `k` is
/// named `parts[k]` in messages.
#[pyfunction]
pub fn merge_basins_json(
    py: Python<'_>,
    parts: Vec<String>,
) -> PyResult<(String, Bound<'_, PyDict>)> {
    let out = detached(py, move || -> Outcome<_> {
        let fail = |e: CliError| Failure::from_cli(&e, Op::Basin);
        let files = shard_files(&parts, ShardFile::from_text).map_err(fail)?;
        let m = shards::merge(&files).map_err(fail)?;
        basin_result::result(&m.file.model, &m.file.orbit, &m.opts, &m.grid, &m.cells).map_err(fail)
    })?;
    let (r, text) = out;
    Ok((text, results::basin_arrays(py, &r)?))
}

/// Lyapunov exponents from `guess` (`None`: the file's first guess) over `strides` strides:
/// JSON of `saltation lyapunov --json` and the arrays.
#[pyfunction]
#[pyo3(signature = (model, guess=None, strides=None))]
pub fn lyapunov_json<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyModel>,
    guess: Option<Vec<f64>>,
    strides: Option<usize>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let loaded = &model.get().loaded;
    let (s, text) = detached(py, move || {
        let fail = failure(loaded, Op::Lyapunov);
        loaded.require_forcing().map_err(fail)?;
        with_json(
            lyapunov::compute(loaded, guess, strides).map_err(fail)?,
            Op::Lyapunov,
        )
    })?;
    Ok((text, results::lyapunov_arrays(py, &s)?))
}

/// The gait sensitivity norm for a one-stride change of `disturbance`, at the orbit from
/// `guess` (reduced coordinates) or the guess labelled `label` (neither: the file's first):
/// JSON of `saltation sensitivity --json` and the arrays.
#[pyfunction]
#[pyo3(signature = (model, disturbance, guess=None, label=None))]
pub fn sensitivity_json<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyModel>,
    disturbance: String,
    guess: Option<Vec<f64>>,
    label: Option<String>,
) -> PyResult<(String, Bound<'py, PyDict>)> {
    let loaded = &model.get().loaded;
    let (j, text) = detached(py, move || {
        let fail = failure(loaded, Op::Sensitivity);
        loaded.require_forcing().map_err(fail)?;
        let g = GuessArgs {
            guess: guess.as_deref().map(list),
            guess_label: label,
            all: false,
        };
        with_json(
            sensitivity::compute(loaded, &g, &disturbance).map_err(fail)?,
            Op::Sensitivity,
        )
    })?;
    Ok((text, results::sensitivity_arrays(py, &j)?))
}

/// The mean first-passage time on rough terrain, `param` drawn from `distribution` at every
/// stride (the arguments as `saltation mfpt`'s flags): JSON of `saltation mfpt --json` and the
/// arrays, or with `shard = (i, n)` the text of shard `i` of `n`'s file (as `saltation mfpt
/// --shard` writes it) and `None`. No figure is written.
#[pyfunction]
#[pyo3(signature = (model, param, distribution, mesh=None, samples=None, runs=None, max_steps=None, seed=None, roughness=None, shard=None, progress=None, method=None))]
#[allow(clippy::too_many_arguments)]
pub fn mfpt_json<'py>(
    py: Python<'py>,
    model: &Bound<'py, PyModel>,
    param: String,
    distribution: String,
    mesh: Option<String>,
    samples: Option<usize>,
    runs: Option<usize>,
    max_steps: Option<usize>,
    seed: Option<u64>,
    roughness: Option<String>,
    shard: Option<(usize, usize)>,
    progress: Option<Py<PyAny>>,
    method: Option<String>,
) -> PyResult<(String, Option<Bound<'py, PyDict>>)> {
    let m = model.get();
    let loaded = &m.loaded;
    let sets = m.sets();
    let out = reported(py, progress, move |rep| {
        let fail = failure(loaded, Op::Mfpt);
        let shard_arg = shard.map(|(i, n)| format!("{i}/{n}"));
        let parts = match &shard_arg {
            Some(s) => basin::parse_shard(s).map_err(fail)?,
            None => (0, 1),
        };
        let method = method
            .as_deref()
            .map(mfpt::Method::parse)
            .transpose()
            .map_err(fail)?;
        let args = MfptArgs {
            model: no_file(),
            param,
            distribution,
            method,
            mesh,
            samples,
            runs,
            max_steps,
            seed,
            roughness,
            shard: shard_arg,
            out: PathBuf::new(),
            json: true,
        };
        loaded.require_forcing().map_err(fail)?;
        let (plan, k) = mfpt::plan(&args, loaded).map_err(fail)?;
        let on = |e: mfpt::Progress| match e {
            mfpt::Progress::Start {
                level,
                sd,
                chain,
                total,
            } => rep.report((
                "mfpt_started",
                vec![
                    ("level", Item::Int(level)),
                    ("sd", Item::Float(sd)),
                    (
                        "part",
                        Item::Text(if chain { "chain" } else { "monte_carlo" }),
                    ),
                    ("total", Item::Int(total)),
                ],
            )),
            mfpt::Progress::Done { done, total, .. } => rep.report((
                "mfpt",
                vec![("done", Item::Int(done)), ("total", Item::Int(total))],
            )),
        };
        let data = mfpt::compute_with(&args, loaded, &plan, k, parts, &on).map_err(fail)?;
        match shard {
            Some((i, n)) => {
                let file = MfptShardFile::new(loaded, &m.text, &sets, &plan, i, n, &data);
                Ok(Err(file.to_text().map_err(fail)?))
            }
            None => Ok(Ok(with_json(
                mfpt::result(&plan, &data).map_err(fail)?,
                Op::Mfpt,
            )?)),
        }
    })?;
    Ok(match out {
        Ok((j, text)) => (text, Some(results::mfpt_arrays(py, &j)?)),
        Err(shard_text) => (shard_text, None),
    })
}

/// Joins mfpt shards (their files' texts, in any order) into exactly the unsharded result, as
/// `saltation merge` does: JSON of `saltation merge --json` and the arrays. Shard `k` is named
/// `parts[k]` in messages.
#[pyfunction]
pub fn merge_mfpt_json(
    py: Python<'_>,
    parts: Vec<String>,
) -> PyResult<(String, Bound<'_, PyDict>)> {
    let (j, text) = detached(py, move || -> Outcome<_> {
        let fail = |e: CliError| Failure::from_cli(&e, Op::Mfpt);
        let files = shard_files(&parts, MfptShardFile::from_text).map_err(fail)?;
        let (plan, data) = saltation_cli::mfpt_shard::join_shards(&files).map_err(fail)?;
        with_json(mfpt::result(&plan, &data).map_err(fail)?, Op::Mfpt)
    })?;
    Ok((text, results::mfpt_arrays(py, &j)?))
}
