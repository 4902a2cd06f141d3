//! Linear stability of every method (Hairer & Wanner, *Solving ODEs II*, §IV.2–3 and §V.1).
//!
//! Applied to `y' = λ y`, one step of a one-step method multiplies `y` by its stability function
//! `R(z)`, `z = h λ`; for a Runge–Kutta method `R(z) = 1 + z bᵀ (I − z A)⁻¹ 𝟙`. For an explicit
//! method `A` is strictly lower triangular, so `R(z) = 1 + Σ_{k≥1} z^k bᵀ A^{k−1} 𝟙` is a
//! polynomial of degree ≤ s. A `k`-step method at fixed step has a characteristic polynomial in
//! the amplification factor `ζ`; the method is stable at `z` when every root has `|ζ| ≤ 1`.
//! [`amplification`] gives `|R(z)|` or the largest `|ζ|` for any built-in method: its stability
//! region is where it is ≤ 1.

use crate::tableau::Tableau;
use crate::Method;

/// How much one step amplifies `y' = λ y` at `z = h λ = (re, im)`: `|R(z)|` for the one-step
/// methods, the largest root modulus of the characteristic polynomial of the fixed-step
/// order-`order` formula for the multistep ones (NDF/BDF orders 1–5, ABM 1–12 as PECE with a
/// corrector one order higher; `order` is ignored by the one-step methods). The stability
/// region is where it is ≤ 1.
pub fn amplification(method: Method, order: usize, z: (f64, f64)) -> f64 {
    let modulus = |r: (f64, f64)| r.0.hypot(r.1);
    match method {
        Method::Radau5 => modulus(crate::radau::stability_function(z)),
        Method::Rosenbrock23 => modulus(crate::rosenbrock::stability_function(z)),
        Method::Trapezoid => modulus(crate::sdirk::trapezoid_stability(z)),
        Method::Trbdf2 => modulus(crate::sdirk::trbdf2_stability(z)),
        Method::Ndf => crate::bdf::amplification(order, true, z),
        Method::Bdf => crate::bdf::amplification(order, false, z),
        Method::Abm => crate::adams::amplification(order, z),
        m => match m.tableau() {
            Some(tab) => modulus(stability_function(tab, z)),
            None => f64::NAN,
        },
    }
}

/// Coefficients `[1, bᵀ𝟙, bᵀA𝟙, bᵀA²𝟙, …]` of the stability polynomial of an explicit method
/// (lowest degree first, length `s + 1`).
pub fn stability_polynomial(tab: &Tableau) -> Vec<f64> {
    let s = tab.stages();
    let mut coeffs = vec![1.0];
    let mut v = vec![1.0; s]; // A^{k-1} 𝟙
    for _ in 0..s {
        coeffs.push(tab.b.iter().zip(&v).map(|(b, x)| b * x).sum());
        let mut next = vec![0.0; s];
        for (i, row) in tab.a.iter().enumerate() {
            next[i] = row.iter().zip(&v).map(|(a, x)| a * x).sum();
        }
        v = next;
    }
    coeffs
}

/// `R(z)` at complex `z = (re, im)`, by solving `(I − zA) k = 𝟙` (forward substitution) and
/// forming `1 + z bᵀ k`. Returns `(re, im)`.
pub fn stability_function(tab: &Tableau, z: (f64, f64)) -> (f64, f64) {
    let mul = |a: (f64, f64), b: (f64, f64)| (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0);
    let s = tab.stages();
    let mut k = vec![(0.0, 0.0); s];
    for i in 0..s {
        let mut acc = (1.0, 0.0);
        for (j, &a) in tab.a[i].iter().enumerate() {
            let t = mul(z, (a * k[j].0, a * k[j].1));
            acc = (acc.0 + t.0, acc.1 + t.1);
        }
        k[i] = acc;
    }
    let mut sum = (0.0, 0.0);
    for (b, kv) in tab.b.iter().zip(&k) {
        sum = (sum.0 + b * kv.0, sum.1 + b * kv.1);
    }
    let zs = mul(z, sum);
    (1.0 + zs.0, zs.1)
}

/// Left end of the real stability interval `(−x, 0]` where `|R(x)| ≤ 1`, by bisection on a
/// scan of `[-max, 0]` with resolution `max / 10⁴` refined to 1e-12.
pub fn real_stability_boundary(tab: &Tableau, max: f64) -> f64 {
    let bounded = |x: f64| stability_function(tab, (x, 0.0)).0.abs() <= 1.0 + 1e-12;
    let n = 10_000;
    let mut lo = 0.0;
    for k in 1..=n {
        let x = -max * k as f64 / n as f64;
        if !bounded(x) {
            let (mut a, mut b) = (lo, x);
            while (a - b).abs() > 1e-12 {
                let m = 0.5 * (a + b);
                if bounded(m) {
                    a = m;
                } else {
                    b = m;
                }
            }
            return a;
        }
        lo = x;
    }
    -max
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tableau::{BS23, DOP853, DP5, EULER, RK4};

    #[test]
    fn stiff_decay_and_the_imaginary_axis() {
        let far = (-1e8, 0.0);
        // L-stable: R(−∞) = 0.
        for m in [Method::Radau5, Method::Trbdf2, Method::Rosenbrock23] {
            assert!(amplification(m, 0, far) < 1e-6, "{}", m.name());
        }
        // The trapezoidal rule: |R(−∞)| = 1 (A-stable, not L-stable).
        assert!((amplification(Method::Trapezoid, 0, far) - 1.0).abs() < 1e-6);
        // A-stable one-step methods: |R(iy)| ≤ 1 on the imaginary axis.
        for m in [
            Method::Radau5,
            Method::Trbdf2,
            Method::Rosenbrock23,
            Method::Trapezoid,
        ] {
            for y in [0.1, 1.0, 3.0, 10.0, 1e3] {
                let a = amplification(m, 0, (0.0, y));
                assert!(a <= 1.0 + 1e-12, "{} at {y}i: {a}", m.name());
            }
        }
        // BDF1–2 are A-stable; explicit methods are not.
        for k in [1, 2] {
            assert!(amplification(Method::Bdf, k, (-1e6, 1e6)) <= 1.0 + 1e-12);
        }
        assert!(amplification(Method::Dop853, 0, (-100.0, 0.0)) > 1.0);
        assert!(amplification(Method::Abm, 4, (-100.0, 0.0)) > 1.0);
    }

    #[test]
    fn rk4_stability_is_the_taylor_polynomial_of_exp() {
        let p = stability_polynomial(&RK4);
        let taylor = [1.0, 1.0, 0.5, 1.0 / 6.0, 1.0 / 24.0];
        for (c, t) in p.iter().zip(taylor) {
            assert!((c - t).abs() < 1e-15, "{p:?}");
        }
        // Both routes agree at complex points.
        for z in [(-1.0, 0.5), (0.3, -2.0), (-2.78, 0.0)] {
            let (re, im) = stability_function(&RK4, z);
            let (mut pr, mut pi) = (0.0, 0.0);
            for c in p.iter().rev() {
                (pr, pi) = (pr * z.0 - pi * z.1 + c, pr * z.1 + pi * z.0);
            }
            assert!((re - pr).abs() < 1e-13 && (im - pi).abs() < 1e-13);
        }
        // RK4's real stability interval is (−2.785293563405…, 0].
        let x = real_stability_boundary(&RK4, 5.0);
        assert!((x + 2.785293563405).abs() < 1e-9, "{x}");
        assert!((real_stability_boundary(&EULER, 5.0) + 2.0).abs() < 1e-9);
    }

    #[test]
    fn high_order_methods_match_exp_to_their_order() {
        for (tab, p) in [(&BS23, 3), (&DP5, 5), (&DOP853, 8)] {
            let c = stability_polynomial(tab);
            let mut fact = 1.0;
            for (k, ck) in c.iter().enumerate().take(p + 1) {
                if k > 0 {
                    fact *= k as f64;
                }
                assert!(
                    (ck - 1.0 / fact).abs() < 1e-12,
                    "{} coefficient {k}",
                    tab.name
                );
            }
        }
    }
}
