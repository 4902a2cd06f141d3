//! Named parameters: every model has an explicit parameter vector
//! ([`EvalModel::param_names`], [`EvalModel::param_value`], [`EvalModel::set_param_value`]);
//! these helpers address it by name, for RON model files, the CLI's `--set name=value` and
//! continuation. An unknown name is a typed error listing the valid names.

use crate::{EvalModel, Scalar};
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

/// The parameter values `values` as scalars, with entry `k` replaced by `p` when `with` is
/// `Some((k, p))`: a model's parameter set for its `*_with_param` functions
/// ([`EvalModel::flow_with_param`]), so that one generic function serves both the plain
/// evaluation (`with = None`) and the derivative in any one parameter.
pub fn param_scalars<D: Scalar, const N: usize>(
    values: [f64; N],
    with: Option<(usize, D)>,
) -> [D; N] {
    let mut out = values.map(D::from);
    if let Some((k, p)) = with {
        if let Some(slot) = out.get_mut(k) {
            *slot = p;
        }
    }
    out
}

/// Implements [`EvalModel::param_names`], [`EvalModel::param_value`] and
/// [`EvalModel::set_param_value`] inside an `impl EvalModel` block for parameters held in
/// `f64` fields, each with its public name:
///
/// ```ignore
/// impl EvalModel for Walker {
///     saltation_hybrid::named_params!("gamma" => params.gamma);
///     // …
/// }
/// ```
///
/// Setting checks the value is finite, then calls [`EvalModel::check_params`] and restores the
/// old value if that fails.
#[macro_export]
macro_rules! named_params {
    ($($name:literal => $($field:ident).+),+ $(,)?) => {
        fn param_names(&self) -> ::std::vec::Vec<::std::string::String> {
            ::std::vec![$(::std::string::String::from($name)),+]
        }
        fn param_value(&self, k: usize) -> ::std::option::Option<f64> {
            [$(self.$($field).+),+].get(k).copied()
        }
        fn set_param_value(&mut self, k: usize, value: f64) -> ::std::result::Result<(), $crate::ParamError> {
            let names = [$($name),+];
            let Some(name) = names.get(k) else {
                return Err($crate::ParamError::Unknown {
                    name: ::std::format!("#{k}"),
                    known: self.param_names(),
                });
            };
            if !value.is_finite() {
                return Err($crate::ParamError::NonFinite { name: (*name).into(), value });
            }
            let old = ::std::mem::replace([$(&mut self.$($field).+),+][k], value);
            if let Err(e) = self.check_params() {
                *[$(&mut self.$($field).+),+][k] = old;
                return Err(e);
            }
            Ok(())
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scalar;

    #[derive(Debug, Clone, PartialEq)]
    struct P {
        a: f64,
        b: f64,
    }

    impl EvalModel for P {
        crate::named_params!("a" => a, "b_name" => b);
        fn name(&self) -> &str {
            "p"
        }
        fn dim(&self) -> usize {
            1
        }
        fn flow<D: Scalar>(&self, _: usize, _: f64, _: &[D], dx: &mut [D]) {
            dx[0] = D::from(self.a);
        }
        fn guards(&self, _: usize) -> usize {
            0
        }
        fn guard<D: Scalar>(&self, _: usize, _: usize, x: &[D]) -> D {
            x[0]
        }
        fn describe_guard(&self, _: usize, _: usize) -> crate::Guard<Self> {
            crate::Guard::to(0)
        }
        fn check_params(&self) -> Result<(), ParamError> {
            check_range("b_name", self.b, self.b > 0.0, "b > 0")
        }
    }

    #[test]
    fn by_name_and_errors() {
        let p = P { a: 1.0, b: 2.0 };
        assert_eq!(p.param_names(), ["a", "b_name"]);
        assert_eq!(get_param(&p, "b_name").unwrap(), 2.0);
        assert_eq!(with_param(&p, "a", 3.0).unwrap(), P { a: 3.0, b: 2.0 });
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
