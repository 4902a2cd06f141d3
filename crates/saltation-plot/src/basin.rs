//! Basins of attraction: a grid of starts coloured by where each went (an attractor's colour,
//! light grey for a failure, dark grey for undecided), with the attractors' points on the
//! section marked by crosses. One axis is drawn as a strip.

use plotters::prelude::*;
use plotters::style::Color as _;

use crate::axis::{make_axes, Extent, Scale};
use crate::draw::MarkerAt;
use crate::frame::{check_len, Body, Chart, Ctx, DrawFail, Frame, Sample};
use crate::render::impl_figure;
use crate::style::{Color, LegendPosition, Marker};
use crate::PlotError;

const FIGURE: &str = "BasinMap";

/// Colour of failed cells.
const FAILED: Color = Color::rgb(215, 215, 215);
/// Colour of undecided cells.
const UNDECIDED: Color = Color::rgb(90, 90, 90);

/// One axis of the grid: `count` values from `from` to `to`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridAxis {
    /// First value.
    pub from: f64,
    /// Last value.
    pub to: f64,
    /// Number of values (≥ 1).
    pub count: usize,
}

impl GridAxis {
    fn value(&self, i: usize) -> f64 {
        if self.count <= 1 {
            self.from
        } else {
            self.from + (self.to - self.from) * (i as f64) / ((self.count - 1) as f64)
        }
    }

    /// Half the spacing (0.5 for a single value, so that it still shows).
    fn half_step(&self) -> f64 {
        if self.count <= 1 || self.to == self.from {
            0.5 * self.from.abs().max(1.0) * 1e-3
        } else {
            0.5 * (self.to - self.from).abs() / ((self.count - 1) as f64)
        }
    }
}

/// A basin map: the cells row-major (cell `(i, j)` of value `i` on `x` and `j` on `y` is
/// `cells[i · y.count + j]`), each an attractor id `≥ 0`, −1 (failed) or −2 (undecided).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BasinMap {
    /// Title above the plot (may be empty).
    pub title: String,
    /// x axis label.
    pub x_label: String,
    /// y axis label (unused without `y`).
    pub y_label: String,
    /// The first axis.
    pub x: Option<GridAxis>,
    /// The second axis; `None`: one axis, drawn as a strip.
    pub y: Option<GridAxis>,
    /// One value per cell.
    pub cells: Vec<i64>,
    /// Legend label of each attractor id.
    pub labels: Vec<String>,
    /// Points of the attractors to mark `(x, y)` (`y` ignored without a second axis).
    pub points: Vec<(f64, f64)>,
}

impl BasinMap {
    fn prepare(&self) -> Result<Prepared, PlotError> {
        let Some(xa) = self.x else {
            return Err(PlotError::EmptyData { figure: FIGURE });
        };
        let ny = self.y.map_or(1, |y| y.count);
        check_len(
            FIGURE,
            "cells",
            "cells",
            xa.count.saturating_mul(ny),
            self.cells.len(),
        )?;
        let (hx, hy) = (xa.half_step(), self.y.map_or(0.5, |y| y.half_step()));
        let mut rects = Vec::with_capacity(self.cells.len());
        let (mut ex, mut ey) = (Extent::default(), Extent::default());
        for (c, &v) in self.cells.iter().enumerate() {
            let (i, j) = (c / ny, c % ny);
            let cx = xa.value(i);
            let cy = self.y.map_or(0.5, |y| y.value(j));
            let color = match v {
                -1 => FAILED,
                v if v >= 0 => Color::palette(v as usize),
                _ => UNDECIDED,
            };
            rects.push(([(cx - hx, cy - hy), (cx + hx, cy + hy)], color));
            ex.add(cx - hx);
            ex.add(cx + hx);
            ey.add(cy - hy);
            ey.add(cy + hy);
        }
        let points: Vec<(f64, f64)> = self
            .points
            .iter()
            .map(|&(x, y)| (x, if self.y.is_some() { y } else { 0.5 }))
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        let mut entries: Vec<(String, Sample)> = Vec::new();
        for (id, l) in self.labels.iter().enumerate() {
            if self.cells.contains(&(id as i64)) {
                entries.push((l.clone(), Sample::Patch(Color::palette(id))));
            }
        }
        if self.cells.contains(&-1) {
            entries.push(("failed".into(), Sample::Patch(FAILED)));
        }
        if self.cells.iter().any(|&v| v < -1) {
            entries.push(("undecided".into(), Sample::Patch(UNDECIDED)));
        }
        if !points.is_empty() {
            entries.push((
                "attractor points".into(),
                Sample::Marker(Color::BLACK, Marker::Cross, true),
            ));
        }
        let exact = Scale {
            log: false,
            fixed: None,
            margin: 0.0,
        };
        let (x, y) = make_axes(FIGURE, (ex, ey), exact, exact)?;
        let frame = Frame {
            title: self.title.clone(),
            x_label: self.x_label.clone(),
            y_label: if self.y.is_some() {
                self.y_label.clone()
            } else {
                String::new()
            },
            x,
            y,
            y_fixed: true,
            equal_aspect: false,
            legend: LegendPosition::Auto,
            entries,
            colorbar: None,
            occupied: Vec::new(),
        };
        Ok(Prepared {
            frame,
            rects,
            points,
        })
    }
}

impl_figure!(BasinMap);

struct Prepared {
    frame: Frame,
    rects: Vec<([(f64, f64); 2], Color)>,
    points: Vec<(f64, f64)>,
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
        chart.draw_series(
            self.rects
                .iter()
                .map(|(r, c)| Rectangle::new(*r, c.rgb_color().filled())),
        )?;
        chart.draw_series(
            self.points
                .iter()
                .map(|&p| MarkerAt::new(p, Marker::Cross, Color::BLACK, true, ctx, 1.5)),
        )?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RenderOptions;

    #[test]
    fn renders_and_checks_its_cells() {
        let axis = GridAxis {
            from: 0.0,
            to: 1.0,
            count: 3,
        };
        let map = BasinMap {
            title: "basin".into(),
            x_label: "θ".into(),
            y_label: "θ̇".into(),
            x: Some(axis),
            y: Some(GridAxis { count: 2, ..axis }),
            cells: vec![0, 0, -1, 1, -2, 0],
            labels: vec!["A0".into(), "A1".into()],
            points: vec![(0.5, 0.5)],
        };
        let svg = map.to_svg_string(&RenderOptions::default()).unwrap();
        assert!(svg.contains("failed") && svg.contains("undecided") && svg.contains("A1"));
        let short = BasinMap {
            cells: vec![0; 5],
            ..map.clone()
        };
        assert!(matches!(
            short.to_svg_string(&RenderOptions::default()),
            Err(PlotError::LengthMismatch { .. })
        ));
        let strip = BasinMap {
            y: None,
            cells: vec![0, -1, -1],
            ..map
        };
        assert!(strip.to_svg_string(&RenderOptions::default()).is_ok());
    }
}
