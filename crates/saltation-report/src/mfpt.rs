//! Files of `saltation mfpt --roughness`: the mean first-passage time against the terrain's
//! roughness as a CSV table and a figure on a logarithmic time axis (Byl & Tedrake 2009,
//! Fig. 6): the chain's `1/(1 − λ₂)` and expected steps from the nominal orbit, and the Monte
//! Carlo mean with its 95 % interval.

use super::files::{Batch, Outputs};
use super::{shortest, ReportError};
use saltation_plot::{Marker, Series, TimeSeries};
use std::path::PathBuf;

/// One roughness level of the figure; a time not computed (infinite, refused) is `None`.
#[derive(Debug, Clone, PartialEq)]
pub struct MfptLevel {
    /// The terrain's standard deviation.
    pub sd: f64,
    /// The chain's `1/(1 − λ₂)`.
    pub chain_mfpt: Option<f64>,
    /// The chain's expected strides from the nominal orbit.
    pub chain_steps: Option<f64>,
    /// The Monte Carlo mean.
    pub mc_mean: Option<f64>,
    /// Its 95 % interval.
    pub mc_ci: Option<[f64; 2]>,
}

fn cell(v: Option<f64>) -> String {
    v.map(shortest).unwrap_or_default()
}

/// `sd,chain_mfpt,chain_steps,mc_mean,mc_lo,mc_hi`, one row per level (empty where none).
pub fn mfpt_csv(levels: &[MfptLevel]) -> String {
    let mut s = String::from("sd,chain_mfpt,chain_steps,mc_mean,mc_lo,mc_hi\n");
    for l in levels {
        s.push_str(&format!(
            "{},{},{},{},{},{}\n",
            shortest(l.sd),
            cell(l.chain_mfpt),
            cell(l.chain_steps),
            cell(l.mc_mean),
            cell(l.mc_ci.map(|c| c[0])),
            cell(l.mc_ci.map(|c| c[1]))
        ));
    }
    s
}

/// The times against the roughness, log scale in time.
pub fn mfpt_figure(model_name: &str, param: &str, levels: &[MfptLevel]) -> TimeSeries {
    let title = format!("{}: mean first-passage time", model_name.replace('_', " "));
    let mut fig = TimeSeries::new(title, format!("roughness (sd of {param})"), "strides");
    fig.log_y = true;
    let series = |f: &dyn Fn(&MfptLevel) -> Option<f64>| -> (Vec<f64>, Vec<f64>) {
        levels
            .iter()
            .filter_map(|l| {
                f(l).filter(|v| v.is_finite() && *v > 0.0)
                    .map(|v| (l.sd, v))
            })
            .unzip()
    };
    let (x, y) = series(&|l| l.chain_mfpt);
    fig = fig.with_series(Series::new("chain 1/(1 - lambda2)", x, y).with_marker(Marker::Circle));
    let (x, y) = series(&|l| l.chain_steps);
    fig = fig.with_series(
        Series::new("chain, from the orbit", x, y)
            .dashed()
            .with_marker(Marker::Square),
    );
    let (x, y) = series(&|l| l.mc_mean);
    fig = fig.with_series(Series::new("Monte Carlo", x, y).with_marker(Marker::Cross));
    for (k, label) in [(0, "MC 95 % lower"), (1, "MC 95 % upper")] {
        let (x, y) = series(&|l| l.mc_ci.map(|c| c[k]));
        let s = Series::new(label, x, y).dashed();
        fig = fig.with_series(s);
    }
    fig
}

/// Writes `_mfpt.csv` and the `_mfpt` figure; returns the paths.
pub fn write_mfpt(
    out: &Outputs,
    model_name: &str,
    param: &str,
    levels: &[MfptLevel],
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text("mfpt.csv", &mfpt_csv(levels))?;
    batch.figure("mfpt", &mfpt_figure(model_name, param, levels))?;
    batch.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_leaves_missing_times_empty() {
        let csv = mfpt_csv(&[MfptLevel {
            sd: 0.1,
            chain_mfpt: Some(120.5),
            chain_steps: None,
            mc_mean: Some(118.0),
            mc_ci: Some([110.0, 126.0]),
        }]);
        assert_eq!(
            csv,
            "sd,chain_mfpt,chain_steps,mc_mean,mc_lo,mc_hi\n0.1,120.5,,118,110,126\n"
        );
    }
}
