//! Bifurcation diagrams: one state component of the periodic orbits against a parameter.

use plotters::prelude::*;

use crate::axis::{make_axes, Extent, Scale};
use crate::draw::{draw_curves, stability_runs, Curve};
use crate::frame::{check_len, trace, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::markers::{draw_bifurcations, legend_entries, BifurcationPoint};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition, LineStyle};
use crate::PlotError;

const FIGURE: &str = "BifurcationDiagram";

/// One branch of periodic orbits (period 1, period 2, …).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Branch {
    /// Legend text, e.g. `"period 2"`.
    pub label: String,
    /// Parameter value of each point on the branch.
    pub parameter: Vec<f64>,
    /// For each point, the plotted state component at each of the orbit's `k` section
    /// crossings (one value for period 1, two for period 2, …). The j-th values of successive
    /// points are joined into the j-th curve; points may have different counts.
    pub values: Vec<Vec<f64>>,
    /// Empty, or one flag per point: stable stretches are drawn solid, unstable ones dashed.
    /// Empty means unknown and draws everything solid.
    pub stable: Vec<bool>,
    /// Colour; `None` takes [`Color::palette`] by branch index.
    pub color: Option<Color>,
}

impl Branch {
    /// A period-1 branch: one value per point.
    pub fn new(
        label: impl Into<String>,
        parameter: Vec<f64>,
        value: Vec<f64>,
        stable: Vec<bool>,
    ) -> Self {
        Self {
            label: label.into(),
            parameter,
            values: value.into_iter().map(|v| vec![v]).collect(),
            stable,
            color: None,
        }
    }

    /// A period-k branch: `values[i]` holds the k values at point `i`.
    pub fn period_k(
        label: impl Into<String>,
        parameter: Vec<f64>,
        values: Vec<Vec<f64>>,
        stable: Vec<bool>,
    ) -> Self {
        Self {
            label: label.into(),
            parameter,
            values,
            stable,
            color: None,
        }
    }

    /// Sets the colour.
    pub fn with_color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }
}

/// A state component of periodic orbits against a parameter, for several branches; stable
/// stretches solid, unstable dashed, bifurcation points marked and labelled.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BifurcationDiagram {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label: the parameter.
    pub x_label: String,
    /// y axis label: the state component, e.g. `"θ at heel strike / rad"`.
    pub y_label: String,
    /// The branches; at least one finite point in all.
    pub branches: Vec<Branch>,
    /// Bifurcation points, at (`parameter`, `value`).
    pub bifurcations: Vec<BifurcationPoint>,
    /// Fixed parameter range; `None`: automatic.
    pub x_range: Option<(f64, f64)>,
    /// Fixed value range; `None`: automatic.
    pub y_range: Option<(f64, f64)>,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl BifurcationDiagram {
    /// An empty diagram with a title and axis labels.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Self {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            ..Self::default()
        }
    }

    /// Adds a branch.
    pub fn with_branch(mut self, branch: Branch) -> Self {
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
        let mut entries = Vec::new();
        let mut any_unstable = false;
        for (i, b) in self.branches.iter().enumerate() {
            let n = b.parameter.len();
            check_len(FIGURE, &b.label, "values", n, b.values.len())?;
            if !b.stable.is_empty() {
                check_len(FIGURE, &b.label, "stable", n, b.stable.len())?;
            }
            let stable = if b.stable.is_empty() {
                vec![true; n]
            } else {
                b.stable.clone()
            };
            let color = b.color.unwrap_or(Color::palette(i));
            let kmax = b.values.iter().map(Vec::len).max().unwrap_or(0);
            for k in 0..kmax {
                let pts: Vec<(f64, f64)> = b
                    .parameter
                    .iter()
                    .zip(&b.values)
                    .map(|(&p, v)| (p, v.get(k).copied().unwrap_or(f64::NAN)))
                    .collect();
                for &(x, y) in &pts {
                    if x.is_finite() && y.is_finite() {
                        ex.add(x);
                        ey.add(y);
                        occupied.push((x, y));
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
        for bp in &self.bifurcations {
            if bp.parameter.is_finite() && bp.value.is_finite() {
                ex.add(bp.parameter);
                ey.add(bp.value);
            }
        }
        let scale = |fixed, margin| Scale {
            log: false,
            fixed,
            margin,
        };
        let axes = make_axes(
            FIGURE,
            (ex, ey),
            scale(self.x_range, 0.03),
            scale(self.y_range, 0.08),
        )?;
        if any_unstable {
            entries.push((
                "unstable".into(),
                Sample::Line(Color::BLACK, LineStyle::Dashed),
            ));
        }
        entries.extend(legend_entries(&self.bifurcations));
        let frame = Frame::plain(
            [&self.title, &self.x_label, &self.y_label],
            axes,
            self.y_range,
            self.legend,
            entries,
            occupied,
        );
        Ok(Prepared {
            frame,
            curves,
            bifurcations: self.bifurcations.clone(),
        })
    }
}

impl_figure!(BifurcationDiagram);

struct Prepared {
    frame: Frame,
    curves: Vec<Curve>,
    bifurcations: Vec<BifurcationPoint>,
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
        draw_curves(chart, ctx, &self.curves)?;
        let pts: Vec<_> = self
            .bifurcations
            .iter()
            .map(|b| (b, (b.parameter, b.value)))
            .collect();
        draw_bifurcations(chart, ctx, &pts)
    }
}
