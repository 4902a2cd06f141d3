//! The error type of this crate.

use std::path::PathBuf;

/// Everything that can go wrong when a figure is rendered.
///
/// Every variant that comes from the figure's data names the figure kind (`figure`) and, where
/// there is one, the series, branch or group (`item`) at fault. Rendering never panics on user
/// data: non-finite points are skipped silently, and only data that leaves nothing to draw, or
/// arrays that do not pair up, are reported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// After skipping NaN/Inf (and, on a logarithmic axis, non-positive) values, nothing is left
    /// to plot.
    #[error("{figure}: no finite data to plot")]
    EmptyData {
        /// The figure kind, e.g. `"FloquetPlot"`.
        figure: &'static str,
    },
    /// Two arrays that must pair up element by element have different lengths.
    #[error("{figure}: {what} of {item:?} has {found} entries, expected {expected}")]
    LengthMismatch {
        /// The figure kind.
        figure: &'static str,
        /// The label of the series, branch or group at fault.
        item: String,
        /// Which array, e.g. `"y"` or `"stable flags"`.
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length it has.
        found: usize,
    },
    /// A coordinate that must be finite is ±∞ or NaN (in a
    /// [`TwoParamDiagram`](crate::TwoParamDiagram): ±∞ anywhere in a curve, where NaN marks a
    /// gap, or a non-finite labelled point, which cannot be left out without notice).
    #[error("{figure}: {what}[{index}] of {item:?} is {value}, not a finite number")]
    NonFinite {
        /// The figure kind.
        figure: &'static str,
        /// The label of the curve or point at fault.
        item: String,
        /// Which array or coordinate, e.g. `"xs"` or `"y"`.
        what: &'static str,
        /// The index in that array (0 for a single coordinate).
        index: usize,
        /// The value found.
        value: f64,
    },
    /// One item of the figure has nothing to draw (e.g. a curve with no two consecutive finite
    /// points), so it would silently be missing from the figure.
    #[error("{figure}: {item:?} has nothing to draw: {reason}")]
    EmptyItem {
        /// The figure kind.
        figure: &'static str,
        /// The label of the item at fault.
        item: String,
        /// Why nothing is left.
        reason: &'static str,
    },
    /// A user-given axis range is not a finite, increasing interval (or, on a logarithmic axis,
    /// not positive).
    #[error("{figure}: invalid {axis} range [{lo}, {hi}]")]
    InvalidRange {
        /// The figure kind.
        figure: &'static str,
        /// `"x"` or `"y"`.
        axis: &'static str,
        /// Lower end as given.
        lo: f64,
        /// Upper end as given.
        hi: f64,
    },
    /// A field of [`RenderOptions`](crate::RenderOptions) is out of its valid range.
    #[error("invalid render option `{field}`: {reason}")]
    InvalidOptions {
        /// The field name.
        field: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The directory for the output files could not be created.
    #[error("cannot create directory {path:?}: {source}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The underlying I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The drawing backend failed, e.g. the file could not be written or encoded.
    #[error("drawing {path:?} failed: {message}")]
    Draw {
        /// The output file (empty for in-memory SVG).
        path: PathBuf,
        /// The backend's description of the failure.
        message: String,
    },
    /// The embedded font could not be parsed (a build problem, not a data problem).
    #[error("the embedded DejaVu Sans font could not be registered with plotters")]
    Font,
}
