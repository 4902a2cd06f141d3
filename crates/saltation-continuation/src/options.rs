//! Continuation settings: a plain struct with defaults, also the RON schema of a model file's
//! `continuation` section.

use crate::error::ContinuationError;
use saltation_hybrid::StrideOptions;
use saltation_orbit::{EigenBackend, NewtonOptions};
use serde::{Deserialize, Serialize};

/// How the branch is parametrised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Predictor {
    /// Natural parameter with a secant predictor: steps in `p`; stops at folds.
    Natural,
    /// Pseudo-arclength in `(u, p)` with a tangent predictor: passes folds (default).
    #[default]
    Arclength,
}

/// Settings of one continuation run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContinuationOptions {
    /// Predictor (default pseudo-arclength).
    pub predictor: Predictor,
    /// First step (arclength, or Δp for natural), signed by `direction`; default 1e-3.
    pub step: f64,
    /// Smallest step before the branch is declared ended (default 1e-9).
    pub min_step: f64,
    /// Largest step (default 0.05).
    pub max_step: f64,
    /// +1 to start towards larger `p`, −1 towards smaller (default +1).
    pub direction: f64,
    /// Lower bound of the parameter (default −∞).
    pub p_min: f64,
    /// Upper bound of the parameter (default +∞).
    pub p_max: f64,
    /// Largest number of points on the branch (default 200).
    pub max_points: usize,
    /// Corrector iterations allowed per point (default 8).
    pub max_corrector_iters: usize,
    /// Corrector convergence: `‖G‖ ≤ tol` (default 1e-10).
    pub corrector_tol: f64,
    /// Corrector iterations at or below which the step grows (default 3).
    pub fast_iters: usize,
    /// Step growth factor (default 1.5); shrink factor on failure is 0.5.
    pub growth: f64,
    /// Relative step of the central difference for `F_p` (default 1e-6).
    pub fd_param_step: f64,
    /// Detect and locate bifurcations (default true).
    pub detect: bool,
    /// Tolerance of bifurcation location, in the parameter (default 1e-10).
    pub locate_tol: f64,
    /// End the branch at its first period doubling (default false). Scripts set it on the last
    /// branch of a period-doubling chain: "continued until its own period doubling".
    pub stop_at_period_doubling: bool,
    /// Stride settings.
    pub stride: StrideOptions,
    /// Newton settings for the starting orbit.
    pub newton: NewtonOptions,
    /// Eigenvalue backend.
    pub eigen: EigenBackend,
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
            stride: StrideOptions::default(),
            newton: NewtonOptions::default(),
            eigen: EigenBackend::default(),
        }
    }
}

impl ContinuationOptions {
    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), ContinuationError> {
        let bad = |field, reason| Err(ContinuationError::InvalidOption { field, reason });
        if !(self.step > 0.0 && self.step.is_finite()) {
            return bad("step", "must be finite and > 0");
        }
        if !(self.min_step > 0.0 && self.min_step <= self.step && self.step <= self.max_step) {
            return bad("min_step", "need 0 < min_step <= step <= max_step");
        }
        if self.direction != 1.0 && self.direction != -1.0 {
            return bad("direction", "must be 1 or -1");
        }
        if !(self.p_min < self.p_max) {
            return bad("p_min", "must be below p_max");
        }
        if self.max_points < 1 {
            return bad("max_points", "must be >= 1");
        }
        if !(self.corrector_tol > 0.0) || self.max_corrector_iters == 0 {
            return bad(
                "corrector_tol",
                "need corrector_tol > 0 and max_corrector_iters >= 1",
            );
        }
        if !(self.growth >= 1.0) {
            return bad("growth", "must be >= 1");
        }
        if !(self.fd_param_step > 0.0) || !(self.locate_tol > 0.0) {
            return bad("fd_param_step", "fd_param_step and locate_tol must be > 0");
        }
        self.stride.validate()?;
        Ok(())
    }
}
