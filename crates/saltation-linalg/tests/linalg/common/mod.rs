//! Shared helpers for the integration tests: a small deterministic RNG and matrix builders.

#![allow(dead_code)]

use nalgebra::{Complex, DMatrix};

/// SplitMix64 (Steele, Lea, Flood 2014): deterministic, seedable, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [−1, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }

    pub fn matrix(&mut self, n: usize) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |_, _| self.uniform())
    }

    /// Random orthogonal matrix: Q factor of a random matrix.
    pub fn orthogonal(&mut self, n: usize) -> DMatrix<f64> {
        self.matrix(n).qr().q()
    }

    /// Random permutation of 0..n (Fisher–Yates).
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        let mut p: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            p.swap(i, j);
        }
        p
    }
}

/// Companion matrix of xⁿ − r with ones on the subdiagonal and `r` in the top-right corner
/// (the last column holds minus the low-order coefficients).
pub fn companion_column(n: usize, r: f64) -> DMatrix<f64> {
    let mut c = DMatrix::zeros(n, n);
    for i in 1..n {
        c[(i, i - 1)] = 1.0;
    }
    c[(0, n - 1)] = r;
    c
}

/// Transposed companion matrix of xⁿ − r: ones on the superdiagonal, `r` in the bottom-left
/// corner (the form in which the last row holds minus the coefficients).
pub fn companion_transposed(n: usize, r: f64) -> DMatrix<f64> {
    companion_column(n, r).transpose()
}

/// The n roots of xⁿ = r (r > 0): r^{1/n} e^{2πik/n}.
pub fn roots_of(n: usize, r: f64) -> Vec<Complex<f64>> {
    let rho = r.powf(1.0 / n as f64);
    (0..n)
        .map(|k| Complex::from_polar(rho, 2.0 * std::f64::consts::PI * k as f64 / n as f64))
        .collect()
}

/// Largest distance in an optimal-ish (greedy nearest) matching of `got` to `want`.
/// Panics if the counts differ.
pub fn match_error(got: &[Complex<f64>], want: &[Complex<f64>]) -> f64 {
    assert_eq!(got.len(), want.len(), "eigenvalue count");
    let mut free: Vec<Complex<f64>> = got.to_vec();
    let mut worst: f64 = 0.0;
    for w in want {
        let (idx, d) = free
            .iter()
            .enumerate()
            .map(|(i, g)| (i, (g - w).norm()))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("nonempty");
        worst = worst.max(d);
        free.swap_remove(idx);
    }
    worst
}

/// Smallest singular value of A − λI (complex), relative to ‖A‖₂-ish (Frobenius norm).
pub fn relative_backward_error(a: &DMatrix<f64>, lambda: Complex<f64>) -> f64 {
    let n = a.nrows();
    let shifted = DMatrix::from_fn(n, n, |i, j| {
        Complex::new(a[(i, j)], 0.0)
            - if i == j {
                lambda
            } else {
                Complex::new(0.0, 0.0)
            }
    });
    let svd =
        nalgebra::SVD::try_new(shifted, false, false, f64::EPSILON, 10_000).expect("SVD converged");
    svd.singular_values.min() / a.norm()
}
