//! Bifurcation test functions from the multipliers `μ_i` of the reduced stride Jacobian
//! (Kuznetsov, *Elements of Applied Bifurcation Theory*, ch. 10; Govaerts, *Numerical Methods
//! for Bifurcations of Dynamical Equilibria*, for the bialternate product):
//!
//! - fold `ψ_F = det(J − I) = Π (μ_i − 1)` (a multiplier crosses +1);
//! - period doubling `ψ_PD = det(J + I) = Π (μ_i + 1)` (crosses −1);
//! - Neimark–Sacker `ψ_NS = Π_{i<j} (μ_i μ_j − 1)` (the bialternate-product determinant: zero when
//!   a complex pair has `|μ| = 1`; also when two real multipliers satisfy `μ_i μ_j = 1`, which
//!   [`is_neimark_sacker`] filters out).

use nalgebra::Complex;

/// `[ψ_F, ψ_PD, ψ_NS]` from the multipliers.
pub fn test_functions(mu: &[Complex<f64>]) -> [f64; 3] {
    let one = Complex::new(1.0, 0.0);
    let fold = mu.iter().fold(one, |acc, m| acc * (m - one)).re;
    let pd = mu.iter().fold(one, |acc, m| acc * (m + one)).re;
    let mut ns = one;
    for i in 0..mu.len() {
        for j in i + 1..mu.len() {
            ns *= mu[i] * mu[j] - one;
        }
    }
    [fold, pd, ns.re]
}

/// Whether a sign change of `ψ_NS` is a true Neimark–Sacker point: a complex pair (imaginary
/// part above `tol`) with modulus within `tol` of 1.
pub fn is_neimark_sacker(mu: &[Complex<f64>], tol: f64) -> bool {
    mu.iter()
        .any(|m| m.im.abs() > tol && (m.norm() - 1.0).abs() < tol.max(1e-6))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs() {
        let c = |re, im| Complex::new(re, im);
        let t = test_functions(&[c(0.5, 0.0), c(-0.9, 0.0)]);
        assert!(t[0] > 0.0 && t[1] > 0.0);
        let t = test_functions(&[c(0.5, 0.0), c(-1.1, 0.0)]);
        assert!(t[1] < 0.0, "past −1");
        // A multiplier crossing +1 flips the sign of the fold function.
        let past = test_functions(&[c(1.1, 0.0), c(0.5, 0.0)])[0];
        let before = test_functions(&[c(0.9, 0.0), c(0.5, 0.0)])[0];
        assert!(past * before < 0.0);
        let inside = test_functions(&[c(0.0, 0.9), c(0.0, -0.9)])[2];
        let outside = test_functions(&[c(0.0, 1.1), c(0.0, -1.1)])[2];
        assert!(inside * outside < 0.0);
        assert!(is_neimark_sacker(&[c(0.6, 0.8), c(0.6, -0.8)], 1e-6));
    }
}
