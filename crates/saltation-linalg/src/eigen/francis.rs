//! Hessenberg reduction and the Francis implicit double-shift QR algorithm (eigenvalues only).
//!
//! 1. Householder reduction to upper Hessenberg form, `H = Qᵀ A Q`.
//! 2. Francis double-shift QR sweeps on the active block `H[l..=i, l..=i]`: the shifts are the
//!    eigenvalues `σ₁, σ₂` of its trailing 2×2 block; the first column of
//!    `(H − σ₁I)(H − σ₂I)` (three nonzeros, real even for complex shifts) defines a 3×3
//!    reflector whose bulge is chased down the subdiagonal (Francis 1961/62; Golub and Van Loan,
//!    *Matrix Computations*, 4th ed., Alg. 7.5.1–7.5.2).
//! 3. Deflation when a subdiagonal entry is negligible by the conservative criterion of Ahues
//!    and Tisseur (LAPACK Working Note 122, 1997), as in LAPACK `dlahqr`; a sweep may also start
//!    in the middle of the block where two consecutive subdiagonals are small.
//! 4. Exceptional shifts after 6 and 12 (and every further 6) sweeps without deflation, taken
//!    from the top and bottom of the block (`dlahqr`'s constants 3/4 and −0.4375). They break
//!    the cycles of the plain Francis iteration on orthogonal matrices such as cyclic companion
//!    and permutation matrices, where the standard shifts are 0 and a sweep changes nothing.
//! 5. A hard cap of `30·max(10, n)` sweeps per deflation; exceeding it returns an error
//!    instead of looping.
//!
//! A converged 2×2 block is split into real or complex-conjugate eigenvalues by the
//! standardisation of `dlanv2` (Bai and Demmel), which computes them to high relative accuracy
//! in the block's entries. Everything here is a fresh implementation of those published methods.

use nalgebra::DMatrix;

/// Why the QR iteration stopped without all eigenvalues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotConverged {
    /// Total number of double-shift sweeps performed.
    pub(crate) iterations: usize,
}

/// Fortran's `SIGN(1, x)` with `+0` and `−0` both counted as positive.
fn sign1(x: f64) -> f64 {
    if x >= 0.0 {
        1.0
    } else {
        -1.0
    }
}

/// 2-norm of `x` without overflow or harmful underflow.
fn norm2(x: &[f64]) -> f64 {
    let scale = x.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    if scale == 0.0 || !scale.is_finite() {
        return scale;
    }
    scale * x.iter().map(|v| (v / scale).powi(2)).sum::<f64>().sqrt()
}

/// Elementary reflector `G = I − τ (1, v)(1, v)ᵀ` with `G (α, x)ᵀ = (β, 0)ᵀ` (LAPACK `dlarfg`).
/// On return `alpha` holds `β` and `x` holds `v`; returns `τ` (0 when `x = 0`: `G = I`).
pub(crate) fn householder(alpha: &mut f64, x: &mut [f64]) -> f64 {
    let mut xnorm = norm2(x);
    if xnorm == 0.0 {
        return 0.0;
    }
    let safmin = f64::MIN_POSITIVE / f64::EPSILON;
    let mut beta = -alpha.hypot(xnorm).copysign(*alpha);
    let mut knt = 0;
    if beta.abs() < safmin {
        // Rescale so that β is not in the subnormal range; undone on β below.
        while beta.abs() < safmin && knt < 20 {
            knt += 1;
            x.iter_mut().for_each(|v| *v /= safmin);
            beta /= safmin;
            *alpha /= safmin;
        }
        xnorm = norm2(x);
        beta = -alpha.hypot(xnorm).copysign(*alpha);
    }
    let tau = (beta - *alpha) / beta;
    let inv = 1.0 / (*alpha - beta);
    x.iter_mut().for_each(|v| *v *= inv);
    for _ in 0..knt {
        beta *= safmin;
    }
    *alpha = beta;
    tau
}

/// Reduces the square matrix `a` in place to upper Hessenberg form by Householder similarity
/// transformations (entries below the subdiagonal are set to exactly zero).
pub(crate) fn hessenberg(a: &mut DMatrix<f64>) {
    let n = a.nrows();
    let mut v = vec![0.0; n];
    for k in 0..n.saturating_sub(2) {
        let mut alpha = a[(k + 1, k)];
        let len = n - k - 2;
        for (t, vt) in v[..len].iter_mut().enumerate() {
            *vt = a[(k + 2 + t, k)];
        }
        let tau = householder(&mut alpha, &mut v[..len]);
        a[(k + 1, k)] = alpha;
        for t in 0..len {
            a[(k + 2 + t, k)] = 0.0;
        }
        if tau == 0.0 {
            continue;
        }
        // The reflector acts on indices k+1..n with vector w = (1, v).
        let w = |t: usize| if t == 0 { 1.0 } else { v[t - 1] };
        let m = n - k - 1;
        for j in (k + 1)..n {
            let s: f64 = (0..m).map(|t| w(t) * a[(k + 1 + t, j)]).sum();
            for t in 0..m {
                a[(k + 1 + t, j)] -= tau * s * w(t);
            }
        }
        for i in 0..n {
            let s: f64 = (0..m).map(|t| a[(i, k + 1 + t)] * w(t)).sum();
            for t in 0..m {
                a[(i, k + 1 + t)] -= tau * s * w(t);
            }
        }
    }
}

/// Eigenvalues `(re₁, im₁, re₂, im₂)` of the real 2×2 matrix `[a b; c d]`, computed through the
/// standardisation of LAPACK `dlanv2`: a rotation makes the diagonal equal when the eigenvalues
/// are complex, so that they are `a ± i√|b|√|c|` exactly for the rotated entries.
pub(crate) fn eig2x2(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> (f64, f64, f64, f64) {
    const MULTPL: f64 = 4.0;
    let eps = f64::EPSILON;
    if c == 0.0 {
        // Already upper triangular.
    } else if b == 0.0 {
        // Lower triangular: swap rows and columns.
        std::mem::swap(&mut a, &mut d);
        b = -c;
        c = 0.0;
    } else if a - d == 0.0 && sign1(b) != sign1(c) {
        // Standard form with complex eigenvalues already.
    } else {
        let temp = a - d;
        let p = 0.5 * temp;
        let bcmax = b.abs().max(c.abs());
        let bcmis = b.abs().min(c.abs()) * sign1(b) * sign1(c);
        let scale = p.abs().max(bcmax);
        let z = p / scale * p + bcmax / scale * bcmis;
        if z >= MULTPL * eps {
            // Real eigenvalues, computed without cancellation.
            let z = p + (scale.sqrt() * z.sqrt()).copysign(p);
            a = d + z;
            d -= bcmax / z * bcmis;
            c = 0.0;
        } else {
            // Complex or nearly equal real eigenvalues: make the diagonal equal.
            let sigma = b + c;
            let tau = sigma.hypot(temp);
            let cs = (0.5 * (1.0 + sigma.abs() / tau)).sqrt();
            let sn = -(p / (tau * cs)) * sign1(sigma);
            let aa = a * cs + b * sn;
            let bb = -a * sn + b * cs;
            let cc = c * cs + d * sn;
            let dd = -c * sn + d * cs;
            a = aa * cs + cc * sn;
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            d = -bb * sn + dd * cs;
            let mid = 0.5 * (a + d);
            a = mid;
            d = mid;
            if c != 0.0 {
                if b != 0.0 {
                    if sign1(b) == sign1(c) {
                        // Real eigenvalues after all.
                        let sab = b.abs().sqrt();
                        let sac = c.abs().sqrt();
                        let p = (sab * sac).copysign(c);
                        a = mid + p;
                        d = mid - p;
                        c = 0.0;
                    }
                } else {
                    b = -c;
                    c = 0.0;
                }
            }
        }
    }
    if c == 0.0 {
        (a, 0.0, d, 0.0)
    } else {
        let im = b.abs().sqrt() * c.abs().sqrt();
        (a, im, d, -im)
    }
}

/// Shifts for one sweep: `(σ₁ re, σ₁ im, σ₂ re, σ₂ im)` from the 2×2 matrix `[h11 h12; h21 h22]`.
/// Complex shifts come as a conjugate pair; of two real shifts only the one closer to `h22` is
/// used (twice), as in `dlahqr`.
fn shifts(h11: f64, h12: f64, h21: f64, h22: f64) -> (f64, f64, f64, f64) {
    let s = h11.abs() + h12.abs() + h21.abs() + h22.abs();
    if s == 0.0 {
        return (0.0, 0.0, 0.0, 0.0);
    }
    let (h11, h12, h21, h22) = (h11 / s, h12 / s, h21 / s, h22 / s);
    let tr = 0.5 * (h11 + h22);
    let det = (h11 - tr) * (h22 - tr) - h12 * h21;
    let rtdisc = det.abs().sqrt();
    if det >= 0.0 {
        (tr * s, rtdisc * s, tr * s, -rtdisc * s)
    } else {
        let r1 = tr + rtdisc;
        let r2 = tr - rtdisc;
        let r = if (r1 - h22).abs() <= (r2 - h22).abs() {
            r1
        } else {
            r2
        };
        (r * s, 0.0, r * s, 0.0)
    }
}

/// Eigenvalues of the upper Hessenberg matrix `h` (destroyed). Returns real and imaginary parts
/// in Schur order, or [`NotConverged`] after the iteration cap.
pub(crate) fn hessenberg_eigenvalues(
    h: &mut DMatrix<f64>,
) -> Result<(Vec<f64>, Vec<f64>), NotConverged> {
    const DAT1: f64 = 0.75;
    const DAT2: f64 = -0.4375;
    const KEXSH: usize = 6;
    let n = h.nrows();
    let mut wr = vec![0.0; n];
    let mut wi = vec![0.0; n];
    if n == 0 {
        return Ok((wr, wi));
    }
    let ulp = f64::EPSILON;
    let smlnum = f64::MIN_POSITIVE * (n as f64 / ulp);
    let itmax = 30 * n.max(10);
    let mut total = 0_usize;
    let mut kdefl = 0_usize;
    // Active block is rows/columns l..=i; eigenvalues i+1.. are done.
    let mut i_end = n; // i = i_end - 1
    while i_end > 0 {
        let i = i_end - 1;
        let mut l = 0;
        let mut converged = false;
        for _its in 0..=itmax {
            // Look for a single negligible subdiagonal entry.
            let mut k = i;
            while k > l {
                let hkk1 = h[(k, k - 1)].abs();
                if hkk1 <= smlnum {
                    break;
                }
                let mut tst = h[(k - 1, k - 1)].abs() + h[(k, k)].abs();
                if tst == 0.0 {
                    if k >= 2 {
                        tst += h[(k - 1, k - 2)].abs();
                    }
                    if k + 1 < n {
                        tst += h[(k + 1, k)].abs();
                    }
                }
                if hkk1 <= ulp * tst {
                    let hk1k = h[(k - 1, k)].abs();
                    let ab = hkk1.max(hk1k);
                    let ba = hkk1.min(hk1k);
                    let diff = (h[(k - 1, k - 1)] - h[(k, k)]).abs();
                    let aa = h[(k, k)].abs().max(diff);
                    let bb = h[(k, k)].abs().min(diff);
                    let s = aa + ab;
                    if ba * (ab / s) <= smlnum.max(ulp * (bb * (aa / s))) {
                        break;
                    }
                }
                k -= 1;
            }
            l = k;
            if l > 0 {
                h[(l, l - 1)] = 0.0;
            }
            if l + 1 >= i {
                converged = true;
                break;
            }
            kdefl += 1;
            total += 1;

            let (h11, h12, h21, h22) = if kdefl.is_multiple_of(2 * KEXSH) {
                let s = h[(i, i - 1)].abs() + h[(i - 1, i - 2)].abs();
                (DAT1 * s + h[(i, i)], DAT2 * s, s, DAT1 * s + h[(i, i)])
            } else if kdefl.is_multiple_of(KEXSH) {
                let s = h[(l + 1, l)].abs() + h[(l + 2, l + 1)].abs();
                (DAT1 * s + h[(l, l)], DAT2 * s, s, DAT1 * s + h[(l, l)])
            } else {
                (h[(i - 1, i - 1)], h[(i - 1, i)], h[(i, i - 1)], h[(i, i)])
            };
            let (rt1r, rt1i, rt2r, rt2i) = shifts(h11, h12, h21, h22);

            // Look for two consecutive small subdiagonal entries; start the sweep at row m.
            let mut v = [0.0_f64; 3];
            let mut m = i - 2;
            loop {
                let h21s = h[(m + 1, m)];
                let s = (h[(m, m)] - rt2r).abs() + rt2i.abs() + h21s.abs();
                let h21s = h21s / s;
                v[0] = h21s * h[(m, m + 1)] + (h[(m, m)] - rt1r) * ((h[(m, m)] - rt2r) / s)
                    - rt1i * (rt2i / s);
                v[1] = h21s * (h[(m, m)] + h[(m + 1, m + 1)] - rt1r - rt2r);
                v[2] = h21s * h[(m + 2, m + 1)];
                let s = v[0].abs() + v[1].abs() + v[2].abs();
                v.iter_mut().for_each(|x| *x /= s);
                if m == l {
                    break;
                }
                let h00 = h[(m - 1, m - 1)].abs() + h[(m, m)].abs() + h[(m + 1, m + 1)].abs();
                if h[(m, m - 1)].abs() * (v[1].abs() + v[2].abs()) <= ulp * v[0].abs() * h00 {
                    break;
                }
                m -= 1;
            }

            // Double-shift sweep: chase the bulge from row m to the bottom of the block.
            for k in m..i {
                let nr = 3.min(i - k + 1);
                if k > m {
                    for t in 0..nr {
                        v[t] = h[(k + t, k - 1)];
                    }
                }
                let (head, tail) = v.split_at_mut(1);
                let t1 = householder(&mut head[0], &mut tail[..nr - 1]);
                if k > m {
                    h[(k, k - 1)] = v[0];
                    h[(k + 1, k - 1)] = 0.0;
                    if k + 2 < i + 1 {
                        h[(k + 2, k - 1)] = 0.0;
                    }
                } else if m > l {
                    // Equivalent to negating H(k, k−1) but safe when v₂, v₃ underflow.
                    h[(k, k - 1)] *= 1.0 - t1;
                }
                let v2 = v[1];
                let t2 = t1 * v2;
                if nr == 3 {
                    let v3 = v[2];
                    let t3 = t1 * v3;
                    for j in k..=i {
                        let sum = h[(k, j)] + v2 * h[(k + 1, j)] + v3 * h[(k + 2, j)];
                        h[(k, j)] -= sum * t1;
                        h[(k + 1, j)] -= sum * t2;
                        h[(k + 2, j)] -= sum * t3;
                    }
                    for j in l..=(k + 3).min(i) {
                        let sum = h[(j, k)] + v2 * h[(j, k + 1)] + v3 * h[(j, k + 2)];
                        h[(j, k)] -= sum * t1;
                        h[(j, k + 1)] -= sum * t2;
                        h[(j, k + 2)] -= sum * t3;
                    }
                } else {
                    for j in k..=i {
                        let sum = h[(k, j)] + v2 * h[(k + 1, j)];
                        h[(k, j)] -= sum * t1;
                        h[(k + 1, j)] -= sum * t2;
                    }
                    for j in l..=i {
                        let sum = h[(j, k)] + v2 * h[(j, k + 1)];
                        h[(j, k)] -= sum * t1;
                        h[(j, k + 1)] -= sum * t2;
                    }
                }
            }
        }
        if !converged {
            return Err(NotConverged { iterations: total });
        }
        if l == i {
            wr[i] = h[(i, i)];
            wi[i] = 0.0;
        } else {
            let (r1, i1, r2, i2) =
                eig2x2(h[(i - 1, i - 1)], h[(i - 1, i)], h[(i, i - 1)], h[(i, i)]);
            wr[i - 1] = r1;
            wi[i - 1] = i1;
            wr[i] = r2;
            wi[i] = i2;
        }
        kdefl = 0;
        i_end = l;
    }
    Ok((wr, wi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eig2x2_rotation_block() {
        let (r1, i1, r2, i2) = eig2x2(0.5, -2.0, 2.0, 0.5);
        assert_eq!((r1, r2), (0.5, 0.5));
        assert!((i1 - 2.0).abs() < 1e-15 && (i2 + 2.0).abs() < 1e-15);
    }

    #[test]
    fn eig2x2_real_pair_without_cancellation() {
        // Eigenvalues of [1 1; 1e-20 1] are 1 ± 1e-10.
        let (r1, i1, r2, i2) = eig2x2(1.0, 1.0, 1e-20, 1.0);
        assert_eq!((i1, i2), (0.0, 0.0));
        let (hi, lo) = if r1 > r2 { (r1, r2) } else { (r2, r1) };
        assert!((hi - (1.0 + 1e-10)).abs() < 1e-15);
        assert!((lo - (1.0 - 1e-10)).abs() < 1e-15);
    }

    #[test]
    fn iteration_cap_returns_instead_of_looping() {
        // NaN never passes a deflation test, so only the cap can end the iteration (the public
        // API rejects non-finite input before it gets here).
        let n = 5;
        let mut h = DMatrix::from_fn(n, n, |i, j| if i <= j + 1 { 1.0 } else { 0.0 });
        h[(3, 2)] = f64::NAN;
        let err = hessenberg_eigenvalues(&mut h).unwrap_err();
        assert_eq!(err.iterations, 30 * 10 + 1);
    }

    #[test]
    fn householder_annihilates() {
        let mut alpha = 3.0;
        let mut x = [4.0];
        let tau = householder(&mut alpha, &mut x);
        assert!((alpha + 5.0).abs() < 1e-15);
        // G (3, 4)ᵀ = (β, 0)ᵀ with G = I − τ w wᵀ, w = (1, v).
        let w = [1.0, x[0]];
        let dot = 3.0 * w[0] + 4.0 * w[1];
        let second = 4.0 - tau * dot * w[1];
        assert!(second.abs() < 1e-15);
    }
}
