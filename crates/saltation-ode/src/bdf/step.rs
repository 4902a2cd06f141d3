//! One accepted step: attempts of the order-`k` formula with step `h` until one passes.
//!
//! An attempt predicts from the differences, solves the formula by simplified Newton
//! ([`super::newton`]) and tests the local error estimate `(κ_k γ_k + 1/(k+1)) ‖d‖ ≤ 1`
//! (`d = y_{n+1} − y⁽⁰⁾ ≈ ∇^{k+1} y_{n+1}`, the crate's weighted norm over the controlled
//! components). The Jacobian is kept while Newton converges; a Newton failure with an old
//! Jacobian re-evaluates it at `(t_n, y_n)` and retries the same step, a failure with a current
//! one retries with `0.3 h` (`ode15s`; Shampine & Reichelt 1997, §2). The iteration matrix
//! `M − (h/α_k) J` is refactored whenever `h`, `k` or `J` change. A step size change rescales the
//! differences ([`super::differences::Differences::rescale`]); it is made lazily, when the next
//! attempt begins, so that the dense output of the last accepted step stays available.
//!
//! Every retry loop ends: error-test failures at the step floor `max(h_min, 16 ε |t|,
//! MIN_POSITIVE)` with [`OdeError::StepTooSmall`], Newton failures there with
//! [`OdeError::NewtonFailed`], non-finite values with [`OdeError::NonFinite`], and a singular
//! iteration matrix after a few halvings with [`OdeError::SingularMatrix`].

use super::newton::{self, Outcome};
use super::selection::{self, Estimates};
use super::work::weighted_norm;
use super::Bdf;
use crate::control::{controlled_dims, weight};
use crate::step_state::Failure;
use crate::stepper::all_finite;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Step shrink after a Newton failure with a current Jacobian (`ode15s`).
const NEWTON_SHRINK: f64 = 0.3;
/// Step shrink after a singular iteration matrix.
const SINGULAR_SHRINK: f64 = 0.5;
/// Consecutive singular iteration matrices tolerated in one step.
const MAX_SINGULAR: usize = 10;
/// A last step up to this factor longer than proposed lands on `t_stop` (`ode15s`'s 1.1).
const STRETCH: f64 = 1.1;

impl Bdf {
    /// The step size of the next attempt towards `t_stop`, whether it lands there, and its end
    /// time. With a fixed step the end times are `origin + j h` (no drift of `t + h + h + …`),
    /// and a step within `10⁻⁹ h` of `t_stop` lands there.
    fn choose_step(&self, t_stop: f64, opts: &SolverOptions) -> (f64, bool, f64) {
        let remaining = t_stop - self.state.t;
        if self.state.fixed {
            let h = self.state.h;
            let next = self.fixed_origin + (self.fixed_count + 1) as f64 * h;
            if h >= remaining || next >= t_stop - 1e-9 * h {
                (remaining, true, t_stop)
            } else {
                (h, false, next)
            }
        } else {
            let h = self.state.h.min(opts.h_max);
            if h * STRETCH >= remaining && remaining <= opts.h_max {
                (remaining, true, t_stop)
            } else {
                (h, false, self.state.t + h)
            }
        }
    }

    /// Makes `(h, k)` the step and order of the next attempt: rescales the differences and
    /// marks the iteration matrix stale when they change.
    fn set_step(&mut self, h: f64, k: usize) {
        if h != self.h_dif {
            self.work.dif.rescale(k, h / self.h_dif);
        }
        if h != self.h_dif || k != self.k {
            self.lu_ok = false;
            self.same_steps = 0;
        }
        self.h_dif = h;
        self.k = k;
    }

    /// `J` at `(t_n, y_n)`.
    pub(super) fn evaluate_jacobian<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let st = &self.state;
        self.jw.evaluate(sys, st.t, &st.y, &st.f, stats)?;
        self.jac_have = true;
        self.jac_current = true;
        self.lu_ok = false;
        Ok(())
    }

    /// One accepted step towards `t_stop`.
    pub(super) fn advance<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if !(t_stop - self.state.t > 0.0) {
            return Ok(());
        }
        let m = controlled_dims(opts, self.state.n);
        let mut failures = 0usize;
        let mut singular = 0usize;
        loop {
            let (h, last, t_new) = self.choose_step(t_stop, opts);
            let planned = self.state.h;
            self.set_step(h, self.k_next);
            let k = self.k;
            if !self.jac_have {
                self.evaluate_jacobian(sys, stats)?;
            }
            if !self.lu_ok {
                let c = h / self.coef.alpha(k);
                if self.jw.factor_real(&mut self.lu, 1.0, -c, stats).is_err() {
                    stats.rejected_steps += 1;
                    singular += 1;
                    if !self.jac_current {
                        self.evaluate_jacobian(sys, stats)?;
                        continue;
                    }
                    if singular >= MAX_SINGULAR {
                        return Err(Failure::Singular.error(self.state.t, h));
                    }
                    self.state
                        .retry_smaller(h, SINGULAR_SHRINK, Failure::Singular, opts)?;
                    continue;
                }
                self.lu_ok = true;
                self.rate = None;
            }
            // Predictor, ψ and the Newton weights (from y_n and the predictor).
            {
                let (w, st) = (&mut self.work, &self.state);
                super::differences::predict(&w.dif, &self.coef, k, &st.y, &mut w.pred, &mut w.psi);
                for i in 0..m {
                    w.w[i] = weight(opts, i, st.y[i], w.pred[i]);
                }
            }
            let outcome = {
                let w = &mut self.work;
                let problem = newton::Problem {
                    t: t_new,
                    c: h / self.coef.alpha(k),
                    pred: &w.pred,
                    psi: &w.psi,
                    w: &w.w,
                    m,
                    opts,
                    fixed: self.state.fixed,
                };
                let scratch = newton::Scratch {
                    d: &mut w.d,
                    ynew: &mut w.ynew,
                    f: &mut w.fnew,
                    del: &mut w.del,
                    tmp: &mut w.tmp,
                };
                newton::iterate(
                    sys,
                    &self.jw,
                    &self.lu,
                    &problem,
                    scratch,
                    &mut self.rate,
                    stats,
                )
            };
            match outcome {
                Outcome::Converged => {}
                Outcome::Failed => {
                    stats.newton_failures += 1;
                    stats.rejected_steps += 1;
                    if !self.jac_current {
                        self.evaluate_jacobian(sys, stats)?;
                        self.state.h = planned;
                        continue;
                    }
                    let shrink = NEWTON_SHRINK.max(opts.min_shrink);
                    self.state.retry_smaller(h, shrink, Failure::Newton, opts)?;
                    continue;
                }
                Outcome::NonFinite => {
                    stats.rejected_steps += 1;
                    self.state
                        .retry_smaller(h, opts.min_shrink, Failure::NonFinite, opts)?;
                    continue;
                }
            }
            // Local error test (weights from y_n and y_{n+1}).
            let err = if self.state.fixed {
                0.0
            } else {
                let (w, st) = (&mut self.work, &self.state);
                for i in 0..m {
                    w.w[i] = weight(opts, i, st.y[i], w.ynew[i]);
                }
                self.coef.error_constant(k) * weighted_norm(&w.d, &w.w, m, opts)
            };
            if !(err <= 1.0) {
                stats.rejected_steps += 1;
                failures += 1;
                let lower = (k > 1 && failures == 1).then(|| {
                    let w = &mut self.work;
                    // ∇^k y_{n+1} = ∇^k y_n + d, into the scratch.
                    for ((t, a), b) in w.tmp.iter_mut().zip(w.dif.col(k)).zip(&w.d) {
                        *t = a + b;
                    }
                    self.coef.error_constant(k - 1) * weighted_norm(&w.tmp, &w.w, m, opts)
                });
                let (h_new, k_new) = selection::after_failure(h, k, failures, err, lower, opts);
                if !(h_new >= self.state.floor(opts)) {
                    return Err(OdeError::StepTooSmall {
                        t: self.state.t,
                        h: h_new,
                    });
                }
                self.state.h = h_new;
                self.k_next = k_new;
                continue;
            }
            // f at the new point (the step's end derivative, and the next Jacobian's base).
            sys.rhs(t_new, &self.work.ynew, &mut self.work.fnew);
            stats.rhs_evals += 1;
            if !all_finite(&self.work.ynew) || !all_finite(&self.work.fnew) {
                stats.rejected_steps += 1;
                self.state
                    .retry_smaller(h, opts.min_shrink, Failure::NonFinite, opts)?;
                continue;
            }
            self.accept(t_new, err, last, planned, m, opts, stats);
            return Ok(());
        }
    }

    /// Moves to the accepted `y_{n+1}`, updates the differences and proposes the next step
    /// size and order.
    #[allow(clippy::too_many_arguments)]
    fn accept(
        &mut self,
        t_new: f64,
        err: f64,
        last: bool,
        planned: f64,
        m: usize,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) {
        let (h, k) = (self.h_dif, self.k);
        {
            let (st, w) = (&mut self.state, &mut self.work);
            st.shift(t_new);
            std::mem::swap(&mut st.y, &mut w.ynew);
            std::mem::swap(&mut st.f, &mut w.fnew);
            w.dif.update(k, &w.d);
        }
        self.jac_current = false;
        if let (Some(limit), Some(rate)) = (opts.newton.jacobian_reuse, self.rate) {
            if rate > limit {
                self.jac_have = false;
            }
        }
        stats.steps += 1;
        self.same_steps = (self.same_steps + 1).min(self.kmax + 2);
        if self.state.fixed {
            self.k_next = (k + 1).min(self.kmax);
            self.state.h = planned;
            if last {
                self.fixed_origin = t_new;
                self.fixed_count = 0;
            } else {
                self.fixed_count += 1;
            }
            return;
        }
        self.k_next = k;
        self.state.h = h;
        if self.same_steps >= k + 2 {
            let w = &self.work;
            let lower = (k > 1).then(|| {
                self.coef.error_constant(k - 1) * weighted_norm(w.dif.col(k), &w.w, m, opts)
            });
            let higher = (k < self.kmax).then(|| {
                self.coef.error_constant(k + 1) * weighted_norm(w.dif.col(k + 2), &w.w, m, opts)
            });
            if let Some((h_new, k_new)) =
                selection::after_success(h, k, Estimates { err, lower, higher }, opts)
            {
                self.state.h = h_new;
                self.k_next = k_new;
            }
        }
        // A last step cut short to land on `t_stop` does not shrink the steps after it.
        if last && h < planned {
            self.state.h = self.state.h.max(planned.min(opts.max_growth * h));
        }
    }
}
