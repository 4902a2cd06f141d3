//! Event location checked on the bouncing ball (the event-detection example of the lecture
//! "Stability and frequency properties, error control and software"): `x' = v`, `v' = −g`, impact when `x` falls through 0, reset `v⁺ = −e v⁻`.
//! Impact times are known in closed form: from rest at height `x₀`, the first impact is at
//! `t₁ = sqrt(2 x₀ / g)` and the k-th at `t_k = t₁ (1 + 2 Σ_{j=1}^{k−1} e^j)`; they accumulate at
//! `t∞ = t₁ (1 + 2e/(1 − e))`.

use saltation::ode::{
    Direction, Event, FnSystem, Ivp, Method, OdeError, Solver, SolverOptions, Stop,
};

const G: f64 = 9.81;

fn ball() -> FnSystem<impl Fn(f64, &[f64], &mut [f64])> {
    FnSystem::new(2, |_t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -G;
    })
}

fn ground() -> Vec<Event> {
    vec![Event::new(|_t, y: &[f64]| y[0]).direction(Direction::Falling)]
}

fn closed_form_impacts(x0: f64, e: f64, k: usize) -> Vec<f64> {
    let t1 = (2.0 * x0 / G).sqrt();
    (0..k)
        .map(|j| t1 * (1.0 + 2.0 * (1..=j).map(|i| e.powi(i as i32)).sum::<f64>()))
        .collect()
}

/// Bounces with restarts after each reset; returns the impact times (or the error that ended it).
fn bounce(method: Method, tol: f64, e: f64, impacts: usize) -> Result<Vec<f64>, OdeError> {
    let (sys, ev) = (ball(), ground());
    let mut solver = Solver::new(method.stepper(), SolverOptions::with_tol(tol))?;
    solver.start(&sys, &ev, 0.0, &[1.0, 0.0])?;
    // A given number of impacts ends before their accumulation point: only an unbounded count
    // is checked against the predicted accumulation (the other Zeno tests stay).
    solver.set_zeno_fit(impacts == usize::MAX);
    let mut times = Vec::new();
    while times.len() < impacts {
        match solver.integrate(&sys, &ev, 100.0, None)? {
            Stop::Event(hit) => {
                times.push(hit.t);
                let y = [hit.y[0], -e * hit.y[1]];
                solver.restart(&sys, &ev, hit.t, &y)?;
            }
            Stop::TimeReached => break,
        }
    }
    Ok(times)
}

#[test]
fn impact_times_match_the_closed_form() {
    let e = 0.9;
    let exact = closed_form_impacts(1.0, e, 12);
    for (method, tol, rel) in [
        (Method::Dop853, 1e-12, 1e-12),
        (Method::Dp5, 1e-12, 1e-12),
        (Method::Bs23, 1e-10, 1e-10),
    ] {
        let got = bounce(method, tol, e, 12).unwrap();
        assert_eq!(got.len(), 12, "{}", method.name());
        for (k, (g, x)) in got.iter().zip(&exact).enumerate() {
            assert!(
                ((g - x) / x).abs() < rel,
                "{} impact {k}: {g} vs {x} (rel {:e})",
                method.name(),
                ((g - x) / x).abs()
            );
        }
    }
}

#[test]
fn direction_filter_and_enabling_condition() {
    // Thrown up from the ground: x(t) = 5t − g t²/2 crosses 1 upwards, then downwards.
    let sys = ball();
    let (a, b) = {
        let d = (25.0 - 2.0 * G).sqrt();
        ((5.0 - d) / G, (5.0 + d) / G)
    };
    let opts = SolverOptions::with_tol(1e-12);
    let rising = vec![Event::new(|_t, y: &[f64]| y[0] - 1.0).direction(Direction::Rising)];
    let s = Ivp::new(&sys, 0.0, &[0.0, 5.0])
        .events(&rising)
        .solve(Method::Dop853, 2.0, &opts)
        .unwrap();
    assert!(matches!(s.stop, Stop::Event(ref h) if (h.t - a).abs() < 1e-13));
    let falling = vec![Event::new(|_t, y: &[f64]| y[0] - 1.0).direction(Direction::Falling)];
    let s = Ivp::new(&sys, 0.0, &[0.0, 5.0])
        .events(&falling)
        .solve(Method::Dop853, 2.0, &opts)
        .unwrap();
    assert!(matches!(s.stop, Stop::Event(ref h) if (h.t - b).abs() < 1e-13));
    // Either direction, but only enabled while moving down: the first (upward) crossing is skipped.
    let down_only =
        vec![Event::new(|_t, y: &[f64]| y[0] - 1.0).enabled_when(|_t, y: &[f64]| y[1] < 0.0)];
    let s = Ivp::new(&sys, 0.0, &[0.0, 5.0])
        .events(&down_only)
        .solve(Method::Dop853, 2.0, &opts)
        .unwrap();
    match s.stop {
        Stop::Event(h) => {
            assert!((h.t - b).abs() < 1e-13);
            assert!(h.y[1] < 0.0 && (h.y[0] - 1.0).abs() < 1e-13);
        }
        other => panic!("expected the downward crossing, got {other:?}"),
    }
}

#[test]
fn a_guard_the_solution_starts_on_is_not_redetected() {
    // Starts on the ground moving up; must land at t = 2 v / g, not stop at t = 0.
    let (sys, ev) = (ball(), vec![Event::new(|_t, y: &[f64]| y[0])]);
    let s = Ivp::new(&sys, 0.0, &[0.0, 3.0])
        .events(&ev)
        .solve(Method::Dop853, 5.0, &SolverOptions::with_tol(1e-12))
        .unwrap();
    match s.stop {
        Stop::Event(h) => assert!((h.t - 6.0 / G).abs() < 1e-13, "{}", h.t),
        other => panic!("{other:?}"),
    }
}

#[test]
fn two_crossings_inside_one_large_step() {
    // x(t) = 0.1 + 2t − g t²/2 crosses 0.2 twice in [0, 1]; both step ends lie below 0.2.
    let sys = ball();
    let ev = vec![Event::new(|_t, y: &[f64]| y[0] - 0.2).terminal(false)];
    let d = (4.0 - 2.0 * G * 0.1).sqrt();
    let roots = [(2.0 - d) / G, (2.0 + d) / G];
    let opts = SolverOptions {
        h_fixed: Some(1.0),
        ..Default::default()
    };
    let s = Ivp::new(&sys, 0.0, &[0.1, 2.0])
        .events(&ev)
        .solve(Method::Dop853, 1.0, &opts)
        .unwrap();
    assert_eq!(s.stats.steps, 1, "one deliberately large step");
    assert_eq!(
        s.events.len(),
        1,
        "one crossing per guard and step is reported"
    );
    assert!((s.events[0].t - roots[0]).abs() < 1e-13);
    // Split the guards by direction: each reports its own crossing inside the same step.
    let ev = vec![
        Event::new(|_t, y: &[f64]| y[0] - 0.2)
            .direction(Direction::Rising)
            .terminal(false),
        Event::new(|_t, y: &[f64]| y[0] - 0.2)
            .direction(Direction::Falling)
            .terminal(false),
    ];
    let s = Ivp::new(&sys, 0.0, &[0.1, 2.0])
        .events(&ev)
        .solve(Method::Dop853, 1.0, &opts)
        .unwrap();
    let t: Vec<f64> = s.events.iter().map(|h| h.t).collect();
    assert_eq!(t.len(), 2, "{t:?}");
    assert!(
        (t[0] - roots[0]).abs() < 1e-13 && (t[1] - roots[1]).abs() < 1e-13,
        "{t:?}"
    );
    // Without interior samples the step's ends alone have one sign, but the guard's rate at
    // the start takes it toward zero while it ends farther away: a turn, located on the dense
    // output, and both crossings are still found.
    let blind = SolverOptions {
        event_samples: 0,
        ..opts
    };
    let s = Ivp::new(&sys, 0.0, &[0.1, 2.0])
        .events(&ev)
        .solve(Method::Dop853, 1.0, &blind)
        .unwrap();
    let t: Vec<f64> = s.events.iter().map(|h| h.t).collect();
    assert_eq!(t.len(), 2, "{t:?}");
    assert!(
        (t[0] - roots[0]).abs() < 1e-13 && (t[1] - roots[1]).abs() < 1e-13,
        "{t:?}"
    );
}

#[test]
fn zeno_accumulation_stops_with_a_typed_error() {
    for e in [0.2, 0.5, 0.8, 0.95] {
        let t_inf = closed_form_impacts(1.0, e, 1)[0] * (1.0 + 2.0 * e / (1.0 - e));
        let err = bounce(Method::Dop853, 1e-10, e, usize::MAX).unwrap_err();
        match err {
            OdeError::Zeno {
                t,
                events,
                t_inf: Some(at),
                ..
            } => {
                // Recognised early (a handful of impacts), with the accumulation time from the
                // geometric fit of the flight times, exact for the ball.
                assert!(
                    t < t_inf,
                    "e = {e}: stopped at {t}, accumulation at {t_inf}"
                );
                assert!(
                    (at - t_inf).abs() < 1e-9,
                    "e = {e}: estimated {at}, closed form {t_inf}"
                );
                assert!(events < 20, "e = {e}: {events} events");
            }
            other => panic!("e = {e}: expected Zeno, got {other}"),
        }
    }
}

#[test]
fn nan_from_the_vector_field_names_the_time() {
    let sys = FnSystem::new(1, |t: f64, _y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > 1.5 { f64::NAN } else { 1.0 };
    });
    for method in [Method::Dop853, Method::Dp5, Method::Rk4] {
        let opts = SolverOptions {
            h_fixed: (method == Method::Rk4).then_some(0.1),
            ..Default::default()
        };
        let err = Ivp::new(&sys, 0.0, &[0.0])
            .solve(method, 3.0, &opts)
            .unwrap_err();
        match err {
            OdeError::NonFinite { t, .. } => {
                assert!(t <= 1.5 && t > 1.3, "{}: reported t = {t}", method.name())
            }
            other => panic!("{}: expected NonFinite, got {other}", method.name()),
        }
    }
}

#[test]
fn a_guard_never_reached_ends_at_the_end_time() {
    let (sys, ev) = (ball(), vec![Event::new(|_t, y: &[f64]| y[0] + 100.0)]);
    let s = Ivp::new(&sys, 0.0, &[1.0, 0.0])
        .events(&ev)
        .solve(Method::Dop853, 1.0, &SolverOptions::default())
        .unwrap();
    assert_eq!(s.stop, Stop::TimeReached);
    assert_eq!(s.t, 1.0);
}
