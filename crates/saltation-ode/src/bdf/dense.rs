//! Dense output: the polynomial that interpolates the backward differences.
//!
//! After a step of order `k` and size `h` to `t_{n+1}` the differences `∇^j y_{n+1}`,
//! `j = 1..=k`, define the polynomial of degree `k` through `y_{n+1}, y_n, …` at the equally
//! spaced points `t_{n+1} − i h` (Newton's backward-difference formula):
//!
//! `p(t_{n+1} + s h) = y_{n+1} + Σ_{j=1}^{k} ∇^j y_{n+1} · s (s+1) ⋯ (s+j−1) / j!`,  `s ∈ [−1, 0]`
//!
//! (as MATLAB's `ntrp15s`; Shampine & Reichelt 1997, §2). It passes through both ends of the
//! step, so consecutive steps join continuously, and its error is `O(h^{k+1})`.

use super::differences::Differences;

/// Writes `p(t)` of the last step (ending at `t1` with state `y1`, size `h`, order `k`) into
/// `out` (its first `out.len()` components).
pub fn interpolate(
    dif: &Differences,
    k: usize,
    t1: f64,
    h: f64,
    y1: &[f64],
    t: f64,
    out: &mut [f64],
) {
    let s = (t - t1) / h;
    let n = out.len();
    out.copy_from_slice(&y1[..n]);
    let mut c = 1.0;
    for j in 1..=k {
        c *= (s + (j - 1) as f64) / j as f64;
        for (o, d) in out.iter_mut().zip(&dif.col(j)[..n]) {
            *o += c * d;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The interpolant of a cubic from its differences is the cubic.
    #[test]
    fn reproduces_a_cubic_between_the_points() {
        let p = |t: f64| 0.5 - t + 2.0 * t * t + 0.7 * t.powi(3);
        let (t1, h, k) = (2.0, 0.25, 3);
        let vals: Vec<f64> = (0..=k).map(|i| p(t1 - i as f64 * h)).collect();
        let mut dif = Differences::default();
        dif.resize(1);
        // Backward differences at t1 from the values.
        let mut row = vals.clone();
        for j in 1..=k {
            for i in 0..row.len() - 1 {
                row[i] -= row[i + 1];
            }
            row.pop();
            dif.col_mut(j)[0] = row[0];
        }
        for t in [1.3, 1.5, 1.77, 1.9, 2.0] {
            let mut out = [0.0];
            interpolate(&dif, k, t1, h, &[vals[0]], t, &mut out);
            assert!((out[0] - p(t)).abs() < 1e-13, "{t}: {} vs {}", out[0], p(t));
        }
    }
}
