//! Linear stability: one constant step on y' = λ y and on the oscillator.

use super::*;

/// The published `R(z)` at a complex `z`, as `(re, im)`.
pub(crate) fn published_r(method: Method, z: (f64, f64)) -> (f64, f64) {
    let div = |a: (f64, f64), b: (f64, f64)| {
        let d = b.0 * b.0 + b.1 * b.1;
        ((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
    };
    match method {
        Method::Trapezoid => div((1.0 + 0.5 * z.0, 0.5 * z.1), (1.0 - 0.5 * z.0, -0.5 * z.1)),
        _ => {
            let dd = 1.0 - 0.5 * SQRT_2;
            let q = (1.0 - dd * z.0, -dd * z.1);
            let num = (1.0 + (SQRT_2 - 1.0) * z.0, (SQRT_2 - 1.0) * z.1);
            div(num, (q.0 * q.0 - q.1 * q.1, 2.0 * q.0 * q.1))
        }
    }
}

pub(crate) fn one_step<S: OdeSystem>(method: Method, sys: &S, y0: &[f64], h: f64) -> Vec<f64> {
    let opts = SolverOptions {
        h_fixed: Some(h),
        ..SolverOptions::with_tol(1e-12)
    };
    Ivp::new(sys, 0.0, y0).solve(method, h, &opts).unwrap().y
}

#[test]
fn one_step_amplification_is_the_published_stability_function() {
    for method in METHODS {
        // Real axis, up to z = −1e8 (R(−∞): −1 for the trapezoid, 0 for TR-BDF2).
        for z in [-0.3, -3.7, -50.0, -1e4, -1e8] {
            let r = one_step(method, &Scalar(z), &[1.0], 1.0)[0];
            let want = published_r(method, (z, 0.0)).0;
            assert!(
                (r - want).abs() < 1e-12,
                "{method:?} R({z}) = {r}, published {want}"
            );
        }
        let r_inf = one_step(method, &Scalar(-1e8), &[1.0], 1.0)[0];
        match method {
            Method::Trapezoid => assert!((r_inf + 1.0).abs() < 1e-7, "{r_inf}"),
            _ => assert!(r_inf.abs() < 1e-7, "{r_inf}"),
        }
        // Imaginary axis: |R(iy)| ≤ 1 (A-stability), = 1 for the trapezoid.
        for wh in [0.1, 1.0, 2.0, 10.0, 1e3] {
            let y = one_step(method, &Oscillator(wh), &[1.0, 0.0], 1.0);
            let gain = y[0].hypot(y[1]);
            let r = published_r(method, (0.0, wh));
            assert!(
                (gain - r.0.hypot(r.1)).abs() < 1e-12,
                "{method:?} at {wh}i: {gain}"
            );
            assert!(gain <= 1.0 + 1e-12, "{method:?}: |R({wh}i)| = {gain}");
            if method == Method::Trapezoid {
                assert!((gain - 1.0).abs() < 1e-12);
            }
        }
    }
}
