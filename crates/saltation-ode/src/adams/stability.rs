//! Linear stability of the fixed-step PECE scheme of order `k` as the code applies it
//! (Hairer, Nørsett & Wanner, *Solving ODEs I*, §III.3; Lambert, *Numerical Methods for
//! Ordinary Differential Systems*, 1991, ch. 4: predictor-corrector modes).
//!
//! With a constant step the code's order-`k` step is the Adams–Bashforth predictor of order `k`
//! and the Adams–Moulton corrector of order `k+1` (local extrapolation), in PECE mode:
//! `p = y_n + h Σ_{i=0}^{k−1} γ_i ∇^i f_n`, `y_{n+1} = p + h γ_k ∇^k f^p_{n+1}`, where
//! `∇^k f^p_{n+1}` uses `f(p)` at `x_{n+1}` and the `f_{n−j} = f(y_{n−j})` of the final
//! evaluations, `γ_i` the Adams–Bashforth constants (the code's `g_{i+1}` for constant steps).
//! This is the pair called AB(p−1)–AMp, `p = k + 1`, by Ghrist, Fornberg & Reeger (*Stability
//! ordinates of Adams predictor-corrector methods*, BIT 55, 2015).
//!
//! For `y' = λ y`, `z = h λ`, with `y_{n+1−j} ↔ ζ^{k−j}` the recursion has the characteristic
//! polynomial (monic, degree `k`)
//! `ζ^k − (1 + z γ_k) P(ζ) − z γ_k Σ_{j=1}^{k} (−1)^j C(k, j) ζ^{k−j}`, with
//! `P(ζ) = ζ^{k−1} + z Σ_{i=0}^{k−1} γ_i Σ_{j=0}^{i} (−1)^j C(i, j) ζ^{k−1−j}` (the predictor).
//! [`amplification`] is the largest modulus of its roots: the growth factor per step of the
//! dominant mode, < 1 inside the region of absolute stability. For `k = 1` the polynomial is
//! `ζ − (1 + z + z²/2)`: Heun's method.

use super::coefficients::{Coefficients, KMAX, LEN};

/// Complex numbers as `(re, im)`.
type C = (f64, f64);

#[inline]
fn add(a: C, b: C) -> C {
    (a.0 + b.0, a.1 + b.1)
}
#[inline]
fn sub(a: C, b: C) -> C {
    (a.0 - b.0, a.1 - b.1)
}
#[inline]
fn mul(a: C, b: C) -> C {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}
#[inline]
fn div(a: C, b: C) -> C {
    let d = b.0 * b.0 + b.1 * b.1;
    ((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
}
#[inline]
fn scale(s: f64, a: C) -> C {
    (s * a.0, s * a.1)
}
#[inline]
fn abs(a: C) -> f64 {
    a.0.hypot(a.1)
}

/// Largest root modulus of the characteristic polynomial of the fixed-step order-`order` PECE
/// scheme (AB order `k` predictor, AM order `k+1` corrector) at `z = hλ = (re, im)`. Orders
/// outside `1..=12` are clamped into it.
pub fn amplification(order: usize, z: (f64, f64)) -> f64 {
    let k = order.clamp(1, KMAX);
    let c = characteristic_polynomial(k, z);
    roots(&c[..=k]).iter().map(|&r| abs(r)).fold(0.0, f64::max)
}

/// Coefficients (lowest power first) of the monic characteristic polynomial of degree `k`.
fn characteristic_polynomial(k: usize, z: C) -> [C; LEN] {
    // The code's own constant-step coefficients: g_{i+1} = γ_i.
    let mut psi = [0.0; LEN];
    for (j, p) in psi.iter_mut().enumerate().skip(1) {
        *p = j as f64;
    }
    let g = Coefficients::compute(1.0, &psi, k).g;
    let binom = |n: usize, r: usize| -> f64 {
        (0..r).fold(1.0, |b, i| b * (n - i) as f64 / (i + 1) as f64)
    };
    // P(ζ): ζ^{k−1} + z Σ_i γ_i ∇^i, with ∇^i ↔ Σ_j (−1)^j C(i,j) ζ^{k−1−j}.
    let mut pred = [(0.0, 0.0); LEN];
    pred[k - 1] = (1.0, 0.0);
    for i in 0..k {
        for j in 0..=i {
            let s = if j % 2 == 0 { 1.0 } else { -1.0 };
            pred[k - 1 - j] = add(pred[k - 1 - j], scale(g[i + 1] * s * binom(i, j), z));
        }
    }
    let zg = scale(g[k + 1], z);
    let one_zg = add((1.0, 0.0), zg);
    let mut c = [(0.0, 0.0); LEN];
    c[k] = (1.0, 0.0);
    for (cj, &pj) in c.iter_mut().zip(&pred).take(k) {
        *cj = sub(*cj, mul(one_zg, pj));
    }
    for j in 1..=k {
        let s = if j % 2 == 0 { 1.0 } else { -1.0 };
        c[k - j] = sub(c[k - j], scale(s * binom(k, j), zg));
    }
    c
}

/// Evaluates the polynomial and its derivative at `x` (Horner).
fn horner(c: &[C], x: C) -> (C, C) {
    let mut p = (0.0, 0.0);
    let mut dp = (0.0, 0.0);
    for &cj in c.iter().rev() {
        dp = add(mul(dp, x), p);
        p = add(mul(p, x), cj);
    }
    (p, dp)
}

/// All roots of the monic polynomial `c` (lowest power first, degree `c.len() − 1 ≤ KMAX`) by
/// the Aberth–Ehrlich simultaneous iteration, started on a circle of Fujiwara's root bound.
fn roots(c: &[C]) -> [C; KMAX] {
    let d = c.len() - 1;
    let mut r = [(0.0, 0.0); KMAX];
    if d == 1 {
        r[0] = scale(-1.0, c[0]);
        return r;
    }
    let bound = (0..d)
        .map(|j| (abs(c[j]) * if j == 0 { 0.5 } else { 1.0 }).powf(1.0 / (d - j) as f64))
        .fold(0.0, f64::max)
        * 2.0;
    let radius = bound.max(1e-3);
    for (j, rj) in r.iter_mut().enumerate().take(d) {
        let a = 2.0 * std::f64::consts::PI * j as f64 / d as f64 + 0.4;
        *rj = (radius * a.cos(), radius * a.sin());
    }
    for _ in 0..500 {
        let mut moved: f64 = 0.0;
        for j in 0..d {
            let (p, dp) = horner(c, r[j]);
            if p == (0.0, 0.0) {
                continue;
            }
            let ratio = if dp == (0.0, 0.0) {
                (1e-8, 0.0)
            } else {
                div(p, dp)
            };
            let mut s = (0.0, 0.0);
            for l in 0..d {
                if l != j {
                    let diff = sub(r[j], r[l]);
                    if diff != (0.0, 0.0) {
                        s = add(s, div((1.0, 0.0), diff));
                    }
                }
            }
            let w = div(ratio, sub((1.0, 0.0), mul(ratio, s)));
            if !(w.0.is_finite() && w.1.is_finite()) {
                continue;
            }
            r[j] = sub(r[j], w);
            moved = moved.max(abs(w) / abs(r[j]).max(1.0));
        }
        if moved < 1e-15 {
            break;
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_one_is_heun() {
        for z in [
            (-1.0, 0.0),
            (-2.0, 0.0),
            (-0.3, 1.2),
            (0.5, -0.7),
            (-2.5, 0.0),
        ] {
            let r = add((1.0, 0.0), add(z, scale(0.5, mul(z, z))));
            assert!((amplification(1, z) - abs(r)).abs() < 1e-14, "{z:?}");
        }
    }

    #[test]
    fn consistency_the_principal_root_is_one_at_zero_and_follows_exp() {
        for k in 1..=KMAX {
            assert!(
                (amplification(k, (0.0, 0.0)) - 1.0).abs() < 1e-12,
                "k = {k}"
            );
            // A root (the principal one) approximates e^z to order k+1: ζ₁ = e^z + O(z^{k+2}).
            // (It need not be the largest: near z = 0 the k−1 parasitic roots grow like
            // z^{1/(k−1)}, which for k = 12 at |z| = 0.05 is already about 0.8.)
            for z in [(-0.05, 0.0), (0.0, 0.05), (-0.03, -0.04)] {
                let c = characteristic_polynomial(k, z);
                let e = (z.0.exp() * z.1.cos(), z.0.exp() * z.1.sin());
                let dist = roots(&c[..=k])[..k]
                    .iter()
                    .map(|&r| abs(sub(r, e)))
                    .fold(f64::INFINITY, f64::min);
                let bound = abs(z).powi(k as i32 + 2) + 1e-14;
                assert!(dist < bound, "k = {k}, z = {z:?}: {dist:e}");
            }
        }
    }

    #[test]
    fn roots_of_a_known_polynomial() {
        // (ζ − 0.5)(ζ + 2)(ζ − i)(ζ + i) = (ζ² + 1.5ζ − 1)(ζ² + 1).
        let c = [(-1.0, 0.0), (1.5, 0.0), (0.0, 0.0), (1.5, 0.0), (1.0, 0.0)];
        let mut m: Vec<f64> = roots(&c)[..4].iter().map(|&r| abs(r)).collect();
        m.sort_by(f64::total_cmp);
        for (got, want) in m.iter().zip([0.5, 1.0, 1.0, 2.0]) {
            assert!((got - want).abs() < 1e-12, "{m:?}");
        }
    }

    /// Growth per step of the stepper itself on `y' = λ y` (as the real 2×2 system
    /// `[a −b; b a]` for `λ = a + ib`) with `h = 1`, `h_fixed` and `max_order = k`: between
    /// steps 500 and 2000 the norm of the state changes by the dominant root's modulus per step
    /// (the other modes and the start-up transient have faded by then). A complex pair of
    /// dominant roots makes the norm oscillate: its envelope is the maximum over the last 50
    /// steps.
    fn simulated_growth(k: usize, z: (f64, f64)) -> f64 {
        use crate::{FnSystem, MultistepOptions, SolverOptions, Stats, Stepper};
        let (a, b) = z;
        let sys = FnSystem::new(2, move |_t, y: &[f64], dy: &mut [f64]| {
            dy[0] = a * y[0] - b * y[1];
            dy[1] = b * y[0] + a * y[1];
        });
        let opts = SolverOptions {
            h_fixed: Some(1.0),
            multistep: MultistepOptions { max_order: Some(k) },
            ..Default::default()
        };
        let mut st = super::super::Abm::new();
        let mut stats = Stats::default();
        st.start(&sys, 0.0, &[1.0, 0.3], &opts, &mut stats).unwrap();
        let (m0, m1, w) = (500, 2000, 50);
        let mut log_norm = [f64::NEG_INFINITY; 2];
        for step in 1..=m1 {
            st.step(&sys, f64::INFINITY, &opts, &mut stats).unwrap();
            let y = st.y();
            for (m, l) in [m0, m1].into_iter().zip(log_norm.iter_mut()) {
                if step > m - w && step <= m {
                    *l = l.max(y[0].hypot(y[1]).ln());
                }
            }
        }
        ((log_norm[1] - log_norm[0]) / (m1 - m0) as f64).exp()
    }

    #[test]
    fn the_stepper_grows_by_the_computed_root_modulus() {
        for (k, z) in [
            (1, (-1.9, 0.0)),
            (2, (-2.3, 0.0)),
            (2, (-2.42, 0.0)),
            (3, (-0.2, 1.0)),
            (4, (-1.3, 0.0)),
            (5, (-1.1, 0.0)),
            (6, (-0.5, 0.4)),
            (8, (-0.4, 0.0)),
            (10, (-0.25, 0.0)),
            (11, (-0.1, 0.15)),
        ] {
            let (sim, a) = (simulated_growth(k, z), amplification(k, z));
            assert!(
                (sim - a).abs() < 2e-3 * a,
                "k = {k}, z = {z:?}: {sim} vs {a}"
            );
        }
    }

    /// The states the stepper produces on `y' = λ y` with `h = 1` (as the real system
    /// `[a −b; b a]`, so that `y = y₀ + i y₁`), starting from `y(0) = 1 + 0.3 i`.
    fn fixed_step_sequence(k: usize, z: (f64, f64), steps: usize) -> Vec<C> {
        use crate::{FnSystem, MultistepOptions, SolverOptions, Stats, Stepper};
        let (a, b) = z;
        let sys = FnSystem::new(2, move |_t, y: &[f64], dy: &mut [f64]| {
            dy[0] = a * y[0] - b * y[1];
            dy[1] = b * y[0] + a * y[1];
        });
        let opts = SolverOptions {
            h_fixed: Some(1.0),
            multistep: MultistepOptions { max_order: Some(k) },
            ..Default::default()
        };
        let mut st = super::super::Abm::new();
        let mut stats = Stats::default();
        st.start(&sys, 0.0, &[1.0, 0.3], &opts, &mut stats).unwrap();
        let mut seq = vec![(1.0, 0.3)];
        for _ in 0..steps {
            st.step(&sys, f64::INFINITY, &opts, &mut stats).unwrap();
            seq.push((st.y()[0], st.y()[1]));
        }
        seq
    }

    #[test]
    fn the_stepper_obeys_the_characteristic_recursion() {
        // With the order at k from step k on, y_{m+k} = −Σ_{j<k} c_j y_{m+j} for every m ≥ 0:
        // whatever mode dominates, the stepper's sequence satisfies the recursion of the
        // polynomial (to rounding).
        for k in 1..=KMAX {
            for z in [(-0.05, 0.0), (-0.3, 0.2), (0.1, -0.6), (-1.0, 0.0)] {
                let c = characteristic_polynomial(k, z);
                let seq = fixed_step_sequence(k, z, 3 * k + 5);
                for m in 0..seq.len() - k {
                    let mut res = (0.0, 0.0);
                    let mut size: f64 = 0.0;
                    for j in 0..=k {
                        let t = mul(c[j], seq[m + j]);
                        res = add(res, t);
                        size = size.max(abs(t));
                    }
                    assert!(
                        abs(res) < 1e-13 * size,
                        "k = {k}, z = {z:?}, m = {m}: {res:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn stability_ordinates_follow_ghrist_fornberg_reeger() {
        // AB(p−1)–AMp PECE (here p = k + 1) has a nonzero imaginary stability boundary exactly
        // for p = 3, 4, 7, 8, 11, 12, … (Ghrist, Fornberg & Reeger 2015): k = 2, 3, 6, 7, 10, 11.
        // Near the origin |ζ₁(iy)| − 1 has the sign of the leading error term, ~ y^{k+3} or so;
        // each y below is small enough for that term to decide, large enough to resolve it.
        let inside = [
            (2, 0.1),
            (3, 0.1),
            (6, 0.1),
            (7, 0.1),
            (10, 0.1),
            (11, 0.05),
        ];
        for (k, y) in inside {
            let a = amplification(k, (0.0, y));
            assert!(a <= 1.0 + 1e-15, "k = {k}: |ζ(i {y})| = {a}");
        }
        let outside = [(1, 0.1), (4, 0.1), (5, 0.1), (8, 0.1), (9, 0.1), (12, 0.05)];
        for (k, y) in outside {
            let a = amplification(k, (0.0, y));
            assert!(a > 1.0 + 1e-13, "k = {k}: |ζ(i {y})| = {a}");
        }
        // Heun (k = 1): |1 + iy − y²/2|² = 1 + y⁴/4 exactly.
        let y: f64 = 0.3;
        assert!((amplification(1, (0.0, y)) - (1.0 + y.powi(4) / 4.0).sqrt()).abs() < 1e-15);
    }

    /// Left end of the real stability interval by bisection after a scan at resolution 1e-3.
    fn real_boundary(k: usize) -> f64 {
        let stable = |x: f64| amplification(k, (x, 0.0)) <= 1.0 + 1e-12;
        let mut x = 0.0;
        while stable(x - 1e-3) {
            x -= 1e-3;
        }
        let (mut a, mut b) = (x, x - 1e-3);
        for _ in 0..40 {
            let m = 0.5 * (a + b);
            if stable(m) {
                a = m;
            } else {
                b = m;
            }
        }
        a
    }

    #[test]
    fn real_stability_intervals() {
        // Heun's interval (−2, 0] for k = 1 (published); from k = 2 (AB2–AM3, (−2.4, 0]) on
        // the intervals shrink with the order, to (−0.062, 0] at k = 12, where a parasitic root
        // leaves the unit circle through −1.
        assert!((real_boundary(1) + 2.0).abs() < 1e-9);
        let b: Vec<f64> = (1..=KMAX).map(real_boundary).collect();
        for w in b[1..].windows(2) {
            assert!(w[1] > w[0], "{b:?}");
        }
    }
}
