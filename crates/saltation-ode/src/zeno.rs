//! Event-accumulation (Zeno) monitor: a ring of the last event times.

use crate::{OdeError, ZenoLimit};

/// Remembers the last `window` event times and fails when they crowd together.
#[derive(Debug, Clone)]
pub struct ZenoMonitor {
    limit: ZenoLimit,
    ring: Vec<f64>,
    count: usize,
}

impl ZenoMonitor {
    /// A monitor for `limit` (allocates its ring once).
    pub fn new(limit: &ZenoLimit) -> Self {
        Self {
            limit: limit.clone(),
            ring: vec![f64::NEG_INFINITY; limit.window],
            count: 0,
        }
    }

    /// Records an event at `t`; errs with [`OdeError::Zeno`] when `window` consecutive events
    /// span less than `min_span`, or more than `max_events` were recorded.
    pub fn record(&mut self, t: f64) -> Result<(), OdeError> {
        let w = self.limit.window;
        let previous = self.ring[(self.count + w - 1) % w];
        let slot = self.count % w;
        let oldest = self.ring[slot]; // the event `w` back, about to be overwritten
        self.ring[slot] = t;
        self.count += 1;
        let span = t - oldest;
        let crowded = self.count > w && span < self.limit.min_span;
        let unresolved = t - previous < self.limit.min_interval * t.abs().max(1.0);
        if self.count > self.limit.max_events || crowded || unresolved {
            let (window, span) = if crowded {
                (w, span)
            } else {
                (2, t - previous)
            };
            return Err(OdeError::Zeno {
                t,
                events: self.count,
                window,
                span,
            });
        }
        Ok(())
    }

    /// Events recorded so far.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Forgets all events.
    pub fn clear(&mut self) {
        self.ring.fill(f64::NEG_INFINITY);
        self.count = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometric_accumulation_is_caught_and_spread_events_are_not() {
        let lim = ZenoLimit {
            window: 5,
            min_span: 1e-6,
            max_events: 1000,
            min_interval: 1e-12,
        };
        let mut z = ZenoMonitor::new(&lim);
        for k in 0..500 {
            z.record(k as f64).unwrap();
        }
        let mut z = ZenoMonitor::new(&lim);
        let (mut t, mut dt) = (0.0, 1.0);
        let err = loop {
            t += dt;
            dt *= 0.5;
            if let Err(e) = z.record(t) {
                break e;
            }
        };
        assert!(matches!(err, OdeError::Zeno { .. }), "{err}");
        assert!(t < 2.0);
    }
}
