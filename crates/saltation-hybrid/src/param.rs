//! Parameters declared as data: a model lists its parameters once ([`Param`]: name, default,
//! valid range) and every formula receives their values as a slice `p` (in the order of the
//! declarations). The values live in one vector beside the model ([`crate::Bound`]); checking
//! them against the declarations is one generic function ([`check_values`]).

use crate::ParamError;
use std::borrow::Cow;

/// One end of a parameter's valid range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// Unbounded on this side.
    None,
    /// The value itself is allowed (`≤` / `≥`).
    Closed(f64),
    /// The value itself is excluded (`<` / `>`).
    Open(f64),
}

impl Limit {
    /// Whether `v` lies on the allowed side of this limit as a lower bound.
    fn admits_from_below(self, v: f64) -> bool {
        match self {
            Limit::None => true,
            Limit::Closed(a) => v >= a,
            Limit::Open(a) => v > a,
        }
    }
    /// Whether `v` lies on the allowed side of this limit as an upper bound.
    fn admits_from_above(self, v: f64) -> bool {
        match self {
            Limit::None => true,
            Limit::Closed(b) => v <= b,
            Limit::Open(b) => v < b,
        }
    }
    /// The bound's value, if any.
    fn value(self) -> Option<f64> {
        match self {
            Limit::None => None,
            Limit::Closed(a) | Limit::Open(a) => Some(a),
        }
    }
}

/// The declaration of one parameter: its name, default value and valid range.
///
/// ```
/// use saltation_hybrid::Param;
/// // Slope γ in radians, |γ| < π/2.
/// const GAMMA: Param = Param::new("gamma", 0.009)
///     .open_range(-std::f64::consts::FRAC_PI_2, std::f64::consts::FRAC_PI_2)
///     .described("|gamma| < pi/2 (slope in radians)");
/// assert!(GAMMA.check(0.01).is_ok() && GAMMA.check(2.0).is_err());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The name files, `--set` and continuation use.
    pub name: Cow<'static, str>,
    /// The value a model starts with.
    pub default: f64,
    /// Lower end of the valid range.
    pub min: Limit,
    /// Upper end of the valid range.
    pub max: Limit,
    /// Whether only whole numbers are valid (a count, such as a wheel's number of spokes).
    pub integer: bool,
    /// The valid range in words for error messages (`None`: written from `min` and `max`).
    pub range: Option<&'static str>,
}

impl Param {
    /// A parameter `name` with default `default`, any finite value valid.
    pub const fn new(name: &'static str, default: f64) -> Self {
        Self {
            name: Cow::Borrowed(name),
            default,
            min: Limit::None,
            max: Limit::None,
            integer: false,
            range: None,
        }
    }

    /// A parameter whose name is only known at run time (an equation model's).
    pub fn named(name: String, default: f64) -> Self {
        Self {
            name: Cow::Owned(name),
            ..Self::new("", default)
        }
    }

    /// Valid values `min ≤ v ≤ max`.
    pub const fn range(mut self, min: f64, max: f64) -> Self {
        self.min = Limit::Closed(min);
        self.max = Limit::Closed(max);
        self
    }

    /// Valid values `min < v < max`.
    pub const fn open_range(mut self, min: f64, max: f64) -> Self {
        self.min = Limit::Open(min);
        self.max = Limit::Open(max);
        self
    }

    /// Sets the lower limit.
    pub const fn above(mut self, min: Limit) -> Self {
        self.min = min;
        self
    }

    /// Sets the upper limit.
    pub const fn below(mut self, max: Limit) -> Self {
        self.max = max;
        self
    }

    /// Only whole numbers are valid.
    pub const fn integer(mut self) -> Self {
        self.integer = true;
        self
    }

    /// The valid range in words, as error messages should say it.
    pub const fn described(mut self, range: &'static str) -> Self {
        self.range = Some(range);
        self
    }

    /// Checks one value: finite ([`ParamError::NonFinite`]), whole if it must be
    /// ([`ParamError::NotNumeric`]) and in range ([`ParamError::OutOfRange`] with the words of
    /// [`Param::described`], else [`ParamError::OutOfBounds`]).
    pub fn check(&self, value: f64) -> Result<(), ParamError> {
        let name = || self.name.to_string();
        if !value.is_finite() {
            return Err(ParamError::NonFinite {
                name: name(),
                value,
            });
        }
        if self.integer && value.fract() != 0.0 {
            return Err(ParamError::NotNumeric { name: name() });
        }
        if self.min.admits_from_below(value) && self.max.admits_from_above(value) {
            return Ok(());
        }
        Err(match self.range {
            Some(range) => ParamError::OutOfRange {
                name: name(),
                value,
                range,
            },
            None => ParamError::OutOfBounds {
                name: name(),
                value,
                min: self.min.value(),
                max: self.max.value(),
            },
        })
    }
}

/// The declared defaults, in order.
pub fn defaults(params: &[Param]) -> Vec<f64> {
    params.iter().map(|p| p.default).collect()
}

/// Checks every value against its declaration (the lengths must agree:
/// [`ParamError::Count`]).
pub fn check_values(params: &[Param], values: &[f64]) -> Result<(), ParamError> {
    if params.len() != values.len() {
        return Err(ParamError::Count {
            expected: params.len(),
            got: values.len(),
        });
    }
    params.iter().zip(values).try_for_each(|(p, &v)| p.check(v))
}

/// Index of the parameter called `name` among `params` ([`ParamError::Unknown`] listing the
/// known names).
pub fn index_of(params: &[Param], name: &str) -> Result<usize, ParamError> {
    params
        .iter()
        .position(|p| p.name == name)
        .ok_or_else(|| ParamError::Unknown {
            name: name.into(),
            known: params.iter().map(|p| p.name.to_string()).collect(),
        })
}

/// Runs `f` with the values `p` as scalars of type `D`, entry `k` replaced by `pk` when `with`
/// is `Some((k, pk))` (a dual number carries `∂/∂p_k`); on the stack for up to 16 parameters.
pub fn with_scalars<D: crate::Scalar, R>(
    p: &[f64],
    with: Option<(usize, D)>,
    f: impl FnOnce(&[D]) -> R,
) -> R {
    crate::with_buffer(D::from(0.0), p.len(), |buf| {
        for (b, &v) in buf.iter_mut().zip(p) {
            *b = D::from(v);
        }
        if let Some((k, pk)) = with {
            if let Some(slot) = buf.get_mut(k) {
                *slot = pk;
            }
        }
        f(buf)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: Param = Param::new("n", 6.0)
        .above(Limit::Closed(3.0))
        .integer()
        .described("n >= 3 spokes");
    const K: Param = Param::new("k", 1.0).above(Limit::Open(0.0));

    #[test]
    fn limits_integers_and_messages() {
        assert!(N.check(3.0).is_ok());
        assert!(matches!(N.check(2.0), Err(ParamError::OutOfRange { .. })));
        assert!(matches!(N.check(4.5), Err(ParamError::NotNumeric { .. })));
        assert!(matches!(
            K.check(f64::NAN),
            Err(ParamError::NonFinite { .. })
        ));
        let e = K.check(0.0).unwrap_err();
        assert!(matches!(
            e,
            ParamError::OutOfBounds {
                min: Some(0.0),
                max: None,
                ..
            }
        ));
        assert!(e.to_string().contains("k"), "{e}");
        assert!(K.check(1e-300).is_ok());
    }

    #[test]
    fn values_checked_in_order_and_by_count() {
        let decl = [N, K];
        assert_eq!(defaults(&decl), vec![6.0, 1.0]);
        assert!(check_values(&decl, &[4.0, 2.0]).is_ok());
        assert!(matches!(
            check_values(&decl, &[4.0]),
            Err(ParamError::Count {
                expected: 2,
                got: 1
            })
        ));
        assert_eq!(index_of(&decl, "k").unwrap(), 1);
        assert!(matches!(
            index_of(&decl, "m"),
            Err(ParamError::Unknown { .. })
        ));
    }

    #[test]
    fn scalars_with_one_entry_replaced() {
        let s = with_scalars(&[1.0, 2.0, 3.0], Some((1, 5.0)), |p: &[f64]| p.to_vec());
        assert_eq!(s, vec![1.0, 5.0, 3.0]);
        let s = with_scalars(&[1.0], Some((4, 5.0)), |p: &[f64]| p.to_vec());
        assert_eq!(s, vec![1.0]);
    }
}
