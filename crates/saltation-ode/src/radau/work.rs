//! The workspace of the Radau IIA stepper: every vector a step needs, allocated once in
//! `start` (the step loop does not allocate).

use crate::stepper::zeroed;

/// Vectors of the full state length `N = n (1 + c)` (the current point and the last step's
/// start are in the stepper's [`crate::step_state::StepState`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Work {
    /// Stage increments `Zᵢ = Yᵢ − y` (RADAU5's `Z1..Z3`).
    pub z: [Vec<f64>; 3],
    /// Transformed increments `W = (T⁻¹ ⊗ I) Z` (RADAU5's `F1..F3`).
    pub w: [Vec<f64>; 3],
    /// Stage derivatives, then Newton right-hand sides and corrections; scratch of the error
    /// estimate.
    pub k: [Vec<f64>; 3],
    /// Stage argument `y + Zᵢ`; mass-matrix products.
    pub tmp: Vec<f64>,
    /// Second mass-matrix product.
    pub tmp2: Vec<f64>,
    /// Divided differences of the last step's collocation polynomial (see `dense`).
    pub q: [Vec<f64>; 3],
    /// Newton error weights at the step start (controlled components only).
    pub scal: Vec<f64>,
}

impl Work {
    /// Sizes every vector to `len` (keeping the allocation when it already fits).
    pub fn resize(&mut self, len: usize) {
        let Work {
            z,
            w,
            k,
            tmp,
            tmp2,
            q,
            scal,
        } = self;
        let singles = [tmp, tmp2, scal];
        zeroed(singles.into_iter().chain(z).chain(w).chain(k).chain(q), len);
    }
}
