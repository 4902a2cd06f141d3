//! Complex LU factorization with partial pivoting, real and imaginary parts stored apart
//! (the complex iteration matrix `(α + iβ) M − J` of the Radau IIA method).

use super::Singular;

/// The LU factors of a complex `n × n` matrix `A = Aᵣ + i Aᵢ` (row-major, parts stored apart).
#[derive(Debug, Clone, Default)]
pub struct ComplexLu {
    n: usize,
    re: Vec<f64>,
    im: Vec<f64>,
    piv: Vec<usize>,
}

impl ComplexLu {
    /// An empty factorization.
    pub fn new() -> Self {
        Self::default()
    }

    /// The real and imaginary `n × n` parts to fill (row-major; contents unspecified).
    pub fn matrix_mut(&mut self, n: usize) -> (&mut [f64], &mut [f64]) {
        if self.n != n || self.re.len() != n * n {
            self.n = n;
            for v in [&mut self.re, &mut self.im] {
                v.clear();
                v.resize(n * n, 0.0);
            }
            self.piv.clear();
            self.piv.resize(n, 0);
        }
        (&mut self.re, &mut self.im)
    }

    /// Factors in place (partial pivoting on the modulus); a zero or non-finite pivot is
    /// [`Singular`].
    pub fn factor(&mut self) -> Result<(), Singular> {
        let n = self.n;
        let (ar, ai) = (&mut self.re, &mut self.im);
        for k in 0..n {
            let mut p = k;
            let mut best = ar[k * n + k].hypot(ai[k * n + k]);
            for i in k + 1..n {
                let v = ar[i * n + k].hypot(ai[i * n + k]);
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
                    ar.swap(k * n + j, p * n + j);
                    ai.swap(k * n + j, p * n + j);
                }
            }
            // 1 / (pr + i pi) = (pr − i pi) / (pr² + pi²)
            let (pr, pi) = (ar[k * n + k], ai[k * n + k]);
            let d = pr * pr + pi * pi;
            let (ir, ii) = (pr / d, -pi / d);
            for i in k + 1..n {
                let (xr, xi) = (ar[i * n + k], ai[i * n + k]);
                let (lr, li) = (xr * ir - xi * ii, xr * ii + xi * ir);
                ar[i * n + k] = lr;
                ai[i * n + k] = li;
                if lr != 0.0 || li != 0.0 {
                    for j in k + 1..n {
                        let (ur, ui) = (ar[k * n + j], ai[k * n + j]);
                        ar[i * n + j] -= lr * ur - li * ui;
                        ai[i * n + j] -= lr * ui + li * ur;
                    }
                }
            }
        }
        Ok(())
    }

    /// Solves `A X = B` in place for `B = Bᵣ + i Bᵢ` of size `n × m`, row-major.
    pub fn solve_rows(&self, br: &mut [f64], bi: &mut [f64], m: usize) {
        let n = self.n;
        let (ar, ai) = (&self.re, &self.im);
        for k in 0..n {
            let p = self.piv[k];
            if p != k {
                for j in 0..m {
                    br.swap(k * m + j, p * m + j);
                    bi.swap(k * m + j, p * m + j);
                }
            }
        }
        for i in 1..n {
            for k in 0..i {
                let (lr, li) = (ar[i * n + k], ai[i * n + k]);
                if lr != 0.0 || li != 0.0 {
                    for j in 0..m {
                        let (sr, si) = (br[k * m + j], bi[k * m + j]);
                        br[i * m + j] -= lr * sr - li * si;
                        bi[i * m + j] -= lr * si + li * sr;
                    }
                }
            }
        }
        for i in (0..n).rev() {
            for k in i + 1..n {
                let (ur, ui) = (ar[i * n + k], ai[i * n + k]);
                if ur != 0.0 || ui != 0.0 {
                    for j in 0..m {
                        let (sr, si) = (br[k * m + j], bi[k * m + j]);
                        br[i * m + j] -= ur * sr - ui * si;
                        bi[i * m + j] -= ur * si + ui * sr;
                    }
                }
            }
            let (pr, pi) = (ar[i * n + i], ai[i * n + i]);
            let d = pr * pr + pi * pi;
            let (ir, ii) = (pr / d, -pi / d);
            for j in 0..m {
                let (xr, xi) = (br[i * m + j], bi[i * m + j]);
                br[i * m + j] = xr * ir - xi * ii;
                bi[i * m + j] = xr * ii + xi * ir;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_complex_system() {
        // A = [[1+i, 2], [3, 4−i]], x = [1−2i, 0.5+i]
        let mut lu = ComplexLu::new();
        {
            let (r, i) = lu.matrix_mut(2);
            r.copy_from_slice(&[1.0, 2.0, 3.0, 4.0]);
            i.copy_from_slice(&[1.0, 0.0, 0.0, -1.0]);
        }
        let mul = |a: (f64, f64), b: (f64, f64)| (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0);
        let a = [[(1.0, 1.0), (2.0, 0.0)], [(3.0, 0.0), (4.0, -1.0)]];
        let x = [(1.0, -2.0), (0.5, 1.0)];
        let (mut br, mut bi) = ([0.0; 2], [0.0; 2]);
        for r in 0..2 {
            let (p, q) = (mul(a[r][0], x[0]), mul(a[r][1], x[1]));
            br[r] = p.0 + q.0;
            bi[r] = p.1 + q.1;
        }
        lu.factor().unwrap();
        lu.solve_rows(&mut br, &mut bi, 1);
        for r in 0..2 {
            assert!((br[r] - x[r].0).abs() < 1e-15 && (bi[r] - x[r].1).abs() < 1e-15);
        }
    }
}
