//! Dense output: the Adams polynomial of the last step, as Shampine & Gordon's `SINTRP`
//! evaluates it (Shampine & Gordon 1975, ch. 6; the interpolant of MATLAB's `ode113`).
//!
//! After a step of order `k` to `x_{n+1}` the differences `φ_1..φ_{k+1}(n+1)` (built with the
//! final evaluation `f(x_{n+1}, y_{n+1})`) define the polynomial `Q` of degree `k` that
//! interpolates `f` at `x_{n+1}, x_n, …, x_{n+1−k}`:
//! `Q(x) = Σ_{i=1}^{k+1} Π_{j<i} (x − x_{n+2−j}) / ψ_j(n+1) · φ_i(n+1)`, with
//! `x − x_{n+2−j} = (x − x_{n+1}) + ψ_{j−1}(n+1)`. The interpolant is
//! `u(x) = y_{n+1} + ∫_{x_{n+1}}^{x} Q = y_{n+1} + η Σ_i G_i φ_i(n+1)`, `η = x − x_{n+1}`, with
//! `G_i = ∫₀¹ Π_{j<i} (a_j s + b_j) ds`, `a_j = η / ψ_j`, `b_j = ψ_{j−1} / ψ_j` (`ψ_0 = 0`).
//! The moments `μ_{i,q} = ∫₀¹ s^{q−1} Π_{j<i} (a_j s + b_j) ds` obey
//! `μ_{1,q} = 1/q`, `μ_{i+1,q} = b_i μ_{i,q} + a_i μ_{i,q+1}`, and `G_i = μ_{i,1}`.
//!
//! `u` matches `y_{n+1}` and `f(x_{n+1}, y_{n+1})` at the right end; at the left end it differs
//! from `y_n` by the difference of the corrector's and the final evaluation's polynomial, a
//! quantity of the size of the local error. Its error inside the step is `O(h^{k+2})`, the
//! order of the propagated solution.

use super::coefficients::LEN;

/// The weights `G_1..G_m` (1-based) of the interpolant at `η = x − x_{n+1}` (`m ≤ KMAX + 1`),
/// with `psi` the history lengths `ψ_j(n+1)` of the current point.
pub(super) fn interpolation_weights(eta: f64, psi: &[f64; LEN], m: usize) -> [f64; LEN] {
    let mut mu = [0.0; LEN];
    for (q, v) in mu.iter_mut().enumerate().take(m + 1).skip(1) {
        *v = 1.0 / q as f64;
    }
    let mut g = [0.0; LEN];
    g[1] = 1.0;
    for i in 1..m {
        let a = eta / psi[i];
        let b = if i == 1 { 0.0 } else { psi[i - 1] / psi[i] };
        for q in 1..=m - i {
            mu[q] = b * mu[q] + a * mu[q + 1];
        }
        g[i + 1] = mu[1];
    }
    g
}

/// `out = y + η Σ_{i=1}^{m} G_i φ_i` with `φ_i` at `[(i−1) n, i n)` of `phi`.
pub(super) fn interpolate(
    eta: f64,
    psi: &[f64; LEN],
    m: usize,
    y: &[f64],
    phi: &[f64],
    out: &mut [f64],
) {
    let n = y.len();
    let g = interpolation_weights(eta, psi, m);
    out[..n].fill(0.0);
    // Highest differences first: the small terms are summed before the large ones.
    for i in (1..=m).rev() {
        let gi = g[i];
        let phi_i = &phi[(i - 1) * n..i * n];
        for (o, p) in out[..n].iter_mut().zip(phi_i) {
            *o += gi * p;
        }
    }
    for (o, yv) in out[..n].iter_mut().zip(y) {
        *o = yv + eta * *o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_integrate_the_newton_form() {
        // History lengths of an irregular mesh.
        let mut psi = [0.0; LEN];
        let steps = [
            0.2, 0.35, 0.1, 0.27, 0.05, 0.4, 0.3, 0.22, 0.15, 0.31, 0.12, 0.18, 0.09,
        ];
        let mut acc = 0.0;
        for j in 1..LEN - 1 {
            acc += steps[j - 1];
            psi[j] = acc;
        }
        for eta in [-0.2, -0.13, -0.01] {
            let m = 13;
            let g = interpolation_weights(eta, &psi, m);
            for (i, &gi) in g.iter().enumerate().take(m + 1).skip(1) {
                // Simpson on 2000 panels of the defining product (degree ≤ 12; error ~1e-14).
                let p = |s: f64| -> f64 {
                    (1..i)
                        .map(|j| {
                            let prev = if j == 1 { 0.0 } else { psi[j - 1] };
                            (s * eta + prev) / psi[j]
                        })
                        .product()
                };
                let panels = 2000;
                let mut sum = p(0.0) + p(1.0);
                for r in 1..panels {
                    let s = r as f64 / panels as f64;
                    sum += if r % 2 == 1 { 4.0 } else { 2.0 } * p(s);
                }
                let want = sum / (3.0 * panels as f64);
                assert!((gi - want).abs() < 1e-12, "G_{i}({eta}): {gi} vs {want}");
            }
        }
    }

    #[test]
    fn interpolant_reproduces_polynomial_antiderivatives() {
        // Mesh x_{n+1} = 0, x_n = −0.3, −0.4, −0.75; f = 1 + x + x² (degree 2, so k = 2:
        // φ_1..φ_3 at x_{n+1}); then u(x) = y_{n+1} + ∫_0^x f exactly.
        let xs = [0.0, -0.3, -0.4, -0.75];
        let f = |x: f64| 1.0 + x + x * x;
        let mut psi = [0.0; LEN];
        for j in 1..xs.len() {
            psi[j] = xs[0] - xs[j];
        }
        let mut dd: Vec<f64> = xs.iter().map(|&x| f(x)).collect();
        let mut phi = vec![dd[0]];
        for level in 1..=2 {
            for m in 0..xs.len() - level {
                dd[m] = (dd[m] - dd[m + 1]) / (xs[m] - xs[m + level]);
            }
            phi.push(dd[0] * (1..=level).map(|j| psi[j]).product::<f64>());
        }
        let y1 = 2.5;
        for x in [-0.3, -0.2, -0.05, 0.0] {
            let mut out = [0.0];
            interpolate(x, &psi, 3, &[y1], &phi, &mut out);
            let want = y1 + x + x * x / 2.0 + x * x * x / 3.0;
            assert!((out[0] - want).abs() < 1e-15, "{x}: {} vs {want}", out[0]);
        }
    }
}
