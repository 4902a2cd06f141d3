//! The matrix exponential and an upper bound on the spectral radius of a small dense matrix
//! (row-major `n × n`), for the exact stepper of an affine system.

/// `out = A B` (all row-major `n × n`).
pub(crate) fn matmul(a: &[f64], b: &[f64], n: usize, out: &mut [f64]) {
    for i in 0..n {
        let row = &mut out[i * n..(i + 1) * n];
        row.fill(0.0);
        for (l, &ail) in a[i * n..(i + 1) * n].iter().enumerate() {
            if ail != 0.0 {
                for (o, &blj) in row.iter_mut().zip(&b[l * n..(l + 1) * n]) {
                    *o += ail * blj;
                }
            }
        }
    }
}

/// `‖A‖∞`, the largest absolute row sum (NaN if any entry is NaN).
pub(crate) fn norm_inf(a: &[f64], n: usize) -> f64 {
    (0..n)
        .map(|i| a[i * n..(i + 1) * n].iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, |m: f64, s| {
            if m.is_nan() || s.is_nan() {
                f64::NAN
            } else {
                m.max(s)
            }
        })
}

/// An upper bound `r = ‖A¹⁶‖∞^{1/16} ≥ ρ(A)` on the spectral radius (Gelfand's formula
/// `ρ(A) = lim ‖Aᵏ‖^{1/k}`, and `ρ(A)ᵏ = ρ(Aᵏ) ≤ ‖Aᵏ‖` for every `k`): four squarings of
/// `A / ‖A‖`, each renormalised so that nothing overflows or underflows. Unlike `‖A‖` it is
/// close to `ρ(A)` for a far-from-normal matrix such as the first-order form of a stiff
/// spring (`‖A‖ = k/m`, `ρ = √(k/m)`): it overestimates by at most the 16th root of the
/// eigenvector condition. A nilpotent `A` (`A¹⁶ = 0` for `n ≤ 16`) gives 0.
pub(crate) fn spectral_bound(a: &[f64], n: usize) -> f64 {
    let s = norm_inf(a, n);
    if !(s > 0.0) || !s.is_finite() {
        return s;
    }
    let mut p: Vec<f64> = a[..n * n].iter().map(|v| v / s).collect();
    let mut q = vec![0.0; n * n];
    // ‖(A/s)^{2^i}‖ = exp(log_norm) ‖p‖ with ‖p‖ = 1 after each renormalisation.
    let mut log_norm = 0.0;
    for _ in 0..4 {
        matmul(&p, &p, n, &mut q);
        let c = norm_inf(&q, n);
        if !(c > 0.0) {
            return 0.0;
        }
        log_norm = 2.0 * log_norm + c.ln();
        for (pi, qi) in p.iter_mut().zip(&q) {
            *pi = qi / c;
        }
    }
    s * (log_norm / 16.0).exp()
}

/// Degree of the Taylor polynomial of [`expm`]: with `‖X‖ ≤ 1/2` the remainder is below
/// `2 (1/2)¹⁷ / 17! ≈ 4·10⁻²⁰` relative to `‖eˣ‖ ≥ e^{-1/2}`.
const TAYLOR_DEGREE: usize = 16;

/// Most squarings (`‖A‖ ≤ 2⁶³`; beyond that `e^A` overflows anyway).
const MAX_SQUARINGS: i32 = 64;

/// `out = e^A` by scaling and squaring with a Taylor polynomial (Moler & Van Loan, "Nineteen
/// dubious ways to compute the exponential of a matrix, twenty-five years later", SIAM Review
/// 45, 2003, method 3): `X = A / 2ˢ`, `T(X) = I + X(I + X/2(I + ⋯ (I + X/16)))` by Horner's
/// rule, then `e^A = T(X)^{2ˢ}` by `s` squarings. `s` is the smallest with
/// `α = max(‖X⁴‖^{1/4}, ‖X⁵‖^{1/5}) ≤ 1/2`: the remainder of the degree-16 polynomial is
/// bounded by `Σ_{k>16} αᵏ/k!` (Al-Mohy & Higham, "A new scaling and squaring algorithm for
/// the matrix exponential", SIAM J. Matrix Anal. Appl. 31, 2009, Thm. 4.2 with `p = 4`).
/// For a matrix far from normal `α` is far below `‖X‖`, which saves squarings and the
/// rounding they amplify. A non-finite `A` gives a non-finite result.
pub(crate) fn expm(a: &[f64], n: usize, out: &mut [f64]) {
    let alpha = power_norm_bound(a, n);
    if !alpha.is_finite() {
        // A non-finite A (or powers that overflow): no meaningful exponential.
        out[..n * n].fill(f64::NAN);
        return;
    }
    let s = if alpha > 0.5 {
        ((alpha / 0.5).log2().ceil() as i32).clamp(0, MAX_SQUARINGS)
    } else {
        0
    };
    let scale = (-s as f64).exp2();
    let x: Vec<f64> = a[..n * n].iter().map(|v| v * scale).collect();
    let mut t = vec![0.0; n * n];
    let mut tmp = vec![0.0; n * n];
    // Horner: T ← I + X T / k for k = m, …, 1, starting from T = I.
    set_identity(&mut t, n);
    for k in (1..=TAYLOR_DEGREE).rev() {
        matmul(&x, &t, n, &mut tmp);
        let inv = 1.0 / k as f64;
        for (ti, mi) in t.iter_mut().zip(&tmp) {
            *ti = mi * inv;
        }
        for i in 0..n {
            t[i * n + i] += 1.0;
        }
    }
    for _ in 0..s {
        matmul(&t, &t, n, &mut tmp);
        std::mem::swap(&mut t, &mut tmp);
    }
    out[..n * n].copy_from_slice(&t);
}

/// `max(‖A⁴‖^{1/4}, ‖A⁵‖^{1/5})` (∞-norms), from `A²`, `A⁴ = (A²)²` and `A⁵ = A⁴ A`.
fn power_norm_bound(a: &[f64], n: usize) -> f64 {
    let mut a2 = vec![0.0; n * n];
    let mut a4 = vec![0.0; n * n];
    let mut a5 = vec![0.0; n * n];
    matmul(a, a, n, &mut a2);
    matmul(&a2, &a2, n, &mut a4);
    matmul(&a4, a, n, &mut a5);
    let (d4, d5) = (norm_inf(&a4, n).powf(0.25), norm_inf(&a5, n).powf(0.2));
    if d4.is_nan() || d5.is_nan() {
        f64::NAN
    } else {
        d4.max(d5)
    }
}

fn set_identity(m: &mut [f64], n: usize) {
    m.fill(0.0);
    for i in 0..n {
        m[i * n + i] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exponential of a rotation generator and of a Jordan block against their closed
    /// forms, across the scaling range.
    #[test]
    fn exponential_matches_closed_forms() {
        for w in [0.0, 0.3, 2.0, 35.0, 400.0] {
            // [[0, w], [−w, 0]] → rotation by w.
            let mut e = [0.0; 4];
            expm(&[0.0, w, -w, 0.0], 2, &mut e);
            let (c, s) = (w.cos(), w.sin());
            for (got, want) in e.iter().zip([c, s, -s, c]) {
                assert!((got - want).abs() < 1e-13 * w.max(1.0), "{w}: {e:?}");
            }
        }
        // [[λ, 1], [0, λ]] → e^λ [[1, 1], [0, 1]].
        for l in [-30.0, -1.0, 0.5, 4.0] {
            let mut e = [0.0; 4];
            expm(&[l, 1.0, 0.0, l], 2, &mut e);
            let el = f64::exp(l);
            for (got, want) in e.iter().zip([el, el, 0.0, el]) {
                assert!((got - want).abs() <= 1e-13 * el, "{l}: {e:?}");
            }
        }
        let mut e = [0.0; 4];
        expm(&[f64::NAN, 0.0, 0.0, 0.0], 2, &mut e);
        assert!(e[0].is_nan());
    }

    /// The bound is at least ρ(A) and close to it for a stiff spring in first-order form
    /// (`‖A‖ = k`, `ρ = √k`); a nilpotent matrix gives 0.
    #[test]
    fn spectral_bound_brackets_the_spectral_radius() {
        let k: f64 = 1.0e4;
        let r = spectral_bound(&[0.0, 1.0, -k, 0.0], 2);
        assert!(r >= k.sqrt() && r < 1.5 * k.sqrt(), "{r}");
        assert_eq!(spectral_bound(&[0.0, 1.0, 0.0, 0.0], 2), 0.0);
        assert_eq!(spectral_bound(&[0.0; 4], 2), 0.0);
        let r = spectral_bound(&[-3.0, 0.0, 0.0, 2.0], 2);
        assert!((r - 3.0).abs() < 1e-12, "{r}");
    }
}
