//! The Adams–Bashforth–Moulton PECE code (`abm`, MATLAB `ode113`) against closed forms and
//! published behaviour: measured orders (solution and dense output), tolerance
//! proportionality, work against DP5, a variational system, events through `Solver`, bad
//! input, the start phase of Shampine & Gordon's STEP, and allocation-free stepping.
//!
//! The code's "order k" is that of its error estimate; with local extrapolation the propagated
//! solution has order `k + 1` (MATLAB: "a formula of order 13 is used to form the error
//! estimate and the function does local extrapolation"), so every measured order below is
//! compared with `k + 1`.

use saltation_ode::{
    Abm, FnSystem, Ivp, Method, MultistepOptions, OdeError, OdeSystem, Sampling, Solver,
    SolverOptions, Stats, Stepper, Stop,
};
use std::f64::consts::PI;

use crate::common::{
    allocations, decay_then_nan, falling_ball, ground, max_abs_diff, slope, smooth, smooth_exact, G,
};

// ---------------------------------------------------------------------------------------------
// Helpers.

fn capped(k: usize, opts: SolverOptions) -> SolverOptions {
    SolverOptions {
        multistep: MultistepOptions { max_order: Some(k) },
        ..opts
    }
}

// ---------------------------------------------------------------------------------------------
// Measured orders.

/// A rotation by the angle `u(t) = sin^F(t/2)`, `F = k + 3`: `y = (cos u, sin u)` solves
/// `y₁' = −u' y₂`, `y₂' = u' y₁`. The solution is flat at `t = 0` (its derivatives of orders
/// 2..F−1 vanish), so the local errors of the start-up steps, where the fixed-step code runs at
/// orders 1, 2, …, k−1, are all `O(h^F)`: two orders beyond the global error `O(h^{k+1})` of
/// the order-k steps, which is what is then measured. (On a generic problem the first step,
/// of order 1 with local error `O(h³)`, would dominate the global error of every `k ≥ 2`.)
struct FlatRotation {
    f: i32,
}

impl FlatRotation {
    fn u(&self, t: f64) -> f64 {
        (0.5 * t).sin().powi(self.f)
    }
    fn exact(&self, t: f64) -> [f64; 2] {
        let u = self.u(t);
        [u.cos(), u.sin()]
    }
}

impl OdeSystem for FlatRotation {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (s, c) = (0.5 * t).sin_cos();
        let w = 0.5 * self.f as f64 * s.powi(self.f - 1) * c;
        dy[0] = -w * y[1];
        dy[1] = w * y[0];
    }
}

/// Step counts `20 · 2^{j/4}`, `j = 0..28`, over one period `[0, 2π]`.
fn step_counts() -> Vec<usize> {
    (0..28)
        .map(|j| (20.0 * 2f64.powf(j as f64 / 4.0)).round() as usize)
        .collect()
}

/// Largest error over the step points of the fixed-step code of order `k` with `n` steps.
fn fixed_step_error(k: usize, n: usize) -> f64 {
    let sys = FlatRotation { f: k as i32 + 3 };
    let opts = capped(
        k,
        SolverOptions {
            h_fixed: Some(2.0 * PI / n as f64),
            ..Default::default()
        },
    );
    let s = Ivp::new(&sys, 0.0, &sys.exact(0.0))
        .sampling(Sampling::Steps)
        .solve(Method::Abm, 2.0 * PI, &opts)
        .unwrap();
    assert_eq!(s.stats.steps, n);
    (0..s.trajectory.len())
        .map(|j| max_abs_diff(s.trajectory.state(j), &sys.exact(s.trajectory.t[j])))
        .fold(0.0, f64::max)
}

/// The errors in `(1e-12, 1e-5)`: above round-off, below the pre-asymptotic range.
fn asymptotic(points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    points
        .into_iter()
        .filter(|&(_, e)| e > 1e-12 && e < 1e-5)
        .collect()
}

/// The fixed-step code with `max_order = k` (the order ramps 1, 2, …, k and stays) converges
/// with order `k + 1`: least-squares slope of the largest error against the number of steps
/// over the errors between 1e-12 and 1e-5 (measured: 2.005, 2.999, 4.06, 4.97, 6.06, 6.84,
/// 7.90, 9.09, 10.08, 10.79, 12.06, 12.71 for k = 1..12). For k = 12 that window spans a
/// factor of only about 3.5 in the step size and still holds the next error term; the
/// asymptotic range of an order-13 formula is too short in double precision for ±0.3, so
/// k = 12 is checked to converge faster than order 12.5.
#[test]
fn fixed_step_order_is_k_plus_one() {
    let mut measured = Vec::new();
    for k in 1..=12 {
        let pts: Vec<(f64, f64)> = step_counts()
            .into_iter()
            .map(|n| (n as f64, fixed_step_error(k, n)))
            .collect();
        let pts = asymptotic(pts);
        assert!(pts.len() >= 5, "k = {k}: too few points in range: {pts:?}");
        let p = -slope(&pts);
        measured.push(p);
        let want = k as f64 + 1.0;
        if k < 12 {
            assert!(
                (p - want).abs() <= 0.3,
                "k = {k}: order {p:.3}, want {want}; {pts:?}"
            );
        } else {
            assert!(p > 12.5, "k = 12: order {p:.3}; {pts:?}");
        }
    }
    println!("fixed-step orders for k = 1..12: {measured:.3?}");
}

/// Largest error of the dense output at `t = (j + θ) h`, `θ = 1/4, 1/2, 3/4`, every step.
fn fixed_step_dense_error(k: usize, n: usize) -> f64 {
    let sys = FlatRotation { f: k as i32 + 3 };
    let h = 2.0 * PI / n as f64;
    let times: Vec<f64> = (0..n)
        .flat_map(|j| [0.25, 0.5, 0.75].map(|th| (j as f64 + th) * h))
        .collect();
    let opts = capped(
        k,
        SolverOptions {
            h_fixed: Some(h),
            ..Default::default()
        },
    );
    let s = Ivp::new(&sys, 0.0, &sys.exact(0.0))
        .sampling(Sampling::Times(times.clone()))
        .solve(Method::Abm, 2.0 * PI, &opts)
        .unwrap();
    assert_eq!(s.trajectory.len(), times.len());
    times
        .iter()
        .enumerate()
        .map(|(j, &t)| max_abs_diff(s.trajectory.state(j), &sys.exact(t)))
        .fold(0.0, f64::max)
}

/// The dense output (Shampine & Gordon's SINTRP polynomial) converges with the order of the
/// solution, `k + 1`: its own error inside a step is `O(h^{k+2})`, so an interpolant of lower
/// order would show here as a smaller slope.
#[test]
fn dense_output_has_the_order_of_the_solution() {
    for k in [1, 2, 3, 4, 6, 8, 10] {
        let pts: Vec<(f64, f64)> = step_counts()
            .into_iter()
            .map(|n| (n as f64, fixed_step_dense_error(k, n)))
            .collect();
        let pts = asymptotic(pts);
        assert!(pts.len() >= 5, "k = {k}: {pts:?}");
        let p = -slope(&pts);
        let want = k as f64 + 1.0;
        assert!(
            (p - want).abs() <= 0.3,
            "k = {k}: dense order {p:.3}, want {want}; {pts:?}"
        );
    }
}

/// Adaptive runs with `max_order = k`: the controller keeps the order-k error estimate at the
/// tolerance, `C h^{k+1} ≈ tol`, so the number of steps grows like `tol^{−1/(k+1)}`, while the
/// extrapolated solution's local errors `O(h^{k+2})` add up to a global error `∝ tol`; hence
/// `error ∝ N^{−(k+1)}` (as for a fixed step-size function scaled by `N`). Orders 1–4: above
/// that, `max_order` is a cap, not the order, and the order selection lowers the order at the
/// looser tolerances (hence the fixed-step measurement above). Largest error over the step
/// points on `[0, 10]`, tolerances 10^{−3}..10^{−11} by quarter decades.
#[test]
fn adaptive_runs_with_a_capped_order_converge_with_order_k_plus_one() {
    let sys = smooth();
    for (k, lo, hi) in [
        (1, 3.0, 7.0),
        (2, 4.0, 11.0),
        (3, 4.0, 12.0),
        (4, 4.0, 12.0),
    ] {
        let mut pts = Vec::new();
        let mut e: f64 = lo;
        while e <= hi + 1e-9 {
            let opts = SolverOptions {
                max_steps: 1_000_000,
                ..capped(k, SolverOptions::with_tol(10f64.powf(-e)))
            };
            let s = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
                .sampling(Sampling::Steps)
                .solve(Method::Abm, 10.0, &opts)
                .unwrap();
            let err = (0..s.trajectory.len())
                .map(|j| max_abs_diff(s.trajectory.state(j), &smooth_exact(s.trajectory.t[j])))
                .fold(0.0, f64::max);
            pts.push((s.stats.steps as f64, err));
            e += 0.25;
        }
        let p = -slope(&pts);
        let want = k as f64 + 1.0;
        assert!(
            (p - want).abs() <= 0.3,
            "k = {k}: order {p:.3}, want {want}; {pts:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Tolerance proportionality and work.

/// Largest error scaled by the tolerance's weight `w_i = tol (1 + |y_i|)` (rtol = atol = tol).
fn scaled_dev(y: &[f64], ex: &[f64], tol: f64) -> f64 {
    y.iter()
        .zip(ex)
        .map(|(a, b)| (a - b).abs() / (tol * (1.0 + b.abs())))
        .fold(0.0, f64::max)
}

/// Scaled errors (see [`scaled_dev`]) at every step and of the dense output (9 points per unit
/// time) for `rtol = atol = tol` on `[0, 10]` with the default order cap 12, and the number of
/// evaluations of f.
fn errors_at(tol: f64) -> (f64, f64, usize) {
    let sys = smooth();
    let opts = SolverOptions::with_tol(tol);
    let steps = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
        .sampling(Sampling::Steps)
        .solve(Method::Abm, 10.0, &opts)
        .unwrap();
    let tr = &steps.trajectory;
    let worst_step = (0..tr.len())
        .map(|j| scaled_dev(tr.state(j), &smooth_exact(tr.t[j]), tol))
        .fold(0.0, f64::max);
    let times: Vec<f64> = (1..90).map(|j| j as f64 / 9.0).collect();
    let dense = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
        .sampling(Sampling::Times(times.clone()))
        .solve(Method::Abm, 10.0, &opts)
        .unwrap();
    let worst_dense = times
        .iter()
        .enumerate()
        .map(|(j, &t)| scaled_dev(dense.trajectory.state(j), &smooth_exact(t), tol))
        .fold(0.0, f64::max);
    (worst_step, worst_dense, steps.stats.rhs_evals)
}

/// The global error tracks the tolerance: at rtol = atol = 1e-4, 1e-7, 1e-10 the largest
/// error over the steps and of the dense output, in units of the error weight
/// `atol + rtol |y|`, stays within a factor 10 of 1 (above 0.01: no wasted accuracy either),
/// and the errors fall by more than 1e5 over the six decades.
#[test]
fn global_error_is_proportional_to_the_tolerance() {
    let mut rows = Vec::new();
    for tol in [1e-4, 1e-7, 1e-10] {
        let (step, dense, evals) = errors_at(tol);
        rows.push((tol, step, dense, evals));
    }
    println!("(tol, step error / weight, dense error / weight, rhs evals): {rows:?}");
    for &(tol, a, b, _) in &rows {
        for r in [a, b] {
            assert!(
                (0.01..10.0).contains(&r),
                "tol {tol:e}: error/weight {r}; {rows:?}"
            );
        }
    }
    assert!(rows[0].1 * 1e-4 / (rows[2].1 * 1e-10) > 1e5, "{rows:?}");
}

/// The Adams code's selling point: at rtol = atol = 1e-10 on a smooth problem it needs far
/// fewer evaluations of f than DP5 (2 per step at orders up to 12, against 6 per step at
/// order 5), for an error no larger.
#[test]
fn fewer_rhs_evaluations_than_dp5_on_a_smooth_problem() {
    let sys = smooth();
    let opts = SolverOptions::with_tol(1e-10);
    let run = |m: Method| {
        let s = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
            .solve(m, 10.0, &opts)
            .unwrap();
        (s.stats.rhs_evals, max_abs_diff(&s.y, &smooth_exact(10.0)))
    };
    let (abm, e_abm) = run(Method::Abm);
    let (dp5, e_dp5) = run(Method::Dp5);
    println!("rhs evals at 1e-10: abm {abm} (error {e_abm:.2e}), dp5 {dp5} (error {e_dp5:.2e})");
    assert!(2 * abm < dp5, "abm {abm} vs dp5 {dp5}");
    assert!(e_abm <= e_dp5, "abm error {e_abm:e} vs dp5 {e_dp5:e}");
}

// ---------------------------------------------------------------------------------------------
// Start phase and fixed steps (Shampine & Gordon's STEP).

/// From a small first step, STEP raises the order by one and doubles the step at every step
/// until the order stops paying (or a step fails); on a smooth problem the order then climbs
/// higher at a stringent tolerance than at a loose one.
#[test]
fn start_phase_raises_the_order_and_doubles_the_step() {
    let sys = smooth();
    let run = |tol: f64, steps: usize| {
        let opts = SolverOptions::with_tol(tol);
        let mut st = Abm::new();
        let mut stats = Stats::default();
        st.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
            .unwrap();
        let mut hist = Vec::new();
        for _ in 0..steps {
            let t0 = st.t();
            st.step(&sys, 10.0, &opts, &mut stats).unwrap();
            hist.push((st.current_order(), st.t() - t0));
        }
        (hist, stats)
    };
    let (hist, stats) = run(1e-10, 150);
    assert_eq!(stats.rejected_steps, 0);
    // The first steps: orders 1, 2, 3, … with doubled steps.
    for j in 0..5 {
        assert_eq!(hist[j].0, j + 1, "{hist:?}");
        let ratio = hist[j + 1].1 / hist[j].1;
        assert!((ratio - 2.0).abs() < 1e-9, "{hist:?}");
    }
    let top_tight = hist.iter().map(|r| r.0).max().unwrap();
    assert!(top_tight >= 10, "highest order at 1e-10: {top_tight}");
    let (hist, _) = run(1e-3, 25);
    let top_loose = hist.iter().map(|r| r.0).max().unwrap();
    assert!(
        top_loose < top_tight,
        "highest order at 1e-3: {top_loose}; {hist:?}"
    );
}

/// With `h_fixed` and `max_order = k` the step stays constant and the order ramps 1, 2, …, k.
#[test]
fn fixed_steps_ramp_the_order_up_to_the_cap() {
    let sys = smooth();
    let opts = capped(
        4,
        SolverOptions {
            h_fixed: Some(0.1),
            ..Default::default()
        },
    );
    let mut st = Abm::new();
    let mut stats = Stats::default();
    st.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
        .unwrap();
    assert!(!st.is_adaptive());
    let mut orders = Vec::new();
    for j in 1..=8 {
        st.step(&sys, 10.0, &opts, &mut stats).unwrap();
        orders.push(st.current_order());
        assert!((st.t() - 0.1 * j as f64).abs() < 1e-14);
    }
    assert_eq!(orders, [1, 2, 3, 4, 4, 4, 4, 4]);
    assert_eq!(stats.rhs_evals, 1 + 2 * 8);
}

// ---------------------------------------------------------------------------------------------
// Variational system.

/// `x = [q, p, r]` with `q' = p`, `p' = −ω² q` and `r' = r²`, plus `Φ' = f_x Φ` (3 columns).
/// Closed forms: `q = q₀ cos ωt + (p₀/ω) sin ωt`, `p = −q₀ ω sin ωt + p₀ cos ωt`,
/// `r = r₀ / (1 − r₀ t)`; `Φ = diag([[cos ωt, sin ωt / ω], [−ω sin ωt, cos ωt]],
/// 1 / (1 − r₀ t)²)`.
struct OscillatorRiccati {
    omega: f64,
}

impl OdeSystem for OscillatorRiccati {
    fn dim(&self) -> usize {
        12
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let w2 = self.omega * self.omega;
        dy[0] = y[1];
        dy[1] = -w2 * y[0];
        dy[2] = y[2] * y[2];
        let (x, phi) = y.split_at(3);
        let fx = [[0.0, 1.0, 0.0], [-w2, 0.0, 0.0], [0.0, 0.0, 2.0 * x[2]]];
        for i in 0..3 {
            for j in 0..3 {
                dy[3 + 3 * i + j] = (0..3).map(|l| fx[i][l] * phi[3 * l + j]).sum();
            }
        }
    }
    fn variational_columns(&self) -> usize {
        3
    }
}

#[test]
fn variational_system_matches_the_closed_form_flow_derivative() {
    let (omega, q0, p0, r0, t) = (2.0, 0.3, -0.5, 0.4, 1.5);
    let sys = OscillatorRiccati { omega };
    let mut y0 = vec![q0, p0, r0];
    y0.extend([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    let (c, s) = ((omega * t).cos(), (omega * t).sin());
    let d = 1.0 - r0 * t;
    let x = [q0 * c + p0 / omega * s, -q0 * omega * s + p0 * c, r0 / d];
    let phi = [
        c,
        s / omega,
        0.0,
        -omega * s,
        c,
        0.0,
        0.0,
        0.0,
        1.0 / (d * d),
    ];
    // Φ in the error norm, and Φ following x (error_dims = 3).
    for (dims, tol_phi) in [(None, 1e-8), (Some(3), 1e-7)] {
        let opts = SolverOptions {
            error_dims: dims,
            ..SolverOptions::with_tol(1e-10)
        };
        let s = Ivp::new(&sys, 0.0, &y0)
            .solve(Method::Abm, t, &opts)
            .unwrap();
        let ex = max_abs_diff(&s.y[..3], &x);
        let ep = max_abs_diff(&s.y[3..], &phi);
        assert!(ex < 1e-8, "{dims:?}: state error {ex:e}");
        assert!(ep < tol_phi, "{dims:?}: Φ error {ep:e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Events through the Solver.

/// A ball dropped from height 1 bounces with restitution 0.8: impact times
/// `t₁ = √(2/g)`, `t_{m+1} = t_m + 2 e^m t₁` (each flight is a parabola). Terminal events,
/// reset `v ← −e v`, restart: each restart begins again at order 1.
#[test]
fn bouncing_ball_impacts_to_1e_10() {
    let e = 0.8;
    let ball = falling_ball();
    let ground = ground();
    let mut solver = Solver::new(Abm::new(), SolverOptions::with_tol(1e-10)).unwrap();
    solver.start(&ball, &ground, 0.0, &[1.0, 0.0]).unwrap();
    let t1 = (2.0 / G).sqrt();
    let mut want = t1;
    for m in 0..5 {
        match solver.integrate(&ball, &ground, 100.0, None).unwrap() {
            Stop::Event(hit) => {
                assert!(
                    (hit.t - want).abs() < 1e-10,
                    "impact {m}: {} vs {want} ({:e})",
                    hit.t,
                    hit.t - want
                );
                assert_eq!(solver.stepper().current_order(), 0, "history restarts");
                let v = -e * hit.y[1];
                solver.restart(&ball, &ground, hit.t, &[0.0, v]).unwrap();
            }
            Stop::TimeReached => panic!("no impact {m}"),
        }
        want += 2.0 * e.powi(m + 1) * t1;
    }
}

/// The harmonic oscillator `x = cos t` crosses zero downwards at `π/2`: located on the dense
/// output to the tolerance; integrating on after the terminal event (without a restart) goes
/// through the truncation (history restarted at order 1) and still follows `cos t`.
#[test]
fn oscillator_event_on_the_dense_output_and_integration_after_it() {
    let osc = FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -y[0];
    });
    let zero = ground();
    let mut solver = Solver::new(Abm::new(), SolverOptions::with_tol(1e-11)).unwrap();
    solver.start(&osc, &zero, 0.0, &[1.0, 0.0]).unwrap();
    match solver.integrate(&osc, &zero, 10.0, None).unwrap() {
        Stop::Event(hit) => assert!((hit.t - PI / 2.0).abs() < 1e-10, "{}", hit.t),
        Stop::TimeReached => panic!("no crossing"),
    }
    assert_eq!(solver.stepper().current_order(), 0);
    // The next crossing (the guard only fires falling) is at 5π/2 > 6: none before 6.
    let stop = solver.integrate(&osc, &zero, 6.0, None).unwrap();
    assert_eq!(stop, Stop::TimeReached);
    let y = solver.y();
    assert!((y[0] - 6f64.cos()).abs() < 1e-9 && (y[1] + 6f64.sin()).abs() < 1e-9);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn nan_field_is_reported_with_its_time() {
    let nan_at_start = FnSystem::new(1, |_t, _y: &[f64], dy: &mut [f64]| dy[0] = f64::NAN);
    let r = Ivp::new(&nan_at_start, 0.0, &[1.0]).solve(Method::Abm, 1.0, &SolverOptions::default());
    assert_eq!(
        r.map(|s| s.t).unwrap_err(),
        OdeError::NonFiniteRhs { t: 0.0 }
    );

    // Finite at t = 0.5, NaN after: the step shrinks to its floor and the time is named.
    let nan_after = FnSystem::new(1, |t: f64, _y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > 0.5 { f64::NAN } else { 1.0 };
    });
    let r = Ivp::new(&nan_after, 0.5, &[0.0]).solve(Method::Abm, 1.0, &SolverOptions::default());
    match r {
        Err(OdeError::NonFinite { t, .. }) => assert_eq!(t, 0.5),
        other => panic!("{:?}", other.map(|s| s.t)),
    }

    // NaN only after t = 0.7: the integration stops there, not before.
    let nan_later = decay_then_nan(0.7);
    let r = Ivp::new(&nan_later, 0.0, &[1.0]).solve(Method::Abm, 1.0, &SolverOptions::default());
    match r {
        Err(OdeError::NonFinite { t, .. }) => assert!((t - 0.7).abs() < 1e-9, "{t}"),
        other => panic!("{:?}", other.map(|s| s.t)),
    }

    // A fixed step into the NaN region is an error at once.
    let opts = SolverOptions {
        h_fixed: Some(0.1),
        ..Default::default()
    };
    let r = Ivp::new(&nan_after, 0.0, &[0.0]).solve(Method::Abm, 1.0, &opts);
    assert!(
        matches!(r, Err(OdeError::NonFinite { .. })),
        "{:?}",
        r.map(|s| s.t)
    );
}

/// A system with a mass matrix.
struct WithMass(Option<Vec<f64>>);

impl OdeSystem for WithMass {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -y[0];
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        self.0.clone()
    }
}

#[test]
fn a_mass_matrix_other_than_the_identity_is_refused() {
    for m in [vec![1.0, 0.0, 0.0, 0.0], vec![2.0, 0.0, 0.0, 1.0]] {
        let r = Ivp::new(&WithMass(Some(m)), 0.0, &[1.0, 0.0]).solve(
            Method::Abm,
            1.0,
            &SolverOptions::default(),
        );
        assert!(
            matches!(
                r,
                Err(OdeError::MassMatrixUnsupported { method: "abm", .. })
            ),
            "{:?}",
            r.map(|s| s.t)
        );
    }
    // The identity given explicitly is M = I.
    let s = Ivp::new(&WithMass(Some(vec![1.0, 0.0, 0.0, 1.0])), 0.0, &[1.0, 0.0])
        .solve(Method::Abm, 1.0, &SolverOptions::with_tol(1e-10))
        .unwrap();
    assert!((s.y[0] - 1f64.cos()).abs() < 1e-9);
}

/// An error estimate that does not shrink with the step (`f = 1/(t − 1)` for `t > 1`) is never
/// accepted: the step reaches its floor and the integration ends there.
#[test]
fn an_unresolvable_field_ends_at_the_step_floor() {
    let sys = FnSystem::new(1, |t: f64, _y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > 1.0 { 1.0 / (t - 1.0) } else { 0.0 };
    });
    let r = Ivp::new(&sys, 1.0, &[0.0]).solve(Method::Abm, 2.0, &SolverOptions::with_tol(1e-8));
    match r {
        Err(OdeError::StepTooSmall { t, h }) => assert!(t == 1.0 && h > 0.0 && h < 1e-13),
        other => panic!("{:?}", other.map(|s| s.t)),
    }
}

// ---------------------------------------------------------------------------------------------
// No allocation per step.

#[test]
fn steps_and_dense_output_do_not_allocate() {
    let sys = smooth();
    let opts = SolverOptions::with_tol(1e-9);
    let mut st = Abm::new();
    let mut stats = Stats::default();
    st.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
        .unwrap();
    let mut out = [0.0; 3];
    let before = allocations();
    for _ in 0..300 {
        st.step(&sys, 50.0, &opts, &mut stats).unwrap();
        let tm = 0.5 * (st.ends().t0 + st.t());
        st.dense(&sys, tm, &mut out, &mut stats);
    }
    let y = [st.y()[0], st.y()[1], st.y()[2]];
    st.truncate(&sys, st.t(), &y, &mut stats);
    st.step(&sys, 50.0, &opts, &mut stats).unwrap();
    assert_eq!(allocations() - before, 0);
    assert!(stats.steps > 250);
}

/// The simplest walker's heel strike from its stable fixed point (the crate's 40-digit
/// reference time): a nonlinear guard located on the dense output.
#[test]
fn walker_heel_strike_matches_the_reference_time() {
    use saltation_ode::problems::{
        HeelStrike, WalkerStance, WALKER_GAMMA, WALKER_HEELSTRIKE_TIME, WALKER_X0,
    };
    let sys = WalkerStance {
        gamma: WALKER_GAMMA,
    };
    for (tol, err) in [(1e-12, 1e-10), (1e-8, 1e-6)] {
        let s = Ivp::new(&sys, 0.0, &WALKER_X0)
            .events(&HeelStrike)
            .solve(Method::Abm, 10.0, &SolverOptions::with_tol(tol))
            .unwrap();
        match s.stop {
            Stop::Event(h) => assert!(
                (h.t - WALKER_HEELSTRIKE_TIME).abs() < err,
                "tol {tol:e}: {} ({:e})",
                h.t,
                h.t - WALKER_HEELSTRIKE_TIME
            ),
            other => panic!("{other:?}"),
        }
    }
}

/// `f = 0` at the start gives STEP no starting step: the first step then aims at the stop
/// time (Shampine & Gordon's DE), or, with no finite stop time, at a finite guess.
#[test]
fn a_zero_initial_slope_still_starts() {
    let sys = FnSystem::new(1, |t: f64, _y: &[f64], dy: &mut [f64]| dy[0] = t * t);
    let s = Ivp::new(&sys, 0.0, &[0.0])
        .solve(Method::Abm, 2.0, &SolverOptions::with_tol(1e-10))
        .unwrap();
    assert!((s.y[0] - 8.0 / 3.0).abs() < 1e-9, "{}", s.y[0]);
    let opts = SolverOptions::with_tol(1e-10);
    let mut st = Abm::new();
    let mut stats = Stats::default();
    st.start(&sys, 0.0, &[0.0], &opts, &mut stats).unwrap();
    while st.t() < 2.0 {
        st.step(&sys, f64::INFINITY, &opts, &mut stats).unwrap();
    }
    let t = st.t();
    assert!(t.is_finite() && (st.y()[0] - t * t * t / 3.0).abs() < 1e-9 * t.powi(3).max(1.0));
}
