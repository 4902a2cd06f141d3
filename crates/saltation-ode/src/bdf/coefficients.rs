//! Coefficients of the numerical differentiation formulas (NDFs) and of the backward
//! differentiation formulas (BDFs) of orders 1–5.
//!
//! In backward differences `∇` the BDF of order `k` is `Σ_{m=1}^{k} (1/m) ∇^m y_{n+1} = h f_{n+1}`.
//! Klopfenstein (1971) and Reiher added a term proportional to the difference between the new
//! value and its predictor `y⁽⁰⁾_{n+1} = Σ_{m=0}^{k} ∇^m y_n`; Shampine & Reichelt (1997, *The
//! MATLAB ODE suite*, SIAM J. Sci. Comput. 18(1), §2, eq. (2.3)) chose the coefficients `κ_k`
//! of the NDF
//!
//! `Σ_{m=1}^{k} (1/m) ∇^m y_{n+1} − κ_k γ_k (y_{n+1} − y⁽⁰⁾_{n+1}) = h f_{n+1}`,
//! `γ_k = Σ_{j=1}^{k} 1/j`,
//!
//! to make the formulas more accurate than the BDFs at little cost in stability (their Table 1):
//! `κ = (−0.1850, −1/9, −0.0823, −0.0415, 0)`. `κ = 0` is the BDF. The leading term of the local
//! truncation error is `(κ_k γ_k + 1/(k+1)) h^{k+1} y^{(k+1)}` (their eq. (2.2)/(2.4)).

/// Highest order of the family.
pub const MAX_ORDER: usize = 5;

/// The NDF coefficients `κ_1..κ_5` (Shampine & Reichelt 1997, Table 1).
pub const NDF_KAPPA: [f64; MAX_ORDER] = [-0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0];

/// The coefficients of one family (NDF or BDF), indexed by the order `k` in `1..=5`.
#[derive(Debug, Clone, Copy)]
pub struct Coefficients {
    kappa: [f64; MAX_ORDER],
    gamma: [f64; MAX_ORDER],
}

impl Coefficients {
    /// The NDFs (`ndf = true`) or the BDFs (`κ = 0`).
    pub fn new(ndf: bool) -> Self {
        let mut gamma = [0.0; MAX_ORDER];
        let mut acc = 0.0;
        for (k, g) in gamma.iter_mut().enumerate() {
            acc += 1.0 / (k + 1) as f64;
            *g = acc;
        }
        Self {
            kappa: if ndf { NDF_KAPPA } else { [0.0; MAX_ORDER] },
            gamma,
        }
    }

    /// `κ_k`.
    #[inline]
    pub fn kappa(&self, k: usize) -> f64 {
        self.kappa[k - 1]
    }

    /// `γ_k = Σ_{j=1}^{k} 1/j`.
    #[inline]
    pub fn gamma(&self, k: usize) -> f64 {
        self.gamma[k - 1]
    }

    /// `α_k = (1 − κ_k) γ_k`: the formula reads `α_k (y_{n+1} − y⁽⁰⁾) + Σ_{m=1}^{k} γ_m ∇^m y_n
    /// = h f_{n+1}`, so the Newton iteration matrix is `M − (h/α_k) J`.
    #[inline]
    pub fn alpha(&self, k: usize) -> f64 {
        (1.0 - self.kappa(k)) * self.gamma(k)
    }

    /// Error constant `κ_k γ_k + 1/(k+1)` of the order-`k` formula: the local error estimate is
    /// this times `∇^{k+1} y_{n+1}` (Shampine & Reichelt 1997, §2).
    #[inline]
    pub fn error_constant(&self, k: usize) -> f64 {
        self.kappa(k) * self.gamma(k) + 1.0 / (k + 1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The BDF error constants are `1/(k+1)`; the NDF's are smaller, and the step size that
    /// gives the same local error grows by `(C_BDF / C_NDF)^{1/(k+1)}`: 26 % at orders 1–3 and
    /// 12 % at order 4, 0 at order 5 (Shampine & Reichelt 1997, Table 1, "percent change in
    /// step size").
    #[test]
    fn error_constants_and_the_published_efficiency_gains() {
        let (ndf, bdf) = (Coefficients::new(true), Coefficients::new(false));
        let gains = [26.0, 26.0, 26.0, 12.0, 0.0];
        for k in 1..=MAX_ORDER {
            assert!((bdf.error_constant(k) - 1.0 / (k + 1) as f64).abs() < 1e-16);
            let ratio = bdf.error_constant(k) / ndf.error_constant(k);
            let gain = 100.0 * (ratio.powf(1.0 / (k + 1) as f64) - 1.0);
            assert!((gain - gains[k - 1]).abs() < 0.5, "order {k}: {gain:.2} %");
        }
        // NDF2's error constant is exactly half of BDF2's (κ₂ = −1/9).
        assert!((ndf.error_constant(2) - 1.0 / 6.0).abs() < 1e-16);
        assert!((ndf.gamma(5) - 137.0 / 60.0).abs() < 1e-15);
        assert!((ndf.alpha(1) - 1.185).abs() < 1e-15);
    }

    /// Order conditions: applied to `y(t) = tᵖ` on the grid `t_j = j` (h = 1), the NDF residual
    /// `Σ (1/m) ∇^m y_{n+1} − κ γ_k ∇^{k+1} y_{n+1} − y'(t_{n+1})` vanishes for `p ≤ k`, and for
    /// `p = k+1` equals `−(k+1)! (κ_k γ_k + 1/(k+1))` (the error constant; constant steps make
    /// `y_{n+1} − y⁽⁰⁾ = ∇^{k+1} y_{n+1}`).
    #[test]
    fn formulas_have_order_k_and_their_error_constant() {
        for ndf in [true, false] {
            let c = Coefficients::new(ndf);
            for k in 1..=MAX_ORDER {
                for p in 0..=k + 1 {
                    let y = |t: f64| t.powi(p as i32);
                    let n1 = 10.0; // t_{n+1}
                                   // ∇^m y at n+1 by binomial sums.
                    let nabla = |m: usize| -> f64 {
                        let mut s = 0.0;
                        let mut binom = 1.0;
                        for i in 0..=m {
                            let sign = if i.is_multiple_of(2) { 1.0 } else { -1.0 };
                            s += sign * binom * y(n1 - i as f64);
                            binom = binom * (m - i) as f64 / (i + 1) as f64;
                        }
                        s
                    };
                    let mut lhs = 0.0;
                    for m in 1..=k {
                        lhs += nabla(m) / m as f64;
                    }
                    lhs -= c.kappa(k) * c.gamma(k) * nabla(k + 1);
                    let dy = if p == 0 {
                        0.0
                    } else {
                        p as f64 * n1.powi(p as i32 - 1)
                    };
                    let res = lhs - dy;
                    let scale = n1.powi(p as i32).max(1.0);
                    if p <= k {
                        assert!(res.abs() < 1e-9 * scale, "ndf {ndf} k {k} p {p}: {res}");
                    } else {
                        let fact: f64 = (1..=p).map(|i| i as f64).product();
                        let want = -fact * c.error_constant(k);
                        assert!(
                            (res - want).abs() < 1e-9 * scale,
                            "ndf {ndf} k {k}: {res} vs {want}"
                        );
                    }
                }
            }
        }
    }
}
