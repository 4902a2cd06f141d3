//! Several crossings in one step: the located root is the first crossing of the step, not
//! whichever one Brent's method converges to, and exact affine steps are limited by the guards'
//! own time scale (free flight, `A² = 0`, would otherwise take steps that see no time scale).
//! References are closed forms and a fine sampling of the guard.

use proptest::prelude::*;
use saltation_ode::{
    AffineExp, AnyStepper, Direction, Event, Method, OdeSystem, Solver, SolverOptions, Stop,
};

/// `y = (t, v)` with `t' = 1`, `v' = −1`: a clock (autonomous and affine, `A = 0`).
struct Clock;

impl OdeSystem for Clock {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, _y: &[f64], dy: &mut [f64]) {
        dy[0] = 1.0;
        dy[1] = -1.0;
    }
    fn jacobian(&self, _t: f64, _y: &[f64], jac: &mut [f64]) -> bool {
        jac.fill(0.0);
        true
    }
    fn is_autonomous_affine(&self) -> bool {
        true
    }
}

/// The ball over a vibrating table with the table's phase as a state: `y = (x, v, φ)`,
/// `x' = v`, `v' = −1`, `φ' = ω` (autonomous and affine, `A³ = 0`: the exact stepper's steps
/// double without bound).
struct Table {
    omega: f64,
}

impl OdeSystem for Table {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -1.0;
        dy[2] = self.omega;
    }
    fn jacobian(&self, _t: f64, _y: &[f64], jac: &mut [f64]) -> bool {
        jac.fill(0.0);
        jac[1] = 1.0;
        true
    }
    fn is_autonomous_affine(&self) -> bool {
        true
    }
}

/// The first crossing (either way) of `guard(τ)` on the clock from `τ = 0` to `t_end`, with
/// `solver`.
fn located(solver: &mut Solver<AnyStepper>, guard: fn(f64) -> f64, t_end: f64) -> Option<f64> {
    let events = vec![Event::new(move |_t, y: &[f64]| guard(y[0]))];
    solver.start(&Clock, &events, 0.0, &[0.0, 0.0]).unwrap();
    match solver.integrate(&Clock, &events, t_end, None).unwrap() {
        Stop::Event(hit) => Some(hit.t),
        Stop::TimeReached => None,
    }
}

/// The first sign change of `g` on a grid of `n` intervals of `[0, t_end]`, refined by
/// bisection to adjacent floats (the reference: independent of the integrator).
fn reference_first(g: impl Fn(f64) -> f64, t_end: f64, n: usize) -> Option<f64> {
    let g0 = g(0.0);
    let k = (1..=n).find(|&k| g(t_end * k as f64 / n as f64) * g0 <= 0.0)?;
    let (mut a, mut b) = (
        t_end * (k - 1) as f64 / n as f64,
        t_end * k as f64 / n as f64,
    );
    while b - a > 4.0 * f64::EPSILON * b {
        let m = 0.5 * (a + b);
        if g(m) * g0 > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    Some(b)
}

/// The lowest value of `g` on the reference grid (`n` intervals of `[0, t_end]`) from the first
/// crossing `r` to the next one (the depth of the first dip below zero).
fn dip_depth(g: impl Fn(f64) -> f64, r: f64, t_end: f64, n: usize) -> f64 {
    let dt = t_end / n as f64;
    let mut low = g(r);
    let mut t = r + dt;
    while t < t_end {
        let v = g(t);
        if v > 0.0 {
            break;
        }
        low = low.min(v);
        t += dt;
    }
    low
}

/// `sin(50 t) − 1/2` crosses at `50 t = π/6, 5π/6, 13π/6, 17π/6, …`; a fixed step of 0.64
/// (RK4 is exact on the clock) puts the first three crossings into its first sample interval
/// `[0, 0.16]`, whose ends have opposite signs. The located root is the first, `π/300`.
#[test]
fn of_three_crossings_in_one_sample_interval_the_first_is_located() {
    let g: fn(f64) -> f64 = |t| (50.0 * t).sin() - 0.5;
    let opts = SolverOptions {
        h_fixed: Some(0.64),
        ..SolverOptions::default()
    };
    let mut s = Solver::new(Method::Rk4.stepper(), opts).unwrap();
    let t = located(&mut s, g, 2.0).expect("no crossing located");
    let want = std::f64::consts::PI / 300.0;
    assert!((t - want).abs() < 1e-12, "{t} vs {want}");
    assert_eq!(s.stats().steps, 1);
}

fn exact() -> Solver<AnyStepper> {
    Solver::new(
        AnyStepper::AffineExp(AffineExp::new()),
        SolverOptions::with_tol(1e-12),
    )
    .unwrap()
}

/// On the clock (`A = 0`) the exact stepper's steps double without bound. `cos 2t + 1` has
/// double roots (tangencies) at `t = π/2 + kπ`: nothing fires, and the steps pass each one
/// instead of shrinking towards it; lowered by 1e-3 it has a pair of crossings 0.03 apart
/// there, and the first is located (against a fine sampling).
#[test]
fn exact_steps_pass_a_tangency_and_find_a_near_one() {
    let tangent: fn(f64) -> f64 = |t| (2.0 * t).cos() + 1.0;
    let mut s = exact();
    assert_eq!(located(&mut s, tangent, 10.0), None);
    assert!(s.stats().steps < 400, "{} steps", s.stats().steps);
    let g: fn(f64) -> f64 = |t| (2.0 * t).cos() + 1.0 - 1e-3;
    let want = reference_first(g, 10.0, 1_000_000).unwrap();
    let t = located(&mut s, g, 10.0).expect("the near tangency was missed");
    assert!((t - want).abs() < 1e-10, "{t} vs {want}");
}

/// The gap `x − a sin φ` of a ball thrown up at `v₀` from height 1/2 over a table of
/// amplitude `a` and frequency `ω`, at time `t` (closed form).
fn table_gap(t: f64, (v0, omega, phi0, a): (f64, f64, f64, f64)) -> f64 {
    0.5 + v0 * t - 0.5 * t * t - a * (phi0 + omega * t).sin()
}

/// A ball thrown up at 0.1397 over a table of amplitude 0.2697 and frequency 42.41 grazes a
/// crest of the table on its way down (it dips 0.033, 12% of the amplitude, below it for a few
/// milliseconds) at t ≈ 0.8676, well before it falls through. Without the guards' time scale the
/// exact stepper stepped over the graze and located the later
/// crossing at t ≈ 1.0017.
#[test]
fn a_graze_of_the_vibrating_table_inside_what_was_one_long_step_is_found() {
    let p = (
        0.13970660494506815,
        42.40754943795671,
        2.0425944288265003,
        0.26968632995370634,
    );
    let (v0, omega, phi0, a) = p;
    let t_end = 3.0;
    let want = reference_first(|t| table_gap(t, p), t_end, 1_000_000).unwrap();
    assert!(dip_depth(|t| table_gap(t, p), want, t_end, 1_000_000) < -0.03);
    let sys = Table { omega };
    let events = vec![Event::new(move |_t, y: &[f64]| y[0] - a * y[2].sin())];
    let mut s = exact();
    s.start(&sys, &events, 0.0, &[0.5, v0, phi0]).unwrap();
    match s.integrate(&sys, &events, t_end, None).unwrap() {
        Stop::Event(hit) => assert!((hit.t - want).abs() < 1e-10, "{} vs {want}", hit.t),
        Stop::TimeReached => panic!("no impact"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// A ball thrown up over a vibrating table, stepped exactly: its flight is a parabola, so
    /// the steps double without bound while it is far above the table, and the table's phase
    /// makes the gap oscillate (grazing the table's crests on the way down). The first
    /// crossing a fine sampling of the closed-form gap sees (100 points per table period) is the
    /// one located, to 1e-10, where the ball goes at least 5% of the table's amplitude below it
    /// there (without the guards' time scale, 190 of 1967 such cases were missed).
    #[test]
    fn the_first_impact_on_a_vibrating_table_is_located(
        v0 in 0.0f64..6.0, omega in 2.0f64..60.0, phi0 in 0.0f64..6.0, a in 0.01f64..0.3,
    ) {
        let p = (v0, omega, phi0, a);
        let t_end = v0 + (v0 * v0 + 2.0 * (1.5 + a)).sqrt();
        let n = (t_end * omega / std::f64::consts::TAU * 100.0).ceil() as usize + 1000;
        let want = reference_first(|t| table_gap(t, p), t_end, n);
        prop_assume!(want.is_some());
        // A graze shallower than 5% of the table's amplitude may pass between samples.
        prop_assume!(want.is_some_and(|r| dip_depth(|t| table_gap(t, p), r, t_end, n) < -0.05 * a));
        let sys = Table { omega };
        let events = vec![Event::new(move |_t, y: &[f64]| y[0] - a * y[2].sin())];
        let mut s = exact();
        s.start(&sys, &events, 0.0, &[0.5, v0, phi0]).unwrap();
        let got = match s.integrate(&sys, &events, t_end, None).unwrap() {
            Stop::Event(hit) => Some(hit.t),
            Stop::TimeReached => None,
        };
        let want = want.unwrap_or(0.0);
        prop_assert!(got.is_some_and(|t| (t - want).abs() < 1e-10), "{:?} vs {}", got, want);
    }

    /// `sin(ω t + φ) − c` on the clock, stepped exactly: a reference sampling 50 points per
    /// period finds the first crossing, and the exact stepper (its steps limited by the guard's
    /// time scale) locates the same one.
    #[test]
    fn the_first_crossing_a_fine_sampling_sees_is_located(
        w in 5.0f64..200.0, phi in 0.0f64..6.0, c in -0.98f64..0.98,
    ) {
        let g = move |t: f64| (w * t + phi).sin() - c;
        prop_assume!(g(0.0).abs() > 1e-3);
        let want = reference_first(g, 2.0, (2.0 * w * 50.0) as usize);
        let events = vec![Event::new(move |_t, y: &[f64]| (w * y[0] + phi).sin() - c)
            .direction(Direction::Either)];
        let mut s = exact();
        s.start(&Clock, &events, 0.0, &[0.0, 0.0]).unwrap();
        let got = match s.integrate(&Clock, &events, 2.0, None).unwrap() {
            Stop::Event(hit) => Some(hit.t),
            Stop::TimeReached => None,
        };
        match (got, want) {
            (Some(t), Some(r)) => prop_assert!((t - r).abs() < 1e-10, "{} vs {}", t, r),
            (g, r) => prop_assert!(false, "{:?} vs {:?}", g, r),
        }
    }
}

/// The ball on a vibrating table in its chattering regime (`g = ω = 1`; `e = 1/2`, `Γ = 1.9`,
/// where the table out-accelerates gravity and the gap can turn back inside a flight, and
/// `e = 0.8`, `Γ = 0.4`), stepped exactly and restarted after each impact with
/// `v⁺ = v_t − e (v − v_t)`, the accumulation fit off so that the run goes into the chattering.
/// No impact is later than the first root of the closed-form gap from the previous impact (less
/// its rounding there; a fine sampling, 20 000 points over a bound of the flight plus halvings
/// towards its start for quick returns, refined by bisection to where the gap is below zero
/// beyond rounding), and at each the ball is at the table within rounding; down to flights of
/// microseconds, until the flights' dips reach the rounding floor.
#[test]
fn every_impact_of_the_chattering_ball_on_a_vibrating_table_is_the_first() {
    for (e, a) in [(0.5, 1.9), (0.8, 0.4)] {
        chatter(e, 1.0, a);
    }
}

fn chatter(e: f64, omega: f64, a: f64) {
    let sys = Table { omega };
    let guard = vec![Event::new(move |_t, y: &[f64]| y[0] - a * y[2].sin())
        .direction(Direction::Falling)
        .enabled_when(move |_t, y: &[f64]| y[1] < a * omega * y[2].cos())];
    let mut s = exact();
    // Followed into the chattering (the accumulation fit would end the run at its first
    // prediction).
    s.set_zeno_fit(false);
    let (mut t, mut y) = (0.0, vec![a * 0.3f64.sin() + 0.05, 0.0, 0.3]);
    s.start(&sys, &guard, t, &y).unwrap();
    let (mut impacts, mut shortest) = (0, f64::INFINITY);
    while impacts < 400 {
        // The reference: the first time s > 0 where the gap from (t, y) turns negative.
        let (y0, v0, p0) = (y[0], y[1], y[2]);
        // Less its value at the start (rounding: the located impact is just past zero), which
        // the integrator too takes as zero after the reset.
        let g0 = if impacts > 0 { y0 - a * p0.sin() } else { 0.0 };
        let gap = |s: f64| y0 + v0 * s - 0.5 * s * s - a * (p0 + omega * s).sin() - g0;
        let bound = 2.0 * (v0.abs() + a * omega) + 2.0 * (y0.abs() + a).sqrt() + 1.0;
        let n = 20_000;
        let mut grid: Vec<f64> = (1..=60)
            .rev()
            .map(|k| bound / n as f64 / 2f64.powi(k))
            .collect();
        grid.extend((1..=n).map(|k| bound * k as f64 / n as f64));
        // Below zero beyond the rounding of its terms (the phase grows unwrapped).
        let noise = 16.0 * f64::EPSILON * (y0.abs() + a * (1.0 + p0.abs()));
        let below = |s: f64| gap(s) < -noise;
        let k = grid
            .iter()
            .position(|&s| below(s))
            .expect("no impact within the bound");
        let (mut lo, mut hi) = (if k == 0 { 0.0 } else { grid[k - 1] }, grid[k]);
        while hi - lo > 4.0 * f64::EPSILON * (t + hi) {
            let m = 0.5 * (lo + hi);
            if below(m) {
                hi = m;
            } else {
                lo = m;
            }
        }
        let want = t + hi;
        // Flights whose dip below the table is within 100 times rounding have accumulated to
        // the rounding floor: the ball rests on the table (a sticking mode's business).
        let dip = (1..=2000)
            .map(|k| gap(2.0 * hi * k as f64 / 2000.0))
            .fold(f64::INFINITY, f64::min);
        if dip > -100.0 * noise {
            break;
        }
        let hit = match s.integrate(&sys, &guard, t + bound, None) {
            Ok(Stop::Event(hit)) => hit,
            Ok(Stop::TimeReached) => panic!("impact {impacts}: none located, want {want}"),
            Err(saltation_ode::OdeError::Zeno { .. }) => break,
            Err(e) => panic!("impact {impacts}: {e}"),
        };
        // Never after the first crossing beyond rounding (none skipped), and where the ball is
        // at the table within rounding (no event above it).
        assert!(
            hit.t <= want + 1e-12 * want.max(1.0) && gap(hit.t - t) <= noise,
            "impact {impacts}: {} vs {want} (flight from {t}), gap there {:e}",
            hit.t,
            gap(hit.t - t)
        );
        shortest = shortest.min(hit.t - t);
        impacts += 1;
        t = hit.t;
        let vt = a * omega * hit.y[2].cos();
        y = vec![hit.y[0], vt - e * (hit.y[1] - vt), hit.y[2]];
        s.restart(&sys, &guard, t, &y).unwrap();
    }
    assert!(impacts > 20, "e = {e}: {impacts} impacts");
    assert!(shortest < 1e-5, "e = {e}: shortest flight {shortest}");
}
