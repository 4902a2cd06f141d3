//! The sign of a guard that a reset left at zero, from its time derivatives (`ġ = ∇g·f`, then
//! `g̈`), and the bracket of a quick return, found by halving towards the start.

use super::{EventScanner, HALVINGS, RATE_NOISE};
use crate::stepper::Stepper;
use crate::{EventSet, OdeSystem, Stats};

impl EventScanner {
    /// The sign guard `i` (zero at `(t, y)`) leaves zero with along the flow `f`: that of
    /// `ġ` (±1), else of `g̈` (±2), when beyond rounding; 0 when both vanish.
    pub(super) fn leading_sign<S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        sys: &S,
        events: &E,
        i: usize,
        (t, y, f): (f64, &[f64], &[f64]),
        stats: &mut Stats,
    ) -> f64 {
        let n = y.len();
        let norm = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let (ny, nf) = (norm(y), norm(f));
        if !(nf > 0.0) || !nf.is_finite() {
            return 0.0;
        }
        // A step along the flow that moves the state by about √ε of its size.
        let delta = f64::EPSILON.sqrt() * ny.max(1.0) / nf;
        self.ybuf2.resize(n, 0.0);
        self.fbuf.resize(n, 0.0);
        for k in 0..n {
            self.ybuf2[k] = y[k] + delta * f[k];
        }
        let (r0, s0) = match events.rate(i, t, y, f) {
            Some(r) => r,
            None => {
                // ġ ≈ (g(t + δ, y + δ f) − g(t, y))/δ.
                stats.guard_evals += 2;
                let d = events.value(i, t + delta, &self.ybuf2) - events.value(i, t, y);
                return if d.is_finite() && d != 0.0 {
                    d.signum()
                } else {
                    0.0
                };
            }
        };
        if !r0.is_finite() {
            return 0.0;
        }
        if r0.abs() > RATE_NOISE * s0 {
            return r0.signum();
        }
        // g̈ ≈ (ġ(y + δ f) − ġ(y))/δ from exact rates.
        sys.rhs(t + delta, &self.ybuf2, &mut self.fbuf);
        stats.rhs_evals += 1;
        match events.rate(i, t + delta, &self.ybuf2, &self.fbuf) {
            // ±2: the sign comes from g̈ (the rate itself vanished).
            Some((r1, s1)) if r1.is_finite() && (r1 - r0).abs() > RATE_NOISE * s0.max(s1) => {
                2.0 * (r1 - r0).signum()
            }
            _ => 0.0,
        }
    }

    /// The first point `t0 + (tk − t0)/2^j` (largest first) where guard `i` has the sign of
    /// `lead`: the far end of a quick return's bracket. `None` when none is resolved.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lead_point<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        t0: f64,
        tk: f64,
        lead: f64,
        stats: &mut Stats,
    ) -> Option<(f64, f64)> {
        let mut s = tk - t0;
        for _ in 0..HALVINGS {
            s *= 0.5;
            let ts = t0 + s;
            if ts <= t0 {
                break;
            }
            let g = self.dense_guard(stepper, sys, events, i, ts, stats);
            if g * lead > 0.0 {
                return Some((ts, g));
            }
        }
        None
    }

    /// The smallest point `t0 + (tk − t0)/2^j > t0` at which guard `i` has the sign of `side`
    /// (the first instant resolved in time on that side).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn first_resolved<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        t0: f64,
        tk: f64,
        side: f64,
        stats: &mut Stats,
    ) -> Option<f64> {
        let mut s = tk - t0;
        let mut found = None;
        for _ in 0..HALVINGS {
            s *= 0.5;
            let ts = t0 + s;
            if ts <= t0 {
                break;
            }
            let g = self.dense_guard(stepper, sys, events, i, ts, stats);
            if g * side > 0.0 {
                found = Some(ts);
            } else if found.is_some() {
                break;
            }
        }
        found
    }
}
