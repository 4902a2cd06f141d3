//! The bouncing ball (the event-detection example of the course lecture "Lecture 9: Stability
//! and frequency properties (mostly recap), error control and software").
//!
//! State `x = [x, v]` (height above the ground, vertical velocity), one mode ("flight"):
//! `f = [v, −g]`. Impact guard `h = x`, falling (from `x > 0` to `x < 0`) and enabled only while
//! the ball moves down (`v < 0`); reset `g(x, v) = [x, −e v]` (the height is kept as located,
//! ≈ 0), so `g_x = [[1, 0], [0, −e]]`.
//!
//! ## The stride map
//! A stride runs from a state with `x ≥ 0` to the next impact and applies the reset. In closed
//! form, with `s = sqrt(v₀² + 2 g x₀)` (the impact speed),
//!
//! ```text
//! P(x₀, v₀) = [0, e s],   T(x₀, v₀) = (v₀ + s) / g,
//! P_x = [[0, 0], [e g / s, e v₀ / s]]   (columns ∂/∂x₀, ∂/∂v₀)
//! ```
//!
//! ([`BouncingBall::stride`], [`BouncingBall::stride_jacobian`]); the first row vanishes because
//! every stride ends on `x = 0`. The section is the ground just after an impact, `x = 0` with
//! reduced coordinate `u = [v]` (the take-off speed), on which the stride map is `u ↦ e u`, a
//! multiplier `e`.
//!
//! - With `e < 1` there is no periodic orbit (the only fixed point, `u = 0`, is the ball at rest,
//!   where the stride is not defined): the impacts accumulate at the Zeno time
//!   [`BouncingBall::zeno_time`]. The model is a check of event-location precision
//!   ([`BouncingBall::impact_times`]) and of the Zeno guard.
//! - With `e = 1` *every* state `[0, v]`, `v > 0`, is a fixed point of the stride map (period
//!   `2v/g`), a one-parameter family: the reduced Newton matrix `e − 1` is zero, so shooting
//!   does not apply; the full-state stride Jacobian at such a point is `[[0, 0], [g/v, 1]]`
//!   with multipliers `{0, 1}`.

use saltation_hybrid::{
    AffineModes, FlowJacobian, GuardGradient, GuardSpec, HybridModel, Limit, Param, ResetJacobian,
    Scalar,
};

/// Index of the gravitational acceleration `g` in the parameter vector.
pub const G: usize = 0;
/// Index of the coefficient of restitution `e`.
pub const E: usize = 1;

/// The bouncing ball's parameters: gravitational acceleration `g > 0` (default 9.81, m/s²) and
/// coefficient of restitution `e ∈ [0, 1]` (default 0.8): `v⁺ = −e v⁻`.
pub const PARAMS: &[Param] = &[
    Param::new("g", 9.81)
        .above(Limit::Open(0.0))
        .described("g > 0 (gravitational acceleration)"),
    Param::new("e", 0.8)
        .range(0.0, 1.0)
        .described("0 <= e <= 1 (coefficient of restitution)"),
];

/// The ball's guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BallGuard {
    /// The ball reaches the ground moving down (`h = x` falling, `v < 0`).
    Impact,
}

/// The bouncing ball (its equations; the parameters are `g` and `e`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BouncingBall;

impl BouncingBall {
    /// Closed-form impact times of a ball released from rest at height `h0 > 0`, at the
    /// parameter values `p`: `t₁ = sqrt(2 h0 / g)` and `t_k = t₁ (1 + 2 Σ_{j=1}^{k−1} eʲ)` for
    /// the first `k` impacts (each flight after the j-th impact lasts `2 eʲ t₁`).
    pub fn impact_times(p: &[f64], h0: f64, k: usize) -> Vec<f64> {
        let (g, e) = (p[G], p[E]);
        let t1 = (2.0 * h0 / g).sqrt();
        let mut times = Vec::with_capacity(k);
        let (mut t, mut ej) = (t1, 1.0);
        for _ in 0..k {
            times.push(t);
            ej *= e;
            t += 2.0 * ej * t1;
        }
        times
    }

    /// Closed-form impact velocities (just before each impact) of a ball released from rest at
    /// height `h0`, at the parameter values `p`: `v_k⁻ = −e^{k−1} sqrt(2 g h0)`, `k = 1, 2, …`.
    pub fn impact_velocities(p: &[f64], h0: f64, k: usize) -> Vec<f64> {
        let (g, e) = (p[G], p[E]);
        let v1 = (2.0 * g * h0).sqrt();
        (0..k).map(|j| -e.powi(j as i32) * v1).collect()
    }

    /// Accumulation (Zeno) time of the impacts from rest at height `h0`, at the parameter
    /// values `p`: `t∞ = t₁ (1 + 2e/(1 − e)) = t₁ (1 + e)/(1 − e)`; `None` for `e ≥ 1` (no
    /// accumulation).
    pub fn zeno_time(p: &[f64], h0: f64) -> Option<f64> {
        let (g, e) = (p[G], p[E]);
        (e < 1.0).then(|| (2.0 * h0 / g).sqrt() * (1.0 + e) / (1.0 - e))
    }

    /// Closed-form stride from `[x₀, v₀]` with `x₀ ≥ 0` (and `v₀ > 0` if `x₀ = 0`), at the
    /// parameter values `p`: returns `(P(x₀, v₀), T) = ([0, e s], (v₀ + s)/g)` with
    /// `s = sqrt(v₀² + 2 g x₀)`.
    pub fn stride(p: &[f64], x0: [f64; 2]) -> ([f64; 2], f64) {
        let (g, e) = (p[G], p[E]);
        let s = (x0[1] * x0[1] + 2.0 * g * x0[0]).sqrt();
        ([0.0, e * s], (x0[1] + s) / g)
    }

    /// Closed-form stride-map Jacobian (row-major 2×2) at `[x₀, v₀]`, at the parameter values
    /// `p`: `P_x = [[0, 0], [e g / s, e v₀ / s]]`, columns `∂/∂x₀`, `∂/∂v₀`,
    /// `s = sqrt(v₀² + 2 g x₀)`.
    pub fn stride_jacobian(p: &[f64], x0: [f64; 2]) -> [f64; 4] {
        let (g, e) = (p[G], p[E]);
        let s = (x0[1] * x0[1] + 2.0 * g * x0[0]).sqrt();
        [0.0, 0.0, e * g / s, e * x0[1] / s]
    }
}

impl HybridModel for BouncingBall {
    type Guard = BallGuard;
    fn name(&self) -> &str {
        "bouncing_ball"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn mode_name(&self, _mode: usize) -> String {
        "flight".into()
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "v".into()]
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = -p[G];
    }
    fn guards(&self, _mode: usize) -> &[BallGuard] {
        &[BallGuard::Impact]
    }
    fn describe(&self, _mode: usize, g: BallGuard) -> GuardSpec {
        match g {
            BallGuard::Impact => GuardSpec::to(0).falling().enabled_when(|_, x| x[1] < 0.0),
        }
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: BallGuard, x: &[D]) -> D {
        match g {
            BallGuard::Impact => x[0],
        }
    }
    fn reset<D: Scalar>(&self, p: &[D], _mode: usize, g: BallGuard, x: &[D], out: &mut [D]) {
        match g {
            BallGuard::Impact => {
                out[0] = x[0];
                out[1] = x[1] * -p[E];
            }
        }
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = D::from(0.0);
        x[1] = u[0];
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<BallGuard>> {
        Some(self)
    }
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<BallGuard>> {
        Some(self)
    }
    fn affine_modes(&self) -> Option<&dyn AffineModes> {
        Some(self)
    }
}

impl FlowJacobian for BouncingBall {
    /// Free flight under gravity: `f_x = [[0, 1], [0, 0]]`.
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        self.flow(p, mode, t, x, dx);
        jac.copy_from_slice(&[0.0, 1.0, 0.0, 0.0]);
    }
}

impl AffineModes for BouncingBall {
    /// Free flight under gravity: `f_x = [[0, 1], [0, 0]]`.
    fn jacobian_is_constant(&self, _mode: usize) -> bool {
        true
    }
}

impl GuardGradient<BallGuard> for BouncingBall {
    fn guard_gradient(&self, _p: &[f64], _mode: usize, g: BallGuard, _x: &[f64], grad: &mut [f64]) {
        match g {
            BallGuard::Impact => grad.copy_from_slice(&[1.0, 0.0]),
        }
    }
}

impl ResetJacobian<BallGuard> for BouncingBall {
    fn reset_jacobian(&self, p: &[f64], _mode: usize, g: BallGuard, _x: &[f64], jac: &mut [f64]) {
        match g {
            BallGuard::Impact => jac.copy_from_slice(&[1.0, 0.0, 0.0, -p[E]]),
        }
    }
}
