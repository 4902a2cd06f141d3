//! Event-accumulation (Zeno) monitor: a ring of the last event times, and a fit of the
//! geometric shrinking of the intervals between successive events of one guard.
//!
//! A bouncing ball, or a ball chattering on a vibrating table, has impacts whose flight times
//! shrink geometrically, `Δt_{k+1} ≈ r Δt_k` with `0 < r < 1`; the impacts then accumulate at
//! `t_∞ = t_k + Δt_k r/(1 − r)` (the sum of the remaining flights). The monitor fits `r` from
//! the last `window` intervals of one guard (consecutive events of that guard only, every
//! ratio in `(0, 1)`), and reports the accumulation as soon as three successive estimates of
//! `t_∞` agree to 10 % of the time left to it and `t_∞` lies before the end of the span: then
//! the integration could never get past it. A sequence that slows down towards a periodic
//! orbit has ratios tending to 1 and estimates of `t_∞` that run away, so it is not caught.
//! The other tests ([`crate::ZenoLimit`]) stay as backstops: `window` events within
//! `min_span`, and two events closer than the time resolution. The total event cap is
//! reported as what it is ([`OdeError::EventCap`]).

use crate::{OdeError, ZenoLimit};

/// Successive estimates of `t_∞` that must agree before an accumulation is reported.
const AGREE: usize = 3;
/// How closely (relative to the time left to `t_∞`) they must agree.
const AGREE_TOL: f64 = 0.1;

/// Remembers the last `window` event times and fails when they crowd together.
#[derive(Debug, Clone)]
pub struct ZenoMonitor {
    limit: ZenoLimit,
    ring: Vec<f64>,
    count: usize,
    /// Guard of the last event, and how many consecutive events it has had.
    guard: usize,
    run: usize,
    /// The last estimates of `t_∞` (newest last).
    estimates: Vec<f64>,
}

impl ZenoMonitor {
    /// A monitor for `limit` (allocates its ring once).
    pub fn new(limit: &ZenoLimit) -> Self {
        Self {
            limit: limit.clone(),
            ring: vec![f64::NEG_INFINITY; limit.window],
            count: 0,
            guard: usize::MAX,
            run: 0,
            estimates: Vec::with_capacity(AGREE),
        }
    }

    /// Records an event of `guard` at `t` in an integration that is to reach `t_end`; errs
    /// with [`OdeError::Zeno`] when the events accumulate before `t_end` (see the module
    /// documentation), when `window` consecutive events span less than `min_span` or two are
    /// not resolved in time, and with [`OdeError::EventCap`] after `max_events`.
    pub fn record(&mut self, t: f64, guard: usize, t_end: f64) -> Result<(), OdeError> {
        let w = self.limit.window;
        let previous = self.ring[(self.count + w - 1) % w];
        let slot = self.count % w;
        let oldest = self.ring[slot]; // the event `w` back, about to be overwritten
        self.ring[slot] = t;
        self.count += 1;
        if guard == self.guard {
            self.run += 1;
        } else {
            (self.guard, self.run) = (guard, 1);
            self.estimates.clear();
        }
        let events = self.count;
        let zeno = |window, span, t_inf| OdeError::Zeno {
            t,
            guard,
            events,
            window,
            span,
            t_inf,
        };
        if t - previous < self.limit.min_interval * t.abs().max(1.0) {
            return Err(zeno(2, t - previous, Some(t)));
        }
        if let Some(t_inf) = self.geometric(t, t_end) {
            let span = t - self.ring[(self.count + w - self.run.min(w)) % w];
            return Err(zeno(self.run.min(w), span, Some(t_inf)));
        }
        if self.count > w && t - oldest < self.limit.min_span {
            return Err(zeno(w, t - oldest, None));
        }
        if self.count > self.limit.max_events {
            return Err(OdeError::EventCap {
                t,
                events: self.count,
                max: self.limit.max_events,
            });
        }
        Ok(())
    }

    /// The accumulation time when the intervals of the current guard's run shrink
    /// geometrically and consistently to a `t_∞ ≤ t_end` (see the module documentation).
    fn geometric(&mut self, t: f64, t_end: f64) -> Option<f64> {
        let w = self.limit.window;
        // Intervals of the run, oldest first: `run` events give `run − 1` intervals.
        let m = self.run.min(w);
        if m < 4 {
            return None;
        }
        let at = |k: usize| self.ring[(self.count - m + k) % w];
        let dt: Vec<f64> = (1..m).map(|k| at(k) - at(k - 1)).collect();
        let shrinking = dt.windows(2).all(|p| p[1] > 0.0 && p[1] < p[0]);
        if !shrinking {
            self.estimates.clear();
            return None;
        }
        let last = dt.len() - 1;
        let r = dt[last] / dt[last - 1];
        let t_inf = t + dt[last] * r / (1.0 - r);
        if self.estimates.len() == AGREE {
            self.estimates.remove(0);
        }
        self.estimates.push(t_inf);
        if self.estimates.len() < AGREE {
            return None;
        }
        let (lo, hi) = self
            .estimates
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &e| {
                (lo.min(e), hi.max(e))
            });
        let left = t_inf - t;
        (hi - lo <= AGREE_TOL * left && t_inf <= t_end).then_some(t_inf)
    }

    /// Events recorded so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Forgets all events.
    pub fn clear(&mut self) {
        self.ring.fill(f64::NEG_INFINITY);
        self.count = 0;
        self.guard = usize::MAX;
        self.run = 0;
        self.estimates.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lim() -> ZenoLimit {
        ZenoLimit {
            window: 8,
            min_span: 1e-9,
            max_events: 1000,
            min_interval: 1e-12,
        }
    }

    #[test]
    fn geometric_accumulation_is_caught_early_with_its_limit_and_spread_events_are_not() {
        let mut z = ZenoMonitor::new(&lim());
        for k in 0..500 {
            z.record(k as f64, 0, 1e9).unwrap();
        }
        // Flights 1, 1/2, 1/4, …: they accumulate at t = 2.
        let mut z = ZenoMonitor::new(&lim());
        let (mut t, mut dt, mut n) = (0.0, 1.0, 0);
        let err = loop {
            t += dt;
            dt *= 0.5;
            n += 1;
            if let Err(e) = z.record(t, 3, 10.0) {
                break e;
            }
        };
        match err {
            OdeError::Zeno {
                guard: 3,
                t_inf: Some(t_inf),
                ..
            } => assert!((t_inf - 2.0).abs() < 1e-12, "{t_inf}"),
            e => panic!("{e}"),
        }
        // Four intervals, then three agreeing estimates.
        assert_eq!(n, 6);
    }

    #[test]
    fn an_accumulation_after_the_end_of_the_span_is_not_an_error() {
        let mut z = ZenoMonitor::new(&lim());
        let (mut t, mut dt) = (0.0, 1.0);
        for _ in 0..30 {
            t += dt;
            dt *= 0.5;
            if t > 1.9 {
                break;
            }
            z.record(t, 0, 1.9).unwrap();
        }
    }

    #[test]
    fn intervals_slowing_towards_a_period_are_not_zeno_and_the_cap_is_named_as_a_cap() {
        let mut z = ZenoMonitor::new(&lim());
        let mut t = 0.0;
        let mut err = None;
        for k in 0..2000 {
            // Intervals 1 + 2^-k: shrinking, ratios tending to 1, t_∞ estimates run away.
            t += 1.0 + 0.5f64.powi(k.min(60));
            if let Err(e) = z.record(t, 0, 1e9) {
                err = Some(e);
                break;
            }
        }
        assert!(
            matches!(err, Some(OdeError::EventCap { max: 1000, .. })),
            "{err:?}"
        );
    }

    #[test]
    fn unresolved_events_are_zeno_at_their_own_time() {
        let mut z = ZenoMonitor::new(&lim());
        z.record(1.0, 0, 2.0).unwrap();
        match z.record(1.0, 0, 2.0) {
            Err(OdeError::Zeno { t_inf, .. }) => assert_eq!(t_inf, Some(1.0)),
            other => panic!("{other:?}"),
        }
    }
}
