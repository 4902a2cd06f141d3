//! Variable-step Adams coefficients in modified divided differences (Shampine & Gordon 1975,
//! *Computer Solution of Ordinary Differential Equations*, ch. 5; Hairer, Nørsett & Wanner,
//! *Solving ODEs I*, §III.5).
//!
//! With the mesh `x_n`, the step `h = x_{n+1} − x_n` and the history lengths
//! `ψ_j(n+1) = x_{n+1} − x_{n+1−j}` (`ψ_j(n+1) = ψ_{j−1}(n) + h`, `ψ_0 = 0`), the code keeps
//! the modified divided differences `φ_i(n) = Π_{j<i} ψ_j(n) · f[x_n, …, x_{n−i+1}]`
//! (`φ_1 = f_n`). One step of order `k` needs, for `i = 1, …, k+1`,
//!
//! - `α_i = h / ψ_i(n+1)`,
//! - `β_1 = 1`, `β_i = β_{i−1} ψ_{i−1}(n+1) / ψ_{i−1}(n)`: then `φ*_i(n) = β_i φ_i(n)`
//!   are the differences scaled to the new point, and `φ_{i+1}(n+1) = φ_i(n+1) − φ*_i(n)`,
//! - `σ_1 = 1`, `σ_{i+1} = i α_i σ_i` (`= i! h^i / Π_{j≤i} ψ_j`, 1 for constant steps),
//! - `g_i = (1/h) ∫_{x_n}^{x_{n+1}} Π_{j<i} (x − x_{n+1} + ψ_j) / ψ_j dx`, by the recurrence
//!   `g_{1,q} = 1/q`, `g_{i,q} = g_{i−1,q} − α_{i−1} g_{i−1,q+1}`, `g_i = g_{i,1}`
//!   (Shampine & Gordon, §5.2: `g_{i,q}` are the moments `∫₀¹ u^{q−1} Π_{j<i}(1 − α_j u) du`).
//!
//! The Adams–Bashforth predictor of order `k` is then `p = y_n + h Σ_{i≤k} g_i φ*_i(n)` and
//! the Adams–Moulton corrector of order `k+1` adds `h g_{k+1} φ_{k+1}(n+1)`.

/// Highest order of the code (Shampine & Gordon's STEP, MATLAB's `ode113`).
pub const KMAX: usize = 12;

/// Length of the 1-based coefficient arrays (index 0 unused, indices `1..=KMAX+2`).
pub const LEN: usize = KMAX + 3;

/// Magnitudes `|γ*_j|` of the constant-step Adams–Moulton error constants, `j = 0, …, KMAX+2`:
/// the local error of the order-`j` corrector is `h γ*_j ∇^j f ≈ γ*_j h^{j+1} y^{(j+1)}`.
/// `γ*_0 = 1`, `γ*_j = γ_j − γ_{j−1}` with the Adams–Bashforth constants `γ_0 = 1`,
/// `γ_i = 1 − Σ_{j<i} γ_j / (i + 1 − j)` (Hairer, Nørsett & Wanner I, §III.1):
/// 1/2, 1/12, 1/24, 19/720, 3/160, … (Shampine & Gordon's `GSTR`).
pub const GSTAR: [f64; LEN] = am_error_constants();

const fn am_error_constants() -> [f64; LEN] {
    let mut gamma = [0.0; LEN];
    gamma[0] = 1.0;
    let mut i = 1;
    while i < LEN {
        let mut s = 0.0;
        let mut j = 0;
        while j < i {
            s += gamma[j] / (i + 1 - j) as f64;
            j += 1;
        }
        gamma[i] = 1.0 - s;
        i += 1;
    }
    let mut out = [0.0; LEN];
    out[0] = 1.0;
    let mut j = 1;
    while j < LEN {
        out[j] = gamma[j - 1] - gamma[j];
        j += 1;
    }
    out
}

/// The coefficients of one step (1-based arrays; entries past what the order needs are 0).
#[derive(Debug, Clone, Copy)]
pub struct Coefficients {
    /// `ψ_j(n+1)`, `j = 1..=KMAX+1`; 0 where the history is shorter than `j` steps.
    pub psi: [f64; LEN],
    /// `β_i`, `i = 1..=k+1`.
    pub beta: [f64; LEN],
    /// `σ_i`, `i = 1..=k+1`.
    pub sigma: [f64; LEN],
    /// `g_i`, `i = 1..=k+1`.
    pub g: [f64; LEN],
}

impl Coefficients {
    /// The coefficients for a step of size `h > 0` and order `k` (`1..=KMAX`) from the point
    /// whose history lengths are `psi_old` (`ψ_j(n)`, 0 where undefined). The order must not
    /// exceed the number of points in the history (so that `ψ_j(n+1)` is defined for `j ≤ k`).
    pub fn compute(h: f64, psi_old: &[f64; LEN], k: usize) -> Self {
        debug_assert!((1..=KMAX).contains(&k) && h > 0.0);
        let mut psi = [0.0; LEN];
        psi[1] = h;
        for j in 2..=KMAX + 1 {
            if psi_old[j - 1] > 0.0 {
                psi[j] = psi_old[j - 1] + h;
            }
        }
        let mut alpha = [0.0; LEN];
        for i in 1..=k {
            debug_assert!(psi[i] > 0.0, "order {k} beyond the history");
            alpha[i] = h / psi[i];
        }
        // β_i: where ψ_{i−1}(n) is undefined, φ_i(n) is a zero placeholder and the ratio 1
        // keeps β finite.
        let mut beta = [0.0; LEN];
        beta[1] = 1.0;
        for i in 2..=k + 1 {
            let ratio = if psi_old[i - 1] > 0.0 {
                psi[i - 1] / psi_old[i - 1]
            } else {
                1.0
            };
            beta[i] = beta[i - 1] * ratio;
        }
        let mut sigma = [0.0; LEN];
        sigma[1] = 1.0;
        for i in 1..=k {
            sigma[i + 1] = sigma[i] * i as f64 * alpha[i];
        }
        // Moments w_q = g_{i,q}: level 1 is 1/q for q = 1..=k+1; level i needs q ≤ k+2−i.
        let mut w = [0.0; LEN];
        for (q, wq) in w.iter_mut().enumerate().take(k + 2).skip(1) {
            *wq = 1.0 / q as f64;
        }
        let mut g = [0.0; LEN];
        g[1] = 1.0;
        for i in 2..=k + 1 {
            let a = alpha[i - 1];
            for q in 1..=k + 2 - i {
                w[q] -= a * w[q + 1];
            }
            g[i] = w[1];
        }
        Self {
            psi,
            beta,
            sigma,
            g,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `∫₀¹ p(s) ds` by 64-panel composite Gauss–Legendre (3 points): exact to rounding for the
    /// polynomials of degree ≤ 13 here.
    fn integrate(p: impl Fn(f64) -> f64) -> f64 {
        let (x, w) = ((0.6f64).sqrt(), [5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0]);
        let panels = 64;
        let mut s = 0.0;
        for m in 0..panels {
            let (a, b) = (m as f64 / panels as f64, (m + 1) as f64 / panels as f64);
            let (c, r) = (0.5 * (a + b), 0.5 * (b - a));
            for (node, wt) in [-x, 0.0, x].into_iter().zip(w) {
                s += r * wt * p(c + r * node);
            }
        }
        s
    }

    #[test]
    fn error_constants_are_the_adams_moulton_ones() {
        let want = [
            1.0,
            1.0 / 2.0,
            1.0 / 12.0,
            1.0 / 24.0,
            19.0 / 720.0,
            3.0 / 160.0,
            863.0 / 60480.0,
            275.0 / 24192.0,
            33953.0 / 3628800.0,
        ];
        for (j, w) in want.iter().enumerate() {
            assert!((GSTAR[j] - w).abs() < 1e-15, "γ*_{j}: {} vs {w}", GSTAR[j]);
        }
        // Shampine & Gordon's rounded table (GSTR) for j = 9..=13.
        for (j, w) in [
            (9, 0.00789),
            (10, 0.00679),
            (11, 0.00592),
            (12, 0.00524),
            (13, 0.00468),
        ] {
            assert!((GSTAR[j] - w).abs() < 5e-6, "γ*_{j}: {}", GSTAR[j]);
        }
    }

    #[test]
    fn constant_steps_give_the_adams_bashforth_backward_difference_coefficients() {
        let h = 0.1;
        let mut psi_old = [0.0; LEN];
        for (j, p) in psi_old.iter_mut().enumerate().skip(1) {
            *p = j as f64 * h;
        }
        let c = Coefficients::compute(h, &psi_old, KMAX);
        // γ_i: 1, 1/2, 5/12, 3/8, 251/720, 95/288, 19087/60480.
        let gamma = [
            1.0,
            0.5,
            5.0 / 12.0,
            3.0 / 8.0,
            251.0 / 720.0,
            95.0 / 288.0,
            19087.0 / 60480.0,
        ];
        for (i, gi) in gamma.iter().enumerate() {
            assert!((c.g[i + 1] - gi).abs() < 1e-15, "g_{}", i + 1);
        }
        for i in 1..=KMAX + 1 {
            assert!((c.beta[i] - 1.0).abs() < 1e-14 && (c.sigma[i] - 1.0).abs() < 1e-13);
        }
    }

    #[test]
    fn variable_steps_match_the_defining_integrals() {
        // An irregular history: steps 0.3, 0.1, 0.25, 0.05, 0.4, … backwards from x_n = 0.
        let steps = [
            0.3, 0.1, 0.25, 0.05, 0.4, 0.2, 0.15, 0.33, 0.07, 0.21, 0.12, 0.3, 0.09, 0.17,
        ];
        let mut psi_old = [0.0; LEN];
        let mut acc = 0.0;
        for j in 1..=KMAX + 1 {
            acc += steps[j - 1];
            psi_old[j] = acc;
        }
        let h = 0.22;
        let c = Coefficients::compute(h, &psi_old, KMAX);
        for i in 1..=KMAX + 1 {
            // g_i = ∫₀¹ Π_{j<i} ((s − 1) h + ψ_j(n+1)) / ψ_j(n+1) ds.
            let gi = integrate(|s| {
                (1..i)
                    .map(|j| ((s - 1.0) * h + c.psi[j]) / c.psi[j])
                    .product()
            });
            assert!((c.g[i] - gi).abs() < 1e-13, "g_{i}: {} vs {gi}", c.g[i]);
            let beta: f64 = (1..i).map(|j| c.psi[j] / psi_old[j]).product();
            assert!((c.beta[i] - beta).abs() < 1e-12 * beta);
            let sigma: f64 = (1..i).map(|j| j as f64 * h / c.psi[j]).product();
            assert!((c.sigma[i] - sigma).abs() < 1e-12 * sigma.max(1e-300));
        }
    }

    #[test]
    fn the_predictor_integrates_the_interpolant_of_past_slopes() {
        // f(x) = a cubic: the order-4 predictor (interpolating f at 4 past points) integrates
        // it exactly over [x_n, x_n + h] on any mesh.
        let f = |x: f64| 1.0 - 2.0 * x + 0.5 * x * x * x;
        let big_f = |x: f64| x - x * x + 0.125 * x.powi(4);
        let xs = [0.0, -0.3, -0.45, -0.8, -0.95, -1.3];
        let mut psi_old = [0.0; LEN];
        for j in 1..xs.len() {
            psi_old[j] = xs[0] - xs[j];
        }
        let h = 0.27;
        let k = 4;
        let c = Coefficients::compute(h, &psi_old, k);
        // Divided differences at x_n, …: φ_i(n) = Π_{j<i} ψ_j(n) f[x_n, …, x_{n−i+1}].
        let mut dd: Vec<f64> = xs.iter().map(|&x| f(x)).collect();
        let mut phi = vec![dd[0]];
        for level in 1..=k {
            for m in 0..xs.len() - level {
                dd[m] = (dd[m] - dd[m + 1]) / (xs[m] - xs[m + level]);
            }
            let scale: f64 = (1..=level).map(|j| psi_old[j]).product();
            phi.push(dd[0] * scale);
        }
        let pred: f64 = (1..=k).map(|i| h * c.g[i] * c.beta[i] * phi[i - 1]).sum();
        let exact = big_f(h) - big_f(0.0);
        assert!((pred - exact).abs() < 1e-14, "{pred} vs {exact}");
    }
}
