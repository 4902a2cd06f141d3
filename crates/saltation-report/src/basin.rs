//! The files of a basin of attraction: its JSON object and its map, written together.

use crate::files::Batch;
use crate::{Outputs, ReportError};
use saltation_plot::BasinMap;
use std::path::PathBuf;

/// Writes `<stem>_basin.json` (the text `json`, as printed by `saltation basin --json`) and the
/// map `<stem>_basin.<ext>` to `out`, as one transaction (both or neither); the paths written.
pub fn write_basin(json: &str, map: &BasinMap, out: &Outputs) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text("basin.json", json)?;
    batch.figure("basin", map)?;
    batch.finish()
}
