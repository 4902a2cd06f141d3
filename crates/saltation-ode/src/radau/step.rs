//! One accepted Radau IIA step: the attempt loop of RADAU5's `RADCOR` (Hairer & Wanner,
//! *Solving ODEs II*, 2nd ed. 1996, §IV.8).
//!
//! Each attempt (1) evaluates the Jacobian if one is due, (2) factors `γ̂/h M − J` and
//! `(α̂ + iβ̂)/h M − J` unless the factors for this `h` are still valid, (3) runs the simplified
//! Newton iteration from extrapolated starting values, (4) estimates the error and either
//! accepts (new state, collocation polynomial, `f` at the new point, next step size, Jacobian
//! and LU reuse decision) or retries with a smaller step.
//!
//! Failures and their retries: Newton divergence or the iteration cap halves `h`, predicted
//! slow convergence multiplies it by RADAU5's factor; a NaN or infinite stage derivative halves
//! it; a singular iteration matrix halves it (at most [`MAX_SINGULAR`] times per step); an
//! error-test failure takes the controller's smaller step (`h/10` before the first accepted
//! step). Every retry with an old Jacobian computes a new one first. Below the step floor
//! `max(h_min, 16 ε |t|, MIN_POSITIVE)` the step ends with the error of the last failure. With
//! `h_fixed` there is no smaller step: a failure with a fresh Jacobian is final.

use super::coefficients::{ALPHA, BETA, GAMMA};
use super::newton::{self, Outcome, Settings};
use super::{controller, dense, estimate, Radau5, DEFAULT_NIT, DEFAULT_THET, FIXED_STEP_NIT};
use crate::control::{controlled_dims, weight};
use crate::stepper::all_finite;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Singular iteration matrices tolerated within one step before [`OdeError::SingularMatrix`].
pub(super) const MAX_SINGULAR: usize = 5;

/// Why an attempt failed (which error ends the step at the floor).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Failure {
    ErrorTest,
    Newton,
    NonFinite,
    Singular,
}

impl Failure {
    fn error(self, t: f64, h: f64) -> OdeError {
        match self {
            Failure::ErrorTest => OdeError::StepTooSmall { t, h },
            Failure::Newton => OdeError::NewtonFailed { t, h },
            Failure::NonFinite => OdeError::NonFinite { t, h },
            Failure::Singular => OdeError::SingularMatrix { t, h },
        }
    }
}

impl Radau5 {
    /// One accepted step towards `t_stop` (never beyond it, landing on it when reached).
    pub(super) fn advance<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if !(t_stop >= self.t) {
            return Err(OdeError::BackwardSpan {
                t: self.t,
                t_end: t_stop,
            });
        }
        if t_stop == self.t {
            return Ok(());
        }
        if self.f_stale {
            let w = &mut self.w;
            sys.rhs(self.t, &w.y, &mut w.f);
            stats.rhs_evals += 1;
            w.f_prev.copy_from_slice(&w.f);
            self.f_stale = false;
            if !all_finite(&w.f) {
                return Err(OdeError::NonFinite {
                    t: self.t,
                    h: self.h,
                });
            }
        }
        let mc = controlled_dims(opts, self.dim);
        for i in 0..mc {
            let y = self.w.y[i];
            self.w.scal[i] = weight(opts, i, y, y);
        }
        let set = Settings {
            nit: opts.newton.max_iters.unwrap_or(if self.fixed.is_some() {
                FIXED_STEP_NIT
            } else {
                DEFAULT_NIT
            }),
            fnewt: self.fnewt,
            thet: opts.newton.jacobian_reuse.unwrap_or(DEFAULT_THET),
            adaptive: self.fixed.is_none(),
            roundoff: controller::roundoff(opts),
            norm: opts.norm,
            mc,
        };
        let mut singular = 0usize;
        loop {
            let remaining = t_stop - self.t;
            let mut h = self.fixed.unwrap_or(self.h).min(opts.h_max);
            let mut last = false;
            // Land exactly on t_stop, and avoid a sliver of a last step.
            if h >= remaining * (1.0 - 1e-12) {
                h = remaining;
                last = true;
            }
            let t_new = if last { t_stop } else { self.t + h };

            if self.need_jac {
                self.jw.evaluate(sys, self.t, &self.w.y, &self.w.f, stats);
                if !all_finite(&self.jw.jac) {
                    return Err(OdeError::NonFinite { t: self.t, h });
                }
                self.need_jac = false;
                self.jac_current = true;
                self.lu_h = None;
            }

            if self.lu_h != Some(h) {
                let ok = self
                    .jw
                    .factor_real(&mut self.lu, GAMMA / h, -1.0, stats)
                    .is_ok()
                    && self
                        .jw
                        .factor_complex(&mut self.clu, (ALPHA / h, BETA / h), -1.0, stats)
                        .is_ok();
                if !ok {
                    self.lu_h = None;
                    singular += 1;
                    stats.rejected_steps += 1;
                    if singular >= MAX_SINGULAR {
                        return Err(OdeError::SingularMatrix { t: self.t, h });
                    }
                    self.retry(h, 0.5, Failure::Singular, opts)?;
                    continue;
                }
                self.lu_h = Some(h);
            }

            if self.first {
                newton::zero_start(&mut self.w);
            } else {
                let w = &mut self.w;
                let [q1, q2, q3] = &w.q;
                let [z1, z2, z3] = &mut w.z;
                dense::extrapolate([q1, q2, q3], h / self.h_old, [z1, z2, z3]);
                newton::transform_start(w);
            }

            let outcome = newton::iterate(
                sys,
                &self.jw,
                &self.lu,
                &self.clu,
                &mut self.w,
                self.t,
                t_new,
                h,
                &set,
                &mut self.con,
                stats,
            );
            let newt = match outcome {
                Outcome::Converged(k) => k,
                failed => {
                    stats.newton_failures += 1;
                    stats.rejected_steps += 1;
                    let (fac, why) = match failed {
                        Outcome::Slow(fac) => (fac, Failure::Newton),
                        Outcome::NonFinite => (0.5, Failure::NonFinite),
                        _ => (0.5, Failure::Newton),
                    };
                    self.retry(h, fac, why, opts)?;
                    continue;
                }
            };

            if self.fixed.is_some() {
                self.accept(sys, h, t_new, None, last, &set, opts, stats)?;
                return Ok(());
            }
            let err = estimate::error_norm(
                sys,
                &self.jw,
                &self.lu,
                &mut self.w,
                self.t,
                h,
                self.first || self.reject,
                mc,
                opts,
                stats,
            );
            if err.is_nan() {
                stats.rejected_steps += 1;
                self.retry(h, 0.5, Failure::NonFinite, opts)?;
                continue;
            }
            let quot = self.ctl.quot(err, newt);
            if err < 1.0 {
                self.accept(sys, h, t_new, Some((err, quot)), last, &set, opts, stats)?;
                return Ok(());
            }
            stats.rejected_steps += 1;
            let fac = if self.first { 0.1 } else { 1.0 / quot };
            self.retry(h, fac, Failure::ErrorTest, opts)?;
        }
    }

    /// After a failed attempt of size `h`: a new Jacobian if the current one is old, and the
    /// next attempt with `h · fac` — or the error of `why` when that is below the step floor
    /// (with `h_fixed`: when the Jacobian was already fresh).
    fn retry(
        &mut self,
        h: f64,
        fac: f64,
        why: Failure,
        opts: &SolverOptions,
    ) -> Result<(), OdeError> {
        self.reject = true;
        let old_jacobian = !self.jac_current;
        if old_jacobian {
            self.need_jac = true;
        }
        if self.fixed.is_some() {
            return if old_jacobian {
                Ok(())
            } else {
                Err(why.error(self.t, h))
            };
        }
        let floor = opts
            .h_min
            .max(16.0 * f64::EPSILON * self.t.abs())
            .max(f64::MIN_POSITIVE);
        let h_next = h * fac;
        if !(h_next >= floor) {
            return Err(why.error(self.t, h));
        }
        self.h = h_next;
        Ok(())
    }

    /// Accepts the attempt of size `h` ending at `t_new`: new state and collocation polynomial,
    /// `f` there, the next step size (`control` = error and first quotient, `None` with
    /// `h_fixed`) and the Jacobian/LU reuse decision.
    #[allow(clippy::too_many_arguments)]
    fn accept<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        control: Option<(f64, f64)>,
        last: bool,
        set: &Settings,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let w = &mut self.w;
        w.y_prev.copy_from_slice(&w.y);
        w.f_prev.copy_from_slice(&w.f);
        for (y, z) in w.y.iter_mut().zip(&w.z[2]) {
            *y += z;
        }
        {
            let [z1, z2, z3] = &w.z;
            let [q1, q2, q3] = &mut w.q;
            dense::update([z1, z2, z3], [q1, q2, q3]);
        }
        self.t_prev = self.t;
        self.t = t_new;
        self.h_old = h;
        sys.rhs(t_new, &w.y, &mut w.f);
        stats.rhs_evals += 1;
        if !all_finite(&w.y) || !all_finite(&w.f) {
            return Err(OdeError::NonFinite { t: self.t_prev, h });
        }
        stats.steps += 1;
        self.first = false;
        self.jac_current = false;
        let was_rejected = std::mem::replace(&mut self.reject, false);
        // RADAU5: a new Jacobian only when the iteration contracted slowly.
        let slow = self.con.theta > set.thet;
        self.need_jac = slow;
        let Some((err, quot)) = control else {
            return Ok(());
        };
        let mut h_new = self.ctl.accepted(h, err, quot).min(opts.h_max);
        if was_rejected {
            h_new = h_new.min(h);
        }
        if last {
            // The step was cut to land on t_stop: keep the proposal unless the error asks for
            // less.
            if h_new < h {
                self.h = h_new;
            }
        } else if !slow && (1.0..=1.2).contains(&(h_new / h)) {
            // Keep h, J and the LU factors (RADAU5's quot1 = 1, quot2 = 1.2).
            self.h = h;
        } else {
            self.h = h_new;
        }
        Ok(())
    }
}
