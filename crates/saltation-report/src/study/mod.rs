//! The monopod solver study of Papadopoulos and co-authors, redone — every solver of a list (by
//! default the seven MATLAB analogs, DOP853 and Radau IIA 5) at every tolerance, with the phase
//! switch as an event or as an `if … else` in the vector field, on every parameter set of the
//! study's Table 2, scored by solution duration (SD), divergence time (DT, eq. 32) and
//! integrated absolute error (IAE, eq. 33) against a reference accurate to about 1e-12.
//!
//! - [`spec`]: the study file (every field defaults to the study's setting).
//! - [`runner`]: the reference and the runs, one at a time ([`run_study`], which reports its
//!   progress to a callback).
//! - [`criteria`], [`points`]: the criteria and the points system (Tables 3–5).
//! - [`tables`], [`figures`], [`json`]: the outputs; [`write_study`] writes `runs.csv`,
//!   `tables.md` and the figures `work_precision_<strategy>`, `response` and `error`.
//!
//! `saltation study FILE` runs it from a study file (e.g. `models/monopod_study.ron`), the
//! `monopod_study` example from code.

pub mod criteria;
pub mod figures;
pub mod json;
pub mod points;
pub mod runner;
pub mod spec;
pub mod tables;

pub use runner::{run_study, study_name, RunRecord, StudyError, StudyResult};
pub use spec::StudySpec;

use crate::{Batch, Outputs, ReportError};
use std::path::PathBuf;

/// Writes the study's files to `out`: `runs.csv`, `tables.md` (the given `markdown`, as made by
/// [`tables::tables_markdown`]) and the figures (PNG and SVG); returns the paths written.
/// Atomic files, first failure stops the batch ([`ReportError::Partial`]).
pub fn write_study(
    spec: &StudySpec,
    result: &StudyResult,
    markdown: &str,
    out: &Outputs,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text("runs.csv", &tables::runs_csv(result))?;
    batch.text("tables.md", markdown)?;
    figures::write_figures(spec, result, &mut batch)?;
    batch.finish()
}
