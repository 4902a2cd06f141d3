//! Constant expressions: a number in a file written as an expression of literals, `pi` and the
//! built-in functions — `2*pi*10`, `sqrt(2)/2`, `9.81*cos(0.1)` — evaluated once when the file
//! is read. [`Number`] reads either form from any serde format.

use crate::{compile, Definitions, ExprError, Names};
use std::fmt;

/// Why a constant expression has no value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ConstantError {
    /// Not a valid expression, or one naming something other than `pi` (states, parameters
    /// and `t` do not exist here).
    #[error("`{text}`: {error} (at character {})", error.offset)]
    Expression {
        /// The text as written.
        text: String,
        /// What is wrong with it.
        error: Box<ExprError>,
    },
    /// The expression reads the time `t`.
    #[error("`{text}` reads the time `t`: a constant may use numbers, `pi` and functions only")]
    UsesTime {
        /// The text as written.
        text: String,
    },
    /// The value is NaN or infinite (`1/0`, `log(-1)`).
    #[error("`{text}` is {value}, not a finite number")]
    NotFinite {
        /// The text as written.
        text: String,
        /// The value.
        value: f64,
    },
}

/// The value of the constant expression `text` (numbers, `pi`, operators and functions).
pub fn constant(text: &str) -> Result<f64, ConstantError> {
    let names = Names {
        states: &[],
        params: &[],
    };
    let program =
        compile(&[text], &Definitions::default(), &names).map_err(|error| match error.kind {
            // Folded at compile time: the whole constant, or a part of it, is not finite.
            crate::ExprErrorKind::NotFinite { value } => ConstantError::NotFinite {
                text: text.to_string(),
                value,
            },
            _ => ConstantError::Expression {
                text: text.to_string(),
                error: Box::new(error),
            },
        })?;
    if program.uses_time() {
        return Err(ConstantError::UsesTime {
            text: text.to_string(),
        });
    }
    let mut out = [0.0];
    program.eval(0.0, &[], &[], &mut out);
    match out[0] {
        v if v.is_finite() => Ok(v),
        value => Err(ConstantError::NotFinite {
            text: text.to_string(),
            value,
        }),
    }
}

/// A number read from a file: a number literal, or a string holding a constant expression
/// (`"2*pi*10"`, see [`constant`]). Non-finite values are passed on as read, for the reader's
/// own range check to report with its place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(pub f64);

impl<'de> serde::Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, or a constant expression in quotes such as \"2*pi*10\"")
            }
            fn visit_f64<E>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Number, E> {
                constant(v).map(Number).map_err(E::custom)
            }
        }
        de.deserialize_any(Visit)
    }
}

/// For `#[serde(deserialize_with = "saltation_equations::number")]` on an `f64` field: reads a
/// [`Number`].
pub fn number<'de, D: serde::Deserializer<'de>>(de: D) -> Result<f64, D::Error> {
    <Number as serde::Deserialize>::deserialize(de).map(|n| n.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_expressions_evaluate() {
        assert_eq!(constant("2*pi*10"), Ok(2.0 * std::f64::consts::PI * 10.0));
        assert_eq!(constant("sqrt(2)/2"), Ok(2f64.sqrt() / 2.0));
        assert_eq!(constant("-0.5"), Ok(-0.5));
    }

    #[test]
    fn constant_expressions_refuse_names_time_and_non_finite_values() {
        let e = constant("2*gamma").unwrap_err().to_string();
        assert!(
            e.contains("unknown name `gamma`") && e.contains("character 2"),
            "{e}"
        );
        assert!(matches!(
            constant("t + 1"),
            Err(ConstantError::UsesTime { .. })
        ));
        assert!(matches!(
            constant("1/0"),
            Err(ConstantError::NotFinite { .. })
        ));
        assert!(matches!(
            constant("log(-1)"),
            Err(ConstantError::NotFinite { .. })
        ));
        assert!(matches!(
            constant("2*"),
            Err(ConstantError::Expression { .. })
        ));
    }
}
