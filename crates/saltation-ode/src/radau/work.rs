//! The workspace of the Radau IIA stepper: every vector a step needs, allocated once in
//! `start` (the step loop does not allocate).

/// Vectors of the full state length `N = n (1 + c)`.
#[derive(Debug, Clone, Default)]
pub(super) struct Work {
    /// State at the current point.
    pub y: Vec<f64>,
    /// State at the start of the last step.
    pub y_prev: Vec<f64>,
    /// `f(t, y)`.
    pub f: Vec<f64>,
    /// `f` at the start of the last step.
    pub f_prev: Vec<f64>,
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
            y,
            y_prev,
            f,
            f_prev,
            z,
            w,
            k,
            tmp,
            tmp2,
            q,
            scal,
        } = self;
        let singles = [y, y_prev, f, f_prev, tmp, tmp2, scal];
        for v in singles.into_iter().chain(z).chain(w).chain(k).chain(q) {
            v.clear();
            v.resize(len, 0.0);
        }
    }
}
