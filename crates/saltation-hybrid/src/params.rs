//! Named parameters: every model has an explicit parameter vector
//! ([`EvalModel::param_names`], [`EvalModel::param_value`], [`EvalModel::set_param_value`]);
//! these helpers address it by name, for RON model files, the CLI's `--set name=value` and
//! continuation. An unknown name is a typed error listing the valid names.

use crate::EvalModel;
use thiserror::Error;

/// A parameter could not be read or set.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ParamError {
    /// No field of that name.
    #[error("unknown parameter `{name}` (known: {})", known.join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
        /// The numeric parameters the model has.
        known: Vec<String>,
    },
    /// An integer parameter (a count) given a fractional value.
    #[error("parameter `{name}` is an integer and cannot take a fractional value")]
    NotNumeric {
        /// The field.
        name: String,
    },
    /// The value is not finite.
    #[error("parameter `{name}` = {value} is not finite (a parameter must be a finite number)")]
    NonFinite {
        /// The field.
        name: String,
        /// The value.
        value: f64,
    },
    /// The value is outside the parameter's physical range.
    #[error("parameter `{name}` = {} is out of range: {range}", saltation_ode::Num(*value))]
    OutOfRange {
        /// The field.
        name: String,
        /// The value.
        value: f64,
        /// The valid range in words, e.g. "|γ| < π/2 (slope in radians)".
        range: &'static str,
    },
    /// The model cannot be built with the value (the reason in the model's words).
    #[error("parameter `{name}` = {} is rejected: {reason}", saltation_ode::Num(*value))]
    Rejected {
        /// Parameter name.
        name: String,
        /// Rejected value.
        value: f64,
        /// Why.
        reason: String,
    },
    /// A parameter vector of the wrong length for the model's declarations.
    #[error("{got} parameter values given, the model declares {expected}")]
    Count {
        /// Declared parameters.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// The value is outside the bounds declared with the parameter (equation models).
    #[error(
        "parameter `{name}` = {} is out of range: {}",
        saltation_ode::Num(*value),
        bounds_text(name, *min, *max)
    )]
    OutOfBounds {
        /// Parameter name.
        name: String,
        /// Rejected value.
        value: f64,
        /// Smallest valid value, if bounded below.
        min: Option<f64>,
        /// Largest valid value, if bounded above.
        max: Option<f64>,
    },
}

/// `min <= name <= max` with the bounds that exist.
fn bounds_text(name: &str, min: Option<f64>, max: Option<f64>) -> String {
    use saltation_ode::Num;
    match (min, max) {
        (Some(a), Some(b)) => format!("{} <= {name} <= {}", Num(a), Num(b)),
        (Some(a), None) => format!("{name} >= {}", Num(a)),
        (None, Some(b)) => format!("{name} <= {}", Num(b)),
        (None, None) => "any finite value".into(),
    }
}

/// A parameter check for [`crate::EvalModel::check_params`]: `value` must be finite
/// ([`ParamError::NonFinite`]) and `ok` (the caller's range test) must hold
/// ([`ParamError::OutOfRange`] with `range` in words).
pub fn check_range(
    name: &str,
    value: f64,
    ok: bool,
    range: &'static str,
) -> Result<(), ParamError> {
    if !value.is_finite() {
        return Err(ParamError::NonFinite {
            name: name.into(),
            value,
        });
    }
    if ok {
        Ok(())
    } else {
        Err(ParamError::OutOfRange {
            name: name.into(),
            value,
            range,
        })
    }
}

/// Index of the parameter called `name` ([`ParamError::Unknown`] listing the known names).
pub fn param_index<M: EvalModel + ?Sized>(model: &M, name: &str) -> Result<usize, ParamError> {
    let names = model.param_names();
    names
        .iter()
        .position(|n| n == name)
        .ok_or_else(|| ParamError::Unknown {
            name: name.into(),
            known: names,
        })
}

/// Value of the parameter called `name`.
pub fn get_param<M: EvalModel + ?Sized>(model: &M, name: &str) -> Result<f64, ParamError> {
    let k = param_index(model, name)?;
    model.param_value(k).ok_or_else(|| ParamError::Unknown {
        name: name.into(),
        known: model.param_names(),
    })
}

/// A copy of `model` with the parameter called `name` set to `value` (checked by the model's
/// [`EvalModel::set_param_value`]).
pub fn with_param<M: EvalModel + Clone>(
    model: &M,
    name: &str,
    value: f64,
) -> Result<M, ParamError> {
    let k = param_index(model, name)?;
    let mut m = model.clone();
    m.set_param_value(k, value)?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bound, GuardSpec, HybridModel, Param, Scalar};

    #[derive(Debug, Clone, PartialEq)]
    struct P;

    impl HybridModel for P {
        type Guard = usize;
        fn name(&self) -> &str {
            "p"
        }
        fn dim(&self) -> usize {
            1
        }
        fn params(&self) -> &[Param] {
            const PARAMS: &[Param] = &[Param::new("a", 1.0), Param::new("b_name", 2.0)];
            PARAMS
        }
        fn check_params(&self, p: &[f64]) -> Result<(), ParamError> {
            check_range("b_name", p[1], p[1] > 0.0, "b > 0")
        }
        fn flow<D: Scalar>(&self, p: &[D], _: usize, _: f64, _: &[D], dx: &mut [D]) {
            dx[0] = p[0];
        }
        fn guards(&self, _: usize) -> &[usize] {
            &[]
        }
        fn describe(&self, _: usize, _: usize) -> GuardSpec {
            GuardSpec::to(0)
        }
        fn guard<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D], out: &mut [D]) {
            out.copy_from_slice(x);
        }
    }

    #[test]
    fn by_name_and_errors() {
        let p = Bound::new(P);
        assert_eq!(p.param_names(), ["a", "b_name"]);
        assert_eq!(get_param(&p, "b_name").unwrap(), 2.0);
        assert_eq!(with_param(&p, "a", 3.0).unwrap().values(), [3.0, 2.0]);
        match with_param(&p, "c", 1.0) {
            Err(ParamError::Unknown { known, .. }) => assert_eq!(known, ["a", "b_name"]),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            with_param(&p, "a", f64::NAN),
            Err(ParamError::NonFinite { .. })
        ));
        // Out of range: an error, and the model keeps its old value.
        let mut q = p.clone();
        assert!(matches!(
            q.set_param_value(1, -1.0),
            Err(ParamError::OutOfRange { .. })
        ));
        assert_eq!(q, p);
        assert!(matches!(
            q.set_param_value(2, 1.0),
            Err(ParamError::Unknown { .. })
        ));
        assert_eq!(p.param_value(2), None);
    }
}
