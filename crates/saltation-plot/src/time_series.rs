//! Line plots: state components against time over a stride (with impact times marked), and
//! phase portraits (one component against another).

use plotters::prelude::*;

use crate::axis::{make_axes, Extent, Scale};
use crate::draw::{polyline, MarkerAt};
use crate::frame::{check_len, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition, LineStyle, Marker};
use crate::PlotError;

/// One curve: `y[i]` against `x[i]`, drawn in the order given (so a closed orbit in a phase
/// portrait is drawn as a loop). Non-finite points break the line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Series {
    /// Legend text; an empty label keeps the series out of the legend.
    pub label: String,
    /// Abscissae (time, or the first state component of a phase portrait).
    pub x: Vec<f64>,
    /// Ordinates; must have the same length as `x`.
    pub y: Vec<f64>,
    /// Solid (default), dashed or dotted.
    pub line: LineStyle,
    /// Line colour; `None` takes the next colour of [`Color::palette`] (counting series).
    pub color: Option<Color>,
    /// A marker at every point (for sparse data, e.g. one point per tolerance); `None`: line only.
    pub marker: Option<Marker>,
}

impl Series {
    /// A solid line in the default colour.
    pub fn new(label: impl Into<String>, x: Vec<f64>, y: Vec<f64>) -> Self {
        Self {
            label: label.into(),
            x,
            y,
            ..Self::default()
        }
    }

    /// Sets the line style.
    pub fn with_line(mut self, line: LineStyle) -> Self {
        self.line = line;
        self
    }

    /// Draws the line dashed.
    pub fn dashed(self) -> Self {
        self.with_line(LineStyle::Dashed)
    }

    /// Sets the colour.
    pub fn with_color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }

    /// Puts `marker` at every point.
    pub fn with_marker(mut self, marker: Marker) -> Self {
        self.marker = Some(marker);
        self
    }
}

/// Curves against a common abscissa: the angles of a walker over one stride against time, with
/// the impact times as vertical lines; or a phase portrait (set `x_label`/`y_label` to the two
/// components and leave `events` empty).
///
/// Axis ranges are automatic (data extent plus a small margin) unless given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TimeSeries {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label, e.g. `"t"`.
    pub x_label: String,
    /// y axis label, e.g. `"angle / rad"`.
    pub y_label: String,
    /// The curves; at least one must have a finite point.
    pub series: Vec<Series>,
    /// x positions of events (impacts, mode switches), drawn as grey dashed vertical lines.
    pub events: Vec<f64>,
    /// Legend text for the event lines (e.g. `"impact"`); empty: not in the legend.
    pub event_label: String,
    /// Fixed x range in data units; `None`: automatic.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range in data units; `None`: automatic.
    pub y_range: Option<(f64, f64)>,
    /// Logarithmic x axis (non-positive x values are skipped).
    pub log_x: bool,
    /// Logarithmic y axis (non-positive y values are skipped).
    pub log_y: bool,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl TimeSeries {
    /// An empty plot with a title and axis labels.
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

    /// Adds a curve.
    pub fn with_series(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }

    /// Adds event lines at `xs`, labelled `label` in the legend.
    pub fn with_events(
        mut self,
        label: impl Into<String>,
        xs: impl IntoIterator<Item = f64>,
    ) -> Self {
        self.event_label = label.into();
        self.events.extend(xs);
        self
    }

    fn prepare(&self) -> Result<LinePlot, PlotError> {
        prepare_lines("TimeSeries", self, false)
    }
}

impl_figure!(TimeSeries);

/// A series in plot coordinates: points, colour, line style, marker.
type Line = (Vec<(f64, f64)>, Color, LineStyle, Option<Marker>);

/// A prepared line plot (shared with [`WorkPrecision`](crate::WorkPrecision)).
pub(crate) struct LinePlot {
    pub(crate) frame: Frame,
    lines: Vec<Line>,
    events: Vec<f64>,
}

/// Validates `ts` and maps it to plot coordinates; `default_markers` gives every series without
/// a marker one of a cycle of shapes.
pub(crate) fn prepare_lines(
    figure: &'static str,
    ts: &TimeSeries,
    default_markers: bool,
) -> Result<LinePlot, PlotError> {
    const SHAPES: [Marker; 5] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
        Marker::Cross,
    ];
    let (mut ex, mut ey) = (Extent::default(), Extent::default());
    let mut lines = Vec::with_capacity(ts.series.len());
    let mut entries = Vec::new();
    let mut occupied = Vec::new();
    for (i, s) in ts.series.iter().enumerate() {
        check_len(figure, &s.label, "y", s.x.len(), s.y.len())?;
        let pts: Vec<(f64, f64)> =
            s.x.iter()
                .zip(&s.y)
                .map(|(&x, &y)| {
                    (
                        crate::axis::to_plot(ts.log_x, x),
                        crate::axis::to_plot(ts.log_y, y),
                    )
                })
                .collect();
        for &(x, y) in &pts {
            if x.is_finite() && y.is_finite() {
                ex.add(x);
                ey.add(y);
                occupied.push((x, y));
            }
        }
        let color = s.color.unwrap_or(Color::palette(i));
        // A lone point has no line: give it a marker so that it shows.
        let finite = pts
            .iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .count();
        let marker = s
            .marker
            .or((default_markers || finite == 1).then_some(SHAPES[i % SHAPES.len()]));
        if !s.label.is_empty() {
            let sample = match marker {
                Some(m) => Sample::LineMarker(color, s.line, m),
                None => Sample::Line(color, s.line),
            };
            entries.push((s.label.clone(), sample));
        }
        lines.push((pts, color, s.line, marker));
    }
    let events: Vec<f64> = ts
        .events
        .iter()
        .map(|&t| crate::axis::to_plot(ts.log_x, t))
        .filter(|t| t.is_finite())
        .collect();
    if ex.is_empty() && ts.x_range.is_none() {
        return Err(PlotError::EmptyData { figure });
    }
    if !events.is_empty() && !ts.event_label.is_empty() {
        entries.push((
            ts.event_label.clone(),
            Sample::Line(Color::GREY, LineStyle::Dashed),
        ));
    }
    let x = Scale {
        log: ts.log_x,
        fixed: ts.x_range,
        margin: 0.02,
    };
    let y = Scale {
        log: ts.log_y,
        fixed: ts.y_range,
        margin: 0.06,
    };
    let axes = make_axes(figure, (ex, ey), x, y)?;
    let frame = Frame::plain(
        [&ts.title, &ts.x_label, &ts.y_label],
        axes,
        ts.y_range,
        ts.legend,
        entries,
        occupied,
    );
    Ok(LinePlot {
        frame,
        lines,
        events,
    })
}

impl Body for LinePlot {
    fn frame(&self) -> &Frame {
        &self.frame
    }

    fn draw<DB: DrawingBackend>(
        &self,
        chart: &mut Chart<'_, DB>,
        ctx: &Ctx,
    ) -> Result<(), DrawFail> {
        for &t in &self.events {
            let pts = [(t, ctx.y.lo), (t, ctx.y.hi)];
            polyline(
                chart,
                ctx,
                &pts,
                Color::GREY,
                LineStyle::Dashed,
                ctx.px(1.5).max(1) as u32,
            )?;
        }
        for (pts, color, style, _) in &self.lines {
            polyline(chart, ctx, pts, *color, *style, ctx.line_w)?;
        }
        for (pts, color, _, marker) in &self.lines {
            let Some(m) = marker else { continue };
            let inside = |p: &&(f64, f64)| {
                (ctx.x.lo..=ctx.x.hi).contains(&p.0) && (ctx.y.lo..=ctx.y.hi).contains(&p.1)
            };
            chart.draw_series(
                pts.iter()
                    .filter(inside)
                    .map(|&p| MarkerAt::new(p, *m, *color, true, ctx, 1.0)),
            )?;
        }
        Ok(())
    }
}
