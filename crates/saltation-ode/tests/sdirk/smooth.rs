//! Smooth problem with a closed form: y₁' = y₁ cos t, and a harmonic pair.

use super::*;

pub(crate) fn smooth() -> impl OdeSystem {
    FnSystem::new(3, |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[0] * t.cos();
        dy[1] = y[2];
        dy[2] = -y[1];
    })
}

pub(crate) fn smooth_exact(t: f64) -> [f64; 3] {
    [t.sin().exp(), t.cos(), -t.sin()]
}

pub(crate) const T_END: f64 = 4.0;

/// Least-squares slope of log(err) against log(h).
pub(crate) fn slope(points: &[(f64, f64)]) -> f64 {
    let n = points.len() as f64;
    let (mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0);
    for &(h, e) in points {
        let (x, y) = (h.ln(), e.ln());
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    (n * sxy - sx * sy) / (n * sxx - sx * sx)
}

/// Largest error at the end and of the dense output at 7 points inside every step.
pub(crate) fn fixed_step_errors(method: Method, steps: usize) -> (f64, f64) {
    let h = T_END / steps as f64;
    let times: Vec<f64> = (0..steps)
        .flat_map(|k| (1..8).map(move |j| (k as f64 + j as f64 / 8.0) * h))
        .collect();
    let opts = SolverOptions {
        h_fixed: Some(h),
        ..Default::default()
    };
    let sol = Ivp::new(&smooth(), 0.0, &smooth_exact(0.0))
        .sampling(Sampling::Times(times.clone()))
        .solve(method, T_END, &opts)
        .unwrap();
    assert_eq!(sol.stats.steps, steps);
    let end = smooth_exact(T_END);
    let e_end = (0..3)
        .map(|i| (sol.y[i] - end[i]).abs())
        .fold(0.0, f64::max);
    let mut e_dense: f64 = 0.0;
    for (k, &t) in times.iter().enumerate() {
        for (got, want) in sol.trajectory.state(k).iter().zip(smooth_exact(t)) {
            e_dense = e_dense.max((got - want).abs());
        }
    }
    (e_end, e_dense)
}

#[test]
fn constant_steps_converge_at_order_two_with_dense_output() {
    for method in METHODS {
        let counts = [40, 80, 160, 320];
        let errs: Vec<(f64, f64, f64)> = counts
            .iter()
            .map(|&n| {
                let (e, d) = fixed_step_errors(method, n);
                (T_END / n as f64, e, d)
            })
            .collect();
        let p = slope(&errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>());
        let q = slope(&errs.iter().map(|e| (e.0, e.2)).collect::<Vec<_>>());
        let table: Vec<String> = errs
            .iter()
            .map(|(h, e, d)| format!("h {h:.3e}: {e:.3e}, dense {d:.3e}"))
            .collect();
        println!("{method:?}: order {p:.3}, dense order {q:.3}; {table:?}");
        assert!((p - 2.0).abs() <= 0.3, "{method:?} order {p}: {errs:?}");
        assert!(
            (q - 2.0).abs() <= 0.3,
            "{method:?} dense order {q}: {errs:?}"
        );
    }
}
