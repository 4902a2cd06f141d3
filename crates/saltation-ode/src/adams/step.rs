//! One PECE step of order `k` (Shampine & Gordon 1975, ch. 5–7; the equations are in the
//! module docs of [`super`]): predict, evaluate, estimate, accept or retry, correct, evaluate,
//! update the divided differences, choose the next order and step size.

use super::coefficients::{Coefficients, GSTAR};
use super::selection::{self, Estimates, OrderChange};
use super::Abm;
use crate::control::{controlled_dims, weight, NormAcc};
use crate::stepper::all_finite;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

impl Abm {
    /// One accepted step towards `t_stop` (never beyond it; landing on it exactly when it is
    /// reached), rejected attempts retried inside.
    pub(super) fn advance<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let mut ifail = 0;
        loop {
            let remaining = t_stop - self.state.t;
            if !(remaining > 0.0) {
                // Already at (or past) the stop time: nothing to do.
                return Ok(());
            }
            let mut h = self.state.h.min(opts.h_max);
            if !(h < f64::INFINITY) && !(remaining < f64::INFINITY) {
                // f = 0 at the start gives no starting step, and an unbounded stop time none
                // either: any finite step will do, the error test corrects it.
                h = 0.01 * self.state.t.abs().max(1.0);
            }
            // Land exactly on t_stop, and avoid a sliver of a last step.
            let last = !(h < remaining * (1.0 - 1e-12));
            if last {
                h = remaining;
            }
            let t_new = if last {
                t_stop
            } else if self.state.fixed {
                self.t_base + (self.n_fixed + 1) as f64 * h
            } else {
                self.state.t + h
            };
            let floor = self.state.floor(opts);
            let k = self.k;
            let ns = if h == self.h_old { self.ns } else { 0 };
            let ns = if ns <= self.k_old { ns + 1 } else { ns };
            let c = Coefficients::compute(h, &self.psi, k);

            self.predict(&c, k, h);
            sys.rhs(t_new, &self.p, &mut self.fp);
            stats.rhs_evals += 1;

            let (est, knew) = if self.state.fixed {
                (None, k)
            } else {
                let e = self.estimate(&c, k, h, opts);
                (Some(e), selection::lowered_order(k, &e))
            };
            let passed = est.is_none_or(|e| e.err <= 1.0);
            let mut finite = true;
            if passed {
                self.correct(&c, k, h);
                sys.rhs(t_new, &self.p, &mut self.fp);
                stats.rhs_evals += 1;
                finite = all_finite(&self.p) && all_finite(&self.fp);
                if !finite && self.state.fixed {
                    return Err(OdeError::NonFinite { t: self.state.t, h });
                }
            }
            // (A fixed step is never rejected: it failed above or passes here.)
            if let (false, Some(e)) = (passed && finite, est) {
                // Rejected: the error test failed (NaN included), or the corrected value or
                // its slope is not finite.
                stats.rejected_steps += 1;
                ifail += 1;
                self.phase1 = false;
                let erk = if finite { e.erk } else { f64::NAN };
                let (h_new, k_new) = selection::after_failure(ifail, h, erk, knew, opts);
                if !(h_new >= floor) {
                    return Err(if finite && e.err > 1.0 {
                        OdeError::StepTooSmall {
                            t: self.state.t,
                            h: h_new,
                        }
                    } else {
                        OdeError::NonFinite { t: self.state.t, h }
                    });
                }
                self.state.h = h_new;
                self.k = k_new;
                continue;
            }

            self.commit(&c, k, t_new);
            self.k_old = k;
            self.h_old = h;
            self.ns = ns;
            stats.steps += 1;
            let Some(e) = est else {
                self.k = (k + 1).min(self.kmax);
                self.n_fixed += 1;
                if last {
                    (self.t_base, self.n_fixed) = (self.state.t, 0);
                }
                return Ok(());
            };
            let (change, phase1) =
                selection::order_after_step(k, knew, self.kmax, ns, self.phase1, &e, || {
                    self.erkp1(k, h, opts)
                });
            self.phase1 = phase1;
            let (k_next, erk) = match change {
                OrderChange::Raise(erk) => (k + 1, erk),
                OrderChange::Lower(erk) => (k - 1, erk),
                OrderChange::Keep(erk) => (k, erk),
            };
            self.k = k_next;
            if !last {
                let h_next = selection::next_step(h, k_next, erk, phase1, opts);
                self.state.h = h_next
                    .min(opts.h_max)
                    .max(16.0 * f64::EPSILON * self.state.t.abs());
            }
            return Ok(());
        }
    }

    /// `dy = Σ_{i≤k} g_i φ*_i`, `sk = Σ_{i≤k} φ*_i`, `p = y + h dy`.
    fn predict(&mut self, c: &Coefficients, k: usize, h: f64) {
        let n = self.state.n;
        self.dy.fill(0.0);
        self.sk.fill(0.0);
        // Highest differences first: the small terms are summed before the large ones.
        for i in (1..=k).rev() {
            let (b, gb) = (c.beta[i], c.g[i] * c.beta[i]);
            let phi_i = &self.phi[(i - 1) * n..i * n];
            for ((d, s), &v) in self.dy.iter_mut().zip(self.sk.iter_mut()).zip(phi_i) {
                *d += gb * v;
                *s += b * v;
            }
        }
        for ((p, &y), &d) in self.p.iter_mut().zip(&self.state.y).zip(&self.dy) {
            *p = y + h * d;
        }
    }

    /// The scaled error estimates from `φ^p_{k+1} = f^p − sk` (weights from `y_n` and `p`).
    fn estimate(&self, c: &Coefficients, k: usize, h: f64, opts: &SolverOptions) -> Estimates {
        let n = self.state.n;
        let mc = controlled_dims(opts, n);
        let (mut a1, mut a0, mut am) = (
            NormAcc::new(opts.norm),
            NormAcc::new(opts.norm),
            NormAcc::new(opts.norm),
        );
        let phi_k = &self.phi[(k - 1) * n..k * n];
        let phi_km1 = if k >= 2 {
            &self.phi[(k - 2) * n..(k - 1) * n]
        } else {
            phi_k
        };
        let (bk, bkm1) = (c.beta[k], if k >= 2 { c.beta[k - 1] } else { 0.0 });
        for m in 0..mc {
            let w = weight(opts, m, self.state.y[m], self.p[m]);
            let e1 = self.fp[m] - self.sk[m];
            let e0 = e1 + bk * phi_k[m];
            let em = e0 + bkm1 * phi_km1[m];
            a1.add(e1 / w);
            a0.add(e0 / w);
            am.add(em / w);
        }
        let ah = h.abs();
        let n1 = a1.finish();
        let mut e = Estimates {
            err: ah * (c.g[k] - c.g[k + 1]) * n1,
            erk: ah * c.sigma[k + 1] * GSTAR[k] * n1,
            erkm1: 0.0,
            erkm2: 0.0,
        };
        if k >= 2 {
            e.erkm1 = ah * c.sigma[k] * GSTAR[k - 1] * a0.finish();
        }
        if k >= 3 {
            e.erkm2 = ah * c.sigma[k - 1] * GSTAR[k - 2] * am.finish();
        }
        e
    }

    /// The corrector of order `k+1`, into `p`: `y_{n+1} = y_n + h (dy + g_{k+1} φ^p_{k+1})`.
    fn correct(&mut self, c: &Coefficients, k: usize, h: f64) {
        let gk1 = c.g[k + 1];
        for m in 0..self.state.n {
            let phi = self.fp[m] - self.sk[m];
            self.p[m] = self.state.y[m] + h * (self.dy[m] + gk1 * phi);
        }
    }

    /// Accepts the corrected point (`p`, `fp = f(p)`): updates the differences
    /// `φ_1(n+1) = f_{n+1}`, `φ_{i+1}(n+1) = φ_i(n+1) − β_i φ_i(n)` for `i = 1..=k+1` and the
    /// history lengths, and moves the current point to the previous one.
    fn commit(&mut self, c: &Coefficients, k: usize, t_new: f64) {
        let n = self.state.n;
        // temp (in sk) runs through φ_1(n+1), φ_2(n+1), …; φ_i(n) is overwritten once used.
        self.sk.copy_from_slice(&self.fp);
        for i in 1..=k + 1 {
            let b = c.beta[i];
            let phi_i = &mut self.phi[(i - 1) * n..i * n];
            for (v, tmp) in phi_i.iter_mut().zip(self.sk.iter_mut()) {
                let old = *v;
                *v = *tmp;
                *tmp -= b * old;
            }
        }
        self.phi[(k + 1) * n..(k + 2) * n].copy_from_slice(&self.sk);
        self.psi = c.psi;
        self.state.shift(t_new);
        std::mem::swap(&mut self.state.y, &mut self.p);
        std::mem::swap(&mut self.state.f, &mut self.fp);
    }

    /// `ERK_{k+1} = |h| γ*_{k+1} ‖φ_{k+2}(n+1)‖` after the step (constant steps: `σ = 1`).
    fn erkp1(&self, k: usize, h: f64, opts: &SolverOptions) -> f64 {
        let n = self.state.n;
        let phi = &self.phi[(k + 1) * n..(k + 2) * n];
        let mut acc = NormAcc::new(opts.norm);
        for (m, &v) in phi.iter().enumerate().take(controlled_dims(opts, n)) {
            acc.add(v / weight(opts, m, self.state.y_prev[m], self.state.y[m]));
        }
        h.abs() * GSTAR[k + 1] * acc.finish()
    }
}
