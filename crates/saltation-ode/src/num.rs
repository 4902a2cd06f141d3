//! Numbers in messages: short, and never hundreds of digits.

use std::fmt;

/// Displays an `f64` in its shortest round-trip form, plain for magnitudes in `[1e-4, 1e6)` (and
/// 0, ±∞, NaN) and in exponent notation otherwise: `Num(0.5)` is `0.5`, `Num(5e-324)` is
/// `5e-324`, not 324 digits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.0;
        if v == 0.0 || !v.is_finite() || (1e-4..1e6).contains(&v.abs()) {
            write!(f, "{v}")
        } else {
            write!(f, "{v:e}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Num;

    #[test]
    fn short_forms() {
        assert_eq!(Num(0.5).to_string(), "0.5");
        assert_eq!(Num(-3.25).to_string(), "-3.25");
        assert_eq!(Num(5e-324).to_string(), "5e-324");
        assert_eq!(Num(1e300).to_string(), "1e300");
        assert_eq!(Num(123456.5).to_string(), "123456.5");
        assert_eq!(Num(f64::NAN).to_string(), "NaN");
        assert_eq!(Num(0.0).to_string(), "0");
    }
}
