//! `saltation study`: the monopod solver study of Papadopoulos and co-authors, redone — every
//! solver of a list (by default the seven MATLAB analogs, DOP853 and Radau IIA 5) at every
//! tolerance, with the phase switch as an event or as an `if … else` in the vector field, on
//! every parameter set of the study's Table 2, scored by solution duration (SD), divergence
//! time (DT, eq. 32) and integrated absolute error (IAE, eq. 33) against a reference accurate
//! to about 1e-12.
//!
//! - [`spec`]: the study file (every field defaults to the study's setting).
//! - [`runner`]: the reference and the runs, one at a time.
//! - [`criteria`], [`points`]: the criteria and the points system (Tables 3–5).
//! - [`tables`], [`figures`], [`json`]: the outputs.
//!
//! With `--out DIR` it writes `runs.csv`, `tables.md` and the figures
//! `work_precision_<strategy>`, `response` and `error` (PNG and SVG); with `--json` it prints one
//! [`json::StudyJson`] object, otherwise the tables.

pub mod criteria;
pub mod figures;
pub mod json;
pub mod points;
pub mod runner;
pub mod spec;
pub mod tables;

pub use runner::{run_study, study_name, RunRecord, StudyError, StudyResult};
pub use spec::StudySpec;

use crate::progress::ScriptBar;
use crate::report::{Batch, Outputs};
use crate::CliError;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `saltation study`.
#[derive(Debug, Clone, Args)]
pub struct StudyArgs {
    /// The study file (e.g. models/monopod_study.ron).
    pub file: PathBuf,

    /// Write runs.csv, tables.md and the figures to this directory.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,

    /// Print one JSON object instead of the tables: {"reference": {"method", "rtol",
    /// "error_estimate"}, "stiffness": [{"set", "sr_eq29", "sr_true"}], "runs": [{"set",
    /// "method", "tol", "strategy", "sd_s", "dt", "iae", "rhs_evals", "steps", "contacts",
    /// "status"}], "points": [{"strategy", "tol", "criterion", "method", "points"}]}.
    #[arg(long)]
    pub json: bool,
}

/// Runs `saltation study`.
pub fn run(args: &StudyArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let spec = StudySpec::load(&args.file)?;
    let outputs = args.out.as_ref().map(|dir| Outputs {
        dir: dir.clone(),
        stem: String::new(),
        render: Default::default(),
    });
    if let Some(o) = &outputs {
        o.check()?;
    }
    let mut bar = ScriptBar::new("");
    bar.start_counted("study", spec.progress_steps(), "runs");
    let result = run_study(&spec, &mut |done, total| bar.set_done(done, total))?;
    bar.finish();
    let pts = points::points(&spec, &result.runs);
    let markdown = tables::tables_markdown(&spec, &result, &pts);
    let mut written = Vec::new();
    if let Some(o) = &outputs {
        let mut batch = Batch::new(o);
        batch.text("runs.csv", &tables::runs_csv(&result))?;
        batch.text("tables.md", &markdown)?;
        figures::write_figures(&spec, &result, &mut batch)?;
        written = batch.finish();
    }
    let text = if args.json {
        serde_json::to_string(&json::study_json(&spec, &result, &pts))? + "\n"
    } else {
        let mut s = markdown;
        for p in &written {
            s.push_str(&format!("wrote {}\n", p.display()));
        }
        s
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
