//! Step-size control shared by the adaptive methods: error weights and norm, the PI controller
//! and Hairer–Wanner's initial step estimate.
//!
//! With `w_i` the error weight (see [`ErrorWeight`]) and `e_i` the local error estimate, a step is
//! accepted when `err = ‖e / w‖ ≤ 1`. The next step is `h_new = h / fac` with
//! `fac = clamp(err^α / err_prev^β / safety, 1/max_growth, 1/min_shrink)`,
//! `α = 1/(q+1) − 0.75 β` (`q` the lower order of the pair): the PI controller of Gustafsson as
//! used in Hairer's `dopri5`/`dop853` (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.4;
//! Hairer & Wanner, *Solving ODEs II*, §IV.2). It is computed as
//! `h · clamp(err_prev^β safety / err^α, min_shrink, max_growth)`, one division. A
//! rejected step retries with `h / min(err^α / safety, 1/min_shrink)`, and the step after a
//! rejection does not grow.

use crate::options::{ErrorNorm, ErrorWeight, SolverOptions};
use crate::OdeError;

/// Error weight `w_i` of component `i` from the larger of the two magnitudes, with `rtol`
/// raised to [`crate::options::RTOL_FLOOR`].
#[inline(always)]
pub fn weight(opts: &SolverOptions, i: usize, y0: f64, y1: f64) -> f64 {
    let m = y0.abs().max(y1.abs());
    let a = opts.atol.get(i);
    let r = opts.rtol_in_use();
    match opts.weight {
        ErrorWeight::Sum => a + r * m,
        ErrorWeight::Max => (r * m).max(a),
    }
}

/// Accumulates a norm of scaled components `x_i / w_i`.
#[derive(Debug, Clone, Copy)]
pub struct NormAcc {
    kind: ErrorNorm,
    acc: f64,
    n: usize,
}

impl NormAcc {
    /// An empty accumulator of the given kind.
    #[inline(always)]
    pub fn new(kind: ErrorNorm) -> Self {
        Self {
            kind,
            acc: 0.0,
            n: 0,
        }
    }
    /// Adds one scaled component.
    #[inline(always)]
    pub fn add(&mut self, scaled: f64) {
        match self.kind {
            ErrorNorm::Rms => self.acc += scaled * scaled,
            // `max` would drop a NaN: keep it visible.
            ErrorNorm::Max => {
                let a = scaled.abs();
                if !(a <= self.acc) {
                    self.acc = a;
                }
            }
        }
        self.n += 1;
    }
    /// The norm (0 for no components).
    #[inline(always)]
    pub fn finish(self) -> f64 {
        match self.kind {
            ErrorNorm::Rms => self.finish_squared().sqrt(),
            ErrorNorm::Max => self.acc,
        }
    }
    /// The squared norm, without the square root that [`NormAcc::finish`] takes for the RMS
    /// norm (for formulas in `‖·‖²`, where the root would only be squared again).
    #[inline(always)]
    pub fn finish_squared(self) -> f64 {
        match self.kind {
            ErrorNorm::Rms if self.n > 0 => self.acc / self.n as f64,
            ErrorNorm::Rms => 0.0,
            ErrorNorm::Max => self.acc * self.acc,
        }
    }
}

/// Number of components in the error norm.
#[inline]
pub fn controlled_dims(opts: &SolverOptions, n: usize) -> usize {
    opts.error_dims.map_or(n, |m| m.min(n))
}

/// PI step-size controller state.
#[derive(Debug, Clone, Copy)]
pub struct PiController {
    alpha: f64,
    beta: f64,
    safety: f64,
    max_growth: f64,
    min_shrink: f64,
    /// How `err^α` is computed (square roots for the common exponents, else `powf`).
    root: Root,
    err_prev: f64,
    /// `err_prev^β`, kept so that each step needs one `powf`.
    err_prev_pow: f64,
    rejected_last: bool,
}

impl PiController {
    /// Controller for a pair whose lower order is `q`, with weight `β` on the previous error
    /// (the options' `pi_beta` or the method's own) and the options' safety and limits.
    ///
    /// It works for `α = 1/(q+1) − 0.75 β > β` only: with `err_prev = err` it settles where
    /// `err^(α−β) = safety`, an error below 1 only then (else the step shrinks until the step
    /// limit). Options validation allows `β < 0.5` for any method, so a `β` too large for this
    /// pair is an [`OdeError::InvalidOption`] here.
    pub fn new(q: u32, beta: f64, opts: &SolverOptions) -> Result<Self, OdeError> {
        let alpha = 1.0 / (q as f64 + 1.0) - 0.75 * beta;
        if !(alpha > beta) {
            return Err(OdeError::InvalidOption {
                field: "explicit.pi_beta",
                reason: "too large for this method: the PI controller needs \
                         1/(q+1) - 0.75 beta > beta, q the lower order of the pair \
                         (beta < 0.19 for BS23, < 0.114 for RKF45 and DP5, < 0.071 for DOP853)",
            });
        }
        Ok(Self {
            alpha,
            root: Root::of(alpha),
            beta,
            safety: opts.safety,
            max_growth: opts.max_growth,
            min_shrink: opts.min_shrink,
            err_prev: 1e-4,
            err_prev_pow: start_pow(beta),
            rejected_last: false,
        })
    }

    /// Whether `err` passes, and the next step size.
    #[inline]
    pub fn next(&mut self, h: f64, err: f64) -> (bool, f64) {
        let fac11 = self.root.pow(err, self.alpha);
        if err <= 1.0 {
            // `h / fac` as `h · (1/fac)`, with `1/fac` clamped to `[min_shrink, max_growth]`:
            // one division on the step-to-step critical path instead of two.
            let grow =
                (self.err_prev_pow * self.safety / fac11).clamp(self.min_shrink, self.max_growth);
            let mut h_new = h * grow;
            if self.rejected_last {
                h_new = h_new.min(h);
            }
            self.err_prev = err.max(1e-4);
            self.err_prev_pow = if self.beta == 0.0 {
                1.0
            } else {
                self.err_prev.powf(self.beta)
            };
            self.rejected_last = false;
            (true, h_new)
        } else {
            self.rejected_last = true;
            let fac = (fac11 / self.safety).min(1.0 / self.min_shrink);
            (false, h / fac)
        }
    }

    /// Forgets the error history (after a restart at an event).
    pub fn reset(&mut self) {
        self.err_prev = 1e-4;
        self.err_prev_pow = start_pow(self.beta);
        self.rejected_last = false;
    }
}

/// `err_prev^β` before the first step (`err_prev = 1e-4`); 1 without a `powf` call for β = 0.
fn start_pow(beta: f64) -> f64 {
    if beta == 0.0 {
        1.0
    } else {
        1e-4f64.powf(beta)
    }
}

/// `x^α` by square roots when `α` is 1/2, 1/4 or 1/8 (DOP853's exponent), which costs a few
/// cycles instead of a `powf` call; otherwise `powf`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Root {
    Sqrt(u8),
    Pow,
}

impl Root {
    fn of(alpha: f64) -> Self {
        match alpha {
            0.5 => Root::Sqrt(1),
            0.25 => Root::Sqrt(2),
            0.125 => Root::Sqrt(3),
            _ => Root::Pow,
        }
    }

    #[inline(always)]
    fn pow(self, x: f64, alpha: f64) -> f64 {
        match self {
            Root::Sqrt(k) => {
                let mut r = x.sqrt();
                for _ in 1..k {
                    r = r.sqrt();
                }
                r
            }
            Root::Pow => x.powf(alpha),
        }
    }
}

/// A vector field as a closure `(t, y, dy)`.
pub type RhsFn<'a> = dyn FnMut(f64, &[f64], &mut [f64]) + 'a;

/// Hairer–Wanner's initial step (*Solving ODEs I*, §II.4, algorithm "starting step size"):
/// `d₀ = ‖y₀‖`, `d₁ = ‖f₀‖`, `h₀ = 0.01 d₀/d₁`, one explicit Euler step to `y₁`,
/// `d₂ = ‖f(t₀+h₀, y₁) − f₀‖ / h₀`, `h₁ = (0.01 / max(d₁, d₂))^(1/(p+1))`, result
/// `min(100 h₀, h₁, h_max)`. Norms are RMS with weights `a_i + r |y₀,i|`. Uses one evaluation of
/// `f`, written through `f1` (scratch) with `y1` as scratch state.
#[allow(clippy::too_many_arguments)]
pub fn initial_step(
    rhs: &mut RhsFn<'_>,
    t0: f64,
    y0: &[f64],
    f0: &[f64],
    order: u32,
    opts: &SolverOptions,
    y1: &mut [f64],
    f1: &mut [f64],
) -> f64 {
    let m = controlled_dims(opts, y0.len());
    let sk = |i: usize| opts.atol.get(i) + opts.rtol * y0[i].abs();
    let (mut d0, mut d1) = (NormAcc::new(ErrorNorm::Rms), NormAcc::new(ErrorNorm::Rms));
    for i in 0..m {
        d0.add(y0[i] / sk(i));
        d1.add(f0[i] / sk(i));
    }
    let (d0, d1) = (d0.finish(), d1.finish());
    // Scaled norms too small to estimate from, or overflowing (tolerances far below the
    // rounding level of `y`): Hairer's fallback 1e-6.
    let mut h0 = if d0 < 1e-5 || d1 < 1e-5 || !(d0 * d1).is_finite() {
        1e-6
    } else {
        0.01 * d0 / d1
    };
    h0 = h0.min(opts.h_max);
    for i in 0..y0.len() {
        y1[i] = y0[i] + h0 * f0[i];
    }
    rhs(t0 + h0, y1, f1);
    let mut d2 = NormAcc::new(ErrorNorm::Rms);
    for i in 0..m {
        d2.add((f1[i] - f0[i]) / sk(i));
    }
    let d2 = d2.finish() / h0;
    let dm = d1.max(d2);
    let h1 = if dm <= 1e-15 || !dm.is_finite() {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / dm).powf(1.0 / (order as f64 + 1.0))
    };
    (100.0 * h0).min(h1).min(opts.h_max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_root_powers_agree_with_powf() {
        for alpha in [0.5, 0.25, 0.125] {
            let r = Root::of(alpha);
            assert!(matches!(r, Root::Sqrt(_)));
            for x in [0.0, 1e-300, 3.7e-9, 0.42, 1.0, 17.0, 6.1e12] {
                let (a, b) = (r.pow(x, alpha), x.powf(alpha));
                assert!(
                    (a - b).abs() <= 2.0 * f64::EPSILON * b,
                    "{x}^{alpha}: {a} vs {b}"
                );
            }
            assert!(r.pow(f64::NAN, alpha).is_nan());
        }
        assert_eq!(Root::of(0.17), Root::Pow);
    }

    #[test]
    fn controller_accepts_small_errors_and_bounds_growth() {
        let opts = SolverOptions::default();
        let mut c = PiController::new(4, 0.04, &opts).unwrap();
        let (ok, h) = c.next(0.1, 1e-12);
        assert!(ok && (h - 1.0).abs() < 1e-12, "growth capped at 10: {h}");
        let (ok, h) = c.next(0.1, 1e6);
        assert!(!ok && (h - 0.02).abs() < 1e-12, "shrink capped at 0.2: {h}");
        let (ok, h2) = c.next(0.02, 1e-12);
        assert!(ok && h2 <= 0.02, "no growth right after a rejection");
    }

    #[test]
    fn norms() {
        let mut a = NormAcc::new(ErrorNorm::Rms);
        a.add(3.0);
        a.add(4.0);
        assert!((a.finish() - (12.5f64).sqrt()).abs() < 1e-15);
        let mut m = NormAcc::new(ErrorNorm::Max);
        m.add(-3.0);
        m.add(f64::NAN);
        assert!(m.finish().is_nan());
    }
}
