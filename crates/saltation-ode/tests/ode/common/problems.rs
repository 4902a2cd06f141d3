//! Test problems with closed forms or published reference values, shared by the integrators'
//! test modules.

use saltation_ode::{Direction, Event, FnSystem, OdeSystem};

// ---------------------------------------------------------------------------------------------
// A smooth nonlinear problem.

/// `y₁' = y₁ cos t` (`y₁ = exp(sin t)`) and the harmonic pair `y₂' = y₃`, `y₃' = −y₂`
/// (`y₂ = cos t`, `y₃ = −sin t`): the error mixes a nonlinear-in-t and an oscillatory
/// component. Closed form: [`smooth_exact`].
pub fn smooth() -> impl OdeSystem {
    FnSystem::new(3, |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[0] * t.cos();
        dy[1] = y[2];
        dy[2] = -y[1];
    })
}

/// The solution of [`smooth`] from `smooth_exact(0)`.
pub fn smooth_exact(t: f64) -> [f64; 3] {
    [t.sin().exp(), t.cos(), -t.sin()]
}

// ---------------------------------------------------------------------------------------------
// Linear test equations.

/// `y' = λ y` (scalar, `λ` real) with its exact Jacobian: one step of size `h` multiplies `y`
/// by the method's stability function `R(hλ)`.
pub struct Scalar(pub f64);

impl OdeSystem for Scalar {
    fn dim(&self) -> usize {
        1
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = self.0 * y[0];
    }
    fn jacobian(&self, _t: f64, _y: &[f64], j: &mut [f64]) -> bool {
        j[0] = self.0;
        true
    }
}

/// `x' = ω v`, `v' = −ω x`: eigenvalues `±iω`, and the norm scales by `|R(iωh)|` per step.
pub struct Oscillator(pub f64);

impl OdeSystem for Oscillator {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = self.0 * y[1];
        dy[1] = -self.0 * y[0];
    }
    fn jacobian(&self, _t: f64, _y: &[f64], j: &mut [f64]) -> bool {
        j.copy_from_slice(&[0.0, self.0, -self.0, 0.0]);
        true
    }
}

/// `y' = A (y − g(t)) + g'(t)`, `g = (sin t, cos t)`, `A = P diag(λ₁, λ₂) P⁻¹` with
/// `λ = (−1, −10⁴)`, `P = [[1, 1], [1, −1]]`: `y = g + P e^{Dt} P⁻¹ (y₀ − g(0))`
/// ([`StiffLinear::exact`]). No Jacobian given (finite differences).
pub struct StiffLinear;

impl StiffLinear {
    pub const L1: f64 = -1.0;
    pub const L2: f64 = -1e4;

    /// The solution at `t` from `y(0) = y0`.
    pub fn exact(t: f64, y0: [f64; 2]) -> [f64; 2] {
        let (u, v) = (y0[0], y0[1] - 1.0);
        let (p, q) = (0.5 * (u + v), 0.5 * (u - v));
        let (p, q) = (p * (Self::L1 * t).exp(), q * (Self::L2 * t).exp());
        [t.sin() + p + q, t.cos() + p - q]
    }
}

impl OdeSystem for StiffLinear {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (a, b) = (0.5 * (Self::L1 + Self::L2), 0.5 * (Self::L1 - Self::L2));
        let (u, v) = (y[0] - t.sin(), y[1] - t.cos());
        dy[0] = a * u + b * v + t.cos();
        dy[1] = b * u + a * v - t.sin();
    }
}

// ---------------------------------------------------------------------------------------------
// Robertson's chemical kinetics.

/// Robertson's chemical kinetics (Robertson 1966; Hairer & Wanner, *Solving ODEs II*, §IV.1):
/// `y₁' = −0.04 y₁ + 10⁴ y₂ y₃`, `y₂' = 0.04 y₁ − 10⁴ y₂ y₃ − 3·10⁷ y₂²`, `y₃' = 3·10⁷ y₂²`;
/// with `dae`, the index-1 DAE with the conservation law `0 = y₁ + y₂ + y₃ − 1` in place of the
/// third equation (`M = diag(1, 1, 0)`). With `jacobian` the exact Jacobian is given, else the
/// integrator takes finite differences.
pub struct Robertson {
    pub dae: bool,
    pub jacobian: bool,
}

impl Robertson {
    /// The ODE, Jacobian by finite differences.
    pub const ODE: Robertson = Robertson {
        dae: false,
        jacobian: false,
    };
    /// The DAE, Jacobian by finite differences.
    pub const DAE: Robertson = Robertson {
        dae: true,
        jacobian: false,
    };
}

impl OdeSystem for Robertson {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let (a, b) = (0.04 * y[0], 1e4 * y[1] * y[2]);
        let c = 3e7 * y[1] * y[1];
        dy[0] = -a + b;
        dy[1] = a - b - c;
        dy[2] = if self.dae {
            y[0] + y[1] + y[2] - 1.0
        } else {
            c
        };
    }
    fn jacobian(&self, _t: f64, y: &[f64], j: &mut [f64]) -> bool {
        if !self.jacobian {
            return false;
        }
        j[0] = -0.04;
        j[1] = 1e4 * y[2];
        j[2] = 1e4 * y[1];
        j[3] = 0.04;
        j[4] = -1e4 * y[2] - 6e7 * y[1];
        j[5] = -1e4 * y[1];
        if self.dae {
            j[6..9].copy_from_slice(&[1.0, 1.0, 1.0]);
        } else {
            j[6..9].copy_from_slice(&[0.0, 6e7 * y[1], 0.0]);
        }
        true
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        self.dae
            .then(|| vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    }
}

/// y(40) of [`Robertson`] from y(0) = (1, 0, 0): Hairer & Wanner (§IV.1) give 0.7158270687,
/// 9.185534764e−6, 0.2841637457; the further digits are the values independent stiff codes
/// agree on at tolerances near 10⁻¹⁴ (0.71582706871940, 9.1855347645578e−6, 0.28416374574583;
/// the stiff test set publishes 12 digits).
pub const ROBERTSON_40: [f64; 3] = [
    0.715_827_068_719_4,
    9.185_534_764_558e-6,
    0.284_163_745_745_83,
];

// ---------------------------------------------------------------------------------------------
// Mass matrices and variational systems.

/// The constant mass matrix of [`Massive`] (row-major).
pub const MASS: [f64; 9] = [2.0, 1.0, 0.0, 0.0, 1.0, -1.0, 0.5, 0.0, 3.0];

/// `M y' = M g(t, y)` with `g` the field of [`smooth`] and `M` = [`MASS`]: the smooth problem's
/// solution in another basis. With `singular`, the last row of `M` is zero (and `M` singular).
pub struct Massive {
    pub singular: bool,
}

impl OdeSystem for Massive {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let g = [y[0] * t.cos(), y[2], -y[1]];
        for i in 0..3 {
            dy[i] = (0..3).map(|k| MASS[3 * i + k] * g[k]).sum();
        }
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        let mut m = MASS.to_vec();
        if self.singular {
            m[6..].fill(0.0);
        }
        Some(m)
    }
}

/// `x₁' = −x₁²`, `(x₂, x₃)' = ω (x₃, −x₂)` with `ω` = [`RiccatiRotation::OMEGA`], and its
/// variational equations `Φ' = f_x Φ` (3 × 3, state `[x, Φ]` of size 12): `Φ(t) =
/// diag(1/(1 + x₁(0) t)², [[cos ωt, sin ωt], [−sin ωt, cos ωt]])`. With `analytic` the exact
/// `f_x` is given as the Jacobian, else finite differences.
pub struct RiccatiRotation {
    pub analytic: bool,
}

impl RiccatiRotation {
    pub const OMEGA: f64 = 3.0;

    /// `f_x` at `y`.
    pub fn fx(y: &[f64]) -> [f64; 9] {
        let w = Self::OMEGA;
        [-2.0 * y[0], 0.0, 0.0, 0.0, 0.0, w, 0.0, -w, 0.0]
    }
}

impl OdeSystem for RiccatiRotation {
    fn dim(&self) -> usize {
        12
    }
    fn variational_columns(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -y[0] * y[0];
        dy[1] = Self::OMEGA * y[2];
        dy[2] = -Self::OMEGA * y[1];
        let j = Self::fx(y);
        for i in 0..3 {
            for c in 0..3 {
                dy[3 + 3 * i + c] = (0..3).map(|k| j[3 * i + k] * y[3 + 3 * k + c]).sum();
            }
        }
    }
    fn jacobian(&self, _t: f64, y: &[f64], j: &mut [f64]) -> bool {
        j.copy_from_slice(&Self::fx(y));
        self.analytic
    }
}

// ---------------------------------------------------------------------------------------------
// Events and bad fields.

/// Gravity of the falling and bouncing balls.
pub const G: f64 = 9.81;

/// A ball in free fall, `(height, velocity)`: from `(1, 0)` it hits the ground at `√(2/g)`.
pub fn falling_ball() -> impl OdeSystem {
    FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -G;
    })
}

/// The guard `y₀ = 0` crossed downwards (the ground, for a ball).
pub fn ground() -> Vec<Event> {
    vec![Event::new(|_t, y: &[f64]| y[0]).direction(Direction::Falling)]
}

/// `y' = −y` up to `t_nan`, NaN after it.
pub fn decay_then_nan(t_nan: f64) -> impl OdeSystem {
    FnSystem::new(1, move |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > t_nan { f64::NAN } else { -y[0] };
    })
}
