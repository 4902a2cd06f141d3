//! Convergence orders 1–5 of the solution and of the dense output.

use saltation_ode::{Ivp, Method, MultistepOptions, SolverOptions, Stepper};

use super::{opts_k, FAMILIES};
use crate::common::{slope, smooth, smooth_exact};

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
