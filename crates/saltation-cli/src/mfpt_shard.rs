//! Shard files of `saltation mfpt --shard i/N`, and their merge by `saltation merge DIR…` into
//! exactly the unsharded result.
//!
//! A shard file (`<stem>_mfpt_shard_<i>_of_<N>.json`, format `saltation-mfpt-shard/1`) holds
//! the run's header — the model file's text, its origin and `--set` overrides, the parameter,
//! the distribution and levels, the mesh (no axes: no chain, `--method monte-carlo`), the
//! sizes and seed (no runs: no Monte Carlo, `--method chain`), the nominal orbit — and, per
//! level, the chain rows of its mesh points `i, i + N, …` and its walks `i, i + N, …`. Every
//! `f64` is stored as its bits (`f64::to_bits`), so the merge solves the very chain the shards
//! built. The merge checks that all shards share one header and that each of `0..N` is there
//! once, then solves and reports as the unsharded run does.

use crate::input::LoadedModel;
use crate::merge::MergeArgs;
use crate::mfpt::{finish, LevelData, Plan};
use crate::CliError;
use saltation_continuation::basin::BasinGrid;
use saltation_continuation::mfpt::{ChainRow, McRun, Terrain};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

const FORMAT: &str = "saltation-mfpt-shard/1";
// The exact-float encoding and the size bound of basin shard files.
use crate::merge::{bits, floats, AxisBits, MAX_SHARD_BYTES};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    format: String,
    model_origin: String,
    model_text: String,
    sets: Vec<String>,
    model_name: String,
    param: String,
    /// `normal` or `uniform` and its two numbers.
    terrain: (String, u64, u64),
    levels: Vec<u64>,
    sweep: bool,
    axes: Vec<AxisBits>,
    samples: usize,
    runs: usize,
    max_steps: usize,
    seed: u64,
    u0: Vec<u64>,
    period: u64,
    shards: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct RowBits {
    next: Vec<(usize, u64)>,
    fallen: usize,
    left_mesh: usize,
    causes: Vec<(String, usize)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct LevelBits {
    rows: Vec<RowBits>,
    runs: Vec<McRun>,
}

/// One shard's file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MfptShardFile {
    header: Header,
    shard: usize,
    levels: Vec<LevelBits>,
}

impl MfptShardFile {
    /// The file of shard `i` of `n` of `plan`, from its computed `data`.
    pub fn new(
        loaded: &LoadedModel,
        text: &str,
        sets: &[String],
        plan: &Plan,
        i: usize,
        n: usize,
        data: &[LevelData],
    ) -> Self {
        let terrain = match plan.terrain {
            Terrain::Normal { mean, sd } => ("normal".into(), mean.to_bits(), sd.to_bits()),
            Terrain::Uniform { a, b } => ("uniform".into(), a.to_bits(), b.to_bits()),
        };
        Self {
            header: Header {
                format: FORMAT.into(),
                model_origin: loaded.path.clone(),
                model_text: text.to_string(),
                sets: sets.to_vec(),
                model_name: plan.model_name.clone(),
                param: plan.param.clone(),
                terrain,
                levels: bits(&plan.levels),
                sweep: plan.sweep,
                axes: plan
                    .mesh
                    .iter()
                    .flat_map(|m| &m.axes)
                    .map(AxisBits::of)
                    .collect(),
                samples: plan.samples,
                runs: plan.runs,
                max_steps: plan.max_steps,
                seed: plan.seed,
                u0: bits(&plan.u0),
                period: plan.period.to_bits(),
                shards: n,
            },
            shard: i,
            levels: data
                .iter()
                .map(|d| LevelBits {
                    rows: d
                        .rows
                        .iter()
                        .map(|r| RowBits {
                            next: r.next.iter().map(|&(j, q)| (j, q.to_bits())).collect(),
                            fallen: r.fallen,
                            left_mesh: r.left_mesh,
                            causes: r.causes.clone(),
                        })
                        .collect(),
                    runs: d.runs.clone(),
                })
                .collect(),
        }
    }

    /// The file's text (JSON and a newline), as [`MfptShardFile::write`] writes it.
    pub fn to_text(&self) -> Result<String, CliError> {
        Ok(serde_json::to_string(self)? + "\n")
    }

    /// Writes the file into `dir`; returns its path.
    pub(crate) fn write(&self, dir: &Path, model_file: &Path) -> Result<PathBuf, CliError> {
        let outputs = crate::continuation::outputs(dir, model_file);
        let path = outputs.path(&format!(
            "mfpt_shard_{}_of_{}.json",
            self.shard, self.header.shards
        ));
        let text = self.to_text()?;
        saltation_report::write_atomic(&path, text.as_bytes()).map_err(CliError::Output)?;
        Ok(path)
    }

    fn plan(&self) -> Result<Plan, String> {
        let h = &self.header;
        let (a, b) = (f64::from_bits(h.terrain.1), f64::from_bits(h.terrain.2));
        let terrain = match h.terrain.0.as_str() {
            "normal" => Terrain::Normal { mean: a, sd: b },
            "uniform" => Terrain::Uniform { a, b },
            k => return Err(format!("unknown distribution `{k}`")),
        };
        terrain.validate().map_err(|e| e.to_string())?;
        // No axes: the chain did not run (`--method monte-carlo`); no runs: Monte Carlo did
        // not (`--method chain`).
        let mesh = if h.axes.is_empty() {
            None
        } else {
            let mesh = BasinGrid {
                axes: h.axes.iter().map(AxisBits::axis).collect(),
                base: vec![0.0; h.u0.len()],
            };
            saltation_continuation::mfpt::validate_mesh(&mesh, h.u0.len())
                .map_err(|e| e.to_string())?;
            Some(mesh)
        };
        if mesh.is_none() && h.runs == 0 {
            return Err("neither the chain's mesh nor Monte Carlo runs".into());
        }
        if h.levels.is_empty() || (!h.sweep && h.levels.len() != 1) {
            return Err(format!("{} level(s)", h.levels.len()));
        }
        Ok(Plan {
            model_name: h.model_name.clone(),
            param: h.param.clone(),
            terrain,
            levels: floats(&h.levels),
            sweep: h.sweep,
            mesh,
            samples: h.samples,
            runs: h.runs,
            max_steps: h.max_steps,
            seed: h.seed,
            u0: floats(&h.u0),
            period: f64::from_bits(h.period),
        })
    }
}

fn bad(arg: impl Into<String>, reason: impl Into<String>) -> CliError {
    CliError::BadArgument {
        arg: arg.into(),
        reason: reason.into(),
    }
}

/// The mfpt shard files in `dirs` (sorted).
pub(crate) fn shard_paths(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for d in dirs {
        if let Ok(entries) = std::fs::read_dir(d) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.contains("_mfpt_shard_") && name.ends_with(".json") {
                    paths.push(e.path());
                }
            }
        }
    }
    paths.sort();
    paths
}

fn read_shard(path: &Path) -> Result<MfptShardFile, CliError> {
    let arg = format!("merge {}", path.display());
    let len = std::fs::metadata(path)
        .map_err(|e| bad(&arg, format!("cannot read: {e}")))?
        .len();
    if len > MAX_SHARD_BYTES {
        return Err(bad(&arg, format!("{len} bytes: at most {MAX_SHARD_BYTES}")));
    }
    let text = std::fs::read_to_string(path).map_err(|e| bad(&arg, format!("cannot read: {e}")))?;
    MfptShardFile::from_text(&text, &arg)
}

impl MfptShardFile {
    /// The shard file of `text` (what [`MfptShardFile::to_text`] wrote); errors name `arg`.
    pub fn from_text(text: &str, arg: &str) -> Result<Self, CliError> {
        if text.len() as u64 > MAX_SHARD_BYTES {
            return Err(bad(
                arg,
                format!("{} bytes: at most {MAX_SHARD_BYTES}", text.len()),
            ));
        }
        let f: MfptShardFile = serde_json::from_str(text)
            .map_err(|e| bad(arg, format!("not an mfpt shard file: {e}")))?;
        if f.header.format != FORMAT {
            return Err(bad(
                arg,
                format!("format `{}`, expected `{FORMAT}`", f.header.format),
            ));
        }
        Ok(f)
    }
}

/// The plan and every level's data of `shards` (one run, each of `0..N` once, named by their
/// paths in messages): exactly the unsharded run's.
pub fn join_shards(
    shards: &[(PathBuf, MfptShardFile)],
) -> Result<(Plan, Vec<LevelData>), CliError> {
    let Some((p0, first)) = shards.first() else {
        return Err(bad("merge", "no shard files"));
    };
    let plan = first
        .plan()
        .map_err(|e| bad(format!("merge {}", p0.display()), e))?;
    let data = join(shards, &plan)?;
    Ok((plan, data))
}

/// Joins the shards of `paths` (one run, each of `0..N` once) into every level's data.
fn join(shards: &[(PathBuf, MfptShardFile)], plan: &Plan) -> Result<Vec<LevelData>, CliError> {
    let (p0, first) = &shards[0];
    let n = first.header.shards;
    let cells = plan.cells();
    let mut seen: Vec<Option<&Path>> = vec![None; n];
    for (p, s) in shards {
        let arg = format!("merge {}", p.display());
        if s.header != first.header {
            return Err(bad(
                &arg,
                format!("belongs to another run than {}", p0.display()),
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
        let (want_rows, want_runs) = (
            (s.shard..cells).step_by(n).count(),
            (s.shard..plan.runs).step_by(n).count(),
        );
        if s.levels.len() != plan.levels.len()
            || s.levels
                .iter()
                .any(|l| l.rows.len() != want_rows || l.runs.len() != want_runs)
        {
            return Err(bad(
                &arg,
                format!(
                    "shard {}/{n} should hold {want_rows} rows and {want_runs} runs per level",
                    s.shard
                ),
            ));
        }
        for l in &s.levels {
            for r in &l.rows {
                if r.next.iter().any(|&(j, _)| j >= cells) {
                    return Err(bad(&arg, "a transition beyond the mesh"));
                }
            }
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
    let mut out = Vec::new();
    for l in 0..plan.levels.len() {
        let mut rows: Vec<Option<ChainRow>> = vec![None; cells];
        let mut runs: Vec<Option<McRun>> = vec![None; plan.runs];
        for (_, s) in shards {
            for (k, r) in s.levels[l].rows.iter().enumerate() {
                rows[s.shard + k * n] = Some(ChainRow {
                    next: r
                        .next
                        .iter()
                        .map(|&(j, q)| (j, f64::from_bits(q)))
                        .collect(),
                    fallen: r.fallen,
                    left_mesh: r.left_mesh,
                    causes: r.causes.clone(),
                });
            }
            for (k, r) in s.levels[l].runs.iter().enumerate() {
                runs[s.shard + k * n] = Some(r.clone());
            }
        }
        out.push(LevelData {
            rows: rows.into_iter().flatten().collect(),
            runs: runs.into_iter().flatten().collect(),
        });
    }
    Ok(out)
}

/// `saltation merge` on mfpt shard files.
pub(crate) fn merge(
    args: &MergeArgs,
    paths: Vec<PathBuf>,
    out: &mut dyn Write,
) -> Result<(), CliError> {
    let shards = paths
        .into_iter()
        .map(|p| read_shard(&p).map(|s| (p, s)))
        .collect::<Result<Vec<_>, _>>()?;
    let (plan, data) = join_shards(&shards)?;
    saltation_report::check_destination(&args.out)?;
    let origin = PathBuf::from(&shards[0].1.header.model_origin);
    finish(&plan, &data, &args.out, &origin, args.json, out)
}
