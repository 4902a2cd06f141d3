//! A stiff linear problem with closed form.

use super::*;

/// `y' = A (y − g(t)) + g'(t)`, `g = (sin t, cos t)`, `A = P diag(−1, −10⁴) P⁻¹`,
/// `P = [[1, 1], [1, −1]]`: `y = g + P e^{Dt} P⁻¹ (y₀ − g(0))`.
pub(crate) struct StiffLinear;
pub(crate) const L1: f64 = -1.0;
pub(crate) const L2: f64 = -1e4;
impl OdeSystem for StiffLinear {
    fn dim(&self) -> usize {
        2
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (a, b) = (0.5 * (L1 + L2), 0.5 * (L1 - L2));
        let (u, v) = (y[0] - t.sin(), y[1] - t.cos());
        dy[0] = a * u + b * v + t.cos();
        dy[1] = b * u + a * v - t.sin();
    }
}

pub(crate) fn stiff_exact(t: f64, y0: [f64; 2]) -> [f64; 2] {
    let (u, v) = (y0[0], y0[1] - 1.0);
    let (p, q) = (0.5 * (u + v), 0.5 * (u - v));
    let (p, q) = (p * (L1 * t).exp(), q * (L2 * t).exp());
    [t.sin() + p + q, t.cos() + p - q]
}

#[test]
fn stiff_linear_errors_track_the_tolerance() {
    let y0 = [1.0, 0.5];
    for method in METHODS {
        let mut ratios = Vec::new();
        for tol in [1e-4, 1e-7, 1e-10] {
            let s = Ivp::new(&StiffLinear, 0.0, &y0)
                .solve(method, 2.0, &SolverOptions::with_tol(tol))
                .unwrap();
            let e = stiff_exact(2.0, y0);
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
