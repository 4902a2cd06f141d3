//! The guards' own time scale, which limits the steps of a method whose step size sees none:
//! the exact affine stepper's steps are exact whatever their length and grow without bound
//! where `A` is nilpotent (free flight, `A² = 0`), so without a limit one step could hold
//! crossings that its few samples cannot resolve.
//!
//! At the end `t₁` of each step (of length `h`), guard `i` with value `g` and time derivatives
//! `ġ, g̈, g⃛` along the flow could reach zero, at the earliest, in the time its third-order
//! model needs when every derivative points towards zero:
//!
//! `τᵢ`, the positive root of `|g| − |ġ| s − ½|g̈| s² − ⅙|g⃛| s³ = 0`.
//!
//! The next step is limited to `2.5 min τᵢ`. A guard far from zero allows long steps, one close
//! to zero (or turning fast, large `|g̈|`) is stepped and sampled finely. The factor 2.5 (above
//! `1 + √2`) lets a step pass the vertex of a parabola that only touches zero (a tangency),
//! instead of shrinking geometrically towards it, and lets it reach a crossing the worst case
//! underestimates by up to a factor 2.5. The derivatives are the backward differences of the
//! guard at `t₁ − kδ` (`k = 0…3`, `δ = h/1024`) on the method's dense output (exact for the
//! exact stepper; rounding only makes them larger, which shortens `τᵢ` to no less than about
//! `10⁵ δ`); a guard at zero (unarmed, just fired) is left out, since its sign for the
//! next step comes from its derivatives. Steps then grow by at most a factor 2 (the stepper's
//! own rule), so a momentarily large `τ` (`g̈ = 0` at an inflection) does not let one step
//! jump far.

use super::EventScanner;
use crate::stepper::Stepper;
use crate::{EventSet, OdeSystem, Stats};

/// The spacing of the points behind the step's end that give `ġ` and `g̈`, as a fraction of
/// the step.
const BEHIND: f64 = 1.0 / 1024.0;

/// The next step is at most this many worst-case times to zero.
const REACH_STEPS: f64 = 2.5;

impl EventScanner {
    /// The longest next step the guards' time scale allows after the step just scanned
    /// (`+∞` when no guard limits it); see the module documentation.
    pub(crate) fn guard_step_limit<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        stats: &mut Stats,
    ) -> f64 {
        let ne = events.count();
        let (t0, t1) = {
            let ends = stepper.ends();
            (ends.t0, ends.t1)
        };
        let d = (t1 - t0) * BEHIND;
        if !(d > 0.0) || ne == 0 {
            return f64::INFINITY;
        }
        // The guards at t₁ − kδ (k = 1, 2, 3) on the method's dense output (exact for the exact
        // stepper): backward differences give ġ, g̈ and g⃛.
        self.behind.resize(3 * ne, 0.0);
        for k in 0..3 {
            let t = t1 - (k + 1) as f64 * d;
            stepper.dense(sys, t, &mut self.ybuf, stats);
            for i in 0..ne {
                self.behind[k * ne + i] = events.value(i, t, &self.ybuf);
            }
        }
        stats.guard_evals += 3 * ne;
        let mut tau = f64::INFINITY;
        for i in 0..ne {
            let g0 = self.g_prev[i];
            let (g1, g2, g3) = (self.behind[i], self.behind[ne + i], self.behind[2 * ne + i]);
            if g0 == 0.0 || ![g0, g1, g2, g3].iter().all(|g| g.is_finite()) {
                continue;
            }
            let rates = [
                (11.0 * g0 - 18.0 * g1 + 9.0 * g2 - 2.0 * g3) / (6.0 * d),
                (2.0 * g0 - 5.0 * g1 + 4.0 * g2 - g3) / (d * d),
                (g0 - 3.0 * g1 + 3.0 * g2 - g3) / (d * d * d),
            ];
            let t = reach_time(g0.abs(), rates.map(f64::abs));
            if t > 0.0 && t < tau {
                tau = t;
            }
        }
        tau * REACH_STEPS
    }
}

/// The positive root `s` of `g = c₁ s + c₂ s²/2 + c₃ s³/6` (`g > 0`, `cₖ ≥ 0`): it lies between a
/// third of and the smallest root of a single term; Newton's method from that upper bound on
/// the concave decreasing difference converges from above, quadratically.
fn reach_time(g: f64, [c1, c2, c3]: [f64; 3]) -> f64 {
    let one = |c: f64, k: i32, fact: f64| {
        if c > 0.0 {
            (fact * g / c).powf(1.0 / f64::from(k))
        } else {
            f64::INFINITY
        }
    };
    let mut s = one(c1, 1, 1.0).min(one(c2, 2, 2.0)).min(one(c3, 3, 6.0));
    if !s.is_finite() {
        return s;
    }
    for _ in 0..16 {
        let f = g - s * (c1 + s * (0.5 * c2 + s * c3 / 6.0));
        let df = c1 + s * (c2 + 0.5 * s * c3);
        let next = s + f / df;
        if !(next > 0.0 && next < s) {
            break;
        }
        let done = s - next <= 1e-12 * s;
        s = next;
        if done {
            break;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::reach_time;

    /// Each term alone gives its own closed form; all three together the root of the cubic.
    #[test]
    fn the_reach_time_is_the_root_of_the_worst_case_model() {
        assert!((reach_time(2.0, [4.0, 0.0, 0.0]) - 0.5).abs() < 1e-15);
        assert!((reach_time(2.0, [0.0, 1.0, 0.0]) - 2.0).abs() < 1e-6);
        assert!((reach_time(6.0, [0.0, 0.0, 1.0]) - 36f64.cbrt()).abs() < 1e-6);
        let s = reach_time(1.0, [1.0, 2.0, 6.0]);
        let f = 1.0 - s - s * s - s * s * s;
        assert!(f.abs() < 1e-12, "{s}: {f}");
        assert_eq!(reach_time(1.0, [0.0; 3]), f64::INFINITY);
    }
}
