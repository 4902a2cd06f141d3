//! `saltation study`: the monopod solver study of [`saltation_report::study`] run from a study
//! file, with a progress line on stderr.
//!
//! With `--out DIR` it writes `runs.csv`, `tables.md` and the figures
//! `work_precision_<strategy>`, `response` and `error` (PNG and SVG;
//! [`study::write_study`]); with `--json` it prints one [`study::json::StudyJson`] object,
//! otherwise the tables.

use crate::progress::ScriptBar;
use crate::CliError;
use clap::Args;
use saltation_report::study::{self, points, run_study, tables, StudySpec};
use saltation_report::Outputs;
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
    let written = match &outputs {
        Some(o) => study::write_study(&spec, &result, &markdown, o)?,
        None => Vec::new(),
    };
    let text = if args.json {
        serde_json::to_string(&study::json::study_json(&spec, &result, &pts))? + "\n"
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
