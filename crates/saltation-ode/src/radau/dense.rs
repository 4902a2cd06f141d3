//! The collocation polynomial of the last step: dense output and Newton starting values.
//!
//! A Radau IIA step from `(t₀, y₀)` with stage increments `Zᵢ = Yᵢ − y₀` defines the cubic
//! collocation polynomial `u` through `y₀`, `y₀ + Z₁`, `y₀ + Z₂`, `y₁ = y₀ + Z₃` at
//! `t₀, t₀ + c₁h, t₀ + c₂h, t₁`. In the variable `s = (t − t₁)/h ∈ [−1, 0]`, Newton's form on
//! the nodes `0, c₂ − 1, c₁ − 1, −1` reads (Hairer & Wanner's `CONTR5`, *Solving ODEs II*, 2nd
//! ed. 1996, §IV.8, and the code's documentation)
//!
//! `u(s) = y₁ + s (q₁ + (s − (c₂ − 1)) (q₂ + (s − (c₁ − 1)) q₃))`, with the divided differences
//! `q₁ = (Z₂ − Z₃)/(c₂ − 1)`, `q₂ = ((Z₁ − Z₂)/(c₁ − c₂) − q₁)/(c₁ − 1)`,
//! `q₃ = q₂ − ((Z₁ − Z₂)/(c₁ − c₂) − Z₁/c₁)/c₂`.
//!
//! Inside a step its error is uniformly `O(h^{s+1}) = O(h⁴)` (stage order plus one; §II.7 of *Solving
//! ODEs I*, superconvergence of collocation). Extrapolated to `s > 0` it gives the starting
//! values `Zᵢ⁰ = u(cᵢ h_new / h) − y₁` of the next step's Newton iteration (§IV.8).

use super::coefficients::{C, C1, C1M1, C1MC2, C2, C2M1};

/// The cubic factor `q₁ + (s − (c₂−1)) (q₂ + (s − (c₁−1)) q₃)` at `s`, component `i`.
#[inline(always)]
fn newton_tail(q: [&[f64]; 3], i: usize, s: f64) -> f64 {
    q[0][i] + (s - C2M1) * (q[1][i] + (s - C1M1) * q[2][i])
}

/// The divided differences `q₁, q₂, q₃` of the accepted step from its stage increments.
pub(super) fn update(z: [&[f64]; 3], q: [&mut [f64]; 3]) {
    let [q1, q2, q3] = q;
    for i in 0..q1.len() {
        let (z1, z2, z3) = (z[0][i], z[1][i], z[2][i]);
        q1[i] = (z2 - z3) / C2M1;
        let ak = (z1 - z2) / C1MC2;
        let acont3 = (ak - z1 / C1) / C2;
        q2[i] = (ak - q1[i]) / C1M1;
        q3[i] = q2[i] - acont3;
    }
}

/// `u(s)` into `out` (`y1` the state at the end of the step, `s = (t − t₁)/h`).
pub(super) fn eval(y1: &[f64], q: [&[f64]; 3], s: f64, out: &mut [f64]) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = y1[i] + s * newton_tail(q, i, s);
    }
}

/// Newton starting values of a step of size `h_new` after an accepted step of size `h_old`:
/// `Zᵢ = u(cᵢ h_new/h_old) − y₁` (the polynomial extrapolated beyond the step).
pub(super) fn extrapolate(q: [&[f64]; 3], ratio: f64, z: [&mut [f64]; 3]) {
    for (zk, ck) in z.into_iter().zip(C) {
        let s = ck * ratio;
        for (i, zi) in zk.iter_mut().enumerate() {
            *zi = s * newton_tail(q, i, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomial_interpolates_the_stages_and_extrapolates_a_cubic_exactly() {
        // y(t) = 1 + 2t − t² + 0.5 t³ on a step [0.3, 0.8]: the stages of a cubic are exact.
        let y = |t: f64| 1.0 + 2.0 * t - t * t + 0.5 * t * t * t;
        let (t0, h) = (0.3, 0.5);
        let z: Vec<[f64; 1]> = C.iter().map(|c| [y(t0 + c * h) - y(t0)]).collect();
        let (mut q1, mut q2, mut q3) = ([0.0], [0.0], [0.0]);
        update([&z[0], &z[1], &z[2]], [&mut q1, &mut q2, &mut q3]);
        let y1 = [y(t0 + h)];
        let mut out = [0.0];
        for s in [-1.0, -0.9, -0.5, C1M1, C2M1, -0.1, 0.0] {
            eval(&y1, [&q1, &q2, &q3], s, &mut out);
            let want = y(t0 + h + s * h);
            assert!((out[0] - want).abs() < 1e-14, "s {s}: {} vs {want}", out[0]);
        }
        // Next step of size 0.7: the increments from y1.
        let (mut a, mut b, mut c) = ([0.0], [0.0], [0.0]);
        extrapolate([&q1, &q2, &q3], 0.7 / h, [&mut a, &mut b, &mut c]);
        for (zk, ck) in [a, b, c].iter().zip(C) {
            let want = y(t0 + h + ck * 0.7) - y1[0];
            assert!((zk[0] - want).abs() < 1e-13, "{} vs {want}", zk[0]);
        }
    }
}
