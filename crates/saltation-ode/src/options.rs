//! Solver options: tolerances, error norm, step-size limits and event settings.

use crate::OdeError;
use serde::{Deserialize, Serialize};

/// Absolute tolerance: one value for all components or one per component.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Atol {
    /// The same absolute tolerance for every component.
    Scalar(f64),
    /// One absolute tolerance per component (length = number of error-controlled components).
    Vector(Vec<f64>),
}

impl Atol {
    /// Tolerance of component `i`. A vector's length is checked against the system by
    /// [`SolverOptions::validate_for`] before any integration; past its end the last entry
    /// applies (never reached through the solvers).
    #[inline]
    pub fn get(&self, i: usize) -> f64 {
        match self {
            Atol::Scalar(a) => *a,
            Atol::Vector(v) => v.get(i).or(v.last()).copied().unwrap_or(0.0),
        }
    }
}

/// Largest [`SolverOptions::event_samples`]: more interior samples than this cost far more
/// than they can find (the guards are also checked at every step's ends).
pub const MAX_EVENT_SAMPLES: usize = 64;
/// Largest [`ZenoLimit::window`] (the monitor keeps a ring of this many event times).
pub const MAX_ZENO_WINDOW: usize = 10_000;
/// Largest step and event counts ([`SolverOptions::max_steps`], [`ZenoLimit::max_events`]).
pub const MAX_COUNT: usize = 1_000_000_000;

/// Smallest relative tolerance in use, `4 ε` (≈ 8.9e-16): a smaller `rtol` (0 included) is
/// raised to it in every error weight, as Hairer's codes and MATLAB raise theirs to a few units
/// of rounding. A weight below the rounding level of `|y|` asks for an error no floating-point
/// step can show, and the step size would shrink to zero. Only the relative part is floored: an
/// `atol` far below `|y|` is the user's choice for components that are that small.
pub const RTOL_FLOOR: f64 = 4.0 * f64::EPSILON;

/// How the per-component error weight `w_i` is formed from `rtol = r`, `atol = a` and
/// `|y_i| = max(|y_n,i|, |y_{n+1},i|)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ErrorWeight {
    /// CVODE / Hairer style: `w_i = r |y_i| + a_i` (default).
    #[default]
    Sum,
    /// MATLAB style: `w_i = max(r |y_i|, a_i)`.
    Max,
}

/// Which norm of the scaled local error `e_i / w_i` must be ≤ 1 for a step to be accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ErrorNorm {
    /// Root mean square `sqrt(Σ (e_i/w_i)² / m)` over the `m` controlled components (Hairer; default).
    #[default]
    Rms,
    /// Maximum norm `max_i |e_i / w_i|` (MATLAB's ode suite).
    Max,
}

/// Options shared by all integrators. Every field has a sensible [`Default`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolverOptions {
    /// Relative tolerance `r` (in `[0, 1)`; default 1e-6). The weights use at least
    /// [`RTOL_FLOOR`] (see [`SolverOptions::rtol_in_use`]).
    pub rtol: f64,
    /// Absolute tolerance `a` (finite and > 0: with `a = 0` a component passing through zero has
    /// a zero error weight; default 1e-9). A vector gives one value per
    /// error-controlled component (its length is checked against the system when a solve
    /// starts).
    pub atol: Atol,
    /// Error weight formula (default: `r|y| + a`).
    pub weight: ErrorWeight,
    /// Error norm (default: RMS).
    pub norm: ErrorNorm,
    /// Number of leading components that enter the error norm (≥ 1); `None` = all. Lets an
    /// extended state (e.g. state plus variational matrix) keep the extra components out of step
    /// control. A vector `atol` must have exactly this many entries.
    pub error_dims: Option<usize>,
    /// Initial step size; `None` = Hairer–Wanner's automatic estimate (adaptive methods).
    pub h_init: Option<f64>,
    /// Constant step size without error control. Required by the fixed-step methods (Euler, Heun,
    /// RK4); given to an adaptive method it switches its error control off (for order studies).
    pub h_fixed: Option<f64>,
    /// Largest step size (default: unbounded). Also bounds the gap between event checks.
    pub h_max: f64,
    /// Smallest step size before [`OdeError::StepTooSmall`] (default 0: only the floating-point
    /// limit `16 ε |t|` applies).
    pub h_min: f64,
    /// Accepted steps allowed in one call before [`OdeError::MaxSteps`] (default 100 000; at most
    /// [`MAX_COUNT`]).
    pub max_steps: usize,
    /// Safety factor of the step-size controller, in (0, 1) (default 0.9).
    pub safety: f64,
    /// Largest step growth per step (finite, > 1; default 10).
    pub max_growth: f64,
    /// Smallest step shrink factor per step (default 0.2).
    pub min_shrink: f64,
    /// Interior sample points per step at which the guards are also evaluated, so that two
    /// crossings inside one step are not missed (default 3; at most [`MAX_EVENT_SAMPLES`]). 0
    /// checks the step's ends only.
    pub event_samples: usize,
    /// Event-accumulation (Zeno) detection.
    pub zeno: ZenoLimit,
    /// Settings of the explicit Runge–Kutta pairs (PI weight, stiffness detection).
    pub explicit: ExplicitOptions,
    /// Settings of the implicit methods' Newton iteration (tolerance, iteration cap, Jacobian
    /// reuse).
    pub newton: NewtonOptions,
    /// Settings of the variable-order multistep methods (order limits).
    pub multistep: MultistepOptions,
}

impl Default for SolverOptions {
    fn default() -> Self {
        Self {
            rtol: 1e-6,
            atol: Atol::Scalar(1e-9),
            weight: ErrorWeight::Sum,
            norm: ErrorNorm::Rms,
            error_dims: None,
            h_init: None,
            h_fixed: None,
            h_max: f64::INFINITY,
            h_min: 0.0,
            max_steps: 100_000,
            safety: 0.9,
            max_growth: 10.0,
            min_shrink: 0.2,
            event_samples: 3,
            zeno: ZenoLimit::default(),
            explicit: ExplicitOptions::default(),
            newton: NewtonOptions::default(),
            multistep: MultistepOptions::default(),
        }
    }
}

impl SolverOptions {
    /// Options with `rtol = atol = tol`.
    pub fn with_tol(tol: f64) -> Self {
        Self {
            rtol: tol,
            atol: Atol::Scalar(tol),
            ..Self::default()
        }
    }

    /// The relative tolerance the error weights use: `rtol`, raised to [`RTOL_FLOOR`].
    #[inline(always)]
    pub fn rtol_in_use(&self) -> f64 {
        self.rtol.max(RTOL_FLOOR)
    }

    /// Checks every field's range; the solvers call it before integrating.
    pub fn validate(&self) -> Result<(), OdeError> {
        let bad = |field, reason| Err(OdeError::InvalidOption { field, reason });
        if !(0.0..1.0).contains(&self.rtol) {
            return bad("rtol", "must be >= 0 and < 1");
        }
        match &self.atol {
            Atol::Scalar(a) if !(*a > 0.0 && a.is_finite()) => {
                return bad("atol", "must be finite and > 0")
            }
            Atol::Vector(v) if v.iter().any(|a| !(*a > 0.0 && a.is_finite())) => {
                return bad("atol", "every component must be finite and > 0")
            }
            _ => {}
        }
        if let Some(h) = self.h_init {
            if !(h > 0.0 && h.is_finite()) {
                return bad("h_init", "must be finite and > 0");
            }
        }
        if let Some(h) = self.h_fixed {
            if !(h > 0.0 && h.is_finite()) {
                return bad("h_fixed", "must be finite and > 0");
            }
        }
        if !(self.h_max > 0.0) {
            return bad("h_max", "must be > 0");
        }
        if !(self.h_min >= 0.0 && self.h_min.is_finite() && self.h_min < self.h_max) {
            return bad("h_min", "must be finite, >= 0 and < h_max");
        }
        if self.max_steps == 0 || self.max_steps > MAX_COUNT {
            return bad("max_steps", "must be in 1..=1e9");
        }
        if self.error_dims == Some(0) {
            return bad("error_dims", "must be >= 1 (or None for every component)");
        }
        if !(self.safety > 0.0 && self.safety < 1.0) {
            return bad("safety", "must be in (0, 1)");
        }
        if !(self.max_growth > 1.0 && self.max_growth.is_finite()) {
            return bad("max_growth", "must be finite and > 1");
        }
        if !(self.min_shrink > 0.0 && self.min_shrink < 1.0) {
            return bad("min_shrink", "must be in (0, 1)");
        }
        if self.event_samples > MAX_EVENT_SAMPLES {
            return bad("event_samples", "must be at most 64");
        }
        self.zeno.validate()?;
        self.explicit.validate()?;
        self.newton.validate()?;
        self.multistep.validate()
    }

    /// [`SolverOptions::validate`] plus the checks that need the system's dimension `n`: a vector
    /// `atol` has one entry per error-controlled component (`error_dims`, or `n`). The solvers
    /// call it whenever a solve starts.
    pub fn validate_for(&self, n: usize) -> Result<(), OdeError> {
        self.validate()?;
        self.check_atol_len(n)
    }

    /// The part of [`SolverOptions::validate_for`] that depends on `n`: a vector `atol` has one
    /// entry per error-controlled component.
    pub(crate) fn check_atol_len(&self, n: usize) -> Result<(), OdeError> {
        if let Atol::Vector(v) = &self.atol {
            let m = crate::control::controlled_dims(self, n);
            if v.len() != m {
                return Err(OdeError::DimensionMismatch {
                    what: "atol (one entry per error-controlled component)",
                    expected: m,
                    got: v.len(),
                });
            }
        }
        Ok(())
    }
}

/// Settings of the explicit Runge–Kutta pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExplicitOptions {
    /// PI-controller weight `β` on the previous error (0 = plain I controller). `None` (default)
    /// takes the method's own choice, as in Hairer's codes: 0.04 for DP5 and the lower-order
    /// pairs, 0 for DOP853. Must be in `[0, 0.5)`, and the solver's start rejects a `β` with
    /// `1/(q+1) − 0.75 β ≤ β` for the method's lower order `q` (the controller would then settle
    /// at errors above 1): `β < 0.071` for DOP853, `< 0.114` for DP5 and RKF45.
    pub pi_beta: Option<f64>,
    /// Stiffness detection (Hairer & Wanner, *Solving ODEs II*, §IV.2, as in `dopri5` and
    /// `dop853`): the integration ends with [`OdeError::Stiff`] once `|hλ|` has sat at the edge
    /// of the method's real stability interval for this many consecutive tests (a test every
    /// 1000 accepted steps, then at every step while the edge is being hit). Pairs without a
    /// second stage at `c = 1` (BS23) have no such test. 0 switches it off (default 15,
    /// Hairer's value).
    pub stiffness_limit: usize,
}

impl Default for ExplicitOptions {
    fn default() -> Self {
        Self {
            pi_beta: None,
            stiffness_limit: 15,
        }
    }
}

impl ExplicitOptions {
    fn validate(&self) -> Result<(), OdeError> {
        if self.pi_beta.is_some_and(|b| !(0.0..0.5).contains(&b)) {
            return Err(OdeError::InvalidOption {
                field: "explicit.pi_beta",
                reason: "must be in [0, 0.5)",
            });
        }
        if self.stiffness_limit > MAX_COUNT {
            return Err(OdeError::InvalidOption {
                field: "explicit.stiffness_limit",
                reason: "must be at most 1e9 (0 switches the test off)",
            });
        }
        Ok(())
    }
}

/// Largest [`NewtonOptions::max_iters`].
pub const MAX_NEWTON_ITERS: usize = 100;

/// Settings of the Newton (corrector) iteration of the implicit methods. `None` takes each
/// method's own published choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct NewtonOptions {
    /// Stopping tolerance of the iteration, as a fraction of the error tolerance (the scaled
    /// norm of the last correction times `θ/(1 − θ)` must fall below it); in (0, 1). Default
    /// per method: `max(10 ε / rtol, min(0.03, √rtol))` in radau5 (Hairer's `fnewt`), 0.5 in the
    /// NDF/BDF code (MATLAB's `ode15s`), and each one-step method's own (see its docs).
    pub tol: Option<f64>,
    /// Iterations allowed per step before the step is retried smaller (1..=100; default 7 in
    /// radau5, 4 in the NDF/BDF code, 5 in trapezoid and TR-BDF2).
    pub max_iters: Option<usize>,
    /// Jacobian reuse: a new Jacobian is computed only when the Newton contraction rate of the
    /// last step exceeded this (in [0, 1); Hairer's `thet`: default 0.001 in radau5, trapezoid
    /// and trbdf2; ndf and bdf keep a Jacobian until Newton fails unless it is set;
    /// rosenbrock23 evaluates one every step).
    pub jacobian_reuse: Option<f64>,
}

impl NewtonOptions {
    fn validate(&self) -> Result<(), OdeError> {
        if self.tol.is_some_and(|t| !(t > 0.0 && t < 1.0)) {
            return Err(OdeError::InvalidOption {
                field: "newton.tol",
                reason: "must be in (0, 1)",
            });
        }
        if self
            .max_iters
            .is_some_and(|k| !(1..=MAX_NEWTON_ITERS).contains(&k))
        {
            return Err(OdeError::InvalidOption {
                field: "newton.max_iters",
                reason: "must be in 1..=100",
            });
        }
        if self
            .jacobian_reuse
            .is_some_and(|t| !(0.0..1.0).contains(&t))
        {
            return Err(OdeError::InvalidOption {
                field: "newton.jacobian_reuse",
                reason: "must be in [0, 1)",
            });
        }
        Ok(())
    }
}

/// Settings of the variable-order multistep methods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct MultistepOptions {
    /// Highest order used (`None`: the method's own, 5 for NDF/BDF, 12 for ABM; NDF/BDF accept
    /// 1..=5, ABM 1..=12).
    pub max_order: Option<usize>,
}

impl MultistepOptions {
    fn validate(&self) -> Result<(), OdeError> {
        if self.max_order.is_some_and(|k| !(1..=12).contains(&k)) {
            return Err(OdeError::InvalidOption {
                field: "multistep.max_order",
                reason: "must be in 1..=12 (1..=5 for ndf and bdf)",
            });
        }
        Ok(())
    }
}

/// Event-accumulation (Zeno) limits: the integration ends with [`OdeError::Zeno`] when
/// `window` consecutive events span less than `min_span` time units, when two consecutive events
/// are closer than `min_interval · max(1, |t|)` (below that the event times are no longer
/// resolved in floating point), or after `max_events` events in one solve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ZenoLimit {
    /// Total events allowed (default 100 000; at most [`MAX_COUNT`]).
    pub max_events: usize,
    /// Number of consecutive events tested (2 to [`MAX_ZENO_WINDOW`]; default 8).
    pub window: usize,
    /// Smallest time `window` consecutive events may span (default 1e-9).
    pub min_span: f64,
    /// Smallest relative gap between two consecutive events (default 1e-12).
    pub min_interval: f64,
}

impl Default for ZenoLimit {
    fn default() -> Self {
        Self {
            max_events: 100_000,
            window: 8,
            min_span: 1e-9,
            min_interval: 1e-12,
        }
    }
}

impl ZenoLimit {
    fn validate(&self) -> Result<(), OdeError> {
        let valid = (2..=MAX_ZENO_WINDOW).contains(&self.window)
            && (1..=MAX_COUNT).contains(&self.max_events)
            && self.min_span >= 0.0
            && self.min_span.is_finite()
            && self.min_interval >= 0.0
            && self.min_interval.is_finite();
        if !valid {
            return Err(OdeError::InvalidOption {
                field: "zeno",
                reason: "window must be in 2..=10000, max_events in 1..=1e9, min_span and \
                         min_interval finite and >= 0",
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_bad_values_are_named() {
        assert!(SolverOptions::default().validate().is_ok());
        let o = SolverOptions {
            rtol: f64::NAN,
            ..Default::default()
        };
        assert!(matches!(
            o.validate(),
            Err(OdeError::InvalidOption { field: "rtol", .. })
        ));
        let o = SolverOptions {
            safety: 1.5,
            ..Default::default()
        };
        assert!(matches!(
            o.validate(),
            Err(OdeError::InvalidOption {
                field: "safety",
                ..
            })
        ));
    }
}
