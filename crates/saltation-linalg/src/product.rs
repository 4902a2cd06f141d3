//! Eigenvalues of a product of square matrices `P = A_K ⋯ A_2 A_1` without forming the product.
//!
//! A product whose eigenvalues span many orders of magnitude (a multiplier of `1e10` beside one
//! of `1e-6`) cannot be formed and handed to a dense eigenvalue routine: rounding the product
//! to double precision perturbs it by `ε‖P‖ ≈ 1e-6`, and the small eigenvalue is lost. The
//! factors themselves are moderately conditioned (the Jacobians of the segments of a multiple
//! shooting), so this module works on them one at a time.
//!
//! # Method: the product QR (periodic QR iteration without shifts)
//! One *sweep* starts from an orthogonal `Q_0` and computes the QR factorisations
//!
//! ```text
//! A_k Q_{k−1} = Q_k R_k,   k = 1, …, K,      R_k upper triangular with R_k(i,i) ≥ 0,
//! ```
//!
//! so that `Q_Kᵀ P Q_0 = R_K ⋯ R_1 =: R` is upper triangular and, with `W = Q_0ᵀ Q_K`,
//!
//! ```text
//! Q_0ᵀ P Q_0 = W R.
//! ```
//!
//! The next sweep starts from `Q_0 ← Q_K`. This is orthogonal (subspace) iteration on `P`
//! carried out factor by factor — the "QR of the product by a sequence of QR factorisations"
//! behind the periodic Schur decomposition (Bojanczyk, Golub & Van Dooren, "The periodic Schur
//! decomposition. Algorithms and applications", Proc. SPIE 1770 (1992) 31–42; its use for
//! Floquet multipliers of multiple shooting: Lust, "Improved numerical Floquet multipliers",
//! Int. J. Bifurcation and Chaos 11 (2001) 2389–2410). After `s` sweeps the entries of `W` below
//! a block boundary between eigenvalues `|λ_i| > |λ_j|` decay as `|λ_j/λ_i|^s`; at convergence
//! `W` is block diagonal (`±1` for a real eigenvalue, a 2 × 2 rotation for a complex pair whose
//! invariant plane the iteration turns), so `W R` is block upper triangular and its eigenvalues
//! are those of its diagonal blocks `W_cc R_cc`, where `R_cc = R_{K,cc} ⋯ R_{1,cc}` is the
//! product of the diagonal blocks of the triangular factors (a diagonal block of a product of
//! upper triangular matrices is the product of their diagonal blocks):
//!
//! - a 1 × 1 block: `λ_i = W_ii ∏_k R_k(i,i)` — the modulus is the product of the diagonals,
//!   no sum and so no cancellation, whatever the other eigenvalues;
//! - a 2 × 2 block: trace `t` and determinant `d = det(W_cc) ∏_k R_k(i,i) R_k(i+1,i+1)` (again
//!   a product), complex pair `t/2 ± i√(d − t²/4)`, or a real pair with the larger root by the
//!   quadratic formula without cancellation and the smaller as `d/λ_big`;
//! - a larger block (eigenvalues whose moduli did not separate in [`MAX_SWEEPS`] sweeps, so
//!   within a ratio of `LINK^{1/MAX_SWEEPS}` of each other, or several exact zeros): the dense
//!   eigenvalues of `W_cc R_cc` ([`crate::eigenvalues`]), whose eigenvalues are of comparable
//!   size.
//!
//! The blocks are read from `W`: a boundary lies between indices `p − 1` and `p` when every
//! entry of `W` in rows `≥ p` and columns `< p` is at most [`LINK`]. The sweeps stop when every
//! block is 1 × 1 or a 2 × 2 block with a complex pair, or after [`MAX_SWEEPS`] sweeps: the
//! loop has a floor, and the result is correct either way (larger blocks are only slower to
//! split). Each sweep costs `K` QR factorisations of `n × n` matrices.

use crate::eigen::{check_matrix, eigenvalues, sort_by_modulus, EigenError};
use nalgebra::{Complex, DMatrix};

/// Largest entry of `W = Q_0ᵀ Q_K` across a block boundary.
pub const LINK: f64 = 1e-13;
/// Most sweeps of the product QR iteration.
pub const MAX_SWEEPS: usize = 500;

/// Eigenvalues of `factors[K−1] ⋯ factors[1] · factors[0]` (the first factor applied first),
/// sorted by [`sort_by_modulus`], computed from the factors by the product QR iteration (module
/// documentation) without forming the product.
///
/// Errors: [`EigenError::Empty`] for no factor, [`EigenError::NotSquare`] for a factor that is
/// not square, [`EigenError::FactorShape`] for factors of different sizes,
/// [`EigenError::NonFinite`] for a non-finite entry of a factor or an eigenvalue that overflows.
///
/// ```
/// use nalgebra::DMatrix;
/// use saltation_linalg::product_eigenvalues;
///
/// // diag(1e5, 1e-3) twice, conjugated: the product has eigenvalues 1e10 and 1e-6.
/// let s = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, 0.0, 1.0]);
/// let s_inv = DMatrix::from_row_slice(2, 2, &[1.0, -1.0, 0.0, 1.0]);
/// let d = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![1e5, 1e-3]));
/// let a = &s * &d * &s_inv;
/// let mu = product_eigenvalues(&[a.clone(), a]).unwrap();
/// assert!((mu[0].re / 1e10 - 1.0).abs() < 1e-12);
/// assert!((mu[1].re / 1e-6 - 1.0).abs() < 1e-9);
/// ```
pub fn product_eigenvalues(factors: &[DMatrix<f64>]) -> Result<Vec<Complex<f64>>, EigenError> {
    let n = factors.first().ok_or(EigenError::Empty)?.nrows();
    for (index, a) in factors.iter().enumerate() {
        check_matrix(a)?;
        if a.nrows() != n {
            return Err(EigenError::FactorShape {
                index,
                size: a.nrows(),
                expected: n,
            });
        }
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let mut q0 = DMatrix::<f64>::identity(n, n);
    let mut r: Vec<DMatrix<f64>> = Vec::with_capacity(factors.len());
    let mut w = DMatrix::<f64>::identity(n, n);
    let mut blocks = Vec::new();
    for _ in 0..MAX_SWEEPS {
        r.clear();
        let mut q = q0.clone();
        for a in factors {
            let (qk, rk) = positive_qr(a * &q);
            q = qk;
            r.push(rk);
        }
        w = q0.transpose() * &q;
        blocks = partition(&w);
        q0 = q;
        if blocks
            .iter()
            .all(|&(s, e)| e - s == 1 || (e - s == 2 && pair(&w, &r, s).im != 0.0))
        {
            break;
        }
    }
    let mut values = Vec::with_capacity(n);
    for &(s, e) in &blocks {
        match e - s {
            1 => values.push(Complex::new(w[(s, s)] * diagonal_product(&r, s), 0.0)),
            2 => {
                let z = pair(&w, &r, s);
                if z.im != 0.0 {
                    values.push(z);
                    values.push(z.conj());
                } else {
                    // A real pair: `z.re` is the larger root, `z.im` unused; the smaller is d/λ.
                    values.push(z);
                    values.push(Complex::new(real_small(&w, &r, s, z.re), 0.0));
                }
            }
            m => {
                let t = w.view((s, s), (m, m)) * block_product(&r, s, m);
                values.extend(eigenvalues(&t)?);
            }
        }
    }
    if let Some(v) = values
        .iter()
        .find(|v| !(v.re.is_finite() && v.im.is_finite()))
    {
        return Err(EigenError::NonFinite {
            row: 0,
            col: 0,
            value: if v.re.is_finite() { v.im } else { v.re },
        });
    }
    sort_by_modulus(&mut values);
    Ok(values)
}

/// The QR factorisation `m = Q R` with `R`'s diagonal made non-negative (the signs moved into
/// `Q`'s columns), so that `W`'s diagonal tends to `+1` for positive eigenvalues.
fn positive_qr(m: DMatrix<f64>) -> (DMatrix<f64>, DMatrix<f64>) {
    let qr = m.qr();
    let (mut q, mut r) = (qr.q(), qr.r());
    for i in 0..r.nrows() {
        if r[(i, i)] < 0.0 {
            r.row_mut(i).neg_mut();
            q.column_mut(i).neg_mut();
        }
    }
    (q, r)
}

/// The blocks `[s, e)` of `W`: a boundary at `p` when `|W_ij| ≤ LINK` for all `i ≥ p > j`.
fn partition(w: &DMatrix<f64>) -> Vec<(usize, usize)> {
    let n = w.nrows();
    let mut out = Vec::new();
    let mut start = 0;
    for p in 1..n {
        let coupled = (p..n).any(|i| (0..p).any(|j| w[(i, j)].abs() > LINK));
        if !coupled {
            out.push((start, p));
            start = p;
        }
    }
    out.push((start, n));
    out
}

/// `∏_k R_k(i,i)`.
fn diagonal_product(r: &[DMatrix<f64>], i: usize) -> f64 {
    r.iter().map(|rk| rk[(i, i)]).product()
}

/// `R_{K,cc} ⋯ R_{1,cc}`, the product of the `m × m` diagonal blocks from `s`.
fn block_product(r: &[DMatrix<f64>], s: usize, m: usize) -> DMatrix<f64> {
    r.iter().fold(DMatrix::identity(m, m), |acc, rk| {
        rk.view((s, s), (m, m)) * acc
    })
}

/// Trace and determinant of the 2 × 2 block `W_cc R_cc` at `s`, the determinant as the product
/// `det(W_cc) ∏_k R_k(s,s) R_k(s+1,s+1)`.
fn trace_det(w: &DMatrix<f64>, r: &[DMatrix<f64>], s: usize) -> (f64, f64) {
    let t = w.view((s, s), (2, 2)) * block_product(r, s, 2);
    let wc = w.view((s, s), (2, 2));
    let det_w = wc[(0, 0)] * wc[(1, 1)] - wc[(0, 1)] * wc[(1, 0)];
    let det = det_w * diagonal_product(r, s) * diagonal_product(r, s + 1);
    (t[(0, 0)] + t[(1, 1)], det)
}

/// The 2 × 2 block's eigenvalue: the complex one with `im > 0`, or (real pair) the larger root
/// in `re` with `im = 0`.
fn pair(w: &DMatrix<f64>, r: &[DMatrix<f64>], s: usize) -> Complex<f64> {
    let (tr, det) = trace_det(w, r, s);
    let half = 0.5 * tr;
    let disc = half * half - det;
    if disc < 0.0 {
        Complex::new(half, (-disc).sqrt())
    } else {
        Complex::new(half + half.signum() * disc.sqrt(), 0.0)
    }
}

/// The smaller root of a real 2 × 2 block: `det / λ_big` (0 when both vanish).
fn real_small(w: &DMatrix<f64>, r: &[DMatrix<f64>], s: usize, big: f64) -> f64 {
    let (_, det) = trace_det(w, r, s);
    if big == 0.0 {
        0.0
    } else {
        det / big
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DVector;

    /// `S_k D_k S_{k−1}⁻¹` for k = 1..K with `S_0 = S_K`: the product is `S_K (∏ D_k) S_K⁻¹`.
    fn chain(ds: &[DMatrix<f64>], ss: &[DMatrix<f64>]) -> Vec<DMatrix<f64>> {
        let k = ds.len();
        (0..k)
            .map(|i| {
                let prev = if i == 0 { &ss[k - 1] } else { &ss[i - 1] };
                &ss[i] * &ds[i] * prev.clone().try_inverse().unwrap()
            })
            .collect()
    }

    /// A well-conditioned, non-orthogonal 3 × 3 matrix depending on `k`.
    fn s(k: usize) -> DMatrix<f64> {
        let c = k as f64;
        DMatrix::from_row_slice(
            3,
            3,
            &[
                1.0,
                0.3 + 0.1 * c,
                -0.2,
                0.1 * c,
                1.0,
                0.4,
                -0.3,
                0.2 * c.sin(),
                1.0,
            ],
        )
    }

    fn rel(a: f64, b: f64) -> f64 {
        (a - b).abs() / b.abs()
    }

    #[test]
    fn product_conjugate_to_diag_1e10_1e_6_keeps_the_small_one() {
        // Ten factors, each diag(10, 10^-0.6, 0.5) conjugated: product diag(1e10, 1e-6, 2^-10).
        let k = 10;
        let d = DMatrix::from_diagonal(&DVector::from_vec(vec![10.0, 10f64.powf(-0.6), 0.5]));
        let ds = vec![d; k];
        let ss: Vec<_> = (0..k).map(s).collect();
        let factors = chain(&ds, &ss);
        let mu = product_eigenvalues(&factors).unwrap();
        assert!(rel(mu[0].re, 1e10) < 1e-12, "{mu:?}");
        assert!(rel(mu[1].re, 0.5f64.powi(10)) < 1e-10, "{mu:?}");
        assert!(rel(mu[2].re, 1e-6) < 1e-8, "{mu:?}");
        assert!(mu.iter().all(|m| m.im == 0.0));
        // The formed product loses it: the dense eigenvalues of P are off by far more.
        let p = factors
            .iter()
            .fold(DMatrix::identity(3, 3), |acc, a| a * acc);
        let dense = eigenvalues(&p).unwrap();
        assert!(rel(dense[2].norm(), 1e-6) > 1e-4, "{dense:?}");
    }

    #[test]
    fn complex_pair_beside_large_and_small_reals() {
        // Each factor: a rotation by 0.3 scaled by 0.9 in the first plane, 20 and 0.05 on the
        // others (block diagonal), conjugated; K = 6.
        let k = 6;
        let (c, sn) = (0.3f64.cos(), 0.3f64.sin());
        let mut d = DMatrix::zeros(4, 4);
        d[(0, 0)] = 0.9 * c;
        d[(0, 1)] = -0.9 * sn;
        d[(1, 0)] = 0.9 * sn;
        d[(1, 1)] = 0.9 * c;
        d[(2, 2)] = 20.0;
        d[(3, 3)] = -0.05;
        let s4 = |i: usize| {
            let mut m = DMatrix::identity(4, 4);
            m.view_mut((0, 0), (3, 3)).copy_from(&s(i));
            m[(3, 0)] = 0.2;
            m[(0, 3)] = -0.1 * i as f64;
            m
        };
        let factors = chain(&vec![d; k], &(0..k).map(s4).collect::<Vec<_>>());
        let mu = product_eigenvalues(&factors).unwrap();
        assert!(rel(mu[0].re, 20f64.powi(6)) < 1e-12, "{mu:?}");
        let pair = Complex::from_polar(0.9f64.powi(6), 1.8);
        assert!((mu[1] - pair).norm() < 1e-13 && (mu[2] - pair.conj()).norm() < 1e-13);
        assert!(rel(mu[3].re, 0.05f64.powi(6)) < 1e-9, "{mu:?}");
    }

    #[test]
    fn agrees_with_the_formed_product_when_moduli_are_close_and_with_zeros() {
        // Moduli within a factor 3 and a rank-deficient factor (exact zero eigenvalue).
        let a1 = DMatrix::from_row_slice(3, 3, &[1.0, 0.5, 0.0, 0.2, 0.8, 0.1, 0.3, -0.2, 0.7]);
        let a2 = DMatrix::from_row_slice(3, 3, &[0.9, 0.0, 0.9, -0.1, 1.1, -0.1, 0.4, 0.2, 0.4]);
        let p = &a2 * &a1;
        let dense = eigenvalues(&p).unwrap();
        let mu = product_eigenvalues(&[a1, a2]).unwrap();
        for (a, b) in mu.iter().zip(&dense) {
            assert!((a - b).norm() < 1e-13, "{mu:?} {dense:?}");
        }
        assert!(mu[2].norm() < 1e-15);
    }

    #[test]
    fn bad_factors_are_typed_errors() {
        assert_eq!(product_eigenvalues(&[]), Err(EigenError::Empty));
        let a = DMatrix::identity(2, 2);
        let b = DMatrix::identity(3, 3);
        assert_eq!(
            product_eigenvalues(&[a.clone(), b]),
            Err(EigenError::FactorShape {
                index: 1,
                size: 3,
                expected: 2
            })
        );
        let mut c = a.clone();
        c[(1, 0)] = f64::NAN;
        assert!(matches!(
            product_eigenvalues(&[a, c]),
            Err(EigenError::NonFinite { row: 1, col: 0, .. })
        ));
        assert!(matches!(
            product_eigenvalues(&[DMatrix::zeros(2, 3)]),
            Err(EigenError::NotSquare { rows: 2, cols: 3 })
        ));
    }
}
