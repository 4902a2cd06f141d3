//! Tolerances and step-size control of the Radau IIA stepper, as in Hairer & Wanner's RADAU5
//! (*Solving ODEs II*, 2nd ed. 1996, §IV.8; K. Gustafsson, ACM TOMS 20, 1994).
//!
//! **Tolerances.** The error weights are the crate's ([`crate::control::weight`], the options'
//! norm) and the error test is `err ≤ 1` with the user's `rtol`, `atol` as given. (RADAU5
//! itself first transforms them, `rtol' = 0.1 rtol^{2/3}`, because its estimate is of order 3
//! while the solution is of order 5; that makes the error grow like `rtol^{2/3}` on problems
//! whose error follows the estimate — stiff components with order reduction — so it is not
//! done here. Passing `rtol'`, `atol'` reproduces RADAU5's behaviour.)
//!
//! **Newton tolerance** (`fnewt`, Hairer's default): `max(10 ε / rtol, min(0.03, √rtol))`, or the
//! options' `newton.tol`; with `rtol = 0` the first absolute tolerance stands for `rtol`. With
//! `h_fixed` (no error control) the iteration runs to the round-off level `10 ε / rtol` instead.
//!
//! **Step size.** With `err` the scaled error estimate, `newt` the Newton iterations of the
//! step and `nit` the iteration cap: `fac = min(safety, safety (1 + 2 nit)/(newt + 2 nit))`,
//! `quot = clamp(err^{1/4}/fac, 1/max_growth, 1/min_shrink)`, `h_new = h / quot`. After an
//! accepted step that follows another one, the predictive controller of Gustafsson (1994)
//! takes the smaller of this and `h_new = h / clamp((h_acc/h) (err²/err_acc)^{1/4}/safety, …)`.
//! RADAU5's bounds `facr = 1/8`, `facl = 5` are here `1/max_growth` (default 10, i.e. a
//! growth of 10 instead of 8) and `1/min_shrink` (default 0.2, as RADAU5).

use crate::options::Atol;
use crate::SolverOptions;

/// The tolerance level standing for `rtol` in the Newton tolerances: `rtol`, or with
/// `rtol = 0` the first absolute tolerance; at least `10 ε` (RADAU5 refuses smaller).
fn level(opts: &SolverOptions) -> f64 {
    let level = if opts.rtol > 0.0 {
        opts.rtol
    } else {
        match &opts.atol {
            Atol::Scalar(a) => *a,
            Atol::Vector(v) => v.first().copied().unwrap_or(1e-9),
        }
    };
    level.max(10.0 * f64::EPSILON)
}

/// A correction of `10 ε` relative to the state, in the scaled norm: `10 ε / rtol`.
pub(super) fn roundoff(opts: &SolverOptions) -> f64 {
    10.0 * f64::EPSILON / level(opts)
}

/// The Newton stopping tolerance `fnewt` with error control (see the module docs).
pub(super) fn newton_tolerance(opts: &SolverOptions) -> f64 {
    opts.newton
        .tol
        .unwrap_or_else(|| roundoff(opts).max(0.03f64.min(level(opts).sqrt())))
}

/// The Newton stopping tolerance with `h_fixed` ("to convergence"): the options' `newton.tol`,
/// else the round-off level `10 ε / rtol` (a correction of `10 ε` relative to the state).
pub(super) fn fixed_step_newton_tolerance(opts: &SolverOptions) -> f64 {
    opts.newton.tol.unwrap_or_else(|| roundoff(opts))
}

/// RADAU5's step-size controller.
#[derive(Debug, Clone, Copy)]
pub(super) struct Controller {
    safe: f64,
    /// Smallest `quot = h/h_new` (`1/max_growth`).
    facr: f64,
    /// Largest `quot` (`1/min_shrink`).
    facl: f64,
    /// `safe (1 + 2 nit)`.
    cfac: f64,
    nit: f64,
    /// Step size and error of the last accepted step (Gustafsson).
    h_acc: f64,
    err_acc: f64,
    /// Accepted steps since the last restart.
    accepted: usize,
}

impl Controller {
    /// A controller for the options' safety and limits and `nit` Newton iterations at most.
    pub fn new(opts: &SolverOptions, nit: usize) -> Self {
        let nit = nit as f64;
        Self {
            safe: opts.safety,
            facr: 1.0 / opts.max_growth,
            facl: 1.0 / opts.min_shrink,
            cfac: opts.safety * (1.0 + 2.0 * nit),
            nit,
            h_acc: 0.0,
            err_acc: 1e-2,
            accepted: 0,
        }
    }

    /// Forgets the step history (restart).
    pub fn reset(&mut self) {
        self.accepted = 0;
        self.h_acc = 0.0;
        self.err_acc = 1e-2;
    }

    /// `quot = h/h_new` from the error alone (used for a rejected step, and as the first
    /// candidate for an accepted one); `newt` Newton iterations were needed.
    pub fn quot(&self, err: f64, newt: usize) -> f64 {
        let fac = self.safe.min(self.cfac / (newt as f64 + 2.0 * self.nit));
        (err.sqrt().sqrt() / fac).clamp(self.facr, self.facl)
    }

    /// The next step size after an accepted step of size `h` with error `err < 1` and first
    /// candidate `quot` (the predictive controller from the second accepted step on).
    pub fn accepted(&mut self, h: f64, err: f64, quot: f64) -> f64 {
        let mut quot = quot;
        if self.accepted > 0 {
            let gus = (self.h_acc / h) * (err * err / self.err_acc).sqrt().sqrt() / self.safe;
            quot = quot.max(gus.clamp(self.facr, self.facl));
        }
        self.accepted += 1;
        self.h_acc = h;
        self.err_acc = err.max(1e-2);
        h / quot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newton_tolerance_is_hairers() {
        // max(10 ε / rtol, min(0.03, √rtol)).
        let f = newton_tolerance(&SolverOptions::with_tol(1e-6));
        assert!((f - 1e-3).abs() < 1e-15, "{f}");
        assert_eq!(newton_tolerance(&SolverOptions::with_tol(1e-2)), 0.03);
        let f = newton_tolerance(&SolverOptions::with_tol(1e-14));
        assert!((f - 10.0 * f64::EPSILON / 1e-14).abs() < 1e-15, "{f}");
        let mut o = SolverOptions::with_tol(1e-6);
        o.newton.tol = Some(0.5);
        assert_eq!(newton_tolerance(&o), 0.5);
    }

    #[test]
    fn controller_bounds_and_gustafsson() {
        let opts = SolverOptions::default();
        let mut c = Controller::new(&opts, 7);
        // A huge error shrinks by at most min_shrink, a tiny one grows by at most max_growth.
        assert_eq!(c.quot(1e12, 3), 5.0);
        assert_eq!(c.quot(1e-20, 1), 0.1);
        // First accepted step: the plain controller.
        let q = c.quot(0.5, 1);
        let h1 = c.accepted(0.1, 0.5, q);
        assert!((h1 - 0.1 / q).abs() < 1e-15);
        // Second step with a growing error: Gustafsson's prediction is the more cautious.
        let q2 = c.quot(0.9, 1);
        let h2 = c.accepted(0.1, 0.9, q2);
        assert!(h2 < 0.1 / q2 && h2 > 0.0, "{h2}");
    }
}
