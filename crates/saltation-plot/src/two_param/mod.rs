//! Two-parameter bifurcation diagrams: curves of codimension-one bifurcations of periodic orbits
//! (fold, period doubling, Neimark–Sacker, grazing) in a parameter plane, with the
//! codimension-two points on them marked and labelled.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color as _;

use crate::axis::{make_axes, Extent, Scale};
use crate::draw::{polyline, stability_runs, thin_width, MarkerAt};
use crate::frame::{check_len, thin, trace, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::labels::{place_labels, Rect, Scene};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition, LineStyle, Marker};
use crate::PlotError;

const FIGURE: &str = "TwoParamDiagram";

/// Only the first this many labelled points get their text (every point gets its marker); the
/// greedy label placement costs O(labels² + labels · curve samples).
pub const MAX_POINT_LABELS: usize = 200;

/// At most this many curve samples steer the label placement (every k-th is kept).
const LABEL_LINE_SAMPLES: usize = 5_000;

/// Which codimension-one bifurcation a curve of a [`TwoParamDiagram`] continues; sets its
/// default colour and dash pattern.
///
/// | kind | colour | line |
/// |---|---|---|
/// | fold | blue | solid |
/// | period doubling | orange | dashed |
/// | Neimark–Sacker | green | dash-dot |
/// | grazing | red | dotted |
/// | other | purple | dashed |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CurveKind {
    /// A multiplier at +1 (limit point of the orbit branch).
    Fold,
    /// A multiplier at −1 (flip).
    PeriodDoubling,
    /// A complex pair on the unit circle (torus bifurcation).
    NeimarkSacker,
    /// The admissibility boundary: the orbit touches a guard tangentially or a contact force
    /// reaches zero.
    Grazing,
    /// Anything else.
    Other,
}

impl CurveKind {
    /// The name used in the legend when the curve has no label.
    pub fn name(self) -> &'static str {
        match self {
            Self::Fold => "fold",
            Self::PeriodDoubling => "period doubling",
            Self::NeimarkSacker => "Neimark\u{2013}Sacker",
            Self::Grazing => "grazing",
            Self::Other => "other",
        }
    }

    /// The default colour (from [`Color::palette`]).
    pub fn color(self) -> Color {
        match self {
            Self::Fold => Color::palette(0),
            Self::PeriodDoubling => Color::palette(1),
            Self::NeimarkSacker => Color::palette(2),
            Self::Grazing => Color::palette(3),
            Self::Other => Color::palette(4),
        }
    }

    /// The dash pattern.
    pub fn line_style(self) -> LineStyle {
        match self {
            Self::Fold => LineStyle::Solid,
            Self::PeriodDoubling | Self::Other => LineStyle::Dashed,
            Self::NeimarkSacker => LineStyle::DashDot,
            Self::Grazing => LineStyle::Dotted,
        }
    }
}

/// One curve of a two-parameter diagram: the points `(xs[i], ys[i])` joined in order.
///
/// NaN in `xs` or `ys` marks a gap: the curve is drawn as separate pieces on either side
/// (e.g. where a continuation was restarted). ±∞ is an error.
#[derive(Debug, Clone, PartialEq)]
pub struct TwoParamCurve {
    /// Legend text, e.g. `"fold, period 2"`; empty uses [`CurveKind::name`]. Curves with equal
    /// text, colour and kind share one legend entry.
    pub label: String,
    /// Which bifurcation the curve continues (colour and dash pattern).
    pub kind: CurveKind,
    /// First parameter (x) of each point.
    pub xs: Vec<f64>,
    /// Second parameter (y) of each point; as many as `xs`.
    pub ys: Vec<f64>,
    /// Empty, or one flag per point: whether the orbit there is stable apart from the critical
    /// multiplier(s) of the curve's bifurcation. Unstable stretches are drawn thin. Empty: all
    /// drawn at full width.
    pub stable: Vec<bool>,
    /// Empty, or one flag per point: whether the orbit there is admissible (its contact
    /// conditions hold). Inadmissible stretches are drawn faded (the colour three quarters of
    /// the way to white). Empty: all admissible.
    pub admissible: Vec<bool>,
    /// Colour; `None` takes [`CurveKind::color`].
    pub color: Option<Color>,
}

impl TwoParamCurve {
    /// A curve of `kind` through `(xs[i], ys[i])`.
    pub fn new(kind: CurveKind, label: impl Into<String>, xs: Vec<f64>, ys: Vec<f64>) -> Self {
        Self {
            label: label.into(),
            kind,
            xs,
            ys,
            stable: Vec::new(),
            admissible: Vec::new(),
            color: None,
        }
    }

    /// Sets the per-point stability flags.
    pub fn with_stability(mut self, stable: Vec<bool>) -> Self {
        self.stable = stable;
        self
    }

    /// Sets the per-point admissibility flags.
    pub fn with_admissibility(mut self, admissible: Vec<bool>) -> Self {
        self.admissible = admissible;
        self
    }

    /// Sets the colour (e.g. to tell a period-1 fold curve from a period-2 one).
    pub fn with_color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }

    fn text(&self) -> &str {
        if self.label.is_empty() {
            self.kind.name()
        } else {
            &self.label
        }
    }
}

/// A codimension-two point (or any other marked point) of a two-parameter diagram: a marker at
/// `(x, y)` with a short text label beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledPoint {
    /// The text, e.g. `"cusp"`, `"fold–flip"`, `"1:1"`, `"1:2"`, `"flip–NS"`,
    /// `"fold–grazing"`; empty draws the marker alone.
    pub label: String,
    /// First parameter.
    pub x: f64,
    /// Second parameter.
    pub y: f64,
    /// Marker shape (drawn white with a black outline).
    pub marker: Marker,
}

impl LabelledPoint {
    /// A point with the marker [`LabelledPoint::marker_for`] its label.
    pub fn new(label: impl Into<String>, x: f64, y: f64) -> Self {
        let label = label.into();
        let marker = Self::marker_for(&label);
        Self {
            label,
            x,
            y,
            marker,
        }
    }

    /// Replaces the marker shape.
    pub fn with_marker(mut self, marker: Marker) -> Self {
        self.marker = marker;
        self
    }

    /// The default marker of a codimension-two point by its label (case, spaces and the kind of
    /// dash between two names do not matter): cusp ◆, fold–flip ■, resonances `1:k` ▲, any
    /// point involving grazing ×, anything else (flip–NS, fold–NS, …) ●.
    pub fn marker_for(label: &str) -> Marker {
        let key: String = label
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '-' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        if key == "cusp" {
            Marker::Diamond
        } else if key == "fold-flip" || key == "flip-fold" {
            Marker::Square
        } else if key.starts_with("1:") {
            Marker::Triangle
        } else if key.contains("grazing") {
            Marker::Cross
        } else {
            Marker::Circle
        }
    }
}

/// A two-parameter bifurcation diagram: curves of codimension-one bifurcations in the plane of
/// two parameters, each kind in its own colour and dash pattern (see [`CurveKind`]), unstable
/// stretches thin, codimension-two points marked, their labels placed so that they do not
/// overlap one another, the markers or the legend.
///
/// Both axes fit the curves and points with a margin of 5 % on each side unless fixed
/// (`x_range`, `y_range`; curves are then clipped at the frame and points outside it are not
/// drawn). Label placement is greedy: in the order of `points`, each label tries 24 positions
/// around its marker and takes the one overlapping nothing and covering the fewest curve
/// samples; a leader line joins a label set away from its marker.
///
/// Unlike the other figures, a curve with nothing to draw, ±∞ in a curve, or a non-finite
/// point is an error ([`PlotError::EmptyItem`], [`PlotError::NonFinite`]) rather than silently
/// missing from the figure.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TwoParamDiagram {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label: the first parameter.
    pub x_label: String,
    /// y axis label: the second parameter.
    pub y_label: String,
    /// The curves; at least one.
    pub curves: Vec<TwoParamCurve>,
    /// Codimension-two points; the first [`MAX_POINT_LABELS`] with text are labelled.
    pub points: Vec<LabelledPoint>,
    /// Fixed x range; `None`: automatic.
    pub x_range: Option<(f64, f64)>,
    /// Fixed y range; `None`: automatic.
    pub y_range: Option<(f64, f64)>,
    /// Where the legend goes.
    pub legend: LegendPosition,
}

impl TwoParamDiagram {
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

    /// Adds a curve.
    pub fn with_curve(mut self, curve: TwoParamCurve) -> Self {
        self.curves.push(curve);
        self
    }

    /// Adds a labelled point.
    pub fn with_point(mut self, point: LabelledPoint) -> Self {
        self.points.push(point);
        self
    }

    fn prepare(&self) -> Result<Prepared, PlotError> {
        if self.curves.is_empty() {
            return Err(PlotError::EmptyData { figure: FIGURE });
        }
        let (mut ex, mut ey) = (Extent::default(), Extent::default());
        let mut curves = Vec::new();
        let mut occupied = Vec::new();
        let mut entries: Vec<(String, Sample)> = Vec::new();
        let mut keys: Vec<(String, Color, CurveKind)> = Vec::new();
        let mut any_unstable = false;
        let mut any_inadmissible = false;
        for (i, c) in self.curves.iter().enumerate() {
            let item = if c.label.is_empty() {
                format!("curve {i} ({})", c.kind.name())
            } else {
                c.label.clone()
            };
            let n = c.xs.len();
            check_len(FIGURE, &item, "ys", n, c.ys.len())?;
            if !c.stable.is_empty() {
                check_len(FIGURE, &item, "stable", n, c.stable.len())?;
            }
            if !c.admissible.is_empty() {
                check_len(FIGURE, &item, "admissible", n, c.admissible.len())?;
            }
            for (what, v) in [("xs", &c.xs), ("ys", &c.ys)] {
                if let Some((index, &value)) = v.iter().enumerate().find(|(_, v)| v.is_infinite()) {
                    return Err(PlotError::NonFinite {
                        figure: FIGURE,
                        item,
                        what,
                        index,
                        value,
                    });
                }
            }
            let pts: Vec<(f64, f64)> = c.xs.iter().copied().zip(c.ys.iter().copied()).collect();
            let finite = |p: &(f64, f64)| p.0.is_finite() && p.1.is_finite();
            if !pts.windows(2).any(|w| finite(&w[0]) && finite(&w[1])) {
                return Err(PlotError::EmptyItem {
                    figure: FIGURE,
                    item,
                    reason: "no two consecutive points with finite coordinates",
                });
            }
            for p in pts.iter().filter(|p| finite(p)) {
                ex.add(p.0);
                ey.add(p.1);
                occupied.push(*p);
            }
            let color = c.color.unwrap_or(c.kind.color());
            let style = c.kind.line_style();
            // Runs of equal (stable, admissible): unstable thin, inadmissible faded.
            let flag = |v: &Vec<bool>, i: usize| v.get(i).copied().unwrap_or(true);
            let flags: Vec<(bool, bool)> = (0..n)
                .map(|i| (flag(&c.stable, i), flag(&c.admissible, i)))
                .collect();
            for ((stable, admissible), run) in stability_runs(&pts, &flags) {
                any_unstable |= !stable;
                any_inadmissible |= !admissible;
                occupied.extend(trace(&run));
                curves.push(Line {
                    pts: run,
                    color: if admissible { color } else { faded(color) },
                    style,
                    thin: !stable,
                });
            }
            let key = (c.text().to_string(), color, c.kind);
            if !keys.contains(&key) {
                entries.push((key.0.clone(), Sample::Line(color, style)));
                keys.push(key);
            }
        }
        for (i, p) in self.points.iter().enumerate() {
            for (what, value) in [("x", p.x), ("y", p.y)] {
                if !value.is_finite() {
                    let item = if p.label.is_empty() {
                        format!("point {i}")
                    } else {
                        p.label.clone()
                    };
                    return Err(PlotError::NonFinite {
                        figure: FIGURE,
                        item,
                        what,
                        index: 0,
                        value,
                    });
                }
            }
            ex.add(p.x);
            ey.add(p.y);
            occupied.push((p.x, p.y));
        }
        let scale = |fixed| Scale {
            log: false,
            fixed,
            margin: 0.05,
        };
        let axes = make_axes(FIGURE, (ex, ey), scale(self.x_range), scale(self.y_range))?;
        if any_unstable {
            entries.push((
                "thin: orbit unstable".into(),
                Sample::ThinLine(Color::BLACK, LineStyle::Solid),
            ));
        }
        if any_inadmissible {
            entries.push((
                "faded: orbit not admissible".into(),
                Sample::Line(faded(Color::BLACK), LineStyle::Solid),
            ));
        }
        let frame = Frame::plain(
            [&self.title, &self.x_label, &self.y_label],
            axes,
            self.y_range,
            self.legend,
            entries,
            occupied,
        );
        let line_samples = thin(frame.occupied.clone(), LABEL_LINE_SAMPLES);
        Ok(Prepared {
            frame,
            curves,
            points: self.points.clone(),
            line_samples,
        })
    }
}

impl_figure!(TwoParamDiagram);

/// The colour of an inadmissible stretch: `color` three quarters of the way to white.
fn faded(color: Color) -> Color {
    let f = |c: u8| (f64::from(c) + 0.75 * (255.0 - f64::from(c))).round() as u8;
    Color::rgb(f(color.r), f(color.g), f(color.b))
}

/// A drawn piece of a curve (plot coordinates; NaN breaks it).
struct Line {
    pts: Vec<(f64, f64)>,
    color: Color,
    style: LineStyle,
    thin: bool,
}

/// A label as placed: which point, its text box in pixels (y downwards from the plot's top-left
/// corner), and whether it sits away from its marker (then a leader line joins them).
struct PlacedLabel {
    point: usize,
    rect: Rect,
    leader: bool,
}

struct Prepared {
    frame: Frame,
    curves: Vec<Line>,
    points: Vec<LabelledPoint>,
    /// Curve samples (plot coordinates) the labels prefer not to cover.
    line_samples: Vec<(f64, f64)>,
}

/// Plot coordinates → pixels inside the plot (y downwards).
fn to_px(ctx: &Ctx, (x, y): (f64, f64)) -> (f64, f64) {
    let (w, h) = (f64::from(ctx.plot_px.0), f64::from(ctx.plot_px.1));
    (ctx.x.frac(x) * w, (1.0 - ctx.y.frac(y)) * h)
}

/// Pixels inside the plot → plot coordinates.
fn from_px(ctx: &Ctx, (px, py): (f64, f64)) -> (f64, f64) {
    let (w, h) = (f64::from(ctx.plot_px.0), f64::from(ctx.plot_px.1));
    (
        ctx.x.lo + px / w * ctx.x.span(),
        ctx.y.hi - py / h * ctx.y.span(),
    )
}

impl Prepared {
    /// Half-size of a point's marker in pixels.
    fn marker_r(ctx: &Ctx) -> i32 {
        (f64::from(ctx.marker_r) * 1.4).round() as i32
    }

    /// Indices of the points inside the axes (only those are drawn).
    fn visible(&self, ctx: &Ctx) -> Vec<usize> {
        let inside = |p: &LabelledPoint| {
            (ctx.x.lo..=ctx.x.hi).contains(&p.x) && (ctx.y.lo..=ctx.y.hi).contains(&p.y)
        };
        (0..self.points.len())
            .filter(|&i| inside(&self.points[i]))
            .collect()
    }

    /// Places the labels of the visible points; `measure` gives a text's size in pixels.
    fn labels(
        &self,
        ctx: &Ctx,
        measure: impl Fn(&str) -> Result<(u32, u32), DrawFail>,
    ) -> Result<Vec<PlacedLabel>, DrawFail> {
        let visible = self.visible(ctx);
        let markers: Vec<(f64, f64)> = visible
            .iter()
            .map(|&i| to_px(ctx, (self.points[i].x, self.points[i].y)))
            .collect();
        let labelled: Vec<usize> = visible
            .iter()
            .copied()
            .filter(|&i| !self.points[i].label.is_empty())
            .take(MAX_POINT_LABELS)
            .collect();
        let anchors: Vec<(f64, f64)> = labelled
            .iter()
            .map(|&i| to_px(ctx, (self.points[i].x, self.points[i].y)))
            .collect();
        let mut sizes = Vec::with_capacity(labelled.len());
        for &i in &labelled {
            let (w, h) = measure(&self.points[i].label)?;
            sizes.push((f64::from(w), f64::from(h)));
        }
        let avoid: Vec<Rect> = ctx
            .legend
            .iter()
            .map(|[lo, hi]| {
                let (a, b) = (to_px(ctx, *lo), to_px(ctx, *hi));
                Rect {
                    x0: a.0.min(b.0),
                    y0: a.1.min(b.1),
                    x1: a.0.max(b.0),
                    y1: a.1.max(b.1),
                }
            })
            .collect();
        let lines: Vec<(f64, f64)> = self.line_samples.iter().map(|p| to_px(ctx, *p)).collect();
        let scene = Scene {
            bounds: (f64::from(ctx.plot_px.0), f64::from(ctx.plot_px.1)),
            markers: &markers,
            // Diamonds and triangles reach 1.3 half-sizes from the centre.
            marker_r: 1.3 * f64::from(Self::marker_r(ctx)),
            avoid: &avoid,
            lines: &lines,
        };
        let placed = place_labels(&anchors, &sizes, &scene);
        Ok(labelled
            .into_iter()
            .zip(placed)
            .map(|(point, (rect, ring))| PlacedLabel {
                point,
                rect,
                leader: ring > 0,
            })
            .collect())
    }
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
        for c in &self.curves {
            let w = if c.thin {
                thin_width(ctx.line_w)
            } else {
                ctx.line_w
            };
            polyline(chart, ctx, &c.pts, c.color, c.style, w)?;
        }
        let font = ctx.font();
        let area = chart.plotting_area();
        let labels = self.labels(ctx, |t| Ok(area.estimate_text_size(t, &font)?))?;
        for l in labels.iter().filter(|l| l.leader) {
            let p = &self.points[l.point];
            let at = to_px(ctx, (p.x, p.y));
            let end = from_px(ctx, l.rect.nearest(at));
            polyline(
                chart,
                ctx,
                &[(p.x, p.y), end],
                Color::GREY,
                LineStyle::Solid,
                thin_width(ctx.line_w),
            )?;
        }
        let r = Self::marker_r(ctx);
        let lw = ctx.line_w.max(2);
        for i in self.visible(ctx) {
            let p = &self.points[i];
            let mk = |color, filled| MarkerAt {
                at: (p.x, p.y),
                marker: p.marker,
                r,
                color,
                filled,
                line_w: lw,
            };
            chart.draw_series([mk(Color::rgb(255, 255, 255), true), mk(Color::BLACK, false)])?;
        }
        let style = font.pos(Pos::new(HPos::Left, VPos::Top));
        // A translucent white box under each label keeps it readable where it crosses a curve.
        let backing = WHITE.mix(0.75).filled();
        for l in &labels {
            let at = from_px(ctx, (l.rect.x0, l.rect.y0));
            let corner = from_px(ctx, (l.rect.x1, l.rect.y1));
            chart.draw_series(std::iter::once(Rectangle::new([at, corner], backing)))?;
            let text = self.points[l.point].label.clone();
            chart.draw_series(std::iter::once(
                EmptyElement::at(at) + Text::new(text, (0, 0), style.clone()),
            ))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
