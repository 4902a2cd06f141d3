//! The evaluated model: what the stride map, Newton, continuation and the command line work on.
//!
//! [`EvalModel`] is a model at its parameter values, evaluated in `f64` with exact derivatives:
//! the vector field `f_m(t, x)` of mode `m`, its Jacobian `f_x`, the guards `h_{m,j}(x)` with
//! their gradients, the resets `g_{m,j}(x)` with their Jacobians, the section's chart `χ` and
//! projection `π` with theirs, and the derivatives of all of these in any one parameter `p_k`.
//! It is object-safe: `&dyn EvalModel` (or `Box<dyn EvalModel>`) stands for any model, so
//! models chosen at run time (a registry, a file) reach every layer through one face.
//!
//! Users do not implement it: they implement the generic [`crate::HybridModel`] (formulas
//! written once for any scalar) and [`crate::Bound`] evaluates it, with derivatives by forward
//! automatic differentiation or the model's hand-written ones. Layers that transform a model
//! (the state augmented with a parameter, [`crate::ParamAugmented`]) implement it directly.

use crate::ParamError;
use num_dual::DualNum;
use saltation_ode::Direction;

/// The scalar type a model's equations are written in: `f64` or a dual number.
pub trait Scalar: DualNum<f64> + Copy {}
impl<T: DualNum<f64> + Copy> Scalar for T {}

/// Direction and target mode of one guard of one mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardInfo {
    /// Sign changes that count.
    pub direction: Direction,
    /// Mode entered after the reset.
    pub target: usize,
}

/// A hybrid model at its parameter values, evaluated in `f64` with exact derivatives (see the
/// module documentation). Indices are `mode` in `0..modes()` and guard `j` in
/// `0..guards(mode)`; matrices are row-major.
pub trait EvalModel {
    /// Short model name (`"simplest_walker"`).
    fn name(&self) -> &str;
    /// State dimension `n`.
    fn dim(&self) -> usize;
    /// Number of modes.
    fn modes(&self) -> usize;
    /// Name of a mode, for traces and messages.
    fn mode_name(&self, mode: usize) -> String;
    /// Names of the state components (for tables and plots).
    fn state_names(&self) -> Vec<String>;

    /// Vector field `f_m(t, x)` into `dx`.
    fn flow(&self, mode: usize, t: f64, x: &[f64], dx: &mut [f64]);
    /// `f_x` (`n × n`) into `jac`.
    fn flow_jacobian(&self, mode: usize, t: f64, x: &[f64], jac: &mut [f64]);
    /// `f` and `f_x` in one call.
    fn flow_and_jacobian(&self, mode: usize, t: f64, x: &[f64], dx: &mut [f64], jac: &mut [f64]);
    /// `∂f/∂t` into `dfdt` when known (zero in an autonomous mode); `false` otherwise (the
    /// Rosenbrock method, the only one that uses it, then takes a finite difference in `t`).
    fn flow_time_derivative(&self, mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]) -> bool;
    /// Whether `f_x` of `mode` is the same at every state and time (`f = A x + b(t)`): a
    /// stride then takes the variational matrix of a phase as `e^{Aτ}`.
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool;
    /// Whether the vector field of `mode` does not depend on time.
    fn flow_is_autonomous(&self, mode: usize) -> bool;
    /// The periodic forcing of a time-forced model: the phase state and the period
    /// ([`crate::HybridModel::forcing`]); `None` (default) for a model that is not forced.
    fn forcing(&self) -> Option<crate::Forcing<f64>> {
        None
    }
    /// The gradient of the forcing period `T` with respect to the state (length `n`) into
    /// `grad`: zero (default) except for a parameter appended to the state
    /// ([`crate::ParamAugmented`]).
    fn forcing_period_gradient(&self, grad: &mut [f64]) {
        grad.fill(0.0);
    }
    /// The forcing with parameter `k` set to `pk`, and `∂T/∂p_k`; `None` (default) for a model
    /// that is not forced.
    fn forcing_in_param(&self, _k: usize, _pk: f64) -> Option<(crate::Forcing<f64>, f64)> {
        None
    }
    /// Whether an event of guard `j` of `mode` counts toward a stride's `events_per_stride`
    /// (default `true`; [`crate::HybridModel::stride_event`]).
    fn stride_event(&self, _mode: usize, _j: usize) -> bool {
        true
    }
    /// The constant mass matrix `M` of `mode` (`n × n`) of a flow `M x' = f`; `None` for
    /// `M = I`.
    fn mass_matrix(&self, mode: usize) -> Option<Vec<f64>>;

    /// Number of guards active in `mode`.
    fn guards(&self, mode: usize) -> usize;
    /// A guard's name for messages (its identifier in the model, e.g. `HeelStrike`).
    fn guard_name(&self, mode: usize, j: usize) -> String;
    /// Direction and target mode of guard `j` of `mode`.
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo;
    /// Whether guard `j` of `mode` counts at the located crossing `x`.
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool;
    /// What failed if guard `j` of `mode` is a failure guard (a stride that meets it ends with
    /// [`crate::HybridError::Failure`]).
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String>;
    /// The guard of `mode` (index) through which a simulation goes on where the crossings of
    /// guard `j` accumulate ([`crate::GuardSpec::on_accumulation`]); `None` when the
    /// accumulation ends the run.
    fn guard_on_accumulation(&self, mode: usize, j: usize) -> Option<usize>;
    /// Guard function `h_{m,j}(x)`.
    fn guard(&self, mode: usize, j: usize, x: &[f64]) -> f64;
    /// `h_x` (length `n`) into `grad`.
    fn guard_gradient(&self, mode: usize, j: usize, x: &[f64], grad: &mut [f64]);
    /// Reset map `g_{m,j}(x⁻)` into `out`.
    fn reset(&self, mode: usize, j: usize, x: &[f64], out: &mut [f64]);
    /// `g_x` (`n × n`) into `jac`.
    fn reset_jacobian(&self, mode: usize, j: usize, x: &[f64], jac: &mut [f64]);

    /// Dimension `r` of the section's reduced coordinates.
    fn reduced_dim(&self) -> usize;
    /// Chart `x = χ(u)` from reduced coordinates to a full state on the section.
    fn chart(&self, u: &[f64], x: &mut [f64]);
    /// `Dχ(u)` (`n × r`) into `jac`.
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]);
    /// Projection `u = π(x)`.
    fn project(&self, x: &[f64], u: &mut [f64]);
    /// `Dπ(x)` (`r × n`) into `jac`.
    fn project_jacobian(&self, x: &[f64], jac: &mut [f64]);
    /// Whether an orbit's multipliers are those of `Dπ · P_x · Dχ` instead of `P_x` (a model
    /// in redundant coordinates).
    fn multipliers_on_section(&self) -> bool;
    /// Number of admissibility conditions of `mode` ([`crate::HybridModel::conditions`]).
    fn conditions(&self, mode: usize) -> usize;
    /// Name of condition `i` of `mode`.
    fn condition_name(&self, mode: usize, i: usize) -> String;
    /// Condition `c_{m,i}(x)`, admissible where `≥ 0`.
    fn condition(&self, mode: usize, i: usize, x: &[f64]) -> f64;
    /// How a violation of condition `i` of `mode` is reported: name and kind
    /// ([`crate::HybridModel::condition_kind`]).
    fn condition_kind(&self, mode: usize, i: usize) -> (String, crate::ViolationKind);
    /// The largest residual of the equalities a state of `mode` must satisfy, named
    /// ([`crate::HybridModel::state_residual`]).
    fn state_residual(&self, mode: usize, x: &[f64]) -> Option<(String, f64)>;
    /// Whether the trajectory of one stride from `x0` is physically admissible; `None` for a
    /// model without such conditions.
    fn admissibility(
        &self,
        x0: &[f64],
        opts: &crate::StrideOptions,
    ) -> Option<Result<crate::Admissibility, crate::HybridError>>;

    /// Names of the parameters; parameter `k` is the `k`-th.
    fn param_names(&self) -> Vec<String>;
    /// Value of parameter `k` (`None` when there is no such parameter).
    fn param_value(&self, k: usize) -> Option<f64>;
    /// Sets parameter `k` to `value`, checked against its declaration and the model's own
    /// conditions; unchanged on error.
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError>;
    /// Checks the current values against the declarations and the model's own conditions.
    fn check_params(&self) -> Result<(), ParamError>;
    /// Whether the `*_in_param` functions give the exact dependence on parameter `k` (every
    /// parameter of a [`crate::Bound`] model).
    fn param_derivatives(&self, k: usize) -> bool;

    /// `f` at parameter `k` set to `pk` into `dx`, and `[f_x | ∂f/∂p_k]` (`n × (n + 1)`) into
    /// `jac`: the flow of the state augmented with the parameter.
    #[allow(clippy::too_many_arguments)]
    fn flow_in_param(
        &self,
        k: usize,
        pk: f64,
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    );
    /// `h` at parameter `k` set to `pk`, and `[h_x | ∂h/∂p_k]` (length `n + 1`) into `grad`.
    fn guard_in_param(
        &self,
        k: usize,
        pk: f64,
        mode: usize,
        j: usize,
        x: &[f64],
        grad: &mut [f64],
    ) -> f64;
    /// `g` at parameter `k` set to `pk` into `out`, and `[g_x | ∂g/∂p_k]` (`n × (n + 1)`) into
    /// `jac`.
    #[allow(clippy::too_many_arguments)]
    fn reset_in_param(
        &self,
        k: usize,
        pk: f64,
        mode: usize,
        j: usize,
        x: &[f64],
        out: &mut [f64],
        jac: &mut [f64],
    );
    /// `χ(u)` at parameter `k` set to `pk` into `x`, and `[Dχ | ∂χ/∂p_k]` (`n × (r + 1)`) into
    /// `jac`.
    fn chart_in_param(&self, k: usize, pk: f64, u: &[f64], x: &mut [f64], jac: &mut [f64]);
}

/// An owned model that can be shared between threads and copied: what a registry, a model file
/// or the command line hands around as `Box<dyn SharedModel>`.
pub trait SharedModel: EvalModel + Send + Sync {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn SharedModel>;
}

impl<T: EvalModel + Clone + Send + Sync + 'static> SharedModel for T {
    fn clone_box(&self) -> Box<dyn SharedModel> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn SharedModel> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Writes the n×n identity (row-major) into `m`.
pub fn identity(m: &mut [f64], n: usize) {
    m.fill(0.0);
    for i in 0..n {
        m[i * n + i] = 1.0;
    }
}
