//! Reference tests of the variable-order NDF (`ndf`, MATLAB `ode15s`) and BDF (`bdf`)
//! integrators against closed forms and published values.
//!
//! - convergence orders 1–5 of the solution and of the dense output (both families);
//! - a stiff linear (vector Prothero–Robinson) problem with closed form: error vs tolerance;
//! - Robertson's chemical kinetics to t = 40 against the published reference, as an ODE and as
//!   an index-1 DAE with a singular mass matrix;
//! - a variational system against its closed-form Φ;
//! - a falling ball's ground contact through `Solver`, and the restart at order 1 after it;
//! - the walker's stance phase with its variational matrix to the heel strike;
//! - work counters, no allocation per step, and the bad cases.

use saltation_ode::{
    Direction, Event, FnSystem, Ivp, Method, MultistepOptions, NewtonOptions, OdeError, OdeSystem,
    Sampling, Solver, SolverOptions, Stepper, Stop,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

// ---------------------------------------------------------------------------------------------
// Allocation counter (per thread: the harness runs tests in parallel).

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards to the system allocator; the counter is a const-initialised thread-local.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count_one();
        System.alloc_zeroed(layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(|c| c.get())
}

// ---------------------------------------------------------------------------------------------
// Helpers.

const FAMILIES: [Method; 2] = [Method::Ndf, Method::Bdf];

/// Least-squares slope of `ln y` against `ln x`.
fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for &(x, y) in points {
        let (x, y) = (x.ln(), y.ln());
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    (n * sxy - sx * sy) / (n * sxx - sx * sx)
}

fn opts_k(tol: f64, k: usize) -> SolverOptions {
    SolverOptions {
        multistep: MultistepOptions { max_order: Some(k) },
        max_steps: 10_000_000,
        ..SolverOptions::with_tol(tol)
    }
}

// ---------------------------------------------------------------------------------------------
// Convergence orders.

/// `y₁ = exp(sin t)`, `(y₂, y₃) = (cos t, −sin t)`.
fn smooth() -> impl OdeSystem {
    FnSystem::new(3, |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[0] * t.cos();
        dy[1] = y[2];
        dy[2] = -y[1];
    })
}

fn smooth_exact(t: f64) -> [f64; 3] {
    [t.sin().exp(), t.cos(), -t.sin()]
}

/// One variable-step run with the stepper driven directly: the number of steps, the largest
/// error at the step points, the largest error of the dense output at θ = 1/4, 1/2, 3/4 of
/// every step, the largest *interpolation defect* (dense error minus the linear interpolation of
/// the two end errors) and the fraction of steps taken at order `k`.
struct Run {
    steps: usize,
    node_err: f64,
    dense_err: f64,
    defect: f64,
    at_k: f64,
}

fn run_smooth(method: Method, k: usize, tol: f64, t_end: f64) -> Run {
    let sys = smooth();
    let opts = opts_k(tol, k);
    let mut s = method.stepper();
    let mut stats = Default::default();
    s.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
        .unwrap();
    let (mut steps, mut at_k) = (0usize, 0usize);
    let (mut node_err, mut dense_err, mut defect) = (0f64, 0f64, 0f64);
    let mut out = [0.0; 3];
    while s.t() < t_end {
        s.step(&sys, t_end, &opts, &mut stats).unwrap();
        steps += 1;
        at_k += usize::from(s.order() as usize == k);
        let e = s.ends();
        let (t0, t1) = (e.t0, e.t1);
        let (x0, x1) = (smooth_exact(t0), smooth_exact(t1));
        let e0: Vec<f64> = (0..3).map(|i| e.y0[i] - x0[i]).collect();
        let e1: Vec<f64> = (0..3).map(|i| e.y1[i] - x1[i]).collect();
        node_err = e1.iter().fold(node_err, |a, v| a.max(v.abs()));
        for th in [0.25, 0.5, 0.75] {
            let t = t0 + th * (t1 - t0);
            s.dense(&sys, t, &mut out, &mut stats);
            let x = smooth_exact(t);
            for i in 0..3 {
                let err = out[i] - x[i];
                dense_err = dense_err.max(err.abs());
                defect = defect.max((err - ((1.0 - th) * e0[i] + th * e1[i])).abs());
            }
        }
    }
    Run {
        steps,
        node_err,
        dense_err,
        defect,
        at_k: at_k as f64 / steps as f64,
    }
}

/// The measured order of the variable-step method of order `k` (`max_order = k`) and of its
/// dense output.
///
/// With a constant step the start at order 1 (orders rise by one per step) leaves an `O(h²)`
/// error that hides the order above 2. With error control instead, every step, the starting
/// ones included, has a local error close to the tolerance `tol`, so the steps scale as
/// `h ∝ tol^{1/(k+1)}` (fixed shape over [0, T]), their number as `N ∝ tol^{−1/(k+1)}`, and the
/// global error, about `N` local errors, as `N tol ∝ h^k ∝ N^{−k}`. The slope of `ln err`
/// against `ln N` over a range of tolerances is therefore `−k` (the startup's few extra steps
/// barely change `N` over a long interval). The dense output's global error has the same slope,
/// and its interpolation defect (the dense error minus the interpolated end errors: the error
/// of interpolating exact values) is a local `O(h^{k+1}) ∝ N^{−(k+1)}`, the sharper test of the
/// interpolant's degree.
#[test]
fn solution_and_dense_output_converge_at_order_k() {
    let t_end = 40.0;
    for method in FAMILIES {
        for k in 1..=5usize {
            let tols: &[f64] = match k {
                1 => &[1e-4, 1e-5, 1e-6, 1e-7],
                2 => &[1e-5, 1e-6, 1e-7, 1e-8, 1e-9],
                3 => &[1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11],
                _ => &[1e-8, 1e-9, 1e-10, 1e-11, 1e-12],
            };
            let runs: Vec<Run> = tols
                .iter()
                .map(|&tol| run_smooth(method, k, tol, t_end))
                .collect();
            let fit = |f: &dyn Fn(&Run) -> f64| {
                -slope(
                    &runs
                        .iter()
                        .map(|r| (r.steps as f64, f(r)))
                        .collect::<Vec<_>>(),
                )
            };
            let (p, pd, pi) = (
                fit(&|r| r.node_err),
                fit(&|r| r.dense_err),
                fit(&|r| r.defect),
            );
            let at_k = runs.iter().map(|r| r.at_k).fold(1.0, f64::min);
            println!(
                "{} k={k}: order {p:.3}, dense {pd:.3}, interpolation defect {pi:.3}, \
                 steps at order k ≥ {:.0} %, steps {:?}",
                method.name(),
                100.0 * at_k,
                runs.iter().map(|r| r.steps).collect::<Vec<_>>()
            );
            let k = k as f64;
            assert!((p - k).abs() <= 0.3, "{} order {k}: {p:.3}", method.name());
            assert!(
                (pd - k).abs() <= 0.3,
                "{} dense {k}: {pd:.3}",
                method.name()
            );
            assert!(
                (pi - (k + 1.0)).abs() <= 0.3,
                "{} defect {k}: {pi:.3}",
                method.name()
            );
            assert!(at_k > 0.9, "{}: order {k} used in {at_k}", method.name());
        }
    }
}

/// With a constant step the orders rise 1, 2, … up to `max_order`; at orders 1 and 2 the
/// start costs nothing in order, and the fixed-step global error falls as `h` and `h²`.
#[test]
fn fixed_step_orders_ramp_up_and_converge_at_orders_one_and_two() {
    let sys = smooth();
    let t_end = 4.0;
    for method in FAMILIES {
        // The ramp.
        let opts = SolverOptions {
            h_fixed: Some(0.01),
            multistep: MultistepOptions { max_order: Some(4) },
            ..Default::default()
        };
        let mut s = method.stepper();
        let mut stats = Default::default();
        s.start(&sys, 0.0, &smooth_exact(0.0), &opts, &mut stats)
            .unwrap();
        assert!(!s.is_adaptive());
        let orders: Vec<u32> = (0..7)
            .map(|_| {
                s.step(&sys, t_end, &opts, &mut stats).unwrap();
                s.order()
            })
            .collect();
        assert_eq!(orders, [1, 2, 3, 4, 4, 4, 4]);
        assert!((s.t() - 0.07).abs() < 1e-14, "{}", s.t());
        // Orders 1 and 2.
        for k in 1..=2usize {
            let pts: Vec<(f64, f64)> = [100usize, 200, 400, 800]
                .iter()
                .map(|&n| {
                    let opts = SolverOptions {
                        h_fixed: Some(t_end / n as f64),
                        multistep: MultistepOptions { max_order: Some(k) },
                        ..Default::default()
                    };
                    let sol = Ivp::new(&sys, 0.0, &smooth_exact(0.0))
                        .solve(method, t_end, &opts)
                        .unwrap();
                    assert_eq!(sol.stats.steps, n);
                    let x = smooth_exact(t_end);
                    let e = (0..3).map(|i| (sol.y[i] - x[i]).abs()).fold(0.0, f64::max);
                    (n as f64, e)
                })
                .collect();
            let p = -slope(&pts);
            println!("{} fixed step, max_order {k}: order {p:.3}", method.name());
            assert!((p - k as f64).abs() <= 0.3, "{}: {p:.3}", method.name());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Stiff problems.

/// `y' = A (y − g(t)) + g'(t)` with `A = P Λ P⁻¹`, `Λ = diag(−1, −10³, −10⁶)`,
/// `P = [[1,1,1],[0,1,1],[0,0,1]]`, `g = (cos t, sin 2t, e^{−t/2})`: a vector
/// Prothero–Robinson problem whose solution from `y(0) = g(0) + P 𝟙` is
/// `y(t) = g(t) + P e^{Λt} 𝟙` (a stiff transient on top of a smooth forced solution).
struct StiffLinear;

const LAMBDA: [f64; 3] = [-1.0, -1e3, -1e6];

impl StiffLinear {
    /// `A = P Λ P⁻¹` with `P⁻¹ = [[1,−1,0],[0,1,−1],[0,0,1]]`.
    fn a() -> [[f64; 3]; 3] {
        let p = [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]];
        let pinv = [[1.0, -1.0, 0.0], [0.0, 1.0, -1.0], [0.0, 0.0, 1.0]];
        let mut a = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] = (0..3).map(|m| p[i][m] * LAMBDA[m] * pinv[m][j]).sum();
            }
        }
        a
    }
    fn g(t: f64) -> ([f64; 3], [f64; 3]) {
        (
            [t.cos(), (2.0 * t).sin(), (-0.5 * t).exp()],
            [-t.sin(), 2.0 * (2.0 * t).cos(), -0.5 * (-0.5 * t).exp()],
        )
    }
    fn exact(t: f64) -> [f64; 3] {
        let (g, _) = Self::g(t);
        let e = LAMBDA.map(|l| (l * t).exp());
        [g[0] + e[0] + e[1] + e[2], g[1] + e[1] + e[2], g[2] + e[2]]
    }
}

impl OdeSystem for StiffLinear {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let a = Self::a();
        let (g, dg) = Self::g(t);
        for i in 0..3 {
            dy[i] = dg[i] + (0..3).map(|j| a[i][j] * (y[j] - g[j])).sum::<f64>();
        }
    }
    fn jacobian(&self, _t: f64, _y: &[f64], jac: &mut [f64]) -> bool {
        let a = Self::a();
        for i in 0..3 {
            jac[3 * i..3 * i + 3].copy_from_slice(&a[i]);
        }
        true
    }
}

/// The error follows the tolerance: at rtol = atol = 10⁻⁴, 10⁻⁷, 10⁻¹⁰ the largest error over
/// the transient and the smooth part (t ∈ [10⁻⁶, 10]) stays within a modest factor of the
/// tolerance (the control is per step: the slow mode, damped on a time scale of 1, sums the
/// local errors of ~1/h steps, hence factors of 10–100, largest at the tightest tolerance) and
/// falls by more than four decades over six decades of tolerance. An explicit method would need
/// ~10⁶ steps here (|λ| = 10⁶).
#[test]
fn stiff_linear_problem_error_tracks_the_tolerance() {
    let sys = StiffLinear;
    let y0 = StiffLinear::exact(0.0);
    let mut times = vec![1e-6, 1e-5, 1e-4, 1e-3, 1e-2];
    times.extend((1..=100).map(|i| 0.1 * i as f64));
    for method in FAMILIES {
        let mut rows = Vec::new();
        for tol in [1e-4, 1e-7, 1e-10] {
            let sol = Ivp::new(&sys, 0.0, &y0)
                .sampling(Sampling::Times(times.clone()))
                .solve(method, 10.0, &SolverOptions::with_tol(tol))
                .unwrap();
            let mut err: f64 = 0.0;
            for (k, &t) in sol.trajectory.t.iter().enumerate() {
                let x = StiffLinear::exact(t);
                for (got, want) in sol.trajectory.state(k).iter().zip(x) {
                    err = err.max((got - want).abs());
                }
            }
            println!(
                "{} stiff linear tol {tol:e}: error {err:.2e} (error/tol {:.2}), steps {}, \
                 jacobians {}, LU {}",
                method.name(),
                err / tol,
                sol.stats.steps,
                sol.stats.jacobian_evals,
                sol.stats.lu_decompositions
            );
            assert_eq!(
                sol.stats.jacobian_evals, 1,
                "a linear problem keeps its Jacobian"
            );
            assert!(sol.stats.steps < 5_000, "{}", sol.stats.steps);
            rows.push((tol, err));
        }
        for (tol, err) in &rows {
            assert!(
                *err < 100.0 * tol && *err > 0.1 * tol,
                "{}: {rows:?}",
                method.name()
            );
        }
        let fall = rows[0].1 / rows[2].1;
        assert!(fall > 1e4, "{}: {rows:?}", method.name());
    }
}

/// Robertson's chemical kinetics (Robertson 1966; Hairer & Wanner, *Solving ODEs II*, §IV.1):
/// `y₁' = −0.04 y₁ + 10⁴ y₂ y₃`, `y₂' = 0.04 y₁ − 10⁴ y₂ y₃ − 3·10⁷ y₂²`, `y₃' = 3·10⁷ y₂²`.
fn robertson_rhs(y: &[f64], dy: &mut [f64]) {
    dy[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
    dy[2] = 3e7 * y[1] * y[1];
    dy[1] = -dy[0] - dy[2];
}

/// y(40) from y(0) = (1, 0, 0): Hairer & Wanner (§IV.1) give 0.7158270687, 9.185534764e−6,
/// 0.2841637457; the further digits are the values independent stiff codes agree on at
/// tolerances near 10⁻¹⁴ (0.71582706871940, 9.1855347645578e−6, 0.28416374574583).
const ROBERTSON_40: [f64; 3] = [
    0.715_827_068_719_4,
    9.185_534_764_558e-6,
    0.284_163_745_745_83,
];

struct Robertson;

impl OdeSystem for Robertson {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        robertson_rhs(y, dy);
    }
}

/// The same as a DAE: `y₃` from the conservation law `0 = y₁ + y₂ + y₃ − 1`, `M = diag(1,1,0)`.
struct RobertsonDae;

impl OdeSystem for RobertsonDae {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        robertson_rhs(y, dy);
        dy[2] = y[0] + y[1] + y[2] - 1.0;
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        Some(vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    }
}

fn robertson_opts(rtol: f64) -> SolverOptions {
    SolverOptions {
        rtol,
        // y₂ is of size 10⁻⁵: its absolute tolerance must be well below that.
        atol: saltation_ode::Atol::Scalar(rtol * 1e-6),
        ..Default::default()
    }
}

#[test]
fn robertson_reaches_the_published_values_at_t_40_as_ode_and_as_dae() {
    for method in FAMILIES {
        for rtol in [1e-6, 1e-9] {
            let ode = Ivp::new(&Robertson, 0.0, &[1.0, 0.0, 0.0])
                .solve(method, 40.0, &robertson_opts(rtol))
                .unwrap();
            let dae = Ivp::new(&RobertsonDae, 0.0, &[1.0, 0.0, 0.0])
                .solve(method, 40.0, &robertson_opts(rtol))
                .unwrap();
            for (name, sol) in [("ODE", &ode), ("DAE", &dae)] {
                let rel: Vec<f64> = (0..3)
                    .map(|i| (sol.y[i] - ROBERTSON_40[i]).abs() / ROBERTSON_40[i])
                    .collect();
                println!(
                    "{} Robertson {name} rtol {rtol:e}: relative errors {:.1e} {:.1e} {:.1e}, \
                     steps {}, \
                     rejected {}, f {}, jacobians {}, LU {}, Newton {} (failures {})",
                    method.name(),
                    rel[0],
                    rel[1],
                    rel[2],
                    sol.stats.steps,
                    sol.stats.rejected_steps,
                    sol.stats.rhs_evals,
                    sol.stats.jacobian_evals,
                    sol.stats.lu_decompositions,
                    sol.stats.newton_iters,
                    sol.stats.newton_failures
                );
                for r in &rel {
                    assert!(
                        *r < 30.0 * rtol,
                        "{} {name} rtol {rtol}: {rel:?}",
                        method.name()
                    );
                }
                assert!(
                    sol.stats.jacobian_evals * 5 < sol.stats.steps,
                    "{:?}",
                    sol.stats
                );
            }
            // The DAE keeps the conservation law to round-off; ODE and DAE agree to the
            // tolerance.
            assert!((dae.y[0] + dae.y[1] + dae.y[2] - 1.0).abs() < 1e-14);
            for ((a, b), r) in ode.y.iter().zip(&dae.y).zip(ROBERTSON_40) {
                assert!((a - b).abs() < 30.0 * rtol * r);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Variational system.

/// `x₁' = −x₁²`, `x₂' = −2 x₁ x₂` with `x(t) = (a/(1+at), b/(1+at)²)` from `x(0) = (a, b)`, and
/// its variational equations `Φ' = f_x Φ`, `Φ(0) = I`, whose solution is the closed form
/// `Φ = ∂x/∂(a, b) = [[1/(1+at)², 0], [−2bt/(1+at)³, 1/(1+at)²]]`. State `[x (2), Φ (2×2)]`.
struct Variational;

impl OdeSystem for Variational {
    fn dim(&self) -> usize {
        6
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let (x1, x2) = (y[0], y[1]);
        dy[0] = -x1 * x1;
        dy[1] = -2.0 * x1 * x2;
        let j = [[-2.0 * x1, 0.0], [-2.0 * x2, -2.0 * x1]];
        for r in 0..2 {
            for c in 0..2 {
                dy[2 + 2 * r + c] = j[r][0] * y[2 + c] + j[r][1] * y[4 + c];
            }
        }
    }
    fn jacobian(&self, _t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        jac.copy_from_slice(&[-2.0 * y[0], 0.0, -2.0 * y[1], -2.0 * y[0]]);
        true
    }
    fn variational_columns(&self) -> usize {
        2
    }
}

fn variational_exact(a: f64, b: f64, t: f64) -> [f64; 6] {
    let s = 1.0 + a * t;
    [
        a / s,
        b / (s * s),
        1.0 / (s * s),
        0.0,
        -2.0 * b * t / (s * s * s),
        1.0 / (s * s),
    ]
}

#[test]
fn variational_matrix_matches_its_closed_form() {
    let (a, b) = (1.5, -0.7);
    let y0 = variational_exact(a, b, 0.0);
    for method in FAMILIES {
        for error_dims in [None, Some(2)] {
            let opts = SolverOptions {
                error_dims,
                ..SolverOptions::with_tol(1e-10)
            };
            let sol = Ivp::new(&Variational, 0.0, &y0)
                .solve(method, 3.0, &opts)
                .unwrap();
            let x = variational_exact(a, b, 3.0);
            let err_x = (0..2).map(|i| (sol.y[i] - x[i]).abs()).fold(0.0, f64::max);
            let err_phi = (2..6).map(|i| (sol.y[i] - x[i]).abs()).fold(0.0, f64::max);
            println!(
                "{} variational (error_dims {error_dims:?}): |Δx| {err_x:.1e}, |ΔΦ| {err_phi:.1e}, \
                 steps {}, Newton {}, LU {}",
                method.name(),
                sol.stats.steps,
                sol.stats.newton_iters,
                sol.stats.lu_decompositions
            );
            assert!(err_x < 1e-8, "{err_x}");
            assert!(err_phi < 1e-8, "{err_phi}");
            // Φ₁₂ stays exactly zero: the block solve never mixes the columns.
            assert_eq!(sol.y[3], 0.0);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Events and the restart after them.

fn ball() -> impl OdeSystem {
    FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -9.81;
    })
}

/// A ball dropped from height 1 hits the ground at `t = √(2/g)`; the event is located on the
/// dense output through `Solver` to 1e-10 (at tolerance 10⁻¹²: the position error sums the
/// local errors of the ~30 steps, so tolerance 10⁻¹⁰ gives event times good to about 10⁻¹⁰
/// only). Integrating on from the event (after the solver's
/// truncation) restarts at order 1 and follows `y = 1 − g t²/2` further down.
#[test]
fn falling_ball_event_and_the_restart_after_it() {
    let g: f64 = 9.81;
    let sys = ball();
    let ground = vec![Event::new(|_t, y: &[f64]| y[0]).direction(Direction::Falling)];
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

// ---------------------------------------------------------------------------------------------
// Work counters and allocation.

/// With the system's own Jacobian every evaluation of `f` is accounted for: one at the start,
/// one in the initial-step estimate, one per Newton iteration and one at the end of every
/// accepted step (`f(t₁, y₁)` of [`Stepper::ends`]); with finite differences `n` more per
/// Jacobian. The Jacobian is re-evaluated only after a Newton failure with an old one.
#[test]
fn work_counters_account_for_every_evaluation() {
    for method in FAMILIES {
        let sol = Ivp::new(&StiffLinear, 0.0, &StiffLinear::exact(0.0))
            .solve(method, 2.0, &SolverOptions::with_tol(1e-8))
            .unwrap();
        let s = sol.stats;
        assert_eq!(s.rhs_evals, 2 + s.newton_iters + s.steps, "{s:?}");
        assert_eq!(s.jacobian_evals, 1);
        assert!(
            s.lu_decompositions >= 2 && s.lu_decompositions < s.steps,
            "{s:?}"
        );
        assert!(s.newton_iters >= s.steps);
        let sol = Ivp::new(&Robertson, 0.0, &[1.0, 0.0, 0.0])
            .solve(method, 40.0, &robertson_opts(1e-7))
            .unwrap();
        let s = sol.stats;
        assert_eq!(
            s.rhs_evals,
            2 + s.newton_iters + s.steps + 3 * s.jacobian_evals,
            "{s:?}"
        );
        assert!(s.jacobian_evals <= s.newton_failures + 1, "{s:?}");
        assert!(s.rejected_steps >= s.newton_failures);
        println!("{} Robertson counters: {s:?}", method.name());
    }
}

/// `Stepper::step` allocates nothing: over a stiff run with rejections, order changes,
/// Jacobian refreshes, dense output and a restart after a truncation.
#[test]
fn steps_do_not_allocate() {
    for method in FAMILIES {
        let opts = robertson_opts(1e-8);
        let mut s = method.stepper();
        let mut stats = Default::default();
        let y0 = [1.0, 0.0, 0.0];
        s.start(&Robertson, 0.0, &y0, &opts, &mut stats).unwrap();
        let mut out = [0.0; 3];
        let before = allocations();
        let mut cut = false;
        while s.t() < 40.0 {
            s.step(&Robertson, 40.0, &opts, &mut stats).unwrap();
            let e = s.ends();
            let tm = 0.5 * (e.t0 + e.t1);
            s.dense(&Robertson, tm, &mut out, &mut stats);
            if !cut && s.t() > 1.0 {
                s.truncate(&Robertson, tm, &out, &mut stats);
                cut = true;
            }
        }
        let after = allocations();
        assert_eq!(
            after - before,
            0,
            "{} allocated in {} steps",
            method.name(),
            stats.steps
        );
        assert!(
            stats.rejected_steps > 0 && stats.jacobian_evals > 1,
            "{stats:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Options and bad cases.

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
    let sys = FnSystem::new(1, |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > 0.5 { f64::NAN } else { -y[0] };
    });
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
        let base = Ivp::new(&Robertson, 0.0, &[1.0, 0.0, 0.0])
            .solve(method, 40.0, &robertson_opts(1e-7))
            .unwrap();
        let one = SolverOptions {
            newton: NewtonOptions {
                max_iters: Some(2),
                ..Default::default()
            },
            ..robertson_opts(1e-7)
        };
        let sol = Ivp::new(&Robertson, 0.0, &[1.0, 0.0, 0.0])
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
        let fresh = Ivp::new(&Robertson, 0.0, &[1.0, 0.0, 0.0])
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

/// The project's use: the walker's stance phase with its 4×4 variational matrix (state of
/// size 20, solved with 4×4 iteration matrices) to the heel strike, whose time is known from an
/// independent 40-digit computation; Φ at the strike agrees with DOP853 at tolerance 10⁻¹³.
/// The control is per step, so the bound is the sum of the local errors, `N tol` after `N`
/// steps (times `max |Φ|` for Φ).
#[test]
fn walker_stance_with_variational_matrix_to_the_heel_strike() {
    use saltation_ode::problems::{
        walker_extended_start, HeelStrike, WalkerStanceVariational, WALKER_GAMMA,
        WALKER_HEELSTRIKE_TIME,
    };
    let sys = WalkerStanceVariational {
        gamma: WALKER_GAMMA,
    };
    let y0 = walker_extended_start();
    let reference = Ivp::new(&sys, 0.0, &y0)
        .events(&HeelStrike)
        .solve(Method::Dop853, 10.0, &SolverOptions::with_tol(1e-13))
        .unwrap();
    for method in FAMILIES {
        let sol = Ivp::new(&sys, 0.0, &y0)
            .events(&HeelStrike)
            .solve(method, 10.0, &SolverOptions::with_tol(1e-11))
            .unwrap();
        assert!(matches!(sol.stop, Stop::Event(_)));
        let dt = (sol.t - WALKER_HEELSTRIKE_TIME).abs();
        let dphi = (4..20)
            .map(|i| (sol.y[i] - reference.y[i]).abs())
            .fold(0.0, f64::max);
        println!(
            "{} walker: heel-strike time error {dt:.1e}, |ΔΦ| {dphi:.1e}, steps {}, LU {}",
            method.name(),
            sol.stats.steps,
            sol.stats.lu_decompositions
        );
        let (n, tol) = (sol.stats.steps as f64, 1e-11);
        let phi_max = (4..20).map(|i| reference.y[i].abs()).fold(0.0, f64::max);
        assert!(dt < n * tol, "{dt}");
        assert!(dphi < n * tol * phi_max, "{dphi} (max |Φ| {phi_max})");
    }
}
