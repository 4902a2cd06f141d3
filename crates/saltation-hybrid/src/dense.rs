//! A small dense linear solve generic over the scalar, so that a model's `M \ b` (a mass
//! matrix, a saddle-point system) is differentiated exactly by the same automatic
//! differentiation as the rest of its equations.

use crate::model::Scalar;
use thiserror::Error;

/// The matrix of [`solve_dense`] is singular to working precision.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[error("singular {n}×{n} matrix: pivot {pivot:e} in column {column} (largest entry {scale:e})")]
pub struct SingularMatrix {
    /// Order of the matrix.
    pub n: usize,
    /// Column whose pivot vanished.
    pub column: usize,
    /// The pivot's magnitude.
    pub pivot: f64,
    /// Largest magnitude in the matrix (the scale the pivot is judged against).
    pub scale: f64,
}

/// Solves `A X = B` in place by Gaussian elimination with partial pivoting (Golub & Van Loan
/// 2013, Alg. 3.4.1): `a` is `n × n` row-major and is overwritten by its factors, `b` is
/// `n × cols` row-major and is overwritten by `X`. Pivots are chosen on the real part, so with
/// dual numbers the derivative part follows the same elimination (the derivative of `A⁻¹B`
/// is exact). A pivot below `n · ε · max|A|` is [`SingularMatrix`].
pub fn solve_dense<D: Scalar>(
    a: &mut [D],
    b: &mut [D],
    n: usize,
    cols: usize,
) -> Result<(), SingularMatrix> {
    debug_assert!(a.len() >= n * n && b.len() >= n * cols);
    let scale = a[..n * n].iter().fold(0.0f64, |s, v| s.max(v.re().abs()));
    let floor = n as f64 * f64::EPSILON * scale;
    for k in 0..n {
        let p = (k..n)
            .max_by(|&i, &j| a[i * n + k].re().abs().total_cmp(&a[j * n + k].re().abs()))
            .unwrap_or(k);
        let pivot = a[p * n + k].re().abs();
        if !(pivot > floor) {
            return Err(SingularMatrix {
                n,
                column: k,
                pivot,
                scale,
            });
        }
        if p != k {
            for c in 0..n {
                a.swap(k * n + c, p * n + c);
            }
            for c in 0..cols {
                b.swap(k * cols + c, p * cols + c);
            }
        }
        let inv = a[k * n + k].recip();
        for i in k + 1..n {
            let l = a[i * n + k] * inv;
            for c in k + 1..n {
                let akc = a[k * n + c];
                a[i * n + c] -= l * akc;
            }
            for c in 0..cols {
                let bkc = b[k * cols + c];
                b[i * cols + c] -= l * bkc;
            }
        }
    }
    for k in (0..n).rev() {
        let inv = a[k * n + k].recip();
        for c in 0..cols {
            let mut s = b[k * cols + c];
            for j in k + 1..n {
                s -= a[k * n + j] * b[j * cols + c];
            }
            b[k * cols + c] = s * inv;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    #[test]
    fn solves_with_pivoting_and_differentiates() {
        // A zero leading entry needs a row swap.
        let mut a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let a0 = a;
        let mut b = [3.0, 2.0, 4.0];
        solve_dense(&mut a, &mut b, 3, 1).unwrap();
        for i in 0..3 {
            let r: f64 = (0..3).map(|j| a0[i * 3 + j] * b[j]).sum();
            assert!((r - [3.0, 2.0, 4.0][i]).abs() < 1e-14);
        }
        // d/ds of (A + s E)⁻¹ b = −A⁻¹ E A⁻¹ b with E = e₁e₁ᵀ (entry (0,0)).
        let x = b;
        let mut ad: Vec<Dual64> = a0.iter().map(|&v| Dual64::from_re(v)).collect();
        ad[0].eps = 1.0;
        let mut bd: Vec<Dual64> = [3.0, 2.0, 4.0]
            .iter()
            .map(|&v| Dual64::from_re(v))
            .collect();
        solve_dense(&mut ad, &mut bd, 3, 1).unwrap();
        let mut a1 = a0;
        let mut rhs = [-x[0], 0.0, 0.0];
        solve_dense(&mut a1, &mut rhs, 3, 1).unwrap();
        for i in 0..3 {
            assert!((bd[i].re - x[i]).abs() < 1e-14);
            assert!((bd[i].eps - rhs[i]).abs() < 1e-13, "{i}");
        }
    }

    #[test]
    fn singular_is_an_error() {
        let mut a = [1.0, 2.0, 2.0, 4.0];
        let mut b = [1.0, 1.0];
        let e = solve_dense(&mut a, &mut b, 2, 1).unwrap_err();
        assert_eq!(e.column, 1);
    }
}
