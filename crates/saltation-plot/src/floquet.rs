//! Moduli of the Floquet multipliers against a parameter, along one or more branches.

use plotters::prelude::*;

use crate::axis::{make_axes, to_plot, Extent, Scale};
use crate::draw::{draw_curves, polyline, stability_runs, Curve};
use crate::frame::{check_len, trace, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::markers::{draw_bifurcations, legend_entries, BifurcationPoint};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition, LineStyle};
use crate::PlotError;

const FIGURE: &str = "FloquetPlot";

/// Moduli below this are numerically zero multipliers (e.g. from a rank-deficient impact map):
/// drawn if the axis reaches them, but ignored when fitting a logarithmic axis.
const ZERO_MODULUS: f64 = 1e-12;

/// The multipliers along one branch of periodic orbits.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FloquetBranch {
    /// Legend text, e.g. `"period 1"`.
    pub label: String,
    /// Parameter value of each point on the branch.
    pub parameter: Vec<f64>,
    /// For each point, the moduli |μ| of its multipliers, in any order: each point's moduli are
    /// sorted, and the k-th largest are joined into the k-th curve (so curves never jump between
    /// multipliers). Points may have different counts.
    pub moduli: Vec<Vec<f64>>,
    /// Empty, or one flag per point: whether the orbit there is stable. Empty: stable where all
    /// moduli are below 1. Stable stretches are drawn solid, unstable ones dashed.
    pub stable: Vec<bool>,
    /// Colour of the branch; `None` takes [`Color::palette`] by branch index.
    pub color: Option<Color>,
}

impl FloquetBranch {
    /// A branch from the moduli at each point.
    pub fn new(label: impl Into<String>, parameter: Vec<f64>, moduli: Vec<Vec<f64>>) -> Self {
        Self {
            label: label.into(),
            parameter,
            moduli,
            ..Self::default()
        }
    }

    /// A branch from the multipliers `(re, im)` at each point.
    pub fn from_multipliers(
        label: impl Into<String>,
        parameter: Vec<f64>,
        multipliers: &[Vec<(f64, f64)>],
    ) -> Self {
        let moduli = multipliers
            .iter()
            .map(|m| m.iter().map(|(re, im)| re.hypot(*im)).collect())
            .collect();
        Self::new(label, parameter, moduli)
    }

    /// Sets the per-point stability flags.
    pub fn with_stability(mut self, stable: Vec<bool>) -> Self {
        self.stable = stable;
        self
    }

    /// Sets the colour.
    pub fn with_color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }
}

/// |μ| of every Floquet multiplier against the continuation parameter: the line |μ| = 1 is
/// marked, stable stretches are solid and unstable ones dashed, and bifurcation points sit on
/// |μ| = 1 with their labels.
#[derive(Debug, Clone, PartialEq)]
pub struct FloquetPlot {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label: the parameter, e.g. `"slope γ / rad"`.
    pub x_label: String,
    /// y axis label; default `"|μ|"`.
    pub y_label: String,
    /// The branches; at least one finite modulus in all.
    pub branches: Vec<FloquetBranch>,
    /// Bifurcation points (their `value` is ignored: markers go on |μ| = 1).
    pub bifurcations: Vec<BifurcationPoint>,
    /// Logarithmic |μ| axis (default `true`); zero moduli are then not drawn.
    pub log_y: bool,
    /// Fixed parameter range; `None`: automatic.
    pub x_range: Option<(f64, f64)>,
    /// Fixed |μ| range; `None`: automatic (always including 1).
    pub y_range: Option<(f64, f64)>,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl Default for FloquetPlot {
    fn default() -> Self {
        Self {
            title: String::new(),
            x_label: String::new(),
            y_label: "|\u{3bc}|".into(),
            branches: Vec::new(),
            bifurcations: Vec::new(),
            log_y: true,
            x_range: None,
            y_range: None,
            legend: LegendPosition::Auto,
        }
    }
}

impl FloquetPlot {
    /// An empty plot with a title and the parameter's axis label.
    pub fn new(title: impl Into<String>, parameter_label: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            x_label: parameter_label.into(),
            ..Self::default()
        }
    }

    /// Adds a branch.
    pub fn with_branch(mut self, branch: FloquetBranch) -> Self {
        self.branches.push(branch);
        self
    }

    /// Adds a bifurcation marker.
    pub fn with_bifurcation(mut self, point: BifurcationPoint) -> Self {
        self.bifurcations.push(point);
        self
    }

    fn prepare(&self) -> Result<Prepared, PlotError> {
        let (mut ex, mut ey) = (Extent::default(), Extent::default());
        let mut curves = Vec::new();
        let mut occupied = Vec::new();
        let mut any_unstable = false;
        let mut entries = Vec::new();
        for (i, b) in self.branches.iter().enumerate() {
            let n = b.parameter.len();
            check_len(FIGURE, &b.label, "moduli", n, b.moduli.len())?;
            if !b.stable.is_empty() {
                check_len(FIGURE, &b.label, "stable", n, b.stable.len())?;
            }
            let sorted: Vec<Vec<f64>> = b
                .moduli
                .iter()
                .map(|m| {
                    let mut m: Vec<f64> = m.iter().map(|v| v.abs()).collect();
                    m.sort_by(|a, c| c.total_cmp(a));
                    m
                })
                .collect();
            let stable: Vec<bool> = if b.stable.is_empty() {
                sorted.iter().map(|m| m.iter().all(|v| *v < 1.0)).collect()
            } else {
                b.stable.clone()
            };
            let x: Vec<f64> = b.parameter.iter().map(|&p| to_plot(false, p)).collect();
            let kmax = sorted.iter().map(Vec::len).max().unwrap_or(0);
            let color = b.color.unwrap_or(Color::palette(i));
            for k in 0..kmax {
                let pts: Vec<(f64, f64)> = x
                    .iter()
                    .zip(&sorted)
                    .map(|(&p, m)| {
                        let v = m.get(k).copied().unwrap_or(f64::NAN);
                        (p, to_plot(self.log_y, v))
                    })
                    .collect();
                for (&(px, py), m) in pts.iter().zip(&sorted) {
                    let real = m.get(k).is_some_and(|v| !self.log_y || *v > ZERO_MODULUS);
                    if px.is_finite() && py.is_finite() && real {
                        ex.add(px);
                        ey.add(py);
                        occupied.push((px, py));
                    }
                }
                for (s, run) in stability_runs(&pts, &stable) {
                    any_unstable |= !s;
                    occupied.extend(trace(&run));
                    curves.push(Curve {
                        pts: run,
                        color,
                        stable: s,
                    });
                }
            }
            if !b.label.is_empty() {
                entries.push((b.label.clone(), Sample::Line(color, LineStyle::Solid)));
            }
        }
        if ex.is_empty() {
            return Err(PlotError::EmptyData { figure: FIGURE });
        }
        ey.add(to_plot(self.log_y, 1.0));
        for bp in &self.bifurcations {
            ex.add(bp.parameter);
        }
        let x = Scale {
            log: false,
            fixed: self.x_range,
            margin: 0.03,
        };
        let y = Scale {
            log: self.log_y,
            fixed: self.y_range,
            margin: 0.06,
        };
        let axes = make_axes(FIGURE, (ex, ey), x, y)?;
        if any_unstable {
            entries.push((
                "unstable".into(),
                Sample::Line(Color::BLACK, LineStyle::Dashed),
            ));
        }
        entries.push((
            "|\u{3bc}| = 1".into(),
            Sample::Line(Color::GREY, LineStyle::Dotted),
        ));
        entries.extend(legend_entries(&self.bifurcations));
        let frame = Frame::plain(
            [&self.title, &self.x_label, &self.y_label],
            axes,
            self.y_range,
            self.legend,
            entries,
            occupied,
        );
        let one = to_plot(self.log_y, 1.0);
        let bifurcations = self
            .bifurcations
            .iter()
            .map(|b| (b.clone(), (b.parameter, one)))
            .collect();
        Ok(Prepared {
            frame,
            curves,
            bifurcations,
            one,
        })
    }
}

impl_figure!(FloquetPlot);

struct Prepared {
    frame: Frame,
    curves: Vec<Curve>,
    bifurcations: Vec<(BifurcationPoint, (f64, f64))>,
    one: f64,
}

impl Body for Prepared {
    fn frame(&self) -> &Frame {
        &self.frame
    }

    fn draw<DB: DrawingBackend>(
        &self,
        chart: &mut Chart<'_, DB>,
        ctx: &Ctx,
    ) -> Result<(), DrawFail> {
        let unit = [(ctx.x.lo, self.one), (ctx.x.hi, self.one)];
        polyline(
            chart,
            ctx,
            &unit,
            Color::GREY,
            LineStyle::Dotted,
            ctx.line_w,
        )?;
        draw_curves(chart, ctx, &self.curves)?;
        let pts: Vec<_> = self.bifurcations.iter().map(|(b, p)| (b, *p)).collect();
        draw_bifurcations(chart, ctx, &pts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two points far apart: the legend must see the line between them, not only its ends (on
    /// the vibrating table's branch the legend covered a segment that joined sparse points).
    #[test]
    fn the_legend_sees_the_lines_between_points() {
        let plot = FloquetPlot::new("", "p").with_branch(FloquetBranch::new(
            "b",
            vec![0.0, 1.0],
            vec![vec![0.5], vec![50.0]],
        ));
        let prepared = plot.prepare().expect("plot");
        let mid = (0.5, 0.5 * (0.5f64.log10() + 50f64.log10()));
        let near = |p: &(f64, f64)| (p.0 - mid.0).abs() < 0.04 && (p.1 - mid.1).abs() < 0.1;
        assert!(prepared.frame.occupied.iter().any(near));
    }
}
