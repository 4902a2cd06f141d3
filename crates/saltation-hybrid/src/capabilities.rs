//! Opt-in capabilities of a [`crate::HybridModel`]: each a small object-safe trait that a model
//! implements when it has the thing, and announces with one line in its `HybridModel` impl
//! (`fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> { Some(self) }`). A model that
//! announces a capability it does not implement does not compile. Hand-written derivatives are
//! checked against automatic differentiation by [`crate::ad::check_hand_written`].
//!
//! Every method receives the parameter values `p` like the model's formulas.

/// Hand-written vector field and its Jacobian, in one call so that they can share work
/// (trigonometric functions, a factorised mass matrix).
pub trait FlowJacobian {
    /// `f_m(t, x; p)` into `dx` and `f_x` (row-major `n × n`) into `jac`.
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    );
}

/// Hand-written time derivative `∂f/∂t` of a time-dependent vector field (the Rosenbrock
/// method uses it; without it, a finite difference in `t`). An autonomous mode needs none.
pub trait TimeDerivative {
    /// `∂f_m/∂t` at `(t, x)` into `dfdt` (length `n`).
    fn flow_time_derivative(&self, p: &[f64], mode: usize, t: f64, x: &[f64], dfdt: &mut [f64]);
}

/// Hand-written derivative of the vector field in one parameter, `∂f/∂p_k`.
///
/// Every parameter already has an exact `∂f/∂p_k` by automatic differentiation (a dual number
/// seeded in `p[k]`); a model implements this when it has a cheaper route to the same
/// derivative (a constrained mechanical system: the implicit derivative of its saddle-point
/// system on factors it already holds). With a hand-written `f_x` ([`FlowJacobian`]),
/// continuation then assembles the augmented Jacobian `[[f_x, f_p], [0, 0]]` from the two
/// instead of differentiating the augmented flow in `n + 1` directions.
pub trait FlowParamDerivative {
    /// `∂f_m/∂p_k` at `(t, x)` into `dfdp` (length `n`); `false` when not given for this `k`
    /// (automatic differentiation then).
    fn flow_param_derivative(
        &self,
        p: &[f64],
        k: usize,
        mode: usize,
        t: f64,
        x: &[f64],
        dfdp: &mut [f64],
    ) -> bool;
}

/// Hand-written guard gradients `h_x`.
pub trait GuardGradient<G> {
    /// `∂h_{m,g}/∂x` at `x` into `grad` (length `n`).
    fn guard_gradient(&self, p: &[f64], mode: usize, guard: G, x: &[f64], grad: &mut [f64]);
}

/// Hand-written reset Jacobians `g_x`.
pub trait ResetJacobian<G> {
    /// `∂g_{m,g}/∂x` at `x` (row-major `n × n`) into `jac`.
    fn reset_jacobian(&self, p: &[f64], mode: usize, guard: G, x: &[f64], jac: &mut [f64]);
}

/// Hand-written Jacobians of the section's chart and projection.
pub trait SectionJacobians {
    /// `Dχ(u)` (row-major `n × r`) into `jac`.
    fn chart_jacobian(&self, p: &[f64], u: &[f64], jac: &mut [f64]);
    /// `Dπ(x)` (row-major `r × n`) into `jac`.
    fn project_jacobian(&self, p: &[f64], x: &[f64], jac: &mut [f64]);
}

/// Modes whose vector field is affine in the state, `f = A x + b(t)` with `A` constant.
///
/// A stride takes the variational matrix of a phase of duration `τ` in such a mode as `e^{Aτ}`
/// instead of integrating the variational equations; if the mode is also autonomous
/// ([`crate::HybridModel::autonomous`]) the state is stepped exactly by `e^{Ãh}`
/// (`saltation_ode::AffineExp`). A wrong claim gives wrong strides;
/// [`crate::ad::check_hand_written`] compares `f_x` at two states to catch it, and the exact
/// stepper checks `f = A x + b` as it goes.
pub trait AffineModes {
    /// Whether `f_x` of `mode` is the same at every state and time.
    fn jacobian_is_constant(&self, mode: usize) -> bool;
}

/// A model written `M x' = f(t, x)` with a constant mass matrix in some modes (a singular `M`
/// makes the mode an index-1 DAE, integrated by radau5, ndf, bdf and trapezoid).
pub trait MassMatrix {
    /// `M` of `mode` (row-major `n × n`), `None` for `M = I`.
    fn mass_matrix(&self, p: &[f64], mode: usize) -> Option<Vec<f64>>;
}
