//! The rimless wheel (Coleman 2009; equations and closed form as in Bhounsule 2014, §3).
//!
//! State `x = [θ, θ̇]` (spoke angle from the slope normal, time in units of `sqrt(l/g)`),
//! `f = [θ̇, λ² sin(θ + α)]`, guard `h = θ − π/n` (rising), reset `g = [−θ, μ θ̇]` with
//! `μ = 1 − λ²(1 − cos 2π/n)`. Closed form: fixed point `θ₀ = −π/n`,
//! `θ̇₀² = 4 λ² μ² sin(π/n) sin α / (1 − μ²)`, stride-Jacobian eigenvalues `{0, μ²}`.
//! Reduced coordinate on the section `θ = −π/n`: `u = [θ̇]`.

use saltation_hybrid::{
    FlowJacobian, GuardGradient, GuardSpec, HybridModel, Limit, Param, ResetJacobian, Scalar,
};
use std::f64::consts::{FRAC_PI_2, PI};

/// Index of `λ²` in the parameter vector.
pub const LAMBDA2: usize = 0;
/// Index of the slope `α`.
pub const ALPHA: usize = 1;
/// Index of the number of spokes `n`.
pub const SPOKES: usize = 2;

/// The rimless wheel's parameters: `λ² = M l² / (I + M l²)` in (0, 1] (benchmark 2/3), the
/// slope `α` in radians (benchmark 0.2) and the number of spokes `n ≥ 3` (benchmark 6).
pub const PARAMS: &[Param] = &[
    Param::new("lambda2", 2.0 / 3.0)
        .above(Limit::Open(0.0))
        .below(Limit::Closed(1.0))
        .described("0 < lambda2 <= 1 (lambda^2 = M l^2 / (I + M l^2))"),
    Param::new("alpha", 0.2)
        .open_range(-FRAC_PI_2, FRAC_PI_2)
        .described("|alpha| < pi/2 (slope in radians)"),
    Param::new("spokes", 6.0)
        .range(3.0, 1000.0)
        .integer()
        .described("3 <= spokes <= 1000"),
];

/// The wheel's guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WheelGuard {
    /// The next spoke strikes the slope (`h = θ − π/n` rising).
    Impact,
}

/// The rimless wheel (its equations; the parameters are `lambda2`, `alpha` and `spokes`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RimlessWheel;

impl RimlessWheel {
    /// Half the inter-spoke angle, `π/n`, at the parameter values `p`.
    pub fn half_angle<D: Scalar>(p: &[D]) -> D {
        D::from(PI) / p[SPOKES]
    }
    /// Angular-velocity ratio at impact `μ = 1 − λ²(1 − cos 2π/n)` at the parameter values `p`.
    pub fn mu<D: Scalar>(p: &[D]) -> D {
        let c = (Self::half_angle(p) * 2.0).cos();
        -(p[LAMBDA2] * (-c + 1.0)) + 1.0
    }
    /// Closed-form fixed point `[−π/n, θ̇₀]`, `θ̇₀² = 4λ²μ² sin(π/n) sin α / (1 − μ²)`, at the
    /// parameter values `p`.
    ///
    /// `None` where no rolling gait exists: `sin α ≤ 0`, `|μ| ≥ 1`, or the wheel would not get
    /// over the top. The vector field is an inverted pendulum about `θ = −α` with the energy
    /// `θ̇²/2 + λ² cos(θ + α)` conserved between impacts, so from `θ = −π/n` (when `α < π/n`) the
    /// wheel passes `θ = −α` only if `θ̇₀² > 2λ²(1 − cos(π/n − α))`; otherwise the closed form
    /// solves the impact algebra but the guard is never reached (e.g. `λ² = 2/3, n = 6, α = 0.1`).
    pub fn analytic_fixed_point(p: &[f64]) -> Option<[f64; 2]> {
        let (mu, half) = (Self::mu(p), Self::half_angle(p));
        let (lambda2, alpha) = (p[LAMBDA2], p[ALPHA]);
        let w2 = 4.0 * lambda2 * mu * mu * half.sin() * alpha.sin() / (1.0 - mu * mu);
        let barrier = if alpha < half {
            2.0 * lambda2 * (1.0 - (half - alpha).cos())
        } else {
            0.0
        };
        (w2 > barrier && mu.abs() < 1.0).then(|| [-half, w2.sqrt()])
    }
    /// Closed-form stride-Jacobian eigenvalues `{μ², 0}` at the parameter values `p`.
    pub fn analytic_multipliers(p: &[f64]) -> [f64; 2] {
        let mu = Self::mu(p);
        [mu * mu, 0.0]
    }
}

impl HybridModel for RimlessWheel {
    type Guard = WheelGuard;
    fn name(&self) -> &str {
        "rimless_wheel"
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
        "stance".into()
    }
    fn state_names(&self) -> Vec<String> {
        vec!["θ".into(), "dθ/dt".into()]
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = (x[0] + p[ALPHA]).sin() * p[LAMBDA2];
    }
    fn guards(&self, _mode: usize) -> &[WheelGuard] {
        &[WheelGuard::Impact]
    }
    fn describe(&self, _mode: usize, g: WheelGuard) -> GuardSpec {
        match g {
            WheelGuard::Impact => GuardSpec::to(0).rising(),
        }
    }
    fn guard<D: Scalar>(&self, p: &[D], _mode: usize, g: WheelGuard, x: &[D]) -> D {
        match g {
            WheelGuard::Impact => x[0] - Self::half_angle(p),
        }
    }
    fn reset<D: Scalar>(&self, p: &[D], _mode: usize, g: WheelGuard, x: &[D], out: &mut [D]) {
        match g {
            WheelGuard::Impact => {
                out[0] = -x[0];
                out[1] = x[1] * Self::mu(p);
            }
        }
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, p: &[D], u: &[D], x: &mut [D]) {
        x[0] = -Self::half_angle(p);
        x[1] = u[0];
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<WheelGuard>> {
        Some(self)
    }
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<WheelGuard>> {
        Some(self)
    }
}

impl FlowJacobian for RimlessWheel {
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
        jac.copy_from_slice(&[0.0, 1.0, p[LAMBDA2] * (x[0] + p[ALPHA]).cos(), 0.0]);
    }
}

impl GuardGradient<WheelGuard> for RimlessWheel {
    fn guard_gradient(
        &self,
        _p: &[f64],
        _mode: usize,
        g: WheelGuard,
        _x: &[f64],
        grad: &mut [f64],
    ) {
        match g {
            WheelGuard::Impact => grad.copy_from_slice(&[1.0, 0.0]),
        }
    }
}

impl ResetJacobian<WheelGuard> for RimlessWheel {
    fn reset_jacobian(&self, p: &[f64], _mode: usize, g: WheelGuard, _x: &[f64], jac: &mut [f64]) {
        match g {
            WheelGuard::Impact => jac.copy_from_slice(&[-1.0, 0.0, 0.0, Self::mu(p)]),
        }
    }
}
