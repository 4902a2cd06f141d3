//! The frame every figure is drawn in (internal): title, axes with ticks and grid, a legend
//! placed where it covers no data, and an optional colour bar.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color as _;

use crate::axis::{ticks, Axis};
use crate::colorbar::draw_colorbar;
use crate::draw::LegendGlyph;
use crate::font::FAMILY;
use crate::legend::place_legend;
use crate::style::{Color, LegendPosition, LineStyle, Marker};

/// One axis as plotters sees it: linear in plot coordinates, with our own tick positions
/// (plotters' `WithKeyPoints<RangedCoordf64>` cannot take a label formatter).
pub(crate) struct Coord {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for Coord {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        let p = f64::from(limit.0) + f64::from(limit.1 - limit.0) * f;
        if p.is_nan() {
            limit.0
        } else {
            // Far-away points stay far away without overflowing i32.
            p.clamp(-1e7, 1e7).round() as i32
        }
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}
/// The chart every figure body draws on.
pub(crate) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Coord, Coord>>;

/// A drawing failure from a backend, as text (the backend error types differ).
#[derive(Debug)]
pub(crate) struct DrawFail(pub String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawFail {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawFail(e.to_string())
    }
}

/// What a legend entry shows next to its label.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Sample {
    /// A short line.
    Line(Color, LineStyle),
    /// A short line of the thin width (see `draw::thin_width`).
    ThinLine(Color, LineStyle),
    /// A marker.
    Marker(Color, Marker, bool),
    /// A line with a marker on it.
    LineMarker(Color, LineStyle, Marker),
    /// A filled swatch (for shaded regions).
    Patch(Color),
}

/// The figure-independent part of a prepared figure.
pub(crate) struct Frame {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x: Axis,
    pub y: Axis,
    /// Whether the y range was given by the user (then it is never stretched for the legend).
    pub y_fixed: bool,
    /// One data unit has the same length in pixels on both axes.
    pub equal_aspect: bool,
    pub legend: LegendPosition,
    pub entries: Vec<(String, Sample)>,
    /// `(label, lo, hi)` of a viridis colour bar to the right of the plot.
    pub colorbar: Option<(String, f64, f64)>,
    /// Data points in plot coordinates (a sample is enough), to keep the legend off them.
    pub occupied: Vec<(f64, f64)>,
}

impl Frame {
    /// The frame of a plot on plain axes (most figures): the figure's title and axis labels
    /// (`[title, x, y]`), `y_fixed` where the user fixed the y range, no equal aspect and no
    /// colour bar, the legend at `legend` with `entries`, and the points the data occupy
    /// thinned to 20 000 (for placing the legend).
    pub(crate) fn plain(
        [title, x_label, y_label]: [&str; 3],
        (x, y): (Axis, Axis),
        y_range: Option<(f64, f64)>,
        legend: LegendPosition,
        entries: Vec<(String, Sample)>,
        occupied: Vec<(f64, f64)>,
    ) -> Frame {
        Frame {
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            x,
            y,
            y_fixed: y_range.is_some(),
            equal_aspect: false,
            legend,
            entries,
            colorbar: None,
            occupied: thin(occupied, 20_000),
        }
    }
}

/// Sizes and axes handed to a figure body.
pub(crate) struct Ctx {
    pub x: Axis,
    pub y: Axis,
    /// Scale of the figure relative to 1000 × 700 pixels.
    pub s: f64,
    pub line_w: u32,
    pub marker_r: i32,
    pub font_px: f64,
    /// Size of the plotting area in pixels.
    pub plot_px: (u32, u32),
    /// The legend box (lower-left and upper-right corners, plot coordinates; an estimate), so
    /// that annotations can keep off it; `None` without a legend.
    pub legend: Option<[(f64, f64); 2]>,
}

impl Ctx {
    /// The annotation font.
    pub fn font(&self) -> TextStyle<'static> {
        (FAMILY, self.font_px).into_font().color(&BLACK)
    }

    /// Scaled pixel length.
    pub fn px(&self, v: f64) -> i32 {
        (v * self.s).round() as i32
    }
}

/// A figure ready to draw: validated data in plot coordinates and its frame.
pub(crate) trait Body {
    fn frame(&self) -> &Frame;
    fn draw<DB: DrawingBackend>(
        &self,
        chart: &mut Chart<'_, DB>,
        ctx: &Ctx,
    ) -> Result<(), DrawFail>;
}

/// Draws `body` with its frame onto `root`, which is `supersample` times the output size, and
/// returns the sizes and axes it was drawn with (for layout tests).
///
/// Every length is a multiple of the scale `s`: 1 for a 1000 × 700 output, proportional to the
/// output size above that, and shrinking only like the square root below it, so that text in
/// small figures stays readable.
pub(crate) fn draw_figure<DB: DrawingBackend, B: Body>(
    root: &DrawingArea<DB, Shift>,
    body: &B,
    supersample: u32,
) -> Result<Ctx, DrawFail> {
    let frame = body.frame();
    root.fill(&WHITE)?;
    let (w, h) = root.dim_in_pixel();
    let k = f64::from(supersample.max(1));
    let raw = (f64::from(w) / k / 1000.0).min(f64::from(h) / k / 700.0);
    let s = k * if raw < 1.0 { raw.sqrt() } else { raw };
    let px = |v: f64| (v * s).round().max(1.0) as u32;
    let tick_font = (FAMILY, 22.0 * s).into_font();
    let desc_font = (FAMILY, 26.0 * s).into_font();
    let legend_font: TextStyle = (FAMILY, 22.0 * s).into_font().into();

    let area = if frame.title.is_empty() {
        root.clone()
    } else {
        // plotters' `titled` places ab_glyph text too high (it clips); lay it out ourselves.
        let size = 34.0 * s;
        let band = (1.9 * size).round() as u32;
        let (top, rest) = root.split_vertically(band);
        let style = (FAMILY, size)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Center));
        let y = (f64::from(band) * 0.5 + 0.3 * size).round() as i32;
        top.draw_text(&frame.title, &style, ((w / 2) as i32, y))?;
        rest
    };
    let (aw, ah) = area.dim_in_pixel();
    let bar_w = if frame.colorbar.is_some() {
        px(150.0)
    } else {
        0
    };
    let (area, bar) = if bar_w > 0 {
        let (a, b) = area.split_horizontally(aw.saturating_sub(bar_w));
        (a, Some(b))
    } else {
        (area, None)
    };
    let (margin, x_area, y_area) = (px(20.0), px(80.0), px(105.0));
    let n_xticks = |w: u32| (f64::from(w) / (110.0 * s)).round() as usize;
    // Room on the right for half of the last x tick label.
    let right = {
        let w0 = aw.saturating_sub(bar_w + 2 * margin + y_area).max(10);
        let xt0 = ticks(&frame.x, n_xticks(w0));
        match (xt0.pos.last(), xt0.labels.last()) {
            (Some(&t), Some(label)) => {
                let (tw, _) = area.estimate_text_size(label, &tick_font.clone().into())?;
                let gap = (1.0 - frame.x.frac(t)) * f64::from(w0);
                (f64::from(tw) / 2.0 - gap + 4.0 * s).max(f64::from(margin)) as u32
            }
            _ => margin,
        }
    };
    let plot_w = aw.saturating_sub(bar_w + margin + right + y_area).max(10);
    let plot_h = ah.saturating_sub(2 * margin + x_area).max(10);

    let (x, mut y) = if frame.equal_aspect {
        equalize(frame.x, frame.y, plot_w, plot_h)
    } else {
        (frame.x, frame.y)
    };
    let position = place_legend(&area, frame, &legend_font, s, (plot_w, plot_h), x, &mut y)?;

    let xt = ticks(&x, n_xticks(plot_w));
    let yt = ticks(&y, (plot_h as f64 / (55.0 * s)).round() as usize);
    let mut chart = ChartBuilder::on(&area)
        .margin(margin)
        .margin_right(right)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(
            Coord {
                lo: x.lo,
                hi: x.hi,
                ticks: xt.pos.clone(),
            },
            Coord {
                lo: y.lo,
                hi: y.hi,
                ticks: yt.pos.clone(),
            },
        )?;
    let xf = |v: &f64| xt.label_at(*v);
    let yf = |v: &f64| yt.label_at(*v);
    chart
        .configure_mesh()
        .bold_line_style(RGBColor(225, 225, 225).stroke_width(1))
        .light_line_style(WHITE.mix(0.0))
        .axis_style(BLACK.stroke_width(px(1.5)))
        .set_all_tick_mark_size(px(6.0))
        .x_desc(frame.x_label.as_str())
        .y_desc(frame.y_label.as_str())
        .label_style(tick_font.clone())
        .axis_desc_style(desc_font.clone())
        .x_label_formatter(&xf)
        .y_label_formatter(&yf)
        .draw()?;

    let ctx = Ctx {
        x,
        y,
        s,
        line_w: px(2.5),
        marker_r: (7.0 * s).round().max(2.0) as i32,
        font_px: 20.0 * s,
        plot_px: (plot_w, plot_h),
        legend: position.as_ref().map(|b| b.rect(&x, &y)),
    };
    body.draw(&mut chart, &ctx)?;
    chart.plotting_area().draw(&Rectangle::new(
        [(x.lo, y.lo), (x.hi, y.hi)],
        BLACK.stroke_width(px(1.5)),
    ))?;

    if let Some(position) = position {
        let sample_w = px(48.0);
        for (label, sample) in &frame.entries {
            let (sample, r, lw) = (*sample, ctx.marker_r, ctx.line_w);
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())?
                .label(label.as_str())
                .legend(move |at| LegendGlyph {
                    at,
                    sample,
                    width: sample_w as i32,
                    r,
                    line_w: lw,
                });
        }
        chart
            .configure_series_labels()
            .position(position.pos)
            .legend_area_size(sample_w + px(8.0))
            .margin(px(10.0))
            .background_style(WHITE.filled())
            .border_style(BLACK.stroke_width(1))
            .label_font(legend_font)
            .draw()?;
    }
    if let (Some(bar), Some((label, lo, hi))) = (bar, &frame.colorbar) {
        let top = margin as i32;
        let bottom = (margin + plot_h) as i32;
        draw_colorbar(&bar, label, *lo, *hi, (top, bottom), s)?;
    }
    Ok(ctx)
}

/// Widens one axis so that a data unit has the same pixel length on both.
fn equalize(x: Axis, y: Axis, w: u32, h: u32) -> (Axis, Axis) {
    let upp = (x.span() / f64::from(w)).max(y.span() / f64::from(h));
    let widen = |a: Axis, px: u32| {
        let half = 0.5 * upp * f64::from(px);
        let mid = 0.5 * (a.lo + a.hi);
        Axis {
            lo: mid - half,
            hi: mid + half,
            log: a.log,
        }
    };
    (widen(x, w), widen(y, h))
}

/// Points along a drawn polyline for legend placement: each segment between two finite points
/// contributes `TRACE_STEPS` points, so that the legend avoids the lines between sparse data
/// points as well as the points themselves.
pub(crate) fn trace(line: &[(f64, f64)]) -> Vec<(f64, f64)> {
    const TRACE_STEPS: usize = 16;
    let finite = |p: &(f64, f64)| p.0.is_finite() && p.1.is_finite();
    let mut out = Vec::new();
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        if finite(&a) && finite(&b) {
            out.extend((1..TRACE_STEPS).map(|i| {
                let s = i as f64 / TRACE_STEPS as f64;
                (a.0 + s * (b.0 - a.0), a.1 + s * (b.1 - a.1))
            }));
        }
    }
    out
}

/// Keeps every k-th point so that at most about `max` remain (for legend placement).
pub(crate) fn thin(pts: Vec<(f64, f64)>, max: usize) -> Vec<(f64, f64)> {
    if pts.len() <= max {
        return pts;
    }
    let k = pts.len().div_ceil(max);
    pts.into_iter().step_by(k).collect()
}

/// `Err(LengthMismatch)` unless `found == expected`.
pub(crate) fn check_len(
    figure: &'static str,
    item: &str,
    what: &'static str,
    expected: usize,
    found: usize,
) -> Result<(), crate::PlotError> {
    if expected == found {
        Ok(())
    } else {
        Err(crate::PlotError::LengthMismatch {
            figure,
            item: item.to_string(),
            what,
            expected,
            found,
        })
    }
}
