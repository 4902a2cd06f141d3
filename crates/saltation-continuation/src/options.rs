//! Continuation settings: a plain struct with defaults, the continuation's own settings only.
//! The stride, Newton and eigenvalue settings of the orbits on a branch are the
//! [`OrbitOptions`] every continuation function takes beside them.

use crate::error::ContinuationError;
use saltation_hybrid::HybridError;
use saltation_ode::Num;
use saltation_orbit::{OrbitOptions, OrbitOptionsError, Shooting};
use serde::{Deserialize, Serialize};

/// How the branch is parametrised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Predictor {
    /// Natural parameter with a secant predictor: steps in `p`; stops at folds.
    Natural,
    /// Pseudo-arclength in `(u, p)` with a tangent predictor: passes folds (default).
    #[default]
    Arclength,
    /// Natural continuation in the time of event `event` of the stride (counted from 0; a
    /// hopper whose stride starts at lift-off has its flight time at event 0), with the model
    /// parameter as an extra unknown (Zana et al. 2018 continue in the flight time because
    /// everything is monotonic in it). Steps, `min_step` and `max_step` are in units of
    /// time; `direction` is the initial direction of the parameter, as for the other
    /// predictors, and the time keeps the sense it starts with; `p_min`/`p_max` still bound
    /// the parameter. Stops where the event time is stationary along the branch.
    EventTime {
        /// Index of the event in the stride, below the orbit options'
        /// `stride.events_per_stride`.
        event: usize,
    },
}

impl Predictor {
    /// In words: `natural parameter`, `pseudo-arclength`, `event time`.
    pub fn name(self) -> &'static str {
        match self {
            Predictor::Natural => "natural parameter",
            Predictor::Arclength => "pseudo-arclength",
            Predictor::EventTime { .. } => "event time",
        }
    }
}

/// Largest number of points of one branch ([`ContinuationOptions::max_points`], a branch's
/// `max_points`): every point holds its state and multipliers.
pub const MAX_POINTS: usize = 100_000;

/// Largest number of corrector iterations per point
/// ([`ContinuationOptions::max_corrector_iters`]).
pub const MAX_CORRECTOR_ITERS: usize = 100;

/// Largest step growth factor ([`ContinuationOptions::growth`]).
pub const MAX_GROWTH: f64 = 10.0;

/// Largest relative step of the finite difference for `F_p`
/// ([`ContinuationOptions::fd_param_step`]).
pub const MAX_FD_PARAM_STEP: f64 = 0.1;

/// Largest ratio `max_step / min_step`: a failed step is halved, so at most
/// `log2(MAX_STEP_RATIO) ≈ 50` halvings separate the largest step from the end of a branch.
pub const MAX_STEP_RATIO: f64 = 1e15;

/// Smallest allowed [`ContinuationOptions::min_step`] (in units of the parameter): a smaller
/// step no longer changes a parameter of order one in double precision, and a branch would
/// repeat the same point.
pub const MIN_STEP: f64 = 1e-14;

/// Settings of one continuation run.
///
/// Every field is checked by [`ContinuationOptions::validate`], which every entry point calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContinuationOptions {
    /// Predictor (default pseudo-arclength).
    pub predictor: Predictor,
    /// First step, in units of the parameter (arclength in `(u, p)`, or `Δp` for natural),
    /// signed by `direction`. Finite, in `[min_step, max_step]`. Default 1e-3.
    pub step: f64,
    /// Smallest step: a step that fails is halved, and the branch ends when it would fall below
    /// this. Finite, at least 1e-14 ([`MIN_STEP`]), at most `step`, at least `max_step / 1e15`
    /// ([`MAX_STEP_RATIO`]). Default 1e-9.
    pub min_step: f64,
    /// Largest step. Finite, at least `step`. Default 0.05.
    pub max_step: f64,
    /// +1 to start towards larger `p`, −1 towards smaller (exactly ±1; default +1).
    pub direction: f64,
    /// Lower bound of the parameter: not NaN, may be −∞, below `p_max` (default −∞).
    pub p_min: f64,
    /// Upper bound of the parameter: not NaN, may be +∞, above `p_min` (default +∞).
    pub p_max: f64,
    /// Largest number of points on the branch, in `1..=100 000` ([`MAX_POINTS`]; default 200).
    pub max_points: usize,
    /// Corrector iterations allowed per point, in `1..=100` ([`MAX_CORRECTOR_ITERS`];
    /// default 8).
    pub max_corrector_iters: usize,
    /// Corrector convergence: `‖G‖ ≤ tol`, in units of the reduced coordinates. In `(0, 1)`
    /// (default 1e-10).
    pub corrector_tol: f64,
    /// Corrector iterations at or below which the step grows, at most `max_corrector_iters`
    /// (default 3).
    pub fast_iters: usize,
    /// Step growth factor, finite, in `[1, 10]` ([`MAX_GROWTH`]; default 1.5); the shrink
    /// factor on failure is 0.5.
    pub growth: f64,
    /// Relative step of the central difference for `F_p` (the absolute step is
    /// `fd_param_step · max(|p|, 1)`), in `(0, 0.1]` ([`MAX_FD_PARAM_STEP`]; default 1e-6).
    pub fd_param_step: f64,
    /// Detect and locate bifurcations (default true).
    pub detect: bool,
    /// Tolerance of bifurcation location, in units of the parameter. In `(0, 1)`
    /// (default 1e-10).
    pub locate_tol: f64,
    /// End the branch at its first period doubling (default false). Scripts set it on the last
    /// branch of a period-doubling chain: "continued until its own period doubling".
    pub stop_at_period_doubling: bool,
    /// How the correctors set up the fixed-point equation: `Single` (one stride, default) or
    /// `Multiple` (the orbit solver's multiple shooting: every segment's start an unknown, the
    /// matching conditions plus the closure, the multipliers from the product of the segment
    /// Jacobians never formed; `crate::corrector` documentation). Checked as the orbit
    /// options' `shooting` ([`Shooting::validate`], [`Shooting::validate_for`]); not with the
    /// event-time predictor. When it is `Multiple`, the branch's starting orbit is found with
    /// it too (else with the orbit options' own `shooting`).
    pub shooting: Shooting,
}

impl Default for ContinuationOptions {
    fn default() -> Self {
        Self {
            predictor: Predictor::Arclength,
            step: 1e-3,
            min_step: 1e-9,
            max_step: 0.05,
            direction: 1.0,
            p_min: f64::NEG_INFINITY,
            p_max: f64::INFINITY,
            max_points: 200,
            max_corrector_iters: 8,
            corrector_tol: 1e-10,
            fast_iters: 3,
            growth: 1.5,
            fd_param_step: 1e-6,
            detect: true,
            locate_tol: 1e-10,
            stop_at_period_doubling: false,
            shooting: Shooting::Single,
        }
    }
}

impl ContinuationOptions {
    /// Checks these options with the orbit options they run with: [`Self::validate`],
    /// [`OrbitOptions::validate`] (the error names the field: `stride.t_max`,
    /// `newton.armijo`, `eigen`), and that an event-time predictor's event is one of the
    /// stride's (`predictor.event`).
    pub fn validate_with(&self, orbit: &OrbitOptions) -> Result<(), ContinuationError> {
        self.validate()?;
        orbit
            .validate()
            .map_err(|e| ContinuationError::invalid(e.field(), e.to_string()))?;
        if self.shooting != Shooting::Single
            && matches!(self.predictor, Predictor::EventTime { .. })
        {
            return Err(ContinuationError::invalid(
                "shooting",
                "multiple shooting does not apply with the event-time predictor (the event \
                 times would depend on every segment's start); use Arclength or Natural, or \
                 Single",
            ));
        }
        let events = orbit.stride.events_per_stride;
        match self.predictor {
            Predictor::EventTime { event } if event >= events => Err(ContinuationError::invalid(
                "predictor.event",
                format!("event {event} of a stride of {events} events (counted from 0)"),
            )),
            _ => Ok(()),
        }
    }

    /// Checks every field against its documented range; the error names the field (`step`,
    /// `max_points`, …). The orbit options and the predictor's event are checked by
    /// [`Self::validate_with`].
    pub fn validate(&self) -> Result<(), ContinuationError> {
        let bad = |field: &str, reason: String| Err(ContinuationError::invalid(field, reason));
        let positive = |x: f64| x > 0.0 && x.is_finite();
        if !positive(self.step) {
            return bad("step", format!("{} must be finite and > 0", Num(self.step)));
        }
        if !positive(self.min_step) {
            return bad(
                "min_step",
                format!("{} must be finite and > 0", Num(self.min_step)),
            );
        }
        if !(self.min_step >= MIN_STEP) {
            return bad(
                "min_step",
                format!(
                    "{} must be at least {MIN_STEP:e}: a smaller step does not change the \
                     parameter",
                    Num(self.min_step)
                ),
            );
        }
        if !(self.max_step.is_finite()) {
            return bad("max_step", format!("{} must be finite", Num(self.max_step)));
        }
        if !(self.min_step <= self.step) {
            return bad(
                "min_step",
                format!(
                    "{} must be at most step = {}",
                    Num(self.min_step),
                    Num(self.step)
                ),
            );
        }
        if !(self.step <= self.max_step) {
            return bad(
                "max_step",
                format!(
                    "{} must be at least step = {}",
                    Num(self.max_step),
                    Num(self.step)
                ),
            );
        }
        if !(self.max_step <= self.min_step * MAX_STEP_RATIO) {
            return bad(
                "min_step",
                format!(
                    "{} must be at least max_step / {MAX_STEP_RATIO:e} = {:e}",
                    Num(self.min_step),
                    self.max_step / MAX_STEP_RATIO
                ),
            );
        }
        if self.direction != 1.0 && self.direction != -1.0 {
            return bad(
                "direction",
                format!("{} must be 1 or -1", Num(self.direction)),
            );
        }
        if self.p_min.is_nan() {
            return bad("p_min", "must not be NaN".into());
        }
        if self.p_max.is_nan() {
            return bad("p_max", "must not be NaN".into());
        }
        if !(self.p_min < self.p_max) {
            return bad(
                "p_min",
                format!(
                    "{} must be below p_max = {}",
                    Num(self.p_min),
                    Num(self.p_max)
                ),
            );
        }
        if !(1..=MAX_POINTS).contains(&self.max_points) {
            return bad(
                "max_points",
                format!("{} must be in 1..={MAX_POINTS}", self.max_points),
            );
        }
        if !(1..=MAX_CORRECTOR_ITERS).contains(&self.max_corrector_iters) {
            return bad(
                "max_corrector_iters",
                format!(
                    "{} must be in 1..={MAX_CORRECTOR_ITERS}",
                    self.max_corrector_iters
                ),
            );
        }
        if !(positive(self.corrector_tol) && self.corrector_tol < 1.0) {
            return bad(
                "corrector_tol",
                format!("{} must be > 0 and < 1", Num(self.corrector_tol)),
            );
        }
        if self.fast_iters > self.max_corrector_iters {
            return bad(
                "fast_iters",
                format!(
                    "{} must be at most max_corrector_iters = {}",
                    self.fast_iters, self.max_corrector_iters
                ),
            );
        }
        if !(self.growth >= 1.0 && self.growth <= MAX_GROWTH) {
            return bad(
                "growth",
                format!("{} must be in [1, {MAX_GROWTH}]", Num(self.growth)),
            );
        }
        if !(self.fd_param_step > 0.0 && self.fd_param_step <= MAX_FD_PARAM_STEP) {
            return bad(
                "fd_param_step",
                format!(
                    "{} must be in (0, {MAX_FD_PARAM_STEP}]",
                    Num(self.fd_param_step)
                ),
            );
        }
        if !(positive(self.locate_tol) && self.locate_tol < 1.0) {
            return bad(
                "locate_tol",
                format!("{} must be > 0 and < 1", Num(self.locate_tol)),
            );
        }
        self.shooting.validate().map_err(shooting_error)?;
        Ok(())
    }
}

/// An invalid shooting (the orbit options' check of it) as the invalid option `shooting`.
pub(crate) fn shooting_error(e: OrbitOptionsError) -> ContinuationError {
    match e {
        OrbitOptionsError::Shooting { reason } => ContinuationError::invalid("shooting", reason),
        other => ContinuationError::invalid(other.field(), other.to_string()),
    }
}

/// A stride-options error as an [`ContinuationError::InvalidOption`] under `prefix`
/// (`stride.t_max`).
pub(crate) fn stride_error(e: HybridError, prefix: &str) -> ContinuationError {
    match e {
        HybridError::InvalidOption { field, reason } => {
            ContinuationError::invalid(format!("{prefix}.{field}"), reason)
        }
        HybridError::Ode { source, .. } => {
            ContinuationError::invalid(format!("{prefix}.ode"), source.to_string())
        }
        other => ContinuationError::invalid(prefix, other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field an invalid option names.
    fn field_of(o: &ContinuationOptions) -> String {
        match o.validate() {
            Err(ContinuationError::InvalidOption { field, .. }) => field,
            other => panic!("expected InvalidOption, got {other:?}"),
        }
    }

    /// The shooting is checked as the orbit options' (pieces per phase in 1..=1000), and
    /// multiple shooting is refused with the event-time predictor.
    #[test]
    fn shooting_is_checked_as_the_orbit_options_shooting() {
        use saltation_orbit::Segments;
        let with = |segments| ContinuationOptions {
            shooting: Shooting::Multiple { segments },
            ..ContinuationOptions::default()
        };
        assert_eq!(with(Segments::Phases).validate(), Ok(()));
        assert_eq!(with(Segments::PerMode(1000)).validate(), Ok(()));
        for bad in [0, 1001, usize::MAX] {
            let o = with(Segments::PerMode(bad));
            assert_eq!(field_of(&o), "shooting");
            assert!(o.validate().unwrap_err().to_string().contains("1..=1000"));
        }
        let o = ContinuationOptions {
            predictor: Predictor::EventTime { event: 0 },
            ..with(Segments::Phases)
        };
        match o.validate_with(&OrbitOptions::default()) {
            Err(ContinuationError::InvalidOption { field, reason }) => {
                assert_eq!(field, "shooting");
                assert!(reason.contains("event-time"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_are_valid() {
        assert_eq!(ContinuationOptions::default().validate(), Ok(()));
        let orbit = OrbitOptions::default();
        assert_eq!(ContinuationOptions::default().validate_with(&orbit), Ok(()));
    }

    /// The orbit options and the predictor's event are checked with the options they run with,
    /// and named as fields of the orbit options.
    #[test]
    fn orbit_options_are_checked_beside() {
        let opts = ContinuationOptions::default();
        let field = |o: &ContinuationOptions, orbit: &OrbitOptions| match o.validate_with(orbit) {
            Err(ContinuationError::InvalidOption { field, .. }) => field,
            other => panic!("expected InvalidOption, got {other:?}"),
        };
        let mut orbit = OrbitOptions::default();
        orbit.stride.t_max = f64::NAN;
        assert_eq!(field(&opts, &orbit), "stride.t_max");
        let mut orbit = OrbitOptions::default();
        orbit.stride.events_per_stride = 0;
        assert_eq!(field(&opts, &orbit), "stride.events_per_stride");
        let mut orbit = OrbitOptions::default();
        orbit.newton.armijo = 1.0;
        assert_eq!(field(&opts, &orbit), "newton.armijo");
        orbit.newton.armijo = OrbitOptions::default().newton.armijo;
        orbit.newton.ftol = f64::NAN;
        assert_eq!(field(&opts, &orbit), "newton.ftol");
        let event = |event| ContinuationOptions {
            predictor: Predictor::EventTime { event },
            ..ContinuationOptions::default()
        };
        let mut orbit = OrbitOptions::default();
        assert_eq!(field(&event(1), &orbit), "predictor.event");
        orbit.stride.events_per_stride = 2;
        assert_eq!(event(1).validate_with(&orbit), Ok(()));
    }

    #[test]
    fn every_field_is_checked_and_named() {
        type Edit = fn(&mut ContinuationOptions);
        let cases: &[(&str, Edit)] = &[
            ("step", |o| o.step = f64::NAN),
            ("step", |o| o.step = 0.0),
            ("step", |o| o.step = f64::INFINITY),
            ("min_step", |o| o.min_step = 0.0),
            ("min_step", |o| o.min_step = f64::NAN),
            ("min_step", |o| o.min_step = 2e-3),
            ("min_step", |o| {
                (o.step, o.min_step, o.max_step) = (1e-300, 1e-300, 1e-300)
            }),
            ("min_step", |o| o.min_step = MIN_STEP / 2.0),
            ("min_step", |o| {
                (o.step, o.min_step, o.max_step) = (MIN_STEP, MIN_STEP, 1e2)
            }),
            ("min_step", |o| {
                o.min_step = 1e-20;
                o.step = 1e-20;
            }),
            ("max_step", |o| o.max_step = f64::INFINITY),
            ("max_step", |o| o.max_step = f64::NAN),
            ("max_step", |o| o.max_step = 1e-4),
            ("direction", |o| o.direction = 0.5),
            ("direction", |o| o.direction = f64::NAN),
            ("p_min", |o| o.p_min = f64::NAN),
            ("p_max", |o| o.p_max = f64::NAN),
            ("p_min", |o| (o.p_min, o.p_max) = (1.0, 1.0)),
            ("p_min", |o| o.p_min = f64::INFINITY),
            ("max_points", |o| o.max_points = 0),
            ("max_points", |o| o.max_points = MAX_POINTS + 1),
            ("max_corrector_iters", |o| o.max_corrector_iters = 0),
            ("max_corrector_iters", |o| {
                o.max_corrector_iters = MAX_CORRECTOR_ITERS + 1
            }),
            ("corrector_tol", |o| o.corrector_tol = 0.0),
            ("corrector_tol", |o| o.corrector_tol = f64::NAN),
            ("corrector_tol", |o| o.corrector_tol = f64::INFINITY),
            ("fast_iters", |o| o.fast_iters = 9),
            ("growth", |o| o.growth = 0.5),
            ("growth", |o| o.growth = f64::NAN),
            ("growth", |o| o.growth = 11.0),
            ("fd_param_step", |o| o.fd_param_step = 0.0),
            ("fd_param_step", |o| o.fd_param_step = f64::NAN),
            ("fd_param_step", |o| o.fd_param_step = 0.2),
            ("locate_tol", |o| o.locate_tol = 0.0),
            ("locate_tol", |o| o.locate_tol = f64::INFINITY),
        ];
        for (field, edit) in cases {
            let mut o = ContinuationOptions::default();
            edit(&mut o);
            assert_eq!(field_of(&o), *field, "{o:?}");
        }
        // The bounds themselves are valid.
        let o = ContinuationOptions {
            max_points: MAX_POINTS,
            max_corrector_iters: MAX_CORRECTOR_ITERS,
            fast_iters: MAX_CORRECTOR_ITERS,
            growth: MAX_GROWTH,
            fd_param_step: MAX_FD_PARAM_STEP,
            min_step: MIN_STEP,
            step: 0.05,
            max_step: MIN_STEP * MAX_STEP_RATIO,
            p_min: -1.0,
            p_max: 1.0,
            ..ContinuationOptions::default()
        };
        assert_eq!(o.validate(), Ok(()));
    }
}
