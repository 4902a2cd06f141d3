//! Events through `Solver`, and the restart at order 1 after them (or after a truncation).

use saltation_ode::{OdeSystem, Solver, SolverOptions, Stepper, Stop};

use super::FAMILIES;
use crate::common::{falling_ball, ground, smooth, smooth_exact, G};

/// A ball dropped from height 1 hits the ground at `t = √(2/g)`; the event is located on the
/// dense output through `Solver` to 1e-10 (at tolerance 10⁻¹²: the position error sums the
/// local errors of the ~30 steps, so tolerance 10⁻¹⁰ gives event times good to about 10⁻¹⁰
/// only). Integrating on from the event (after the solver's
/// truncation) restarts at order 1 and follows `y = 1 − g t²/2` further down.
#[test]
fn falling_ball_event_and_the_restart_after_it() {
    let g = G;
    let sys = falling_ball();
    let ground = ground();
    for method in FAMILIES {
        let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(1e-12)).unwrap();
        solver.start(&sys, &ground, 0.0, &[1.0, 0.0]).unwrap();
        let hit = match solver.integrate(&sys, &ground, 10.0, None).unwrap() {
            Stop::Event(hit) => hit,
            Stop::TimeReached => panic!("the ball never landed"),
        };
        let t_hit = (2.0 / g).sqrt();
        println!(
            "{} ball: event time error {:.1e}, steps {}",
            method.name(),
            (hit.t - t_hit).abs(),
            solver.stats().steps
        );
        assert!((hit.t - t_hit).abs() < 1e-10, "{} vs {t_hit}", hit.t);
        assert!(hit.y[0].abs() < 1e-10 && (hit.y[1] + g * t_hit).abs() < 1e-9);
        assert_eq!(solver.stepper().order(), 1, "restart pending at order 1");
        // On through the ground (the guard only fires on the way down once).
        let stop = solver.integrate(&sys, &ground, 0.6, None).unwrap();
        assert_eq!(stop, Stop::TimeReached);
        assert!(
            (solver.y()[0] - (1.0 - 0.5 * g * 0.36)).abs() < 1e-9,
            "{:?}",
            solver.y()
        );
        assert!((solver.y()[1] + g * 0.6).abs() < 1e-9);
    }
}

/// `truncate` puts the stepper at the cut point; the next step begins a new history there at
/// order 1 (with a fresh `f`), and its dense output then covers the new step only.
#[test]
fn truncate_restarts_at_order_one_from_the_cut_point() {
    let sys = smooth();
    let opts = SolverOptions::with_tol(1e-9);
    for method in FAMILIES {
        let mut s = method.stepper();
        let mut stats = Default::default();
        s.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
            .unwrap();
        while s.t() < 2.0 {
            s.step(&sys, 5.0, &opts, &mut stats).unwrap();
        }
        assert!(s.order() > 2, "{}", s.order());
        let e = s.ends();
        let t_cut = 0.5 * (e.t0 + e.t1);
        let mut y_cut = [0.0; 3];
        s.dense(&sys, t_cut, &mut y_cut, &mut stats);
        s.truncate(&sys, t_cut, &y_cut, &mut stats);
        assert_eq!((s.t(), s.y()), (t_cut, &y_cut[..]));
        assert_eq!(s.order(), 1);
        s.step(&sys, 5.0, &opts, &mut stats).unwrap();
        assert_eq!(s.ends().t0, t_cut);
        assert_eq!(s.order(), 1);
        let mut f = [0.0; 3];
        sys.rhs(t_cut, &y_cut, &mut f);
        assert_eq!(s.ends().f0, &f[..], "f at the cut point");
        while s.t() < 5.0 {
            s.step(&sys, 5.0, &opts, &mut stats).unwrap();
        }
        for (got, want) in s.y().iter().zip(smooth_exact(5.0)) {
            assert!((got - want).abs() < 1e-6, "{:?}", s.y());
        }
    }
}
