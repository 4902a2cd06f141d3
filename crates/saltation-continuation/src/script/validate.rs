//! Validation of a continuation script before anything is computed: every field of the
//! settings, the branches and the orbit diagram, with errors naming the field's path.

use super::{BranchSpec, ContinuationSpec, DiagramSpec, MAX_BRANCHES, MAX_PERIOD_DOUBLINGS};
use crate::diagram::{check_start, check_total, MAX_DIAGRAM_COUNT};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::{ContinuationOptions, MAX_POINTS};
use saltation_hybrid::{EvalModel, ParamError};
use saltation_ode::Num;
use saltation_orbit::OrbitOptions;

/// Fractions of `to − from` at which [`BranchSpec::validate`] asks the model for a
/// non-integral parameter value (an integer parameter rejects it: it cannot be continued).
const PROBES: [f64; 3] = [0.381_966_011_250_105, 0.723_606_797_749_979, 1e-3];

/// Whether `e` says the parameter itself cannot take real values (unknown name, not a number,
/// an integer given a fraction), rather than that the value is out of range.
fn not_continuable(e: &ParamError) -> bool {
    matches!(
        e,
        ParamError::Unknown { .. } | ParamError::NotNumeric { .. }
    )
}

impl BranchSpec {
    /// Checks the branch for the family `family` in the parameter `param` (its name, for
    /// messages). Errors name the field relative to the branch (`from`, `guess[1]`,
    /// `max_points`); [`ContinuationSpec::validate`] prefixes `branches[i].`:
    /// - `from`, `to` finite and different; `max_points` in `1..=MAX_POINTS`;
    ///   `period_doublings` at most [`MAX_PERIOD_DOUBLINGS`]; `guess` finite;
    /// - the model can be built at `from` ([`ContinuationError::InvalidParameter`]), and the
    ///   guess has its reduced dimension;
    /// - the parameter takes non-integral values between `from` and `to`
    ///   ([`ContinuationError::NotContinuable`] for an integer parameter such as a number of
    ///   spokes, or one that is not a number).
    pub fn validate<F: ModelFamily>(
        &self,
        family: &F,
        param: &str,
    ) -> Result<(), ContinuationError> {
        let bad = |field: String, reason: String| {
            Err(ContinuationError::invalid(
                field,
                format!("branch \"{}\": {reason}", self.label),
            ))
        };
        if !self.from.is_finite() {
            return bad("from".into(), format!("{} is not finite", Num(self.from)));
        }
        if !self.to.is_finite() {
            return bad("to".into(), format!("{} is not finite", Num(self.to)));
        }
        if self.from == self.to {
            return bad(
                "to".into(),
                format!("equals from = {}: nothing to continue", Num(self.from)),
            );
        }
        if let Some(m) = self.max_points {
            if !(1..=MAX_POINTS).contains(&m) {
                return bad(
                    "max_points".into(),
                    format!("{m} must be in 1..={MAX_POINTS}"),
                );
            }
        }
        if self.period_doublings > MAX_PERIOD_DOUBLINGS {
            return bad(
                "period_doublings".into(),
                format!(
                    "{} must be at most {MAX_PERIOD_DOUBLINGS}",
                    self.period_doublings
                ),
            );
        }
        if let Some(i) = self.guess.iter().position(|x| !x.is_finite()) {
            return bad(format!("guess[{i}]"), "is not finite".into());
        }
        let model = match family.model_at(self.from) {
            Ok(m) => m,
            Err(source) if not_continuable(&source) => {
                return Err(ContinuationError::NotContinuable {
                    param: param.to_string(),
                    value: self.from,
                    source,
                })
            }
            Err(source) => {
                return Err(ContinuationError::InvalidParameter {
                    field: "from".into(),
                    value: self.from,
                    source,
                })
            }
        };
        let r = model.reduced_dim();
        if self.guess.len() != r {
            return bad(
                "guess".into(),
                format!(
                    "{} value(s), but the model has {r} reduced coordinate(s)",
                    self.guess.len()
                ),
            );
        }
        for f in PROBES {
            let p = self.from + (self.to - self.from) * f;
            if !p.is_finite() || p.fract() == 0.0 {
                continue;
            }
            if let Err(source) = family.model_at(p) {
                if not_continuable(&source) {
                    return Err(ContinuationError::NotContinuable {
                        param: param.to_string(),
                        value: p,
                        source,
                    });
                }
            }
        }
        Ok(())
    }
}

impl DiagramSpec {
    /// The parameter values: `count` values evenly spaced from `from` to `to` (just `from` for
    /// `count = 1`). Finite when the spec is valid.
    pub fn params(&self) -> Vec<f64> {
        let n = self.count.max(1);
        let last = (n - 1).max(1) as f64;
        (0..n)
            .map(|i| self.from + (self.to - self.from) * (i as f64 / last))
            .collect()
    }

    /// `from`, `to`, `count` (what does not need the model).
    fn validate_range(&self) -> Result<(), ContinuationError> {
        let bad = |field: &str, reason: String| {
            Err(ContinuationError::invalid(
                format!("orbit_diagram.{field}"),
                reason,
            ))
        };
        if !self.from.is_finite() {
            return bad("from", format!("{} is not finite", Num(self.from)));
        }
        if !self.to.is_finite() {
            return bad("to", format!("{} is not finite", Num(self.to)));
        }
        let span = self.to - self.from;
        if !span.is_finite() {
            return bad(
                "to",
                format!(
                    "to − from = {} − ({}) = {span} is not finite",
                    Num(self.to),
                    Num(self.from)
                ),
            );
        }
        if !(1..=MAX_DIAGRAM_COUNT).contains(&self.count) {
            return bad(
                "count",
                format!("{} must be in 1..={MAX_DIAGRAM_COUNT}", self.count),
            );
        }
        Ok(())
    }

    /// Checks the diagram for a model with `dim` state components; errors name the field
    /// (`orbit_diagram.from`, `orbit_diagram.count`, `orbit_diagram.start[2]`,
    /// `orbit_diagram.settings.component`, …):
    /// - `from`, `to` and `to − from` finite; `count` in `1..=MAX_DIAGRAM_COUNT`, and
    ///   `count × settings.keep` at most [`crate::MAX_DIAGRAM_VALUES`];
    /// - `start` of length `dim` and finite;
    /// - `settings` ([`OrbitDiagramOptions::validate`]).
    pub fn validate(&self, dim: usize) -> Result<(), ContinuationError> {
        self.validate_range()?;
        check_start(&self.start, dim, "orbit_diagram.start")?;
        self.settings
            .validate(dim)
            .map_err(|e| e.within("orbit_diagram.settings."))?;
        check_total(self.count, self.settings.keep, "orbit_diagram.count")
    }

    /// Checks the diagram for the family: that the model can be built at every parameter value
    /// of the diagram ([`Self::params`]; [`ContinuationError::InvalidParameter`] naming the
    /// first that cannot: `orbit_diagram.from` for the first value, `orbit_diagram.to` for the
    /// last, `orbit_diagram` for one in between), then [`DiagramSpec::validate`] with the
    /// model's state dimension.
    pub fn validate_for<F: ModelFamily>(&self, family: &F) -> Result<(), ContinuationError> {
        self.validate_range()?;
        let params = self.params();
        let last = params.len() - 1;
        let mut dim = 0;
        for (i, &p) in params.iter().enumerate() {
            match family.model_at(p) {
                Ok(m) => {
                    if i == 0 {
                        dim = m.dim();
                    }
                }
                Err(source) => {
                    let field = if i == 0 {
                        "orbit_diagram.from"
                    } else if i == last {
                        "orbit_diagram.to"
                    } else {
                        "orbit_diagram"
                    };
                    return Err(ContinuationError::InvalidParameter {
                        field: field.into(),
                        value: p,
                        source,
                    });
                }
            }
        }
        self.validate(dim)
    }
}

impl ContinuationSpec {
    /// Checks the whole section for the family `family` (the models along [`Self::param`]),
    /// before anything is computed; errors name the field:
    /// - the orbit options `orbit` the script runs with (errors name them as in
    ///   [`saltation_orbit::OrbitOptionsError::field`]: `stride.t_max`, `newton.ftol`), and an
    ///   event-time predictor's event (`settings.predictor.event`);
    /// - `settings.*` ([`ContinuationOptions::validate`]); `settings.direction`,
    ///   `settings.p_min`, `settings.p_max` at their defaults (each branch's `from`/`to` sets
    ///   them);
    /// - `branches`: at least one unless there is an orbit diagram, at most [`MAX_BRANCHES`];
    ///   each `branches[i].*`
    ///   ([`BranchSpec::validate`]: finite `from` ≠ `to`, guess, `max_points`,
    ///   `period_doublings`, the model at `from`, a parameter that can be continued);
    /// - `settings.shooting` applies to the model (multiple shooting: not time-forced, its
    ///   multipliers not taken on the section);
    /// - `orbit_diagram.*` ([`DiagramSpec::validate_for`]);
    /// - `curves`: at most [`super::MAX_CURVES`], only with branches; each `curves[i].*`
    ///   ([`super::CurveSpec::validate`]: a kind that can be continued, a branch label of the
    ///   script, a second parameter of the model other than `param`, a finite `to2` other
    ///   than its value, `max_points`).
    pub fn validate<F: ModelFamily>(
        &self,
        family: &F,
        orbit: &OrbitOptions,
    ) -> Result<(), ContinuationError> {
        orbit
            .validate()
            .map_err(|e| ContinuationError::invalid(e.field(), e.to_string()))?;
        self.settings
            .validate_with(orbit)
            .map_err(|e| e.within("settings."))?;
        let defaults = ContinuationOptions::default();
        for (field, value, default) in [
            ("direction", self.settings.direction, defaults.direction),
            ("p_min", self.settings.p_min, defaults.p_min),
            ("p_max", self.settings.p_max, defaults.p_max),
        ] {
            if value != default {
                return Err(ContinuationError::invalid(
                    format!("settings.{field}"),
                    format!("{}: set by each branch's from/to; remove it", Num(value)),
                ));
            }
        }
        if self.branches.is_empty() && self.orbit_diagram.is_none() {
            return Err(ContinuationError::invalid(
                "branches",
                "no branch and no orbit diagram: nothing to compute",
            ));
        }
        if self.branches.len() > MAX_BRANCHES {
            return Err(ContinuationError::invalid(
                "branches",
                format!("{} branches: at most {MAX_BRANCHES}", self.branches.len()),
            ));
        }
        for (i, b) in self.branches.iter().enumerate() {
            b.validate(family, &self.param)
                .map_err(|e| e.within(&format!("branches[{i}].")))?;
        }
        // Multiple shooting must apply to the model (not time-forced, multipliers not on the
        // section): checked on the model of the first branch (built above).
        if let Some(b) = self.branches.first() {
            if let Ok(model) = family.model_at(b.from) {
                self.settings
                    .shooting
                    .validate_for(&model)
                    .map_err(|e| crate::options::shooting_error(e).within("settings."))?;
            }
        }
        if let Some(d) = &self.orbit_diagram {
            d.validate_for(family)?;
        }
        // The curves' parameters by name, on the model at the first branch's start (checked
        // above).
        let model = match self.branches.first() {
            Some(b) if !self.curves.is_empty() => family.model_at(b.from).ok(),
            _ => None,
        };
        super::curves::validate_curves(self, model.as_ref().map(|m| m as &dyn EvalModel))
    }
}
