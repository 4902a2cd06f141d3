//! Numbers as text that never runs to hundreds of digits: Rust's `{}` and `{:.12}` print
//! `1e300` with 301 digits, so magnitudes outside a moderate range switch to exponent notation.

/// Shortest round-trip form ([`shortest`]) below this magnitude uses exponent notation.
const SHORTEST_SMALL: f64 = 1e-5;
/// Shortest round-trip form at or above this magnitude uses exponent notation.
const SHORTEST_LARGE: f64 = 1e15;
/// Fixed-decimal form ([`fixed`]) below this magnitude uses exponent notation (the decimals
/// would hold mostly leading zeros).
const FIXED_SMALL: f64 = 1e-4;
/// Fixed-decimal form at or above this magnitude uses exponent notation.
const FIXED_LARGE: f64 = 1e9;
/// More decimals than an `f64` holds are noise: requests are clamped to this.
const MAX_DECIMALS: usize = 17;

/// The shortest text that reads back as `x` (CSV fields): plain for moderate magnitudes
/// (`0.015`, `-2`), exponent notation outside `[1e-5, 1e15)` (`1e300`, `3.2e-17`); `NaN`, `inf`,
/// `-inf` as Rust prints them. At most about 25 characters.
pub fn shortest(x: f64) -> String {
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (SHORTEST_SMALL..SHORTEST_LARGE).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// `x` with `decimals` decimals (clamped to 17) for moderate magnitudes (`0.015000000000`),
/// and with `decimals` decimals of the mantissa in exponent notation outside `[1e-4, 1e9)`
/// (`1.000000000000e300`); zero and non-finite values as Rust prints them.
pub fn fixed(x: f64, decimals: usize) -> String {
    let d = decimals.min(MAX_DECIMALS);
    let a = x.abs();
    if x == 0.0 || !x.is_finite() || (FIXED_SMALL..FIXED_LARGE).contains(&a) {
        format!("{x:.d$}")
    } else {
        format!("{x:.d$e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_is_round_trip_and_short() {
        for (x, s) in [
            (0.015, "0.015"),
            (-2.0, "-2"),
            (0.0, "0"),
            (1e300, "1e300"),
            (-3.2e-17, "-3.2e-17"),
            (1e15, "1e15"),
            (123456.75, "123456.75"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "inf"),
        ] {
            assert_eq!(shortest(x), s);
        }
        for x in [
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            -1.234_567_890_123_456_7e-200,
        ] {
            let s = shortest(x);
            assert!(s.len() <= 25, "{s}");
            assert_eq!(s.parse::<f64>().ok(), Some(x));
        }
    }

    #[test]
    fn fixed_switches_to_exponent() {
        assert_eq!(fixed(0.2, 12), "0.200000000000");
        assert_eq!(fixed(-1.5, 3), "-1.500");
        assert_eq!(fixed(0.0, 2), "0.00");
        assert_eq!(fixed(1e300, 3), "1.000e300");
        assert_eq!(fixed(2.5e-7, 2), "2.50e-7");
        assert_eq!(fixed(f64::NEG_INFINITY, 4), "-inf");
        assert!(fixed(f64::MAX, usize::MAX).len() < 30);
    }
}
