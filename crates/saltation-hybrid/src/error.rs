//! Typed errors of the hybrid layer.

use crate::crossings::Crossings;
use saltation_ode::{Num, OdeError};
use thiserror::Error;

/// What went wrong in a hybrid flow. Every variant says where (mode, guard, time).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum HybridError {
    /// The integrator failed (non-finite values, step size underflow, Zeno, …).
    #[error("integration failed in mode {mode}: {source}")]
    Ode {
        /// Mode being integrated.
        mode: usize,
        /// The integrator's error.
        #[source]
        source: OdeError,
    },
    /// No guard fired within the time limit: the stride never ends (the walker fell, the
    /// section is not reached from this state).
    #[error("no guard of mode {mode} was reached within t = {} (stride not completed){seen}", Num(*t_max))]
    GuardNotReached {
        /// Mode in which the time ran out.
        mode: usize,
        /// The time limit.
        t_max: f64,
        /// Guard crossings seen in that mode and not taken (wrong direction, not enabled).
        seen: Crossings,
    },
    /// A failure guard fired (e.g. the walker fell).
    #[error("{what} at t = {} (mode {mode}, guard {guard}){seen}", Num(*t))]
    Failure {
        /// Mode.
        mode: usize,
        /// Guard index.
        guard: usize,
        /// Event time.
        t: f64,
        /// What failed, from the model.
        what: String,
        /// Guard crossings seen in that mode before it and not taken.
        seen: Crossings,
    },
    /// The crossings of one guard accumulate (Zeno): the intervals between them shrink
    /// geometrically to `t_inf`, or they are no longer resolved in time. A guard that declares
    /// where to go on ([`crate::GuardSpec::on_accumulation`]) does not end a simulation here.
    #[error("event accumulation (Zeno): guard `{name}` (index {guard}) of mode {mode} at t = {}, {events} events{}", Num(*t), AccumulationAt(*t_inf))]
    Zeno {
        /// Mode.
        mode: usize,
        /// Guard index in the mode.
        guard: usize,
        /// Guard name.
        name: String,
        /// Time of the last located crossing.
        t: f64,
        /// Events so far in the run.
        events: usize,
        /// Estimated accumulation time.
        t_inf: Option<f64>,
    },
    /// A guard evaluated to NaN or ±∞: its crossings are undefined.
    #[error("guard `{name}` (index {guard}) of mode {mode} is {} at t = {}", NotFinite(*value), Num(*t))]
    GuardNotFinite {
        /// Mode.
        mode: usize,
        /// Guard index in the mode.
        guard: usize,
        /// Guard name.
        name: String,
        /// Where.
        t: f64,
        /// Its value.
        value: f64,
    },
    /// A guard stayed exactly 0 over a whole step after the start: it can never change sign,
    /// so it would never fire.
    #[error("guard `{name}` (index {guard}) of mode {mode} stays exactly 0 from t = {} to {}: it can never fire", Num(*t0), Num(*t1))]
    GuardStuckAtZero {
        /// Mode.
        mode: usize,
        /// Guard index in the mode.
        guard: usize,
        /// Guard name.
        name: String,
        /// Start of the step.
        t0: f64,
        /// End of the step.
        t1: f64,
    },

    /// The trajectory meets a guard tangentially (`h_x f ≈ 0`): the event time is not a smooth
    /// function of the state and the saltation matrix is undefined.
    #[error("grazing event: guard {guard} of mode {mode} at t = {} with h_x·f = {hxf:e} (relative {relative:e})", Num(*t))]
    Grazing {
        /// Mode before the event.
        mode: usize,
        /// Guard index.
        guard: usize,
        /// Event time.
        t: f64,
        /// `h_x f⁻`.
        hxf: f64,
        /// `|h_x f⁻| / (|h_x| |f⁻|)`.
        relative: f64,
    },
    /// A state, parameter or result is NaN or infinite.
    #[error("non-finite {what}")]
    NonFinite {
        /// What was non-finite.
        what: &'static str,
    },
    /// A vector has the wrong length.
    #[error("dimension mismatch in {what}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Which vector.
        what: &'static str,
        /// Expected length.
        expected: usize,
        /// Given length.
        got: usize,
    },
    /// A mode index is out of range (a model bug or a bad start mode).
    #[error("mode {mode} out of range (model has {modes})")]
    BadMode {
        /// The index.
        mode: usize,
        /// Number of modes.
        modes: usize,
    },
    /// A fixed-time piece of a phase ([`crate::StrideMap::eval_flow`], a segment of a multiple
    /// shooting cut inside a phase) met an event before its end: the cut lies beyond the
    /// phase's event from this start.
    #[error("guard {guard} of mode {mode} fired at t = {} inside a fixed-time piece of duration {} (the phase is shorter than its cut from this state)", Num(*t), Num(*duration))]
    EventInPiece {
        /// Mode.
        mode: usize,
        /// Guard that fired.
        guard: usize,
        /// Time of the event from the piece's start.
        t: f64,
        /// The piece's duration.
        duration: f64,
    },
    /// A segment of a multiple shooting ended in another mode than the next segment runs in:
    /// the iterate's stride has another sequence of phases than the initial guess's.
    #[error("segment {segment} of the multiple shooting ended in mode {got}, the next segment runs in mode {expected}: the stride's sequence of phases changed (start from a better guess, or use single shooting)")]
    SequenceChanged {
        /// The segment (from 0).
        segment: usize,
        /// The mode the next segment runs in.
        expected: usize,
        /// The mode the segment ended in.
        got: usize,
    },
    /// A stride would start in a mode without guards: it could never end.
    #[error("mode {mode} has no guards: a stride starting there never ends (use simulate for a smooth flow)")]
    NoGuards {
        /// The start mode.
        mode: usize,
    },
    /// Too many events in one stride (Zeno behaviour or a wrong section).
    #[error("more than {limit} events in one stride (Zeno?) at t = {}", Num(*t))]
    TooManyEvents {
        /// The limit.
        limit: usize,
        /// Time of the last event.
        t: f64,
    },
    /// A simulation that keeps every step (no sample times, no interval) kept more than
    /// [`crate::MAX_SAMPLES`] of them.
    #[error("more than {limit} samples kept by t = {}: every step is kept when no sample times are given; give sample times (`--at`, or `at`/`dt` in SimulateOptions)", Num(*t))]
    TooManySamples {
        /// The limit.
        limit: usize,
        /// Time reached.
        t: f64,
    },
    /// A state breaks a declared admissibility condition of its mode (at a time along a
    /// simulation, or at the initial state) or an equality of its mode (an initial state).
    #[error("{0}")]
    Inadmissible(Box<StateFailure>),
    /// An option is outside its valid range.
    #[error("invalid option `{field}`: {reason}")]
    InvalidOption {
        /// Field name.
        field: &'static str,
        /// What is wrong.
        reason: &'static str,
    },
    /// The model's vector field reads the time but it declares no forcing period: its strides
    /// would each restart the clock, so their fixed points are not periodic orbits.
    #[error("model `{model}` reads the time `t` in mode `{mode}` but declares no forcing period, so its orbits cannot be computed (every stride would restart at t = 0); declare the period of the time dependence: in an equation model `forcing: (period: \"2*pi/omega\")` (then `t` is the phase, a state carried modulo the period), in a Rust model `HybridModel::forcing`; `simulate` runs it as it is")]
    UndeclaredForcing {
        /// The model's name.
        model: String,
        /// The (first) mode whose vector field depends on time.
        mode: String,
    },
    /// A declared forcing that cannot be used (a period that is not finite and positive).
    #[error("bad forcing: {reason}")]
    BadForcing {
        /// What is wrong.
        reason: String,
    },
}

/// Where a state breaks a condition or an equality of its mode ([`HybridError::Inadmissible`]).
#[derive(Debug, Clone, PartialEq)]
pub struct StateFailure {
    /// The condition's name, or the equality's description.
    pub what: String,
    /// Whether `what` is an equality of the mode (residual `value ≠ 0`) rather than a
    /// condition (`value < 0`).
    pub equality: bool,
    /// Name of the mode.
    pub mode: String,
    /// Time of the first violation along a simulation (`None`: the initial state).
    pub t: Option<f64>,
    /// The condition's value (the lowest in that phase, along a simulation), or the residual.
    pub value: f64,
    /// The state where it fails.
    pub state: Vec<f64>,
}

impl std::fmt::Display for StateFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.t {
            Some(t) => write!(f, "at t = {} of mode `{}`: ", Num(t), self.mode)?,
            None => write!(f, "initial state of mode `{}`: ", self.mode)?,
        }
        if self.equality {
            write!(f, "{} = {} is not 0", self.what, Num(self.value))?;
        } else {
            write!(f, "condition `{}` = {} < 0", self.what, Num(self.value))?;
        }
        write!(f, " at x = {}", StateText(&self.state))
    }
}

/// A state written `[x0, x1, …]` with [`Num`] for each component.
struct StateText<'a>(&'a [f64]);

impl std::fmt::Display for StateText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[")?;
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{}", Num(*v))?;
        }
        write!(f, "]")
    }
}

/// `; they accumulate at t ≈ …` (nothing without an estimate).
struct AccumulationAt(Option<f64>);

impl std::fmt::Display for AccumulationAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(t) => write!(f, "; they accumulate at t ≈ {}", Num(t)),
            None => Ok(()),
        }
    }
}

impl HybridError {
    /// The integrator's error in `mode` of `model`, with the guard named where it is about
    /// one.
    pub(crate) fn from_ode<M: crate::EvalModel + ?Sized>(
        model: &M,
        mode: usize,
        source: OdeError,
    ) -> Self {
        let name = |j: usize| {
            if j < model.guards(mode) {
                model.guard_name(mode, j)
            } else {
                format!("#{j}")
            }
        };
        match source {
            OdeError::Zeno {
                t,
                guard,
                events,
                t_inf,
                ..
            } => HybridError::Zeno {
                mode,
                guard,
                name: name(guard),
                t,
                events,
                t_inf,
            },
            OdeError::GuardNotFinite { guard, t, value } => HybridError::GuardNotFinite {
                mode,
                guard,
                name: name(guard),
                t,
                value,
            },
            OdeError::GuardStuckAtZero { guard, t0, t1 } => HybridError::GuardStuckAtZero {
                mode,
                guard,
                name: name(guard),
                t0,
                t1,
            },
            source => HybridError::Ode { mode, source },
        }
    }
}

/// `not a number` or `infinite`: the value of a guard that cannot be used.
struct NotFinite(f64);

impl std::fmt::Display for NotFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_nan() {
            "not a number"
        } else {
            "infinite"
        })
    }
}
