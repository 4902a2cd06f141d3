//! The first crossing inside a bracket: a sample interval whose ends have opposite signs may
//! hold three (or any odd number of) crossings, and Brent's method converges to any one of them.
//! Before refining, the bracket is scanned on the method's dense output at the screen's
//! resolution (`m` interior points for `m` event samples, the same pair screen for intervals of
//! one sign), and the first sub-interval with a sign change (or the first point of the other
//! sign a pair screen finds) becomes the bracket; this repeats until one scan of the bracket
//! shows a single sign change and no interval that could hide a pair, at most
//! [`FIRST_LEVELS`] times. The first crossing of a bracket always goes from the sign at its
//! start to the other (the direction the bracket was wanted for).

use super::pairs::{could_dip, curvature};
use super::EventScanner;
use crate::stepper::Stepper;
use crate::{EventSet, OdeSystem, Stats};

/// Most nested scans of a bracket (each shrinks it by the number of samples plus one).
const FIRST_LEVELS: usize = 16;

impl EventScanner {
    /// The bracket `[a, b]` of the first crossing of guard `i` inside `[a, b]` (ends of opposite
    /// signs, `a.1 ≠ 0`), at the screen's resolution (see the module documentation).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn first_bracket<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        mut a: (f64, f64),
        mut b: (f64, f64),
        stats: &mut Stats,
    ) -> ((f64, f64), (f64, f64)) {
        let m = self.n_samples.max(1);
        let mut pts: Vec<(f64, f64)> = Vec::with_capacity(m + 2);
        for _ in 0..FIRST_LEVELS {
            let sign = a.1.signum();
            pts.clear();
            pts.push(a);
            for k in 1..=m {
                let t = a.0 + (b.0 - a.0) * k as f64 / (m + 1) as f64;
                if t > pts[pts.len() - 1].0 && t < b.0 {
                    let g = self.dense_guard(stepper, sys, events, i, t, stats);
                    pts.push((t, g));
                }
            }
            pts.push(b);
            if pts.iter().any(|p| !p.1.is_finite()) {
                // Not finite inside: the caller's Brent on the whole bracket reports it.
                return (a, b);
            }
            // Positive: the start's sign (a zero counts as the other sign).
            let pos = |p: (f64, f64)| p.1 * sign > 0.0;
            let changes = pts.windows(2).filter(|w| pos(w[0]) != pos(w[1])).count();
            let mut next = None;
            for k in 0..pts.len() - 1 {
                let (p, q) = (pts[k], pts[k + 1]);
                if !pos(q) {
                    // The first change (p is of the start's sign: earlier ones were taken).
                    next = Some((p, q));
                    break;
                }
                // One sign: could a pair hide in between?
                let n = |x: (f64, f64)| (x.0, x.1 * sign);
                let before = (k > 0).then(|| n(pts[k - 1]));
                let after = pts.get(k + 2).map(|&x| n(x)).filter(|x| x.1 > 0.0);
                let ca = curvature(before, n(p), Some(n(q)));
                let cb = curvature(Some(n(p)), n(q), after);
                let len = q.0 - p.0;
                let (np, nq) = (p.1 * sign, q.1 * sign);
                if could_dip(ca, len, np, nq) || could_dip(cb, len, np, nq) {
                    if let Some(r) = self.refine(stepper, sys, events, i, p, q, stats) {
                        next = Some((p, r));
                        break;
                    }
                }
            }
            let Some((p, q)) = next else {
                return (a, b);
            };
            // A single sign change seen and nothing hidden before it: this is the first one.
            let done = changes == 1 && q.0 == pts.iter().find(|&&x| !pos(x)).map_or(b.0, |x| x.0);
            (a, b) = (p, q);
            if done || !(b.0 - a.0 > 4.0 * f64::EPSILON * a.0.abs().max(b.0.abs())) {
                break;
            }
        }
        (a, b)
    }
}
