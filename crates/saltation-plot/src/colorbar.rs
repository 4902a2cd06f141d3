//! The colour bar of parameter-coloured plots (internal).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::Color as _;
use plotters::style::FontTransform;

use crate::axis::{linear_ticks, Axis};
use crate::font::FAMILY;
use crate::frame::DrawFail;
use crate::style::Color;

/// A vertical viridis colour bar with ticks and a rotated label, spanning pixel rows
/// `top..bottom` of `bar`.
pub(crate) fn draw_colorbar<DB: DrawingBackend>(
    bar: &DrawingArea<DB, Shift>,
    label: &str,
    lo: f64,
    hi: f64,
    (top, bottom): (i32, i32),
    s: f64,
) -> Result<(), DrawFail> {
    let (lo, hi) = if hi > lo {
        (lo, hi)
    } else {
        (lo - 0.5, lo + 0.5)
    };
    let px = |v: f64| (v * s).round() as i32;
    let (x0, x1) = (px(10.0), px(38.0));
    let rows = (bottom - top).max(1);
    for r in 0..rows {
        let t = 1.0 - f64::from(r) / f64::from(rows);
        let c = Color::viridis(t).rgb_color();
        bar.draw(&Rectangle::new(
            [(x0, top + r), (x1, top + r + 1)],
            c.filled(),
        ))?;
    }
    bar.draw(&Rectangle::new(
        [(x0, top), (x1, bottom)],
        BLACK.stroke_width(1),
    ))?;
    let axis = Axis { lo, hi, log: false };
    let t = linear_ticks(&axis, 6);
    let font = (FAMILY, 20.0 * s)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (v, text) in t.pos.iter().zip(&t.labels) {
        let yy = bottom - (axis.frac(*v) * f64::from(rows)).round() as i32;
        bar.draw(&PathElement::new(
            vec![(x1, yy), (x1 + px(6.0), yy)],
            BLACK.stroke_width(1),
        ))?;
        bar.draw_text(text, &font, (x1 + px(9.0), yy))?;
    }
    let desc = (FAMILY, 24.0 * s)
        .into_font()
        .transform(FontTransform::Rotate90)
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Center));
    let (bw, _) = bar.dim_in_pixel();
    bar.draw_text(label, &desc, (bw as i32 - px(22.0), (top + bottom) / 2))?;
    Ok(())
}
