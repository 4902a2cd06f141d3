//! Floquet multipliers in the complex plane, with the unit circle (the stability boundary).

use plotters::prelude::*;

use crate::axis::{make_axes, Extent, Scale};
use crate::draw::{polyline, MarkerAt};
use crate::frame::{check_len, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition, LineStyle, Marker};
use crate::PlotError;

const FIGURE: &str = "ComplexPlanePlot";

/// A set of complex numbers drawn with one marker: e.g. the multipliers of a stable gait, or
/// those from the variational equations next to those from finite differences.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PointGroup {
    /// Legend text; empty keeps the group out of the legend.
    pub label: String,
    /// The numbers as `(re, im)`. Non-finite ones are skipped.
    pub points: Vec<(f64, f64)>,
    /// Marker shape (default circle).
    pub marker: Marker,
    /// Marker colour; `None` takes [`Color::palette`] by group index. Ignored for points
    /// coloured by `parameter`.
    pub color: Option<Color>,
    /// Filled (default) or outlined markers; outlines let a second group show through, e.g.
    /// finite-difference multipliers (hollow) on top of variational ones (filled).
    pub hollow: bool,
    /// Empty, or one parameter value per point: the points are then coloured by this value on a
    /// viridis scale shared by all groups, with a colour bar (e.g. multipliers along a branch).
    pub parameter: Vec<f64>,
}

impl PointGroup {
    /// Filled circles in the default colour.
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self {
            label: label.into(),
            points,
            ..Self::default()
        }
    }

    /// Sets the marker shape.
    pub fn with_marker(mut self, marker: Marker) -> Self {
        self.marker = marker;
        self
    }

    /// Sets the colour.
    pub fn with_color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }

    /// Draws outlined markers.
    pub fn hollow(mut self) -> Self {
        self.hollow = true;
        self
    }

    /// Colours each point by a parameter value (one per point).
    pub fn with_parameter(mut self, parameter: Vec<f64>) -> Self {
        self.parameter = parameter;
        self
    }
}

/// Multipliers in the complex plane: the unit circle, axes through the origin, equal scales on
/// both axes (so the circle is round), and one marker style per [`PointGroup`].
///
/// The automatic range contains the unit circle and every point; far-away multipliers (|μ| ≫ 1)
/// widen it, so pass `range` to zoom in (points outside are then not drawn).
#[derive(Debug, Clone, PartialEq)]
pub struct ComplexPlanePlot {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label; default `"Re μ"`.
    pub x_label: String,
    /// y axis label; default `"Im μ"`.
    pub y_label: String,
    /// The groups of points; at least one finite point in all.
    pub groups: Vec<PointGroup>,
    /// Label of the colour bar when some group has `parameter` values.
    pub parameter_label: String,
    /// Draw the unit circle (default `true`).
    pub unit_circle: bool,
    /// Show `[-r, r]²` (one axis widened to keep equal scales); `None`: fit the data and the
    /// unit circle.
    pub range: Option<f64>,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl Default for ComplexPlanePlot {
    fn default() -> Self {
        Self {
            title: String::new(),
            x_label: "Re \u{3bc}".into(),
            y_label: "Im \u{3bc}".into(),
            groups: Vec::new(),
            parameter_label: String::new(),
            unit_circle: true,
            range: None,
            legend: LegendPosition::Auto,
        }
    }
}

impl ComplexPlanePlot {
    /// An empty plot with a title and the default axis labels.
    pub fn new(title: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            ..Self::default()
        }
    }

    /// Adds a group of points.
    pub fn with_group(mut self, group: PointGroup) -> Self {
        self.groups.push(group);
        self
    }

    fn prepare(&self) -> Result<Prepared, PlotError> {
        let (mut ex, mut ey) = (Extent::default(), Extent::default());
        let (mut plo, mut phi) = (f64::INFINITY, f64::NEG_INFINITY);
        let mut any = false;
        for g in &self.groups {
            if !g.parameter.is_empty() {
                check_len(
                    FIGURE,
                    &g.label,
                    "parameter",
                    g.points.len(),
                    g.parameter.len(),
                )?;
                for p in g.parameter.iter().filter(|p| p.is_finite()) {
                    plo = plo.min(*p);
                    phi = phi.max(*p);
                }
            }
            for &(re, im) in &g.points {
                if re.is_finite() && im.is_finite() {
                    any = true;
                    ex.add(re);
                    ey.add(im);
                }
            }
        }
        if !any {
            return Err(PlotError::EmptyData { figure: FIGURE });
        }
        if self.unit_circle {
            for v in [-1.0, 1.0] {
                ex.add(v);
                ey.add(v);
            }
        }
        let fixed = match self.range {
            Some(r) if r.is_finite() && r > 0.0 => Some((-r, r)),
            Some(r) => {
                return Err(PlotError::InvalidRange {
                    figure: FIGURE,
                    axis: "x",
                    lo: -r,
                    hi: r,
                })
            }
            None => None,
        };
        let scale = Scale {
            log: false,
            fixed,
            margin: 0.08,
        };
        let (x, y) = make_axes(FIGURE, (ex, ey), scale, scale)?;

        let coloured = plo <= phi;
        let mut entries = Vec::new();
        let mut groups = Vec::new();
        let mut occupied = Vec::new();
        for (i, g) in self.groups.iter().enumerate() {
            let base = g.color.unwrap_or(Color::palette(i));
            let by_param = coloured && !g.parameter.is_empty();
            let pts: Vec<((f64, f64), Color)> = g
                .points
                .iter()
                .enumerate()
                .filter(|(_, (re, im))| re.is_finite() && im.is_finite())
                .map(|(k, &p)| {
                    let c = if by_param {
                        let span = (phi - plo).max(f64::MIN_POSITIVE);
                        Color::viridis((g.parameter[k] - plo) / span)
                    } else {
                        base
                    };
                    (p, c)
                })
                .collect();
            occupied.extend(pts.iter().map(|(p, _)| *p));
            if !g.label.is_empty() {
                let c = if by_param {
                    Color::rgb(60, 60, 60)
                } else {
                    base
                };
                entries.push((g.label.clone(), Sample::Marker(c, g.marker, !g.hollow)));
            }
            groups.push((pts, g.marker, !g.hollow));
        }
        if self.unit_circle {
            entries.push((
                "|\u{3bc}| = 1".into(),
                Sample::Line(Color::GREY, LineStyle::Solid),
            ));
        }
        let frame = Frame {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            y_label: self.y_label.clone(),
            x,
            y,
            y_fixed: true,
            equal_aspect: true,
            legend: self.legend,
            entries,
            colorbar: coloured.then(|| (self.parameter_label.clone(), plo, phi)),
            occupied,
        };
        Ok(Prepared {
            frame,
            groups,
            unit_circle: self.unit_circle,
        })
    }
}

impl_figure!(ComplexPlanePlot);

/// A group in plot coordinates: points with their colours, marker, filled.
type Group = (Vec<((f64, f64), Color)>, Marker, bool);

struct Prepared {
    frame: Frame,
    groups: Vec<Group>,
    unit_circle: bool,
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
        let axis_w = ctx.px(1.2).max(1) as u32;
        let black = Color::BLACK;
        polyline(
            chart,
            ctx,
            &[(ctx.x.lo, 0.0), (ctx.x.hi, 0.0)],
            black,
            LineStyle::Solid,
            axis_w,
        )?;
        polyline(
            chart,
            ctx,
            &[(0.0, ctx.y.lo), (0.0, ctx.y.hi)],
            black,
            LineStyle::Solid,
            axis_w,
        )?;
        if self.unit_circle {
            let circle: Vec<(f64, f64)> = (0..=720)
                .map(|k| f64::from(k) * std::f64::consts::TAU / 720.0)
                .map(|a| (a.cos(), a.sin()))
                .collect();
            polyline(
                chart,
                ctx,
                &circle,
                Color::GREY,
                LineStyle::Solid,
                ctx.px(2.0) as u32,
            )?;
        }
        let inside = |p: &(f64, f64)| {
            (ctx.x.lo..=ctx.x.hi).contains(&p.0) && (ctx.y.lo..=ctx.y.hi).contains(&p.1)
        };
        for (pts, marker, filled) in &self.groups {
            chart.draw_series(
                pts.iter()
                    .filter(|(p, _)| inside(p))
                    .map(|&(p, c)| MarkerAt::new(p, *marker, c, *filled, ctx, 1.3)),
            )?;
        }
        Ok(())
    }
}
