//! Stacked panels sharing one abscissa: one axis per variable of a simulation (each state,
//! output or the mode against time), the events marked in every panel.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::axis::to_plot;
use crate::frame::{draw_figure, DrawFail};
use crate::render::{impl_figure, Paint};
use crate::time_series::{prepare_lines, LinePlot, TimeSeries};
use crate::PlotError;

/// Panels stacked top to bottom, each a [`TimeSeries`] with its own y axis (its `y_label`
/// names the variable), all over the same x range: the union of every panel's finite
/// abscissae (or [`Panels::x_range`]). Each panel draws its own `events` as vertical lines
/// (named in the first panel's legend only).
/// The title goes above the first panel and the x label below the last.
///
/// A panel without a single finite ordinate (an output that is NaN everywhere) is drawn
/// empty on the range −1..1 with "(no finite value)" after its label, instead of failing the
/// figure.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Panels {
    /// Title above the first panel (may be empty).
    pub title: String,
    /// Label of the shared x axis, e.g. `"t"`.
    pub x_label: String,
    /// The panels, top to bottom; at least one. Their own `title`, `x_label`, `x_range` and
    /// `log_x` are replaced by the shared ones.
    pub panels: Vec<TimeSeries>,
    /// Fixed x range in data units; `None`: the extent of the data.
    pub x_range: Option<(f64, f64)>,
    /// Logarithmic x axis in every panel (non-positive x values are skipped).
    pub log_x: bool,
}

impl Panels {
    /// No panels yet, with a title and the x axis label.
    pub fn new(title: impl Into<String>, x_label: impl Into<String>) -> Self {
        Self {
            title: title.into(),
            x_label: x_label.into(),
            ..Self::default()
        }
    }

    /// Adds a panel below the others.
    pub fn with_panel(mut self, panel: TimeSeries) -> Self {
        self.panels.push(panel);
        self
    }

    /// The shared x range in data units: the given one, else the smallest and largest finite
    /// abscissa of any panel (positive ones only on a logarithmic axis); a single abscissa
    /// `t` gives `t − 1..t + 1`.
    pub fn shared_x_range(&self) -> Option<(f64, f64)> {
        if self.x_range.is_some() {
            return self.x_range;
        }
        let xs = self
            .panels
            .iter()
            .flat_map(|p| &p.series)
            .flat_map(|s| &s.x)
            .copied()
            .filter(|&x| to_plot(self.log_x, x).is_finite());
        let (lo, hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(x), b.max(x))
        });
        if lo > hi {
            None
        } else if lo < hi {
            Some((lo, hi))
        } else if self.log_x {
            Some((lo / 10.0, hi * 10.0))
        } else {
            Some((lo - 1.0, hi + 1.0))
        }
    }

    fn prepare(&self) -> Result<Stack, PlotError> {
        const FIGURE: &str = "Panels";
        if self.panels.is_empty() {
            return Err(PlotError::EmptyData { figure: FIGURE });
        }
        let x_range = self
            .shared_x_range()
            .ok_or(PlotError::EmptyData { figure: FIGURE })?;
        let last = self.panels.len() - 1;
        let mut plots = Vec::with_capacity(self.panels.len());
        for (i, panel) in self.panels.iter().enumerate() {
            let mut p = panel.clone();
            p.title = if i == 0 {
                self.title.clone()
            } else {
                String::new()
            };
            p.x_label = if i == last {
                self.x_label.clone()
            } else {
                String::new()
            };
            if i > 0 {
                // The event lines are named once, in the first panel's legend.
                p.event_label.clear();
            }
            p.x_range = Some(x_range);
            p.log_x = self.log_x;
            let finite_y = p.series.iter().any(|s| {
                s.x.iter().zip(&s.y).any(|(&x, &y)| {
                    to_plot(p.log_x, x).is_finite() && to_plot(p.log_y, y).is_finite()
                })
            });
            if !finite_y && p.y_range.is_none() {
                p.y_range = Some(if p.log_y { (0.1, 10.0) } else { (-1.0, 1.0) });
                p.y_label = format!("{} (no finite value)", p.y_label);
            }
            plots.push(prepare_lines(FIGURE, &p, false)?);
        }
        Ok(Stack(plots))
    }
}

impl_figure!(Panels);

/// Prepared panels, top to bottom.
pub(crate) struct Stack(Vec<LinePlot>);

impl Paint for Stack {
    /// Splits `root` into equal horizontal bands, one per panel, each drawn in its own frame
    /// (the scale of text and lines follows the band's size).
    fn paint<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        supersample: u32,
    ) -> Result<(), DrawFail> {
        root.fill(&WHITE)?;
        let bands = root.split_evenly((self.0.len(), 1));
        for (band, plot) in bands.iter().zip(&self.0) {
            draw_figure(band, plot, supersample)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RenderOptions, Series};

    fn panel(label: &str, t: &[f64], y: &[f64]) -> TimeSeries {
        TimeSeries::new("", "", label)
            .with_series(Series::new("", t.to_vec(), y.to_vec()))
            .with_events("events", [0.5])
    }

    #[test]
    fn panels_share_the_union_of_their_abscissae() {
        let fig = Panels::new("run", "t")
            .with_panel(panel("x", &[0.0, 1.0], &[1.0, 2.0]))
            .with_panel(panel("y", &[0.5, 3.0], &[f64::NAN, 4.0]));
        assert_eq!(fig.shared_x_range(), Some((0.0, 3.0)));
        let stack = fig.prepare().unwrap();
        assert_eq!(stack.0.len(), 2);
        // The SVG has each panel's label once, the title once and the x label once.
        let svg = fig.to_svg_string(&RenderOptions::new(600, 500)).unwrap();
        for text in ["x", "y", "run", "t", "events"] {
            let element = format!(">\n{text}\n</text>");
            assert_eq!(svg.matches(&element).count(), 1, "{text}");
        }
    }

    #[test]
    fn a_panel_without_finite_values_is_drawn_empty_and_no_panels_is_an_error() {
        let fig = Panels::new("", "t")
            .with_panel(panel("x", &[0.0, 1.0], &[1.0, 2.0]))
            .with_panel(panel("log x", &[0.0, 1.0], &[f64::NAN, f64::NAN]));
        let svg = fig.to_svg_string(&RenderOptions::new(600, 500)).unwrap();
        assert!(svg.contains("log x (no finite value)"));
        assert!(matches!(
            Panels::new("", "t").to_svg_string(&RenderOptions::default()),
            Err(PlotError::EmptyData { .. })
        ));
        let single = Panels::new("", "t").with_panel(panel("x", &[2.0], &[1.0]));
        assert_eq!(single.shared_x_range(), Some((1.0, 3.0)));
    }
}
