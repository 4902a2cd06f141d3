//! The study's figures: work–precision per strategy, the response of one set (the study's
//! Figure 2) and the error of each solver against the reference (its Figure 3).

use super::points::Criterion;
use super::runner::{study_name, StudyResult};
use super::spec::StudySpec;
use crate::{Batch, ReportError};
use saltation_models::monopod::Strategy;
use saltation_plot::{Color, LegendPosition, Series, TimeSeries, WorkPrecision};

/// Largest number of points drawn per curve (the grid is thinned evenly beyond it).
const MAX_DRAWN: usize = 5001;

/// Every `k`-th point so that at most [`MAX_DRAWN`] remain (the last one kept).
fn thin(t: &[f64], y: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let k = t.len().div_ceil(MAX_DRAWN).max(1);
    let idx: Vec<usize> = (0..t.len())
        .step_by(k)
        .chain((!t.is_empty() && !(t.len() - 1).is_multiple_of(k)).then(|| t.len() - 1))
        .collect();
    (
        idx.iter().map(|&i| t[i]).collect(),
        idx.iter().map(|&i| y[i]).collect(),
    )
}

/// Geometric mean of the positive values, `None` if there are none.
fn geometric_mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = v
        .filter(|x| *x > 0.0)
        .fold((0.0, 0usize), |(s, n), x| (s + x.ln(), n + 1));
    (n > 0).then(|| (sum / n as f64).exp())
}

/// Work–precision for one strategy: per solver, one point per tolerance at the geometric means
/// over the sets of IAE (x) and SD (y).
pub fn work_precision(spec: &StudySpec, r: &StudyResult, strategy: Strategy) -> WorkPrecision {
    let mut fig = WorkPrecision::new(format!(
        "monopod, {} strategy: geometric means over {} set(s)",
        strategy.name(),
        spec.sets.len()
    ));
    fig.x_label = "IAE of y1 (eq. 33)".into();
    fig.y_label = "solution duration SD / s".into();
    fig.legend = LegendPosition::Auto;
    for (i, &m) in spec.methods.iter().enumerate() {
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for &tol in &spec.tolerances {
            let runs = || {
                r.runs
                    .iter()
                    .filter(move |x| x.method == m && x.tol == tol && x.strategy == strategy)
            };
            let iae = geometric_mean(runs().filter_map(|x| Criterion::Iae.value(x)));
            let sd = geometric_mean(runs().filter_map(|x| Criterion::Sd.value(x)));
            if let (Some(iae), Some(sd)) = (iae, sd) {
                xs.push(iae);
                ys.push(sd);
            }
        }
        fig.methods
            .push(Series::new(study_name(m), xs, ys).with_color(Color::palette(i)));
    }
    fig
}

/// The response of the figure set: reference body and toe heights and each solver's toe
/// height at the figure tolerance and strategy, with the reference touchdowns.
pub fn response(spec: &StudySpec, r: &StudyResult) -> TimeSeries {
    let f = &spec.figures;
    let reference = &r.references[f.set - 1];
    let mut fig = TimeSeries::new(
        format!(
            "monopod set {}: response, solvers at tol {:e} ({})",
            f.set,
            f.tol,
            f.strategy.name()
        ),
        "t*",
        "height",
    );
    let (t, y2) = thin(&r.t, &reference.y2);
    fig.series
        .push(Series::new("body y2 (reference)", t, y2).with_color(Color::BLACK));
    let (t, y1) = thin(&r.t, &reference.y1);
    fig.series
        .push(Series::new("toe y1 (reference)", t, y1).with_color(Color::GREY));
    for (i, (m, y1)) in r.figure.y1.iter().enumerate() {
        let (t, y) = thin(&r.t, y1);
        fig.series.push(
            Series::new(format!("toe y1, {}", study_name(*m)), t, y)
                .with_color(Color::palette(i))
                .dashed(),
        );
    }
    fig.legend = LegendPosition::Auto;
    fig.with_events(
        "touchdown (reference)",
        reference.touchdowns.iter().copied(),
    )
}

/// The toe-height error of each solver of the figure runs against the reference (log scale).
pub fn error(spec: &StudySpec, r: &StudyResult) -> TimeSeries {
    let f = &spec.figures;
    let reference = &r.references[f.set - 1];
    let mut fig = TimeSeries::new(
        format!(
            "monopod set {}: |y1 - y1_ref| at tol {:e} ({})",
            f.set,
            f.tol,
            f.strategy.name()
        ),
        "t*",
        "absolute error of the toe height",
    );
    fig.log_y = true;
    for (i, (m, y1)) in r.figure.y1.iter().enumerate() {
        let e: Vec<f64> = y1
            .iter()
            .zip(&reference.y1)
            .map(|(a, b)| (a - b).abs())
            .collect();
        let (t, e) = thin(&r.t, &e);
        fig.series
            .push(Series::new(study_name(*m), t, e).with_color(Color::palette(i)));
    }
    fig.legend = LegendPosition::Auto;
    fig
}

/// Whether a work–precision figure has a point to draw.
fn has_points(fig: &WorkPrecision) -> bool {
    fig.methods.iter().any(|m| !m.x.is_empty())
}

/// The figures [`write_figures`] leaves out, with why: a work–precision panel without a point
/// (every run of its strategy failed, or every IAE is 0, which a logarithmic axis cannot show).
/// A legitimate result, so reported in the tables rather than failing the output.
pub(crate) fn not_drawn(spec: &StudySpec, r: &StudyResult) -> Vec<String> {
    spec.strategies
        .iter()
        .filter(|&&strategy| !has_points(&work_precision(spec, r, strategy)))
        .map(|strategy| {
            format!(
                "work_precision_{}: no method has a run of this strategy with a finite, positive \
                 IAE and SD (every run failed, or every IAE is 0)",
                strategy.name()
            )
        })
        .collect()
}

/// Writes the figures into the batch.
pub(crate) fn write_figures(
    spec: &StudySpec,
    r: &StudyResult,
    batch: &mut Batch<'_>,
) -> Result<(), ReportError> {
    for &strategy in &spec.strategies {
        let fig = work_precision(spec, r, strategy);
        // Not drawn when empty (listed by `not_drawn`, which the tables report).
        if has_points(&fig) {
            let name = format!("work_precision_{}", strategy.name());
            batch.figure(&name, &fig)?;
        }
    }
    if !r.figure.y1.is_empty() {
        batch.figure("response", &response(spec, r))?;
        batch.figure("error", &error(spec, r))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_ends_and_the_bound() {
        let t: Vec<f64> = (0..50_001).map(f64::from).collect();
        let (a, _) = thin(&t, &t);
        assert!(a.len() <= MAX_DRAWN + 1);
        assert_eq!(a.first(), Some(&0.0));
        assert_eq!(a.last(), Some(&50_000.0));
        let short = [0.0, 1.0, 2.0];
        assert_eq!(thin(&short, &short).0, short.to_vec());
    }
}
