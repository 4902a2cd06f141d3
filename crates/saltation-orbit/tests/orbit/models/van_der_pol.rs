//! The van der Pol oscillator `ẍ − ε(1 − x²)ẋ + x = 0` (van der Pol 1926, Phil. Mag. 2:978) as a
//! hybrid model with a Poincaré section: state `[x, y = ẋ]`, `f = [y, ε(1 − x²) y − x]`, guard
//! `y = 0` crossed falling with `x > 0` (the maxima of `x`), identity reset, reduced coordinate
//! `u = [x]` (chart `(u, 0)`, projection `x`). The origin is an equilibrium; the limit cycle at
//! `ε = 1` has period `T = 6.663286859323130…`.

#![allow(dead_code)]

use saltation_hybrid::{Bound, GuardSpec, HybridModel, Param, Scalar};

/// Index of the nonlinearity `ε` in the parameter vector.
pub const EPSILON: usize = 0;

/// The parameters: the nonlinearity `ε`.
pub const PARAMS: &[Param] = &[Param::new("epsilon", 1.0)];

/// The oscillator's one guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// `y = 0` falling with `x > 0`: a maximum of `x`.
    Maximum,
}

/// The van der Pol oscillator with the section `y = 0`, `x > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VanDerPol;

/// The oscillator at nonlinearity `epsilon`.
pub fn van_der_pol(epsilon: f64) -> Bound<VanDerPol> {
    Bound::with_values(VanDerPol, vec![epsilon]).unwrap()
}

impl HybridModel for VanDerPol {
    type Guard = Section;
    fn name(&self) -> &str {
        "van_der_pol"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    /// `f = [y, ε(1 − x²) y − x]`.
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = (-x[0] * x[0] + 1.0) * x[1] * p[EPSILON] - x[0];
    }
    fn guards(&self, _mode: usize) -> &[Section] {
        &[Section::Maximum]
    }
    fn describe(&self, _mode: usize, g: Section) -> GuardSpec {
        match g {
            Section::Maximum => GuardSpec::to(0).falling().enabled_when(|_, x| x[0] > 0.0),
        }
    }
    /// `h = y`.
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: Section, x: &[D]) -> D {
        match g {
            Section::Maximum => x[1],
        }
    }
    /// The identity.
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, g: Section, x: &[D], out: &mut [D]) {
        match g {
            Section::Maximum => out.copy_from_slice(x),
        }
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    /// `χ(u) = (u, 0)`.
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = D::from(0.0);
    }
    /// `π(x) = x₀`.
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[0];
    }
}
