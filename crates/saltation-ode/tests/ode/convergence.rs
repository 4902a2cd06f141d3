//! Measured convergence orders of every method, of the dense outputs, and tolerance
//! proportionality of the adaptive pairs. One harness runs over all methods.
//!
//! Test problem (closed form): `y₁' = y₁ cos t`, `y₂' = −y₂ + sin t`-free coupling below, with
//! `y₁ = exp(sin t)` and the harmonic pair `y₂ = cos t`, `y₃ = −sin t` (`y₂' = y₃`, `y₃' = −y₂`),
//! so the error mixes a nonlinear-in-t and an oscillatory component.

use saltation_ode::{Ivp, Method, SolverOptions};

use crate::common::{fixed_step_errors, slope, smooth, smooth_exact, T_END};

fn global_error(method: Method, steps: usize) -> f64 {
    let sys = smooth();
    let opts = SolverOptions {
        h_fixed: Some(T_END / steps as f64),
        max_steps: 10 * steps,
        ..Default::default()
    };
    let sol = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
        .solve(method, T_END, &opts)
        .unwrap();
    let ex = smooth_exact(T_END);
    (0..3).map(|i| (sol.y[i] - ex[i]).abs()).fold(0.0, f64::max)
}

/// Step counts giving errors well above round-off and in the asymptotic range.
fn step_counts(method: Method) -> Vec<usize> {
    match method {
        Method::Euler => vec![400, 800, 1600, 3200],
        Method::Heun => vec![100, 200, 400, 800],
        Method::Rk4 | Method::Rkf45 => vec![20, 40, 80, 160],
        Method::Bs23 => vec![40, 80, 160, 320],
        Method::Dp5 => vec![16, 32, 64, 128],
        _ => vec![8, 12, 16, 24],
    }
}

/// The variable-order multistep codes start at order 1, whose start-up error dominates a
/// fixed-step global error; their orders are measured over tolerance sweeps at a fixed maximum
/// order instead ([`crate::bdf`], [`crate::abm`]).
fn is_variable_order(method: Method) -> bool {
    matches!(method, Method::Ndf | Method::Bdf | Method::Abm)
}

#[test]
fn every_method_converges_at_its_nominal_order() {
    for method in Method::ALL.into_iter().filter(|&m| !is_variable_order(m)) {
        let pts: Vec<(f64, f64)> = step_counts(method)
            .into_iter()
            .map(|n| (T_END / n as f64, global_error(method, n)))
            .collect();
        let p = slope(&pts);
        let nominal = method.order() as f64;
        assert!(
            (p - nominal).abs() <= 0.3,
            "{}: measured order {p:.3}, nominal {nominal}; errors {pts:?}",
            method.name()
        );
    }
}

#[test]
fn dense_output_has_the_methods_own_order() {
    // (method, dense order, step counts)
    let cases = [
        (Method::Bs23, 3.0, vec![40, 80, 160, 320]),
        (Method::Dp5, 4.0, vec![16, 32, 64, 128]),
        (Method::Dop853, 7.0, vec![8, 12, 16, 24]),
        (Method::Rk4, 3.0, vec![20, 40, 80, 160]),
    ];
    for (method, order, counts) in cases {
        let pts: Vec<(f64, f64)> = counts
            .into_iter()
            .map(|n| (T_END / n as f64, fixed_step_errors(method, &smooth(), n).1))
            .collect();
        let p = slope(&pts);
        assert!(
            p >= order - 0.3,
            "{} dense output: measured order {p:.3} < {order}; {pts:?}",
            method.name()
        );
    }
}

#[test]
fn global_error_falls_with_the_tolerance() {
    let sys = smooth();
    for method in [Method::Bs23, Method::Rkf45, Method::Dp5, Method::Dop853] {
        let mut errs = Vec::new();
        for tol in [1e-4, 1e-6, 1e-8, 1e-10] {
            let sol = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
                .solve(method, T_END, &SolverOptions::with_tol(tol))
                .unwrap();
            let ex = smooth_exact(T_END);
            let e = (0..3).map(|i| (sol.y[i] - ex[i]).abs()).fold(0.0, f64::max);
            errs.push((tol, e, sol.stats.rhs_evals));
        }
        for w in errs.windows(2) {
            assert!(
                w[1].1 < w[0].1,
                "{}: error did not fall with the tolerance: {errs:?}",
                method.name()
            );
            assert!(w[1].2 > w[0].2, "{}: work did not grow", method.name());
        }
        // Proportionality: over six decades of tolerance the error falls by at least four.
        assert!(errs[0].1 / errs[3].1 > 1e4, "{}: {errs:?}", method.name());
        // Tolerance is honoured within a modest factor.
        assert!(
            errs.iter().all(|(tol, e, _)| *e < 100.0 * tol),
            "{}: {errs:?}",
            method.name()
        );
    }
}
