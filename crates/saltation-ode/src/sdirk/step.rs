//! Step-size control of the second-order one-step stiff methods.
//!
//! With `err = ‖e / w‖` the scaled local error estimate of a method of order `p` (estimate of
//! order `p + 1`), the next step is the elementary controller (Hairer, Nørsett & Wanner,
//! *Solving ODEs I*, §II.4)
//!
//! ```text
//!     h_new = h · min(max_growth, max(min_shrink, safety · (1 / err)^(1/(p+1)))),
//! ```
//!
//! `p = 2` (exponent 1/3; 1/2 for the first-order estimate of the trapezoidal code's start step).
//! After a rejection the step does not grow; a NaN error shrinks by `min_shrink`. The implicit
//! codes keep `h` when the proposal is within `[1, 1.2]` of it, so that the factored iteration
//! matrix can be reused (as MATLAB's `ode23t` and `ode23tb` do).

use crate::SolverOptions;

/// Factor `h_new / h` for the error `err` with exponent `1/(p+1) = exponent`. `after_reject`:
/// the last attempt was rejected (no growth); `hold`: keep `h` for proposals in `[1, 1.2]`.
pub(crate) fn step_ratio(
    err: f64,
    exponent: f64,
    opts: &SolverOptions,
    after_reject: bool,
    hold: bool,
) -> f64 {
    if err.is_nan() {
        return opts.min_shrink;
    }
    let raw = opts.safety * err.powf(-exponent);
    let mut r = if raw.is_nan() {
        opts.min_shrink
    } else {
        raw.clamp(opts.min_shrink, opts.max_growth)
    };
    if err <= 1.0 {
        if after_reject {
            r = r.min(1.0);
        }
        if hold && (1.0..=1.2).contains(&r) {
            r = 1.0;
        }
    }
    r
}

/// The smallest step allowed at `t`: `max(h_min, 16 ε |t|, MIN_POSITIVE)`.
pub(crate) fn step_floor(opts: &SolverOptions, t: f64) -> f64 {
    opts.h_min
        .max(16.0 * f64::EPSILON * t.abs())
        .max(f64::MIN_POSITIVE)
}

/// The step towards `t_stop` from `t` with proposal `h`: `(h, last)`, `last` when the step lands
/// exactly on `t_stop` (a proposal within a relative `1e-12` of the remaining span takes it
/// whole, avoiding a sliver of a last step).
pub(crate) fn clip_step(h: f64, t: f64, t_stop: f64, opts: &SolverOptions) -> (f64, bool) {
    let remaining = t_stop - t;
    let h = h.min(opts.h_max);
    if h >= remaining * (1.0 - 1e-12) {
        (remaining, true)
    } else {
        (h, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_follows_the_elementary_controller() {
        let o = SolverOptions::default();
        let third = 1.0 / 3.0;
        // err = 1/8: 0.9 · 2 = 1.8.
        assert!((step_ratio(0.125, third, &o, false, false) - 1.8).abs() < 1e-12);
        assert_eq!(step_ratio(0.0, third, &o, false, false), 10.0);
        assert_eq!(step_ratio(1e9, third, &o, false, false), 0.2);
        assert_eq!(step_ratio(f64::NAN, third, &o, false, false), 0.2);
        // No growth after a rejection, and the hold band.
        assert_eq!(step_ratio(0.125, third, &o, true, false), 1.0);
        assert_eq!(step_ratio(0.5, third, &o, false, true), 1.0);
        // A rejected step shrinks: err = 8 → 0.45.
        assert!((step_ratio(8.0, third, &o, false, true) - 0.45).abs() < 1e-12);
    }
}
