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

use saltation_hybrid::{check_range, EvalModel, Guard, ParamError, Scalar};
use serde::{Deserialize, Serialize};

/// Parameters of the bouncing ball.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BouncingBallParams {
    /// Gravitational acceleration `g > 0` (default 9.81, m/s²).
    pub g: f64,
    /// Coefficient of restitution `e ∈ [0, 1]` (default 0.8): `v⁺ = −e v⁻`.
    pub e: f64,
}

impl Default for BouncingBallParams {
    fn default() -> Self {
        Self { g: 9.81, e: 0.8 }
    }
}

/// The bouncing ball.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BouncingBall {
    /// Its parameters.
    pub params: BouncingBallParams,
}

impl BouncingBall {
    /// Closed-form impact times of a ball released from rest at height `h0 > 0`:
    /// `t₁ = sqrt(2 h0 / g)` and `t_k = t₁ (1 + 2 Σ_{j=1}^{k−1} eʲ)` for the first `k` impacts
    /// (each flight after the j-th impact lasts `2 eʲ t₁`).
    pub fn impact_times(&self, h0: f64, k: usize) -> Vec<f64> {
        let BouncingBallParams { g, e } = self.params;
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
    /// height `h0`: `v_k⁻ = −e^{k−1} sqrt(2 g h0)`, `k = 1, 2, …`.
    pub fn impact_velocities(&self, h0: f64, k: usize) -> Vec<f64> {
        let BouncingBallParams { g, e } = self.params;
        let v1 = (2.0 * g * h0).sqrt();
        (0..k).map(|j| -e.powi(j as i32) * v1).collect()
    }

    /// Accumulation (Zeno) time of the impacts from rest at height `h0`:
    /// `t∞ = t₁ (1 + 2e/(1 − e)) = t₁ (1 + e)/(1 − e)`; `None` for `e ≥ 1` (no accumulation).
    pub fn zeno_time(&self, h0: f64) -> Option<f64> {
        let BouncingBallParams { g, e } = self.params;
        (e < 1.0).then(|| (2.0 * h0 / g).sqrt() * (1.0 + e) / (1.0 - e))
    }

    /// Closed-form stride from `[x₀, v₀]` with `x₀ ≥ 0` (and `v₀ > 0` if `x₀ = 0`):
    /// returns `(P(x₀, v₀), T) = ([0, e s], (v₀ + s)/g)` with `s = sqrt(v₀² + 2 g x₀)`.
    pub fn stride(&self, x0: [f64; 2]) -> ([f64; 2], f64) {
        let BouncingBallParams { g, e } = self.params;
        let s = (x0[1] * x0[1] + 2.0 * g * x0[0]).sqrt();
        ([0.0, e * s], (x0[1] + s) / g)
    }

    /// Closed-form stride-map Jacobian (row-major 2×2) at `[x₀, v₀]`:
    /// `P_x = [[0, 0], [e g / s, e v₀ / s]]`, columns `∂/∂x₀`, `∂/∂v₀`,
    /// `s = sqrt(v₀² + 2 g x₀)`.
    pub fn stride_jacobian(&self, x0: [f64; 2]) -> [f64; 4] {
        let BouncingBallParams { g, e } = self.params;
        let s = (x0[1] * x0[1] + 2.0 * g * x0[0]).sqrt();
        [0.0, 0.0, e * g / s, e * x0[1] / s]
    }
}

impl EvalModel for BouncingBall {
    saltation_hybrid::named_params!("g" => params.g, "e" => params.e);
    autonomous!();
    fn name(&self) -> &str {
        "bouncing_ball"
    }
    fn dim(&self) -> usize {
        2
    }
    fn mode_name(&self, _mode: usize) -> String {
        "flight".into()
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = D::from(-self.params.g);
    }
    fn guards(&self, _mode: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
        x[0]
    }
    fn describe_guard(&self, _mode: usize, _j: usize) -> Guard<Self> {
        Guard::to(0).falling().enabled_when(|_, x| x[1] < 0.0)
    }
    fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
        out[0] = x[0];
        out[1] = x[1] * -self.params.e;
    }
    /// Free flight under gravity: `f_x = [[0, 1], [0, 0]]`.
    fn flow_jacobian_is_constant(&self, _mode: usize) -> bool {
        true
    }
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn flow_jacobian(&self, _mode: usize, _t: f64, _x: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[0.0, 1.0, 0.0, 0.0]);
        true
    }
    fn guard_gradient(&self, _mode: usize, _j: usize, _x: &[f64], grad: &mut [f64]) -> bool {
        grad.copy_from_slice(&[1.0, 0.0]);
        true
    }
    fn reset_jacobian(&self, _mode: usize, _j: usize, _x: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[1.0, 0.0, 0.0, -self.params.e]);
        true
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = D::from(0.0);
        x[1] = u[0];
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
    fn check_params(&self) -> Result<(), ParamError> {
        let p = &self.params;
        check_range("g", p.g, p.g > 0.0, "g > 0 (gravitational acceleration)")?;
        check_range(
            "e",
            p.e,
            (0.0..=1.0).contains(&p.e),
            "0 <= e <= 1 (coefficient of restitution)",
        )
    }
    fn state_names(&self) -> Vec<String> {
        vec!["x".into(), "v".into()]
    }
}
