//! # saltation-continuation
//!
//! Branches of periodic orbits of hybrid systems as a parameter varies: natural-parameter
//! continuation with a secant predictor and pseudo-arclength continuation (Keller) that passes
//! folds; adaptive steps driven by the corrector's convergence; bifurcation test functions
//! (fold `det(J − I)`, period doubling `det(J + I)`, Neimark–Sacker via the bialternate product)
//! located by regula falsi on the branch; branch switching at period doublings onto the period-2
//! branch (fixed points of the composed stride map); parallel parameter sweeps.
//!
//! ## What you want to do
//! - **Continue a branch**: [`continue_branch`] with a [`ModelFamily`] (any
//!   `Fn(f64) -> Result<Model, ParamError>`), a [`Start`] and [`ContinuationOptions`].
//! - **Continue a bifurcation in two parameters**: [`continue_curve`] with a [`PlaneFamily`],
//!   a [`CurveKind`], a [`CurveStart`] and [`CurveOptions`]: fold, period-doubling and
//!   Neimark–Sacker curves and their codimension-two points.
//! - **Switch at a period doubling**: [`switch_period_doubling`] then [`continue_branch`].
//! - **Sweep**: [`sweep_1d`], [`sweep_2d`]; brute-force attractors: [`orbit_diagram`].
//! - **Run a model file's `continuation` section**: [`run_script`] (or
//!   [`run_script_with_events`] for progress counts).
//!
//! ## Input checks
//! Every entry point checks its input before computing, with one validation per type:
//! [`ContinuationOptions::validate`], [`BranchSpec::validate`], [`DiagramSpec::validate`],
//! [`OrbitDiagramOptions::validate`], [`ContinuationSpec::validate`]. Bad input is a
//! [`ContinuationError`] naming the field (`branches[2].from`, `orbit_diagram.count`,
//! `settings.max_step`) for which [`ContinuationError::is_input_error`] holds; sizes taken from
//! the input have the upper bounds [`MAX_POINTS`], [`MAX_BRANCHES`], [`MAX_PERIOD_DOUBLINGS`],
//! [`MAX_DIAGRAM_COUNT`], [`MAX_TRANSIENT`], [`MAX_KEEP`], [`MAX_DIAGRAM_VALUES`].
#![warn(missing_docs)]
// Range checks are written `!(x > 0.0)` on purpose: they reject NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod basin;
mod branch;
mod corrector;
mod curve;
mod diagram;
mod error;
mod family;
mod guard_grazing;
mod lyapunov_sweep;
pub mod mfpt;
mod options;
mod run;
mod script;
mod segments;
mod sweep;
mod switch;
#[cfg(test)]
mod test_models;
mod tests_fn;

pub use branch::{Bifurcation, BifurcationKind, Branch, BranchPoint, EndReason};
pub use curve::{
    continue_curve, continue_curve_from, continue_curve_with_progress, Codim2Kind, Codim2Point,
    Curve, CurveDirection, CurveEnd, CurveKind, CurveOptions, CurvePoint, CurveProgress,
    CurveStart, GrazingAt, GrazingCondition, PlaneFamily,
};
pub use diagram::{
    failure_cause, orbit_diagram, orbit_diagram_with_progress, DiagramColumn, OrbitDiagramOptions,
    MAX_DIAGRAM_COUNT, MAX_DIAGRAM_VALUES, MAX_KEEP, MAX_TRANSIENT,
};
pub use error::ContinuationError;
pub use family::{ModelFamily, ParamFamily};
pub use guard_grazing::GRAZING_CLEARANCE;
pub use lyapunov_sweep::{lyapunov_sweep, LyapunovColumn};
pub use options::{
    ContinuationOptions, Predictor, MAX_CORRECTOR_ITERS, MAX_FD_PARAM_STEP, MAX_GROWTH, MAX_POINTS,
    MAX_STEP_RATIO, MIN_STEP,
};
pub use run::{continue_branch, continue_branch_with_progress, Progress, Start};
pub use script::{
    run_script, run_script_curves, run_script_with_events, BranchSpec, ContinuationSpec, CurveSpec,
    DiagramSpec, ScriptCurve, ScriptEvent, ScriptProgress, ScriptResult, MAX_BRANCHES, MAX_CURVES,
    MAX_CURVES_PER_REQUEST, MAX_PERIOD_DOUBLINGS,
};
pub use sweep::{sweep_1d, sweep_2d, GridPoint};
pub use switch::{switch_period_doubling, Switched};
pub use tests_fn::{is_neimark_sacker, test_functions};
