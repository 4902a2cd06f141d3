//! The Taylor series of one step of an affine system, which is also the step's dense output.
//!
//! For `y' = A y + b` from `(y₀, f₀ = A y₀ + b)` the solution is
//! `y(t₀ + θh) = y₀ + Σ_{k≥1} θᵏ d_k` with `d_k = hᵏ/k! · A^{k−1} f₀`
//! (every derivative of `y` is `y^{(k)} = A^{k−1} f₀`). With `ρ(A) h ≤ 1` the terms decay
//! like `1/k!` once `k` passes the non-normal transient, so a few dozen matrix–vector products
//! give the state anywhere in the step to rounding.

/// Most terms summed before the series is declared not converged.
pub(crate) const MAX_TERMS: usize = 64;

/// The terms `d_1, …, d_K` of the last series built.
#[derive(Debug, Clone, Default)]
pub(crate) struct Series {
    /// `d_k` at `[(k−1) n, k n)`.
    terms: Vec<f64>,
    len: usize,
    n: usize,
}

impl Series {
    /// Builds `d_k` for a step of `h` from `f0` until two consecutive terms are below
    /// `ε/4` times the largest of `‖y₀‖∞` and the terms so far; `false` when that takes more
    /// than [`MAX_TERMS`] terms or a term is not finite. Two small terms are not a proof that
    /// the rest is small (for a far-from-normal `A` with `h‖A‖ ≫ k` later terms may grow
    /// again; requiring `k > h‖A‖` would be, but costs hundreds of terms for such a matrix
    /// although `ρ(A) h ≤ 1`): the stepper checks the series of a full step against the
    /// exponential's end point once per `(A, b)` and takes `e^{Ãs}` instead where it fails.
    pub(crate) fn build(&mut self, a: &[f64], y0: &[f64], f0: &[f64], h: f64) -> bool {
        let n = y0.len();
        self.n = n;
        self.len = 0;
        if self.terms.len() < MAX_TERMS * n {
            self.terms.resize(MAX_TERMS * n, 0.0);
        }
        let mut scale = y0.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let mut small = 0;
        for k in 1..=MAX_TERMS {
            let (done, rest) = self.terms.split_at_mut((k - 1) * n);
            let d = &mut rest[..n];
            if k == 1 {
                for (di, fi) in d.iter_mut().zip(f0) {
                    *di = h * fi;
                }
            } else {
                let prev = &done[(k - 2) * n..];
                let c = h / k as f64;
                for (i, di) in d.iter_mut().enumerate() {
                    let row = &a[i * n..(i + 1) * n];
                    *di = c * row.iter().zip(prev).map(|(x, y)| x * y).sum::<f64>();
                }
            }
            let m = super::max_abs(d);
            if !m.is_finite() {
                return false;
            }
            self.len = k;
            scale = scale.max(m);
            small = if m <= 0.25 * f64::EPSILON * scale {
                small + 1
            } else {
                0
            };
            if small == 2 {
                return true;
            }
        }
        false
    }

    /// `out = y₀ + Σ θᵏ d_k` (Horner's rule in `θ`).
    pub(crate) fn eval(&self, y0: &[f64], th: f64, out: &mut [f64]) {
        let n = self.n;
        out[..n].fill(0.0);
        for k in (1..=self.len).rev() {
            let d = &self.terms[(k - 1) * n..k * n];
            for (o, di) in out[..n].iter_mut().zip(d) {
                *o = (*o + di) * th;
            }
        }
        for (o, y) in out[..n].iter_mut().zip(y0) {
            *o += y;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The harmonic oscillator `x'' = −ω² x` over a step with `ωh = 1`, anywhere in it.
    #[test]
    fn series_matches_the_oscillator_solution() {
        let w: f64 = 35.0;
        let a = [0.0, 1.0, -w * w, 0.0];
        let y0 = [0.3, -2.0];
        let f0 = [y0[1], -w * w * y0[0]];
        let h = 1.0 / w;
        let mut s = Series::default();
        assert!(s.build(&a, &y0, &f0, h));
        let mut y = [0.0; 2];
        for th in [0.0, 0.25, 0.7, 1.0] {
            s.eval(&y0, th, &mut y);
            let t = th * h;
            let x = y0[0] * (w * t).cos() + y0[1] / w * (w * t).sin();
            let v = -y0[0] * w * (w * t).sin() + y0[1] * (w * t).cos();
            assert!((y[0] - x).abs() < 1e-15, "{th}: {y:?}");
            assert!((y[1] - v).abs() < 1e-14 * w, "{th}: {y:?}");
        }
        assert!(!s.build(&a, &y0, &[f64::NAN, 1.0], h));
    }
}
