//! Two-parameter continuation of codimension-one bifurcations of hybrid periodic orbits:
//! fold, period-doubling, Neimark–Sacker and grazing curves in a plane of two model parameters
//! `(P, P2)`, by minimally augmented (bordered) defining systems with exact first derivatives
//! ([`system`](self) documents the maths), or, for grazing, the admissibility condition's
//! least value over its phase ([`GrazingCondition`]), with their codimension-two points.
//!
//! - [`PlaneFamily`]: the model with its two parameters;
//! - [`continue_curve`] (and [`continue_curve_with_progress`]): locate the bifurcation in `P`
//!   from a guess at `(p0, p2_0)`, continue it until `P2 = to2`;
//! - [`Curve`]: the points, the [`Codim2Point`]s, the [`CurveEnd`].

mod codim2;
mod end;
mod family2;
mod follow;
mod grazing;
mod guard_graze;
mod kind;
mod options;
mod point;
mod run;
mod start;
mod system;

pub use family2::PlaneFamily;
pub use grazing::{GrazingAt, GrazingCondition};
pub use kind::CurveKind;
pub use options::{CurveDirection, CurveOptions};
pub use point::{Codim2Kind, Codim2Point, Curve, CurveEnd, CurvePoint};
pub use run::{
    continue_curve, continue_curve_from, continue_curve_with_progress, CurveProgress, CurveStart,
};
