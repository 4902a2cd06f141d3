//! Stiffness detection of the explicit pairs: on a stiff problem they stop early with a typed
//! error instead of grinding through hundreds of thousands of stability-limited steps; on
//! non-stiff problems the test never fires.

use saltation_ode::{ExplicitOptions, FnSystem, Ivp, Method, OdeError, SolverOptions};

/// Prothero–Robinson `y' = −λ (y − cos t) − sin t`, solution `y = cos t`, `λ = 10⁴`: the step
/// size of an explicit method is held at `|hλ| ≈` its stability boundary.
fn stiff() -> impl saltation_ode::OdeSystem {
    FnSystem::new(1, |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = -1e4 * (y[0] - t.cos()) - t.sin();
    })
}

#[test]
fn explicit_pairs_report_stiffness_early() {
    for method in [Method::Dp5, Method::Dop853, Method::Rkf45] {
        let opts = SolverOptions {
            max_steps: 10_000_000,
            ..SolverOptions::with_tol(1e-6)
        };
        let r = Ivp::new(&stiff(), 0.0, &[1.0]).solve(method, 100.0, &opts);
        match r {
            Err(OdeError::Stiff { steps, t, .. }) => {
                // One test every 1000 steps, then 15 consecutive positive ones.
                assert!(steps <= 1100, "{}: {steps} steps", method.name());
                assert!(t > 0.0 && t < 1.0, "{}: t = {t}", method.name());
            }
            other => panic!("{}: expected Stiff, got {other:?}", method.name()),
        }
        // Switched off, the same run grinds on (here bounded by max_steps).
        let off = SolverOptions {
            max_steps: 3000,
            explicit: ExplicitOptions {
                stiffness_limit: 0,
                ..Default::default()
            },
            ..SolverOptions::with_tol(1e-6)
        };
        let r = Ivp::new(&stiff(), 0.0, &[1.0]).solve(method, 100.0, &off);
        assert!(
            matches!(r, Err(OdeError::MaxSteps { .. })),
            "{}: {r:?}",
            method.name()
        );
    }
}

#[test]
fn non_stiff_problems_never_trigger_the_test() {
    // A harmonic oscillator over many periods: 10⁴–10⁵ steps, the step limited by accuracy.
    let osc = FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -y[0];
    });
    for method in [Method::Dp5, Method::Dop853, Method::Rkf45] {
        let opts = SolverOptions {
            max_steps: 10_000_000,
            ..SolverOptions::with_tol(1e-12)
        };
        let sol = Ivp::new(&osc, 0.0, &[1.0, 0.0])
            .solve(method, 2000.0, &opts)
            .unwrap();
        assert!(sol.stats.steps > 2000, "{}", sol.stats.steps);
        assert!((sol.y[0] - 2000f64.cos()).abs() < 1e-6);
    }
}
