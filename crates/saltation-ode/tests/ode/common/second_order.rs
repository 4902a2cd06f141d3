//! Checks shared by the second-order stiff methods (the trapezoidal rule, TR-BDF2 and the
//! Rosenbrock 2(3) W-method): each takes the method and asserts against a closed form, so that
//! the suites of the three run one body each instead of a copy per suite.

use super::problems::{falling_ball, ground, smooth, smooth_exact, Massive, RiccatiRotation};
use super::problems::{Robertson, G, ROBERTSON_40};
use super::T_END;
use saltation_ode::{Atol, FnSystem, Ivp, Method, Solver, SolverOptions, Stats, Stop};

/// The free fall from height 1 lands at `√(2/g)` (a quadratic: exact at tolerance 1e-6), and
/// with linear drag `c` at the root of `h(t) = 1 − (g/c) t + (g/c²)(1 − e^{−ct})` (by Newton),
/// at tolerance 1e-14 (a second-order method's global error goes like `tol^{2/3}`): both to
/// 1e-10.
pub fn assert_falling_balls_land_on_time(method: Method) {
    let g = G;
    let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(1e-6)).unwrap();
    solver
        .start(&falling_ball(), &ground(), 0.0, &[1.0, 0.0])
        .unwrap();
    let Stop::Event(hit) = solver
        .integrate(&falling_ball(), &ground(), 10.0, None)
        .unwrap()
    else {
        panic!("{method:?}: the ball never landed");
    };
    assert!(
        (hit.t - (2.0f64 / g).sqrt()).abs() < 1e-10,
        "{method:?}: {}",
        hit.t
    );
    let c = 0.5;
    let drag = FnSystem::new(2, move |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -g - c * y[1];
    });
    let height = |t: f64| 1.0 - (g / c) * t + (g / (c * c)) * (1.0 - (-c * t).exp());
    let speed = |t: f64| (g / c) * ((-c * t).exp() - 1.0);
    let mut t_drag = 0.5;
    for _ in 0..50 {
        t_drag -= height(t_drag) / speed(t_drag);
    }
    let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(1e-14)).unwrap();
    solver.start(&drag, &ground(), 0.0, &[1.0, 0.0]).unwrap();
    let Stop::Event(hit) = solver.integrate(&drag, &ground(), 10.0, None).unwrap() else {
        panic!("{method:?}: the ball never landed");
    };
    let st = solver.stats();
    println!(
        "{method:?} drag ball: hit time error {:.2e}, {} steps, {} f, {} LU",
        hit.t - t_drag,
        st.steps,
        st.rhs_evals,
        st.lu_decompositions
    );
    assert!(
        (hit.t - t_drag).abs() < 1e-10,
        "{method:?}: {} vs {t_drag}",
        hit.t
    );
}

/// A ball bouncing with restitution 0.8, restarted after each impact: impacts at
/// `t₁ = √(2/g)`, then every `2 v_k / g` with `v_{k+1} = 0.8 v_k`, each to 1e-10.
pub fn assert_bouncing_ball_restarts(method: Method) {
    let (g, e) = (G, 0.8);
    let ball = falling_ball();
    let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(1e-8)).unwrap();
    solver.start(&ball, &ground(), 0.0, &[1.0, 0.0]).unwrap();
    let mut t_want = (2.0 / g).sqrt();
    let mut v = g * t_want;
    // The impacts accumulate at t = 9 t₁ = 4.064: a span past that ends in a Zeno error after a
    // few impacts, so the span stops before it.
    for bounce in 0..6 {
        let Stop::Event(hit) = solver.integrate(&ball, &ground(), 4.0, None).unwrap() else {
            panic!("{method:?}: no impact {bounce}");
        };
        assert!(
            (hit.t - t_want).abs() < 1e-10,
            "{method:?} impact {bounce}: {}",
            hit.t
        );
        v *= e;
        solver.restart(&ball, &ground(), hit.t, &[0.0, v]).unwrap();
        t_want += 2.0 * v / g;
    }
}

/// `M y' = M g(t, y)` with a constant nonsingular `M` has the smooth problem's solution: the
/// same formulas in another basis, so the same accuracy within a factor 3 at two tolerances,
/// and the error falls like `tol^{2/3}` (by more than 30 over three decades).
pub fn assert_mass_matrix_matches_plain(method: Method) {
    let mut errs = Vec::new();
    for tol in [1e-5, 1e-8] {
        let s = Ivp::new(&Massive { singular: false }, 0.0, &smooth_exact(0.0))
            .solve(method, T_END, &SolverOptions::with_tol(tol))
            .unwrap();
        let plain = Ivp::new(&smooth(), 0.0, &smooth_exact(0.0))
            .solve(method, T_END, &SolverOptions::with_tol(tol))
            .unwrap();
        let ex = smooth_exact(T_END);
        let err = (0..3).map(|i| (s.y[i] - ex[i]).abs()).fold(0.0, f64::max);
        let err_plain = (0..3)
            .map(|i| (plain.y[i] - ex[i]).abs())
            .fold(0.0, f64::max);
        assert!(
            err < 3.0 * err_plain && err_plain < 3.0 * err,
            "{method:?}: {err} vs {err_plain}"
        );
        errs.push(err);
    }
    assert!(errs[0] / errs[1] > 30.0, "{method:?}: {errs:?}");
}

/// [`RiccatiRotation`] with its 3 × 3 variational matrix, the analytic and the
/// finite-difference Jacobian, to t = 2 against the closed form: `Φ` is advanced by the same
/// formula with the same steps as `x` though it is not in the error norm, so it is as accurate
/// within a factor 3, and both errors fall like `tol^{2/3}` (by more than 30 over three
/// decades).
pub fn assert_variational_closed_form(method: Method) {
    let mut y0 = vec![0.0; 12];
    y0[..3].copy_from_slice(&[1.0, 1.0, 0.0]);
    for k in 0..3 {
        y0[3 + 4 * k] = 1.0;
    }
    let (s, c) = (RiccatiRotation::OMEGA * 2.0).sin_cos();
    let x = [1.0 / 3.0, c, -s];
    let phi = [1.0 / 9.0, 0.0, 0.0, 0.0, c, s, 0.0, -s, c];
    for analytic in [true, false] {
        let mut errs = Vec::new();
        for tol in [1e-5, 1e-8] {
            let opts = SolverOptions {
                error_dims: Some(3),
                ..SolverOptions::with_tol(tol)
            };
            let sol = Ivp::new(&RiccatiRotation { analytic }, 0.0, &y0)
                .solve(method, 2.0, &opts)
                .unwrap();
            let ex = (0..3).map(|i| (sol.y[i] - x[i]).abs()).fold(0.0, f64::max);
            let ep = (0..9)
                .map(|i| (sol.y[3 + i] - phi[i]).abs())
                .fold(0.0, f64::max);
            println!(
                "{method:?} analytic J {analytic}, tol {tol:e}: x error {ex:.2e}, Φ error \
                 {ep:.2e}, {} steps",
                sol.stats.steps
            );
            assert!(ep < 3.0 * ex, "{method:?}: x {ex}, Φ {ep}");
            errs.push((ex, ep));
        }
        assert!(
            errs[0].0 / errs[1].0 > 30.0 && errs[0].1 / errs[1].1 > 30.0,
            "{method:?}: {errs:?}"
        );
    }
}

/// Robertson's problem to t = 40 at `rtol` (atol scaled to each component: `1e-6`, `1e-10`,
/// `1e-6` times `rtol`), as an ODE or as the index-1 DAE: the relative errors against the
/// published values and the work.
pub fn robertson(method: Method, dae: bool, rtol: f64) -> ([f64; 3], Stats) {
    let opts = SolverOptions {
        rtol,
        atol: Atol::Vector(vec![1e-6 * rtol, 1e-10 * rtol, 1e-6 * rtol]),
        ..Default::default()
    };
    let s = Ivp::new(
        &Robertson {
            dae,
            jacobian: true,
        },
        0.0,
        &[1.0, 0.0, 0.0],
    )
    .solve(method, 40.0, &opts)
    .unwrap();
    let rel = std::array::from_fn(|i| ((s.y[i] - ROBERTSON_40[i]) / ROBERTSON_40[i]).abs());
    (rel, s.stats)
}
