//! Events.

use super::*;

#[test]
fn falling_ball_hits_the_ground_at_the_closed_form_time() {
    let g = 9.81;
    let ball = FnSystem::new(2, move |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -g;
    });
    // With linear drag c: h(t) = 1 − (g/c) t + (g/c²)(1 − e^{−ct}); its root by Newton.
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
    for method in METHODS {
        // The free fall is a quadratic: integrated and interpolated exactly at any tolerance.
        let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(1e-6)).unwrap();
        solver.start(&ball, &ground(), 0.0, &[1.0, 0.0]).unwrap();
        let Stop::Event(hit) = solver.integrate(&ball, &ground(), 10.0, None).unwrap() else {
            panic!("{method:?}: the ball never landed");
        };
        assert!((hit.t - (2.0f64 / g).sqrt()).abs() < 1e-10, "{}", hit.t);
        // With drag, a second-order method needs tol = 1e-14 (global error ~ tol^(2/3)).
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
}

#[test]
fn bouncing_ball_restarts_after_every_impact() {
    let g = 9.81;
    let e = 0.8;
    let ball = FnSystem::new(2, move |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -g;
    });
    for method in METHODS {
        let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(1e-8)).unwrap();
        solver.start(&ball, &ground(), 0.0, &[1.0, 0.0]).unwrap();
        // Impacts at t₁ = √(2/g), then every 2 v_k / g with v_{k+1} = e v_k.
        let mut t_want = (2.0 / g).sqrt();
        let mut v = g * t_want;
        for bounce in 0..6 {
            let Stop::Event(hit) = solver.integrate(&ball, &ground(), 10.0, None).unwrap() else {
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
}
