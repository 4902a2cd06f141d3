//! Work–precision charts: cost against achieved error, one curve per method, log–log.

use crate::time_series::{prepare_lines, LinePlot, Series, TimeSeries};
use crate::{LegendPosition, PlotError};

const FIGURE: &str = "WorkPrecision";

/// Cost against error for several methods on log–log axes, each curve with its own marker (one
/// point per tolerance). In each [`Series`], `x` is the error and `y` the cost; non-positive
/// values are skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkPrecision {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label; default `"error"`.
    pub x_label: String,
    /// y axis label; default `"time / s"`.
    pub y_label: String,
    /// One series per method; a series without a marker gets one from a fixed cycle.
    pub methods: Vec<Series>,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl Default for WorkPrecision {
    fn default() -> Self {
        Self {
            title: String::new(),
            x_label: "error".into(),
            y_label: "time / s".into(),
            methods: Vec::new(),
            legend: LegendPosition::Auto,
        }
    }
}

impl WorkPrecision {
    /// An empty chart with a title and the default axis labels.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            ..Self::default()
        }
    }

    /// Adds a method: `error[i]` and `cost[i]` at its i-th tolerance.
    pub fn with_method(
        mut self,
        label: impl Into<String>,
        error: Vec<f64>,
        cost: Vec<f64>,
    ) -> Self {
        self.methods.push(Series::new(label, error, cost));
        self
    }

    fn prepare(&self) -> Result<LinePlot, PlotError> {
        let ts = TimeSeries {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            y_label: self.y_label.clone(),
            series: self.methods.clone(),
            log_x: true,
            log_y: true,
            legend: self.legend,
            ..TimeSeries::default()
        };
        prepare_lines(FIGURE, &ts, true)
    }
}

crate::render::impl_figure!(WorkPrecision);
