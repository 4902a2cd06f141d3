//! An orbit diagram with a line panel under it on the same parameter axis: the largest
//! Lyapunov exponent under the brute-force bifurcation diagram, as in the chaos literature's
//! two-panel figures. The diagram takes the upper half of the figure, the panel the lower:
//! bands of one size are drawn at one scale (text, margins), and the panel's x range is the
//! diagram's (with its margin), so the two plot areas line up column for column.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::frame::{draw_figure, DrawFail};
use crate::orbit_diagram::{OrbitDiagram, Prepared};
use crate::render::{impl_figure, Paint};
use crate::time_series::{prepare_lines, LinePlot, TimeSeries};
use crate::PlotError;

/// [`OrbitDiagram`] above a [`TimeSeries`] panel sharing its parameter axis: the panel's
/// title, `x_range` and `log_x` are replaced by the diagram's; the diagram's x label is
/// drawn under the panel only.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DiagramWithPanel {
    /// The orbit diagram, on top.
    pub diagram: OrbitDiagram,
    /// The panel under it (e.g. the largest Lyapunov exponent against the parameter).
    pub panel: TimeSeries,
}

impl DiagramWithPanel {
    /// The diagram `diagram` above `panel`.
    pub fn new(diagram: OrbitDiagram, panel: TimeSeries) -> Self {
        Self { diagram, panel }
    }

    fn prepare(&self) -> Result<Stacked, PlotError> {
        let mut top = self.diagram.clone();
        top.x_label = String::new();
        let top = top.prepare()?;
        let x = &top.frame.x;
        let mut panel = self.panel.clone();
        panel.title = String::new();
        panel.x_label = self.diagram.x_label.clone();
        panel.x_range = Some((x.inv(x.lo), x.inv(x.hi)));
        panel.log_x = self.diagram.log_x;
        let bottom = prepare_lines("DiagramWithPanel", &panel, false)?;
        Ok(Stacked { top, bottom })
    }
}

impl_figure!(DiagramWithPanel);

/// The prepared diagram and panel.
pub(crate) struct Stacked {
    top: Prepared,
    bottom: LinePlot,
}

impl Paint for Stacked {
    /// The upper half of `root` for the diagram, the lower half for the panel.
    fn paint<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        supersample: u32,
    ) -> Result<(), DrawFail> {
        root.fill(&WHITE)?;
        let (_, h) = root.dim_in_pixel();
        let (upper, lower) = root.split_vertically(h / 2);
        // Both bands at one scale: the plot areas share their left edge and width (the title
        // band is above the diagram only).
        draw_figure(&upper, &self.top, supersample)?;
        draw_figure(&lower, &self.bottom, supersample)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{RenderOptions, Series};

    #[test]
    fn the_panel_shares_the_diagrams_parameter_axis() {
        let diagram = OrbitDiagram::new(
            "walker",
            "gamma",
            "theta",
            vec![0.01, 0.01, 0.02],
            vec![0.1, 0.2, 0.15],
        );
        let panel = TimeSeries::new("ignored", "", "lambda_1").with_series(Series::new(
            "",
            vec![0.01, 0.02],
            vec![-0.5, 0.1],
        ));
        let fig = DiagramWithPanel::new(diagram, panel);
        let s = fig.prepare().unwrap();
        let (a, b) = (&s.top.frame.x, &s.bottom.frame.x);
        assert_eq!((a.lo, a.hi), (b.lo, b.hi));
        let svg = fig.to_svg_string(&RenderOptions::new(600, 600)).unwrap();
        // The title once, the parameter label once (under the panel), both y labels.
        for text in ["walker", "gamma", "theta", "lambda_1"] {
            let element = format!(">\n{text}\n</text>");
            assert_eq!(svg.matches(&element).count(), 1, "{text}");
        }
        assert!(!svg.contains("ignored"));
        // Drawn as `paint` draws them, the two plot areas have one width.
        let mut buf = String::new();
        {
            let root = SVGBackend::with_string(&mut buf, (1000, 800)).into_drawing_area();
            let (upper, lower) = root.split_vertically(400);
            let top = draw_figure(&upper, &s.top, 1).ok().unwrap();
            let bottom = draw_figure(&lower, &s.bottom, 1).ok().unwrap();
            assert_eq!(top.plot_px.0, bottom.plot_px.0);
        }
    }
}
