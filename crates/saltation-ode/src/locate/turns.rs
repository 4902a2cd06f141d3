//! Pairs of crossings around a turn of the guard: an interior local minimum of `|g|` (a maximum
//! of a negative guard, a minimum of a positive one) that dips through zero and back inside one
//! step, narrower than anything the step's samples or their curvature can show.
//!
//! A turn toward zero is bracketed where the guard's rate `ġ` changes sign in the direction of
//! a turn, seen from values the screen already has: a sample lower in `|g|` than both of its
//! neighbours of the same sign brackets one between those neighbours; at the step's ends the
//! sign of `ġ` itself is used (`g` at `θ = 2⁻²⁰` from the end, on the cubic Hermite
//! interpolant that matches `y'` there, or on the dense output for a mass matrix), and only
//! where the values cannot tell: `|g|` growing from the start while `ġ(t₀)` takes it toward
//! zero, or shrinking into the end while `ġ(t₁)` takes it away. Each bracket is then searched
//! for the turn's value on the method's own dense output (Brent's minimisation, golden section
//! and parabolic steps, stopping at the first value of the other sign): a pair of crossings is
//! found whenever the dense output resolves it (its value at the turn has the other sign),
//! however narrow. The cost is a few dense evaluations per turn of a guard, only in steps
//! where a guard turns.

use super::{EventScanner, RATE_NOISE};
use crate::stepper::{hermite_basis, Stepper};
use crate::{EventSet, OdeSystem, Stats};

/// Where the rate at a step's end is sampled, as a fraction of the step from that end.
const END_RATE: f64 = 1.0 / 1_048_576.0;

/// Most dense evaluations spent locating one turn.
const TURN_EVALS: usize = 48;

/// A bracketed turn of one guard: its index, the bracket `[a, b]`, and the guard's sign there.
#[derive(Debug, Clone, Copy)]
pub(super) struct Turn {
    pub guard: usize,
    pub a: f64,
    pub b: f64,
    pub sign: f64,
    /// The larger `|g|` at the bracket's ends (for telling a touch from a pair).
    pub scale: f64,
}

impl EventScanner {
    /// Brackets every guard's turns toward zero in the step just screened (see the module
    /// documentation) into `self.turns`.
    pub(super) fn find_turns<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        stats: &mut Stats,
    ) {
        self.turns.clear();
        let ne = events.count();
        let last = self.npts + 1;
        for i in 0..ne {
            let point = |j: usize| {
                if j == 0 {
                    (self.step_t0, self.g_prev[i])
                } else if j == last {
                    (self.step_t1, self.g_new[i])
                } else {
                    (self.sample_t[j - 1], self.samples[(j - 1) * ne + i])
                }
            };
            // Same strict sign as `s` (NaN is not).
            let same = |g: f64, s: f64| g * s > 0.0;
            for k in 1..last {
                let (p, q, r) = (point(k - 1), point(k), point(k + 1));
                let s = q.1.signum();
                if same(p.1, s) && same(r.1, s) {
                    let (a, b, c) = (p.1 * s, q.1 * s, r.1 * s);
                    if b <= a && b <= c && (b < a || b < c) {
                        self.turns.push(Turn {
                            guard: i,
                            a: p.0,
                            b: r.0,
                            sign: s,
                            scale: p.1.abs().max(r.1.abs()),
                        });
                    }
                }
            }
            // The ends: the rate's sign where the values cannot tell.
            let (p0, p1) = (point(0), point(1));
            let s0 = p0.1.signum();
            let start = p0.1 != 0.0 && same(p1.1, s0) && p1.1 * s0 >= p0.1 * s0;
            let (pm, pe) = (point(last - 1), point(last));
            let s1 = pe.1.signum();
            let end = pe.1 != 0.0 && same(pm.1, s1) && pm.1 * s1 >= pe.1 * s1;
            if start {
                let g = self.screen_guard(stepper, sys, events, i, END_RATE, stats);
                if (g - p0.1) * s0 < 0.0 {
                    self.turns.push(Turn {
                        guard: i,
                        a: p0.0,
                        b: p1.0,
                        sign: s0,
                        scale: p0.1.abs().max(p1.1.abs()),
                    });
                }
            }
            if end {
                let g = self.screen_guard(stepper, sys, events, i, 1.0 - END_RATE, stats);
                if (pe.1 - g) * s1 > 0.0 {
                    self.turns.push(Turn {
                        guard: i,
                        a: pm.0,
                        b: pe.0,
                        sign: s1,
                        scale: pm.1.abs().max(pe.1.abs()),
                    });
                }
            }
        }
    }

    /// Whether guard `i` has a bracketed turn in the step ([`EventScanner::find_turns`]).
    pub(super) fn turns_toward_zero(&self, i: usize) -> bool {
        self.turns.iter().any(|t| t.guard == i)
    }

    /// Locates guard `i`'s bracketed turns on the dense output and puts each turn value of the
    /// other sign (or zero) into `seq` (time order kept) as a point of the method's own.
    pub(super) fn turn_points<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        seq: &mut Vec<(f64, f64, f64)>,
        stats: &mut Stats,
    ) {
        let turns = std::mem::take(&mut self.turns);
        for turn in turns.iter().filter(|t| t.guard == i) {
            let s = turn.sign;
            let ybuf = &mut self.ybuf;
            let mut phi = |t: f64| {
                stepper.dense(sys, t, ybuf, stats);
                stats.guard_evals += 1;
                s * events.value(i, t, ybuf)
            };
            // A value of the other sign within rounding of the ends' size is a touch (a double
            // root the dense output cannot resolve into two), not a pair.
            let noise = RATE_NOISE * turn.scale;
            let (tm, v) = minimize(&mut phi, turn.a, turn.b, -noise, TURN_EVALS);
            // The other sign (NaN too: the sequence's check reports it).
            if !(v >= -noise) && tm > turn.a && tm < turn.b {
                let at = seq.partition_point(|e| e.0 < tm);
                if seq.get(at).is_none_or(|e| e.0 != tm) {
                    seq.insert(at, (tm, s * v, -1.0));
                }
            }
        }
        self.turns = turns;
    }

    /// Guard `i` at the fraction `th` of the step, on the cubic Hermite interpolant of its ends
    /// or, for a mass matrix, on the dense output.
    fn screen_guard<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        th: f64,
        stats: &mut Stats,
    ) -> f64 {
        let (t0, t1) = (self.step_t0, self.step_t1);
        let t = t0 + th * (t1 - t0);
        if self.dense_screen {
            return self.dense_guard(stepper, sys, events, i, t, stats);
        }
        let ends = stepper.ends();
        let h = t1 - t0;
        let [_, w1, w2, w3] = hermite_basis(th);
        for (m, o) in self.ybuf.iter_mut().enumerate() {
            *o = ends.y0[m]
                + (w2 * (ends.y1[m] - ends.y0[m]) + (w1 * h * ends.f0[m] + w3 * h * ends.f1[m]));
        }
        stats.guard_evals += 1;
        events.value(i, t, &self.ybuf)
    }
}

/// A local minimum of `phi` on `[a, b]` by Brent's method (golden section and parabolic
/// interpolation; Brent, *Algorithms for Minimization without Derivatives*, 1973, ch. 5),
/// returning `(t, phi(t))` for the least value seen. It stops early at the first value below
/// `floor` (or not finite); once a parabolic step improves the least value by less than
/// `10⁻³` of its distance above `floor` (the vertex is located: the parabola through the three
/// best points has its least value there); when the bracket is down to `10⁻¹⁰` of its width
/// (plus rounding of `t`); or after `max_evals` evaluations.
pub(super) fn minimize(
    mut phi: impl FnMut(f64) -> f64,
    a: f64,
    b: f64,
    floor: f64,
    max_evals: usize,
) -> (f64, f64) {
    const CGOLD: f64 = 0.381_966_011_250_105_1;
    let (mut a, mut b) = (a, b);
    let abs_tol = 1e-10 * (b - a);
    let mut x = a + CGOLD * (b - a);
    let mut fx = phi(x);
    let (mut w, mut v, mut fw, mut fv) = (x, x, fx, fx);
    let (mut d, mut e) = (0.0f64, 0.0f64);
    for _ in 1..max_evals {
        if !(fx >= floor) {
            break;
        }
        let xm = 0.5 * (a + b);
        let tol1 = 4.0 * f64::EPSILON * x.abs() + abs_tol;
        let tol2 = 2.0 * tol1;
        if (x - xm).abs() <= tol2 - 0.5 * (b - a) {
            break;
        }
        let mut golden = true;
        if e.abs() > tol1 {
            // A parabola through x, w, v.
            let r = (x - w) * (fx - fv);
            let mut q = (x - v) * (fx - fw);
            let mut p = (x - v) * q - (x - w) * r;
            q = 2.0 * (q - r);
            if q > 0.0 {
                p = -p;
            }
            q = q.abs();
            let etemp = e;
            e = d;
            if p.abs() < (0.5 * q * etemp).abs() && p > q * (a - x) && p < q * (b - x) {
                d = p / q;
                let u = x + d;
                if u - a < tol2 || b - u < tol2 {
                    d = if xm >= x { tol1 } else { -tol1 };
                }
                golden = false;
            }
        }
        if golden {
            e = if x >= xm { a - x } else { b - x };
            d = CGOLD * e;
        }
        let u = if d.abs() >= tol1 {
            x + d
        } else if d > 0.0 {
            x + tol1
        } else {
            x - tol1
        };
        let fu = phi(u);
        if !golden && fu >= floor && fx - fu <= 1e-3 * (fu - floor) {
            if fu < fx {
                (x, fx) = (u, fu);
            }
            break;
        }
        if !(fu > fx) {
            if u >= x {
                a = x;
            } else {
                b = x;
            }
            (v, fv, w, fw, x, fx) = (w, fw, x, fx, u, fu);
        } else {
            if u < x {
                a = u;
            } else {
                b = u;
            }
            if fu <= fw || w == x {
                (v, fv, w, fw) = (w, fw, u, fu);
            } else if fu <= fv || v == x || v == w {
                (v, fv) = (u, fu);
            }
        }
    }
    (x, fx)
}

#[cfg(test)]
mod tests {
    use super::minimize;

    #[test]
    fn brents_minimisation_finds_a_parabolas_vertex_and_stops_at_a_negative_value() {
        let mut n = 0;
        let (t, v) = minimize(
            |t| {
                n += 1;
                (t - 0.3).powi(2) + 1e-3
            },
            0.0,
            1.0,
            0.0,
            48,
        );
        assert!((t - 0.3).abs() < 1e-9, "{t}");
        assert!((v - 1e-3).abs() < 1e-15, "{v}");
        assert!(n < 12, "{n} evaluations");
        // A dip below zero of width 1e-6 around 0.7001: found, and the search stops there.
        let (t, v) = minimize(|t: f64| (t - 0.7001).powi(2) - 0.25e-12, 0.0, 1.0, 0.0, 48);
        assert!(v <= 0.0 && (t - 0.7001).abs() <= 0.5e-6, "{t} {v}");
    }
}
