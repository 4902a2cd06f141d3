//! The backward-difference array of the quasi-constant step-size implementation.
//!
//! The history is held as `D_j = ∇^j y_n`, `j = 1..=k+2`, for the equally spaced points
//! `t_n, t_n − h, t_n − 2h, …` (Shampine & Reichelt 1997, §2). With them:
//!
//! - the predictor is `y⁽⁰⁾_{n+1} = y_n + Σ_{j=1}^{k} D_j`, and the NDF becomes
//!   `α_k d + Σ_{j=1}^{k} γ_j D_j = h f(t_{n+1}, y⁽⁰⁾ + d)` for the correction `d = y_{n+1} − y⁽⁰⁾`
//!   ([`predict`]);
//! - after an accepted step, `∇^{k+1} y_{n+1} = d`, `∇^{k+2} y_{n+1} = d − ∇^{k+1} y_n` and
//!   `∇^j y_{n+1} = ∇^j y_n + ∇^{j+1} y_{n+1}` for `j = k, …, 1` ([`Differences::update`]);
//! - a new step size `ρ h` replaces the differences by those of the interpolating polynomial at
//!   `t_n − i ρ h`: `D ← D R(ρ) U` with `R_{ji}(ρ) = Π_{m=0}^{j−1} (m − i ρ) / j!` and
//!   `U = R(1)` (`U² = I`), their eq. (2.5) ([`Differences::rescale`]).

use super::coefficients::{Coefficients, MAX_ORDER};

/// Number of difference columns kept: `∇^1 … ∇^{k+2}` for `k ≤ 5`.
pub const COLUMNS: usize = MAX_ORDER + 2;

/// `D_j = ∇^j y_n`, `j = 1..=7`, each a full state vector (column `j` at `[(j−1) n, j n)`).
#[derive(Debug, Clone, Default)]
pub struct Differences {
    n: usize,
    data: Vec<f64>,
}

/// `R(ρ) U` for order `k` (`k × k`, in the top-left corner): the new differences are
/// `D'_l = Σ_j D_j (R(ρ) U)_{jl}`.
pub fn change_matrix(k: usize, rho: f64) -> [[f64; MAX_ORDER]; MAX_ORDER] {
    let r = |rho: f64| {
        let mut m = [[0.0; MAX_ORDER]; MAX_ORDER];
        for i in 1..=k {
            // Column i: Π_{m<j} (m − iρ) / (m + 1) for j = 1..=k, built row by row.
            let mut p = 1.0;
            for j in 1..=k {
                p *= ((j - 1) as f64 - i as f64 * rho) / j as f64;
                m[j - 1][i - 1] = p;
            }
        }
        m
    };
    let (a, u) = (r(rho), r(1.0));
    let mut out = [[0.0; MAX_ORDER]; MAX_ORDER];
    for j in 0..k {
        for l in 0..k {
            out[j][l] = (0..k).map(|i| a[j][i] * u[i][l]).sum();
        }
    }
    out
}

impl Differences {
    /// Sizes the array for states of length `n` (all zero).
    pub fn resize(&mut self, n: usize) {
        self.n = n;
        self.data.clear();
        self.data.resize(COLUMNS * n, 0.0);
    }

    /// Sets every difference to zero.
    pub fn clear(&mut self) {
        self.data.fill(0.0);
    }

    /// `∇^j y_n`.
    #[inline]
    pub fn col(&self, j: usize) -> &[f64] {
        &self.data[(j - 1) * self.n..j * self.n]
    }

    /// `∇^j y_n`, writable.
    #[inline]
    pub fn col_mut(&mut self, j: usize) -> &mut [f64] {
        &mut self.data[(j - 1) * self.n..j * self.n]
    }

    /// Rescales `∇^1 … ∇^k` from step `h` to step `ρ h` (the columns above `k` are left as
    /// they are: they are rebuilt by the next steps before the order-raising test reads them).
    pub fn rescale(&mut self, k: usize, rho: f64) {
        if rho == 1.0 {
            return;
        }
        let c = change_matrix(k, rho);
        let n = self.n;
        for i in 0..n {
            let mut old = [0.0; MAX_ORDER];
            for (j, o) in old.iter_mut().enumerate().take(k) {
                *o = self.data[j * n + i];
            }
            for l in 0..k {
                let s: f64 = old[..k]
                    .iter()
                    .zip(&c[..k])
                    .map(|(o, row)| o * row[l])
                    .sum();
                self.data[l * n + i] = s;
            }
        }
    }

    /// After an accepted step of order `k` with correction `d = y_{n+1} − y⁽⁰⁾`: the
    /// differences of `y_{n+1}` up to `∇^{k+2}`.
    pub fn update(&mut self, k: usize, d: &[f64]) {
        let n = self.n;
        for (i, &di) in d.iter().enumerate().take(n) {
            let old_kp1 = self.data[k * n + i];
            if k + 2 <= COLUMNS {
                self.data[(k + 1) * n + i] = di - old_kp1;
            }
            self.data[k * n + i] = di;
            for j in (0..k).rev() {
                self.data[j * n + i] += self.data[(j + 1) * n + i];
            }
        }
    }
}

/// The predictor `pred = y + Σ_{j=1}^{k} D_j` and `ψ = Σ_{j=1}^{k} γ_j D_j / α_k`, so that
/// the order-`k` formula reads `d + ψ = (h/α_k) f(t_{n+1}, pred + d)` (times `M` on the left
/// for a mass matrix).
pub fn predict(
    dif: &Differences,
    coef: &Coefficients,
    k: usize,
    y: &[f64],
    pred: &mut [f64],
    psi: &mut [f64],
) {
    let inv_alpha = 1.0 / coef.alpha(k);
    let mut g = [0.0; MAX_ORDER];
    for (j, gj) in g.iter_mut().enumerate().take(k) {
        *gj = coef.gamma(j + 1) * inv_alpha;
    }
    let n = dif.n;
    for i in 0..n {
        let (mut p, mut s) = (y[i], 0.0);
        for (j, gj) in g.iter().enumerate().take(k) {
            let dj = dif.data[j * n + i];
            p += dj;
            s += gj * dj;
        }
        pred[i] = p;
        psi[i] = s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_ratio_is_the_identity_and_ratios_compose() {
        for k in 1..=MAX_ORDER {
            let c = change_matrix(k, 1.0);
            for j in 0..k {
                for l in 0..k {
                    let want = if j == l { 1.0 } else { 0.0 };
                    assert!((c[j][l] - want).abs() < 1e-13, "k {k}: {c:?}");
                }
            }
            // Changing by 0.7 then by 1.9 is changing by 1.33 (same polynomial).
            let (a, b, ab) = (
                change_matrix(k, 0.7),
                change_matrix(k, 1.9),
                change_matrix(k, 0.7 * 1.9),
            );
            for j in 0..k {
                for l in 0..k {
                    let prod: f64 = (0..k).map(|i| a[j][i] * b[i][l]).sum();
                    assert!((prod - ab[j][l]).abs() < 1e-12, "k {k}");
                }
            }
        }
    }

    /// The differences of a polynomial of degree ≤ k on the grid of step h, rescaled, are its
    /// differences on the grid of step ρh.
    #[test]
    fn rescaling_reproduces_the_differences_of_a_polynomial() {
        let p = |t: f64| 1.0 - 2.0 * t + 0.5 * t * t - 0.3 * t.powi(3) + 0.1 * t.powi(4);
        let nabla = |h: f64, j: usize| -> f64 {
            // ∇^j p at t = 0 with spacing h.
            let mut s = 0.0;
            let mut binom = 1.0;
            for i in 0..=j {
                let sign = if i.is_multiple_of(2) { 1.0 } else { -1.0 };
                s += sign * binom * p(-(i as f64) * h);
                binom = binom * (j - i) as f64 / (i + 1) as f64;
            }
            s
        };
        let k = 4;
        let (h, rho) = (0.3, 2.5);
        let mut d = Differences::default();
        d.resize(1);
        for j in 1..=k {
            d.col_mut(j)[0] = nabla(h, j);
        }
        d.rescale(k, rho);
        for j in 1..=k {
            let want = nabla(rho * h, j);
            assert!(
                (d.col(j)[0] - want).abs() < 1e-12,
                "∇^{j}: {} vs {want}",
                d.col(j)[0]
            );
        }
    }

    #[test]
    fn update_shifts_the_differences() {
        // Values 1, 4, 9 (t², unit spacing) at t = 1, 2, 3: from ∇ at t=2 to ∇ at t=3.
        let mut d = Differences::default();
        d.resize(1);
        d.col_mut(1)[0] = 3.0; // 4 − 1
        d.col_mut(2)[0] = 2.0; // (4−1) − (1−0)
        let coef = Coefficients::new(false);
        let (mut pred, mut psi) = ([0.0], [0.0]);
        predict(&d, &coef, 2, &[4.0], &mut pred, &mut psi);
        assert_eq!(pred[0], 9.0, "exact for a quadratic");
        d.update(2, &[9.0 - pred[0]]);
        assert_eq!((d.col(1)[0], d.col(2)[0], d.col(3)[0]), (5.0, 2.0, 0.0));
    }
}
