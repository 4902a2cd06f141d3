//! # saltation-hybrid
//!
//! Hybrid dynamical systems — smooth flows interrupted by guards and resets — and the exact
//! Jacobian of their stride (Poincaré) maps from variational equations and saltation matrices.
//!
//! ## What you want to do
//! - **Define a model**: implement [`EvalModel`] once, generic over the scalar type; Jacobians
//!   come from automatic differentiation ([`ad`]) unless you provide hand-written ones.
//! - **Map one stride** with its Jacobian: [`StrideMap::eval`] with [`JacobianKind`].
//! - **Simulate many strides** with a trace for plots: [`simulate`].
//! - **Change a parameter by name** (for RON files and the CLI): [`with_param`]; a model lists
//!   its parameters in [`EvalModel::param_names`].
//! - **Differentiate in a parameter** exactly: [`ParamAugmented`] (the state augmented with `p`).
//!
//! ## Equations
//! Variational equations `Φ' = f_x Φ` along each smooth segment; at an event with guard `h`,
//! reset `g`, `f⁻ = f_old(x⁻)`, `f⁺ = f_new(g(x⁻))`, the saltation matrix
//! `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)` ([`saltation`]).
#![warn(missing_docs)]
// Range checks are written `!(x > 0.0)` on purpose: they reject NaN as well.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod ad;
mod admissibility;
mod bound;
mod buffer;
mod capabilities;
mod conditions;
mod constant_jacobian;
mod crossings;
mod dense;
mod error;
mod event_loop;
mod forcing;
mod guard;
mod guard_off;
mod guards;
mod hybrid_model;
mod mode_strides;
mod model;
pub mod param;
mod param_augmented;
mod params;
mod reduced_names;
pub mod saltation;
mod simulate;
mod state_solvers;
mod stride;
mod variational;

pub use admissibility::{Admissibility, Violation, ViolationKind};
pub use bound::Bound;
pub use buffer::with_buffer;
pub use capabilities::{
    AffineModes, FlowJacobian, FlowParamDerivative, GuardGradient, MassMatrix, ResetJacobian,
    SectionJacobians, TimeDerivative,
};
pub use conditions::{
    check_events, check_initial_state, check_state_conditions, check_stride, check_trace,
    condition_slope, first_violation, guard_condition_name, guard_touches, has_conditions,
    least_guard_touch, phase_minima, ConditionViolation, GuardTouch, MinimumAt, PhaseMinima,
    CONDITION_TOL, STATE_TOL,
};
pub use crossings::{Crossings, Rejected, Rejection};
pub use dense::{solve_dense, SingularMatrix};
pub use error::{HybridError, StateFailure};
pub use forcing::{require_declared_forcing, Forcing};
pub use guard::GuardSpec;
pub use guard_off::GuardOff;
pub use guards::ModeGuards;
pub use hybrid_model::HybridModel;
pub use mode_strides::ModeStrides;
pub use model::{identity, EvalModel, GuardInfo, Scalar, SharedModel};
pub use param::{Limit, Param};
pub use param_augmented::ParamAugmented;
pub use params::{check_range, get_param, param_index, with_param, ParamError};
pub use reduced_names::reduced_names;
pub use simulate::{simulate, SimulateOptions, Trace, MAX_SAMPLES, MAX_STRIDES};
pub use stride::{
    EventRecord, JacobianKind, StrideMap, StrideOptions, StrideResult, StrideWorkspace,
    MAX_EVENTS_PER_STRIDE,
};
pub use variational::{ModeFlow, VariationalFlow};
