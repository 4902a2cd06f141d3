//! Shard files of `saltation basin --shard i/N` and `saltation merge DIR…`, which joins them
//! into exactly the unsharded result.
//!
//! A shard file (`<stem>_basin_shard_<i>_of_<N>.json`) holds the run's header — the model
//! file's text, its origin and `--set` overrides, the grid and the basin settings — and the
//! outcomes of its cells `i, i + N, …`. Numbers that must survive exactly (the grid, the
//! converged iterates) are stored as the bits of their `f64` (`f64::to_bits`), so the merge
//! sees the very values the shards computed. The merge checks that all shards share one
//! header and that each of `0..N` is there once, then identifies the attractors over all cells
//! in order, as the unsharded run does.

use crate::basin_json::{self, BasinRun};
use crate::input::LoadedModel;
use crate::CliError;
use clap::Args;
use saltation_continuation::basin::{BasinAxis, BasinGrid, BasinOptions, StartOutcome};
use saltation_report as report;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The format tag of shard files.
const FORMAT: &str = "saltation-basin-shard/1";

/// Largest shard file read (bytes): 4 GB.
pub(crate) const MAX_SHARD_BYTES: u64 = 4 << 30;

/// Floats as their bit patterns, so that a shard file round-trips them exactly.
pub(crate) fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// The floats back from [`bits`].
pub(crate) fn floats(v: &[u64]) -> Vec<f64> {
    v.iter().map(|b| f64::from_bits(*b)).collect()
}

/// An axis with exact ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct AxisBits {
    pub(crate) name: String,
    pub(crate) index: usize,
    pub(crate) from: u64,
    pub(crate) to: u64,
    pub(crate) count: usize,
}

impl AxisBits {
    /// The axis with its ends as bits.
    pub(crate) fn of(a: &BasinAxis) -> Self {
        Self {
            name: a.name.clone(),
            index: a.index,
            from: a.from.to_bits(),
            to: a.to.to_bits(),
            count: a.count,
        }
    }

    /// The axis back.
    pub(crate) fn axis(&self) -> BasinAxis {
        BasinAxis {
            name: self.name.clone(),
            index: self.index,
            from: f64::from_bits(self.from),
            to: f64::from_bits(self.to),
            count: self.count,
        }
    }
}

/// What every shard of one run shares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    format: String,
    model_origin: String,
    model_text: String,
    sets: Vec<String>,
    axes: Vec<AxisBits>,
    base: Vec<u64>,
    strides: usize,
    max_period: usize,
    tol: u64,
    dedup_tol: u64,
    shards: usize,
}

/// One cell's outcome with exact numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum OutcomeBits {
    Converged {
        u: Vec<u64>,
        mode: usize,
        period_k: usize,
        strides: usize,
    },
    Failed {
        stride: usize,
        cause: String,
    },
    Undecided,
}

/// A shard file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    header: Header,
    shard: usize,
    outcomes: Vec<OutcomeBits>,
}

impl ShardFile {
    /// The shard `i` of `n` of a run, with the outcomes of its cells `i, i + n, …`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        loaded: &LoadedModel,
        text: &str,
        sets: &[String],
        grid: &BasinGrid,
        opts: &BasinOptions,
        i: usize,
        n: usize,
        outcomes: &[StartOutcome],
    ) -> Self {
        Self {
            header: Header {
                format: FORMAT.into(),
                model_origin: loaded.path.clone(),
                model_text: text.to_string(),
                sets: sets.to_vec(),
                axes: grid.axes.iter().map(AxisBits::of).collect(),
                base: bits(&grid.base),
                strides: opts.strides,
                max_period: opts.max_period,
                tol: opts.tol.to_bits(),
                dedup_tol: opts.dedup_tol.to_bits(),
                shards: n,
            },
            shard: i,
            outcomes: outcomes
                .iter()
                .map(|o| match o {
                    StartOutcome::Converged {
                        u,
                        mode,
                        period_k,
                        strides,
                    } => OutcomeBits::Converged {
                        u: bits(u),
                        mode: *mode,
                        period_k: *period_k,
                        strides: *strides,
                    },
                    StartOutcome::Failed { stride, cause } => OutcomeBits::Failed {
                        stride: *stride,
                        cause: cause.clone(),
                    },
                    StartOutcome::Undecided => OutcomeBits::Undecided,
                })
                .collect(),
        }
    }

    /// Writes the file to `dir` (atomically); returns its path.
    pub(crate) fn write(&self, dir: &Path, model_file: &Path) -> Result<PathBuf, CliError> {
        let outputs = crate::continuation::outputs(dir, model_file);
        let path = outputs.path(&format!(
            "basin_shard_{}_of_{}.json",
            self.shard, self.header.shards
        ));
        let text = self.to_text()?;
        report::write_atomic(&path, text.as_bytes()).map_err(CliError::Output)?;
        Ok(path)
    }

    /// The file's text (one line of JSON and a newline).
    pub fn to_text(&self) -> Result<String, CliError> {
        Ok(serde_json::to_string(self)? + "\n")
    }

    /// A shard file from its text; `arg` names it in messages.
    pub fn from_text(text: &str, arg: &str) -> Result<Self, CliError> {
        let f: ShardFile = serde_json::from_str(text)
            .map_err(|e| bad(arg, format!("not a basin shard file: {e}")))?;
        if f.header.format != FORMAT {
            return Err(bad(
                arg,
                format!("format `{}`, expected `{FORMAT}`", f.header.format),
            ));
        }
        Ok(f)
    }

    /// Which shard it is, and of how many: `(i, N)`.
    pub fn shard(&self) -> (usize, usize) {
        (self.shard, self.header.shards)
    }

    fn grid(&self) -> BasinGrid {
        BasinGrid {
            axes: self.header.axes.iter().map(AxisBits::axis).collect(),
            base: floats(&self.header.base),
        }
    }

    fn options(&self) -> BasinOptions {
        BasinOptions {
            strides: self.header.strides,
            max_period: self.header.max_period,
            tol: f64::from_bits(self.header.tol),
            dedup_tol: f64::from_bits(self.header.dedup_tol),
        }
    }
}

/// Arguments of `saltation merge`.
#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// Directories holding the shard files (`*_basin_shard_<i>_of_<N>.json`) of one run.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,

    /// Directory for the merged JSON and the figure (created if missing).
    #[arg(long, value_name = "DIR", default_value = "figures")]
    pub out: PathBuf,

    /// Print the merged basin's JSON object (that of `saltation basin --json`).
    #[arg(long)]
    pub json: bool,
}

fn bad(arg: impl Into<String>, reason: impl Into<String>) -> CliError {
    CliError::BadArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

/// The shard files in `dirs`, sorted by path.
fn shard_paths(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut paths = Vec::new();
    for d in dirs {
        let entries = std::fs::read_dir(d).map_err(|e| {
            bad(
                format!("merge {}", d.display()),
                format!("cannot read: {e}"),
            )
        })?;
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.contains("_basin_shard_") && name.ends_with(".json") {
                paths.push(e.path());
            }
        }
    }
    paths.sort();
    if paths.is_empty() {
        return Err(bad(
            "merge",
            "no shard files (*_basin_shard_<i>_of_<N>.json) in the directories given",
        ));
    }
    Ok(paths)
}

fn read_shard(path: &Path) -> Result<ShardFile, CliError> {
    let arg = format!("merge {}", path.display());
    let len = std::fs::metadata(path)
        .map_err(|e| bad(&arg, format!("cannot read: {e}")))?
        .len();
    if len > MAX_SHARD_BYTES {
        return Err(bad(&arg, format!("{len} bytes: at most {MAX_SHARD_BYTES}")));
    }
    let text = std::fs::read_to_string(path).map_err(|e| bad(&arg, format!("cannot read: {e}")))?;
    ShardFile::from_text(&text, &arg)
}

/// The outcomes of every cell from the shards, checked: one header, each shard once, each
/// with its cells' number of outcomes.
fn join(shards: &[(PathBuf, ShardFile)]) -> Result<Vec<StartOutcome>, CliError> {
    let (p0, first) = &shards[0];
    let n = first.header.shards;
    let total = first.grid().cells();
    let mut seen: Vec<Option<&Path>> = vec![None; n];
    for (p, s) in shards {
        let arg = format!("merge {}", p.display());
        if s.header != first.header {
            let what = if s.header.model_text != first.header.model_text
                || s.header.sets != first.header.sets
            {
                "the model or its --set overrides"
            } else if s.header.shards != n {
                "the number of shards"
            } else {
                "the grid or the basin settings"
            };
            return Err(bad(
                &arg,
                format!(
                    "belongs to another run than {}: {what} differ",
                    p0.display()
                ),
            ));
        }
        let Some(slot) = seen.get_mut(s.shard) else {
            return Err(bad(
                &arg,
                format!("shard {} of {n} is out of range", s.shard),
            ));
        };
        if let Some(other) = slot {
            return Err(bad(
                &arg,
                format!("shard {}/{n} twice (also {})", s.shard, other.display()),
            ));
        }
        *slot = Some(p);
        let expected = (s.shard..total).step_by(n).count();
        if s.outcomes.len() != expected {
            return Err(bad(
                &arg,
                format!(
                    "{} outcome(s), but shard {}/{n} of {total} cells has {expected}",
                    s.outcomes.len(),
                    s.shard
                ),
            ));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&i| seen[i].is_none())
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(bad(
            "merge",
            format!("shard(s) {} of {n} missing", missing.join(", ")),
        ));
    }
    let mut cells = vec![StartOutcome::Undecided; total];
    for (_, s) in shards {
        for (k, o) in s.outcomes.iter().enumerate() {
            cells[s.shard + k * n] = match o {
                OutcomeBits::Converged {
                    u,
                    mode,
                    period_k,
                    strides,
                } => StartOutcome::Converged {
                    u: floats(u),
                    mode: *mode,
                    period_k: *period_k,
                    strides: *strides,
                },
                OutcomeBits::Failed { stride, cause } => StartOutcome::Failed {
                    stride: *stride,
                    cause: cause.clone(),
                },
                OutcomeBits::Undecided => StartOutcome::Undecided,
            };
        }
    }
    Ok(cells)
}

/// Shards joined: the model they were computed with, the grid, the settings and every cell's
/// outcome, in cell order — what the unsharded run has before it identifies the attractors.
pub struct Merged {
    /// The model file (its text parsed again, the `--set` overrides applied).
    pub file: saltation_scenario::ModelFile,
    /// Where the model came from.
    pub origin: String,
    /// The grid.
    pub grid: BasinGrid,
    /// The basin settings.
    pub opts: BasinOptions,
    /// Every cell's outcome.
    pub cells: Vec<StartOutcome>,
}

/// Joins the shards of one run (each named by its path in messages), checked: one header,
/// each shard once.
pub fn merge(shards: &[(PathBuf, ShardFile)]) -> Result<Merged, CliError> {
    let Some((_, first)) = shards.first() else {
        return Err(bad("merge", "no shards given"));
    };
    let cells = join(shards)?;
    let h = &first.header;
    let mut file = saltation_scenario::parse_model_file(&h.model_text, &h.model_origin)?;
    for arg in &h.sets {
        let (name, value) = crate::input::parse_set(arg)?;
        file.model = file
            .model
            .with_param(name, value)
            .map_err(|source| CliError::Param {
                arg: arg.clone(),
                source,
            })?;
    }
    Ok(Merged {
        file,
        origin: h.model_origin.clone(),
        grid: first.grid(),
        opts: first.options(),
        cells,
    })
}

/// Runs `saltation merge`.
pub fn run(args: &MergeArgs, out: &mut dyn Write) -> Result<(), CliError> {
    // Shards of `saltation mfpt` where there are no basin shards.
    let mfpt = crate::mfpt_shard::shard_paths(&args.dirs);
    if !mfpt.is_empty() && shard_paths(&args.dirs).is_err() {
        return crate::mfpt_shard::merge(args, mfpt, out);
    }
    let shards = shard_paths(&args.dirs)?
        .into_iter()
        .map(|p| read_shard(&p).map(|s| (p, s)))
        .collect::<Result<Vec<_>, _>>()?;
    let m = merge(&shards)?;
    report::check_destination(&args.out)?;
    let origin = PathBuf::from(&m.origin);
    let run = BasinRun {
        model: &m.file.model,
        orbit: &m.file.orbit,
        opts: &m.opts,
        grid: &m.grid,
        path: &m.origin,
        stem_of: &origin,
    };
    basin_json::finish(&run, &m.cells, &args.out, args.json, out)
}
