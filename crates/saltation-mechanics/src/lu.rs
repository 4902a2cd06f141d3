//! A small dense LU factorisation in `f64` whose factors are kept and reused: one
//! factorisation of a saddle-point matrix serves the accelerations, every column of their
//! Jacobian and the derivative parts of dual numbers (see [`crate::kernel`]).

use crate::work::with_buffer;
use saltation_hybrid::{Scalar, SingularMatrix};

/// Factors `P A = L U` in place by Gaussian elimination with partial pivoting (Golub &
/// Van Loan 2013, Alg. 3.4.1): `a` (`n × n` row-major) is overwritten by `L` (unit lower,
/// below the diagonal), `U` above it and `1/U_kk` on it (so that [`solve`] multiplies
/// instead of dividing); `piv[k]` is the row swapped with row `k` at step `k`. A pivot
/// below `n · ε · max|A|` is [`SingularMatrix`] (the test of [`saltation_hybrid::solve_dense`]).
pub(crate) fn factor(a: &mut [f64], piv: &mut [usize], n: usize) -> Result<(), SingularMatrix> {
    let a = &mut a[..n * n];
    let scale = a.iter().fold(0.0f64, |s, v| s.max(v.abs()));
    let floor = n as f64 * f64::EPSILON * scale;
    for k in 0..n {
        let p = (k + 1..n).fold(k, |p, i| {
            if a[i * n + k].abs() > a[p * n + k].abs() {
                i
            } else {
                p
            }
        });
        let pivot = a[p * n + k].abs();
        if !(pivot > floor) {
            return Err(SingularMatrix {
                n,
                column: k,
                pivot,
                scale,
            });
        }
        piv[k] = p;
        if p != k {
            let (head, tail) = a.split_at_mut(p * n);
            head[k * n..(k + 1) * n].swap_with_slice(&mut tail[..n]);
        }
        let inv = 1.0 / a[k * n + k];
        a[k * n + k] = inv;
        let (head, tail) = a.split_at_mut((k + 1) * n);
        let rk = &head[k * n + k + 1..];
        for ri in tail.chunks_exact_mut(n) {
            let l = ri[k] * inv;
            ri[k] = l;
            if l != 0.0 {
                ri[k + 1..]
                    .iter_mut()
                    .zip(rk)
                    .for_each(|(x, &y)| *x -= l * y);
            }
        }
    }
    Ok(())
}

/// Solves `A X = B` with the factors of [`factor`]: `b` is `n × cols` row-major and is
/// overwritten by `X`. Generic over the scalar of `B` (the factors are real), so the
/// derivative parts of a dual right-hand side are solved by the same real factors. Whole rows
/// are combined at a time (the inner loops run along the columns).
pub(crate) fn solve<D: Scalar>(lu: &[f64], piv: &[usize], n: usize, b: &mut [D], cols: usize) {
    if cols == 1 {
        return solve_vector(lu, piv, n, &mut b[..n]);
    }
    for (k, &p) in piv[..n].iter().enumerate() {
        if p > k {
            let (head, tail) = b.split_at_mut(p * cols);
            head[k * cols..(k + 1) * cols].swap_with_slice(&mut tail[..cols]);
        }
    }
    for k in 0..n {
        let (head, tail) = b[..n * cols].split_at_mut((k + 1) * cols);
        let bk = &head[k * cols..];
        for (bi, &l) in tail
            .chunks_exact_mut(cols)
            .zip(lu[k..].iter().step_by(n).skip(k + 1))
        {
            if l != 0.0 {
                bi.iter_mut().zip(bk).for_each(|(x, &y)| *x -= y * l);
            }
        }
    }
    for k in (0..n).rev() {
        let (head, tail) = b[..n * cols].split_at_mut((k + 1) * cols);
        let bk = &mut head[k * cols..];
        for (bj, &u) in tail.chunks_exact(cols).zip(&lu[k * n + k + 1..(k + 1) * n]) {
            if u != 0.0 {
                bk.iter_mut().zip(bj).for_each(|(x, &y)| *x -= y * u);
            }
        }
        let inv = lu[k * n + k];
        bk.iter_mut().for_each(|x| *x *= inv);
    }
}

/// [`solve`] for one right-hand side.
fn solve_vector<D: Scalar>(lu: &[f64], piv: &[usize], n: usize, b: &mut [D]) {
    for (k, &p) in piv[..n].iter().enumerate() {
        b.swap(k, p);
    }
    for k in 0..n {
        let (head, tail) = b.split_at_mut(k + 1);
        let bk = head[k];
        for (x, &l) in tail.iter_mut().zip(lu[k..].iter().step_by(n).skip(k + 1)) {
            *x -= bk * l;
        }
    }
    for k in (0..n).rev() {
        let (head, tail) = b.split_at_mut(k + 1);
        let u = &lu[k * n + k + 1..(k + 1) * n];
        let s = u
            .iter()
            .zip(tail.iter())
            .fold(head[k], |s, (&u, &x)| s - x * u);
        head[k] = s * lu[k * n + k];
    }
}

/// `A⁻¹` (row-major `n × n`) from the factors of [`factor`]: for a matrix that is factored once
/// and applied many times, a product with it has no chain of dependent operations.
pub(crate) fn inverse(lu: &[f64], piv: &[usize], n: usize) -> Vec<f64> {
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    solve(lu, piv, n, &mut inv, n);
    inv
}

/// `B ← A⁻¹ B` with the explicit inverse `inv` (`n × n`) for `B` of `n × cols` (row-major).
pub(crate) fn apply<D: Scalar>(inv: &[f64], n: usize, b: &mut [D], cols: usize) {
    with_buffer(D::zero(), n, |col| {
        for c in 0..cols {
            for (t, row) in col.iter_mut().zip(b.chunks_exact(cols)) {
                *t = row[c];
            }
            for (o, a) in b.chunks_exact_mut(cols).zip(inv.chunks_exact(n)) {
                o[c] = a
                    .iter()
                    .zip(col.iter())
                    .fold(D::zero(), |s, (&a, &x)| s + x * a);
            }
        }
    });
}

/// `out ← out − A_{[0..rows, 0..inner]} B` (`out`: `rows × cols`, `B`: `inner × cols`, both
/// row-major) with `A` the explicit inverse `inv` (leading dimension `n`): row by row, so the
/// inner loop runs along the columns (no dependent chain).
pub(crate) fn subtract_product(
    inv: &[f64],
    n: usize,
    inner: usize,
    b: &[f64],
    cols: usize,
    out: &mut [f64],
) {
    for (i, o) in out.chunks_exact_mut(cols).enumerate() {
        for (&a, row) in inv[i * n..i * n + inner].iter().zip(b.chunks_exact(cols)) {
            for (t, &x) in o.iter_mut().zip(row) {
                *t -= a * x;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_dual::Dual64;

    #[test]
    fn factors_solve_many_right_hand_sides_and_duals() {
        // A zero leading entry needs a row swap.
        let a0 = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let mut a = a0;
        let mut piv = [0; 3];
        factor(&mut a, &mut piv, 3).unwrap();
        let mut b = [3.0, 1.0, 2.0, 0.0, 4.0, -1.0];
        solve(&a, &piv, 3, &mut b, 2);
        for c in 0..2 {
            for i in 0..3 {
                let r: f64 = (0..3).map(|j| a0[i * 3 + j] * b[j * 2 + c]).sum();
                let want = [[3.0, 1.0], [2.0, 0.0], [4.0, -1.0]][i][c];
                assert!((r - want).abs() < 1e-14);
            }
        }
        let mut bd = [
            Dual64::new(3.0, 1.0),
            Dual64::new(2.0, 0.0),
            Dual64::new(4.0, 0.0),
        ];
        solve(&a, &piv, 3, &mut bd, 1);
        let mut e = [1.0, 0.0, 0.0];
        solve(&a, &piv, 3, &mut e, 1);
        for i in 0..3 {
            assert!((bd[i].re - b[i * 2]).abs() < 1e-15 && (bd[i].eps - e[i]).abs() < 1e-15);
        }
        let inv = inverse(&a, &piv, 3);
        let mut x = [3.0, 2.0, 4.0];
        apply(&inv, 3, &mut x, 1);
        for i in 0..3 {
            assert!((x[i] - b[i * 2]).abs() < 1e-14);
        }
    }

    #[test]
    fn a_dense_five_by_five_with_pivoting() {
        let n = 5;
        let a0: Vec<f64> = (0..n * n)
            .map(|k| ((k * 7 + 3) % 11) as f64 - 5.0 + if k % 6 == 0 { 0.5 } else { 0.0 })
            .collect();
        let b0: Vec<f64> = (0..n * 3).map(|k| (k as f64 * 0.37).sin()).collect();
        let (mut a, mut piv, mut x) = (a0.clone(), vec![0; n], b0.clone());
        factor(&mut a, &mut piv, n).unwrap();
        solve(&a, &piv, n, &mut x, 3);
        let inv = inverse(&a, &piv, n);
        for c in 0..3 {
            for i in 0..n {
                let r: f64 = (0..n).map(|j| a0[i * n + j] * x[j * 3 + c]).sum();
                assert!((r - b0[i * 3 + c]).abs() < 1e-12, "{i} {c}: {r}");
                let y: f64 = (0..n).map(|j| inv[i * n + j] * b0[j * 3 + c]).sum();
                assert!((y - x[i * 3 + c]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn singular_is_an_error() {
        let mut a = [1.0, 2.0, 2.0, 4.0];
        let e = factor(&mut a, &mut [0; 2], 2).unwrap_err();
        assert_eq!(e.column, 1);
    }
}
