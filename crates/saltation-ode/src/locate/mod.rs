//! Event location on the dense output of each accepted step.
//!
//! For each guard the scanner forms the sign sequence at the step's start, at
//! `event_samples` interior points (cheap cubic Hermite values, so that two crossings inside one
//! step are seen) and at the step's end. The first sign change in the guard's direction is
//! confirmed on the method's own dense output, narrowed to the first of the crossings it may
//! hold (`first.rs`: the bracket scanned at the screen's resolution) and refined there by
//! Brent's method to a few ulps of time ([`crate::root::brent`]); the enabling condition is then
//! tested at the crossing. For a method whose steps see no time scale (the exact affine
//! stepper), the guards' own time scale limits the next step (`time_scale.rs`).
//!
//! - **Pairs of crossings inside a sample interval.** Between two samples of one sign the
//!   guard is taken to have no root when the parabola through neighbouring samples cannot
//!   reach zero there: with `D` the largest second difference `|g_{k-1} − 2 g_k + g_{k+1}|` at
//!   the interval's ends (spacing `Δ`), a parabola of that curvature dips at most `D/8` below
//!   the chord, so an interval with `D/4 < min(|g_k|, |g_{k+1}|)` is clear (a factor 2 of
//!   safety). Any other interval is bisected on the method's dense output, the same test
//!   applied to each half with the second difference of the three points, until a point of the
//!   other sign is found (it then enters the sign sequence) or every piece is clear (at most
//!   [`REFINE_EVALS`] evaluations per guard and step). So a pair of crossings is found whenever
//!   the dense output resolves it at the scale of the samples (its parabola over a sample
//!   interval reaches zero).
//! - **Pairs of crossings around a turn** (`turns.rs`). The parabola through the samples is only
//!   as good as the samples (the Hermite screen's error can exceed a narrow dip); so each turn
//!   of a guard toward zero, bracketed where its rate `ġ` changes sign in that sense (a sample
//!   lower in `|g|` than both neighbours of its sign; at the step's ends the sign of `ġ` where
//!   the values cannot tell), is searched on the method's dense output by Brent's minimisation,
//!   and a value of the other sign there enters the sign sequence. So a pair of crossings
//!   around a turn is found whenever the dense output resolves it, however narrow.
//! - **A guard at zero** at the previous point is *unarmed*. After a reset that leaves the guard
//!   where it fired (its value within 4 times the value at the located crossing, rounding), or at
//!   a start exactly on it, its sign for the next step comes from its time derivatives, not from
//!   its rounded value: the first of `ġ = ∇g·f (+∂g/∂t)` ([`EventSet::rate`], else a
//!   difference quotient along the flow) and `g̈` (the difference of exact rates along the flow)
//!   that is non-zero beyond rounding. A quick return to zero inside the next step is then a
//!   sign change like any other; its bracket is opened at the first point of the start's sign
//!   found by halving towards the start. When no such point is resolved in time, the return is
//!   taken at the first resolved instant (the events then crowd and the Zeno monitor reports
//!   them). Where the derivatives are all zero the old rule stays: the guard takes the sign it
//!   leaves zero with (an extra sample at `h/1024`).
//! - **Immediate re-crossing.** A directional guard that just fired, whose rate the reset
//!   stopped (`ġ = 0`) and whose `g̈` pulls the state on to the side it crossed to (a ball with
//!   restitution 0 pressed into the floor), fires again at the first resolved instant where it
//!   is enabled: the reset did not take the state off the guard. With `ġ ≠ 0` on that side (an
//!   identity reset) it is the same crossing going on, and nothing fires.
//! - **Guards that cannot fire.** A guard value that is NaN or infinite is an error
//!   ([`OdeError::GuardNotFinite`]); a guard exactly 0 at both ends of a step and at every
//!   sample, after the start, is an error too ([`OdeError::GuardStuckAtZero`]).
//!
//! A root within a few ulps of the last (re)start is the start itself and is ignored.

mod first;
mod pairs;
mod restart;
mod time_scale;
mod turns;

use pairs::{could_dip, curvature};

use crate::dim::{with_dim, Dim};
use crate::events::{EventHit, EventSet};
use crate::root::brent;
use crate::stepper::{hermite_basis, StepEnds, Stepper};
use crate::{OdeError, OdeSystem, Stats};

/// Hermite samples of a guard within this fraction of the guard's largest value over the step
/// are re-evaluated on the method's dense output before their sign is used.
/// At the early sample `θ = 1/1024` of an unarmed guard the threshold is scaled by `θ`: the
/// Hermite cubic matches `y` and `y'` at the step's start exactly, so its error there is
/// `O(θ²)` while the guard itself grows like `θ` (unless it also leaves zero tangentially, and
/// then it stays below the scaled threshold and is re-checked).
const SCREEN_DOUBT: f64 = 1e-2;

/// Where an unarmed guard is sampled first, as a fraction of the step.
const EARLY_SAMPLE: f64 = 1.0 / 1024.0;

/// Most dense-output evaluations per guard and step spent bisecting sample intervals whose
/// curvature could hide a pair of crossings.
pub(crate) const REFINE_EVALS: usize = 64;

/// Halvings towards the start when looking for a point of the start's sign (a quick return).
const HALVINGS: usize = 64;

/// A rate (or second difference) within this many ulps of the size of its terms is rounding.
const RATE_NOISE: f64 = 64.0 * f64::EPSILON;

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
    /// Per guard, the sign (±1) an unarmed guard leaves zero with, from its derivatives at the
    /// (re)start; 0 when unknown.
    lead: Vec<f64>,
    /// The guard that fired and sits at zero again after the reset (immediate re-crossing is
    /// looked for only for it).
    refire: Option<usize>,
    /// One guard's sequence of (time, value, doubt threshold) in the step being examined.
    seq: Vec<(f64, f64, f64)>,
    ybuf2: Vec<f64>,
    fbuf: Vec<f64>,
    /// Guard values behind the step's end, for the guards' time scale.
    behind: Vec<f64>,
    /// The step being scanned.
    step_t0: f64,
    step_t1: f64,
    /// The guards' bracketed turns toward zero in the step being examined.
    turns: Vec<turns::Turn>,
}

impl EventScanner {
    /// Sizes the buffers and records the guards' values at the (re)start point `(t, y)`, where
    /// the flow is `f` (`None` with a mass matrix), and the sign each guard at zero leaves it
    /// with.
    #[allow(clippy::too_many_arguments)]
    pub fn reset<S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        sys: &S,
        events: &E,
        (t, y, f): (f64, &[f64], Option<&[f64]>),
        n_samples: usize,
        dense_screen: bool,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let ne = events.count();
        self.dense_screen = dense_screen;
        self.n_samples = n_samples;
        self.g_prev.resize(ne, 0.0);
        self.g_new.resize(ne, 0.0);
        self.lead.clear();
        self.lead.resize(ne, 0.0);
        self.refire = None;
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
        if let Some(i) = (0..ne).find(|&i| !self.g_prev[i].is_finite()) {
            return Err(OdeError::GuardNotFinite {
                guard: i,
                t,
                value: self.g_prev[i],
            });
        }
        // Restarting where a guard just fired, with the guard still at its "numerical zero"
        // (a reset that leaves it alone): unarm it, so it takes the sign it leaves zero with.
        if let Some((i, tf, gf)) = self.fired {
            if tf == t && i < ne && self.g_prev[i].abs() <= 4.0 * gf.abs() {
                self.g_prev[i] = 0.0;
                self.refire = Some(i);
            }
        }
        if let Some(f) = f {
            for i in 0..ne {
                if self.g_prev[i] == 0.0 {
                    self.lead[i] = self.leading_sign(sys, events, i, (t, y, f), stats);
                }
            }
        }
        Ok(())
    }

    /// Remembers that guard `i` fired at `t` (call after [`EventScanner::after_stop`]).
    pub fn mark_fired(&mut self, i: usize, t: f64) {
        self.fired = Some((i, t, self.g_prev[i]));
    }

    /// The guard that fired last: index, time and its value there.
    pub fn fired(&self) -> Option<(usize, f64, f64)> {
        self.fired
    }

    /// Takes over another scanner's last fired guard (a restart on another integrator).
    pub fn set_fired(&mut self, fired: Option<(usize, f64, f64)>) {
        self.fired = fired;
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
    /// hits go to `passed`. Errs on a guard that is not finite or stays exactly 0.
    pub fn scan<M: Stepper, S: OdeSystem + ?Sized, E: EventSet + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        events: &E,
        stats: &mut Stats,
    ) -> Result<Option<EventHit>, OdeError> {
        let ne = events.count();
        let (t0, t1) = {
            let ends = stepper.ends();
            for i in 0..ne {
                self.g_new[i] = events.value(i, ends.t1, ends.y1);
            }
            (ends.t0, ends.t1)
        };
        let h = t1 - t0;
        (self.step_t0, self.step_t1) = (t0, t1);
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
        self.find_turns(stepper, sys, events, stats);
        // The common case: no guard comes near zero in this step.
        if (0..ne).all(|i| self.quiet(i, ne) && !self.turns_toward_zero(i)) {
            std::mem::swap(&mut self.g_prev, &mut self.g_new);
            return Ok(None);
        }
        self.check_finite(stepper, events, t0, t1)?;
        self.find_crossing(stepper, sys, events, t0, t1, stats)
    }

    /// [`OdeError::GuardNotFinite`] for a guard value of the step that is not finite, and
    /// [`OdeError::GuardStuckAtZero`] for a guard exactly 0 at the step's start, its samples and
    /// its end that cannot move: the size of its rate `∇g·f` is 0 at the end ([`EventSet::rate`]:
    /// a zero gradient); without a rate, when the state changed over the step and the guard
    /// stayed 0. A step too short to change the state (a subnormal step at the start on a
    /// guard) or an equilibrium is not reported.
    fn check_finite<M: Stepper, E: EventSet + ?Sized>(
        &self,
        stepper: &M,
        events: &E,
        t0: f64,
        t1: f64,
    ) -> Result<(), OdeError> {
        let ne = events.count();
        for i in 0..ne {
            let bad = |g: f64, t: f64| {
                (!g.is_finite()).then_some(OdeError::GuardNotFinite {
                    guard: i,
                    t,
                    value: g,
                })
            };
            for p in 0..self.npts {
                if let Some(e) = bad(self.samples[p * ne + i], self.sample_t[p]) {
                    return Err(e);
                }
            }
            if let Some(e) = bad(self.g_new[i], t1) {
                return Err(e);
            }
            let zero = self.g_prev[i] == 0.0
                && self.g_new[i] == 0.0
                && (0..self.npts).all(|p| self.samples[p * ne + i] == 0.0);
            let stuck = zero && self.npts > 0 && {
                let ends = stepper.ends();
                // Its rate has no non-zero term (a zero gradient); without a rate, the state
                // moved (not an equilibrium, nor a step too short to change it) and it stayed 0.
                match events.rate(i, t1, ends.y1, ends.f1) {
                    Some((_, size)) => size == 0.0,
                    None => ends.y0 != ends.y1,
                }
            };
            if stuck {
                return Err(OdeError::GuardStuckAtZero { guard: i, t0, t1 });
            }
        }
        Ok(())
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
    ) -> Result<Option<EventHit>, OdeError> {
        let ne = events.count();
        let h = t1 - t0;
        let start_tol = 8.0 * f64::EPSILON * self.t_start.abs().max(h.abs());
        let mut best: Option<EventHit> = None;
        let npts = self.npts;
        let early = npts > self.n_samples;
        let mut seq = std::mem::take(&mut self.seq);
        for i in 0..ne {
            if self.quiet(i, ne) && !self.turns_toward_zero(i) {
                continue;
            }
            let dir = events.direction(i);
            // Near zero the Hermite screen can have the wrong sign (its error is far above the
            // method's): there the method's dense output decides.
            let scale = self.scale(i, ne);
            seq.clear();
            for p in 0..npts {
                let doubt = if p == 0 && early {
                    SCREEN_DOUBT * EARLY_SAMPLE * scale
                } else {
                    SCREEN_DOUBT * scale
                };
                seq.push((self.sample_t[p], self.samples[p * ne + i], doubt));
            }
            // The end is the method's own value: never re-checked.
            seq.push((t1, self.g_new[i], -1.0));
            // A turn toward zero located on the dense output: its value of the other sign.
            self.turn_points(stepper, sys, events, i, &mut seq, stats);
            let (mut pt, mut pg) = (t0, self.g_prev[i]);
            // The sign (±1), and whether it came from g̈ (the reset stopped the guard's rate).
            let order = self.lead[i].abs();
            let lead = if order > 0.0 {
                self.lead[i].signum()
            } else {
                0.0
            };
            // An unarmed guard whose derivatives gave its sign: a virtual start of that sign.
            let virtual_start = pg == 0.0 && lead != 0.0;
            if virtual_start {
                pg = lead * f64::MIN_POSITIVE;
                // A reset that stopped the guard's rate (ġ = 0) with the flow pulling on to the
                // side it crossed to: the state cannot leave the guard. (With ġ ≠ 0 on that
                // side, an identity reset say, it is the same crossing going on.)
                let refire = self.refire == Some(i)
                    && order == 2.0
                    && dir != crate::Direction::Either
                    && dir.matches(-lead, lead);
                if refire {
                    if let Some(ts) =
                        self.first_resolved(stepper, sys, events, i, t0, t1, lead, stats)
                    {
                        let y = self.dense_state(stepper, sys, ts, t1, stats);
                        if events.enabled(i, ts, &y) {
                            keep_hit(&mut best, &mut self.passed, events, i, ts, y);
                            continue;
                        }
                    }
                }
            }
            // The point before `pt` (for the curvature of an interval), and points found inside
            // an interval waiting to be taken before the next sample.
            let mut before: Option<(f64, f64)> = None;
            let mut pending: Vec<(f64, f64, f64)> = Vec::new();
            let mut next = 0;
            loop {
                let (tk, mut gk, doubt) = if let Some(e) = pending.pop() {
                    e
                } else if next < seq.len() {
                    next += 1;
                    seq[next - 1]
                } else {
                    break;
                };
                if doubt >= 0.0 && gk.abs() <= doubt {
                    gk = self.dense_guard(stepper, sys, events, i, tk, stats);
                }
                if !gk.is_finite() {
                    self.seq = seq;
                    return Err(OdeError::GuardNotFinite {
                        guard: i,
                        t: tk,
                        value: gk,
                    });
                }
                if pg == 0.0 {
                    // Unarmed: take the sign it leaves zero with.
                    (pt, pg) = (tk, gk);
                    continue;
                }
                if best.as_ref().is_some_and(|b| b.t < pt) {
                    break;
                }
                let changes = gk == 0.0 || (gk < 0.0) != (pg < 0.0);
                let from_virtual = virtual_start && pt == t0;
                if !(changes || from_virtual) {
                    // One sign at both ends: could a pair of crossings hide in between?
                    let after = pending
                        .last()
                        .map(|e| (e.0, e.1))
                        .or_else(|| seq.get(next).map(|e| (e.0, e.1)));
                    let sg = pg.signum();
                    let norm = |p: Option<(f64, f64)>| p.map(|(t, g)| (t, g * sg));
                    let (a, b) = ((pt, pg * sg), (tk, gk * sg));
                    // Only neighbours of the same sign: across a crossing the three points
                    // are no parabola of the interval (and the crossing is located anyway).
                    let same = |p: Option<(f64, f64)>| norm(p).filter(|q| q.1 > 0.0);
                    let ca = curvature(same(before), a, Some(b));
                    let cb = curvature(Some(a), b, same(after));
                    let len = tk - pt;
                    if could_dip(ca, len, a.1, b.1) || could_dip(cb, len, a.1, b.1) {
                        if let Some((tm, gm)) =
                            self.refine(stepper, sys, events, i, (pt, pg), (tk, gk), stats)
                        {
                            // Take the opposite-sign point first, then this one again.
                            pending.push((tk, gk, -1.0));
                            pending.push((tm, gm, -1.0));
                            continue;
                        }
                    }
                }
                // Every value in the sequence is either far from zero (its screened sign is
                // right) or came from the dense output, so a change in the wrong direction needs
                // no confirmation.
                let wanted = dir.matches(pg, if gk == 0.0 { -pg } else { gk });
                if changes && wanted {
                    // Confirm on the method's own dense output (Hermite samples are a screen).
                    // From a virtual start: open the bracket at the first point of the start's
                    // sign, halving towards the start (a quick return).
                    let mut unresolved = false;
                    let ga = if pt == t0 && virtual_start {
                        match self.lead_point(stepper, sys, events, i, t0, tk, lead, stats) {
                            Some((ta, g)) => {
                                pt = ta;
                                g
                            }
                            None => {
                                unresolved = true;
                                pg
                            }
                        }
                    } else if pt == t0 {
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
                        let ts = if unresolved {
                            // No point of the start's sign is resolved in time: the return is
                            // at the first resolved instant.
                            self.first_resolved(stepper, sys, events, i, t0, tk, -lead, stats)
                                .unwrap_or(tk)
                        } else {
                            // The first of several crossings in the bracket, not whichever one
                            // Brent's method converges to.
                            let ((pa, ga), (tb, gb)) = self.first_bracket(
                                stepper,
                                sys,
                                events,
                                i,
                                (pt, ga),
                                (tk, gb),
                                stats,
                            );
                            let ybuf = &mut self.ybuf;
                            let mut g = |s: f64| {
                                stepper.dense(sys, s, ybuf, stats);
                                stats.guard_evals += 1;
                                events.value(i, s, ybuf)
                            };
                            // Brent's own floor 2ε|t| makes the bracket a few ulps wide.
                            brent(&mut g, pa, tb, ga, gb, 0.0, 200).0
                        };
                        let y = self.dense_state(stepper, sys, ts, t1, stats);
                        let at_start = !unresolved && ts - self.t_start <= start_tol;
                        if !at_start && events.enabled(i, ts, &y) {
                            keep_hit(&mut best, &mut self.passed, events, i, ts, y);
                            break;
                        }
                    }
                }
                if gk != 0.0 {
                    before = Some((pt, pg));
                    (pt, pg) = (tk, gk);
                } else {
                    pt = tk;
                }
            }
        }
        self.seq = seq;
        std::mem::swap(&mut self.g_prev, &mut self.g_new);
        Ok(best)
    }

    /// The state at `ts` in the last step (the step's own end at `t1`).
    fn dense_state<M: Stepper, S: OdeSystem + ?Sized>(
        &mut self,
        stepper: &mut M,
        sys: &S,
        ts: f64,
        t1: f64,
        stats: &mut Stats,
    ) -> Vec<f64> {
        if ts == t1 {
            stepper.y().to_vec()
        } else {
            stepper.dense(sys, ts, &mut self.ybuf, stats);
            self.ybuf.to_vec()
        }
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

/// Records a located crossing: the earliest terminal one in `best`, non-terminal ones in
/// `passed`.
fn keep_hit<E: EventSet + ?Sized>(
    best: &mut Option<EventHit>,
    passed: &mut Vec<EventHit>,
    events: &E,
    i: usize,
    t: f64,
    y: Vec<f64>,
) {
    let hit = EventHit {
        index: i,
        t,
        y,
        terminal: events.terminal(i),
    };
    if hit.terminal {
        if best.as_ref().is_none_or(|b| hit.t < b.t) {
            *best = Some(hit);
        }
    } else {
        passed.push(hit);
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
