//! Settings of a curve: where it ends, how its start is searched, and the continuation's own
//! step settings ([`ContinuationOptions`], the same fields as a branch's).

use crate::error::ContinuationError;
use crate::options::ContinuationOptions;
use saltation_ode::Num;
use saltation_orbit::OrbitOptions;
use serde::{Deserialize, Serialize};

/// Which way a curve leaves its start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveDirection {
    /// Towards `to2`: the start's tangent has `dP2` of the sign of `to2 − P2_start` (default).
    #[default]
    Forward,
    /// Away from `to2`: the other orientation of the tangent. The curve still ends where it
    /// reaches `P2 = to2` — after it has turned back in `P2` — or at a limit.
    Backward,
}

impl CurveDirection {
    /// The names as the command line and files spell them.
    pub const NAMES: [&'static str; 2] = ["forward", "backward"];

    /// The direction named `name` (one of [`CurveDirection::NAMES`]).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "forward" => Some(Self::Forward),
            "backward" => Some(Self::Backward),
            _ => None,
        }
    }

    /// `+1` forward, `−1` backward.
    pub fn sign(self) -> f64 {
        match self {
            Self::Forward => 1.0,
            Self::Backward => -1.0,
        }
    }
}

/// Settings of one curve.
///
/// Checked by [`CurveOptions::validate_with`], which [`crate::continue_curve`] calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CurveOptions {
    /// The value of `P2` where the curve ends (finite, not the starting `P2`).
    pub to2: f64,
    /// Direction in `P` in which the one-parameter branch from the guess looks for the
    /// starting bifurcation: `Some(±1)`, or `None` (default) for +1 and then −1.
    pub search: Option<f64>,
    /// Which way the curve leaves its start: towards `to2` (default) or away from it.
    pub direction: CurveDirection,
    /// Detect and locate codimension-two points (default true).
    pub codim2: bool,
    /// The steps, the corrector and the location tolerance (as on a branch): `step`,
    /// `min_step`, `max_step` are arclength in `(u, p, p2)` (in `(w, p, p2)`, `w` with the
    /// segment starts, with multiple shooting); `max_points` bounds the curve and
    /// the starting branch; `p_min`, `p_max`, `direction`, `predictor` and
    /// `stop_at_period_doubling` apply to the starting branch only (its predictor must be
    /// pseudo-arclength or natural).
    pub settings: ContinuationOptions,
}

impl Default for CurveOptions {
    fn default() -> Self {
        Self {
            to2: f64::NAN,
            search: None,
            direction: CurveDirection::Forward,
            codim2: true,
            settings: ContinuationOptions::default(),
        }
    }
}

impl CurveOptions {
    /// Options ending at `P2 = to2`, the rest default.
    pub fn to(to2: f64) -> Self {
        Self {
            to2,
            ..Self::default()
        }
    }

    /// Checks every field (the error names it: `to2`, `search`, `settings.step`, …) with the
    /// orbit options the curve runs with.
    pub fn validate_with(&self, orbit: &OrbitOptions) -> Result<(), ContinuationError> {
        if !self.to2.is_finite() {
            return Err(ContinuationError::invalid(
                "to2",
                format!("{} must be finite", Num(self.to2)),
            ));
        }
        if let Some(s) = self.search {
            if s != 1.0 && s != -1.0 {
                return Err(ContinuationError::invalid(
                    "search",
                    format!("{} must be 1 or -1", Num(s)),
                ));
            }
        }
        self.settings
            .validate_with(orbit)
            .map_err(|e| e.within("settings."))?;
        if matches!(
            self.settings.predictor,
            crate::options::Predictor::EventTime { .. }
        ) {
            return Err(ContinuationError::invalid(
                "settings.predictor",
                "a curve's starting branch is continued in its parameter (pseudo-arclength or \
                 natural), not in an event time",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_checked_and_named() {
        let orbit = OrbitOptions::default();
        let field = |o: CurveOptions| match o.validate_with(&orbit) {
            Err(e) => e.field().map(str::to_string),
            Ok(()) => None,
        };
        assert_eq!(field(CurveOptions::to(1.0)), None);
        assert_eq!(field(CurveOptions::default()).as_deref(), Some("to2"));
        assert_eq!(
            field(CurveOptions::to(f64::INFINITY)).as_deref(),
            Some("to2")
        );
        let mut o = CurveOptions::to(1.0);
        o.search = Some(0.5);
        assert_eq!(field(o).as_deref(), Some("search"));
        let mut o = CurveOptions::to(1.0);
        o.settings.step = -1.0;
        assert_eq!(field(o).as_deref(), Some("settings.step"));
        // Multiple shooting's own checks (a number of pieces of 0) apply to a curve's.
        let mut o = CurveOptions::to(1.0);
        o.settings.shooting = saltation_orbit::Shooting::Multiple {
            segments: saltation_orbit::Segments::Phases,
        };
        assert_eq!(field(o).as_deref(), None);
        let mut o = CurveOptions::to(1.0);
        o.settings.shooting = saltation_orbit::Shooting::Multiple {
            segments: saltation_orbit::Segments::PerMode(0),
        };
        assert!(field(o).is_some());
    }
}
