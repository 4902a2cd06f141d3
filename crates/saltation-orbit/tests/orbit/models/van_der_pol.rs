//! The van der Pol oscillator `ẍ − ε(1 − x²)ẋ + x = 0` (van der Pol 1926, Phil. Mag. 2:978) as a
//! hybrid model with a Poincaré section: state `[x, y = ẋ]`, `f = [y, ε(1 − x²) y − x]`, guard
//! `y = 0` crossed falling with `x > 0` (the maxima of `x`), identity reset, reduced coordinate
//! `u = [x]` (chart `(u, 0)`, projection `x`). The origin is an equilibrium; the limit cycle at
//! `ε = 1` has period `T = 6.663286859323130…`.

#![allow(dead_code)]

use saltation_hybrid::{EvalModel, Guard, Scalar};

/// The van der Pol oscillator with the section `y = 0`, `x > 0`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VanDerPol {
    /// Nonlinearity `ε > 0`.
    pub epsilon: f64,
}

impl EvalModel for VanDerPol {
    fn name(&self) -> &str {
        "van_der_pol"
    }
    fn dim(&self) -> usize {
        2
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = (-x[0] * x[0] + 1.0) * x[1] * self.epsilon - x[0];
    }
    fn guards(&self, _mode: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
        x[1]
    }
    fn describe_guard(&self, _mode: usize, _j: usize) -> Guard<Self> {
        Guard::to(0).falling()
    }
    fn guard_enabled(&self, _mode: usize, _j: usize, x: &[f64]) -> bool {
        x[0] > 0.0
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = D::from(0.0);
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[0];
    }
}
