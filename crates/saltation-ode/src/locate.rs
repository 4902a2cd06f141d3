//! Event location on the dense output of each accepted step.
//!
//! For each guard the scanner forms the sign sequence at the step's start, at
//! `event_samples` interior points (cheap cubic Hermite values, so that two crossings inside one
//! step are seen) and at the step's end. The first sign change in the guard's direction is
//! confirmed on the method's own dense output and refined there by Brent's method to a few ulps
//! of time ([`crate::root::brent`]); the enabling condition is then tested at the crossing. A
//! guard whose value is exactly zero at the previous point is *unarmed*: it takes the sign it
//! leaves zero with (an extra sample at `h/1024` catches a quick return) and is not detected
//! there. A root within a few ulps of the last (re)start is the start itself and is ignored.

use crate::dim::{with_dim, Dim};
use crate::events::{EventHit, EventSet};
use crate::root::brent;
use crate::stepper::{hermite_basis, StepEnds, Stepper};
use crate::{OdeSystem, Stats};

/// Hermite samples of a guard within this fraction of the guard's largest value over the step
/// are re-evaluated on the method's dense output before their sign is used.
/// At the early sample `θ = 1/1024` of an unarmed guard the threshold is scaled by `θ`: the
/// Hermite cubic matches `y` and `y'` at the step's start exactly, so its error there is
/// `O(θ²)` while the guard itself grows like `θ` (unless it also leaves zero tangentially, and
/// then it stays below the scaled threshold and is re-checked).
const SCREEN_DOUBT: f64 = 1e-2;

/// Where an unarmed guard is sampled first, as a fraction of the step.
const EARLY_SAMPLE: f64 = 1.0 / 1024.0;

/// The Hermite basis at `θ` ([`hermite_basis`]) followed by `θ` itself.
fn hermite_weights(th: f64) -> [f64; 5] {
    let [a, b, c, d] = hermite_basis(th);
    [a, b, c, d, th]
}

/// `out = y₀ + w₂ (y₁ − y₀) + w₁ h f₀ + w₃ h f₁` (the cubic Hermite interpolant at the weights'
/// `θ`, using `w₀ + w₂ = 1`).
#[inline(always)]
fn hermite_at<D: Dim>(d: D, w: &[f64; 5], ends: &StepEnds<'_>, out: &mut [f64]) {
    let n = d.n();
    let h = ends.t1 - ends.t0;
    let (c01, c10, c11) = (w[2], w[1] * h, w[3] * h);
    let (y0, y1, f0, f1) = (&ends.y0[..n], &ends.y1[..n], &ends.f0[..n], &ends.f1[..n]);
    for (m, o) in out[..n].iter_mut().enumerate() {
        *o = y0[m] + (c01 * (y1[m] - y0[m]) + (c10 * f0[m] + c11 * f1[m]));
    }
}

/// Guard bookkeeping between steps (buffers allocated on `reset`).
#[derive(Debug, Clone, Default)]
pub(crate) struct EventScanner {
    g_prev: Vec<f64>,
    g_new: Vec<f64>,
    samples: Vec<f64>,
    /// Times of the step's samples (the first `npts` entries are in use).
    sample_t: Vec<f64>,
    npts: usize,
    /// Cubic Hermite weights `[h₀₀, h₁₀/h, h₀₁, h₁₁/h, θ]` of the interior sample points
    /// `θ_k = k/(m+1)`.
    weights: Vec<[f64; 5]>,
    ybuf: Vec<f64>,
    n_samples: usize,
    t_start: f64,
    passed: Vec<EventHit>,
    /// The terminal guard that fired last: index, time and its value there.
    fired: Option<(usize, f64, f64)>,
    /// Screen the samples with the stepper's dense output instead of the cubic Hermite
    /// interpolant of the step's ends: for `M y' = f` with `M ≠ I` the ends carry `f`, not `y'`.
    dense_screen: bool,
}

impl EventScanner {
    /// Sizes the buffers and records the guards' values at the (re)start point.
    #[allow(clippy::too_many_arguments)]
    pub fn reset<E: EventSet + ?Sized>(
        &mut self,
        events: &E,
        t: f64,
        y: &[f64],
        n_samples: usize,
        dense_screen: bool,
        stats: &mut Stats,
    ) {
        let ne = events.count();
        self.dense_screen = dense_screen;
        self.n_samples = n_samples;
        self.g_prev.resize(ne, 0.0);
        self.g_new.resize(ne, 0.0);
        self.samples.resize((n_samples + 1) * ne, 0.0);
        self.sample_t.resize(n_samples + 1, 0.0);
        if self.weights.len() != n_samples {
            self.weights = (1..=n_samples)
                .map(|k| hermite_weights(k as f64 / (n_samples + 1) as f64))
                .collect();
        }
        self.ybuf.resize(y.len(), 0.0);
        self.t_start = t;
        self.passed.clear();
        self.after_stop(events, t, y, stats);
        // Restarting where a guard just fired, with the guard still at its "numerical zero"
        // (a reset that leaves it alone): unarm it, so it takes the sign it leaves zero with.
        if let Some((i, tf, gf)) = self.fired.take() {
            if tf == t && i < ne && self.g_prev[i].abs() <= 4.0 * gf.abs() {
                self.g_prev[i] = 0.0;
            }
        }
    }

    /// Remembers that guard `i` fired at `t` (call after [`EventScanner::after_stop`]).
    pub fn mark_fired(&mut self, i: usize, t: f64) {
        self.fired = Some((i, t, self.g_prev[i]));
    }

    /// Forgets the last fired guard (a fresh start).
    pub fn forget_fired(&mut self) {
        self.fired = None;
    }

    /// Guard values at a stop point `(t, y)`.
    pub fn after_stop<E: EventSet + ?Sized>(
        &mut self,
        events: &E,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) {
        for i in 0..events.count() {
            self.g_prev[i] = events.value(i, t, y);
        }
        stats.guard_evals += events.count();
    }

    /// Non-terminal hits of the last scan up to `t_cut`, in time order (`None` for none).
    #[inline]
    pub fn take_passed(&mut self, t_cut: f64) -> Option<Vec<EventHit>> {
        if self.passed.is_empty() {
            None
        } else {
            Some(self.sorted_passed(t_cut))
        }
    }

    fn sorted_passed(&mut self, t_cut: f64) -> Vec<EventHit> {
        let mut v = std::mem::take(&mut self.passed);
        v.retain(|h| h.t <= t_cut);
        v.sort_by(|a, b| a.t.total_cmp(&b.t));
        v
    }

    /// Scans the stepper's last accepted step. Returns the earliest terminal hit; non-terminal
    /// hits go to `passed`.
    pub fn scan<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        stats: &mut Stats,
    ) -> Option<EventHit> {
        let ne = events.count();
        let (t0, t1) = {
            let ends = stepper.ends();
            for i in 0..ne {
                self.g_new[i] = events.value(i, ends.t1, ends.y1);
            }
            (ends.t0, ends.t1)
        };
        let h = t1 - t0;
        // An unarmed guard: an early extra sample sees the sign it leaves zero with.
        let early = self
            .g_prev
            .contains(&0.0)
            .then(|| hermite_weights(EARLY_SAMPLE));
        let mut p = 0;
        if self.dense_screen {
            for w in early.iter().chain(&self.weights) {
                let tp = t0 + h * w[4];
                self.sample_t[p] = tp;
                stepper.dense(sys, tp, &mut self.ybuf, stats);
                for i in 0..ne {
                    self.samples[p * ne + i] = events.value(i, tp, &self.ybuf);
                }
                p += 1;
            }
        } else {
            let ends = stepper.ends();
            let n = self.ybuf.len();
            with_dim!(n, |d| {
                let (weights, sample_t, samples) =
                    (&self.weights, &mut self.sample_t, &mut self.samples);
                d.with_scratch(&mut self.ybuf, |yb| {
                    for w in early.iter().chain(weights) {
                        let tp = t0 + h * w[4];
                        sample_t[p] = tp;
                        hermite_at(d, w, &ends, yb);
                        for i in 0..ne {
                            samples[p * ne + i] = events.value(i, tp, yb);
                        }
                        p += 1;
                    }
                })
            });
        }
        self.npts = p;
        stats.guard_evals += ne * (p + 1);
        // The common case: no guard comes near zero in this step.
        if (0..ne).all(|i| self.quiet(i, ne)) {
            std::mem::swap(&mut self.g_prev, &mut self.g_new);
            return None;
        }
        self.find_crossing(stepper, sys, events, t0, t1, stats)
    }

    /// The earliest wanted crossing of the screened step `[t0, t1]` (see [`EventScanner::scan`]).
    #[inline(never)]
    fn find_crossing<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        t0: f64,
        t1: f64,
        stats: &mut Stats,
    ) -> Option<EventHit> {
        let ne = events.count();
        let h = t1 - t0;
        let start_tol = 8.0 * f64::EPSILON * self.t_start.abs().max(h.abs());
        let mut best: Option<EventHit> = None;
        let npts = self.npts;
        let early = npts > self.n_samples;
        for i in 0..ne {
            if self.quiet(i, ne) {
                continue;
            }
            let dir = events.direction(i);
            let (mut pt, mut pg) = (t0, self.g_prev[i]);
            // Near zero the Hermite screen can have the wrong sign (its error is far above the
            // method's): there the method's dense output decides.
            let scale = self.scale(i, ne);
            for p in 0..=npts {
                let (tk, mut gk) = if p < npts {
                    (self.sample_t[p], self.samples[p * ne + i])
                } else {
                    (t1, self.g_new[i])
                };
                let doubt = if p == 0 && early {
                    SCREEN_DOUBT * EARLY_SAMPLE * scale
                } else {
                    SCREEN_DOUBT * scale
                };
                if p < npts && gk.abs() <= doubt {
                    gk = self.dense_guard(stepper, sys, events, i, tk, stats);
                }
                if pg == 0.0 {
                    // Unarmed: take the sign the guard leaves zero with.
                    (pt, pg) = (tk, gk);
                    continue;
                }
                if best.as_ref().is_some_and(|b| b.t < pt) {
                    break;
                }
                let changes = gk == 0.0 || (gk < 0.0) != (pg < 0.0);
                // Every value in the sequence is either far from zero (its screened sign is
                // right) or came from the dense output, so a change in the wrong direction needs
                // no confirmation.
                let wanted = dir.matches(pg, if gk == 0.0 { -pg } else { gk });
                if changes && wanted {
                    // Confirm on the method's own dense output (Hermite samples are a screen).
                    let ga = if pt == t0 {
                        self.g_prev[i]
                    } else {
                        self.dense_guard(stepper, sys, events, i, pt, stats)
                    };
                    let gb = if tk == t1 {
                        self.g_new[i]
                    } else {
                        self.dense_guard(stepper, sys, events, i, tk, stats)
                    };
                    let real = ga != 0.0 && (gb == 0.0 || (gb < 0.0) != (ga < 0.0));
                    // The dense value is the truth: a screen that saw a change the dense output
                    // does not confirm must not carry its wrong sign on (the crossing just
                    // after `tk` would then be missed).
                    gk = gb;
                    if real && dir.matches(ga, if gb == 0.0 { -ga } else { gb }) {
                        let ybuf = &mut self.ybuf;
                        let mut g = |s: f64| {
                            stepper.dense(sys, s, ybuf, stats);
                            stats.guard_evals += 1;
                            events.value(i, s, ybuf)
                        };
                        // Brent's own floor 2ε|t| makes the bracket a few ulps wide.
                        let (ts, _) = brent(&mut g, pt, tk, ga, gb, 0.0, 200);
                        let y = if ts == t1 {
                            stepper.y().to_vec()
                        } else {
                            stepper.dense(sys, ts, &mut self.ybuf, stats);
                            self.ybuf.to_vec()
                        };
                        let at_start = ts - self.t_start <= start_tol;
                        if !at_start && events.enabled(i, ts, &y) {
                            let hit = EventHit {
                                index: i,
                                t: ts,
                                y,
                                terminal: events.terminal(i),
                            };
                            if hit.terminal {
                                if best.as_ref().is_none_or(|b| hit.t < b.t) {
                                    best = Some(hit);
                                }
                            } else {
                                self.passed.push(hit);
                            }
                            break;
                        }
                    }
                }
                if gk != 0.0 {
                    (pt, pg) = (tk, gk);
                } else {
                    pt = tk;
                }
            }
        }
        std::mem::swap(&mut self.g_prev, &mut self.g_new);
        best
    }

    /// Whether guard `i` keeps one strict sign over the whole step, with every screened value far
    /// from zero (no crossing to look for, nothing to re-check on the dense output).
    #[inline(always)]
    fn quiet(&self, i: usize, ne: usize) -> bool {
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
        lo > SCREEN_DOUBT * hi
    }

    /// The largest magnitude of guard `i` over the step: its ends and screened samples.
    fn scale(&self, i: usize, ne: usize) -> f64 {
        let mut m = self.g_prev[i].abs().max(self.g_new[i].abs());
        for p in 0..self.npts {
            m = m.max(self.samples[p * ne + i].abs());
        }
        m
    }

    fn dense_guard<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        i: usize,
        t: f64,
        stats: &mut Stats,
    ) -> f64 {
        stepper.dense(sys, t, &mut self.ybuf, stats);
        stats.guard_evals += 1;
        events.value(i, t, &self.ybuf)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Event, FnSystem, Ivp, Method, SolverOptions, Stop};

    /// `y = (t, v)` with `t' = 1`, `v' = 2t`: guards in `t` and `v = t²` leave zero linearly and
    /// tangentially at the start.
    fn clock() -> FnSystem<impl Fn(f64, &[f64], &mut [f64])> {
        FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
            dy[0] = 1.0;
            dy[1] = 2.0 * y[0];
        })
    }

    fn evals(guard: Event) -> (usize, Stop) {
        let sol = Ivp::new(&clock(), 0.0, &[0.0, 0.0])
            .events(&vec![guard])
            .solve(Method::Dop853, 3.0, &SolverOptions::with_tol(1e-10))
            .unwrap();
        (sol.stats.rhs_evals, sol.stop)
    }

    #[test]
    fn an_unarmed_guard_is_checked_on_the_dense_output_only_when_it_leaves_zero_tangentially() {
        let (plain, _) = evals(Event::new(|_t, y: &[f64]| y[0] + 10.0));
        // Leaves zero with slope 1: the early Hermite sample is trusted (no extra stages).
        let (linear, stop) = evals(Event::new(|_t, y: &[f64]| y[0]));
        assert_eq!(stop, Stop::TimeReached);
        assert_eq!(linear, plain);
        // Leaves zero like t²: the early sample is re-checked on DOP853's dense output, which
        // costs its three extra stages.
        let (tangent, stop) = evals(Event::new(|_t, y: &[f64]| y[1]));
        assert_eq!(stop, Stop::TimeReached);
        assert_eq!(tangent, plain + 3);
        // A guard that leaves zero downwards and comes back up through it is found there.
        let (_, stop) = evals(Event::new(|_t, y: &[f64]| y[1] - 0.5 * y[0]));
        match stop {
            Stop::Event(hit) => assert!((hit.t - 0.5).abs() < 1e-12, "{}", hit.t),
            other => panic!("{other:?}"),
        }
    }
}
