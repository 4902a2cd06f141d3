//! Stiff problems: a vector Prothero–Robinson problem with closed form (error against the
//! tolerance) and Robertson's kinetics against the published values, as an ODE and as a DAE.

use saltation_ode::{Ivp, OdeSystem, Sampling, SolverOptions};

use super::{robertson_opts, FAMILIES};
use crate::common::{Robertson, ROBERTSON_40};

/// `y' = A (y − g(t)) + g'(t)` with `A = P Λ P⁻¹`, `Λ = diag(−1, −10³, −10⁶)`,
/// `P = [[1,1,1],[0,1,1],[0,0,1]]`, `g = (cos t, sin 2t, e^{−t/2})`: a vector
/// Prothero–Robinson problem whose solution from `y(0) = g(0) + P 𝟙` is
/// `y(t) = g(t) + P e^{Λt} 𝟙` (a stiff transient on top of a smooth forced solution).
pub(super) struct VectorProtheroRobinson;

const LAMBDA: [f64; 3] = [-1.0, -1e3, -1e6];

impl VectorProtheroRobinson {
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
    pub(super) fn exact(t: f64) -> [f64; 3] {
        let (g, _) = Self::g(t);
        let e = LAMBDA.map(|l| (l * t).exp());
        [g[0] + e[0] + e[1] + e[2], g[1] + e[1] + e[2], g[2] + e[2]]
    }
}

impl OdeSystem for VectorProtheroRobinson {
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
    let sys = VectorProtheroRobinson;
    let y0 = VectorProtheroRobinson::exact(0.0);
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
                let x = VectorProtheroRobinson::exact(t);
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

#[test]
fn robertson_reaches_the_published_values_at_t_40_as_ode_and_as_dae() {
    for method in FAMILIES {
        for rtol in [1e-6, 1e-9] {
            let ode = Ivp::new(&Robertson::ODE, 0.0, &[1.0, 0.0, 0.0])
                .solve(method, 40.0, &robertson_opts(rtol))
                .unwrap();
            let dae = Ivp::new(&Robertson::DAE, 0.0, &[1.0, 0.0, 0.0])
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

/// Robertson's DAE from `y₃(0) = 0.5` (so `y₁ + y₂ + y₃ − 1 = 0.5`): refused at the start as
/// inconsistent, naming the algebraic equation, instead of a step size falling to its floor at
/// t = 0; the consistent start `(0.9, 0.05, 0.05)` is accepted.
#[test]
fn inconsistent_dae_initial_values_are_named() {
    use saltation_ode::OdeError;
    for method in FAMILIES {
        let r = Ivp::new(&Robertson::DAE, 0.0, &[1.0, 0.0, 0.5]).solve(
            method,
            1.0,
            &robertson_opts(1e-8),
        );
        match &r {
            Err(
                e @ OdeError::InconsistentInitial {
                    equation, residual, ..
                },
            ) => {
                assert_eq!((*equation, *residual), (2, 0.5));
                assert!(e.to_string().contains("inconsistent initial values"), "{e}");
            }
            other => panic!("{}: {:?}", method.name(), other.as_ref().map(|s| s.t)),
        }
        let s = Ivp::new(&Robertson::DAE, 0.0, &[0.9, 0.05, 0.05])
            .solve(method, 1.0, &robertson_opts(1e-8))
            .unwrap();
        assert_eq!(s.t, 1.0);
    }
}
