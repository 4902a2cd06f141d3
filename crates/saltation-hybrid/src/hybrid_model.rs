//! The hybrid-model trait: what a user implements.
//!
//! A model has `modes()` modes. In mode `m` the state obeys `x' = f_m(t, x; p)`
//! ([`HybridModel::flow`]); the mode's guards ([`HybridModel::guards`], each a value of the
//! model's own guard type) fire when `h_{m,g}(x; p)` ([`HybridModel::guard`]) crosses zero in
//! the guard's direction with its enabling condition true ([`HybridModel::describe`]), and then
//! the reset `x⁺ = g_{m,g}(x⁻; p)` ([`HybridModel::reset`]) is applied and the mode switches to
//! the guard's target.
//!
//! **Parameters are data.** A model declares its parameters ([`HybridModel::params`]: name,
//! default, valid range) and every formula receives their values as the slice `p`, in the
//! order of the declarations. Formulas are written once, generic over the scalar `D` (plain
//! `f64` or a dual number), for the state *and* the parameters: derivatives in `x` come from
//! seeding dual numbers in `x`, derivatives in a parameter from seeding one in `p[k]` — the
//! same mechanism, so every model has exact `∂f/∂p`, `∂h/∂p`, `∂g/∂p` with no extra code. The
//! values live in one vector beside the model ([`crate::Bound`]).
//!
//! **Guards are typed.** `type Guard` is usually an enum; [`HybridModel::guard`],
//! [`HybridModel::reset`] and [`HybridModel::describe`] each `match` on it, so a guard missing
//! from one of them is a compile error, not a silently wrong model.
//!
//! **Capabilities are opt-in.** Hand-written Jacobians, affine modes and a mass matrix are
//! traits of their own ([`crate::FlowJacobian`], …; admissibility conditions are methods of
//! this trait, [`HybridModel::conditions`]); a model that
//! has one implements it and says so in one line, e.g.
//! `fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> { Some(self) }` (which does not
//! compile without the implementation). Everything a model leaves out comes from automatic
//! differentiation.
//!
//! # Writing formulas for the generic scalar `D`
//! `D` has the arithmetic operators with itself and with `f64` on the right, and every
//! elementary function as a method; constants on the left and integer literals do not compile.
//!
//! | you mean | write |
//! |---|---|
//! | `2 x₀` | `x[0] * 2.0` |
//! | `1 − x₀` | `-x[0] + 1.0` (or `D::from(1.0) - x[0]`) |
//! | `g / x₀` | `x[0].recip() * g` |
//! | `x₀²`, `√x₀` | `x[0].powi(2)`, `x[0].sqrt()` |
//! | `sin θ, cos θ` | `let (s, c) = x[0].sin_cos();` |
//! | a constant `D` | `D::from(9.81)` |
//! | parameter `k` | `p[K]` (a `D`, like the state) |
//! | `M⁻¹ b` (mass matrix) | [`crate::solve_dense`] (generic over `D`) |
//!
//! Comparisons and branches use the real part: `if x[0].re() < 0.0 { … }`.

use crate::capabilities::{
    AffineModes, FlowJacobian, FlowParamDerivative, GuardGradient, MassMatrix, ResetJacobian,
    SectionJacobians, TimeDerivative,
};
use crate::forcing::Forcing;
use crate::guard::GuardSpec;
use crate::model::{GuardInfo, Scalar};
use crate::param::Param;
use crate::{ParamError, ViolationKind};

/// A hybrid dynamical system: modes, vector fields, typed guards and resets, with its
/// parameters as data.
///
/// Required: [`name`](HybridModel::name), [`dim`](HybridModel::dim),
/// [`flow`](HybridModel::flow), [`guards`](HybridModel::guards),
/// [`describe`](HybridModel::describe), [`guard`](HybridModel::guard) and
/// [`reset`](HybridModel::reset). Provided with defaults: no parameters, one mode, the
/// section's coordinates equal to the full state, no capabilities.
///
/// ```
/// use saltation_hybrid::{GuardSpec, HybridModel, Param, Scalar};
///
/// /// A ball bouncing on the floor with restitution `e`, in gravity `g`.
/// struct Ball;
/// #[derive(Debug, Clone, Copy, PartialEq, Eq)]
/// enum Floor { Impact }
/// const PARAMS: &[Param] = &[
///     Param::new("g", 9.81).range(0.0, 1e3),
///     Param::new("e", 0.8).range(0.0, 1.0),
/// ];
///
/// impl HybridModel for Ball {
///     type Guard = Floor;
///     fn name(&self) -> &str { "ball" }
///     fn dim(&self) -> usize { 2 }
///     fn params(&self) -> &[Param] { PARAMS }
///     fn flow<D: Scalar>(&self, p: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
///         dx[0] = x[1];
///         dx[1] = -p[0];
///     }
///     fn guards(&self, _: usize) -> &[Floor] { &[Floor::Impact] }
///     fn describe(&self, _: usize, g: Floor) -> GuardSpec {
///         match g { Floor::Impact => GuardSpec::to(0).falling() }
///     }
///     fn guard<D: Scalar>(&self, _: &[D], _: usize, g: Floor, x: &[D]) -> D {
///         match g { Floor::Impact => x[0] }
///     }
///     fn reset<D: Scalar>(&self, p: &[D], _: usize, g: Floor, x: &[D], out: &mut [D]) {
///         match g {
///             Floor::Impact => {
///                 out[0] = x[0];
///                 out[1] = -p[1] * x[1];
///             }
///         }
///     }
/// }
/// ```
pub trait HybridModel {
    /// The model's guard identifiers (usually an enum; `usize` for a model whose guards are
    /// only known at run time).
    type Guard: Copy + Eq + std::fmt::Debug;

    /// Short model name (`"simplest_walker"`).
    fn name(&self) -> &str;
    /// State dimension `n`.
    fn dim(&self) -> usize;
    /// The parameters, declared once (name, default, valid range); `p[k]` in every formula is
    /// the value of the `k`-th (default: none).
    fn params(&self) -> &[Param] {
        &[]
    }
    /// Conditions on the parameter values beyond each one's declared range (e.g. between two
    /// of them); the declared ranges are checked before this is called (default: none).
    fn check_params(&self, _p: &[f64]) -> Result<(), ParamError> {
        Ok(())
    }
    /// Number of modes (default 1).
    fn modes(&self) -> usize {
        1
    }
    /// Name of a mode, for traces and messages.
    fn mode_name(&self, mode: usize) -> String {
        format!("mode {mode}")
    }
    /// Names of the state components (for tables and plots).
    fn state_names(&self) -> Vec<String> {
        (0..self.dim()).map(|i| format!("x{i}")).collect()
    }
    /// Whether the vector field of `mode` does not depend on time, `f = f(x; p)` (default
    /// `false`). A wrong `true` gives wrong strides; [`crate::ad::check_hand_written`] compares
    /// `f` at other times to catch it.
    fn autonomous(&self, _mode: usize) -> bool {
        false
    }
    /// The periodic forcing of a time-forced model ([`Forcing`]): the state component that is
    /// the phase `θ` (`θ' = 1`, the time in every formula, so that the model is autonomous in
    /// the state) and the period `T(p)`, written for the generic scalar so that `∂T/∂p` comes
    /// from automatic differentiation. Strides carry the phase modulo `T` and a periodic
    /// orbit's period is a multiple of `T` (`docs/methods.md`, the forced stride map). `None`
    /// (default): not forced; a model whose [`HybridModel::autonomous`] is false then has no
    /// periodic orbits to compute ([`crate::require_declared_forcing`]).
    fn forcing<D: Scalar>(&self, _p: &[D]) -> Option<Forcing<D>> {
        None
    }
    /// Whether an event of `guard` counts toward a stride's `events_per_stride` (default
    /// `true`). A stroboscopic section (the stride ends after whole forcing periods) counts
    /// only its strobe guard, so that the impacts between are intermediate events.
    fn stride_event(&self, _mode: usize, _guard: Self::Guard) -> bool {
        true
    }

    /// Vector field `f_m(t, x; p)` written to `dx`.
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, t: f64, x: &[D], dx: &mut [D]);
    /// The guards active in `mode`, in the order events are reported.
    fn guards(&self, mode: usize) -> &[Self::Guard];
    /// Guard `guard` of `mode` described once: crossing direction, target mode, enabling
    /// condition, failure ([`GuardSpec`]).
    fn describe(&self, mode: usize, guard: Self::Guard) -> GuardSpec;
    /// Guard function `h_{m,g}(x; p)`.
    fn guard<D: Scalar>(&self, p: &[D], mode: usize, guard: Self::Guard, x: &[D]) -> D;
    /// Reset map `g_{m,g}(x⁻; p)` written to `out`.
    fn reset<D: Scalar>(&self, p: &[D], mode: usize, guard: Self::Guard, x: &[D], out: &mut [D]);
    /// Name of `guard`, for traces and messages (default: its `Debug` form, the variant's
    /// name for an enum).
    fn guard_name(&self, _mode: usize, guard: Self::Guard) -> String {
        format!("{guard:?}")
    }
    /// Direction and target mode of `guard`, asked at every step by the event location
    /// (default: from [`HybridModel::describe`]). A model whose `describe` allocates (a
    /// failure text known only at run time) overrides this with a cheap answer.
    fn guard_info(&self, mode: usize, guard: Self::Guard) -> GuardInfo {
        let d = self.describe(mode, guard);
        GuardInfo {
            direction: d.direction,
            target: d.target,
        }
    }
    /// Whether `guard` counts at the located crossing `x` (default: the condition of
    /// [`HybridModel::describe`]). A model whose conditions are only known at run time (an
    /// equation model) overrides this.
    fn enabled(&self, p: &[f64], mode: usize, guard: Self::Guard, x: &[f64]) -> bool {
        self.describe(mode, guard).enabled.is_none_or(|c| c(p, x))
    }

    /// Number of admissibility conditions of `mode` (default: none): physical conditions the
    /// equations do not enforce, each a function `c_{m,i}(x; p)` that must stay `≥ 0` while the
    /// state is in `mode` (a ball above the table in flight, a contact force that pushes in
    /// stance). Orbits report whether they hold, continuation marks where that changes
    /// (grazing), and `simulate` stops at the first violation.
    fn conditions(&self, _mode: usize) -> usize {
        0
    }
    /// Name of condition `i` of `mode`, for messages ("ground force").
    fn condition_name(&self, _mode: usize, i: usize) -> String {
        format!("condition {i}")
    }
    /// Condition function `c_{m,i}(x; p)`, admissible where `≥ 0`; written once for any
    /// scalar, like a guard, so that its zero is located on the dense output like an event.
    /// Only called for `i < conditions(mode)`.
    fn condition<D: Scalar>(&self, _p: &[D], _mode: usize, _i: usize, _x: &[D]) -> D {
        D::from(0.0)
    }
    /// How a violation of condition `i` of `mode` is reported in an orbit's
    /// [`crate::Violation`]: the name it is reported under and its [`ViolationKind`], which
    /// fixes the value reported from the condition's lowest value `c` (`c` itself, or `λ = −c`
    /// for [`ViolationKind::Pulls`]). Default: the condition's name and
    /// [`ViolationKind::Negative`]. A constrained contact reports its force `−λ ≥ 0` as a
    /// contact that pulls and its gap as one that penetrates, under the contact's name.
    fn condition_kind(&self, mode: usize, i: usize) -> (String, ViolationKind) {
        (self.condition_name(mode, i), ViolationKind::Negative)
    }
    /// Equalities a state of `mode` must satisfy that the flow keeps but does not restore (a
    /// closed contact's gap and its rate, a rigid link): the largest residual at `x`, named,
    /// or `None` (default) when every equality holds or the mode has none. A simulation
    /// refuses an initial state with a residual above its tolerance.
    fn state_residual(&self, _p: &[f64], _mode: usize, _x: &[f64]) -> Option<(String, f64)> {
        None
    }

    /// Dimension of the section's reduced coordinates (default: `dim()`).
    fn reduced_dim(&self) -> usize {
        self.dim()
    }
    /// Chart `x = χ(u; p)` from reduced coordinates to a full state on the section (default:
    /// `x = u`).
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x.copy_from_slice(u);
    }
    /// Projection `u = π(x; p)` (default: `u = x`).
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u.copy_from_slice(x);
    }
    /// Whether an orbit's multipliers are those of the stride map in the section's reduced
    /// coordinates, `M = Dπ · P_x · Dχ`, instead of the full-state `P_x` (default `false`). A
    /// model in redundant coordinates (a constrained mechanical system) says `true`.
    fn multipliers_on_section(&self) -> bool {
        false
    }

    /// Hand-written `f` and `f_x` ([`FlowJacobian`]); `None` (default): automatic
    /// differentiation.
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        None
    }
    /// Hand-written `∂f/∂t` of a time-dependent mode ([`TimeDerivative`]); `None` (default):
    /// zero in an autonomous mode, else a finite difference where a method needs it.
    fn hand_time_derivative(&self) -> Option<&dyn TimeDerivative> {
        None
    }
    /// Hand-written parameter derivatives `∂f/∂p_k` ([`FlowParamDerivative`]); `None`
    /// (default): automatic differentiation in `p[k]`.
    fn hand_flow_param_derivative(&self) -> Option<&dyn FlowParamDerivative> {
        None
    }
    /// Hand-written guard gradients `h_x` ([`GuardGradient`]); `None` (default): automatic.
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<Self::Guard>> {
        None
    }
    /// Hand-written reset Jacobians `g_x` ([`ResetJacobian`]); `None` (default): automatic.
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<Self::Guard>> {
        None
    }
    /// Hand-written chart and projection Jacobians ([`SectionJacobians`]); `None` (default):
    /// automatic.
    fn hand_section_jacobians(&self) -> Option<&dyn SectionJacobians> {
        None
    }
    /// Which modes have a flow affine in the state ([`AffineModes`]); `None` (default): none.
    fn affine_modes(&self) -> Option<&dyn AffineModes> {
        None
    }
    /// The constant mass matrices of a model written `M x' = f` ([`MassMatrix`]); `None`
    /// (default): `M = I`.
    fn mass_matrix(&self) -> Option<&dyn MassMatrix> {
        None
    }
}

/// The guard part of a [`HybridModel`] impl for a model with no events (a plain ODE, a stiff
/// test problem): `type Guard = Infallible` and `guards`, `describe`, `guard`, `reset` for a
/// guard that cannot exist.
///
/// ```
/// use saltation_hybrid::{HybridModel, Scalar};
/// struct Decay;
/// impl HybridModel for Decay {
///     saltation_hybrid::no_guards!();
///     fn name(&self) -> &str { "decay" }
///     fn dim(&self) -> usize { 1 }
///     fn flow<D: Scalar>(&self, _: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
///         dx[0] = -x[0];
///     }
/// }
/// assert!(Decay.guards(0).is_empty());
/// ```
#[macro_export]
macro_rules! no_guards {
    () => {
        type Guard = ::std::convert::Infallible;
        fn guards(&self, _mode: usize) -> &[::std::convert::Infallible] {
            &[]
        }
        fn describe(&self, _mode: usize, g: ::std::convert::Infallible) -> $crate::GuardSpec {
            match g {}
        }
        fn guard<D: $crate::Scalar>(
            &self,
            _p: &[D],
            _mode: usize,
            g: ::std::convert::Infallible,
            _x: &[D],
        ) -> D {
            match g {}
        }
        fn reset<D: $crate::Scalar>(
            &self,
            _p: &[D],
            _mode: usize,
            g: ::std::convert::Infallible,
            _x: &[D],
            _out: &mut [D],
        ) {
            match g {}
        }
    };
}
