//! Damped Newton tests: convergence (with its quadratic rate), singular Jacobians, systems
//! without a root, iteration limits, and typed pass-through of the user's errors.

use nalgebra::{DMatrix, DVector};
use saltation_orbit::{
    solve, Accuracy, Convergence, DampedNewton, NewtonError, NewtonOptions, NewtonState,
    SquareSystem,
};
use std::cell::Cell;
use std::convert::Infallible;

/// A system given by a closure `u ↦ (F, J)`.
struct Closure<F>(usize, F);

impl<F, E> SquareSystem for Closure<F>
where
    F: Fn(&DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), E>,
{
    type Error = E;
    fn dim(&self) -> usize {
        self.0
    }
    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), E> {
        (self.1)(u)
    }
}

fn v(x: &[f64]) -> DVector<f64> {
    DVector::from_column_slice(x)
}

fn m(n: usize, x: &[f64]) -> DMatrix<f64> {
    DMatrix::from_row_slice(n, n, x)
}

/// Rosenbrock's function as a system (Moré, Garbow, Hillstrom 1981, problem 1):
/// F = (10(y − x²), 1 − x), root (1, 1), standard start (−1.2, 1).
fn rosenbrock() -> impl SquareSystem<Error = Infallible> {
    Closure(2, |u: &DVector<f64>| {
        let (x, y) = (u[0], u[1]);
        Ok((
            v(&[10.0 * (y - x * x), 1.0 - x]),
            m(2, &[-20.0 * x, 10.0, -1.0, 0.0]),
        ))
    })
}

#[test]
fn rosenbrock_system_converges() {
    let rep = solve(&rosenbrock(), &v(&[-1.2, 1.0]), &NewtonOptions::default()).unwrap();
    assert!((rep.solution[0] - 1.0).abs() < 1e-14);
    assert!((rep.solution[1] - 1.0).abs() < 1e-14);
    assert!(rep.residual_norm <= 1e-12);
    // The full first step overshoots (‖F‖ 4.9 → 48), so the monotone line search damps the
    // first steps (λ = 1/16 …) and full steps return near the root; regression values of this
    // algorithm: 10 steps, the last two undamped, the last one hitting the root exactly (the
    // second equation is linear).
    assert_eq!(rep.iterations, 10);
    assert_eq!(rep.residual_history.len(), 11);
    assert_eq!(rep.dampings[0], 1.0 / 16.0);
    assert_eq!(&rep.dampings[8..], &[1.0, 1.0]);
    assert!(rep.residual_history.windows(2).all(|w| w[1] < w[0]));
    assert_eq!(rep.converged_by, Convergence::Residual);
    // Jacobian at the solution, from the same evaluation as the residual.
    assert_eq!(rep.jacobian, m(2, &[-20.0, 10.0, -1.0, 0.0]));
    // One evaluation per trial point (the Jacobian comes with it): u0, and 1 + log₂(1/λ)
    // trials per step.
    let trials: f64 = rep.dampings.iter().map(|l| 1.0 - l.log2()).sum();
    assert_eq!(rep.evaluations, 1 + trials as usize);
}

#[test]
fn quadratic_convergence_is_visible() {
    // Intersection of a circle and an exponential: F = (x² + y² − 4, eˣ + y − 1).
    let sys = Closure(2, |u: &DVector<f64>| {
        let (x, y) = (u[0], u[1]);
        Ok::<_, Infallible>((
            v(&[x * x + y * y - 4.0, x.exp() + y - 1.0]),
            m(2, &[2.0 * x, 2.0 * y, x.exp(), 1.0]),
        ))
    });
    let opts = NewtonOptions {
        ftol: 1e-15,
        ..Default::default()
    };
    let rep = solve(&sys, &v(&[1.0, -1.5]), &opts).unwrap();
    let h = &rep.residual_history;

    assert!(rep.residual_norm <= 1e-15, "history {h:?}");
    // r_{k+1} ≤ C r_k² while the residual is above the rounding floor.
    let mut checked = 0;
    for k in 0..h.len() - 1 {
        if h[k] < 1e-1 && h[k + 1] > 1e-14 {
            let ratio = h[k + 1] / (h[k] * h[k]);
            assert!(
                ratio < 10.0,
                "r_{}/r_{}² = {ratio}, history {h:?}",
                k + 1,
                k
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "history {h:?}");
    assert!(rep.dampings.iter().all(|&l| l == 1.0));
}

#[test]
fn damping_rescues_a_far_start() {
    // arctan(x) = 0 from x0 = 10: the full Newton step overshoots to ~ −138 (classic
    // divergence); backtracking keeps it bounded and converges.
    let sys = Closure(1, |u: &DVector<f64>| {
        Ok::<_, Infallible>((v(&[u[0].atan()]), m(1, &[1.0 / (1.0 + u[0] * u[0])])))
    });
    let rep = solve(&sys, &v(&[10.0]), &NewtonOptions::default()).unwrap();
    assert!(rep.solution[0].abs() < 1e-12);
    assert!(rep.dampings.iter().any(|&l| l < 1.0), "{:?}", rep.dampings);
}

#[test]
fn singular_jacobian_at_the_start() {
    // F = (x² − 1, y − 2) at x = 0: ∂F₁/∂x = 0.
    let sys = Closure(2, |u: &DVector<f64>| {
        Ok::<_, Infallible>((
            v(&[u[0] * u[0] - 1.0, u[1] - 2.0]),
            m(2, &[2.0 * u[0], 0.0, 0.0, 1.0]),
        ))
    });
    match solve(&sys, &v(&[0.0, 5.0]), &NewtonOptions::default()) {
        Err(NewtonError::Singular { iterate, iteration }) => {
            assert_eq!(iteration, 0);
            assert_eq!(iterate, v(&[0.0, 5.0]));
        }
        other => panic!("expected Singular, got {other:?}"),
    }
    // From a regular start the same system converges.
    let rep = solve(&sys, &v(&[0.5, 5.0]), &NewtonOptions::default()).unwrap();
    assert!((rep.solution[0] - 1.0).abs() < 1e-14);
}

#[test]
fn no_root_errors_instead_of_hanging() {
    // x² + 1 = 0 has no real root: ‖F‖ ≥ 1, and near its minimum x = 0 the Newton step
    // −(x² + 1)/2x explodes, so backtracking runs out of damping.
    let sys = Closure(1, |u: &DVector<f64>| {
        Ok::<_, Infallible>((v(&[u[0] * u[0] + 1.0]), m(1, &[2.0 * u[0]])))
    });
    let err = solve(&sys, &v(&[2.0]), &NewtonOptions::default()).unwrap_err();
    match err {
        NewtonError::Diverged {
            residual, iterate, ..
        } => {
            assert!(residual >= 1.0);
            assert!(iterate[0].abs() < 1.0);
        }
        other => panic!("expected Diverged, got {other:?}"),
    }
    // A 2-D variant: circle x² + y² = −1 and a line.
    let sys2 = Closure(2, |u: &DVector<f64>| {
        let (x, y) = (u[0], u[1]);
        Ok::<_, Infallible>((
            v(&[x * x + y * y + 1.0, x - y]),
            m(2, &[2.0 * x, 2.0 * y, 1.0, -1.0]),
        ))
    });
    let err = solve(&sys2, &v(&[3.0, 1.0]), &NewtonOptions::default()).unwrap_err();
    match err {
        // Stalls at the minimiser of ‖F‖ near the origin, ‖F‖ ≈ 1.
        NewtonError::Diverged { residual, .. } => assert!((1.0..1.01).contains(&residual)),
        other => panic!("expected Diverged, got {other:?}"),
    }
}

/// A residual with a floor of 1e-15 (as round-off leaves one): `F(u) = (u − c) ± 1e-15`, the
/// sign that of `u − c`, never zero. With `ftol = xtol = 0` Newton reaches `u = c` and no step
/// decreases `|F| = 1e-15` further: that is convergence at the achieved residual, not
/// divergence (it was reported as "Newton diverged … (residual 1e-15)").
#[test]
fn a_stall_at_the_roundoff_floor_is_convergence() {
    let c = 0.3;
    let sys = Closure(1, move |u: &DVector<f64>| {
        let jump = if u[0] >= c { 1e-15 } else { -1e-15 };
        Ok::<_, Infallible>((v(&[u[0] - c + jump]), m(1, &[1.0])))
    });
    let exact = NewtonOptions {
        ftol: 0.0,
        xtol: 0.0,
        ..NewtonOptions::default()
    };
    let rep = solve(&sys, &v(&[1.0]), &exact).unwrap();
    assert_eq!(rep.converged_by, Convergence::RoundOff);
    assert!((rep.solution[0] - c).abs() <= 1e-15, "{}", rep.solution[0]);
    assert!(
        (1e-15..=2e-15).contains(&rep.residual_norm),
        "{}",
        rep.residual_norm
    );
    // The same floor at 1e-12 is far above round-off: still a failure.
    let sys = Closure(1, move |u: &DVector<f64>| {
        let jump = if u[0] >= c { 1e-12 } else { -1e-12 };
        Ok::<_, Infallible>((v(&[u[0] - c + jump]), m(1, &[1.0])))
    });
    match solve(&sys, &v(&[1.0]), &exact) {
        Err(NewtonError::Diverged { residual, .. }) => assert!(residual >= 1e-12),
        other => panic!("expected Diverged, got {other:?}"),
    }
}

#[test]
fn iteration_limit_is_a_typed_error() {
    // x³ = 0: triple root, linear convergence (factor 2/3), so 5 steps are not enough.
    let sys = Closure(1, |u: &DVector<f64>| {
        Ok::<_, Infallible>((v(&[u[0].powi(3)]), m(1, &[3.0 * u[0] * u[0]])))
    });
    let opts = NewtonOptions {
        max_iters: 5,
        ..Default::default()
    };
    match solve(&sys, &v(&[1.0]), &opts) {
        Err(NewtonError::MaxIterations {
            iterate,
            residual,
            iterations,
        }) => {
            assert_eq!(iterations, 5);
            let x = (2.0f64 / 3.0).powi(5);
            assert!((iterate[0] - x).abs() < 1e-15);
            assert!((residual - x.powi(3)).abs() < 1e-15);
        }
        other => panic!("expected MaxIterations, got {other:?}"),
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
enum WalkerError {
    #[error("guard {guard} never reached from u = {u}")]
    GuardNotReached { guard: usize, u: f64 },
}

#[test]
fn user_errors_at_trial_points_shrink_the_step() {
    // The "stride map" fails for u > 3 (F = u² − 1 elsewhere). Newton's first full step from 0.1
    // lands at 5.05, where it fails; that counts as no decrease: λ = ½ gives 2.575 (‖F‖ 5.6, no
    // decrease either), λ = ¼ gives 1.3375 (‖F‖ 0.79 < 0.99), and Newton goes on to the root 1.
    let evaluations = Cell::new(0);
    let sys = Closure(1, |u: &DVector<f64>| {
        evaluations.set(evaluations.get() + 1);
        if u[0] > 3.0 {
            return Err(WalkerError::GuardNotReached { guard: 2, u: u[0] });
        }
        Ok((v(&[u[0] * u[0] - 1.0]), m(1, &[2.0 * u[0]])))
    });
    let rep = solve(&sys, &v(&[0.1]), &NewtonOptions::default()).unwrap();
    // ‖F‖ ≤ ftol·max(1, |u|) = 1e-12 and F' = 2 bound the error by 5e-13.
    assert!(rep.residual_norm <= 1e-12);
    assert!((rep.solution[0] - 1.0).abs() <= 5e-13);
    assert_eq!(rep.failed_trials, 1);
    assert_eq!(rep.dampings[0], 0.25);
    assert!((rep.residual_history[1] - (1.3375f64.powi(2) - 1.0)).abs() < 1e-15);
    assert_eq!(rep.evaluations, evaluations.get());
}

#[test]
fn user_errors_at_the_guess_pass_through_typed_with_the_iterate() {
    let sys = Closure(1, |u: &DVector<f64>| {
        if u[0] > 3.0 {
            return Err(WalkerError::GuardNotReached { guard: 2, u: u[0] });
        }
        Ok((v(&[u[0] * u[0] - 1.0]), m(1, &[2.0 * u[0]])))
    });
    let err = solve(&sys, &v(&[4.0]), &NewtonOptions::default()).unwrap_err();
    match &err {
        NewtonError::System {
            error: WalkerError::GuardNotReached { guard, u },
            iterate,
            iteration,
        } => {
            assert_eq!((*guard, *u, *iteration), (2, 4.0, 0));
            assert_eq!(iterate, &v(&[4.0]));
        }
        other => panic!("expected System, got {other:?}"),
    }
    assert_eq!(err.iterate(), Some((0, &v(&[4.0]))));
    let text = err.to_string();
    assert!(text.contains("guard 2 never reached"), "{text}");
    assert!(text.contains("at iteration 0 (u = [4.0])"), "{text}");
}

/// `F(u) = u² − 4` (root 2) with two accuracy levels: the coarse residual is off by `offset`;
/// the solver switches when `‖F‖ ≤ threshold` (or when it must). Counts evaluations per level
/// and can make the full-accuracy evaluation fail above `fine_fails_above`.
struct TwoLevel {
    offset: f64,
    threshold: f64,
    fine_fails_above: f64,
    coarse: Cell<bool>,
    coarse_evals: Cell<usize>,
    fine_evals: Cell<usize>,
}

impl TwoLevel {
    fn new(offset: f64, threshold: f64) -> Self {
        Self {
            offset,
            threshold,
            fine_fails_above: f64::INFINITY,
            coarse: Cell::new(true),
            coarse_evals: Cell::new(0),
            fine_evals: Cell::new(0),
        }
    }
}

impl SquareSystem for TwoLevel {
    type Error = WalkerError;
    fn dim(&self) -> usize {
        1
    }
    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), WalkerError> {
        let x = u[0];
        if self.coarse.get() {
            self.coarse_evals.set(self.coarse_evals.get() + 1);
            return Ok((v(&[x * x - 4.0 + self.offset]), m(1, &[2.0 * x])));
        }
        self.fine_evals.set(self.fine_evals.get() + 1);
        if x > self.fine_fails_above {
            return Err(WalkerError::GuardNotReached { guard: 0, u: x });
        }
        Ok((v(&[x * x - 4.0]), m(1, &[2.0 * x])))
    }
    fn coarse_until(&self) -> Option<f64> {
        self.coarse.get().then_some(self.threshold)
    }
    fn refine(&self) -> bool {
        self.coarse.replace(false)
    }
}

#[test]
fn accuracy_switches_at_the_threshold_and_the_solution_is_fine() {
    // Coarse residuals are off by 1e-7; the switch happens at the first accepted iterate with
    // ‖F‖ ≤ 1e-3. Steps from 5: 2.9 (‖F‖ 4.41), 2.1603 (0.667), 2.0058 (0.023), 2.0000084
    // (3.4e-5 ≤ 1e-3): switch, then full-accuracy steps only.
    let sys = TwoLevel::new(1e-7, 1e-3);
    let rep = solve(&sys, &v(&[5.0]), &NewtonOptions::default()).unwrap();
    assert_eq!(rep.solution[0], 2.0);
    assert_eq!(rep.residual_norm, 0.0);
    assert_eq!(rep.refined_at, Some(4));
    assert!(!sys.coarse.get());
    // The residual history holds the fine residual at the iterate where the switch happened.
    let u4 = {
        let mut x = 5.0f64;
        for _ in 0..4 {
            x -= (x * x - 4.0 + 1e-7) / (2.0 * x);
        }
        x
    };
    assert_eq!(rep.residual_history[4], (u4 * u4 - 4.0).abs());
    // 5 coarse evaluations (the guess and 4 full steps), then fine ones only.
    assert_eq!(sys.coarse_evals.get(), 5);
    assert_eq!(rep.evaluations, 5 + sys.fine_evals.get());
}

#[test]
fn convergence_on_a_coarse_residual_is_checked_at_full_accuracy() {
    // The coarse residual has its root at sqrt(4 − 1e-6), where the fine one is 1e-6: a coarse
    // "convergence" there must not be reported (the threshold 0 never switches by itself).
    let sys = TwoLevel::new(1e-6, 0.0);
    let rep = solve(&sys, &v(&[3.0]), &NewtonOptions::default()).unwrap();
    // ‖F‖ ≤ ftol·max(1, |u|) = 2e-12 and F' = 4 bound the error by 5e-13.
    assert!(rep.residual_norm <= 1e-12 * 2.0);
    assert!((rep.solution[0] - 2.0).abs() <= 5e-13);
    assert!(rep.refined_at.is_some());
    let x = rep.solution[0];
    assert_eq!(rep.residual[0], x * x - 4.0);
}

#[test]
fn a_line_search_failing_on_coarse_residuals_is_retried_at_full_accuracy() {
    // The coarse residual u² − 4 + 5 = u² + 1 has no root: its line search fails near 0. The
    // solver then switches, evaluates that iterate again and converges to the fine root.
    let sys = TwoLevel::new(5.0, 0.0);
    let rep = solve(&sys, &v(&[3.0]), &NewtonOptions::default()).unwrap();
    assert!(rep.residual_norm <= 1e-12 * 2.0);
    assert!(
        (rep.solution[0].abs() - 2.0).abs() <= 5e-13,
        "{:?}",
        rep.solution
    );
    assert!(rep.refined_at.is_some());
    // Without the second level the same start fails on the line search.
    let one = Closure(1, |u: &DVector<f64>| {
        Ok::<_, Infallible>((v(&[u[0] * u[0] + 1.0]), m(1, &[2.0 * u[0]])))
    });
    assert!(matches!(
        solve(&one, &v(&[3.0]), &NewtonOptions::default()),
        Err(NewtonError::Diverged { .. })
    ));
}

#[test]
fn a_failure_at_an_accepted_iterate_names_that_iterate() {
    // Coarse evaluations succeed; the full-accuracy evaluation fails above 2.001, so the
    // re-evaluation at the switch (iterate 3, u = 2.0058…, coarse ‖F‖ 0.023 ≤ 0.1) fails.
    let mut sys = TwoLevel::new(1e-7, 0.1);
    sys.fine_fails_above = 2.001;
    let err = solve(&sys, &v(&[5.0]), &NewtonOptions::default()).unwrap_err();
    let u3 = {
        let mut x = 5.0f64;
        for _ in 0..3 {
            x -= (x * x - 4.0 + 1e-7) / (2.0 * x);
        }
        x
    };
    match &err {
        NewtonError::System {
            error: WalkerError::GuardNotReached { u, .. },
            iterate,
            iteration,
        } => {
            assert_eq!(*iteration, 3);
            assert_eq!(iterate, &v(&[u3]));
            assert_eq!(*u, u3);
        }
        other => panic!("expected System, got {other:?}"),
    }
    assert!(err.to_string().contains("at iteration 3"), "{err}");
}

#[test]
fn invalid_input_is_rejected_before_solving() {
    let bad = NewtonOptions {
        armijo: 1.0,
        ..Default::default()
    };
    assert!(matches!(
        solve(&rosenbrock(), &v(&[0.0, 0.0]), &bad),
        Err(NewtonError::InvalidOptions(e)) if e.name == "armijo"
    ));
    assert!(matches!(
        solve(&rosenbrock(), &v(&[0.0]), &NewtonOptions::default()),
        Err(NewtonError::DimensionMismatch {
            what: "initial guess",
            ..
        })
    ));
    assert!(matches!(
        solve(
            &rosenbrock(),
            &v(&[0.0, f64::NAN]),
            &NewtonOptions::default()
        ),
        Err(NewtonError::NonFiniteGuess { index: 1 })
    ));
    // A system returning a Jacobian of the wrong shape.
    let wrong = Closure(2, |u: &DVector<f64>| {
        Ok::<_, Infallible>((u.clone(), DMatrix::identity(3, 3)))
    });
    assert!(matches!(
        solve(&wrong, &v(&[1.0, 1.0]), &NewtonOptions::default()),
        Err(NewtonError::DimensionMismatch {
            what: "jacobian",
            expected: (2, 2),
            found: (3, 3)
        })
    ));
}

#[test]
fn start_at_the_root_and_step_criterion() {
    let rep = solve(&rosenbrock(), &v(&[1.0, 1.0]), &NewtonOptions::default()).unwrap();
    assert_eq!(rep.iterations, 0);
    assert_eq!(rep.evaluations, 1);
    // With ftol = 0 only the step test can stop the iteration.
    let opts = NewtonOptions {
        ftol: 0.0,
        xtol: 1e-10,
        ..Default::default()
    };
    let sys = Closure(1, |u: &DVector<f64>| {
        Ok::<_, Infallible>((v(&[u[0].exp() - 2.0]), m(1, &[u[0].exp()])))
    });
    let rep = solve(&sys, &v(&[0.0]), &opts).unwrap();
    assert_eq!(rep.converged_by, Convergence::Step);
    // The step below xtol is not taken: the error is about that step.
    assert!((rep.solution[0] - 2f64.ln()).abs() <= 1e-10 * (1.0 + 2f64.ln()));
    assert!(rep.residual_norm > 0.0);
    assert_eq!(rep.jacobian[(0, 0)], rep.solution[0].exp());
}

#[test]
fn options_defaults_validation_and_serde() {
    let o = NewtonOptions::default();
    assert_eq!(o.ftol, 1e-12);
    assert_eq!(o.xtol, 1e-14);
    assert_eq!(o.max_iters, 50);
    assert_eq!(o.min_damping, 1.0 / 1024.0);
    assert_eq!(o.armijo, 1e-4);
    assert!(o.validate().is_ok());
    for (field, bad) in [
        (
            "ftol",
            NewtonOptions {
                ftol: -1.0,
                ..o.clone()
            },
        ),
        (
            "xtol",
            NewtonOptions {
                xtol: f64::NAN,
                ..o.clone()
            },
        ),
        (
            "min_damping",
            NewtonOptions {
                min_damping: 0.0,
                ..o.clone()
            },
        ),
        (
            "armijo",
            NewtonOptions {
                armijo: -0.1,
                ..o.clone()
            },
        ),
    ] {
        assert_eq!(bad.validate().unwrap_err().name, field);
    }
    // Missing fields take their defaults; unknown fields are rejected.
    let parsed: NewtonOptions = serde_json::from_str(r#"{"ftol": 1e-10}"#).unwrap();
    assert_eq!(
        parsed,
        NewtonOptions {
            ftol: 1e-10,
            ..o.clone()
        }
    );
    assert!(serde_json::from_str::<NewtonOptions>(r#"{"tol": 1e-10}"#).is_err());
    let text = serde_json::to_string(&o).unwrap();
    assert_eq!(serde_json::from_str::<NewtonOptions>(&text).unwrap(), o);
}

/// The solver works with any argmin problem implementing `Operator` + `Jacobian`, run by
/// argmin's `Executor` directly.
#[test]
fn solver_runs_under_argmin_executor() {
    use argmin::core::{Error, Executor, Jacobian, Operator, State, TerminationReason};
    struct Circle;
    impl Operator for Circle {
        type Param = DVector<f64>;
        type Output = DVector<f64>;
        fn apply(&self, u: &DVector<f64>) -> Result<DVector<f64>, Error> {
            Ok(v(&[u[0] * u[0] + u[1] * u[1] - 1.0, u[0] - u[1]]))
        }
    }
    // Always at full accuracy.
    impl Accuracy for Circle {}
    impl Jacobian for Circle {
        type Param = DVector<f64>;
        type Jacobian = DMatrix<f64>;
        fn jacobian(&self, u: &DVector<f64>) -> Result<DMatrix<f64>, Error> {
            Ok(m(2, &[2.0 * u[0], 2.0 * u[1], 1.0, -1.0]))
        }
    }
    let res = Executor::new(Circle, DampedNewton::new(NewtonOptions::default()))
        .configure(|s: NewtonState| s.param(v(&[2.0, 0.5])).max_iters(20))
        .run()
        .unwrap();
    let state = res.state();
    assert_eq!(
        state.get_termination_reason(),
        Some(&TerminationReason::SolverConverged)
    );
    let u = state.get_param().unwrap();
    assert!((u[0] - 0.5f64.sqrt()).abs() < 1e-14 && (u[1] - u[0]).abs() < 1e-15);
    assert!(res.solver().residual_history().last().unwrap() <= &1e-12);
}
