//! Pairs of crossings inside a sample interval: a step's screened samples are "quiet" when no
//! interval between two samples of one sign is curved enough (by the parabola through its
//! same-sign neighbours) to dip through zero; a doubtful interval is bisected on the method's
//! dense output.

use super::{EventScanner, RATE_NOISE, REFINE_EVALS, SCREEN_DOUBT};
use crate::stepper::Stepper;
use crate::{EventSet, OdeSystem, Stats};

impl EventScanner {
    /// A point strictly inside `(a, b)` where guard `i` has the other sign than at both ends
    /// (or is 0), found by bisecting the pieces whose curvature could hide a dip through zero
    /// (see the module documentation); `None` when every piece is clear.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn refine<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        a: (f64, f64),
        b: (f64, f64),
        stats: &mut Stats,
    ) -> Option<(f64, f64)> {
        let sign = a.1.signum();
        let mut stack = vec![(a, b)];
        let mut evals = 0;
        while let Some((a, b)) = stack.pop() {
            if evals >= REFINE_EVALS {
                break;
            }
            let tm = 0.5 * (a.0 + b.0);
            if !(tm > a.0 && tm < b.0) {
                continue;
            }
            let gm = self.dense_guard(stepper, sys, events, i, tm, stats);
            evals += 1;
            // A value of the other sign within rounding of the ends' size is a touch (a double
            // root the dense output cannot resolve into two), not a pair.
            let noise = RATE_NOISE * a.1.abs().max(b.1.abs());
            if !(gm * sign > -noise) {
                return Some((tm, gm));
            }
            let c = sign * curvature(Some(a), (tm, gm), Some(b));
            let half = 0.5 * (b.0 - a.0);
            let (na, nm, nb) = (a.1 * sign, gm * sign, b.1 * sign);
            // Left half last, so that it is taken first (the earliest point wins).
            if could_dip(c, half, nm, nb) {
                stack.push(((tm, gm), b));
            }
            if could_dip(c, half, na, nm) {
                stack.push((a, (tm, gm)));
            }
        }
        None
    }

    /// Whether guard `i` keeps one strict sign over the whole step, with every screened value far
    /// from zero (no crossing to look for, nothing to re-check on the dense output) and no
    /// sample interval whose curvature could hide a pair of crossings ([`could_dip`]).
    #[inline(always)]
    pub(super) fn quiet(&self, i: usize, ne: usize) -> bool {
        let (g0, g1) = (self.g_prev[i], self.g_new[i]);
        // With the sign of g0 divided out, "same strict sign" is "positive" (NaN fails).
        let sign = if g0 < 0.0 { -1.0 } else { 1.0 };
        if g0 == 0.0 || !(g1 * sign > 0.0) {
            return false;
        }
        // Every sample positive (times the sign) and above SCREEN_DOUBT times the largest
        // magnitude: with all of them positive, that is the largest signed value.
        let (mut lo, mut hi) = (f64::INFINITY, (g0 * sign).max(g1 * sign));
        for p in 0..self.npts {
            let g = self.samples[p * ne + i] * sign;
            // `min`/`max` would drop a NaN: `!(g >= lo)` keeps it (and then fails below).
            if !(g >= lo) {
                lo = g;
            }
            if g > hi {
                hi = g;
            }
        }
        if !(lo > SCREEN_DOUBT * hi) {
            return false;
        }
        // The sequence start, samples, end; no interval may be curved enough to dip to zero.
        let last = self.npts + 1;
        let point = |j: usize| {
            if j == 0 {
                (self.step_t0, g0 * sign)
            } else if j == last {
                (self.step_t1, g1 * sign)
            } else {
                (self.sample_t[j - 1], self.samples[(j - 1) * ne + i] * sign)
            }
        };
        let curv = |j: usize| {
            if j == 0 || j >= last {
                0.0
            } else {
                curvature(Some(point(j - 1)), point(j), Some(point(j + 1)))
            }
        };
        (0..last).all(|k| {
            let (a, b) = (point(k), point(k + 1));
            let (ca, cb) = (curv(k), curv(k + 1));
            !could_dip(ca, b.0 - a.0, a.1, b.1) && !could_dip(cb, b.0 - a.0, a.1, b.1)
        })
    }

    /// The largest magnitude of guard `i` over the step: its ends and screened samples.
    pub(super) fn scale(&self, i: usize, ne: usize) -> f64 {
        let mut m = self.g_prev[i].abs().max(self.g_new[i].abs());
        for p in 0..self.npts {
            m = m.max(self.samples[p * ne + i].abs());
        }
        m
    }
}

/// `g̈` estimated by the second divided difference of three points (0 without the first or the
/// last; +∞ when not finite).
pub(super) fn curvature(a: Option<(f64, f64)>, b: (f64, f64), c: Option<(f64, f64)>) -> f64 {
    let (Some(a), Some(c)) = (a, c) else {
        return 0.0;
    };
    if !(a.0 < b.0 && b.0 < c.0) {
        return 0.0;
    }
    let d = 2.0 * ((c.1 - b.1) / (c.0 - b.0) - (b.1 - a.1) / (b.0 - a.0)) / (c.0 - a.0);
    if d.is_finite() {
        d
    } else {
        f64::INFINITY
    }
}

/// Whether the parabola through `(0, ga)` and `(len, gb)` (both > 0) with second derivative `c`
/// reaches zero inside the interval: only a convex one (`c > 0`) can, at its vertex
/// `u* = len/2 − m/c` (`m` the chord's slope) when that lies inside and its value there is not
/// positive. A curvature that is not finite could do anything.
#[inline]
pub(super) fn could_dip(c: f64, len: f64, ga: f64, gb: f64) -> bool {
    if !c.is_finite() {
        return true;
    }
    if !(c > 0.0 && len > 0.0) {
        return false;
    }
    let m = (gb - ga) / len;
    let u = 0.5 * len - m / c;
    // A vertex at zero within rounding of the ends is a touch, not a dip.
    let noise = RATE_NOISE * ga.max(gb);
    u > 0.0 && u < len && ga + m * u + 0.5 * c * u * (u - len) < -noise
}
