//! Variational equations.

use super::*;

/// `x₁' = −x₁²`, `(x₂, x₃)' = ω (x₃, −x₂)`, with `Φ' = f_x Φ` (3 × 3): `Φ(t) =
/// diag(1/(1 + x₁(0) t)², [[cos ωt, sin ωt], [−sin ωt, cos ωt]])`.
pub(crate) struct Variational {
    analytic: bool,
}
pub(crate) const OMEGA: f64 = 3.0;
impl OdeSystem for Variational {
    fn dim(&self) -> usize {
        12
    }
    fn variational_columns(&self) -> usize {
        3
    }
    fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = -y[0] * y[0];
        dy[1] = OMEGA * y[2];
        dy[2] = -OMEGA * y[1];
        let mut fx = [0.0; 9];
        Variational { analytic: true }.jacobian(0.0, y, &mut fx);
        for i in 0..3 {
            for c in 0..3 {
                dy[3 + 3 * i + c] = (0..3).map(|k| fx[3 * i + k] * y[3 + 3 * k + c]).sum();
            }
        }
    }
    fn jacobian(&self, _t: f64, y: &[f64], j: &mut [f64]) -> bool {
        j.copy_from_slice(&[-2.0 * y[0], 0.0, 0.0, 0.0, 0.0, OMEGA, 0.0, -OMEGA, 0.0]);
        self.analytic
    }
}

pub(crate) fn phi_exact(t: f64, x10: f64) -> [f64; 9] {
    let (s, c) = (OMEGA * t).sin_cos();
    let a = 1.0 / (1.0 + x10 * t).powi(2);
    [a, 0.0, 0.0, 0.0, c, s, 0.0, -s, c]
}

#[test]
fn variational_matrix_follows_the_closed_form() {
    let mut y0 = vec![0.0; 12];
    y0[..3].copy_from_slice(&[1.0, 1.0, 0.0]);
    for k in 0..3 {
        y0[3 + 4 * k] = 1.0;
    }
    for method in METHODS {
        for analytic in [true, false] {
            let mut errs = Vec::new();
            for tol in [1e-5, 1e-8] {
                let opts = SolverOptions {
                    error_dims: Some(3),
                    ..SolverOptions::with_tol(tol)
                };
                let s = Ivp::new(&Variational { analytic }, 0.0, &y0)
                    .solve(method, 2.0, &opts)
                    .unwrap();
                let x = [1.0 / 3.0, (OMEGA * 2.0).cos(), -(OMEGA * 2.0).sin()];
                let ex = (0..3).map(|i| (s.y[i] - x[i]).abs()).fold(0.0, f64::max);
                let phi = phi_exact(2.0, 1.0);
                let ep = (0..9)
                    .map(|i| (s.y[3 + i] - phi[i]).abs())
                    .fold(0.0, f64::max);
                println!(
                    "{method:?} analytic J {analytic}, tol {tol:e}: x error {ex:.2e}, Φ error \
                     {ep:.2e}, {} steps",
                    s.stats.steps
                );
                // Φ follows the same formula with the same steps as x, though it is not in the
                // error norm: the same accuracy within a factor 3.
                assert!(ep < 3.0 * ex, "{method:?}: x {ex}, Φ {ep}");
                errs.push((ex, ep));
            }
            // Both fall like tol^(2/3) over three decades (a factor 100).
            assert!(
                errs[0].0 / errs[1].0 > 30.0 && errs[0].1 / errs[1].1 > 30.0,
                "{errs:?}"
            );
        }
    }
}
