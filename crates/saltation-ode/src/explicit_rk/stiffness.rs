//! Stiffness detection for the explicit pairs (Hairer & Wanner, *Solving ODEs II*, §IV.2, as
//! implemented in their `dopri5` and `dop853`).
//!
//! Two stages evaluated at the same time `t + h` — a stage `i` with `c_i = 1` and the
//! derivative at the new point — give the estimate `|hλ| ≈ h ‖f(y₁) − k_i‖ / ‖y₁ − Y_i‖` of the
//! dominant eigenvalue along the step (`Y_i` the stage's argument). When the step size is
//! limited by stability rather than accuracy, `|hλ|` sits at the edge of the method's stability
//! region on the negative real axis (3.3 for DP5, 6.1 for DOP853). The test runs every
//! [`TEST_INTERVAL`] accepted steps and, once `|hλ|` has been near the edge, at every step;
//! `limit` consecutive positive tests declare the problem stiff, and [`CALM_RESET`] consecutive
//! negative ones clear the suspicion (Hairer's `nstiff = 1000`, 15 and 6).

use crate::stability::stability_polynomial;
use crate::tableau::Tableau;

/// Accepted steps between two tests while nothing is suspicious.
pub const TEST_INTERVAL: usize = 1000;
/// Consecutive negative tests that clear a suspicion.
pub const CALM_RESET: usize = 6;
/// Fraction of the real stability boundary above which a test is positive (Hairer: 3.25 of
/// DP5's 3.307).
const EDGE_FRACTION: f64 = 0.98;

/// The state of the test for one stepper.
#[derive(Debug, Clone)]
pub struct StiffnessMonitor {
    /// The stage with `c = 1` compared with the new point's derivative.
    stage: usize,
    /// `|hλ|` above which a test is positive.
    edge: f64,
    /// Consecutive positive tests that make the problem stiff.
    limit: usize,
    accepted: usize,
    positive: usize,
    negative: usize,
}

impl StiffnessMonitor {
    /// The monitor for `tab` (whose derivative at the new point is stage slot `f_new`), or
    /// `None` when the tableau has no second stage at `c = 1` or `limit` is 0.
    pub fn new(tab: &Tableau, f_new: usize, limit: usize) -> Option<Self> {
        if limit == 0 {
            return None;
        }
        let stage = (1..f_new.min(tab.c.len()))
            .rev()
            .find(|&i| tab.c[i] == 1.0)?;
        Some(Self {
            stage,
            edge: EDGE_FRACTION * real_boundary(&stability_polynomial(tab)),
            limit,
            accepted: 0,
            positive: 0,
            negative: 0,
        })
    }

    /// Counts one accepted step; whether this step is tested.
    #[inline]
    pub fn due(&mut self) -> bool {
        self.accepted += 1;
        self.positive > 0 || self.accepted.is_multiple_of(TEST_INTERVAL)
    }

    /// The stage compared with the new point's derivative.
    pub fn stage(&self) -> usize {
        self.stage
    }

    /// Records one test of `|hλ|`; `true` when the problem is declared stiff.
    pub fn record(&mut self, h_lambda: f64) -> bool {
        if h_lambda > self.edge {
            self.negative = 0;
            self.positive += 1;
            self.positive >= self.limit
        } else {
            self.negative += 1;
            if self.negative >= CALM_RESET {
                self.positive = 0;
            }
            false
        }
    }

    /// Accepted steps since the monitor was made.
    pub fn accepted(&self) -> usize {
        self.accepted
    }
}

/// `|hλ| = h ‖f₁ − k_i‖ / ‖y₁ − Y_i‖` (Euclidean norms over the first `m` components), with
/// `Y_i = y₀ + h Σ_j a_ij k_j` recomputed from the stages (`k_j` at `[j n, (j+1) n)`).
#[allow(clippy::too_many_arguments)]
pub fn h_lambda(
    tab: &Tableau,
    i: usize,
    n: usize,
    m: usize,
    h: f64,
    y0: &[f64],
    y1: &[f64],
    k: &[f64],
    f1: &[f64],
) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for c in 0..m {
        let yi = y0[c]
            + h * tab.a[i]
                .iter()
                .enumerate()
                .map(|(j, a)| a * k[j * n + c])
                .sum::<f64>();
        let df = f1[c] - k[i * n + c];
        let dy = y1[c] - yi;
        num += df * df;
        den += dy * dy;
    }
    if den > 0.0 {
        h * (num / den).sqrt()
    } else {
        0.0
    }
}

/// Left end `x > 0` of the real stability interval `(−x, 0]` of the polynomial `R` (coefficients
/// lowest degree first): a scan with step 0.05 to 50, refined by bisection.
fn real_boundary(poly: &[f64]) -> f64 {
    let r = |x: f64| poly.iter().rev().fold(0.0, |acc, c| acc * x + c);
    let bounded = |x: f64| r(-x).abs() <= 1.0;
    let mut lo = 0.0;
    let mut x = 0.05;
    while x <= 50.0 {
        if !bounded(x) {
            let mut hi = x;
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if bounded(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
        lo = x;
        x += 0.05;
    }
    50.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tableau::{BS23, DOP853, DP5, RKF45};

    #[test]
    fn edges_are_hairers() {
        // dopri5 tests h λ > 3.25 and dop853 h λ > 6.1 (a little below 0.98 of DOP853's
        // boundary 6.39): within 3 %.
        let dp5 = StiffnessMonitor::new(&DP5, 6, 15).unwrap();
        assert!((dp5.edge - 3.25).abs() < 0.03, "{}", dp5.edge);
        assert_eq!(dp5.stage(), 5);
        let d8 = StiffnessMonitor::new(&DOP853, 12, 15).unwrap();
        assert!((d8.edge / 6.1 - 1.0).abs() < 0.03, "{}", d8.edge);
        assert!(StiffnessMonitor::new(&RKF45, 6, 15).is_some());
        // BS23's only stage at c = 1 is the new point itself: no test.
        assert!(StiffnessMonitor::new(&BS23, 3, 15).is_none());
        assert!(StiffnessMonitor::new(&DP5, 6, 0).is_none());
    }

    #[test]
    fn suspicion_needs_consecutive_positives_and_clears() {
        let mut m = StiffnessMonitor::new(&DP5, 6, 3).unwrap();
        assert!(!m.record(10.0) && !m.record(10.0));
        for _ in 0..CALM_RESET {
            assert!(!m.record(0.1));
        }
        assert!(!m.record(10.0) && !m.record(10.0) && m.record(10.0));
    }
}
