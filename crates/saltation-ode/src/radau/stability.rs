//! Linear stability function of the 3-stage Radau IIA method.
//!
//! Applied to `y' = λ y`, one step multiplies `y` by
//! `R(z) = 1 + z bᵀ (I − z A)⁻¹ 𝟙 = (1 + 2z/5 + z²/20) / (1 − 3z/5 + 3z²/20 − z³/60)`,
//! `z = h λ`: the (2, 3) Padé approximation of `eᶻ` (Hairer & Wanner, *Solving ODEs II*, 2nd ed.
//! 1996, §IV.3 and §IV.5). `|R(z)| ≤ 1` on the left half plane (A-stable) and
//! `R(∞) = 0` (L-stable).

type Cx = (f64, f64);

#[inline]
fn mul(a: Cx, b: Cx) -> Cx {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

#[inline]
fn div(a: Cx, b: Cx) -> Cx {
    // Smith's algorithm: no overflow for large |b|.
    if b.0.abs() >= b.1.abs() {
        let r = b.1 / b.0;
        let d = b.0 + b.1 * r;
        ((a.0 + a.1 * r) / d, (a.1 - a.0 * r) / d)
    } else {
        let r = b.0 / b.1;
        let d = b.0 * r + b.1;
        ((a.0 * r + a.1) / d, (a.1 * r - a.0) / d)
    }
}

/// `R(z)` of Radau IIA (order 5) at complex `z = (re, im)`, returned as `(re, im)`:
/// `R(z) = (1 + 2z/5 + z²/20) / (1 − 3z/5 + 3z²/20 − z³/60)`.
pub fn stability_function(z: (f64, f64)) -> (f64, f64) {
    // For |z| > 1 evaluate in w = 1/z: R = w (w² + 2w/5 + 1/20) / (w³ − 3w²/5 + 3w/20 − 1/60),
    // which stays finite (→ 0) as |z| → ∞.
    if z.0.hypot(z.1) > 1.0 {
        let w = div((1.0, 0.0), z);
        let w2 = mul(w, w);
        let w3 = mul(w2, w);
        let p = (w2.0 + 0.4 * w.0 + 0.05, w2.1 + 0.4 * w.1);
        let q = (
            w3.0 - 0.6 * w2.0 + 0.15 * w.0 - 1.0 / 60.0,
            w3.1 - 0.6 * w2.1 + 0.15 * w.1,
        );
        return mul(w, div(p, q));
    }
    let z2 = mul(z, z);
    let z3 = mul(z2, z);
    let p = (1.0 + 0.4 * z.0 + z2.0 / 20.0, 0.4 * z.1 + z2.1 / 20.0);
    let q = (
        1.0 - 0.6 * z.0 + 0.15 * z2.0 - z3.0 / 60.0,
        -0.6 * z.1 + 0.15 * z2.1 - z3.1 / 60.0,
    );
    div(p, q)
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
mod tests {
    use super::super::coefficients::A;
    use super::*;

    /// `1 + z bᵀ (I − zA)⁻¹ 𝟙` by complex Gaussian elimination on the 3 × 3 system.
    fn from_coefficients(z: Cx) -> Cx {
        let mut m = [[(0.0, 0.0); 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                let za = mul(z, (A[i][j], 0.0));
                m[i][j] = (if i == j { 1.0 } else { 0.0 } - za.0, -za.1);
            }
        }
        let mut v = [(1.0, 0.0); 3];
        for k in 0..3 {
            let p = (k..3)
                .max_by(|&a, &b| {
                    let (x, y) = (m[a][k], m[b][k]);
                    x.0.hypot(x.1).total_cmp(&y.0.hypot(y.1))
                })
                .unwrap();
            m.swap(k, p);
            v.swap(k, p);
            for i in k + 1..3 {
                let l = div(m[i][k], m[k][k]);
                for j in k..3 {
                    let t = mul(l, m[k][j]);
                    m[i][j] = (m[i][j].0 - t.0, m[i][j].1 - t.1);
                }
                let t = mul(l, v[k]);
                v[i] = (v[i].0 - t.0, v[i].1 - t.1);
            }
        }
        for i in (0..3).rev() {
            let mut s = v[i];
            for j in i + 1..3 {
                let t = mul(m[i][j], v[j]);
                s = (s.0 - t.0, s.1 - t.1);
            }
            v[i] = div(s, m[i][i]);
        }
        let mut sum = (0.0, 0.0);
        for j in 0..3 {
            sum = (sum.0 + A[2][j] * v[j].0, sum.1 + A[2][j] * v[j].1);
        }
        let zs = mul(z, sum);
        (1.0 + zs.0, zs.1)
    }

    #[test]
    fn rational_form_matches_the_coefficients() {
        for &z in &[
            (-0.3, 0.0),
            (0.7, 0.2),
            (-2.0, 3.0),
            (-15.0, -40.0),
            (1.5, -0.5),
            (-1e3, 7.0),
            (0.0, 9.0),
        ] {
            let (r, c) = (stability_function(z), from_coefficients(z));
            let scale = 1.0f64.max(c.0.hypot(c.1));
            assert!(
                (r.0 - c.0).abs() < 1e-13 * scale && (r.1 - c.1).abs() < 1e-13 * scale,
                "{z:?}: {r:?} vs {c:?}"
            );
        }
    }

    #[test]
    fn approximates_the_exponential_to_order_five() {
        // |R(z) − eᶻ| = |z|⁶/7200 + O(z⁷) (error constant of the (2,3) Padé approximant).
        for &x in &[0.1, 0.05, 0.025] {
            let r = stability_function((-x, 0.0)).0;
            let e = (r - (-x).exp()).abs();
            let c = e / x.powi(6);
            assert!((c - 1.0 / 7200.0).abs() < 0.2 / 7200.0, "x {x}: C = {c}");
        }
    }

    #[test]
    fn l_stable() {
        // R(−∞) = 0: R(x) ≈ −3/x for large |x|.
        for x in [1e4, 1e8, 1e300] {
            let r = stability_function((-x, 0.0));
            assert!(r.0.abs() <= 3.1 / x && r.1 == 0.0, "{x}: {r:?}");
        }
        let r = stability_function((-1e12, 1e12));
        assert!(r.0.hypot(r.1) < 1e-11, "{r:?}");
        // |R(iy)| ≤ 1 on the imaginary axis, with equality only at 0 and ∞ approached.
        for k in 0..=4000 {
            let y = -200.0 + 0.1 * k as f64;
            let r = stability_function((0.0, y));
            assert!(r.0.hypot(r.1) <= 1.0 + 1e-15, "iy = {y}: {r:?}");
        }
        // and in the left half plane.
        for a in 0..50 {
            for b in 0..50 {
                let z = (-0.5 * a as f64, -12.0 + 0.5 * b as f64);
                let r = stability_function(z);
                assert!(r.0.hypot(r.1) <= 1.0 + 1e-15, "{z:?}: {r:?}");
            }
        }
        // Not stable on the right half plane near the axis' ends.
        let r = stability_function((2.0, 0.0));
        assert!(r.0 > 1.0);
    }
}
