//! Figures for Saltation: Floquet multipliers against a parameter, multipliers in the complex
//! plane, bifurcation and orbit diagrams, time series and phase portraits, work–precision charts.
//!
//! Every figure is a plain data struct (vectors of `f64`, labels, a few options) that knows
//! nothing about the solvers; fill it from your results and call `render`, which writes
//! `<stem>.png` and `<stem>.svg`:
//!
//! ```no_run
//! use std::path::Path;
//! use saltation_plot::{ComplexPlanePlot, PointGroup, RenderOptions};
//!
//! let fig = ComplexPlanePlot::new("Floquet multipliers, γ = 0.009")
//!     .with_group(PointGroup::new("stable gait", vec![(-0.19, 0.56), (-0.19, -0.56)]));
//! let files = fig.render(Path::new("figures/multipliers"), &RenderOptions::default())?;
//! # Ok::<(), saltation_plot::PlotError>(())
//! ```
//!
//! # Which figure
//! | to show | use |
//! |---|---|
//! | state components over one stride, impact times marked; a phase portrait | [`TimeSeries`] of [`Series`] |
//! | several variables against time, one panel each, sharing the time axis (a simulation) | [`Panels`] of [`TimeSeries`] |
//! | multipliers of one or more orbits around the unit circle, optionally coloured by the parameter along a branch | [`ComplexPlanePlot`] of [`PointGroup`]s |
//! | \|μ\| of every multiplier along branches, with \|μ\| = 1 and bifurcations | [`FloquetPlot`] of [`FloquetBranch`]es |
//! | a state component of period-1, period-2 … branches, stable solid / unstable dashed | [`BifurcationDiagram`] of [`Branch`]es |
//! | long-run samples of brute-force simulations, with where the walker fell | [`OrbitDiagram`] with [`FailureRegion`]s |
//! | cost against error of integrators | [`WorkPrecision`] |
//! | fold, period-doubling, Neimark–Sacker and grazing curves in the plane of two parameters, codimension-two points labelled | [`TwoParamDiagram`] of [`TwoParamCurve`]s and [`LabelledPoint`]s |
//!
//! A two-parameter diagram, e.g. a fold curve meeting a period-doubling curve (the curves'
//! points come from a two-parameter continuation; NaN marks a gap in a curve):
//!
//! ```
//! use saltation_plot::{CurveKind, LabelledPoint, RenderOptions, TwoParamCurve, TwoParamDiagram};
//!
//! let e: Vec<f64> = (0..=50).map(|i| 0.5 + 0.007 * f64::from(i)).collect();
//! let fold: Vec<f64> = e.iter().map(|e| 1.0 + 0.5 * e * e).collect();
//! let flip: Vec<f64> = e.iter().map(|e| 2.0 - e).collect();
//! let fig = TwoParamDiagram::new("Vibrating table, period 1", "restitution e", "Γ")
//!     .with_curve(TwoParamCurve::new(CurveKind::Fold, "fold", e.clone(), fold))
//!     .with_curve(TwoParamCurve::new(CurveKind::PeriodDoubling, "", e, flip))
//!     .with_point(LabelledPoint::new("fold–flip", 0.732, 1.268));
//! let svg = fig.to_svg_string(&RenderOptions::default())?;
//! assert!(svg.contains("fold–flip") && svg.contains("period doubling"));
//! // `fig.render(Path::new("figures/two_param"), &RenderOptions::default())` writes PNG and SVG.
//! # Ok::<(), saltation_plot::PlotError>(())
//! ```
//!
//! Bifurcation points ([`BifurcationPoint`], [`BifurcationKind`]) are shared by the Floquet plot
//! and the bifurcation diagram.
//!
//! # Behaviour common to all figures
//! - Axis ranges fit the data with a small margin unless fixed (`x_range`, `y_range`);
//!   logarithmic axes (`log_y`, `log_x`) label decades as 10ⁿ.
//! - NaN and ±∞ (and non-positive values on a log axis) are skipped: a line breaks there. If
//!   nothing is left, or paired arrays differ in length, `render` returns a [`PlotError`] and
//!   writes nothing; it never panics on user data. [`TwoParamDiagram`] is stricter: NaN breaks
//!   a curve, but ±∞, a non-finite point or a curve with nothing to draw is an error.
//! - The legend has a white background and goes, by default, into the corner of the plot that
//!   covers no data (the y range is stretched upwards if every corner is taken).
//! - Sizes are for 1000 × 700 pixels and scale with [`RenderOptions`]. PNGs are drawn at twice
//!   the size and averaged down (anti-aliasing).
//!
//! # Fonts
//! Text is drawn with DejaVu Sans, embedded in the binary (from the `dejavu` crate; Bitstream
//! Vera licence with public-domain DejaVu changes) and registered once with plotters' `ab_glyph`
//! backend, so rendering needs no system font, fontconfig or FreeType. Greek letters, `×`, `−`
//! and super/subscript digits work; combining accents (e.g. `θ` + U+0307 for θ̇) do not: write
//! `dθ/dt` or `ω` instead. SVG files keep text as text in the `sans-serif` family.
#![warn(missing_docs)]

mod axis;
mod basin;
mod bifurcation;
mod colorbar;
mod complex_plane;
mod diagram_panel;
mod draw;
mod error;
mod floquet;
mod font;
mod frame;
mod labels;
mod legend;
mod markers;
mod orbit_diagram;
mod panels;
mod render;
mod style;
mod time_series;
mod two_param;
mod work_precision;

pub use basin::{BasinMap, GridAxis};
pub use bifurcation::{BifurcationDiagram, Branch};
pub use complex_plane::{ComplexPlanePlot, PointGroup};
pub use diagram_panel::DiagramWithPanel;
pub use error::PlotError;
pub use floquet::{FloquetBranch, FloquetPlot};
pub use markers::{BifurcationKind, BifurcationPoint};
pub use orbit_diagram::{FailureRegion, OrbitDiagram};
pub use panels::Panels;
pub use render::{Figure, ImageFormat, RenderOptions};
pub use style::{Color, LegendPosition, LineStyle, Marker};
pub use time_series::{Series, TimeSeries};
pub use two_param::{CurveKind, LabelledPoint, TwoParamCurve, TwoParamDiagram, MAX_POINT_LABELS};
pub use work_precision::WorkPrecision;
