//! Legend placement (internal): the inside corner of the plot that covers no data.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::axis::Axis;
use crate::frame::{DrawFail, Frame};
use crate::style::LegendPosition;

/// Where the legend goes: a corner of the plot and the size of the box there, as fractions of
/// the plot's width and height (an estimate from the labels' text size).
#[derive(Debug, Clone)]
pub(crate) struct LegendBox {
    pub pos: SeriesLabelPosition,
    pub w: f64,
    pub h: f64,
}

impl LegendBox {
    /// The box's lower-left and upper-right corners in plot coordinates of the axes `x`, `y`.
    pub fn rect(&self, x: &Axis, y: &Axis) -> [(f64, f64); 2] {
        use SeriesLabelPosition as P;
        let right = matches!(self.pos, P::UpperRight | P::LowerRight);
        let upper = matches!(self.pos, P::UpperRight | P::UpperLeft);
        let (x0, x1) = if right {
            (x.hi - self.w * x.span(), x.hi)
        } else {
            (x.lo, x.lo + self.w * x.span())
        };
        let (y0, y1) = if upper {
            (y.hi - self.h * y.span(), y.hi)
        } else {
            (y.lo, y.lo + self.h * y.span())
        };
        [(x0, y0), (x1, y1)]
    }
}

/// Picks the legend corner covering the fewest data points; if every corner covers some and the
/// y range is free, stretches the y axis upwards to make room at the top. `None`: no legend.
pub(crate) fn place_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    frame: &Frame,
    font: &TextStyle,
    s: f64,
    (pw, ph): (u32, u32),
    x: Axis,
    y: &mut Axis,
) -> Result<Option<LegendBox>, DrawFail> {
    use SeriesLabelPosition as P;
    if frame.entries.is_empty() {
        return Ok(None);
    }
    let fixed = match frame.legend {
        LegendPosition::Hidden => return Ok(None),
        LegendPosition::UpperRight => Some(P::UpperRight),
        LegendPosition::UpperLeft => Some(P::UpperLeft),
        LegendPosition::LowerRight => Some(P::LowerRight),
        LegendPosition::LowerLeft => Some(P::LowerLeft),
        _ => None,
    };
    let mut text_w = 0;
    let mut text_h = 0;
    for (label, _) in &frame.entries {
        let (tw, th) = area.estimate_text_size(label, font)?;
        text_w = text_w.max(tw);
        text_h = text_h.max(th);
    }
    let n = frame.entries.len() as f64;
    let box_w = f64::from(text_w) + 90.0 * s;
    let box_h = n * f64::from(text_h) * 1.3 + 35.0 * s;
    let (bw, bh) = (box_w / f64::from(pw), box_h / f64::from(ph));
    let sized = |pos| LegendBox { pos, w: bw, h: bh };
    if let Some(pos) = fixed {
        return Ok(Some(sized(pos)));
    }
    let count = |right: bool, upper: bool| {
        frame
            .occupied
            .iter()
            .filter(|(px, py)| {
                let (u, v) = (x.frac(*px), y.frac(*py));
                let in_x = if right { u > 1.0 - bw } else { u < bw };
                let in_y = if upper { v > 1.0 - bh } else { v < bh };
                in_x && in_y
            })
            .count()
    };
    let corners = [
        (P::UpperRight, count(true, true)),
        (P::UpperLeft, count(false, true)),
        (P::LowerRight, count(true, false)),
        (P::LowerLeft, count(false, false)),
    ];
    let best = corners.iter().min_by_key(|c| c.1).map(|c| c.1).unwrap_or(0);
    if best > 0 && !frame.equal_aspect && !frame.y_fixed && bh < 0.45 {
        // Make the top `bh` of the plot free of data.
        y.hi = y.lo + y.span() / (1.0 - bh);
        return Ok(Some(sized(P::UpperRight)));
    }
    let pos = corners.into_iter().find(|c| c.1 == best).map(|c| c.0);
    Ok(pos.map(sized))
}
