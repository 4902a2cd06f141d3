//! Linear stability of the Rosenbrock 2(3) W-method with the exact Jacobian.
//!
//! For `y' = λ y` (`J = λ`, `∂f/∂t = 0`, `z = hλ`) one step gives `W = 1 − d z`,
//! `h k₁ = z / W`, `h F₁ = z (1 + h k₁/2)`, `h k₂ = (h F₁ − h k₁) / W + h k₁` and
//! `R(z) = 1 + h k₂`. In closed form, with `a = 1/(1 − d z)`,
//! `R(z) = 1 + 2 a z − a² z + a² z²/2`: `R(z) = e^z + O(z³)` and, since `1/d = 2 + √2`,
//! `R(∞) = 1 − 2/d + 1/(2d²) = 0` — the method is L-stable (Shampine & Reichelt 1997, §3).
//! Over the common denominator, `R(z) = (1 + (1 − 2d) z + ((1 − d)² − 1/2) z²) / (1 − d z)²`,
//! and `1 − d = 1/√2` cancels the `z²` term: `R(z) = (1 + (√2 − 1) z) / (1 − d z)²`, the
//! stability function of TR-BDF2 (whose diagonal coefficient `1 − √2/2` is this `d`).

use super::D;
use crate::sdirk::cdiv;

/// `R(z)` of the W-method with `J` exact, at `z = (re, im)`.
#[allow(dead_code)] // until wired into `crate::stability`
pub fn stability_function(z: (f64, f64)) -> (f64, f64) {
    let mul = |a: (f64, f64), b: (f64, f64)| (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0);
    let w = (1.0 - D * z.0, -D * z.1);
    let k1 = cdiv(z, w);
    let f1 = mul(z, (1.0 + 0.5 * k1.0, 0.5 * k1.1));
    let q = cdiv((f1.0 - k1.0, f1.1 - k1.1), w);
    (1.0 + q.0 + k1.0, q.1 + k1.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l_stable_and_second_order() {
        for x in [-1e8, -1e12] {
            let r = stability_function((x, 0.0));
            assert!(r.0.abs() < 1e-7 && r.1.abs() < 1e-12, "R({x}) = {r:?}");
        }
        // A-stable: |R(iy)| ≤ 1 on the imaginary axis.
        for y in [1e-3, 0.1, 1.0, 2.0, 5.0, 30.0, 1e3, 1e7] {
            let (a, b) = stability_function((0.0, y));
            assert!(a.hypot(b) <= 1.0 + 1e-15, "|R({y}i)| = {}", a.hypot(b));
        }
        // The closed form, and R(z) − e^z = O(z³) (not O(z⁴)).
        for z in [-0.3, 0.7, -25.0] {
            let a = 1.0 / (1.0 - D * z);
            let closed = 1.0 + 2.0 * a * z - a * a * z + 0.5 * a * a * z * z;
            assert!((stability_function((z, 0.0)).0 - closed).abs() < 1e-13);
        }
        // The same function as TR-BDF2's.
        for z in [(-0.5, 0.3), (-40.0, 7.0), (0.0, 3.0), (2.0, -1.0)] {
            let (a, b) = (stability_function(z), crate::sdirk::trbdf2_stability(z));
            assert!(
                (a.0 - b.0).abs() < 1e-14 && (a.1 - b.1).abs() < 1e-14,
                "{z:?}"
            );
        }
        let z = 1e-2;
        let e = (stability_function((z, 0.0)).0 - z.exp()).abs();
        assert!(e < z.powi(3) && e > 1e-2 * z.powi(3), "{e}");
    }
}
