//! A stiff linear problem with closed form.

use super::*;

#[test]
fn stiff_linear_errors_track_the_tolerance() {
    let y0 = [1.0, 0.5];
    for method in METHODS {
        let mut ratios = Vec::new();
        for tol in [1e-4, 1e-7, 1e-10] {
            let s = Ivp::new(&StiffLinear, 0.0, &y0)
                .solve(method, 2.0, &SolverOptions::with_tol(tol))
                .unwrap();
            let e = StiffLinear::exact(2.0, y0);
            let err = (0..2).map(|i| (s.y[i] - e[i]).abs()).fold(0.0, f64::max);
            let ratio = err / tol;
            println!(
                "{method:?} tol {tol:e}: error {err:.3e}, error/tol {ratio:.3}, {} steps, \
                 {} rejected, {} f, {} J, {} LU",
                s.stats.steps,
                s.stats.rejected_steps,
                s.stats.rhs_evals,
                s.stats.jacobian_evals,
                s.stats.lu_decompositions
            );
            ratios.push(ratio);
        }
        for r in &ratios {
            assert!(
                *r < 2.0 * ratios[0] && *r > 0.5 * ratios[0] && *r < 3.0,
                "{method:?}: error/tol = {ratios:?}"
            );
        }
    }
}
