//! Test problems with their reference data, for tests, benchmarks and examples.
//!
//! - [`WalkerStance`]: the stance phase of the simplest walker (Garcia, Chatterjee, Ruina &
//!   Coleman 1998; equations as in Bhounsule 2014, §4) with its heel-strike guard, started from
//!   the stable fixed point of Table 1 of Bhounsule (2014) at `γ = 0.009`. The heel-strike time
//!   from that state, [`WALKER_HEELSTRIKE_TIME`], comes from an independent 40-digit computation.
//! - [`WalkerStanceVariational`]: the same vector field extended by its variational equations
//!   `Φ' = f_x Φ` (state of size 4 + 16).

use crate::events::{Direction, EventSet};
use crate::OdeSystem;

/// Stable fixed point of the simplest walker at `γ = 0.009` (Table 1): `[θ, θ̇, φ, φ̇]`.
pub const WALKER_X0: [f64; 4] = [
    0.200_310_900_544_287,
    -0.199_832_473_004_977,
    0.400_621_801_088_574,
    -0.015_822_999_948_318,
];

/// Slope of the walker benchmark.
pub const WALKER_GAMMA: f64 = 0.009;

/// Heel-strike time from [`WALKER_X0`] (40-digit reference, rounded): `t = 3.882463752851374`.
pub const WALKER_HEELSTRIKE_TIME: f64 = 3.882_463_752_851_374;

/// Stance phase of the simplest walker: with `x = [θ, θ̇, φ, φ̇]`,
/// `f = [θ̇, sin(θ − γ), φ̇, sin(θ − γ) + θ̇² sin φ − cos(θ − γ) sin φ]`.
#[derive(Debug, Clone, Copy)]
pub struct WalkerStance {
    /// Slope `γ`.
    pub gamma: f64,
}

impl OdeSystem for WalkerStance {
    fn dim(&self) -> usize {
        4
    }
    #[inline]
    fn rhs(&self, _t: f64, x: &[f64], dx: &mut [f64]) {
        let (s, c) = (x[0] - self.gamma).sin_cos();
        let sp = x[2].sin();
        dx[0] = x[1];
        dx[1] = s;
        dx[2] = x[3];
        dx[3] = s + x[1] * x[1] * sp - c * sp;
    }
    fn jacobian(&self, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        walker_jacobian(self.gamma, x, jac);
        true
    }
}

/// The stance Jacobian `f_x` (row-major 4×4) at `x` (see [`WalkerStanceVariational`]).
fn walker_jacobian(gamma: f64, x: &[f64], jac: &mut [f64]) {
    let (s, c) = (x[0] - gamma).sin_cos();
    let (sp, cp) = x[2].sin_cos();
    jac.fill(0.0);
    jac[1] = 1.0;
    jac[4] = c;
    jac[11] = 1.0;
    jac[12] = c + s * sp;
    jac[13] = 2.0 * x[1] * sp;
    jac[14] = (x[1] * x[1] - c) * cp;
}

/// Stance phase plus variational equations `Φ' = f_x(x) Φ`, state `[x (4), Φ (16, row-major)]`,
/// with the exact Jacobian
/// `f_x = [[0,1,0,0], [c,0,0,0], [0,0,0,1], [c + s sin φ, 2θ̇ sin φ, (θ̇² − c) cos φ, 0]]`,
/// `s = sin(θ−γ)`, `c = cos(θ−γ)`.
#[derive(Debug, Clone, Copy)]
pub struct WalkerStanceVariational {
    /// Slope `γ`.
    pub gamma: f64,
}

impl OdeSystem for WalkerStanceVariational {
    fn dim(&self) -> usize {
        20
    }
    #[inline]
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) {
        WalkerStance { gamma: self.gamma }.rhs(t, &x[..4], &mut dx[..4]);
        let (s, c) = (x[0] - self.gamma).sin_cos();
        let (sp, cp) = x[2].sin_cos();
        let j30 = c + s * sp;
        let j31 = 2.0 * x[1] * sp;
        let j32 = (x[1] * x[1] - c) * cp;
        let phi = &x[4..20];
        let (_, d) = dx.split_at_mut(4);
        for k in 0..4 {
            d[k] = phi[4 + k];
            d[4 + k] = c * phi[k];
            d[8 + k] = phi[12 + k];
            d[12 + k] = j30 * phi[k] + j31 * phi[4 + k] + j32 * phi[8 + k];
        }
    }
    /// `Φ` has 4 columns: implicit methods solve with the 4×4 iteration matrix.
    fn variational_columns(&self) -> usize {
        4
    }
    /// `f_x` at the state part.
    fn jacobian(&self, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        walker_jacobian(self.gamma, &x[..4], jac);
        true
    }
}

/// Heel-strike guard `h = φ − 2θ`, rising, enabled only with the stance leg past vertical
/// (`θ < 0`); terminal. Works on the plain and the extended state (reads the first 4 entries).
#[derive(Debug, Clone, Copy, Default)]
pub struct HeelStrike;

impl EventSet for HeelStrike {
    fn count(&self) -> usize {
        1
    }
    #[inline]
    fn value(&self, _i: usize, _t: f64, x: &[f64]) -> f64 {
        x[2] - 2.0 * x[0]
    }
    fn direction(&self, _i: usize) -> Direction {
        Direction::Rising
    }
    fn enabled(&self, _i: usize, _t: f64, x: &[f64]) -> bool {
        x[0] < 0.0
    }
}

/// `[x0, I₄]`: the walker's start state with an identity variational matrix.
pub fn walker_extended_start() -> [f64; 20] {
    let mut y = [0.0; 20];
    y[..4].copy_from_slice(&WALKER_X0);
    for k in 0..4 {
        y[4 + 5 * k] = 1.0;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ivp, Method, SolverOptions, Stop};

    #[test]
    fn heel_strike_time_matches_the_reference() {
        for (method, tol, err) in [
            (Method::Dop853, 1e-12, 1e-11),
            (Method::Dp5, 1e-12, 1e-10),
            (Method::Bs23, 1e-9, 1e-6),
        ] {
            let sys = WalkerStance {
                gamma: WALKER_GAMMA,
            };
            let s = Ivp::new(&sys, 0.0, &WALKER_X0)
                .events(&HeelStrike)
                .solve(method, 10.0, &SolverOptions::with_tol(tol))
                .unwrap();
            match s.stop {
                Stop::Event(h) => assert!(
                    (h.t - WALKER_HEELSTRIKE_TIME).abs() < err,
                    "{}: {} ({:e})",
                    method.name(),
                    h.t,
                    h.t - WALKER_HEELSTRIKE_TIME
                ),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn the_jacobian_hook_matches_central_differences() {
        let sys = WalkerStance {
            gamma: WALKER_GAMMA,
        };
        let x = [0.3, -0.7, 0.5, 0.2];
        let mut jac = [0.0; 16];
        assert!(sys.jacobian(0.0, &x, &mut jac));
        let ext = WalkerStanceVariational {
            gamma: WALKER_GAMMA,
        };
        let mut y = [0.0; 20];
        y[..4].copy_from_slice(&x);
        let mut jac_ext = [0.0; 16];
        assert!(ext.jacobian(0.0, &y, &mut jac_ext) && ext.variational_columns() == 4);
        assert_eq!(jac, jac_ext);
        let h = 1e-6;
        for k in 0..4 {
            let (mut a, mut b) = (x, x);
            a[k] += h;
            b[k] -= h;
            let (mut fa, mut fb) = ([0.0; 4], [0.0; 4]);
            sys.rhs(0.0, &a, &mut fa);
            sys.rhs(0.0, &b, &mut fb);
            for i in 0..4 {
                let fd = (fa[i] - fb[i]) / (2.0 * h);
                assert!((fd - jac[4 * i + k]).abs() < 1e-8, "J[{i}][{k}]");
            }
        }
    }

    #[test]
    fn variational_equations_match_finite_differences_of_the_flow() {
        let opts = SolverOptions::with_tol(1e-12);
        let flow = |x0: &[f64]| {
            let sys = WalkerStance {
                gamma: WALKER_GAMMA,
            };
            Ivp::new(&sys, 0.0, x0)
                .solve(Method::Dop853, 1.0, &opts)
                .unwrap()
                .y
        };
        let ext = WalkerStanceVariational {
            gamma: WALKER_GAMMA,
        };
        let y = Ivp::new(&ext, 0.0, &walker_extended_start())
            .solve(Method::Dop853, 1.0, &opts)
            .unwrap()
            .y;
        let h = 1e-5;
        for j in 0..4 {
            let (mut a, mut b) = (WALKER_X0, WALKER_X0);
            a[j] += h;
            b[j] -= h;
            let (fa, fb) = (flow(&a), flow(&b));
            for i in 0..4 {
                let fd = (fa[i] - fb[i]) / (2.0 * h);
                assert!((fd - y[4 + 4 * i + j]).abs() < 1e-8, "Φ[{i}][{j}]");
            }
        }
    }
}
