//! Bifurcation points, marked on Floquet plots and bifurcation diagrams.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::draw::MarkerAt;
use crate::frame::{Chart, Ctx, DrawFail, Sample};
use crate::style::{Color, Marker};

/// The kind of a detected bifurcation of a periodic orbit (which Floquet multiplier crosses the
/// unit circle, and where).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BifurcationKind {
    /// A multiplier crosses +1 and the branch turns back (fold, limit point, saddle-node): "LP".
    Fold,
    /// A multiplier crosses −1; a period-2 orbit is born: "PD".
    PeriodDoubling,
    /// A complex pair crosses the unit circle; a torus (quasi-periodic gait) is born: "NS".
    NeimarkSacker,
    /// A multiplier crosses +1 and another branch crosses this one (transcritical or pitchfork):
    /// "BP".
    BranchPoint,
    /// Anything else, e.g. a grazing (border-collision) event of the hybrid system: "B".
    Other,
}

impl BifurcationKind {
    /// The short label drawn next to the marker (AUTO's conventions).
    pub fn abbreviation(self) -> &'static str {
        match self {
            Self::Fold => "LP",
            Self::PeriodDoubling => "PD",
            Self::NeimarkSacker => "NS",
            Self::BranchPoint => "BP",
            Self::Other => "B",
        }
    }

    /// The name used in the legend.
    pub fn name(self) -> &'static str {
        match self {
            Self::Fold => "fold",
            Self::PeriodDoubling => "period doubling",
            Self::NeimarkSacker => "Neimark\u{2013}Sacker",
            Self::BranchPoint => "branch point",
            Self::Other => "bifurcation",
        }
    }

    fn marker(self) -> Marker {
        match self {
            Self::Fold => Marker::Square,
            Self::PeriodDoubling => Marker::Triangle,
            Self::NeimarkSacker => Marker::Diamond,
            Self::BranchPoint => Marker::Circle,
            Self::Other => Marker::Cross,
        }
    }
}

/// A bifurcation point to mark.
#[derive(Debug, Clone, PartialEq)]
pub struct BifurcationPoint {
    /// What kind of bifurcation it is (sets the marker shape and the default label).
    pub kind: BifurcationKind,
    /// Parameter value (x coordinate).
    pub parameter: f64,
    /// The plotted state component there: the y coordinate in a
    /// [`BifurcationDiagram`](crate::BifurcationDiagram). A [`FloquetPlot`](crate::FloquetPlot)
    /// ignores it and puts the marker on the line |μ| = 1, where the crossing happens.
    pub value: f64,
    /// Text next to the marker; `None` uses [`BifurcationKind::abbreviation`].
    pub label: Option<String>,
}

impl BifurcationPoint {
    /// A point of `kind` at (`parameter`, `value`) with the default label.
    pub fn new(kind: BifurcationKind, parameter: f64, value: f64) -> Self {
        Self {
            kind,
            parameter,
            value,
            label: None,
        }
    }

    /// Replaces the label drawn next to the marker.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub(crate) fn text(&self) -> &str {
        self.label.as_deref().unwrap_or(self.kind.abbreviation())
    }
}

/// Legend entries, one per kind present, in a fixed order.
pub(crate) fn legend_entries(points: &[BifurcationPoint]) -> Vec<(String, Sample)> {
    use BifurcationKind::*;
    [Fold, PeriodDoubling, NeimarkSacker, BranchPoint, Other]
        .into_iter()
        .filter(|k| points.iter().any(|p| p.kind == *k))
        .map(|k| {
            let label = format!("{} ({})", k.name(), k.abbreviation());
            (label, Sample::Marker(Color::BLACK, k.marker(), false))
        })
        .collect()
}

/// Draws each `(point, plot coordinates)` as a white marker with a black outline and its label
/// above right; points outside the axes are skipped.
pub(crate) fn draw_bifurcations<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    ctx: &Ctx,
    points: &[(&BifurcationPoint, (f64, f64))],
) -> Result<(), DrawFail> {
    let r = (f64::from(ctx.marker_r) * 1.4).round() as i32;
    for (p, (x, y)) in points {
        let inside = (ctx.x.lo..=ctx.x.hi).contains(x) && (ctx.y.lo..=ctx.y.hi).contains(y);
        if !inside {
            continue;
        }
        let m = p.kind.marker();
        let white = Color::rgb(255, 255, 255);
        let lw = ctx.line_w.max(2);
        let at = (*x, *y);
        let mk = |color, filled| MarkerAt {
            at,
            marker: m,
            r,
            color,
            filled,
            line_w: lw,
        };
        chart.draw_series([mk(white, true), mk(Color::BLACK, false)])?;
        // Label above right, flipped to the left / below near the right / top edge.
        let text = p.text().to_string();
        let left = ctx.x.frac(*x) > 0.9;
        let below = ctx.y.frac(*y) > 0.92;
        let h = if left { HPos::Right } else { HPos::Left };
        let v = if below { VPos::Top } else { VPos::Bottom };
        let font = ctx.font().pos(Pos::new(h, v));
        let off = (
            if left { -r - 2 } else { r + 2 },
            if below { r + 2 } else { -r - 2 },
        );
        chart.draw_series(std::iter::once(
            EmptyElement::at((*x, *y)) + Text::new(text, off, font.clone()),
        ))?;
    }
    Ok(())
}
