//! Orbit diagrams ("brute-force bifurcation diagrams"): after transients, the state component at
//! each of many strides, against the parameter, as small dots.
//!
//! Dots are merged per output pixel before drawing, so hundreds of thousands of points render in
//! about the time of the distinct pixels they cover, and the SVG stays small.

use std::collections::HashSet;

use plotters::prelude::*;
use plotters::style::Color as _;

use crate::axis::{make_axes, to_plot, Extent, Scale};
use crate::frame::{check_len, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition};
use crate::PlotError;

const FIGURE: &str = "OrbitDiagram";

/// A parameter interval where the simulation failed (e.g. the walker fell), shaded over the
/// full height of the plot.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureRegion {
    /// Start of the interval (may be `-∞`: from the left edge).
    pub from: f64,
    /// End of the interval (may be `+∞`: to the right edge).
    pub to: f64,
    /// Legend text, e.g. `"walker falls"`; regions with equal labels share one legend entry.
    pub label: String,
}

impl FailureRegion {
    /// The interval `[from, to]` labelled `label`.
    pub fn new(from: f64, to: f64, label: impl Into<String>) -> Self {
        Self {
            from,
            to,
            label: label.into(),
        }
    }
}

/// Many `(parameter, value)` points as dots, plus shaded failure regions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OrbitDiagram {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label: the parameter.
    pub x_label: String,
    /// y axis label: the sampled state component.
    pub y_label: String,
    /// Parameter of each point.
    pub parameter: Vec<f64>,
    /// Value of each point; same length as `parameter`. Non-finite points are skipped.
    pub value: Vec<f64>,
    /// Dot colour; `None`: near-black.
    pub color: Option<Color>,
    /// Shaded parameter intervals where the system failed.
    pub failures: Vec<FailureRegion>,
    /// Logarithmic parameter axis (non-positive parameters are skipped).
    pub log_x: bool,
    /// Fixed parameter range; `None`: automatic.
    pub x_range: Option<(f64, f64)>,
    /// Fixed value range; `None`: automatic.
    pub y_range: Option<(f64, f64)>,
    /// Where the legend (only shown for failure regions) goes.
    pub legend: LegendPosition,
}

impl OrbitDiagram {
    /// A diagram of the points `(parameter[i], value[i])`.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
        parameter: Vec<f64>,
        value: Vec<f64>,
    ) -> Self {
        Self {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            parameter,
            value,
            ..Self::default()
        }
    }

    /// Adds a shaded failure region.
    pub fn with_failure(mut self, region: FailureRegion) -> Self {
        self.failures.push(region);
        self
    }

    pub(crate) fn prepare(&self) -> Result<Prepared, PlotError> {
        check_len(
            FIGURE,
            "points",
            "value",
            self.parameter.len(),
            self.value.len(),
        )?;
        let (mut ex, mut ey) = (Extent::default(), Extent::default());
        let pts: Vec<(f64, f64)> = self
            .parameter
            .iter()
            .zip(&self.value)
            .map(|(&p, &v)| (to_plot(self.log_x, p), v))
            .filter(|(p, v)| p.is_finite() && v.is_finite())
            .collect();
        for &(p, v) in &pts {
            ex.add(p);
            ey.add(v);
        }
        if pts.is_empty() && self.x_range.is_none() {
            return Err(PlotError::EmptyData { figure: FIGURE });
        }
        let mut regions = Vec::new();
        let mut entries: Vec<(String, Sample)> = Vec::new();
        let red = Color::rgb(214, 39, 40);
        for r in &self.failures {
            let (a, b) = (to_plot(self.log_x, r.from), to_plot(self.log_x, r.to));
            // A region from -inf on a log axis maps to NaN: treat as from the left edge.
            let a = if r.from == f64::NEG_INFINITY || (self.log_x && r.from <= 0.0) {
                f64::NEG_INFINITY
            } else {
                a
            };
            if a.is_nan() || b.is_nan() || a > b {
                continue;
            }
            ex.add(a);
            ex.add(b);
            regions.push((a, b));
            if !r.label.is_empty() && !entries.iter().any(|(l, _)| *l == r.label) {
                entries.push((r.label.clone(), Sample::Patch(red)));
            }
        }
        let x = Scale {
            log: self.log_x,
            fixed: self.x_range,
            margin: 0.02,
        };
        let y = Scale {
            log: false,
            fixed: self.y_range,
            margin: 0.05,
        };
        let axes = make_axes(FIGURE, (ex, ey), x, y)?;
        let frame = Frame::plain(
            [&self.title, &self.x_label, &self.y_label],
            axes,
            self.y_range,
            self.legend,
            entries,
            pts.clone(),
        );
        Ok(Prepared {
            frame,
            pts,
            regions,
            color: self.color.unwrap_or(Color::rgb(20, 20, 40)),
            region_color: red,
        })
    }
}

impl_figure!(OrbitDiagram);

/// A diagram ready to draw (also the upper panel of [`crate::DiagramWithPanel`]).
pub(crate) struct Prepared {
    pub(crate) frame: Frame,
    pts: Vec<(f64, f64)>,
    regions: Vec<(f64, f64)>,
    color: Color,
    region_color: Color,
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
        let (x, y) = (ctx.x, ctx.y);
        let fill = self.region_color.rgb_color().mix(0.15).filled();
        let edge = self
            .region_color
            .rgb_color()
            .mix(0.6)
            .stroke_width(ctx.px(1.5) as u32);
        for &(a, b) in &self.regions {
            let (a, b) = (a.max(x.lo), b.min(x.hi));
            if a < b {
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(a, y.lo), (b, y.hi)],
                    fill,
                )))?;
                for e in [a, b].into_iter().filter(|e| *e > x.lo && *e < x.hi) {
                    let line = PathElement::new(vec![(e, y.lo), (e, y.hi)], edge);
                    chart.draw_series(std::iter::once(line))?;
                }
            }
        }
        // One dot per output pixel; vertically adjacent dots are merged into one rectangle, which
        // keeps dense (chaotic) columns cheap, above all in SVG.
        let cell = ctx.px(1.0).max(1);
        let (w, h) = ctx.plot_px;
        let (cx, cy) = (
            f64::from(w) / f64::from(cell),
            f64::from(h) / f64::from(cell),
        );
        let cells: HashSet<(u32, u32)> = self
            .pts
            .iter()
            .map(|&(px, py)| (x.frac(px), y.frac(py)))
            .filter(|(u, v)| (0.0..=1.0).contains(u) && (0.0..=1.0).contains(v))
            .map(|(u, v)| ((u * cx) as u32, (v * cy) as u32))
            .collect();
        let mut cells: Vec<(u32, u32)> = cells.into_iter().collect();
        cells.sort_unstable();
        let (ux, uy) = (x.span() / cx, y.span() / cy);
        let style = self.color.rgb_color().filled();
        let dots = cells
            .chunk_by(|a, b| a.0 == b.0 && a.1 + 1 == b.1)
            .map(|run| {
                let (col, r0, r1) = (run[0].0, run[0].1, run[run.len() - 1].1);
                let x0 = x.lo + f64::from(col) * ux;
                let (y0, y1) = (y.lo + f64::from(r0) * uy, y.lo + f64::from(r1 + 1) * uy);
                Rectangle::new([(x0, y0), (x0 + ux, y1)], style)
            });
        chart.draw_series(dots)?;
        Ok(())
    }
}
