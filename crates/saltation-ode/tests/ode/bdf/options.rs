//! Options and bad cases.

use saltation_ode::{Ivp, NewtonOptions, OdeError, OdeSystem, SolverOptions, Stepper};

use super::{opts_k, robertson_opts, FAMILIES};
use crate::common::{decay_then_nan, smooth, smooth_exact, Robertson, ROBERTSON_40};

#[test]
fn orders_above_five_are_an_invalid_option() {
    for method in FAMILIES {
        let r = Ivp::new(&smooth(), 0.0, &smooth_exact(0.0)).solve(method, 1.0, &opts_k(1e-6, 6));
        assert!(
            matches!(
                r,
                Err(OdeError::InvalidOption {
                    field: "multistep.max_order",
                    ..
                })
            ),
            "{:?}",
            r.map(|s| s.t)
        );
    }
}

/// `M = diag(1, 0)` with `0 = y₁ − y₁` is not an index-1 DAE (the algebraic variable is free):
/// the iteration matrix is singular at every step size, which ends in `SingularMatrix` after a
/// bounded number of retries.
#[test]
fn a_singular_iteration_matrix_is_an_error() {
    struct NotIndexOne;
    impl OdeSystem for NotIndexOne {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
            dy[0] = -y[0];
            dy[1] = 0.0;
        }
        fn mass_matrix(&self) -> Option<Vec<f64>> {
            Some(vec![1.0, 0.0, 0.0, 0.0])
        }
    }
    for method in FAMILIES {
        let r = Ivp::new(&NotIndexOne, 0.0, &[1.0, 0.0]).solve(method, 1.0, &Default::default());
        assert!(
            matches!(r, Err(OdeError::SingularMatrix { t, .. }) if t == 0.0),
            "{:?}",
            r.map(|s| s.t)
        );
    }
}

/// A field that becomes NaN at t = 0.5 ends the integration there with `NonFinite`.
#[test]
fn a_field_that_turns_nan_ends_with_the_time_reached() {
    let sys = decay_then_nan(0.5);
    for method in FAMILIES {
        let r = Ivp::new(&sys, 0.0, &[1.0]).solve(method, 1.0, &SolverOptions::with_tol(1e-8));
        match r {
            Err(OdeError::NonFinite { t, h }) => {
                assert!(t <= 0.5 && t > 0.49 && h > 0.0, "{t} {h}")
            }
            other => panic!("{:?}", other.map(|s| s.t)),
        }
    }
}

/// The Newton options are honoured: two iterations per attempt (the fewest that measure a
/// contraction rate) still integrate the stiff problem, with more Newton failures, and
/// `jacobian_reuse` refreshes the Jacobian after slowly converging steps.
#[test]
fn newton_options_are_honoured() {
    for method in FAMILIES {
        let base = Ivp::new(&Robertson::ODE, 0.0, &[1.0, 0.0, 0.0])
            .solve(method, 40.0, &robertson_opts(1e-7))
            .unwrap();
        let one = SolverOptions {
            newton: NewtonOptions {
                max_iters: Some(2),
                ..Default::default()
            },
            ..robertson_opts(1e-7)
        };
        let sol = Ivp::new(&Robertson::ODE, 0.0, &[1.0, 0.0, 0.0])
            .solve(method, 40.0, &one)
            .unwrap();
        assert!(sol.stats.newton_iters <= 2 * (sol.stats.steps + sol.stats.rejected_steps));
        assert!(sol.stats.newton_failures >= base.stats.newton_failures);
        for (got, want) in sol.y.iter().zip(ROBERTSON_40) {
            assert!((got - want).abs() < 1e-5 * want);
        }
        let reuse = SolverOptions {
            newton: NewtonOptions {
                jacobian_reuse: Some(0.0),
                ..Default::default()
            },
            ..robertson_opts(1e-7)
        };
        let fresh = Ivp::new(&Robertson::ODE, 0.0, &[1.0, 0.0, 0.0])
            .solve(method, 40.0, &reuse)
            .unwrap();
        println!(
            "{}: Jacobians default {}, two iterations {}, reuse 0 {}",
            method.name(),
            base.stats.jacobian_evals,
            sol.stats.jacobian_evals,
            fresh.stats.jacobian_evals
        );
        assert!(fresh.stats.jacobian_evals > 5 * base.stats.jacobian_evals);
    }
}

/// `h_max` bounds every step; `h_init` is the first one.
#[test]
fn step_size_options_are_honoured() {
    let sys = smooth();
    for method in FAMILIES {
        let opts = SolverOptions {
            h_max: 0.05,
            h_init: Some(1e-3),
            ..SolverOptions::with_tol(1e-6)
        };
        let mut s = method.stepper();
        let mut stats = Default::default();
        s.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
            .unwrap();
        s.step(&sys, 3.0, &opts, &mut stats).unwrap();
        assert_eq!(s.t(), 1e-3);
        while s.t() < 3.0 {
            let t0 = s.t();
            s.step(&sys, 3.0, &opts, &mut stats).unwrap();
            assert!(s.t() - t0 <= 0.05 * (1.0 + 1e-12), "{}", s.t() - t0);
        }
        assert_eq!(s.t(), 3.0);
    }
}
