//! Drawing helpers shared by the figures (internal): clipped polylines in any line style,
//! markers, legend samples, and splitting a branch into stable and unstable runs.

use plotters::element::{DashedPathElement, Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::Color as _;
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::axis::Axis;
use crate::frame::{Chart, Ctx, DrawFail, Sample};
use crate::style::{Color, LineStyle, Marker};

/// Dash and gap lengths (pixels at scale 1) of a line style; `None` for solid.
fn dashes(style: LineStyle) -> Option<(f64, f64)> {
    match style {
        LineStyle::Solid => None,
        LineStyle::Dashed => Some((12.0, 7.0)),
        LineStyle::Dotted => Some((3.0, 6.0)),
    }
}

/// Draws the polyline through `pts` (plot coordinates), clipped to the axes and broken at
/// non-finite points.
pub(crate) fn polyline<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    ctx: &Ctx,
    pts: &[(f64, f64)],
    color: Color,
    style: LineStyle,
    width: u32,
) -> Result<(), DrawFail> {
    let shape = color.rgb_color().stroke_width(width);
    for run in clipped_runs(pts, &ctx.x, &ctx.y) {
        if let Some((d, g)) = dashes(style) {
            let (d, g) = (ctx.px(d).max(1), ctx.px(g).max(1));
            chart.draw_series(std::iter::once(DashedPathElement::new(run, d, g, shape)))?;
        } else {
            chart.draw_series(std::iter::once(PathElement::new(run, shape)))?;
        }
    }
    Ok(())
}

/// Splits `pts` into maximal runs inside the rectangle spanned by the axes (segments crossing the
/// border are cut at it); non-finite points end a run. Runs of one point are dropped.
pub(crate) fn clipped_runs(pts: &[(f64, f64)], x: &Axis, y: &Axis) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in pts.windows(2) {
        let (p, q) = (w[0], w[1]);
        let finite = p.0.is_finite() && p.1.is_finite() && q.0.is_finite() && q.1.is_finite();
        match clip(p, q, x, y).filter(|_| finite) {
            Some((a, b)) => {
                if cur.last() != Some(&a) {
                    if cur.len() > 1 {
                        runs.push(std::mem::take(&mut cur));
                    }
                    cur.clear();
                    cur.push(a);
                }
                cur.push(b);
            }
            None => {
                if cur.len() > 1 {
                    runs.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() > 1 {
        runs.push(cur);
    }
    runs
}

/// Liang–Barsky clipping of segment `p`–`q` to the axes' rectangle.
fn clip(p: (f64, f64), q: (f64, f64), x: &Axis, y: &Axis) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (pk, qk) in [
        (-dx, p.0 - x.lo),
        (dx, x.hi - p.0),
        (-dy, p.1 - y.lo),
        (dy, y.hi - p.1),
    ] {
        if pk == 0.0 {
            if qk < 0.0 {
                return None;
            }
        } else {
            let r = qk / pk;
            if pk < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| {
        if t == 0.0 {
            p
        } else if t == 1.0 {
            q
        } else {
            (p.0 + t * dx, p.1 + t * dy)
        }
    };
    Some((at(t0), at(t1)))
}

/// A polyline (plot coordinates) of a branch: solid if `stable`, dashed otherwise.
pub(crate) struct Curve {
    pub pts: Vec<(f64, f64)>,
    pub color: Color,
    pub stable: bool,
}

/// Draws `curves` with the figure's line width.
pub(crate) fn draw_curves<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    ctx: &Ctx,
    curves: &[Curve],
) -> Result<(), DrawFail> {
    for c in curves {
        let style = if c.stable {
            LineStyle::Solid
        } else {
            LineStyle::Dashed
        };
        polyline(chart, ctx, &c.pts, c.color, style, ctx.line_w)?;
    }
    Ok(())
}

/// Splits a branch into runs of equal stability; where the flag changes between two points the
/// runs meet at the midpoint, so the drawn curve stays connected.
pub(crate) fn stability_runs(pts: &[(f64, f64)], stable: &[bool]) -> Vec<(bool, Vec<(f64, f64)>)> {
    let mut out: Vec<(bool, Vec<(f64, f64)>)> = Vec::new();
    for (i, (&p, &s)) in pts.iter().zip(stable).enumerate() {
        match out.last_mut() {
            Some((flag, run)) if *flag == s => run.push(p),
            Some((_, run)) => {
                let prev = pts[i - 1];
                let mid = (0.5 * (prev.0 + p.0), 0.5 * (prev.1 + p.1));
                run.push(mid);
                out.push((s, vec![mid, p]));
            }
            None => out.push((s, vec![p])),
        }
    }
    out
}

/// A marker drawn with backend primitives at one point of any coordinate type.
pub(crate) struct MarkerAt<C> {
    pub at: C,
    pub marker: Marker,
    /// Half-size in pixels.
    pub r: i32,
    pub color: Color,
    pub filled: bool,
    pub line_w: u32,
}

impl<C> MarkerAt<C> {
    /// A marker at `at` with `ctx`'s size (`scale` times it; hollow markers are drawn 1.5 times
    /// larger, so that they ring a filled marker at the same point) and line width.
    pub fn new(at: C, marker: Marker, color: Color, filled: bool, ctx: &Ctx, scale: f64) -> Self {
        let r = f64::from(ctx.marker_r) * scale * if filled { 1.0 } else { 1.5 };
        Self {
            at,
            marker,
            r: r.round() as i32,
            color,
            filled,
            line_w: ctx.line_w,
        }
    }
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a MarkerAt<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for MarkerAt<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        match pos.next() {
            Some(p) => draw_marker(backend, p, self),
            None => Ok(()),
        }
    }
}

fn draw_marker<DB: DrawingBackend, C>(
    b: &mut DB,
    (x, y): BackendCoord,
    m: &MarkerAt<C>,
) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
    let c = m.color.rgb_color();
    let stroke = c.stroke_width(m.line_w.max(1));
    let style = if m.filled { c.filled() } else { stroke };
    let r = m.r.max(1);
    let scaled = |k: f64| (f64::from(r) * k).round() as i32;
    let polygon = |b: &mut DB, pts: &[(i32, i32)]| {
        let pts = pts.iter().map(|(dx, dy)| (x + dx, y + dy));
        if m.filled {
            b.fill_polygon(pts, &style)
        } else {
            b.draw_path(pts.clone().chain(pts.take(1)), &stroke)
        }
    };
    match m.marker {
        Marker::Circle => b.draw_circle((x, y), r as u32, &style, m.filled),
        Marker::Square => {
            let q = scaled(0.85);
            b.draw_rect((x - q, y - q), (x + q, y + q), &style, m.filled)
        }
        Marker::Triangle => {
            let (h, w) = (scaled(1.15), scaled(1.1));
            polygon(b, &[(0, -h), (w, scaled(0.85)), (-w, scaled(0.85))])
        }
        Marker::Diamond => {
            let (h, w) = (scaled(1.3), scaled(0.95));
            polygon(b, &[(0, -h), (w, 0), (0, h), (-w, 0)])
        }
        Marker::Cross => {
            let q = scaled(0.85);
            b.draw_path([(x - q, y - q), (x + q, y + q)], &stroke)?;
            b.draw_path([(x - q, y + q), (x + q, y - q)], &stroke)
        }
        Marker::Plus => {
            b.draw_path([(x - r, y), (x + r, y)], &stroke)?;
            b.draw_path([(x, y - r), (x, y + r)], &stroke)
        }
    }
}

/// The sample drawn left of a legend label, as a custom element: `at` is the sample's left end,
/// vertically centred, `width` its length in pixels.
pub(crate) struct LegendGlyph {
    pub at: BackendCoord,
    pub sample: Sample,
    pub width: i32,
    pub r: i32,
    pub line_w: u32,
}

impl<'a> PointCollection<'a, BackendCoord> for &'a LegendGlyph {
    type Point = &'a BackendCoord;
    type IntoIter = std::iter::Once<&'a BackendCoord>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<DB: DrawingBackend> Drawable<DB> for LegendGlyph {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut pos: I,
        b: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = pos.next() else {
            return Ok(());
        };
        let w = self.width;
        let line = |b: &mut DB, color: Color, style: LineStyle| {
            let shape = color.rgb_color().stroke_width(self.line_w);
            match dashes(style) {
                None => b.draw_path([(x, y), (x + w, y)], &shape),
                Some((d, g)) => {
                    let k = f64::from(self.line_w) / 2.5;
                    let (d, g) = (
                        (d * k).round().max(1.0) as i32,
                        (g * k).round().max(1.0) as i32,
                    );
                    let mut s = 0;
                    while s < w {
                        b.draw_path([(x + s, y), (x + (s + d).min(w), y)], &shape)?;
                        s += d + g;
                    }
                    Ok(())
                }
            }
        };
        let marker = |color, marker, filled| MarkerAt {
            at: (),
            marker,
            r: (f64::from(self.r) * 1.2).round() as i32,
            color,
            filled,
            line_w: self.line_w,
        };
        let mid = (x + w / 2, y);
        match self.sample {
            Sample::Line(c, s) => line(b, c, s),
            Sample::Marker(c, m, filled) => draw_marker(b, mid, &marker(c, m, filled)),
            Sample::LineMarker(c, s, m) => {
                line(b, c, s)?;
                draw_marker(b, mid, &marker(c, m, true))
            }
            Sample::Patch(c) => {
                let q = self.r + 3;
                let fill = c.rgb_color().mix(0.3).filled();
                b.draw_rect((x, y - q), (x + w, y + q), &fill, true)?;
                b.draw_rect(
                    (x, y - q),
                    (x + w, y + q),
                    &c.rgb_color().stroke_width(1),
                    false,
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIT: Axis = Axis {
        lo: 0.0,
        hi: 1.0,
        log: false,
    };

    #[test]
    fn runs_break_at_nan_and_are_clipped() {
        let pts = [
            (0.1, 0.1),
            (0.5, 0.5),
            (f64::NAN, 0.2),
            (0.2, 0.2),
            (0.4, 0.2),
            (2.0, 0.2),
        ];
        let runs = clipped_runs(&pts, &UNIT, &UNIT);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0], vec![(0.1, 0.1), (0.5, 0.5)]);
        assert_eq!(runs[1], vec![(0.2, 0.2), (0.4, 0.2), (1.0, 0.2)]);
        // A segment wholly outside is dropped; one crossing the box twice is cut at both sides.
        assert!(clipped_runs(&[(2.0, 2.0), (3.0, 3.0)], &UNIT, &UNIT).is_empty());
        let through = clipped_runs(&[(-1.0, 0.5), (2.0, 0.5)], &UNIT, &UNIT);
        assert_eq!(through, vec![vec![(0.0, 0.5), (1.0, 0.5)]]);
    }

    #[test]
    fn stability_runs_meet_at_midpoints() {
        let pts = [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)];
        let runs = stability_runs(&pts, &[true, true, false, false]);
        assert_eq!(runs.len(), 2);
        assert_eq!(runs[0], (true, vec![(0.0, 0.0), (1.0, 1.0), (1.5, 1.5)]));
        assert_eq!(runs[1], (false, vec![(1.5, 1.5), (2.0, 2.0), (3.0, 3.0)]));
    }
}
