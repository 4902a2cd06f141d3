//! Closed-form (per phase) reference solution of the unconstrained vertical hopper (Zana,
//! Bodor, Bencsik & Zelei 2018, §4.1), independent of the numerical hybrid machinery.
//!
//! State `x = [z_U, z_L, ż_U, ż_L]`, `m_U = μ m`, `m_L = (1 − μ) m`. Both phases are linear
//! with constant coefficients and are solved exactly in modal coordinates; event times are
//! found by a grid scan and a safeguarded Newton iteration on the closed form, and every
//! function is generic over the scalar `D: DualNum<f64> + Copy`, so derivatives are exact by
//! forward-mode automatic differentiation (event times by implicit differentiation: Newton
//! steps carried out in dual numbers).
//!
//! - Flight (Zana et al. 2018, eqs. 45–48): the centre of mass `ζ₁ = (m_U z_U + m_L z_L)/m`
//!   falls freely, `ζ̈₁ = −g`; the spring deflection `ζ₂ = z_U − z_L` is a damped oscillator
//!   about `L0`, `m_r ζ̈₂ = −k (ζ₂ − L0) − d_F ζ̇₂` with the reduced mass `m_r = m_U m_L / m`;
//!   back-substitution `z_U = ζ₁ + (m_L/m) ζ₂`, `z_L = ζ₁ − (m_U/m) ζ₂`.
//! - Ground (eqs. 49–52, here with `L0 ≠ 0`): `m_U z̈_U = −m_U g − k (z_U − L0) − d_G ż_U`, a
//!   damped oscillator about `z_e = L0 − m_U g / k`; the lower block keeps its (zero)
//!   velocity. Contact multiplier `λ = −N = −m_L g + k (z_U − L0) + d_G ż_U`. Off the
//!   constraint (for full-state Jacobians) `z_U − L0` and `ż_U` read `z_U − z_L − L0` and
//!   `ż_U − ż_L`, and `z_L` moves with its constant velocity.
//! - Touchdown: `z_L` falls through 0; reset `ż_L⁺ = 0`. Lift-off: `λ` rises through 0;
//!   identity reset. A stride runs from lift-off to the next lift-off.
//!
//! The damped oscillator `ÿ + 2σ ẏ + ω₀² y = 0` is solved in every regime by
//! `y = e^{−σt} [y₀ C(t) + (v₀ + σ y₀) S(t)]`, `ẏ = e^{−σt} [v₀ C(t) − (ω₀² y₀ + σ v₀) S(t)]`
//! with `β = ω₀² − σ²`, `C = cos(√β t)`, `S = sin(√β t)/√β` (underdamped, also for `σ < 0`),
//! their hyperbolic versions for `β < 0` (overdamped) and the power series of both (which are
//! entire in `β t²`) when `|β| t² ≤ 1`, which covers critical damping without a special case.
//!
//! ## Conventions and findings
//! - `L0` only translates `z_U` (every equation, guard and `λ` depends on `z_U − L0` or on
//!   `z_U − z_L − L0`), so the paper's `L0 = 0` results hold with `z_U` shifted by `L0`.
//! - In the ground phase the lower block moves with its constant velocity (`z_L = z_L0 +
//!   ż_L0 t`); after the reset `ż_L⁺ = 0` it stays at the located touchdown height. The
//!   ground vector field is `[ż_U, ż_L, −g − (k (z_U − z_L − L0) + d_G (ż_U − ż_L))/m_U, 0]`.
//! - Events: [`touchdown_time`] is the first downward crossing of `z_L` after `t = 0`,
//!   [`liftoff_time`] the first upward crossing of `λ`. A touchdown with `λ⁺ ≥ 0` (the ground
//!   would have to pull at once) is [`ClosedFormError::NoStance`], not a stride: with
//!   `d_G < 0` the ground damper lifts a light foot right away (`λ⁺ ≈ −m_L g + |d_G ż_U⁻|`),
//!   which is why no regular orbit exists at `μ = 0.95`, `d_G = −80`, and why the
//!   flight-time branch `d_G(t_F)` has gaps.
//! - The lift-off section `z_L = ż_L = 0`, `λ = 0` is parametrised by `v = ż_U`
//!   (`z_U = L0 + (m_L g − d_G v)/k`), see [`liftoff_state`].
//! - The monodromy at the fixed time `T` (the paper's `Φ̃`) is the one-sided derivative in
//!   which the perturbed trajectory lifts off before `T` and flies for the rest, i.e. the
//!   composition `S_GF Φ_G S_FG Φ_F` of saltation matrices and flows.
//! - `d_G = 0`: no periodic hopping (nothing injects energy). The ground phase is then an
//!   undamped oscillation about `z_e`, and lift-off is `z_U − z_e = m g/k` rising; from
//!   touchdown with `λ⁺ < 0` this takes strictly less than `2π √(m_U/k)`, which is reached
//!   only in the limit of a vanishing hop (`t_F → 0`, where also `d_G → 0` on the branch).

use super::HopperParams;
use num_dual::DualNum;
use saltation_hybrid::ParamError;
use thiserror::Error;

mod events;
mod orbit;
mod solve;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_orbit;

pub(crate) use events::{brackets, refine, Crossing, GRID_PER_PERIOD, MAX_GRID};
pub use events::{liftoff_time, touchdown_time};
pub use orbit::{liftoff_state, Apex, ClosedFormOrbit, LiftoffGuess, TouchdownEnergy};
pub use solve::{
    flight_time_guesses, liftoff_velocity_brackets, periodic_orbit, periodic_orbit_at_flight_time,
};

/// Terms of the power series of `C` and `S` (used for `|β t²| ≤ 1`; the last term is
/// `< 1/40!`).
const SERIES_TERMS: usize = 20;

/// Why a closed-form computation failed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ClosedFormError {
    /// A parameter is out of its physical range.
    #[error(transparent)]
    Params(#[from] ParamError),
    /// A state, time or guess is not finite or out of range.
    #[error("invalid input: {0}")]
    Input(&'static str),
    /// The lower block does not leave the ground (it is below it right after lift-off).
    #[error("no flight: the lower block is below the ground at t = {t} s after lift-off")]
    NoFlight {
        /// The first grid time.
        t: f64,
    },
    /// `z_L` does not fall through 0 within the horizon.
    #[error("no touchdown within {horizon} s of lift-off")]
    NoTouchdown {
        /// The horizon scanned (s).
        horizon: f64,
    },
    /// `λ ≥ 0` right after touchdown: the ground would have to pull at once.
    #[error("no ground phase: λ = {lambda} N ≥ 0 right after touchdown")]
    NoStance {
        /// The contact multiplier after the impact (N).
        lambda: f64,
    },
    /// `λ` does not rise through 0 within the horizon (the hopper comes to rest).
    #[error("no lift-off within {horizon} s of touchdown")]
    NoLiftoff {
        /// The horizon scanned (s).
        horizon: f64,
    },
    /// The scan would need more than the allowed number of grid points.
    #[error("event scan over {horizon} s needs more than {max} grid points")]
    GridTooLarge {
        /// The horizon (s).
        horizon: f64,
        /// The cap.
        max: usize,
    },
    /// An event is tangential (the guard's rate vanishes at the crossing).
    #[error("grazing event at t = {t} s (guard rate {rate})")]
    Grazing {
        /// The event time.
        t: f64,
        /// The guard's time derivative there.
        rate: f64,
    },
    /// A non-finite value appeared in a closed-form evaluation.
    #[error("non-finite value in the closed form at t = {t} s")]
    NonFinite {
        /// The time.
        t: f64,
    },
    /// An iteration hit its cap.
    #[error("{what} did not converge in {iterations} iterations (residual {residual:e})")]
    NotConverged {
        /// The iteration.
        what: &'static str,
        /// Iterations done.
        iterations: usize,
        /// Last residual.
        residual: f64,
    },
    /// No sign change of the periodicity residual in the scanned range of lift-off states.
    #[error(
        "no periodic orbit: the periodicity residual has no sign change in ż_U ∈ [{lo}, {hi}] m/s"
    )]
    NoBracket {
        /// Lower end of the scan.
        lo: f64,
        /// Upper end.
        hi: f64,
    },
    /// A Newton matrix is singular.
    #[error("singular Newton matrix in {0}")]
    Singular(&'static str),
}

/// Model coefficients as scalars of type `D` (so a parameter, e.g. `d_G`, can carry a
/// derivative part).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Coeffs<D> {
    pub(crate) g: D,
    pub(crate) m_u: D,
    pub(crate) m_l: D,
    pub(crate) k: D,
    pub(crate) d_f: D,
    pub(crate) d_g: D,
    pub(crate) l0: D,
}

/// A damped linear oscillator `ÿ + 2σ ẏ + ω₀² y = 0`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Oscillator<D> {
    sigma: D,
    omega2: D,
}

impl<D: DualNum<f64> + Copy> Coeffs<D> {
    /// All parameters of `p` as constants.
    pub(crate) fn new(p: &HopperParams) -> Self {
        Self::with_d_g(p, D::from(p.d_g))
    }
    /// The parameters of `p` with `d_G` replaced by `d_g` (which may carry a derivative).
    pub(crate) fn with_d_g(p: &HopperParams, d_g: D) -> Self {
        Self {
            g: D::from(p.g),
            m_u: D::from(p.m_upper()),
            m_l: D::from(p.m_lower()),
            k: D::from(p.k),
            d_f: D::from(p.d_f),
            d_g,
            l0: D::from(p.l0),
        }
    }
    /// The real parts.
    pub(crate) fn re(&self) -> Coeffs<f64> {
        Coeffs {
            g: self.g.re(),
            m_u: self.m_u.re(),
            m_l: self.m_l.re(),
            k: self.k.re(),
            d_f: self.d_f.re(),
            d_g: self.d_g.re(),
            l0: self.l0.re(),
        }
    }
    /// Total mass `m = m_U + m_L`.
    fn m(&self) -> D {
        self.m_u + self.m_l
    }
    /// Flight mode `ζ₂`: `σ = d_F/(2 m_r)`, `ω₀² = k/m_r`, `m_r = m_U m_L / m` (eq. 47).
    pub(crate) fn flight_oscillator(&self) -> Oscillator<D> {
        let m_r = self.m_u * self.m_l / self.m();
        Oscillator {
            sigma: self.d_f / (m_r * 2.0),
            omega2: self.k / m_r,
        }
    }
    /// Ground mode: `σ = d_G/(2 m_U)`, `ω₀² = k/m_U` (eq. 50).
    pub(crate) fn ground_oscillator(&self) -> Oscillator<D> {
        Oscillator {
            sigma: self.d_g / (self.m_u * 2.0),
            omega2: self.k / self.m_u,
        }
    }
    /// Ground equilibrium of the upper block `z_e = L0 − m_U g / k`.
    fn z_eq(&self) -> D {
        self.l0 - self.m_u * self.g / self.k
    }
    /// Flight accelerations `[z̈_U, z̈_L]`: with the spring-damper force
    /// `F = k (z_U − z_L − L0) + d_F (ż_U − ż_L)`, `z̈_U = −g − F/m_U`, `z̈_L = −g + F/m_L`.
    pub(crate) fn flight_accel(&self, x: &[D; 4]) -> [D; 2] {
        let f = self.k * (x[0] - x[1] - self.l0) + self.d_f * (x[2] - x[3]);
        [-self.g - f / self.m_u, -self.g + f / self.m_l]
    }
    /// Contact multiplier `λ = −m_L g + k (z_U − z_L − L0) + d_G (ż_U − ż_L)` (`= −N`; on the
    /// ground `z_L = ż_L = 0`).
    pub(crate) fn multiplier(&self, x: &[D; 4]) -> D {
        -self.m_l * self.g + self.k * (x[0] - x[1] - self.l0) + self.d_g * (x[2] - x[3])
    }
    /// `λ` and `λ̇` in the ground phase from the deviation `y = z_U − z_L − z_e` and `ẏ`:
    /// `λ = −m g + k y + d_G ẏ` (the same as [`Self::multiplier`], without the cancellation
    /// in `z_U − L0`), `λ̇ = k ẏ + d_G ÿ` with `m_U ÿ = −k y − d_G ẏ`.
    fn ground_multiplier(&self, y: D, v: D) -> (D, D) {
        let lambda = -self.m() * self.g + self.k * y + self.d_g * v;
        let acc = -(self.k * y + self.d_g * v) / self.m_u;
        (lambda, self.k * v + self.d_g * acc)
    }
}

impl<D: DualNum<f64> + Copy> Oscillator<D> {
    /// `C(t)` and `S(t)` for `β = ω₀² − σ²` (see the module documentation).
    fn c_s(&self, t: D) -> (D, D) {
        let beta = self.omega2 - self.sigma * self.sigma;
        let x = beta * t * t;
        if x.re().abs() <= 1.0 {
            let (mut c, mut s) = (D::from(1.0), D::from(1.0));
            let (mut tc, mut ts) = (D::from(1.0), D::from(1.0));
            for n in 1..=SERIES_TERMS {
                let n = n as f64;
                tc = -tc * x / ((2.0 * n - 1.0) * 2.0 * n);
                ts = -ts * x / (2.0 * n * (2.0 * n + 1.0));
                c += tc;
                s += ts;
            }
            (c, s * t)
        } else if beta.re() > 0.0 {
            let w = beta.sqrt();
            let (sn, cs) = (w * t).sin_cos();
            (cs, sn / w)
        } else {
            let w = (-beta).sqrt();
            ((w * t).cosh(), (w * t).sinh() / w)
        }
    }
    /// `(y(t), ẏ(t))` from `(y₀, v₀)` (eqs. 47 and 50 in closed form).
    pub(crate) fn eval(&self, y0: D, v0: D, t: D) -> (D, D) {
        let (c, s) = self.c_s(t);
        let e = (-self.sigma * t).exp();
        let y = e * (y0 * c + (v0 + self.sigma * y0) * s);
        let v = e * (v0 * c - (self.omega2 * y0 + self.sigma * v0) * s);
        (y, v)
    }
    /// Characteristic time `2π/(ω₀ + 2|σ|)` (s), the unit of the scan grids.
    pub(crate) fn time_scale(&self) -> f64 {
        2.0 * std::f64::consts::PI / (self.omega2.re().sqrt() + 2.0 * self.sigma.re().abs())
    }
    /// Envelope bound `A ≥ sup_{t ≥ 0} |y(t)|` for `σ ≥ 0`: `|y₀| + |v₀ + σ y₀| · S̄` with
    /// `S̄ = 1/√β` (underdamped) or `1/(e (σ − √(−β)))` (otherwise), since `e^{−σt} C ≤ 1`.
    fn amplitude_bound(&self, y0: f64, v0: f64) -> f64 {
        let (sigma, omega2) = (self.sigma.re(), self.omega2.re());
        let beta = omega2 - sigma * sigma;
        let s_bar = if beta > 0.0 {
            1.0 / beta.sqrt()
        } else {
            1.0 / (std::f64::consts::E * omega2 / (sigma + (-beta).sqrt()))
        };
        y0.abs() + (v0 + sigma * y0).abs() * s_bar
    }
}

/// Flight flow in closed form (Zana et al. 2018, eqs. 45–48): `ζ₁(t) = ζ₁₀ + ζ̇₁₀ t − g t²/2`,
/// `ζ₂ − L0` the damped oscillator, `z_U = ζ₁ + (m_L/m) ζ₂`, `z_L = ζ₁ − (m_U/m) ζ₂`. Evaluated
/// as displacements from `x0` (`z_L = z_L0 + Δζ₁ − (m_U/m) Δζ₂`), which keeps the absolute
/// rounding error of `z_L` near the ground at the size of the displacements, not of `z_U`.
pub(crate) fn flight_c<D: DualNum<f64> + Copy>(c: &Coeffs<D>, x0: &[D; 4], t: D) -> [D; 4] {
    let m = c.m();
    let (w_u, w_l) = (c.m_l / m, c.m_u / m);
    let zeta_d0 = (c.m_u * x0[2] + c.m_l * x0[3]) / m;
    let d_zeta = zeta_d0 * t - c.g * t * t * 0.5;
    let d_zeta_d = -c.g * t;
    let (y0, v0) = (x0[0] - x0[1] - c.l0, x0[2] - x0[3]);
    let (y, v) = c.flight_oscillator().eval(y0, v0, t);
    let (dy, dv) = (y - y0, v - v0);
    [
        x0[0] + d_zeta + w_u * dy,
        x0[1] + d_zeta - w_l * dy,
        x0[2] + d_zeta_d + w_u * dv,
        x0[3] + d_zeta_d - w_l * dv,
    ]
}

/// Ground flow in closed form (eqs. 49–52 with `L0`): the lower block moves with its
/// constant velocity, `z_L = z_L0 + ż_L0 t` (it stays at the ground, since `ż_L⁺ = 0`), and
/// `z_U = z_L + z_e + y(t)` with `y` the damped oscillator about `z_e = L0 − m_U g/k`
/// (`m_U z̈_U = −m_U g − k (z_U − z_L − L0) − d_G (ż_U − ż_L)`; with `z̈_L = 0` the relative
/// coordinate obeys the same equation, which on `z_L = ż_L = 0` is the paper's).
pub(crate) fn ground_c<D: DualNum<f64> + Copy>(c: &Coeffs<D>, x0: &[D; 4], t: D) -> [D; 4] {
    let (y0, v0) = ground_deviation(c, x0);
    let (y, v) = c.ground_oscillator().eval(y0, v0, t);
    let d_zl = x0[3] * t;
    [x0[0] + d_zl + (y - y0), x0[1] + d_zl, x0[3] + v, x0[3]]
}

/// Ground-phase oscillator coordinates `(y, ẏ) = (z_U − z_L − z_e, ż_U − ż_L)`.
pub(crate) fn ground_deviation<D: DualNum<f64> + Copy>(c: &Coeffs<D>, x: &[D; 4]) -> (D, D) {
    (x[0] - x[1] - c.z_eq(), x[2] - x[3])
}

/// State of the flight phase at time `t` after `x0` (Zana et al. 2018, eqs. 45–48).
pub fn flight_state<D: DualNum<f64> + Copy>(p: &HopperParams, x0: [D; 4], t: D) -> [D; 4] {
    flight_c(&Coeffs::new(p), &x0, t)
}

/// State of the ground phase at time `t` after `x0` (Zana et al. 2018, eqs. 49–52, `L0 ≠ 0`).
pub fn ground_state<D: DualNum<f64> + Copy>(p: &HopperParams, x0: [D; 4], t: D) -> [D; 4] {
    ground_c(&Coeffs::new(p), &x0, t)
}

/// Contact multiplier of the ground constraint, `λ = −N = −m_L g + k (z_U − L0) + d_G ż_U`
/// (lift-off when it rises through 0).
pub fn contact_multiplier<D: DualNum<f64> + Copy>(p: &HopperParams, x: [D; 4]) -> D {
    Coeffs::new(p).multiplier(&x)
}

/// One stride in closed form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StrideClosed<D> {
    /// State at the end of the stride (at lift-off, after the identity reset).
    pub end: [D; 4],
    /// Flight time `t_F` (lift-off to touchdown).
    pub t_flight: D,
    /// Ground time `t_G` (touchdown to lift-off).
    pub t_ground: D,
    /// State just before the impact.
    pub pre_impact: [D; 4],
    /// State just after the impact (`ż_L⁺ = 0`).
    pub post_impact: [D; 4],
}

/// The stride from the flight state `x0` to the next lift-off, coefficients given.
pub(crate) fn stride_c<D: DualNum<f64> + Copy>(
    c: &Coeffs<D>,
    x0: &[D; 4],
) -> Result<StrideClosed<D>, ClosedFormError> {
    let t_flight = events::touchdown_time_c(c, x0)?;
    let pre_impact = flight_c(c, x0, t_flight);
    let post_impact = [pre_impact[0], pre_impact[1], pre_impact[2], D::from(0.0)];
    let t_ground = events::liftoff_time_c(c, &post_impact)?;
    let end = ground_c(c, &post_impact, t_ground);
    Ok(StrideClosed {
        end,
        t_flight,
        t_ground,
        pre_impact,
        post_impact,
    })
}

/// One stride from the flight state `x0` (normally just after lift-off): flight to touchdown,
/// the impact `ż_L⁺ = 0`, ground to lift-off. Derivatives exact for `D` a dual number.
pub fn stride<D: DualNum<f64> + Copy>(
    p: &HopperParams,
    x0: [D; 4],
) -> Result<StrideClosed<D>, ClosedFormError> {
    p.check()?;
    stride_c(&Coeffs::new(p), &x0)
}
