//! What the test modules share: the test problems ([`problems`]), the allocation counter
//! ([`alloc`]), the checks the second-order stiff methods share ([`second_order`]) and the
//! measurements (orders by least squares, errors).

#![allow(dead_code)]

pub mod alloc;
pub mod problems;
pub mod second_order;

pub use alloc::allocations;
pub use problems::*;
pub use second_order::*;

use saltation_ode::{Ivp, Method, OdeSystem, Sampling, SolverOptions};

/// Least-squares slope of `ln e` against `ln x` over the points `(x, e)`: the order `p` of
/// errors `e ∝ h^p` measured against the step `h`, or `−p` against the number of steps.
pub fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for &(x, e) in points {
        let (x, y) = (x.ln(), e.ln());
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    (n * sxy - sx * sy) / (n * sxx - sx * sx)
}

/// Largest componentwise difference `max_i |a_i − b_i|`.
pub fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// End of the interval of the fixed-step measurements of [`fixed_step_errors`].
pub const T_END: f64 = 4.0;

/// `method` with the constant step `h = T_END / steps` on `sys`, whose solution from
/// `smooth_exact(0)` is [`smooth_exact`] (the [`smooth`] problem, or one with the same
/// solution): the largest error at the end and that of the dense output at 7 points inside
/// every step. Checks that exactly `steps` steps were taken.
pub fn fixed_step_errors<S: OdeSystem>(method: Method, sys: &S, steps: usize) -> (f64, f64) {
    let h = T_END / steps as f64;
    let times: Vec<f64> = (0..steps)
        .flat_map(|k| (1..8).map(move |j| (k as f64 + j as f64 / 8.0) * h))
        .collect();
    let opts = SolverOptions {
        h_fixed: Some(h),
        ..Default::default()
    };
    let sol = Ivp::new(sys, 0.0, &smooth_exact(0.0))
        .sampling(Sampling::Times(times.clone()))
        .solve(method, T_END, &opts)
        .unwrap();
    assert_eq!(sol.stats.steps, steps);
    assert_eq!(sol.trajectory.len(), times.len());
    let e_end = max_abs_diff(&sol.y, &smooth_exact(T_END));
    let e_dense = times
        .iter()
        .enumerate()
        .map(|(k, &t)| max_abs_diff(sol.trajectory.state(k), &smooth_exact(t)))
        .fold(0.0, f64::max);
    (e_end, e_dense)
}

/// Asserts that `method` with constant steps converges at order two on `sys`, at the end and
/// in its dense output ([`fixed_step_errors`] for 40, 80, 160 and 320 steps; both slopes within
/// 0.3 of 2). `what` names the case in the messages.
pub fn assert_fixed_step_order_two<S: OdeSystem>(what: &str, method: Method, sys: &S) {
    let errs: Vec<(f64, f64, f64)> = [40, 80, 160, 320]
        .iter()
        .map(|&n| {
            let (e, d) = fixed_step_errors(method, sys, n);
            (T_END / n as f64, e, d)
        })
        .collect();
    let p = slope(&errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>());
    let q = slope(&errs.iter().map(|e| (e.0, e.2)).collect::<Vec<_>>());
    let table: Vec<String> = errs
        .iter()
        .map(|(h, e, d)| format!("h {h:.3e}: {e:.3e}, dense {d:.3e}"))
        .collect();
    println!("{what}: order {p:.3}, dense order {q:.3}; {table:?}");
    assert!((p - 2.0).abs() <= 0.3, "{what}: order {p}: {errs:?}");
    assert!((q - 2.0).abs() <= 0.3, "{what}: dense order {q}: {errs:?}");
}
