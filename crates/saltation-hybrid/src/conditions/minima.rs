//! A declared condition's candidates for its least value over one phase of a trace.

use super::scan::{scan, Scan};
use crate::error::HybridError;
use crate::model::EvalModel;
use crate::simulate::Trace;
use crate::stride::StrideOptions;

/// Where in its phase a condition takes a least value ([`PhaseMinima`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MinimumAt {
    /// At the start of the phase (right after the reset that begins it).
    Start,
    /// At a local minimum inside the phase (a zero of `dc/dt` located on the dense output).
    Interior,
    /// At the end of the phase (just before the event that ends it).
    End,
}

/// A condition's candidates for its least value over one phase ([`phase_minima`]): its values
/// at the phase's start and end, and at its local minima inside.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseMinima {
    /// The mode of the phase.
    pub mode: usize,
    /// `(t, c)` at the start of the phase.
    pub start: (f64, f64),
    /// `(t, c)` at its end (just before the event; the trace's end for its last phase).
    pub end: (f64, f64),
    /// `(t, c)` at each located local minimum inside, in time order.
    pub interior: Vec<(f64, f64)>,
}

impl PhaseMinima {
    /// The value at `at`: the start's, the end's, or the least interior local minimum's
    /// (`None` when there is none).
    pub fn value(&self, at: MinimumAt) -> Option<f64> {
        match at {
            MinimumAt::Start => Some(self.start.1),
            MinimumAt::End => Some(self.end.1),
            MinimumAt::Interior => self
                .interior
                .iter()
                .map(|m| m.1)
                .min_by(|a, b| a.total_cmp(b)),
        }
    }

    /// The least of all candidates, `min_t c(x(t))` over the phase, and where it is.
    pub fn least(&self) -> (f64, MinimumAt) {
        let mut best = (self.start.1, MinimumAt::Start);
        for at in [MinimumAt::Interior, MinimumAt::End] {
            if let Some(v) = self.value(at) {
                if v < best.0 {
                    best = (v, at);
                }
            }
        }
        best
    }
}

/// The candidates for the least value of condition `cond` over phase `phase` (the `phase`-th
/// smooth piece, `0` up to the number of events) of `trace` (arguments as for
/// [`check_trace`]): its values at the phase's start and end and at its local minima inside,
/// each located as a zero of `dc/dt` ([`condition_slope`], watched as a rising event) by the
/// integrator's event location on its dense output, while the phase is run again exactly as
/// the checker runs it. `None` when the trace has no such phase or its mode has no such
/// condition.
pub fn phase_minima<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
    phase: usize,
    cond: usize,
) -> Result<Option<PhaseMinima>, HybridError> {
    if phase > trace.events.len() {
        return Ok(None);
    }
    let Scan {
        samples, minima, ..
    } = scan(model, trace, t0, x0, opts, Some((phase, cond)), false)?;
    let at = |which: MinimumAt| {
        samples
            .iter()
            .find(|s| s.seg == phase && s.cond == cond && s.at == which)
    };
    let Some(start) = at(MinimumAt::Start) else {
        return Ok(None);
    };
    let mode = start.mode;
    let end = match at(MinimumAt::End) {
        Some(e) => (e.t, e.value),
        None => (
            trace.end.0,
            model.condition(mode, cond, &trace.end.1[..model.dim()]),
        ),
    };
    Ok(Some(PhaseMinima {
        mode,
        start: (start.t, start.value),
        end,
        interior: minima.iter().map(|m| (m.t, m.value)).collect(),
    }))
}
