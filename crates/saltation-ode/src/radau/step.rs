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
use crate::step_state::Failure;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Singular iteration matrices tolerated within one step before [`OdeError::SingularMatrix`].
pub(super) const MAX_SINGULAR: usize = 5;

impl Radau5 {
    /// One accepted step towards `t_stop` (never beyond it, landing on it when reached).
    pub(super) fn advance<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let st = &mut self.state;
        if !(t_stop >= st.t) {
            return Err(OdeError::BackwardSpan {
                t: st.t,
                t_end: t_stop,
            });
        }
        if t_stop == st.t {
            return Ok(());
        }
        if st.f_stale && !st.refresh_f(sys, stats) {
            return Err(OdeError::NonFinite { t: st.t, h: st.h });
        }
        let mc = controlled_dims(opts, st.n);
        for i in 0..mc {
            let y = st.y[i];
            self.w.scal[i] = weight(opts, i, y, y);
        }
        let set = Settings {
            nit: opts.newton.max_iters.unwrap_or(if st.fixed {
                FIXED_STEP_NIT
            } else {
                DEFAULT_NIT
            }),
            fnewt: self.fnewt,
            thet: opts.newton.jacobian_reuse.unwrap_or(DEFAULT_THET),
            adaptive: !st.fixed,
            roundoff: controller::roundoff(opts),
            norm: opts.norm,
            mc,
        };
        let mut singular = 0usize;
        loop {
            let (h, last, t_new) = self.state.clip(self.state.h, t_stop, opts);

            if self.need_jac {
                let st = &self.state;
                self.jw.evaluate(sys, st.t, &st.y, &st.f, stats)?;
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
                        return Err(OdeError::SingularMatrix { t: self.state.t, h });
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
                &self.state,
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

            if self.state.fixed {
                self.accept(sys, h, t_new, None, last, &set, opts, stats)?;
                return Ok(());
            }
            let err = estimate::error_norm(
                sys,
                &self.jw,
                &self.lu,
                &mut self.w,
                &self.state,
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
        if self.state.fixed {
            return if old_jacobian {
                Ok(())
            } else {
                Err(why.error(self.state.t, h))
            };
        }
        self.state.retry_smaller(h, fac, why, opts)
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
        let (st, w) = (&mut self.state, &mut self.w);
        st.shift(t_new);
        for ((y, y0), z) in st.y.iter_mut().zip(&st.y_prev).zip(&w.z[2]) {
            *y = y0 + z;
        }
        {
            let [z1, z2, z3] = &w.z;
            let [q1, q2, q3] = &mut w.q;
            dense::update([z1, z2, z3], [q1, q2, q3]);
        }
        self.h_old = h;
        sys.rhs(t_new, &st.y, &mut st.f);
        stats.rhs_evals += 1;
        st.count_accepted(h, stats)?;
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
                self.state.h = h_new;
            }
        } else if !slow && (1.0..=1.2).contains(&(h_new / h)) {
            // Keep h, J and the LU factors (RADAU5's quot1 = 1, quot2 = 1.2).
            self.state.h = h;
        } else {
            self.state.h = h_new;
        }
        Ok(())
    }
}
