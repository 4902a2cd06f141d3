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
        self.model.flow::<f64>(self.mode, t, x, dx);
        let mut jac = self.jac.borrow_mut();
        flow_jacobian(self.model, self.mode, t, x, &mut jac);
        // dΦ = J Φ, row-major.
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
}
