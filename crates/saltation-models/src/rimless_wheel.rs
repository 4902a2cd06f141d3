//! The rimless wheel (Coleman 2009; equations and closed form as in Bhounsule 2014, §3).
//!
//! State `x = [θ, θ̇]` (spoke angle from the slope normal, time in units of `sqrt(l/g)`),
//! `f = [θ̇, λ² sin(θ + α)]`, guard `h = θ − π/n` (rising), reset `g = [−θ, μ θ̇]` with
//! `μ = 1 − λ²(1 − cos 2π/n)`. Closed form: fixed point `θ₀ = −π/n`,
//! `θ̇₀² = 4 λ² μ² sin(π/n) sin α / (1 − μ²)`, stride-Jacobian eigenvalues `{0, μ²}`.
//! Reduced coordinate on the section `θ = −π/n`: `u = [θ̇]`.

use saltation_hybrid::{check_range, EvalModel, Guard, ParamError, Scalar};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

/// Parameters of the rimless wheel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RimlessWheelParams {
    /// `λ² = M l² / (I + M l²)`, in (0, 1] (benchmark 2/3).
    pub lambda2: f64,
    /// Slope angle `α` in radians (benchmark 0.2).
    pub alpha: f64,
    /// Number of spokes `n ≥ 3` (benchmark 6).
    pub spokes: u32,
}

impl Default for RimlessWheelParams {
    fn default() -> Self {
        Self {
            lambda2: 2.0 / 3.0,
            alpha: 0.2,
            spokes: 6,
        }
    }
}

/// The rimless wheel.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RimlessWheel {
    /// Its parameters.
    pub params: RimlessWheelParams,
}

impl RimlessWheel {
    /// Half the inter-spoke angle, `π/n`.
    pub fn half_angle(&self) -> f64 {
        PI / self.params.spokes as f64
    }
    /// Angular-velocity ratio at impact `μ = 1 − λ²(1 − cos 2π/n)`.
    pub fn mu(&self) -> f64 {
        1.0 - self.params.lambda2 * (1.0 - (2.0 * self.half_angle()).cos())
    }
    /// Closed-form fixed point `[−π/n, θ̇₀]`, `θ̇₀² = 4λ²μ² sin(π/n) sin α / (1 − μ²)`.
    ///
    /// `None` where no rolling gait exists: `sin α ≤ 0`, `|μ| ≥ 1`, or the wheel would not get
    /// over the top. The vector field is an inverted pendulum about `θ = −α` with the energy
    /// `θ̇²/2 + λ² cos(θ + α)` conserved between impacts, so from `θ = −π/n` (when `α < π/n`) the
    /// wheel passes `θ = −α` only if `θ̇₀² > 2λ²(1 − cos(π/n − α))`; otherwise the closed form
    /// solves the impact algebra but the guard is never reached (e.g. `λ² = 2/3, n = 6, α = 0.1`).
    pub fn analytic_fixed_point(&self) -> Option<[f64; 2]> {
        let (mu, p, half) = (self.mu(), self.params, self.half_angle());
        let w2 = 4.0 * p.lambda2 * mu * mu * half.sin() * p.alpha.sin() / (1.0 - mu * mu);
        let barrier = if p.alpha < half {
            2.0 * p.lambda2 * (1.0 - (half - p.alpha).cos())
        } else {
            0.0
        };
        (w2 > barrier && mu.abs() < 1.0).then(|| [-half, w2.sqrt()])
    }
    /// Closed-form stride-Jacobian eigenvalues `{μ², 0}`.
    pub fn analytic_multipliers(&self) -> [f64; 2] {
        [self.mu() * self.mu(), 0.0]
    }
}

impl EvalModel for RimlessWheel {
    autonomous!();
    fn param_names(&self) -> Vec<String> {
        vec!["lambda2".into(), "alpha".into(), "spokes".into()]
    }
    fn param_value(&self, k: usize) -> Option<f64> {
        let p = &self.params;
        [p.lambda2, p.alpha, f64::from(p.spokes)].get(k).copied()
    }
    fn set_param_value(&mut self, k: usize, value: f64) -> Result<(), ParamError> {
        let names = self.param_names();
        let Some(name) = names.get(k) else {
            return Err(ParamError::Unknown {
                name: format!("#{k}"),
                known: names,
            });
        };
        if !value.is_finite() {
            return Err(ParamError::NonFinite {
                name: name.clone(),
                value,
            });
        }
        let mut next = *self;
        match k {
            0 => next.params.lambda2 = value,
            1 => next.params.alpha = value,
            _ => {
                // A count: integral, and one a u32 holds (no saturating cast of 1e20).
                if value.fract() != 0.0 {
                    return Err(ParamError::NotNumeric { name: name.clone() });
                }
                if !(0.0..=f64::from(u32::MAX)).contains(&value) {
                    return Err(ParamError::OutOfRange {
                        name: name.clone(),
                        value,
                        range: "a whole number of spokes from 0 to 2^32 - 1",
                    });
                }
                next.params.spokes = value as u32;
            }
        }
        next.check_params()?;
        *self = next;
        Ok(())
    }
    fn name(&self) -> &str {
        "rimless_wheel"
    }
    fn dim(&self) -> usize {
        2
    }
    fn mode_name(&self, _mode: usize) -> String {
        "stance".into()
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = (x[0] + self.params.alpha).sin() * self.params.lambda2;
    }
    fn guards(&self, _mode: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
        x[0] - self.half_angle()
    }
    fn describe_guard(&self, _mode: usize, _j: usize) -> Guard<Self> {
        Guard::to(0).rising()
    }
    fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
        out[0] = -x[0];
        out[1] = x[1] * self.mu();
    }
    fn flow_jacobian(&self, _mode: usize, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[
            0.0,
            1.0,
            self.params.lambda2 * (x[0] + self.params.alpha).cos(),
            0.0,
        ]);
        true
    }
    fn guard_gradient(&self, _mode: usize, _j: usize, _x: &[f64], grad: &mut [f64]) -> bool {
        grad.copy_from_slice(&[1.0, 0.0]);
        true
    }
    fn reset_jacobian(&self, _mode: usize, _j: usize, _x: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[-1.0, 0.0, 0.0, self.mu()]);
        true
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = D::from(-self.half_angle());
        x[1] = u[0];
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
    fn check_params(&self) -> Result<(), ParamError> {
        let p = &self.params;
        check_range(
            "lambda2",
            p.lambda2,
            p.lambda2 > 0.0 && p.lambda2 <= 1.0,
            "0 < lambda2 <= 1 (lambda^2 = M l^2 / (I + M l^2))",
        )?;
        check_range(
            "alpha",
            p.alpha,
            p.alpha.abs() < std::f64::consts::FRAC_PI_2,
            "|alpha| < pi/2 (slope in radians)",
        )?;
        check_range(
            "spokes",
            f64::from(p.spokes),
            (3..=1000).contains(&p.spokes),
            "3 <= spokes <= 1000",
        )
    }
    fn state_names(&self) -> Vec<String> {
        vec!["θ".into(), "dθ/dt".into()]
    }
}
