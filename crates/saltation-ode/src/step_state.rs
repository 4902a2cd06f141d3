//! The state every stepper carries from step to step, and the bookkeeping of its attempts.
//!
//! Each method family keeps its own workspace (stages, Newton vectors, difference tables), but
//! all of them sit at a current point `(t, y)` with the derivative `f` reported there, remember
//! the start `(t_prev, y_prev, f_prev)` of the last accepted step for [`Stepper::ends`] and the
//! dense output, and propose the size of the next step. [`StepState`] holds that, with what
//! every family does with it the same way: the not-started check, the accessors of
//! [`Stepper`], sitting at a point (start, truncation), moving the current point to the previous
//! one on acceptance, the step floor, the landing on `t_stop`, and the retries of a rejected
//! attempt with a smaller step down to that floor.
//!
//! [`Stepper`]: crate::Stepper
//! [`Stepper::ends`]: crate::Stepper::ends

use crate::stepper::{all_finite, initial_rhs, zeroed, StepEnds};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// The current point, the start of the last accepted step and the next step size of a stepper.
#[derive(Debug, Clone, Default)]
pub(crate) struct StepState {
    /// Full state length (state plus variational columns).
    pub n: usize,
    /// Current time (end of the last accepted step).
    pub t: f64,
    /// Start of the last accepted step (`t` itself after a start or a truncation).
    pub t_prev: f64,
    /// Step size proposed for the next attempt.
    pub h: f64,
    /// Current state.
    pub y: Vec<f64>,
    /// State at `t_prev`.
    pub y_prev: Vec<f64>,
    /// The derivative at `t` reported by [`StepState::ends`]: `f(t, y)`, or `y' = M⁻¹ f` for the
    /// methods that form it (Rosenbrock, trapezoid, TR-BDF2).
    pub f: Vec<f64>,
    /// The derivative at `t_prev`.
    pub f_prev: Vec<f64>,
    /// Constant steps (`h_fixed`, or a tableau without an error estimate): no error control.
    pub fixed: bool,
    /// `start` has completed (steps are allowed).
    pub started: bool,
    /// `f` at the current point is still to be evaluated (after a truncation); the multistep
    /// methods also restart their history then.
    pub f_stale: bool,
}

/// Why an attempt failed: which error ends the step when its retry would fall below the floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The local error test ([`OdeError::StepTooSmall`]).
    ErrorTest,
    /// The Newton iteration did not converge ([`OdeError::NewtonFailed`]).
    Newton,
    /// A NaN or infinite value ([`OdeError::NonFinite`]).
    NonFinite,
    /// A singular iteration matrix ([`OdeError::SingularMatrix`]).
    Singular,
}

impl Failure {
    /// The error of this failure for an attempt of size `h` from `t`.
    pub(crate) fn error(self, t: f64, h: f64) -> OdeError {
        match self {
            Failure::ErrorTest => OdeError::StepTooSmall { t, h },
            Failure::Newton => OdeError::NewtonFailed { t, h },
            Failure::NonFinite => OdeError::NonFinite { t, h },
            Failure::Singular => OdeError::SingularMatrix { t, h },
        }
    }
}

impl StepState {
    /// [`OdeError::NotStarted`] unless `start` has completed.
    #[inline]
    pub(crate) fn ensure_started(&self) -> Result<(), OdeError> {
        if self.started {
            Ok(())
        } else {
            Err(OdeError::NotStarted)
        }
    }

    /// Sizes the four vectors for states of length `n` (keeping their allocations when they
    /// fit; contents zeroed).
    pub(crate) fn resize(&mut self, n: usize) {
        self.n = n;
        zeroed(
            [&mut self.y, &mut self.y_prev, &mut self.f, &mut self.f_prev],
            n,
        );
    }

    /// Sits at `(t, y)` with an empty last step (`t_prev = t`, `y_prev = y`); `f` is left as
    /// it is.
    pub(crate) fn place(&mut self, t: f64, y: &[f64]) {
        let n = self.n;
        self.t = t;
        self.t_prev = t;
        self.y.copy_from_slice(&y[..n]);
        self.y_prev.copy_from_slice(&y[..n]);
    }

    /// A (re)start at `(t, y)`: sits there and evaluates `f(t, y)` into `f` and `f_prev`
    /// (counted; [`OdeError::NonFiniteRhs`] when it is not finite).
    pub(crate) fn start_at<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.place(t, y);
        initial_rhs(sys, t, &self.y, &mut self.f, stats)?;
        self.f_prev.copy_from_slice(&self.f);
        self.f_stale = false;
        Ok(())
    }

    /// Sits at `(t, y)` after an event cut the last step short: an empty last step there, with
    /// `f` to be evaluated by the next step.
    pub(crate) fn truncate(&mut self, t: f64, y: &[f64]) {
        self.place(t, y);
        self.f_stale = true;
    }

    /// After a truncation: `f(t, y)` into `f` and `f_prev` (counted); whether it is finite.
    pub(crate) fn refresh_f<S: OdeSystem + ?Sized>(&mut self, sys: &S, stats: &mut Stats) -> bool {
        sys.rhs(self.t, &self.y, &mut self.f);
        stats.rhs_evals += 1;
        self.f_prev.copy_from_slice(&self.f);
        self.f_stale = false;
        all_finite(&self.f)
    }

    /// The ends of the last accepted step.
    #[inline]
    pub(crate) fn ends(&self) -> StepEnds<'_> {
        StepEnds {
            t0: self.t_prev,
            t1: self.t,
            y0: &self.y_prev,
            y1: &self.y,
            f0: &self.f_prev,
            f1: &self.f,
        }
    }

    /// The dense output of an empty last step: `y` into the first `min(out.len(), n)` entries
    /// of `out`.
    pub(crate) fn copy_y(&self, out: &mut [f64]) {
        let n = out.len().min(self.n);
        out[..n].copy_from_slice(&self.y[..n]);
    }

    /// The smallest step allowed from the current point: `max(h_min, 16 ε |t|, MIN_POSITIVE)`.
    /// Never zero (at `t = 0` the relative part is): a step whose error stays NaN or above
    /// tolerance shrinks geometrically and must end there, not loop at `h = 0`.
    #[inline]
    pub(crate) fn floor(&self, opts: &SolverOptions) -> f64 {
        opts.h_min
            .max(16.0 * f64::EPSILON * self.t.abs())
            .max(f64::MIN_POSITIVE)
    }

    /// The attempt towards `t_stop` with the proposal `h` (at most `h_max`): `(h, last, t_new)`,
    /// `last` when it lands exactly on `t_new = t_stop` (a proposal within a relative `1e-12` of
    /// the remaining span takes it whole, avoiding a sliver of a last step).
    #[inline]
    pub(crate) fn clip(&self, h: f64, t_stop: f64, opts: &SolverOptions) -> (f64, bool, f64) {
        let remaining = t_stop - self.t;
        let h = h.min(opts.h_max);
        if h >= remaining * (1.0 - 1e-12) {
            (remaining, true, t_stop)
        } else {
            (h, false, self.t + h)
        }
    }

    /// The retry of a failed attempt of size `h` with `h · factor` in [`StepState::h`]; the error
    /// of `why` instead when the step is fixed or `h · factor` is below the floor.
    pub(crate) fn retry_smaller(
        &mut self,
        h: f64,
        factor: f64,
        why: Failure,
        opts: &SolverOptions,
    ) -> Result<(), OdeError> {
        let h_next = h * factor;
        if self.fixed || !(h_next >= self.floor(opts)) {
            return Err(why.error(self.t, h));
        }
        self.h = h_next;
        Ok(())
    }

    /// An attempt of size `h` that failed the error test with `err` (NaN included): counts the
    /// rejection and retries with the controller's `h_next`; below the floor the step ends with
    /// [`OdeError::StepTooSmall`] (at `h_next`), or [`OdeError::NonFinite`] when `err` is not
    /// finite.
    pub(crate) fn reject(
        &mut self,
        err: f64,
        h: f64,
        h_next: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        stats.rejected_steps += 1;
        if !(h_next >= self.floor(opts)) {
            return Err(if err.is_finite() {
                OdeError::StepTooSmall {
                    t: self.t,
                    h: h_next,
                }
            } else {
                OdeError::NonFinite { t: self.t, h }
            });
        }
        self.h = h_next;
        Ok(())
    }

    /// Accepting a step to `t_new`: the current point becomes the previous one. `y` and `f`
    /// then hold the old previous values (the vectors are swapped), for the caller to replace
    /// with the new point's.
    #[inline]
    pub(crate) fn shift(&mut self, t_new: f64) {
        self.t_prev = self.t;
        self.t = t_new;
        std::mem::swap(&mut self.y_prev, &mut self.y);
        std::mem::swap(&mut self.f_prev, &mut self.f);
    }

    /// Undoes a [`StepState::shift`]: back at the step's start (`t_prev` becomes `t`; the
    /// step before is forgotten), for a step whose result is refused.
    pub(crate) fn unshift(&mut self) {
        self.t = self.t_prev;
        std::mem::swap(&mut self.y_prev, &mut self.y);
        std::mem::swap(&mut self.f_prev, &mut self.f);
    }

    /// After [`StepState::shift`] and the new `y`, `f` of a step of size `h`: counts the
    /// accepted step, or [`OdeError::NonFinite`] (at the step's start) when `y` or `f` is not
    /// finite.
    #[inline]
    pub(crate) fn count_accepted(&self, h: f64, stats: &mut Stats) -> Result<(), OdeError> {
        if !all_finite(&self.y) || !all_finite(&self.f) {
            return Err(OdeError::NonFinite { t: self.t_prev, h });
        }
        stats.steps += 1;
        Ok(())
    }
}

/// The accessors `t`, `y` and `ends` of [`crate::Stepper`] for a stepper whose [`StepState`] is
/// the field `self.$path`: written once here rather than in every `impl Stepper`.
macro_rules! state_accessors {
    ($($path:ident).+) => {
        #[inline]
        fn t(&self) -> f64 {
            self.$($path).+.t
        }

        #[inline]
        fn y(&self) -> &[f64] {
            &self.$($path).+.y
        }

        fn ends(&self) -> $crate::StepEnds<'_> {
            self.$($path).+.ends()
        }
    };
}
pub(crate) use state_accessors;
