//! Files of `saltation orbit-diagram --lyapunov`: the exponents per parameter value as a CSV
//! table and JSON, and the orbit diagram with the largest exponent in a panel under it.

use super::files::{Batch, Outputs};
use super::{csv_field, orbit_diagram_figure, param_symbol, shortest, ReportError};
use saltation_continuation::{DiagramColumn, LyapunovColumn};
use saltation_hybrid::EvalModel;
use saltation_models::Model;
use saltation_plot::{DiagramWithPanel, Marker, Series, TimeSeries};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `<param>,lambda_1,…,lambda_r,failure`: one row per parameter value, the exponents per unit
/// time in descending order (empty cells where the run failed, the failure then quoted).
pub fn lyapunov_csv(param: &str, columns: &[LyapunovColumn], reduced_dim: usize) -> String {
    let mut s = csv_field(param);
    for i in 1..=reduced_dim {
        s.push_str(&format!(",lambda_{i}"));
    }
    s.push_str(",failure\n");
    for c in columns {
        s.push_str(&shortest(c.param));
        for i in 0..reduced_dim {
            s.push(',');
            if let Some(v) = c.exponents.get(i) {
                s.push_str(&shortest(*v));
            }
        }
        s.push(',');
        s.push_str(&csv_field(c.failure.as_deref().unwrap_or("")));
        s.push('\n');
    }
    s
}

/// `[{"param", "exponents", "failure"}]` (`failure` null where the run succeeded).
pub fn lyapunov_json(columns: &[LyapunovColumn]) -> Value {
    Value::Array(
        columns
            .iter()
            .map(|c| json!({"param": c.param, "exponents": c.exponents, "failure": c.failure}))
            .collect(),
    )
}

/// The orbit diagram with the largest exponent `λ₁` against the parameter under it (dots at
/// each value that succeeded, and the zero line dashed).
pub fn diagram_lyapunov_figure(
    columns: &[DiagramColumn],
    lyapunov: &[LyapunovColumn],
    model: &Model,
    param: &str,
    component: usize,
) -> DiagramWithPanel {
    let name = model.name().replace('_', " ");
    let title = format!(
        "{name}: orbit diagram and largest Lyapunov exponent in {}",
        param_symbol(param)
    );
    let diagram = orbit_diagram_figure(columns, model, param, component, &title);
    let (p, l): (Vec<f64>, Vec<f64>) = lyapunov
        .iter()
        .filter_map(|c| c.largest().map(|l| (c.param, l)))
        .unzip();
    let (lo, hi) = lyapunov
        .iter()
        .map(|c| c.param)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
    let panel = TimeSeries::new("", "", "largest Lyapunov exponent (per time)")
        .with_series(Series::new("", vec![lo, hi], vec![0.0, 0.0]).dashed())
        .with_series(Series::new("", p, l).with_marker(Marker::Circle));
    DiagramWithPanel::new(diagram, panel)
}

/// Writes `_lyapunov.csv` and the `_orbit_diagram_lyapunov` figure (drawn when some value has
/// both recorded states and exponents); returns the paths.
pub fn write_lyapunov_sweep(
    out: &Outputs,
    columns: &[DiagramColumn],
    lyapunov: &[LyapunovColumn],
    model: &Model,
    param: &str,
    component: usize,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text(
        "lyapunov.csv",
        &lyapunov_csv(param, lyapunov, model.reduced_dim()),
    )?;
    let drawable = columns
        .iter()
        .any(|c| c.values.iter().any(|v| v.is_finite()))
        && lyapunov.iter().any(|c| c.largest().is_some());
    if drawable {
        batch.figure(
            "orbit_diagram_lyapunov",
            &diagram_lyapunov_figure(columns, lyapunov, model, param, component),
        )?;
    }
    batch.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_leaves_failed_runs_empty_and_says_why() {
        let cols = [
            LyapunovColumn {
                param: 0.5,
                exponents: vec![-0.25, -1.5],
                failure: None,
            },
            LyapunovColumn {
                param: 0.75,
                exponents: vec![],
                failure: Some("stride 3: the walker fell, twice".into()),
            },
        ];
        assert_eq!(
            lyapunov_csv("gamma", &cols, 2),
            "gamma,lambda_1,lambda_2,failure\n0.5,-0.25,-1.5,\n\
             0.75,,,\"stride 3: the walker fell, twice\"\n"
        );
        let v = lyapunov_json(&cols);
        assert_eq!(v[0]["exponents"], json!([-0.25, -1.5]));
        assert_eq!(v[1]["failure"], "stride 3: the walker fell, twice");
    }
}
