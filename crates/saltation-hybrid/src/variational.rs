//! The flow of one mode, plain or extended by its variational equations.
//!
//! The extended state is `[x, Φ]` with `Φ` the n×n sensitivity matrix (row-major):
//! `x' = f(t, x)`, `Φ' = f_x(t, x) Φ`. Starting from `Φ = I` (or from the product accumulated
//! over earlier segments, since the equations are linear in `Φ`), `Φ(t)` is the flow Jacobian.

use crate::ad::flow_jacobian;
use crate::model::HybridModel;
use saltation_ode::OdeSystem;
use std::cell::RefCell;

/// `x' = f_m(t, x)` of one mode.
pub struct ModeFlow<'a, M: ?Sized> {
    /// The model.
    pub model: &'a M,
    /// The mode.
    pub mode: usize,
}

impl<M: HybridModel + ?Sized> OdeSystem for ModeFlow<'_, M> {
    fn dim(&self) -> usize {
        self.model.dim()
    }
    #[inline]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.model.flow::<f64>(self.mode, t, y, dy);
    }
    /// The exact `f_x` (the model's own, or forward AD), for the implicit methods.
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        flow_jacobian(self.model, self.mode, t, y, jac);
        true
    }
    fn time_derivative(&self, t: f64, y: &[f64], dfdt: &mut [f64]) -> bool {
        self.model.flow_time_derivative(self.mode, t, y, dfdt)
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        self.model.mass_matrix(self.mode)
    }
}

/// `[x, Φ]' = [f(t, x), f_x(t, x) Φ]` of one mode (state of size n + n²).
pub struct VariationalFlow<'a, M: ?Sized> {
    model: &'a M,
    mode: usize,
    jac: RefCell<Vec<f64>>,
}

impl<'a, M: HybridModel + ?Sized> VariationalFlow<'a, M> {
    /// The extended flow of `mode`.
    pub fn new(model: &'a M, mode: usize) -> Self {
        let n = model.dim();
        Self {
            model,
            mode,
            jac: RefCell::new(vec![0.0; n * n]),
        }
    }
}

impl<M: HybridModel + ?Sized> OdeSystem for VariationalFlow<'_, M> {
    fn dim(&self) -> usize {
        let n = self.model.dim();
        n + n * n
    }
    #[inline]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.model.dim();
        let (x, phi) = y.split_at(n);
        let (dx, dphi) = dy.split_at_mut(n);
        if n * n <= SMALL {
            let mut jac = [0.0; SMALL];
            self.field(t, x, dx, &mut jac[..n * n]);
            product(&jac[..n * n], phi, dphi, n);
        } else {
            let mut jac = self.jac.borrow_mut();
            self.field(t, x, dx, &mut jac);
            product(&jac, phi, dphi, n);
        }
    }
    /// `Φ` has `n` columns: the implicit methods solve with the `n × n` iteration matrix.
    fn variational_columns(&self) -> usize {
        self.model.dim()
    }
    /// `f_x` at the state part `x` of `[x, Φ]`.
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let n = self.model.dim();
        flow_jacobian(self.model, self.mode, t, &y[..n], jac);
        true
    }
    /// `∂f/∂t` at the state part `x` of `[x, Φ]`.
    fn time_derivative(&self, t: f64, y: &[f64], dfdt: &mut [f64]) -> bool {
        let n = self.model.dim();
        self.model.flow_time_derivative(self.mode, t, &y[..n], dfdt)
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        self.model.mass_matrix(self.mode)
    }
}

/// Jacobians up to this many entries live on the stack.
const SMALL: usize = 64;

impl<M: HybridModel + ?Sized> VariationalFlow<'_, M> {
    /// `f` and `f_x` at `(t, x)`: in one call if the model offers it; else its hand-written
    /// `f_x` with `f`; else both from one pass of automatic differentiation.
    #[inline]
    fn field(&self, t: f64, x: &[f64], dx: &mut [f64], jac: &mut [f64]) {
        if self.model.flow_and_jacobian(self.mode, t, x, dx, jac) {
            return;
        }
        if self.model.flow_jacobian(self.mode, t, x, jac) {
            self.model.flow::<f64>(self.mode, t, x, dx);
        } else {
            crate::ad::flow_and_jacobian_ad(self.model, self.mode, t, x, dx, jac);
        }
    }
}

/// `dΦ = J Φ` (row-major n×n), skipping zero entries of `J`.
#[inline]
fn product(jac: &[f64], phi: &[f64], dphi: &mut [f64], n: usize) {
    for i in 0..n {
        let ji = &jac[i * n..(i + 1) * n];
        let row = &mut dphi[i * n..(i + 1) * n];
        row.fill(0.0);
        for (k, &jik) in ji.iter().enumerate() {
            if jik != 0.0 {
                let pk = &phi[k * n..(k + 1) * n];
                for (r, p) in row.iter_mut().zip(pk) {
                    *r += jik * p;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GuardInfo, Scalar};
    use saltation_ode::{Direction, Ivp, Method, SolverOptions};

    /// `x' = −x + sin t` with its hand-written `∂f/∂t = cos t`; `x(t) = (sin t − cos t)/2 +
    /// (x₀ + 1/2) e^{−t}`.
    struct Forced;

    impl HybridModel for Forced {
        fn name(&self) -> &str {
            "forced"
        }
        fn dim(&self) -> usize {
            1
        }
        fn flow<D: Scalar>(&self, _mode: usize, t: f64, x: &[D], dx: &mut [D]) {
            dx[0] = -x[0] + t.sin();
        }
        fn flow_time_derivative(&self, _mode: usize, t: f64, _x: &[f64], dfdt: &mut [f64]) -> bool {
            dfdt[0] = t.cos();
            true
        }
        fn guards(&self, _mode: usize) -> usize {
            0
        }
        fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
            x[0]
        }
        fn guard_info(&self, _mode: usize, _j: usize) -> GuardInfo {
            GuardInfo {
                direction: Direction::Either,
                target: 0,
            }
        }
    }

    #[test]
    fn both_flows_forward_the_models_time_derivative() {
        let (t, x) = (0.7, [0.3]);
        let mut dfdt = [0.0];
        let plain = ModeFlow {
            model: &Forced,
            mode: 0,
        };
        assert!(plain.time_derivative(t, &x, &mut dfdt));
        assert_eq!(dfdt[0], t.cos());
        let var = VariationalFlow::new(&Forced, 0);
        dfdt[0] = 0.0;
        assert!(var.time_derivative(t, &[0.3, 1.0], &mut dfdt));
        assert_eq!(dfdt[0], t.cos());
    }

    /// The Rosenbrock method uses the forwarded `∂f/∂t` (no finite difference in `t`) and
    /// reaches the closed form.
    #[test]
    fn rosenbrock_on_a_forced_mode_matches_the_closed_form() {
        let sys = ModeFlow {
            model: &Forced,
            mode: 0,
        };
        let opts = SolverOptions {
            rtol: 1e-8,
            ..Default::default()
        };
        let sol = Ivp::new(&sys, 0.0, &[1.0])
            .solve(Method::Rosenbrock23, 5.0, &opts)
            .unwrap();
        let exact = (5f64.sin() - 5f64.cos()) / 2.0 + 1.5 * (-5f64).exp();
        let err = (sol.y[0] - exact).abs();
        assert!(err < 1e-6, "error {err:e}");
    }
}
