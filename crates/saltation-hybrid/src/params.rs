//! Named parameters: read and change a serde parameter struct's numeric fields by name.
//!
//! Used by RON model files and the CLI's `--set name=value`: the struct is serialised to a map,
//! the field replaced, and the struct deserialised back, so unknown names and non-numeric fields
//! are typed errors that list the valid names.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
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
    /// The field is not a number, or is an integer given a fractional value.
    #[error("parameter `{name}` is not a number, or is an integer given a fractional value")]
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
    /// The parameter struct could not be converted (a model bug).
    #[error("parameter struct could not be converted: {reason}")]
    Conversion {
        /// The serde message.
        reason: String,
    },
}

/// Largest magnitude an integer parameter may be set to from a number (`2⁵³`: above it not
/// every integer is a float).
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

const MAX_INTEGER: f64 = 9_007_199_254_740_992.0;

/// A parameter check for [`crate::HybridModel::check_params`]: `value` must be finite
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

fn to_map<P: Serialize>(p: &P) -> Result<serde_json::Map<String, Value>, ParamError> {
    match serde_json::to_value(p) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(ParamError::Conversion {
            reason: "parameters are not a struct with named fields".into(),
        }),
        Err(e) => Err(ParamError::Conversion {
            reason: e.to_string(),
        }),
    }
}

/// Names of the numeric fields of `p`.
pub fn param_names<P: Serialize>(p: &P) -> Vec<String> {
    to_map(p)
        .map(|m| {
            m.into_iter()
                .filter(|(_, v)| v.is_number())
                .map(|(k, _)| k)
                .collect()
        })
        .unwrap_or_default()
}

/// Value of the numeric field `name`.
pub fn get_param<P: Serialize>(p: &P, name: &str) -> Result<f64, ParamError> {
    let m = to_map(p)?;
    match m.get(name) {
        Some(v) => v
            .as_f64()
            .ok_or_else(|| ParamError::NotNumeric { name: name.into() }),
        None => Err(ParamError::Unknown {
            name: name.into(),
            known: param_names(p),
        }),
    }
}

/// A copy of `p` with the numeric field `name` set to `value`.
pub fn set_param<P: Serialize + DeserializeOwned>(
    p: &P,
    name: &str,
    value: f64,
) -> Result<P, ParamError> {
    if !value.is_finite() {
        return Err(ParamError::NonFinite {
            name: name.into(),
            value,
        });
    }
    let mut m = to_map(p)?;
    match m.get_mut(name) {
        Some(v) if v.is_number() => {
            *v = if v.is_u64() || v.is_i64() {
                // Integer fields (e.g. a number of spokes) take integral values only, and only
                // those a float holds exactly (no saturating cast of 1e20).
                if value.fract() != 0.0 {
                    return Err(ParamError::NotNumeric { name: name.into() });
                }
                if value.abs() > MAX_INTEGER {
                    return Err(ParamError::OutOfRange {
                        name: name.into(),
                        value,
                        range: "an integer of magnitude at most 2^53",
                    });
                }
                Value::from(value as i64)
            } else {
                Value::from(value)
            }
        }
        Some(_) => return Err(ParamError::NotNumeric { name: name.into() }),
        None => {
            return Err(ParamError::Unknown {
                name: name.into(),
                known: param_names(p),
            })
        }
    }
    // The only field changed is `name`: a failure here is a value its type cannot hold (a
    // negative count, an integer beyond the field's width).
    serde_json::from_value(Value::Object(m)).map_err(|_| ParamError::OutOfRange {
        name: name.into(),
        value,
        range: "a value the parameter's type can hold",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct P {
        gamma: f64,
        spokes: u32,
        label: String,
    }

    #[test]
    fn set_get_and_errors() {
        let p = P {
            gamma: 0.009,
            spokes: 6,
            label: "x".into(),
        };
        let q = set_param(&p, "gamma", 0.01).unwrap();
        assert_eq!(q.gamma, 0.01);
        assert_eq!(get_param(&q, "spokes").unwrap(), 6.0);
        assert_eq!(set_param(&p, "spokes", 8.0).unwrap().spokes, 8);
        assert!(matches!(
            set_param(&p, "spokes", 8.5),
            Err(ParamError::NotNumeric { .. })
        ));
        match set_param(&p, "gama", 1.0) {
            Err(ParamError::Unknown { known, .. }) => {
                assert_eq!(known, vec!["gamma".to_string(), "spokes".to_string()])
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            set_param(&p, "label", 1.0),
            Err(ParamError::NotNumeric { .. })
        ));
        assert!(matches!(
            set_param(&p, "gamma", f64::NAN),
            Err(ParamError::NonFinite { .. })
        ));
    }
}
