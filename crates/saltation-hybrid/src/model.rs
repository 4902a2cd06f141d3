//! The hybrid-model trait: what a user implements.
//!
//! A model has `modes()` modes. In mode `m` the state obeys `x' = f_m(t, x)`
//! ([`HybridModel::flow`]); the mode's guards `h_{m,j}(x)` ([`HybridModel::guard`]) fire when
//! they cross zero in their [`Direction`] with their enabling condition true, and then the reset
//! `x⁺ = g_{m,j}(x⁻)` ([`HybridModel::reset`]) is applied and the mode switches to the guard's
//! target. Equations are written once, generic over the scalar `D` (plain `f64` or a dual
//! number), so their Jacobians come from forward-mode automatic differentiation
//! ([`crate::ad`]); a model may override them with hand-written ones, which the tests compare to
//! the automatic ones.
//!
//! A stride (Poincaré) map starts on a section and ends just after a given number of events.
//! The section may have reduced coordinates `u` (chart `χ(u) = x`, projection `π(x) = u`), in
//! which fixed points are sought; by default they are the full state.

use num_dual::DualNum;
use saltation_ode::Direction;

/// The scalar type a model's equations are written in: `f64` or a dual number.
pub trait Scalar: DualNum<f64> + Copy {}
impl<T: DualNum<f64> + Copy> Scalar for T {}

/// Static facts about one guard of one mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardInfo {
    /// Sign changes that count.
    pub direction: Direction,
    /// Mode entered after the reset.
    pub target: usize,
}

/// A hybrid dynamical system: modes, vector fields, guards and resets.
///
/// Required methods are in-place; everything else has a default. Indices are `mode` in
/// `0..modes()` and guard `j` in `0..guards(mode)`.
pub trait HybridModel {
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
    /// Direction and target mode of guard `j` of `mode`.
    fn guard_info(&self, mode: usize, j: usize) -> GuardInfo;
    /// Enabling condition, tested at the located crossing (default: always).
    fn guard_enabled(&self, _mode: usize, _j: usize, _x: &[f64]) -> bool {
        true
    }
    /// If guard `j` of `mode` marks a failure rather than a transition (a walker's stance leg
    /// passing horizontal: it fell), what failed; a stride that meets it ends with
    /// [`crate::HybridError::Failure`] (default: no guard is a failure).
    fn guard_failure(&self, _mode: usize, _j: usize) -> Option<String> {
        None
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
    /// Vector field and hand-written `f_x` in one call (so they can share work such as
    /// trigonometric functions); return `false` (default) to fall back to [`HybridModel::flow`]
    /// and [`HybridModel::flow_jacobian`].
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
    /// Chart `x = χ(u)` from reduced coordinates to a full state on the section (default: `x = u`).
    fn chart(&self, u: &[f64], x: &mut [f64]) {
        x.copy_from_slice(u);
    }
    /// `Dχ(u)` (row-major n × r) (default: identity).
    fn chart_jacobian(&self, _u: &[f64], jac: &mut [f64]) {
        identity(jac, self.dim());
    }
    /// Projection `u = π(x)` (default: `u = x`).
    fn project(&self, x: &[f64], u: &mut [f64]) {
        u.copy_from_slice(x);
    }
    /// `Dπ(x)` (row-major r × n) (default: identity).
    fn project_jacobian(&self, _x: &[f64], jac: &mut [f64]) {
        identity(jac, self.dim());
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
    /// files call it on load and [`crate::set_param`]-based setters after every change, so a
    /// mistyped value is an error naming the parameter and its range
    /// ([`crate::ParamError::OutOfRange`]), not a stride that fails later.
    fn check_params(&self) -> Result<(), crate::ParamError> {
        Ok(())
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
