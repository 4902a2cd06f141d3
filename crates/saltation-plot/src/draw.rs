//! Drawing helpers shared by the figures (internal): clipped polylines in any line style,
//! markers, legend samples, and splitting a branch into stable and unstable runs.

use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::Color as _;
use plotters_backend::{BackendCoord, DrawingErrorKind};

use crate::axis::Axis;
use crate::frame::{Chart, Ctx, DrawFail, Sample};
use crate::style::{Color, LineStyle, Marker};

/// Dash pattern of a line style: alternating dash and gap lengths (pixels at scale 1, starting
/// with a dash); `None` for solid.
fn dashes(style: LineStyle) -> Option<&'static [f64]> {
    match style {
        LineStyle::Solid => None,
        LineStyle::Dashed => Some(&[12.0, 7.0]),
        LineStyle::Dotted => Some(&[3.0, 6.0]),
        LineStyle::DashDot => Some(&[14.0, 5.0, 3.0, 5.0]),
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
    // Pixels per plot unit on each axis, for measuring dashes.
    let scale = (
        f64::from(ctx.plot_px.0) / ctx.x.span(),
        f64::from(ctx.plot_px.1) / ctx.y.span(),
    );
    for run in clipped_runs(pts, &ctx.x, &ctx.y) {
        if let Some(pattern) = dashes(style) {
            let pattern: Vec<f64> = pattern.iter().map(|d| d * ctx.s).collect();
            let pieces = dash_pieces(&run, &pattern, scale);
            chart.draw_series(pieces.into_iter().map(|p| PathElement::new(p, shape)))?;
        } else {
            chart.draw_series(std::iter::once(PathElement::new(run, shape)))?;
        }
    }
    Ok(())
}

/// Cuts the polyline `run` into its dashes: `pattern` alternates dash and gap lengths in
/// pixels, `scale` is pixels per plot unit in x and y. The pattern's phase carries across
/// vertices, so dashes stay regular on a finely sampled curve. At most `MAX_DASHES` pieces.
pub(crate) fn dash_pieces(
    run: &[(f64, f64)],
    pattern: &[f64],
    scale: (f64, f64),
) -> Vec<Vec<(f64, f64)>> {
    const MAX_DASHES: usize = 200_000;
    let period: f64 = pattern.iter().sum();
    let measurable = period > 0.0 && scale.0 > 0.0 && scale.1 > 0.0;
    if pattern.is_empty() || !measurable {
        return vec![run.to_vec()];
    }
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let (mut k, mut left) = (0usize, pattern[0]);
    let mut cur: Vec<(f64, f64)> = run.first().map(|p| vec![*p]).unwrap_or_default();
    for w in run.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b.0 - a.0) * scale.0).hypot((b.1 - a.1) * scale.1);
        if !len.is_finite() {
            continue;
        }
        let mut done = 0.0;
        // Every pass ends a dash or a gap, or the segment: at most one pass per dash or gap.
        while len - done > left && out.len() < MAX_DASHES {
            done += left;
            let t = done / len;
            let p = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
            if k % 2 == 0 {
                cur.push(p);
                out.push(std::mem::take(&mut cur));
            } else {
                cur = vec![p];
            }
            k = (k + 1) % pattern.len();
            left = pattern[k].max(1e-3);
        }
        left -= len - done;
        if k % 2 == 0 {
            cur.push(b);
        }
    }
    if k % 2 == 0 && cur.len() > 1 {
        out.push(cur);
    }
    out
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

/// Splits a branch into runs of equal stability (or any other per-point key); where the key
/// changes between two points the runs meet at the midpoint, so the drawn curve stays
/// connected.
pub(crate) fn stability_runs<K: Copy + PartialEq>(
    pts: &[(f64, f64)],
    stable: &[K],
) -> Vec<(K, Vec<(f64, f64)>)> {
    let mut out: Vec<(K, Vec<(f64, f64)>)> = Vec::new();
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

/// The width of a thin line next to lines of width `line_w` (e.g. the unstable stretches of a
/// two-parameter curve): 40 %, at least one pixel.
pub(crate) fn thin_width(line_w: u32) -> u32 {
    ((f64::from(line_w) * 0.4).round() as u32).max(1)
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
        let line = |b: &mut DB, color: Color, style: LineStyle, line_w: u32| {
            let shape = color.rgb_color().stroke_width(line_w);
            match dashes(style) {
                None => b.draw_path([(x, y), (x + w, y)], &shape),
                Some(pattern) => {
                    let k = f64::from(self.line_w) / 2.5;
                    let pattern: Vec<i32> = pattern
                        .iter()
                        .map(|d| (d * k).round().max(1.0) as i32)
                        .collect();
                    let (mut s, mut i) = (0, 0);
                    while s < w {
                        if i % 2 == 0 {
                            b.draw_path([(x + s, y), (x + (s + pattern[i]).min(w), y)], &shape)?;
                        }
                        s += pattern[i];
                        i = (i + 1) % pattern.len();
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
            Sample::Line(c, s) => line(b, c, s, self.line_w),
            Sample::ThinLine(c, s) => line(b, c, s, thin_width(self.line_w)),
            Sample::Marker(c, m, filled) => draw_marker(b, mid, &marker(c, m, filled)),
            Sample::LineMarker(c, s, m) => {
                line(b, c, s, self.line_w)?;
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

    /// A 100-pixel line, dashes of 10 with gaps of 5: dashes at 0–10, 15–25, …, 90–100, the
    /// same whether the line is one segment or three (the phase carries across vertices).
    #[test]
    fn dashes_are_measured_in_pixels_across_vertices() {
        let expected: Vec<(f64, f64)> = (0..7)
            .map(|k| (15.0 * f64::from(k), (15.0 * f64::from(k) + 10.0).min(100.0)))
            .collect();
        // Plot units of 0.5 pixel in x (scale 2 px per unit) and a vertical line in y.
        for line in [
            vec![(0.0, 0.0), (50.0, 0.0)],
            vec![(0.0, 0.0), (16.5, 0.0), (33.0, 0.0), (50.0, 0.0)],
        ] {
            let pieces = dash_pieces(&line, &[10.0, 5.0], (2.0, 1.0));
            let ends: Vec<(f64, f64)> = pieces
                .iter()
                .map(|p| (2.0 * p[0].0, 2.0 * p[p.len() - 1].0))
                .collect();
            assert_eq!(ends.len(), expected.len(), "{ends:?}");
            for (a, b) in ends.iter().zip(&expected) {
                assert!(
                    (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9,
                    "{ends:?}"
                );
            }
        }
        let up = dash_pieces(
            &[(0.0, 0.0), (0.0, 30.0)],
            &[14.0, 5.0, 3.0, 5.0],
            (1.0, 1.0),
        );
        let lens: Vec<f64> = up.iter().map(|p| p[p.len() - 1].1 - p[0].1).collect();
        assert_eq!(lens, [14.0, 3.0, 3.0]);
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
