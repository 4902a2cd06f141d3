//! Variational systems: a closed-form Φ, and the walker's stance with its variational matrix.

use saltation_ode::{Ivp, Method, OdeSystem, SolverOptions, Stop};

use super::FAMILIES;

/// `x₁' = −x₁²`, `x₂' = −2 x₁ x₂` with `x(t) = (a/(1+at), b/(1+at)²)` from `x(0) = (a, b)`, and
/// its variational equations `Φ' = f_x Φ`, `Φ(0) = I`, whose solution is the closed form
/// `Φ = ∂x/∂(a, b) = [[1/(1+at)², 0], [−2bt/(1+at)³, 1/(1+at)²]]`. State `[x (2), Φ (2×2)]`.
struct Variational;

impl OdeSystem for Variational {
    fn dim(&self) -> usize {
        6
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let (x1, x2) = (y[0], y[1]);
        dy[0] = -x1 * x1;
        dy[1] = -2.0 * x1 * x2;
        let j = [[-2.0 * x1, 0.0], [-2.0 * x2, -2.0 * x1]];
        for r in 0..2 {
            for c in 0..2 {
                dy[2 + 2 * r + c] = j[r][0] * y[2 + c] + j[r][1] * y[4 + c];
            }
        }
    }
    fn jacobian(&self, _t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[-2.0 * y[0], 0.0, -2.0 * y[1], -2.0 * y[0]]);
        true
    }
    fn variational_columns(&self) -> usize {
        2
    }
}

fn variational_exact(a: f64, b: f64, t: f64) -> [f64; 6] {
    let s = 1.0 + a * t;
    [
        a / s,
        b / (s * s),
        1.0 / (s * s),
        0.0,
        -2.0 * b * t / (s * s * s),
        1.0 / (s * s),
    ]
}

#[test]
fn variational_matrix_matches_its_closed_form() {
    let (a, b) = (1.5, -0.7);
    let y0 = variational_exact(a, b, 0.0);
    for method in FAMILIES {
        for error_dims in [None, Some(2)] {
            let opts = SolverOptions {
                error_dims,
                ..SolverOptions::with_tol(1e-10)
            };
            let sol = Ivp::new(&Variational, 0.0, &y0)
                .solve(method, 3.0, &opts)
                .unwrap();
            let x = variational_exact(a, b, 3.0);
            let err_x = (0..2).map(|i| (sol.y[i] - x[i]).abs()).fold(0.0, f64::max);
            let err_phi = (2..6).map(|i| (sol.y[i] - x[i]).abs()).fold(0.0, f64::max);
            println!(
                "{} variational (error_dims {error_dims:?}): |Δx| {err_x:.1e}, |ΔΦ| {err_phi:.1e}, \
                 steps {}, Newton {}, LU {}",
                method.name(),
                sol.stats.steps,
                sol.stats.newton_iters,
                sol.stats.lu_decompositions
            );
            assert!(err_x < 1e-8, "{err_x}");
            assert!(err_phi < 1e-8, "{err_phi}");
            // Φ₁₂ stays exactly zero: the block solve never mixes the columns.
            assert_eq!(sol.y[3], 0.0);
        }
    }
}

/// The project's use: the walker's stance phase with its 4×4 variational matrix (state of
/// size 20, solved with 4×4 iteration matrices) to the heel strike, whose time is known from an
/// independent 40-digit computation; Φ at the strike agrees with DOP853 at tolerance 10⁻¹³.
/// The control is per step, so the bound is the sum of the local errors, `N tol` after `N`
/// steps (times `max |Φ|` for Φ).
#[test]
fn walker_stance_with_variational_matrix_to_the_heel_strike() {
    use saltation_ode::problems::{
        walker_extended_start, HeelStrike, WalkerStanceVariational, WALKER_GAMMA,
        WALKER_HEELSTRIKE_TIME,
    };
    let sys = WalkerStanceVariational {
        gamma: WALKER_GAMMA,
    };
    let y0 = walker_extended_start();
    let reference = Ivp::new(&sys, 0.0, &y0)
        .events(&HeelStrike)
        .solve(Method::Dop853, 10.0, &SolverOptions::with_tol(1e-13))
        .unwrap();
    for method in FAMILIES {
        let sol = Ivp::new(&sys, 0.0, &y0)
            .events(&HeelStrike)
            .solve(method, 10.0, &SolverOptions::with_tol(1e-11))
            .unwrap();
        assert!(matches!(sol.stop, Stop::Event(_)));
        let dt = (sol.t - WALKER_HEELSTRIKE_TIME).abs();
        let dphi = (4..20)
            .map(|i| (sol.y[i] - reference.y[i]).abs())
            .fold(0.0, f64::max);
        println!(
            "{} walker: heel-strike time error {dt:.1e}, |ΔΦ| {dphi:.1e}, steps {}, LU {}",
            method.name(),
            sol.stats.steps,
            sol.stats.lu_decompositions
        );
        let (n, tol) = (sol.stats.steps as f64, 1e-11);
        let phi_max = (4..20).map(|i| reference.y[i].abs()).fold(0.0, f64::max);
        assert!(dt < n * tol, "{dt}");
        assert!(dphi < n * tol * phi_max, "{dphi} (max |Φ| {phi_max})");
    }
}
