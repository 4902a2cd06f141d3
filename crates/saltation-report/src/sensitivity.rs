//! Files of `saltation sensitivity`: the impulse response of the gait indicators per stride as
//! a CSV table and a figure (the indicators against the stride number).

use super::files::{Batch, Outputs};
use super::{csv_field, shortest, ReportError};
use saltation_plot::{Marker, Series, TimeSeries};
use std::path::PathBuf;

/// `stride,<indicator>,…` with one row per stride `k` of `response` (`response[k][i]`: indicator
/// `i` on stride `k`).
pub fn impulse_response_csv(indicators: &[String], response: &[Vec<f64>]) -> String {
    let mut s = String::from("stride");
    for name in indicators {
        s.push(',');
        s.push_str(&csv_field(name));
    }
    s.push('\n');
    for (k, row) in response.iter().enumerate() {
        s.push_str(&k.to_string());
        for v in row {
            s.push(',');
            s.push_str(&shortest(*v));
        }
        s.push('\n');
    }
    s
}

/// Each indicator's response against the stride number, with a marker per stride.
pub fn impulse_response_figure(
    model_name: &str,
    disturbance: &str,
    norm: f64,
    indicators: &[String],
    response: &[Vec<f64>],
) -> TimeSeries {
    let title = format!(
        "{}: unit {disturbance} on stride 0, GSN {norm:.6e}",
        model_name.replace('_', " ")
    );
    let mut fig = TimeSeries::new(title, "stride", "indicator response");
    for (i, name) in indicators.iter().enumerate() {
        let (k, y): (Vec<f64>, Vec<f64>) = response
            .iter()
            .enumerate()
            .map(|(k, row)| (k as f64, row.get(i).copied().unwrap_or(f64::NAN)))
            .unzip();
        fig =
            fig.with_series(Series::new(name.replace('_', " "), k, y).with_marker(Marker::Circle));
    }
    fig
}

/// Writes `_sensitivity.csv` and the `_sensitivity` figure; returns the paths (atomic files,
/// the first failure stops the batch).
pub fn write_sensitivity(
    out: &Outputs,
    model_name: &str,
    disturbance: &str,
    norm: f64,
    indicators: &[String],
    response: &[Vec<f64>],
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text(
        "sensitivity.csv",
        &impulse_response_csv(indicators, response),
    )?;
    batch.figure(
        "sensitivity",
        &impulse_response_figure(model_name, disturbance, norm, indicators, response),
    )?;
    batch.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_one_row_per_stride() {
        let csv = impulse_response_csv(&["step_time".into()], &[vec![-3.5], vec![0.25]]);
        assert_eq!(csv, "stride,step_time\n0,-3.5\n1,0.25\n");
    }
}
