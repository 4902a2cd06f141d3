//! No crossing is skipped: a pair of crossings inside one long step, a tangency, a quick return
//! after a restart on the guard, and a ball bouncing down to flights of a few nanoseconds, each
//! against its closed form, with DOP853 (whose steps grow without bound on these polynomial
//! flows) and the exact affine stepper (whose steps see no time scale when `A` is nilpotent).

use proptest::prelude::*;
use saltation_ode::{
    AffineExp, AnyStepper, Direction, Event, Method, OdeSystem, Solver, SolverOptions, Stop,
};

/// `y = (t, v)`: `t' = 1`, `v' = −g` (the clock and the ball's velocity), or the ball's
/// `(x, v)` with `x' = v`, `v' = −g`; autonomous and affine.
struct Affine2 {
    a: [f64; 4],
    b: [f64; 2],
}

impl OdeSystem for Affine2 {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = self.a[0] * y[0] + self.a[1] * y[1] + self.b[0];
        dy[1] = self.a[2] * y[0] + self.a[3] * y[1] + self.b[1];
    }
    fn jacobian(&self, _t: f64, _y: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&self.a);
        true
    }
    fn is_autonomous_affine(&self) -> bool {
        true
    }
}

const G: f64 = 9.81;

fn clock() -> Affine2 {
    Affine2 {
        a: [0.0; 4],
        b: [1.0, 0.0],
    }
}

fn ball() -> Affine2 {
    Affine2 {
        a: [0.0, 1.0, 0.0, 0.0],
        b: [0.0, -G],
    }
}

fn solvers() -> Vec<(&'static str, Solver<AnyStepper>)> {
    let opts = SolverOptions::with_tol(1e-12);
    vec![
        (
            "dop853",
            Solver::new(Method::Dop853.stepper(), opts.clone()).unwrap(),
        ),
        (
            "affine-exp",
            Solver::new(AnyStepper::AffineExp(AffineExp::new()), opts).unwrap(),
        ),
    ]
}

/// The first crossing of `g(t) = (t − c)² − w²` from `t = 0` (`c > w`), on the clock.
fn first_crossing(solver: &mut Solver<AnyStepper>, c: f64, w: f64) -> Option<f64> {
    let sys = clock();
    let guard = vec![Event::new(move |_t, y: &[f64]| (y[0] - c).powi(2) - w * w)];
    solver.start(&sys, &guard, 0.0, &[0.0, 0.0]).unwrap();
    match solver.integrate(&sys, &guard, 3.0, None).unwrap() {
        Stop::Event(hit) => Some(hit.t),
        Stop::TimeReached => None,
    }
}

#[test]
fn a_pair_of_crossings_inside_one_long_step_is_found() {
    for (name, mut s) in solvers() {
        // Crossings at 1.2 ± 1e-3, in steps that are long (the flow is exactly linear).
        let t = first_crossing(&mut s, 1.2, 1e-3).unwrap_or_else(|| panic!("{name}: missed"));
        assert!((t - (1.2 - 1e-3)).abs() < 1e-12, "{name}: {t}");
        assert!(s.stats().steps < 40, "{name}: {} steps", s.stats().steps);
    }
}

#[test]
fn a_double_root_is_no_crossing_and_a_near_tangency_is_a_pair() {
    for (name, mut s) in solvers() {
        // (t − 1.7)² touches zero without a sign change: nothing fires, nothing fails.
        assert_eq!(first_crossing(&mut s, 1.7, 0.0), None, "{name}");
        // (t − 1.7)² − 1e-12: crossings 2e-6 apart.
        let t = first_crossing(&mut s, 1.7, 1e-6).unwrap_or_else(|| panic!("{name}: missed"));
        assert!((t - (1.7 - 1e-6)).abs() < 1e-12, "{name}: {t}");
    }
}

/// A ball with restitution 1/2 dropped from height 1, restarted after each impact with
/// `v⁺ = −e v⁻` at the located state (so the guard starts at its rounded zero): every impact
/// up to 5e-9 before the accumulation point `t∞ = t₁ (1 + e)/(1 − e)` is found at its
/// closed-form time, the last flights lasting a few nanoseconds.
#[test]
fn bouncing_ball_impacts_down_to_nanosecond_flights_at_their_closed_form_times() {
    let e = 0.5;
    let t1 = (2.0 / G).sqrt();
    let t_inf = t1 * (1.0 + e) / (1.0 - e);
    let t_end = t_inf - 5e-9;
    for (name, mut s) in solvers() {
        let sys = ball();
        let ground = vec![Event::new(|_t, y: &[f64]| y[0])
            .direction(Direction::Falling)
            .enabled_when(|_t, y: &[f64]| y[1] < 0.0)];
        s.start(&sys, &ground, 0.0, &[1.0, 0.0]).unwrap();
        let (mut want, mut v) = (t1, G * t1);
        let mut shortest = f64::INFINITY;
        let mut impacts = 0;
        loop {
            match s.integrate(&sys, &ground, t_end, None).unwrap() {
                Stop::TimeReached => break,
                Stop::Event(hit) => {
                    assert!(
                        (hit.t - want).abs() < 1e-12,
                        "{name}, impact {impacts}: {} vs {want}",
                        hit.t
                    );
                    impacts += 1;
                    v *= e;
                    let flight = 2.0 * v / G;
                    shortest = shortest.min(flight);
                    s.restart(&sys, &ground, hit.t, &[hit.y[0], -e * hit.y[1]])
                        .unwrap();
                    want += flight;
                }
            }
        }
        // Every impact before t_end: flights down to 2.5e-9 (2 v_k/g < 1e-8 after 27).
        assert!(want > t_end, "{name}: the impact at {want} was missed");
        assert!(shortest < 1e-8, "{name}: shortest flight {shortest}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// A pair of crossings at `c ± w` anywhere in `(0, 3)`, `w` from 1e-6 to 0.1: a reference
    /// sampling of `(t − c)² − w²` on a grid finer than `w` sees the pair; the integrator must
    /// find the first crossing.
    #[test]
    fn every_pair_a_fine_sampling_sees_is_found(c in 0.2f64..2.8, lw in -6.0f64..-1.0) {
        let w = 10f64.powf(lw);
        let n = (3.0 / (0.5 * w)).ceil() as usize;
        let seen = (0..=n).any(|k| {
            let t = 3.0 * k as f64 / n as f64;
            (t - c).powi(2) < w * w
        });
        prop_assume!(seen);
        for (name, mut s) in solvers() {
            let t = first_crossing(&mut s, c, w);
            prop_assert!(t.is_some(), "{} missed the pair at {} ± {}", name, c, w);
            let t = t.unwrap_or(0.0);
            prop_assert!((t - (c - w)).abs() < 1e-11, "{}: {} vs {}", name, t, c - w);
        }
    }
}

/// Every method (fixed steps of 1/2, with the error control off for the adaptive ones) and
/// the exact affine stepper, on the clock: the solvers of the turn tests.
fn every_solver() -> Vec<(&'static str, Solver<AnyStepper>)> {
    let opts = SolverOptions {
        h_fixed: Some(0.5),
        ..SolverOptions::default()
    };
    let mut v: Vec<(&'static str, Solver<AnyStepper>)> = Method::ALL
        .into_iter()
        .map(|m| (m.name(), Solver::new(m.stepper(), opts.clone()).unwrap()))
        .collect();
    v.push((
        "affine-exp",
        Solver::new(AnyStepper::AffineExp(AffineExp::new()), opts).unwrap(),
    ));
    v
}

/// The first rising crossing of `cos(t − c) − cos(w/2) − lift` on the clock up to `t = 3`.
fn first_rising(solver: &mut Solver<AnyStepper>, c: f64, w: f64, lift: f64) -> Option<f64> {
    let sys = clock();
    let guard = vec![
        Event::new(move |_t, y: &[f64]| (y[0] - c).cos() - (0.5 * w).cos() - lift)
            .direction(Direction::Rising),
    ];
    solver.start(&sys, &guard, 0.0, &[0.0, 0.0]).unwrap();
    match solver.integrate(&sys, &guard, 3.0, None).unwrap() {
        Stop::Event(hit) => Some(hit.t),
        Stop::TimeReached => None,
    }
}

/// `cos(t − c) − cos(w/2)` is positive only for `|t − c| < w/2`: a pair of crossings of width
/// `w` around the top of a turn, inside the step `[1, 1.5]` of every method (fixed steps of
/// 1/2 on the clock, whose flow every method and dense output follows exactly), between its
/// screen samples (at 1.125, 1.25, 1.375) and far narrower than their spacing. The parabola
/// through the samples misses the cosine's quartic term (about 10⁻⁵ at their spacing) by more
/// than the dip `w²/8` for the narrow pairs (a screen of sample curvature alone missed
/// `w = 5e-4`), so only the turn, located on the dense output, finds them: the first crossing
/// `c − w/2` is located for `w` from `h/10` down to `h/10⁴`.
#[test]
fn a_pair_of_crossings_around_a_turn_inside_one_step_is_found_by_every_method() {
    let c = 1.2345;
    for (name, mut s) in every_solver() {
        for w in [5e-2, 5e-3, 5e-4, 5e-5] {
            let t = first_rising(&mut s, c, w, 0.0)
                .unwrap_or_else(|| panic!("{name}: the pair of width {w} was missed"));
            let want = c - 0.5 * w;
            // The guard's slope there is sin(w/2) ≈ w/2: rounding of 1e-16 moves the root by
            // about 2e-16/w.
            assert!((t - want).abs() < 1e-10, "{name}, w = {w}: {t} vs {want}");
        }
    }
}

/// The same turn lowered by `10⁻⁹` peaks just below zero (`w²/8 − 10⁻⁹ < 0` for `w = 5e-5`,
/// and a tangency `w = 0` lowered): no crossing, so nothing fires.
#[test]
fn a_turn_that_peaks_just_below_zero_fires_nothing() {
    for (name, mut s) in every_solver() {
        for (w, lift) in [(5e-5, 1e-9), (0.0, 1e-9), (0.0, 1e-14)] {
            assert_eq!(
                first_rising(&mut s, 1.2345, w, lift),
                None,
                "{name}, w = {w}"
            );
        }
    }
}
