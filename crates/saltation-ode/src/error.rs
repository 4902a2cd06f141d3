//! Typed errors of the integrators.

use crate::Num;
use thiserror::Error;

/// Why an integration could not go on. Every variant says where (time, step size, event).
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum OdeError {
    /// An option is outside its valid range (see [`crate::SolverOptions::validate`]).
    #[error("invalid option `{field}`: {reason}")]
    InvalidOption {
        /// Name of the offending field.
        field: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A vector has the wrong length for the system.
    #[error("dimension mismatch in {what}: expected {expected}, got {got}")]
    DimensionMismatch {
        /// Which vector.
        what: &'static str,
        /// Length the system needs.
        expected: usize,
        /// Length given.
        got: usize,
    },
    /// The initial state or time is NaN or infinite.
    #[error("non-finite initial value at t = {}", Num(*t))]
    NonFiniteInitial {
        /// Initial time.
        t: f64,
    },
    /// The vector field produced NaN or ±Inf during the step starting at `t`.
    #[error("the vector field returned NaN or Inf in the step from t = {} (step size {h:e})", Num(*t))]
    NonFinite {
        /// Start of the step that failed.
        t: f64,
        /// Attempted step size.
        h: f64,
    },
    /// The solution itself overflowed (left the floating-point range) in the step from `t`,
    /// a finite flow growing without bound (met by the exact affine stepper, whose steps are
    /// not limited by an error test).
    #[error("the solution overflowed (grew beyond the floating-point range) in the step from t = {} (step size {h:e})", Num(*t))]
    Overflow {
        /// Start of the step, where the state is the last finite one.
        t: f64,
        /// Step size.
        h: f64,
    },
    /// The Jacobian `∂f/∂x` is NaN or infinite at a point where the vector field itself is
    /// finite: `f` is not differentiable there (`sqrt(x^2)` at `x = 0`).
    #[error("the Jacobian ∂f/∂x is not finite at t = {} although the vector field is finite there: the field is not differentiable at this state (an explicit method needs no Jacobian)", Num(*t))]
    NonFiniteJacobian {
        /// Time of the point.
        t: f64,
    },
    /// The initial values of a differential-algebraic system do not satisfy its algebraic
    /// equations (a zero row `i` of the mass matrix: `0 = f_i`).
    #[error("inconsistent initial values: algebraic equation {equation} (0 = f_{equation}) has residual {residual:e} at the start, more than its tolerance {tol:e}; give initial values that satisfy it")]
    InconsistentInitial {
        /// Row of the algebraic equation.
        equation: usize,
        /// `f_i(t₀, y₀)`.
        residual: f64,
        /// `atol_i + rtol ‖y₀‖∞`.
        tol: f64,
    },
    /// A dense matrix the computation needs is larger than [`crate::MAX_DENSE_ENTRIES`]:
    /// refused before it is allocated.
    #[error("the {what} would be {rows} × {cols} = {entries} numbers, more than the limit of {} (the model has too many states for this computation)", crate::MAX_DENSE_ENTRIES)]
    TooLarge {
        /// Which matrix.
        what: &'static str,
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
        /// `rows · cols` (saturated).
        entries: usize,
    },
    /// The vector field is NaN or infinite at the initial point (e.g. a non-finite model
    /// parameter).
    #[error("the vector field returned NaN or Inf at the initial point t = {}", Num(*t))]
    NonFiniteRhs {
        /// Initial time.
        t: f64,
    },
    /// The step size fell below its floor (`h_min`, `16 ε |t|`, or the smallest positive
    /// number) while the error test kept failing.
    #[error("step size {h:e} fell below its floor at t = {} (the error test kept failing)", Num(*t))]
    StepTooSmall {
        /// Time reached.
        t: f64,
        /// Last attempted step size.
        h: f64,
    },
    /// `max_steps` accepted steps were taken without reaching the end.
    #[error("maximum number of steps ({steps}) reached at t = {}", Num(*t))]
    MaxSteps {
        /// Time reached.
        t: f64,
        /// Steps taken.
        steps: usize,
    },
    /// Events accumulate (Zeno behaviour): the intervals between successive events of one
    /// guard shrink geometrically towards an accumulation time `t_inf` within the span, or
    /// `window` consecutive events span less than `min_span`, or two events are closer than
    /// the time resolution ([`crate::ZenoLimit`]).
    #[error("event accumulation (Zeno) of guard {guard} at t = {}: {events} events, the last {window} within {span:e} time units{}", Num(*t), AccumulationAt(*t_inf))]
    Zeno {
        /// Time of the last event.
        t: f64,
        /// The guard whose events accumulate (index in the event set).
        guard: usize,
        /// Events so far.
        events: usize,
        /// Size of the window of recent events tested.
        window: usize,
        /// Time spanned by those events.
        span: f64,
        /// Estimated accumulation time: `t_k + Δt_k r/(1 − r)` from the ratio `r` of
        /// successive intervals, or `t` itself when the events are no longer resolved in time
        /// (`None` when only `min_span` was hit).
        t_inf: Option<f64>,
    },
    /// More events than [`crate::ZenoLimit::max_events`] in one solve: a cap on the work, not
    /// a diagnosis of accumulation.
    #[error("event cap reached at t = {}: {events} events (zeno.max_events = {max}); raise the cap or shorten the span", Num(*t))]
    EventCap {
        /// Time of the last event.
        t: f64,
        /// Events so far.
        events: usize,
        /// The cap.
        max: usize,
    },
    /// A guard evaluated to NaN (or ±∞): its sign, and so its crossings, are undefined.
    #[error("guard {guard} is not finite (not a number or infinite) at t = {}", Num(*t))]
    GuardNotFinite {
        /// Index of the guard in the event set.
        guard: usize,
        /// Where.
        t: f64,
        /// Its value.
        value: f64,
    },
    /// A guard stayed exactly 0 over a whole step after the start (an identically zero guard,
    /// or a reset and flow that keep the state on it): it can never change sign, so it would
    /// silently never fire.
    #[error("guard {guard} stays exactly 0 over the step from t = {} to {}: it can never change sign", Num(*t0), Num(*t1))]
    GuardStuckAtZero {
        /// Index of the guard in the event set.
        guard: usize,
        /// Start of the step.
        t0: f64,
        /// End of the step.
        t1: f64,
    },
    /// The iteration matrix of an implicit method is singular (the Jacobian, the mass matrix or
    /// the step size make `M − hγJ` non-invertible) and smaller steps did not help.
    #[error("singular iteration matrix at t = {} (step size {h:e})", Num(*t))]
    SingularMatrix {
        /// Time of the step.
        t: f64,
        /// Step size tried last.
        h: f64,
    },
    /// The Newton iteration of an implicit method kept failing until the step size reached its
    /// floor.
    #[error("the Newton iteration failed to converge at t = {} even with step size {h:e}", Num(*t))]
    NewtonFailed {
        /// Time of the step.
        t: f64,
        /// Step size tried last.
        h: f64,
    },
    /// An explicit method detected stiffness: its step size has been held at the edge of its
    /// stability region for many steps. A stiff method (radau5, ndf, bdf, rosenbrock23,
    /// trapezoid, trbdf2) will be far cheaper.
    #[error("the problem is stiff at t = {} for the explicit method `{method}` ({steps} steps so far): use an implicit method such as radau5 or ndf", Num(*t))]
    Stiff {
        /// Method name.
        method: &'static str,
        /// Time reached.
        t: f64,
        /// Steps taken.
        steps: usize,
    },
    /// The method cannot integrate a system with this mass matrix (explicit and multistep
    /// Adams methods need `M = I`; some implicit ones need `M` invertible).
    #[error("the method `{method}` {reason}")]
    MassMatrixUnsupported {
        /// Method name.
        method: &'static str,
        /// What it supports.
        reason: &'static str,
    },
    /// A stepper was asked to step before [`crate::Solver::start`].
    #[error("the solver was not started (call `start` first)")]
    NotStarted,
    /// A fixed-step method was used without a step size.
    #[error("the fixed-step method `{method}` needs `h_fixed` (or `h_init`) to be set")]
    FixedStepNeedsStep {
        /// Method name.
        method: &'static str,
    },
    /// The requested end time is behind the current time (integration runs forward only).
    #[error("end time {} is before the current time {}", Num(*t_end), Num(*t))]
    BackwardSpan {
        /// Current time.
        t: f64,
        /// Requested end.
        t_end: f64,
    },
    /// The exact affine stepper ([`crate::AffineExp`]) was given a system that is not
    /// autonomous and affine, or does not say so.
    #[error("the exact affine stepper cannot step this system at t = {}: {reason}", Num(*t))]
    NotAffine {
        /// Where it started.
        t: f64,
        /// What failed.
        reason: String,
    },
}

/// `; the events accumulate at t ≈ …` (nothing without an estimate).
struct AccumulationAt(Option<f64>);

impl std::fmt::Display for AccumulationAt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(t) => write!(f, "; they accumulate at t ≈ {}", Num(t)),
            None => Ok(()),
        }
    }
}
