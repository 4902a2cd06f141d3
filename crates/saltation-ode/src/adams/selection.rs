//! Order and step-size selection of Shampine & Gordon's STEP (Shampine & Gordon 1975, ch. 7–8;
//! Shampine & Reichelt 1997, §4, for MATLAB's `ode113`).
//!
//! All error estimates are scaled so that 1 is the tolerance (`‖e / w‖` in the crate's weighted
//! norm). For a step of order `k` the code estimates the local errors it would have made at
//! orders `k−2, k−1, k` from the predicted differences, as if the recent steps had been
//! constant (`ERK_j = |h| σ_{j+1} γ*_j ‖φ^p_{j+1}(n+1)‖`), and, after a successful step taken
//! with the same step size for `k+1` steps, at order `k+1` from `φ_{k+2}(n+1)`.
//!
//! - **Lowering** (before the error test): to `k−1` if `ERK_{k−1} ≤ ERK_k / 2` (`k = 2`) or
//!   `max(ERK_{k−2}, ERK_{k−1}) ≤ ERK_k` (`k > 2`): the errors must be decreasing with the
//!   order for the higher order to be worth it.
//! - **Raising** (after a successful step): during the start phase the order rises by one at
//!   every step and the step doubles, until an order is lowered, a step fails or the cap is
//!   reached; afterwards, with `ERK_{k+1}` available, to `k+1` if `ERK_{k+1} < ERK_k / 2`
//!   (`k = 1`) or `ERK_{k−1} > min(ERK_k, ERK_{k+1})` and `ERK_{k+1} < ERK_k` (`k > 1`; the
//!   first condition false lowers the order instead).
//! - **Step size** (order `k` chosen for the next step, `ERK` its estimate): double it if
//!   `ERK · 2^{k+1} ≤ 1/2`, keep it if `ERK ≤ 1/2`, else multiply it by
//!   `clamp((1/(2 ERK))^{1/(k+1)}, 1/2, 0.9)`. Constant steps as long as possible keep the
//!   divided differences cheap and the estimates meaningful.
//! - **Failure**: halve the step for the first two failures (order `k` or the lowered one),
//!   at the third take `√(1/(2 ERK))` when that is smaller than 1/2, and from the third on use
//!   order 1.
//!
//! The crate's options enter where STEP has constants: growth `min(2, max_growth)`, the
//! reduction factor at most `safety` (0.9 by default, STEP's value) and at least
//! `max(1/2, min_shrink)`, and failures shrink by at most `min_shrink`.

use crate::SolverOptions;

/// The scaled error estimates of one step (NaN when the predicted slope was not finite).
#[derive(Debug, Clone, Copy)]
pub(super) struct Estimates {
    /// Estimate of the order-`k` corrector's local error with the variable-step coefficients,
    /// `|h| (g_k − g_{k+1}) ‖φ^p_{k+1}‖`: the error test.
    pub err: f64,
    /// `ERK_k`.
    pub erk: f64,
    /// `ERK_{k−1}` (0 for `k = 1`).
    pub erkm1: f64,
    /// `ERK_{k−2}` (0 for `k ≤ 2`).
    pub erkm2: f64,
}

/// The order after the lowering test, before the error test.
pub(super) fn lowered_order(k: usize, e: &Estimates) -> usize {
    match k {
        2 if e.erkm1 <= 0.5 * e.erk => 1,
        k if k > 2 && e.erkm1.max(e.erkm2) <= e.erk => k - 1,
        k => k,
    }
}

/// What to do with the order after a successful step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum OrderChange {
    /// Raise by one (with `ERK_{k+1}` for the step size; 0 in the start phase).
    Raise(f64),
    /// Lower by one (with `ERK_{k−1}`).
    Lower(f64),
    /// Keep (with `ERK_k`).
    Keep(f64),
}

/// The order decision after a successful step of order `k`: `knew` from the lowering test,
/// `ns` the number of steps taken with the current step size, `kmax` the cap. `erkp1` computes
/// `ERK_{k+1}` (a pass over the state), called only when the decision needs it. Returns the
/// change and whether the start phase goes on.
pub(super) fn order_after_step(
    k: usize,
    knew: usize,
    kmax: usize,
    ns: usize,
    phase1: bool,
    e: &Estimates,
    erkp1: impl FnOnce() -> f64,
) -> (OrderChange, bool) {
    let phase1 = phase1 && knew + 1 != k && k < kmax;
    if phase1 {
        return (OrderChange::Raise(0.0), true);
    }
    if knew + 1 == k {
        return (OrderChange::Lower(e.erkm1), false);
    }
    if k + 1 > ns {
        // Too few steps of the current size for an order-(k+1) estimate.
        return (OrderChange::Keep(e.erk), false);
    }
    let ep1 = erkp1();
    let change = if k == 1 {
        if ep1 < 0.5 * e.erk && k < kmax {
            OrderChange::Raise(ep1)
        } else {
            OrderChange::Keep(e.erk)
        }
    } else if e.erkm1 <= e.erk.min(ep1) {
        OrderChange::Lower(e.erkm1)
    } else if ep1 >= e.erk || k >= kmax {
        OrderChange::Keep(e.erk)
    } else {
        OrderChange::Raise(ep1)
    };
    (change, false)
}

/// The next step size after a successful step of size `h`, for order `k` with estimate `erk`.
pub(super) fn next_step(h: f64, k: usize, erk: f64, phase1: bool, opts: &SolverOptions) -> f64 {
    let grow = opts.max_growth.min(2.0);
    if phase1 || 0.5 >= erk * grow.powi(k as i32 + 1) {
        return h * grow;
    }
    if 0.5 >= erk {
        return h;
    }
    let r = (0.5 / erk).powf(1.0 / (k as f64 + 1.0));
    h * r.min(opts.safety).max(opts.min_shrink.max(0.5))
}

/// Step size and order after the `ifail`-th failure in a row of a step of size `h`: `knew`
/// from the lowering test, `erk` its estimate (NaN after a non-finite evaluation).
pub(super) fn after_failure(
    ifail: usize,
    h: f64,
    erk: f64,
    knew: usize,
    opts: &SolverOptions,
) -> (f64, usize) {
    let halve = opts.min_shrink.max(0.5);
    let mut factor = halve;
    if ifail == 3 && 0.5 < 0.25 * erk {
        factor = (0.5 / erk).sqrt().max(opts.min_shrink);
    }
    let k = if ifail >= 3 { 1 } else { knew };
    (h * factor, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(erkm2: f64, erkm1: f64, erk: f64) -> Estimates {
        Estimates {
            err: erk,
            erk,
            erkm1,
            erkm2,
        }
    }

    #[test]
    fn lowering_needs_errors_that_do_not_decrease_with_the_order() {
        assert_eq!(lowered_order(1, &est(0.0, 0.0, 1.0)), 1);
        assert_eq!(lowered_order(2, &est(0.0, 0.4, 1.0)), 1);
        assert_eq!(lowered_order(2, &est(0.0, 0.6, 1.0)), 2);
        assert_eq!(lowered_order(5, &est(0.9, 0.8, 1.0)), 4);
        assert_eq!(lowered_order(5, &est(1.1, 0.8, 1.0)), 5);
        assert_eq!(lowered_order(5, &est(f64::NAN, f64::NAN, f64::NAN)), 5);
    }

    #[test]
    fn start_phase_raises_and_doubles_until_the_cap() {
        let o = SolverOptions::default();
        let e = est(0.0, 0.5, 1e-3);
        let never = || -> f64 { panic!("no ERK_{{k+1}} in the start phase") };
        assert_eq!(
            order_after_step(3, 3, 12, 1, true, &e, never),
            (OrderChange::Raise(0.0), true)
        );
        assert_eq!(
            order_after_step(12, 12, 12, 1, true, &e, || 1.0),
            (OrderChange::Keep(1e-3), false)
        );
        assert_eq!(next_step(0.1, 4, 0.3, true, &o), 0.2);
    }

    #[test]
    fn raising_needs_k_plus_one_constant_steps_and_a_smaller_estimate() {
        let e = est(0.3, 0.2, 0.1);
        // Too few constant steps: ERK_{k+1} is not even computed.
        let (c, _) = order_after_step(4, 4, 12, 4, false, &e, || panic!());
        assert_eq!(c, OrderChange::Keep(0.1));
        let (c, _) = order_after_step(4, 4, 12, 5, false, &e, || 0.05);
        assert_eq!(c, OrderChange::Raise(0.05));
        let (c, _) = order_after_step(4, 4, 12, 5, false, &e, || 0.2);
        assert_eq!(c, OrderChange::Keep(0.1));
        // ERK_{k−1} below both: lower.
        let e2 = est(0.3, 0.04, 0.1);
        let (c, _) = order_after_step(4, 4, 12, 5, false, &e2, || 0.05);
        assert_eq!(c, OrderChange::Lower(0.04));
        // Order 1 rises only for a halved estimate.
        let e1 = est(0.0, 0.0, 0.1);
        assert_eq!(
            order_after_step(1, 1, 12, 2, false, &e1, || 0.06).0,
            OrderChange::Keep(0.1)
        );
        assert_eq!(
            order_after_step(1, 1, 12, 2, false, &e1, || 0.04).0,
            OrderChange::Raise(0.04)
        );
        assert_eq!(
            order_after_step(1, 1, 1, 2, false, &e1, || 0.04).0,
            OrderChange::Keep(0.1)
        );
    }

    #[test]
    fn step_policy_doubles_keeps_or_reduces() {
        let o = SolverOptions::default();
        assert_eq!(next_step(1.0, 3, 0.5 / 16.0, false, &o), 2.0);
        assert_eq!(next_step(1.0, 3, 0.4, false, &o), 1.0);
        assert_eq!(next_step(1.0, 3, 0.55, false, &o), 0.9);
        let r = next_step(1.0, 3, 0.8, false, &o);
        assert!((r - 0.625f64.powf(0.25)).abs() < 1e-15, "{r}");
        let r = next_step(1.0, 3, 50.0, false, &o);
        assert!((r - 0.5).abs() < 1e-15, "{r}");
        let r = next_step(1.0, 1, 2.0, false, &o);
        assert!((r - 0.5).abs() < 1e-15, "{r}");
        let r = next_step(1.0, 1, 0.9, false, &o);
        assert!((r - (0.5f64 / 0.9).sqrt()).abs() < 1e-15, "{r}");
        assert_eq!(next_step(1.0, 1, 0.55, false, &o), 0.9);
    }

    #[test]
    fn failures_halve_then_drop_to_order_one() {
        let o = SolverOptions::default();
        assert_eq!(after_failure(1, 1.0, 10.0, 5, &o), (0.5, 5));
        assert_eq!(after_failure(2, 1.0, 10.0, 4, &o), (0.5, 4));
        let (h, k) = after_failure(3, 1.0, 8.0, 4, &o);
        assert!((h - 0.25).abs() < 1e-15 && k == 1, "{h} {k}");
        assert_eq!(after_failure(3, 1.0, 1.5, 4, &o), (0.5, 1));
        assert_eq!(after_failure(4, 1.0, 1e9, 1, &o), (0.5, 1));
        assert_eq!(after_failure(1, 1.0, f64::NAN, 3, &o), (0.5, 3));
        let (h, _) = after_failure(3, 1.0, 1e12, 4, &o);
        assert_eq!(h, 0.2, "bounded by min_shrink");
    }
}
