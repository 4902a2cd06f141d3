//! The hybrid-model trait: what a user implements.
//!
//! A model has `modes()` modes. In mode `m` the state obeys `x' = f_m(t, x)`
//! ([`EvalModel::flow`]); the mode's guards `h_{m,j}(x)` ([`EvalModel::guard`]) fire when
//! they cross zero in their [`Direction`] with their enabling condition true, and then the reset
//! `x⁺ = g_{m,j}(x⁻)` ([`EvalModel::reset`]) is applied and the mode switches to the guard's
//! target. Equations are written once, generic over the scalar `D` (plain `f64` or a dual
//! number), so their Jacobians come from forward-mode automatic differentiation
//! ([`crate::ad`]); a model may override them with hand-written ones, which the tests compare to
//! the automatic ones.
//!
//! A stride (Poincaré) map starts on a section and ends just after a given number of events.
//! The section may have reduced coordinates `u` (chart `χ(u) = x`, projection `π(x) = u`), in
//! which fixed points are sought; by default they are the full state.

use crate::guard::Guard;
use num_dual::DualNum;
use saltation_ode::Direction;

/// The scalar type a model's equations are written in: `f64` or a dual number.
pub trait Scalar: DualNum<f64> + Copy {}
impl<T: DualNum<f64> + Copy> Scalar for T {}

/// Direction and target mode of one guard of one mode (the part of a [`Guard`] the event
/// location needs at every step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardInfo {
    /// Sign changes that count.
    pub direction: Direction,
    /// Mode entered after the reset.
    pub target: usize,
}

/// A hybrid dynamical system: modes, vector fields, guards and resets.
///
/// Required: [`name`](EvalModel::name), [`dim`](EvalModel::dim),
/// [`flow`](EvalModel::flow), [`guards`](EvalModel::guards),
/// [`guard`](EvalModel::guard) and [`describe_guard`](EvalModel::describe_guard) (each
/// guard's direction, target, enabling condition and failure, once). Everything else has a
/// default: one mode, identity resets, Jacobians by automatic differentiation, the section's
/// reduced coordinates equal to the full state (override [`reduced_dim`](EvalModel::reduced_dim),
/// [`chart`](EvalModel::chart), [`project`](EvalModel::project) and their Jacobians for a
/// section with fewer coordinates; the `saltation_models` tests check hand-written Jacobians
/// against automatic ones), no parameters. Indices are `mode` in `0..modes()` and guard `j` in
/// `0..guards(mode)`.
///
/// # Writing formulas for the generic scalar `D`
/// The equations are written once for `D: Scalar` (`f64`, or a dual number when a Jacobian is
/// taken). `D` has the arithmetic operators with itself and with `f64` on the right, and every
/// elementary function as a method; constants on the left and integer literals do not compile.
/// The idioms:
///
/// | you mean | write |
/// |---|---|
/// | `2 x₀` | `x[0] * 2.0` |
/// | `1 − x₀` | `-x[0] + 1.0` (or `D::from(1.0) - x[0]`) |
/// | `g / x₀` | `x[0].recip() * g` |
/// | `x₀²`, `√x₀` | `x[0].powi(2)`, `x[0].sqrt()` |
/// | `sin θ, cos θ` | `let (s, c) = x[0].sin_cos();` |
/// | a constant `D` | `D::from(9.81)` |
/// | a parameter field `self.k` | `x[0] * self.k` (an `f64` on the right) |
/// | `M⁻¹ b` (mass matrix) | [`crate::solve_dense`] (generic over `D`) |
///
/// Comparisons and branches use the real part: `if x[0].re() < 0.0 { … }`.
///
/// # Parameters
/// A model lists its parameters ([`param_names`](EvalModel::param_names),
/// [`param_value`](EvalModel::param_value), [`set_param_value`](EvalModel::set_param_value);
/// `named_params!` writes them for `f64` fields), so model files, the CLI's `--set` and
/// continuation address them by name. A model that also writes its equations with the parameter
/// as a scalar ([`param_derivatives`](EvalModel::param_derivatives) and the `*_with_param`
/// methods) gets exact `∂/∂p` in continuation.
pub trait EvalModel {
    /// Short model name (`"simplest_walker"`).
    fn name(&self) -> &str;
    /// State dimension `n`.
    fn dim(&self) -> usize;
    /// Number of modes (default 1).
    fn modes(&self) -> usize {
        1
    }
    /// Name of a mode, for traces and messages.
    fn mode_name(&self, mode: usize) -> String {
        format!("mode {mode}")
    }
    /// Vector field `f_m(t, x)` written to `dx`.
    fn flow<D: Scalar>(&self, mode: usize, t: f64, x: &[D], dx: &mut [D]);
    /// Number of guards active in `mode`.
    fn guards(&self, mode: usize) -> usize;
    /// Guard function `h_{m,j}(x)`.
    fn guard<D: Scalar>(&self, mode: usize, j: usize, x: &[D]) -> D;
    /// Guard `j` of `mode` described once: crossing direction, target mode, enabling
    /// condition, failure ([`Guard`]).
    fn describe_guard(&self, mode: usize, j: usize) -> Guard<Self>;

    /// Direction and target mode of guard `j` of `mode`, from [`EvalModel::describe_guard`].
    /// (Derived; a model that forwards to another model, such as an enum over models,
    /// overrides this, [`EvalModel::guard_enabled`] and [`EvalModel::guard_failure`]
    /// instead, since a [`Guard`]'s condition is typed by its model.)
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo {
        let g = self.describe_guard(mode, j);
        GuardInfo {
            direction: g.direction,
            target: g.target,
        }
    }
    /// Whether guard `j` of `mode` counts at the located crossing `x`, from
    /// [`EvalModel::describe_guard`] (derived).
    fn guard_enabled(&self, mode: usize, j: usize, x: &[f64]) -> bool {
        self.describe_guard(mode, j)
            .enabled
            .is_none_or(|c| c(self, x))
    }
    /// What failed if guard `j` of `mode` is a failure guard (a stride that meets it ends with
    /// [`crate::HybridError::Failure`]), from [`EvalModel::describe_guard`] (derived).
    fn guard_failure(&self, mode: usize, j: usize) -> Option<String> {
        self.describe_guard(mode, j).failure.map(|f| f.into_owned())
    }
    /// Reset map `g_{m,j}(x⁻)` written to `out` (default: identity).
    fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
        out.copy_from_slice(x);
    }

    /// Hand-written `f_x` (row-major n×n) into `jac`; return `false` (default) to use automatic
    /// differentiation.
    fn flow_jacobian(&self, _mode: usize, _t: f64, _x: &[f64], _jac: &mut [f64]) -> bool {
        false
    }
    /// Whether `f_x` of `mode` is the same at every state and time, i.e. the vector field is
    /// affine in the state, `f = A x + b(t)` (default `false`). A stride then takes the
    /// variational matrix of a phase of duration `τ` in this mode as `e^{Aτ}` instead of
    /// integrating the variational equations (the state alone is integrated): exact, and
    /// cheaper. A wrong `true` gives wrong Jacobians; [`crate::ad::check_hand_written`]
    /// compares `f_x` at two states to catch it.
    fn flow_jacobian_is_constant(&self, _mode: usize) -> bool {
        false
    }
    /// Whether the vector field of `mode` does not depend on time, `f = f(x)` (default
    /// `false`). With [`EvalModel::flow_jacobian_is_constant`] it makes the mode
    /// autonomous and affine, `f = A x + b` with `A`, `b` constant: a stride then steps the
    /// state there exactly, by `e^{Ãh}` (`saltation_ode::AffineExp`; see
    /// [`crate::StrideOptions::exact_affine_phases`]) instead of integrating it. A wrong
    /// `true` gives wrong strides; [`crate::ad::check_hand_written`] compares `f` at two
    /// times to catch it.
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        false
    }
    /// Vector field and hand-written `f_x` in one call (so they can share work such as
    /// trigonometric functions); return `false` (default) to fall back to [`EvalModel::flow`]
    /// and [`EvalModel::flow_jacobian`].
    fn flow_and_jacobian(
        &self,
        _mode: usize,
        _t: f64,
        _x: &[f64],
        _dx: &mut [f64],
        _jac: &mut [f64],
    ) -> bool {
        false
    }
    /// Hand-written `∂f/∂t` of `mode` at `(t, x)` into `dfdt` (length n); `false` (default) when
    /// not given: the Rosenbrock method, the only one that uses it, then takes a finite
    /// difference in `t`. An autonomous model may write zeros and return `true`.
    fn flow_time_derivative(&self, _mode: usize, _t: f64, _x: &[f64], _dfdt: &mut [f64]) -> bool {
        false
    }
    /// Hand-written guard gradient `h_x` into `grad`; `false` (default) for automatic.
    fn guard_gradient(&self, _mode: usize, _j: usize, _x: &[f64], _grad: &mut [f64]) -> bool {
        false
    }
    /// Hand-written reset Jacobian `g_x` (row-major n×n) into `jac`; `false` (default) for
    /// automatic.
    fn reset_jacobian(&self, _mode: usize, _j: usize, _x: &[f64], _jac: &mut [f64]) -> bool {
        false
    }

    /// Dimension of the section's reduced coordinates (default: `dim()`).
    fn reduced_dim(&self) -> usize {
        self.dim()
    }
    /// Chart `x = χ(u)` from reduced coordinates to a full state on the section (default:
    /// `x = u`, the section's coordinates are the full state). Written for the generic scalar
    /// like the flow, so its Jacobian comes from automatic differentiation.
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x.copy_from_slice(u);
    }
    /// `Dχ(u)` (row-major n × r) (default: automatic differentiation of
    /// [`EvalModel::chart`]). A hand-written one is checked by [`crate::ad::check_hand_written`].
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        crate::ad::chart_jacobian_ad(self, u, jac);
    }
    /// Projection `u = π(x)` (default: `u = x`), generic like [`EvalModel::chart`].
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u.copy_from_slice(x);
    }
    /// `Dπ(x)` (row-major r × n) (default: automatic differentiation of
    /// [`EvalModel::project`]).
    fn project_jacobian(&self, x: &[f64], jac: &mut [f64]) {
        crate::ad::project_jacobian_ad(self, x, jac);
    }
    /// Whether an orbit's multipliers are those of the stride map in the section's reduced
    /// coordinates, `M = Dπ · P_x · Dχ`, instead of the full-state `P_x` (default `false`).
    /// A model in redundant coordinates (a constrained mechanical system) says `true`: its
    /// full-state Jacobian also has multipliers for directions that break the constraints,
    /// set by the drift control and not by the dynamics.
    fn multipliers_on_section(&self) -> bool {
        false
    }
    /// Whether the trajectory of one stride from `x0` is physically admissible (contact forces
    /// that push, gaps that stay open: conditions the equations do not enforce); `None` (the
    /// default) for a model without such conditions.
    fn admissibility(
        &self,
        _x0: &[f64],
        _opts: &crate::StrideOptions,
    ) -> Option<Result<crate::Admissibility, crate::HybridError>> {
        None
    }
    /// Names of the state components (for tables and plots).
    fn state_names(&self) -> Vec<String> {
        (0..self.dim()).map(|i| format!("x{i}")).collect()
    }
    /// Checks the parameters against their physical range (default: nothing to check). Model
    /// files call it on load and [`EvalModel::set_param_value`] after every change, so a
    /// mistyped value is an error naming the parameter and its range
    /// ([`crate::ParamError::OutOfRange`]), not a stride that fails later.
    fn check_params(&self) -> Result<(), crate::ParamError> {
        Ok(())
    }
    /// Names of the model's parameters; parameter `k` below is the `k`-th of them (default:
    /// none). [`crate::param_index`], [`crate::with_param`] and the model files address
    /// parameters by these names.
    fn param_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// Value of parameter `k` (`None` when there is no such parameter; the default).
    fn param_value(&self, _k: usize) -> Option<f64> {
        None
    }
    /// Sets parameter `k` to `value`. Implementations check that the value is finite and in
    /// range ([`crate::ParamError`]) and leave the model unchanged when it is not (default: no
    /// parameters, [`crate::ParamError::Unknown`]).
    fn set_param_value(&mut self, k: usize, _value: f64) -> Result<(), crate::ParamError> {
        Err(crate::ParamError::Unknown {
            name: format!("#{k}"),
            known: self.param_names(),
        })
    }

    /// Whether [`EvalModel::flow_with_param`], [`EvalModel::guard_with_param`],
    /// [`EvalModel::reset_with_param`] and [`EvalModel::chart_with_param`] give the
    /// model's exact dependence on parameter `k` (default `false`). When `true`, continuation in
    /// `k` takes `∂F/∂p` from the variational equations of the state augmented with `p`
    /// ([`crate::ParamAugmented`]) instead of central differences.
    fn param_derivatives(&self, _k: usize) -> bool {
        false
    }
    /// The vector field `f_m(t, x; p)` with parameter `k` given as the scalar `p` (a dual number
    /// carries `∂/∂p`). The default ignores `p`: a model that overrides
    /// [`EvalModel::param_derivatives`] overrides this where `f` depends on the parameter.
    fn flow_with_param<D: Scalar>(
        &self,
        _k: usize,
        _p: D,
        mode: usize,
        t: f64,
        x: &[D],
        dx: &mut [D],
    ) {
        self.flow(mode, t, x, dx)
    }
    /// Hand-written `∂f/∂p` of `mode` for parameter `k` at its current value, at `(t, x)`,
    /// into `dfdp` (length n); `false` (default) when not given: [`crate::ParamAugmented`]
    /// then differentiates [`EvalModel::flow_with_param`] automatically in all `n + 1`
    /// directions. With it and a hand-written `f_x`, the augmented Jacobian is assembled from
    /// the two.
    fn flow_param_derivative(
        &self,
        _k: usize,
        _mode: usize,
        _t: f64,
        _x: &[f64],
        _dfdp: &mut [f64],
    ) -> bool {
        false
    }
    /// The guard `h_{m,j}(x; p)` with parameter `k` as the scalar `p` (default: ignores `p`).
    fn guard_with_param<D: Scalar>(&self, _k: usize, _p: D, mode: usize, j: usize, x: &[D]) -> D {
        self.guard(mode, j, x)
    }
    /// The reset `g_{m,j}(x; p)` with parameter `k` as the scalar `p` (default: ignores `p`).
    fn reset_with_param<D: Scalar>(
        &self,
        _k: usize,
        _p: D,
        mode: usize,
        j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        self.reset(mode, j, x, out)
    }
    /// The chart `χ(u; p)` with parameter `k` as the scalar `p` (default: ignores `p`).
    fn chart_with_param<D: Scalar>(&self, _k: usize, _p: D, u: &[D], x: &mut [D]) {
        self.chart(u, x)
    }
    /// The constant mass matrix `M` of mode `mode` (row-major `n × n`) when its flow is
    /// `M x' = f(t, x)`; `None` (the default) for `M = I`. A singular `M` makes the mode an
    /// index-1 DAE, integrated by the methods that accept one (radau5, ndf, bdf, trapezoid).
    fn mass_matrix(&self, _mode: usize) -> Option<Vec<f64>> {
        None
    }
}

/// Writes the n×n identity (row-major) into `m`.
pub fn identity(m: &mut [f64], n: usize) {
    m.fill(0.0);
    for i in 0..n {
        m[i * n + i] = 1.0;
    }
}
