//! # saltation-report
//!
//! The output layer of Saltation: what the `saltation` command and the examples write, built
//! from the library's results with the same code in both — JSON objects, CSV tables, text
//! summaries, figures, and the monopod solver study. It uses only the library crates,
//! `serde_json` and `std` (nothing of the command line), so that a program of one's own writes
//! exactly what `saltation continue`, `saltation orbit-diagram`, `saltation simulate` and
//! `saltation study` write.
//!
//! | I want to … | use |
//! |---|---|
//! | a continuation result as the JSON of `saltation continue --json` | [`continuation_json`] |
//! | … as CSV, or as the text summary | [`branches_csv`], [`summary`] |
//! | … with its figures (Floquet plot, multipliers in the complex plane, bifurcation and orbit diagrams) written to a directory | [`write_continuation`] with a [`FigureContext`] and [`Outputs`] |
//! | a two-parameter curve of bifurcations as the JSON of `saltation curve --json`, its CSV and summary | [`curve_json`], [`curve_csv`], [`codim2_csv`], [`curve_figure`], [`write_curve`], [`curve_summary`] |
//! | an orbit diagram as JSON, CSV or figure, and where its runs fail | [`diagram_json`], [`diagram_csv`], [`write_orbit_diagram`], [`first_failure`], [`final_failure`], [`failure_ranges`] |
//! | a simulation as the JSON of `saltation simulate --json`, its CSV and figure | [`simulation_json`], [`write_simulation`] |
//! | run the monopod solver study and write its tables and figures | [`study::run_study`], [`study::tables`], [`study::write_study`] |
//! | check an output directory before computing | [`check_destination`] (or [`Outputs::check`]) |
//! | numbers as text that never run to hundreds of digits | [`shortest`], [`fixed`] |
//!
//! The figures are (a) the Floquet plot, (b) the multipliers in the complex plane coloured by
//! the parameter, (c) the bifurcation diagram with period-`k` branches and (d) the orbit diagram
//! with the parameter range where the runs fail.
//!
//! The JSON objects are built explicitly here (not by serialising the library's types): their
//! keys are a public interface.
//!
//! Files: [`check_destination`] checks the output directory before anything is computed; every
//! file is written atomically ([`write_atomic`]: a temporary name in the same directory, then a
//! rename), so an old file is replaced whole or not at all; the files of one report are made
//! under temporary names and renamed together at the end, so a failure leaves none of them
//! ([`ReportError::Partial`], which lists what was written: nothing, unless a final rename
//! failed). Numbers in text and CSV
//! never run to hundreds of digits ([`shortest`], [`fixed`]).
//!
//! Errors are typed: [`ReportError`] for the files (its [`ReportError::is_destination`] tells
//! an unusable output directory, a usage error, from a file that failed to be written), and
//! [`study::StudyError`] for a study that could not be made.
#![warn(missing_docs)]

pub use params::params_json;
use saltation_continuation::{BifurcationKind, Branch, DiagramColumn, ScriptResult};
use saltation_hybrid::{EvalModel, JacobianKind, StrideMap, StrideOptions};
use saltation_models::Model;
use saltation_orbit::Multiplier;
use saltation_plot::{
    self as plot, BifurcationDiagram, BifurcationPoint, Color, ComplexPlanePlot, FailureRegion,
    FloquetBranch, FloquetPlot, Marker, OrbitDiagram, PlotError, PointGroup,
};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Multipliers with a modulus below this are the structural zeros of a stride map (the
/// event-terminated map loses rank): left out of the figures, which show the nontrivial ones.
pub const TRIVIAL_MODULUS: f64 = 1e-9;

/// Why the output directory cannot be used (see [`check_destination`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum DestinationProblem {
    /// The path exists and is not a directory.
    NotADirectory,
    /// The directory cannot be created because an existing ancestor is not a directory.
    AncestorNotADirectory {
        /// The ancestor (e.g. a regular file).
        ancestor: PathBuf,
    },
    /// The directory is missing and could not be created.
    Create(std::io::Error),
    /// The path could not be examined (e.g. no permission on a parent).
    Inaccessible(std::io::Error),
    /// No file can be created in the directory.
    NotWritable(std::io::Error),
}

impl std::fmt::Display for DestinationProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DestinationProblem::NotADirectory => write!(f, "exists and is not a directory"),
            DestinationProblem::AncestorNotADirectory { ancestor } => write!(
                f,
                "cannot be created: {} is not a directory",
                ancestor.display()
            ),
            DestinationProblem::Create(e) => write!(f, "cannot be created: {e}"),
            DestinationProblem::Inaccessible(e) => write!(f, "cannot be examined: {e}"),
            DestinationProblem::NotWritable(e) => write!(f, "is not writable: {e}"),
        }
    }
}

/// Why one output file could not be written.
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteFailure {
    /// Creating, writing, flushing or renaming the file failed.
    Io(std::io::Error),
    /// The figure could not be drawn (the path in the message is the temporary file's).
    Plot(PlotError),
    /// The JSON could not be serialised.
    Json(serde_json::Error),
}

impl std::fmt::Display for WriteFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteFailure::Io(e) => write!(f, "{e}"),
            WriteFailure::Plot(e) => write!(f, "{e}"),
            WriteFailure::Json(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteFailure::Io(e) => Some(e),
            WriteFailure::Plot(e) => Some(e),
            WriteFailure::Json(e) => Some(e),
        }
    }
}

/// Why writing the report failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReportError {
    /// The output directory cannot be used; found by [`check_destination`] before anything is
    /// computed. A usage error: see [`ReportError::is_destination`].
    Destination {
        /// The directory as given.
        path: PathBuf,
        /// What is wrong with it.
        problem: DestinationProblem,
    },
    /// Writing stopped at `failed`. The files in `written` were written (each replaced whole)
    /// before; `failed` and the files after it were not (an old file there is left as it was),
    /// and no temporary file remains.
    Partial {
        /// The files written before the failure, in order (empty unless a final rename of
        /// the set failed: the files are renamed into place together).
        written: Vec<PathBuf>,
        /// The file that could not be written.
        failed: PathBuf,
        /// Why (boxed: keeps the error small).
        source: Box<WriteFailure>,
    },
}

impl ReportError {
    /// Whether the output directory itself is unusable (bad input, found before computing)
    /// rather than a file failing to be written.
    pub fn is_destination(&self) -> bool {
        matches!(self, ReportError::Destination { .. })
    }

    /// The files written before the failure (none for [`ReportError::Destination`]).
    pub fn written(&self) -> &[PathBuf] {
        match self {
            ReportError::Destination { .. } => &[],
            ReportError::Partial { written, .. } => written,
        }
    }
}

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReportError::Destination { path, problem } => {
                write!(f, "output directory {}: {problem}", path.display())
            }
            ReportError::Partial {
                written,
                failed,
                source,
            } => {
                write!(
                    f,
                    "cannot write {}: {source}; that file was not written (an old one is left \
                     as it was)",
                    failed.display()
                )?;
                if written.is_empty() {
                    return write!(f, "; no file was written");
                }
                let list: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
                write!(
                    f,
                    "; {} file(s) written before the failure: {}",
                    written.len(),
                    list.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for ReportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReportError::Destination { problem, .. } => match problem {
                DestinationProblem::Create(e)
                | DestinationProblem::Inaccessible(e)
                | DestinationProblem::NotWritable(e) => Some(e),
                _ => None,
            },
            ReportError::Partial { source, .. } => Some(source.as_ref()),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/// The JSON name of a bifurcation kind: `fold`, `period_doubling`, `neimark_sacker`.
pub fn kind_key(kind: BifurcationKind) -> &'static str {
    match kind {
        BifurcationKind::Fold => "fold",
        BifurcationKind::PeriodDoubling => "period_doubling",
        BifurcationKind::NeimarkSacker => "neimark_sacker",
        BifurcationKind::Grazing => "grazing",
    }
}

/// The human name of a bifurcation kind.
pub fn kind_name(kind: BifurcationKind) -> &'static str {
    match kind {
        BifurcationKind::Fold => "fold",
        BifurcationKind::PeriodDoubling => "period doubling",
        BifurcationKind::NeimarkSacker => "Neimark–Sacker",
        BifurcationKind::Grazing => "grazing",
    }
}

fn plot_kind(kind: BifurcationKind) -> plot::BifurcationKind {
    match kind {
        BifurcationKind::Fold => plot::BifurcationKind::Fold,
        BifurcationKind::PeriodDoubling => plot::BifurcationKind::PeriodDoubling,
        BifurcationKind::NeimarkSacker => plot::BifurcationKind::NeimarkSacker,
        BifurcationKind::Grazing => plot::BifurcationKind::Other,
    }
}

/// The symbol of a parameter for axis labels and text: Greek letters for their names
/// (`gamma` → `γ`), the name itself otherwise.
pub fn param_symbol(name: &str) -> String {
    const GREEK: [(&str, &str); 17] = [
        ("alpha", "α"),
        ("beta", "β"),
        ("gamma", "γ"),
        ("delta", "δ"),
        ("epsilon", "ε"),
        ("zeta", "ζ"),
        ("eta", "η"),
        ("theta", "θ"),
        ("kappa", "κ"),
        ("lambda", "λ"),
        ("mu", "μ"),
        ("nu", "ν"),
        ("rho", "ρ"),
        ("sigma", "σ"),
        ("tau", "τ"),
        ("phi", "φ"),
        ("omega", "ω"),
    ];
    GREEK
        .iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| name.to_string(), |(_, s)| s.to_string())
}

/// Name of state component `i` of the model (`x<i>` if it has none).
pub fn state_name(model: &Model, i: usize) -> String {
    model
        .state_names()
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("x{i}"))
}

// ---------------------------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------------------------

/// `[{"re": .., "im": ..}, ..]`.
pub fn multipliers_json(ms: &[Multiplier]) -> Value {
    Value::Array(ms.iter().map(|m| json!({"re": m.re, "im": m.im})).collect())
}

/// The object printed by `saltation continue --json` (and written next to the CSV):
///
/// ```text
/// {"param": "..",
///  "params": {"<name>": value, ..} (the model's values; the continued one at the file's),
///  "branches": [{"label": "..", "period_k": 1,
///                "points": [{"param": .., "x0": [..], "period": ..,
///                            "multipliers": [{"re": .., "im": ..}], "stable": bool,
///                            "admissible": bool (only for models with contact conditions)}],
///                "end": "<why the branch ended>"}],
///  "bifurcations": [{"kind": "fold" | "period_doubling" | "neimark_sacker" | "grazing",
///                    "branch": "..",
///                    "param": .., "x0": [..], "multipliers": [..]}],
///  "curves": (only when the section asks for curves)
///            [{"request": i, "branch": "..", "index": j, "not_started": "<why>" (when it
///              could not start), and when it did the keys of `saltation curve --json`:
///              "kind", "params", "param_values", "period_k", "points", "codim2", "end",
///              "end_reason"}]}
/// ```
pub fn continuation_json(model: &dyn EvalModel, r: &ScriptResult) -> Value {
    let branches: Vec<Value> = r
        .branches
        .iter()
        .map(|b| {
            let points: Vec<Value> = b
                .points
                .iter()
                .map(|p| {
                    let mut v = json!({
                        "param": p.param,
                        "x0": p.x0,
                        "period": p.period,
                        "multipliers": multipliers_json(&p.multipliers),
                        "stable": p.stable,
                    });
                    if let Some(a) = p.admissible {
                        v["admissible"] = Value::Bool(a);
                    }
                    v
                })
                .collect();
            json!({
                "label": b.label,
                "period_k": b.period_k,
                "points": points,
                "end": b.end.to_string(),
            })
        })
        .collect();
    let bifurcations: Vec<Value> = r
        .bifurcations
        .iter()
        .map(|x| {
            json!({
                "kind": kind_key(x.kind),
                "branch": x.branch,
                "param": x.param,
                "x0": x.x0,
                "multipliers": multipliers_json(&x.multipliers),
            })
        })
        .collect();
    let mut v = json!({"param": r.param, "params": params_json(model), "branches": branches,
           "bifurcations": bifurcations});
    if !r.curves.is_empty() {
        v["curves"] = script_curves::script_curves_json(model, &r.curves);
    }
    v
}

/// The smallest parameter value whose run failed, if any did.
pub fn first_failure(columns: &[DiagramColumn]) -> Option<f64> {
    columns
        .iter()
        .filter(|c| c.failed_at.is_some())
        .map(|c| c.param)
        .min_by(f64::total_cmp)
}

/// Where the runs fail for good: the smallest parameter value from which every larger value
/// failed too (`None` if the largest value did not fail). Isolated failures below it are starts
/// outside a thin basin of attraction rather than the end of the attractor.
pub fn final_failure(columns: &[DiagramColumn]) -> Option<f64> {
    let mut cols: Vec<(f64, bool)> = columns
        .iter()
        .map(|c| (c.param, c.failed_at.is_some()))
        .collect();
    cols.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut start = None;
    for &(p, failed) in cols.iter().rev() {
        if !failed {
            break;
        }
        start = Some(p);
    }
    start
}

/// A range of consecutive failed columns of an orbit diagram (by increasing parameter) that
/// failed for the same cause.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureRange {
    /// Smallest parameter value of the range.
    pub from: f64,
    /// Largest parameter value of the range (equal to `from` for a single column).
    pub to: f64,
    /// Number of columns in it.
    pub count: usize,
    /// Their cause, in the model's own words ([`DiagramColumn::cause`]; "unknown" if absent).
    pub cause: String,
}

/// The failed columns grouped into ranges: consecutive failed columns (by increasing
/// parameter, with no successful column between them) with the same cause form one range.
pub fn failure_ranges(columns: &[DiagramColumn]) -> Vec<FailureRange> {
    let mut cols: Vec<&DiagramColumn> = columns.iter().collect();
    cols.sort_by(|a, b| a.param.total_cmp(&b.param));
    let mut out: Vec<FailureRange> = Vec::new();
    let mut open = false;
    for c in cols {
        if c.failed_at.is_none() {
            open = false;
            continue;
        }
        let cause = c.cause.clone().unwrap_or_else(|| "unknown".into());
        match out.last_mut() {
            Some(r) if open && r.cause == cause => {
                r.to = c.param;
                r.count += 1;
            }
            _ => out.push(FailureRange {
                from: c.param,
                to: c.param,
                count: 1,
                cause,
            }),
        }
        open = true;
    }
    out
}

/// The object printed by `saltation orbit-diagram --json`:
/// `{"param": "<name>", "params": {"<name>": value, …} (the model's values, the diagram's
/// parameter at the file's), "columns": [{"param": .., "values": [..], "failed_at": null | k,
/// "failure": null | "<message>", "cause": null | "<cause>"}], "first_failure": null | ..,
/// "failure_ranges": [{"from": .., "to": .., "count": n, "cause": "<cause>"}]}`: every failed
/// column says why (the full message and its cause in the model's words), and the ranges of
/// consecutive failed columns with the same cause ([`failure_ranges`]).
pub fn diagram_json(model: &dyn EvalModel, param: &str, columns: &[DiagramColumn]) -> Value {
    let cols: Vec<Value> = columns
        .iter()
        .map(|c| {
            json!({"param": c.param, "values": c.values, "failed_at": c.failed_at,
                   "failure": c.failure, "cause": c.cause})
        })
        .collect();
    let ranges: Vec<Value> = failure_ranges(columns)
        .into_iter()
        .map(|r| json!({"from": r.from, "to": r.to, "count": r.count, "cause": r.cause}))
        .collect();
    json!({"param": param, "params": params_json(model), "columns": cols, "first_failure": first_failure(columns),
           "failure_ranges": ranges})
}

// ---------------------------------------------------------------------------------------------
// CSV
// ---------------------------------------------------------------------------------------------

/// A CSV field: quoted if it holds a comma, quote or line break.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One row per branch point: `branch, period_k, param, x0_0 … x0_{n−1}, period, stable`, then
/// `mu<i>_re, mu<i>_im, mu<i>_modulus` for each multiplier (by decreasing modulus). Numbers are
/// in shortest round-trip form, in exponent notation for very large or small magnitudes
/// ([`shortest`]).
pub fn branches_csv(r: &ScriptResult) -> String {
    let pts = || r.branches.iter().flat_map(|b| b.points.iter());
    let n = pts().map(|p| p.x0.len()).max().unwrap_or(0);
    let m = pts().map(|p| p.multipliers.len()).max().unwrap_or(0);
    let mut out = String::from("branch,period_k,param");
    for i in 0..n {
        let _ = write!(out, ",x0_{i}");
    }
    out.push_str(",period,stable");
    for i in 0..m {
        let _ = write!(out, ",mu{i}_re,mu{i}_im,mu{i}_modulus");
    }
    out.push('\n');
    for b in &r.branches {
        let label = csv_field(&b.label);
        for p in &b.points {
            let _ = write!(out, "{label},{},{}", b.period_k, shortest(p.param));
            for i in 0..n {
                out.push(',');
                if let Some(x) = p.x0.get(i) {
                    out.push_str(&shortest(*x));
                }
            }
            let _ = write!(out, ",{},{}", shortest(p.period), p.stable);
            for i in 0..m {
                match p.multipliers.get(i) {
                    Some(mu) => {
                        let _ = write!(
                            out,
                            ",{},{},{}",
                            shortest(mu.re),
                            shortest(mu.im),
                            shortest(mu.modulus())
                        );
                    }
                    None => out.push_str(",,,"),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// One row per recorded value: `param, sample, value, failed_at` (the stride index, counting the
/// transient, at which the run failed; empty if it did not). A run that failed before recording
/// anything gives one row with empty `sample` and `value`. Numbers as in [`branches_csv`].
pub fn diagram_csv(columns: &[DiagramColumn]) -> String {
    let mut out = String::from("param,sample,value,failed_at\n");
    for c in columns {
        let failed = c.failed_at.map(|k| k.to_string()).unwrap_or_default();
        let param = shortest(c.param);
        if c.values.is_empty() {
            let _ = writeln!(out, "{param},,,{failed}");
        }
        for (i, v) in c.values.iter().enumerate() {
            let _ = writeln!(out, "{param},{i},{},{failed}", shortest(*v));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

/// Multipliers as `a, b ± ci, …` with `digits` decimals (at most 17; a conjugate pair once),
/// in exponent notation for very large or small magnitudes ([`fixed`]).
pub fn multipliers_text(ms: &[Multiplier], digits: usize) -> String {
    let digits = digits.min(17);
    // Values that print as zero print without a sign (`digits` ≤ 17 fits in an i32).
    let tiny = 0.5 * 10f64.powi(-(digits as i32));
    let clean = |v: f64| if v.abs() < tiny { 0.0 } else { v };
    let num = |v: f64| fixed(v, digits);
    let mut items = Vec::new();
    let mut rest = ms;
    while let Some((first, tail)) = rest.split_first() {
        let m = Multiplier::new(clean(first.re), clean(first.im));
        let pair = m.im != 0.0
            && tail
                .first()
                .is_some_and(|n| clean(n.re) == m.re && clean(n.im) == -m.im);
        if pair {
            items.push(format!("{} ± {}i", num(m.re), num(m.im.abs())));
            rest = tail.get(1..).unwrap_or_default();
        } else if m.im != 0.0 {
            let sign = if m.im < 0.0 { '−' } else { '+' };
            items.push(format!("{} {sign} {}i", num(m.re), num(m.im.abs())));
            rest = tail;
        } else {
            items.push(num(m.re));
            rest = tail;
        }
    }
    items.join(", ")
}

/// Parameter range `[lo, hi]` of a branch's points.
pub fn param_range(b: &Branch) -> Option<(f64, f64)> {
    let lo = b.points.iter().map(|p| p.param).min_by(f64::total_cmp)?;
    let hi = b.points.iter().map(|p| p.param).max_by(f64::total_cmp)?;
    Some((lo, hi))
}

/// The human summary: per branch its label, points, parameter range and why it ended, with its
/// bifurcations (kind, parameter to 12 decimals, multipliers; exponent notation for very large
/// or small magnitudes).
pub fn summary(r: &ScriptResult) -> String {
    let sym = param_symbol(&r.param);
    let mut out = String::new();
    for b in &r.branches {
        let range = match param_range(b) {
            Some((lo, hi)) => format!("{sym} ∈ [{}, {}]", fixed(lo, 12), fixed(hi, 12)),
            None => "no points".into(),
        };
        let _ = writeln!(
            out,
            "branch \"{}\" (period {}): {} point(s), {range}",
            b.label,
            b.period_k,
            b.points.len()
        );
        let _ = writeln!(out, "  end: {}", b.end);
        for x in &b.bifurcations {
            let _ = writeln!(
                out,
                "  {} at {sym} = {}; multipliers {}",
                kind_name(x.kind),
                fixed(x.param, 12),
                multipliers_text(&x.multipliers, 9)
            );
        }
    }
    if r.bifurcations.is_empty() {
        out.push_str("no bifurcations found\n");
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Figures, files, numbers, simulations, the study
// ---------------------------------------------------------------------------------------------

mod basin;
mod curve;
mod figures;
mod files;
mod lyapunov_sweep;
mod mfpt;
mod numbers;
mod params;
mod script_curves;
mod sensitivity;
mod simulation;
mod simulation_plot;
pub mod study;

pub use basin::write_basin;
pub use curve::{
    codim2_csv, curve_csv, curve_figure, curve_json, curve_summary, stable_besides_critical,
    write_curve,
};
pub use figures::{
    bifurcation_diagram, failure_label, failure_regions, floquet_plot, looks, multiplier_plot,
    orbit_diagram_figure, orbit_states, stem_of, write_continuation, write_orbit_diagram,
    FigureContext, Look, MAX_ORBIT_STATES,
};
pub(crate) use files::Batch;
pub use files::{check_destination, write_atomic, Outputs};
pub use lyapunov_sweep::{
    diagram_lyapunov_figure, lyapunov_csv, lyapunov_json, write_lyapunov_sweep,
};
pub use mfpt::{mfpt_csv, mfpt_figure, write_mfpt, MfptLevel};
pub use numbers::{fixed, shortest};
pub use script_curves::{script_curves_figure, script_curves_json};
pub use sensitivity::{impulse_response_csv, impulse_response_figure, write_sensitivity};
pub use simulation::{
    events_csv, samples_csv, simulation_json, write_simulation, EventJson, SampleJson,
    SimulationJson, StatsJson,
};
pub use simulation_plot::{
    choose_plot, default_plot, figure_height, output_names, plot_names, simulation_figure,
    PlotChoiceError, Plotted, MAX_PANELS,
};
