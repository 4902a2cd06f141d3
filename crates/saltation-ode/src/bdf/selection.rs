//! Step-size and order selection of the quasi-constant step-size NDF/BDF code, after
//! Shampine & Reichelt's `ode15s` (1997, §2).
//!
//! With `err_j` the scaled error estimate of the formula of order `j` (`C_j ‖∇^{j+1} y_{n+1}‖`,
//! `C_j = κ_j γ_j + 1/(j+1)`; a step passes when `err_k ≤ 1`):
//!
//! - **after an accepted step**, once `k + 2` steps have been taken with the current order and
//!   step size, the step sizes that the orders `k − 1`, `k`, `k + 1` would allow,
//!   `h_j = h / (q_j err_j^{1/(j+1)})` with the safety divisors `q = 1.3, 1.2, 1.4` (the higher
//!   order is trusted least), are compared, and the largest wins — but the step is changed (with
//!   the order) only when it grows; the growth is capped at `max_growth` (10 in `ode15s`);
//! - **after a rejected step**: the first failure shrinks to
//!   `h max(min_shrink, err_k^{−1/(k+1)}/1.2)`, or drops the order when the order `k − 1` allows
//!   more (`h max(min_shrink, err_{k−1}^{−1/k}/1.3)`, at most `h`); further failures halve the
//!   step.
//!
//! The options' `safety` scales the divisors: `q_j · 0.9/safety` (the published values at the
//! default 0.9).

use crate::SolverOptions;

/// Safety divisors of the orders `k − 1`, `k`, `k + 1`.
const Q_LOWER: f64 = 1.3;
const Q_SAME: f64 = 1.2;
const Q_HIGHER: f64 = 1.4;
/// The options' safety at which the divisors are the published ones.
const REFERENCE_SAFETY: f64 = 0.9;
/// Shrink factor after the second and later error-test failures of a step.
const REPEATED_FAILURE_SHRINK: f64 = 0.5;

/// Scale of the divisors from the options.
fn q_scale(opts: &SolverOptions) -> f64 {
    REFERENCE_SAFETY / opts.safety
}

/// `h / max(1/max_growth, q err^{1/p})`: the step that order `p − 1` allows.
fn allowed(h: f64, err: f64, p: usize, q: f64, max_growth: f64) -> f64 {
    let t = q * err.powf(1.0 / p as f64);
    if t > 1.0 / max_growth {
        h / t
    } else {
        h * max_growth
    }
}

/// Estimates after an accepted step of order `k`: `err_k`, and `err_{k−1}`, `err_{k+1}` when
/// those orders are candidates (`None` otherwise).
#[derive(Debug, Clone, Copy)]
pub struct Estimates {
    pub err: f64,
    pub lower: Option<f64>,
    pub higher: Option<f64>,
}

/// The step size and order proposed after an accepted step of size `h` and order `k` (`None`:
/// keep both).
pub fn after_success(h: f64, k: usize, e: Estimates, opts: &SolverOptions) -> Option<(f64, usize)> {
    let s = q_scale(opts);
    let g = opts.max_growth;
    let mut best = (allowed(h, e.err, k + 1, Q_SAME * s, g), k);
    if let Some(lo) = e.lower {
        let hl = allowed(h, lo, k, Q_LOWER * s, g);
        if hl > best.0 {
            best = (hl, k - 1);
        }
    }
    if let Some(hi) = e.higher {
        let hh = allowed(h, hi, k + 2, Q_HIGHER * s, g);
        if hh > best.0 {
            best = (hh, k + 1);
        }
    }
    let h_new = best.0.min(opts.h_max);
    (h_new > h).then_some((h_new, best.1))
}

/// The step size and order for the retry after the `failures`-th error-test failure of a step
/// of size `h` and order `k` with estimate `err` (> 1) and, for `k > 1`, `err_lower` the
/// estimate of order `k − 1` from the same attempt.
pub fn after_failure(
    h: f64,
    k: usize,
    failures: usize,
    err: f64,
    err_lower: Option<f64>,
    opts: &SolverOptions,
) -> (f64, usize) {
    if failures > 1 {
        return (h * REPEATED_FAILURE_SHRINK.max(opts.min_shrink), k);
    }
    let s = q_scale(opts);
    // `max` returns the shrink floor for a NaN estimate.
    let fac = (1.0 / (Q_SAME * s) * err.powf(-1.0 / (k + 1) as f64)).max(opts.min_shrink);
    let mut out = (h * fac.min(1.0), k);
    if let Some(lo) = err_lower {
        let fac_lo = (1.0 / (Q_LOWER * s) * lo.powf(-1.0 / k as f64)).max(opts.min_shrink);
        let h_lo = h * fac_lo;
        if h_lo > out.0 {
            out = (h_lo.min(h), k - 1);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_errors_grow_the_step_at_most_by_max_growth_and_pick_the_best_order() {
        let opts = SolverOptions::default();
        let e = Estimates {
            err: 1e-12,
            lower: None,
            higher: None,
        };
        assert_eq!(after_success(0.1, 3, e, &opts), Some((0.1 * 10.0, 3)));
        // err = 1: no growth (divisor 1.2), no change.
        let e = Estimates {
            err: 1.0,
            lower: Some(1.0),
            higher: Some(1e-3),
        };
        let (h, k) = after_success(0.1, 3, e, &opts).unwrap();
        assert_eq!(k, 4);
        assert!((h - 0.1 / (1.4 * 1e-3f64.powf(1.0 / 5.0))).abs() < 1e-12);
        let e = Estimates {
            err: 1.0,
            lower: Some(1.0),
            higher: Some(1.0),
        };
        assert_eq!(after_success(0.1, 3, e, &opts), None);
    }

    #[test]
    fn failures_shrink_and_may_drop_the_order() {
        let opts = SolverOptions::default();
        let (h, k) = after_failure(1.0, 3, 1, 2.0f64.powi(4), None, &opts);
        assert!((h - 0.5 / 1.2).abs() < 1e-12 && k == 3);
        let (h, k) = after_failure(1.0, 3, 1, 1e12, Some(0.5), &opts);
        assert!(k == 2 && h <= 1.0 && h > 0.2, "{h} {k}");
        assert_eq!(after_failure(1.0, 3, 2, 1e12, None, &opts), (0.5, 3));
        let (h, _) = after_failure(1.0, 1, 1, f64::NAN, None, &opts);
        assert_eq!(h, opts.min_shrink);
    }
}
