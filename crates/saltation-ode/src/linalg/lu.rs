//! Real LU factorization with partial pivoting, `P A = L U`.

use super::Singular;

/// The LU factors of an `n × n` matrix (row-major, `L` unit lower triangular below the
/// diagonal, `U` on and above it) and the row interchanges (LAPACK convention: at step `k` rows
/// `k` and `piv[k]` were swapped).
#[derive(Debug, Clone, Default)]
pub struct Lu {
    n: usize,
    a: Vec<f64>,
    piv: Vec<usize>,
}

impl Lu {
    /// An empty factorization (sized by [`Lu::matrix_mut`]).
    pub fn new() -> Self {
        Self::default()
    }

    /// Dimension of the last matrix.
    pub fn dim(&self) -> usize {
        self.n
    }

    /// The `n × n` storage to fill with the matrix to factor (row-major; contents unspecified).
    pub fn matrix_mut(&mut self, n: usize) -> &mut [f64] {
        if self.n != n || self.a.len() != n * n {
            self.n = n;
            self.a.clear();
            self.a.resize(n * n, 0.0);
            self.piv.clear();
            self.piv.resize(n, 0);
        }
        &mut self.a
    }

    /// Factors the matrix written through [`Lu::matrix_mut`] in place (Doolittle with partial
    /// pivoting, `O(n³/3)` flops). A zero or non-finite pivot is [`Singular`].
    pub fn factor(&mut self) -> Result<(), Singular> {
        let n = self.n;
        let a = &mut self.a;
        for k in 0..n {
            let mut p = k;
            let mut best = a[k * n + k].abs();
            for i in k + 1..n {
                let v = a[i * n + k].abs();
                if v > best {
                    best = v;
                    p = i;
                }
            }
            if !(best > 0.0 && best.is_finite()) {
                return Err(Singular);
            }
            self.piv[k] = p;
            if p != k {
                for j in 0..n {
                    a.swap(k * n + j, p * n + j);
                }
            }
            let inv = 1.0 / a[k * n + k];
            for i in k + 1..n {
                let l = a[i * n + k] * inv;
                a[i * n + k] = l;
                if l != 0.0 {
                    for j in k + 1..n {
                        a[i * n + j] -= l * a[k * n + j];
                    }
                }
            }
        }
        Ok(())
    }

    /// Solves `A x = b` in place (`b` of length `n`).
    pub fn solve(&self, b: &mut [f64]) {
        self.solve_rows(b, 1)
    }

    /// Solves `A X = B` in place for `B` of size `n × m`, row-major (`m` right-hand sides side
    /// by side; with `m = 1` a vector).
    pub fn solve_rows(&self, b: &mut [f64], m: usize) {
        let n = self.n;
        let a = &self.a;
        for k in 0..n {
            let p = self.piv[k];
            if p != k {
                for j in 0..m {
                    b.swap(k * m + j, p * m + j);
                }
            }
        }
        for i in 1..n {
            for k in 0..i {
                let l = a[i * n + k];
                if l != 0.0 {
                    let (head, tail) = b.split_at_mut(i * m);
                    let (src, dst) = (&head[k * m..k * m + m], &mut tail[..m]);
                    for (d, s) in dst.iter_mut().zip(src) {
                        *d -= l * s;
                    }
                }
            }
        }
        for i in (0..n).rev() {
            for k in i + 1..n {
                let u = a[i * n + k];
                if u != 0.0 {
                    let (head, tail) = b.split_at_mut(k * m);
                    let (dst, src) = (&mut head[i * m..i * m + m], &tail[..m]);
                    for (d, s) in dst.iter_mut().zip(src) {
                        *d -= u * s;
                    }
                }
            }
            let inv = 1.0 / a[i * n + i];
            for d in &mut b[i * m..i * m + m] {
                *d *= inv;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_pivoting_system_and_several_right_hand_sides() {
        // A needs a row swap at the first step (zero pivot).
        let a = [0.0, 2.0, 1.0, 1.0, 1.0, 0.0, 3.0, 0.0, 1.0];
        let mut lu = Lu::new();
        lu.matrix_mut(3).copy_from_slice(&a);
        lu.factor().unwrap();
        let x = [1.0, -2.0, 0.5];
        let mut b = [0.0; 3];
        for i in 0..3 {
            b[i] = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
        }
        lu.solve(&mut b);
        for i in 0..3 {
            assert!((b[i] - x[i]).abs() < 1e-15, "{b:?}");
        }
        // Two right-hand sides: columns of X = [x, 2x].
        let mut bb = [0.0; 6];
        for i in 0..3 {
            let r: f64 = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
            bb[2 * i] = r;
            bb[2 * i + 1] = 2.0 * r;
        }
        lu.solve_rows(&mut bb, 2);
        for i in 0..3 {
            assert!((bb[2 * i] - x[i]).abs() < 1e-15);
            assert!((bb[2 * i + 1] - 2.0 * x[i]).abs() < 1e-15);
        }
    }

    #[test]
    fn singular_and_non_finite_matrices_are_refused() {
        let mut lu = Lu::new();
        lu.matrix_mut(2).copy_from_slice(&[1.0, 2.0, 2.0, 4.0]);
        assert_eq!(lu.factor(), Err(Singular));
        lu.matrix_mut(2).copy_from_slice(&[f64::NAN, 0.0, 0.0, 1.0]);
        assert_eq!(lu.factor(), Err(Singular));
    }
}
