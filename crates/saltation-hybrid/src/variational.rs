//! The flow of one mode, plain or extended by its variational equations.
//!
//! The extended state is `[x, Φ]` with `Φ` the n×n sensitivity matrix (row-major):
//! `x' = f(t, x)`, `Φ' = f_x(t, x) Φ`. Starting from `Φ = I` (or from the product accumulated
//! over earlier segments, since the equations are linear in `Φ`), `Φ(t)` is the flow Jacobian.
//!
//! The equations are linear in `Φ` column by column, so they may carry any `n × c` matrix
//! instead ([`VariationalFlow::with_columns`]): started from a seed `V` (e.g. the `n × r`
//! Jacobian of a section's chart), the solution is `Φ(t) V`, at about `c/n` of the cost of the
//! full matrix: a shooting method on a section only needs the directions it perturbs.

use crate::model::EvalModel;
use saltation_ode::OdeSystem;
use std::cell::RefCell;

/// `x' = f_m(t, x)` of one mode.
pub struct ModeFlow<'a, M: ?Sized> {
    /// The model.
    pub model: &'a M,
    /// The mode.
    pub mode: usize,
}

impl<M: EvalModel + ?Sized> OdeSystem for ModeFlow<'_, M> {
    fn dim(&self) -> usize {
        self.model.dim()
    }
    #[inline]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        self.model.flow(self.mode, t, y, dy);
    }
    /// The exact `f_x` (the model's own, or forward AD), for the implicit methods.
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        self.model.flow_jacobian(self.mode, t, y, jac);
        true
    }
    fn time_derivative(&self, t: f64, y: &[f64], dfdt: &mut [f64]) -> bool {
        self.model.flow_time_derivative(self.mode, t, y, dfdt)
    }
    fn mass_matrix(&self) -> Option<Vec<f64>> {
        self.model.mass_matrix(self.mode)
    }
    fn is_autonomous_affine(&self) -> bool {
        self.model.flow_jacobian_is_constant(self.mode) && self.model.flow_is_autonomous(self.mode)
    }
}

/// `[x, Φ]' = [f(t, x), f_x(t, x) Φ]` of one mode, `Φ` of `n × c` (state of size
/// `n + n c`; `c = n` for the full flow Jacobian).
pub struct VariationalFlow<'a, M: ?Sized> {
    model: &'a M,
    mode: usize,
    cols: usize,
    jac: RefCell<Vec<f64>>,
}

impl<'a, M: EvalModel + ?Sized> VariationalFlow<'a, M> {
    /// The extended flow of `mode` with the full `n × n` matrix `Φ`.
    pub fn new(model: &'a M, mode: usize) -> Self {
        Self::with_columns(model, mode, model.dim())
    }

    /// The extended flow of `mode` carrying `cols` columns: `[x, Ψ]' = [f, f_x Ψ]` with `Ψ` of
    /// `n × cols` (row-major), whose solution from `Ψ(t₀) = V` is `Φ(t, t₀) V`.
    pub fn with_columns(model: &'a M, mode: usize, cols: usize) -> Self {
        let n = model.dim();
        Self {
            model,
            mode,
            cols,
            jac: RefCell::new(if n * n <= SMALL {
                Vec::new()
            } else {
                vec![0.0; n * n]
            }),
        }
    }
}

impl<M: EvalModel + ?Sized> OdeSystem for VariationalFlow<'_, M> {
    fn dim(&self) -> usize {
        let n = self.model.dim();
        n + n * self.cols
    }
    #[inline]
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let n = self.model.dim();
        if self.cols != n {
            return self.rhs_columns(t, y, dy);
        }
        let (x, phi) = y.split_at(n);
        let (dx, dphi) = dy.split_at_mut(n);
        if n * n <= SMALL {
            let mut jac = [0.0; SMALL];
            self.field(t, x, dx, &mut jac[..n * n]);
            product(&jac[..n * n], phi, dphi, n, n);
        } else {
            let mut jac = self.jac.borrow_mut();
            self.field(t, x, dx, &mut jac);
            product(&jac, phi, dphi, n, n);
        }
    }
    /// `Φ` has `c` columns: the implicit methods solve with the `n × n` iteration matrix.
    fn variational_columns(&self) -> usize {
        self.cols
    }
    /// `f_x` at the state part `x` of `[x, Φ]`.
    fn jacobian(&self, t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let n = self.model.dim();
        self.model.flow_jacobian(self.mode, t, &y[..n], jac);
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

impl<M: EvalModel + ?Sized> VariationalFlow<'_, M> {
    /// [`OdeSystem::rhs`] for `c ≠ n` columns (kept out of the full matrix's path, which stays
    /// small enough to be inlined into the integrator).
    #[inline(never)]
    fn rhs_columns(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        let (n, c) = (self.model.dim(), self.cols);
        let (x, phi) = y.split_at(n);
        let (dx, dphi) = dy.split_at_mut(n);
        let mut small = [0.0; SMALL];
        let mut big = if n * n <= SMALL {
            None
        } else {
            Some(self.jac.borrow_mut())
        };
        let jac: &mut [f64] = match big.as_deref_mut() {
            Some(j) => j,
            None => &mut small[..n * n],
        };
        self.field(t, x, dx, jac);
        match c {
            1 => product_narrow::<1>(jac, phi, dphi, n),
            2 => product_narrow::<2>(jac, phi, dphi, n),
            3 => product_narrow::<3>(jac, phi, dphi, n),
            _ => product(jac, phi, dphi, n, c),
        }
    }

    /// `f` and `f_x` at `(t, x)` in one call (hand-written, or one pass of automatic
    /// differentiation).
    #[inline]
    fn field(&self, t: f64, x: &[f64], dx: &mut [f64], jac: &mut [f64]) {
        self.model.flow_and_jacobian(self.mode, t, x, dx, jac);
    }
}

/// `dΦ = J Φ` (`J` n×n, `Φ` n×c, row-major), skipping zero entries of `J`.
#[inline]
fn product(jac: &[f64], phi: &[f64], dphi: &mut [f64], n: usize, c: usize) {
    for i in 0..n {
        let ji = &jac[i * n..(i + 1) * n];
        let row = &mut dphi[i * c..(i + 1) * c];
        row.fill(0.0);
        for (k, &jik) in ji.iter().enumerate() {
            if jik != 0.0 {
                let pk = &phi[k * c..(k + 1) * c];
                for (r, p) in row.iter_mut().zip(pk) {
                    *r += jik * p;
                }
            }
        }
    }
}

/// [`product`] for `C ≤ 3` columns (a section's reduced coordinates), with the row length
/// known at compile time and no zero test (it costs more than it saves on so short rows).
#[inline(always)]
fn product_narrow<const C: usize>(jac: &[f64], phi: &[f64], dphi: &mut [f64], n: usize) {
    for (ji, row) in jac.chunks_exact(n).zip(dphi.chunks_exact_mut(C)) {
        let mut acc = [0.0; C];
        for (&jik, pk) in ji.iter().zip(phi.chunks_exact(C)) {
            for (a, p) in acc.iter_mut().zip(pk) {
                *a += jik * p;
            }
        }
        row.copy_from_slice(&acc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, GuardSpec, HybridModel, Scalar, TimeDerivative};
    use saltation_ode::{Ivp, Method, SolverOptions};

    /// `x' = −x + sin t` with its hand-written `∂f/∂t = cos t`; `x(t) = (sin t − cos t)/2 +
    /// (x₀ + 1/2) e^{−t}`.
    #[derive(Clone)]
    struct ForcedEq;

    impl HybridModel for ForcedEq {
        type Guard = usize;
        fn name(&self) -> &str {
            "forced"
        }
        fn dim(&self) -> usize {
            1
        }
        fn flow<D: Scalar>(&self, _: &[D], _mode: usize, t: f64, x: &[D], dx: &mut [D]) {
            dx[0] = -x[0] + t.sin();
        }
        fn guards(&self, _mode: usize) -> &[usize] {
            &[]
        }
        fn describe(&self, _mode: usize, _g: usize) -> GuardSpec {
            GuardSpec::to(0)
        }
        fn guard<D: Scalar>(&self, _: &[D], _mode: usize, _g: usize, x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D], out: &mut [D]) {
            out.copy_from_slice(x);
        }
        fn hand_time_derivative(&self) -> Option<&dyn TimeDerivative> {
            Some(self)
        }
    }

    impl TimeDerivative for ForcedEq {
        fn flow_time_derivative(&self, _: &[f64], _: usize, t: f64, _: &[f64], dfdt: &mut [f64]) {
            dfdt[0] = t.cos();
        }
    }

    #[test]
    fn both_flows_forward_the_models_time_derivative() {
        let forced = Bound::new(ForcedEq);
        let (t, x) = (0.7, [0.3]);
        let mut dfdt = [0.0];
        let plain = ModeFlow {
            model: &forced,
            mode: 0,
        };
        assert!(plain.time_derivative(t, &x, &mut dfdt));
        assert_eq!(dfdt[0], t.cos());
        let var = VariationalFlow::new(&forced, 0);
        dfdt[0] = 0.0;
        assert!(var.time_derivative(t, &[0.3, 1.0], &mut dfdt));
        assert_eq!(dfdt[0], t.cos());
    }

    /// The Rosenbrock method uses the forwarded `∂f/∂t` (no finite difference in `t`) and
    /// reaches the closed form.
    #[test]
    fn rosenbrock_on_a_forced_mode_matches_the_closed_form() {
        let forced = Bound::new(ForcedEq);
        let sys = ModeFlow {
            model: &forced,
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
