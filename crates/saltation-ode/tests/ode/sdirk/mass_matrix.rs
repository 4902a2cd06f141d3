//! A nonsingular mass matrix: M y' = M g(t, y) has the smooth problem's solution.

use super::*;

#[test]
fn a_nonsingular_mass_matrix_gives_the_same_solution() {
    for method in METHODS {
        let mut errs = Vec::new();
        for tol in [1e-5, 1e-8] {
            let s = Ivp::new(&Massive { singular: false }, 0.0, &smooth_exact(0.0))
                .solve(method, T_END, &SolverOptions::with_tol(tol))
                .unwrap();
            let plain = Ivp::new(&smooth(), 0.0, &smooth_exact(0.0))
                .solve(method, T_END, &SolverOptions::with_tol(tol))
                .unwrap();
            let ex = smooth_exact(T_END);
            let err = (0..3).map(|i| (s.y[i] - ex[i]).abs()).fold(0.0, f64::max);
            let err_plain = (0..3)
                .map(|i| (plain.y[i] - ex[i]).abs())
                .fold(0.0, f64::max);
            // The same formulas in another basis: the same accuracy within a factor 3.
            assert!(
                err < 3.0 * err_plain && err_plain < 3.0 * err,
                "{method:?}: {err} vs {err_plain}"
            );
            errs.push(err);
        }
        // Three decades of tolerance: the error falls like tol^(2/3) (a factor 100).
        assert!(errs[0] / errs[1] > 30.0, "{method:?}: {errs:?}");
    }
}
