//! Variable-order NDF/BDF: the numerical differentiation formulas of MATLAB's `ode15s`
//! (Shampine & Reichelt 1997, *The MATLAB ODE suite*, SIAM J. Sci. Comput. 18(1), §2) and,
//! with their correction switched off, the backward differentiation formulas, orders 1–5.
//!
//! The order-`k` formula (`κ` from Klopfenstein 1971 and Shampine & Reichelt, see
//! `coefficients`) is implemented in backward differences with a quasi-constant step size:
//! the history is the array `∇^j y_n` on an equally spaced grid, rescaled by interpolation when
//! the step changes (`differences`). A step predicts `y⁽⁰⁾ = Σ_{j=0}^{k} ∇^j y_n`, solves
//!
//! `M (ψ + d) = (h/α_k) f(t_{n+1}, y⁽⁰⁾ + d)`,  `α_k = (1 − κ_k) γ_k`,
//! `ψ = Σ_{j=1}^{k} γ_j ∇^j y_n / α_k`
//!
//! for `d = y_{n+1} − y⁽⁰⁾` by simplified Newton with the iteration matrix `M − (h/α_k) J`
//! (`newton`), and accepts when `(κ_k γ_k + 1/(k+1)) ‖d‖ ≤ 1` (`step`). The order and step
//! size are chosen as in `ode15s` (`selection`); the integration starts, and restarts after an
//! event ([`Stepper::truncate`]), at order 1 (`startup`). A constant mass matrix may be
//! singular (index-1 DAEs with consistent initial values). The dense output is the
//! interpolating polynomial of the differences (`dense`); [`amplification`] gives the linear
//! stability of the fixed-step formulas (`stability`).
//!
//! With `h_fixed` the step is constant and error control off: the order rises by one per step
//! from 1 up to `multistep.max_order` (the first steps' lower orders limit the global error of
//! the fixed-step method to `O(h²)` at orders above 2), and the Newton iteration may take up to
//! 100 iterations unless `newton.max_iters` says otherwise (a fixed step cannot be retried
//! smaller). `multistep.max_order` above 5 is an [`OdeError::InvalidOption`].

mod coefficients;
mod dense;
mod differences;
mod newton;
mod selection;
mod stability;
mod startup;
mod step;
mod work;

pub use stability::{amplification, boundary_locus, stability_angle};

use crate::linalg::{JacobianWork, Lu};
use crate::stepper::{all_finite, check_initial, initial_rhs, StepEnds, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use coefficients::{Coefficients, MAX_ORDER};
use work::Work;

/// The NDF (`ode15s`) or BDF stepper, orders 1–5.
#[derive(Debug, Clone)]
pub struct Bdf {
    coef: Coefficients,
    name: &'static str,
    /// Full state length (state plus variational columns).
    dim: usize,
    /// Highest order allowed.
    kmax: usize,
    t: f64,
    t_prev: f64,
    /// Step of the last accepted step (the differences belong to it until the next attempt).
    h: f64,
    /// Order of the last step.
    k: usize,
    /// Step and order proposed for the next attempt.
    h_next: f64,
    k_next: usize,
    /// Accepted steps since the step size or order last changed (`ode15s`'s `nconhk`).
    same_steps: usize,
    /// Constant step (`h_fixed`), error control off.
    fixed: bool,
    /// With a fixed step: the grid `fixed_origin + j h`, and the steps taken on it.
    fixed_origin: f64,
    fixed_count: u64,
    started: bool,
    /// After a truncation: the next step begins a new history at the current point.
    restart_pending: bool,
    /// A Jacobian is held; it was evaluated at the current point.
    jac_have: bool,
    jac_current: bool,
    /// The LU holds `M − (h/α_k) J` for the current `h`, `k` and `J`.
    lu_ok: bool,
    /// Newton contraction rate observed with the current iteration matrix.
    rate: Option<f64>,
    work: Work,
    jw: JacobianWork,
    lu: Lu,
}

#[allow(clippy::self_named_constructors)]
impl Bdf {
    fn with(ndf: bool) -> Self {
        Self {
            coef: Coefficients::new(ndf),
            name: if ndf { "ndf" } else { "bdf" },
            dim: 0,
            kmax: MAX_ORDER,
            t: 0.0,
            t_prev: 0.0,
            h: 0.0,
            k: 1,
            h_next: 0.0,
            k_next: 1,
            same_steps: 0,
            fixed: false,
            fixed_origin: 0.0,
            fixed_count: 0,
            started: false,
            restart_pending: false,
            jac_have: false,
            jac_current: false,
            lu_ok: false,
            rate: None,
            work: Work::default(),
            jw: JacobianWork::default(),
            lu: Lu::new(),
        }
    }

    /// The NDF variant (MATLAB `ode15s`).
    pub fn ndf() -> Self {
        Self::with(true)
    }

    /// The BDF variant (NDF correction off).
    pub fn bdf() -> Self {
        Self::with(false)
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.h_next
    }
}

impl Stepper for Bdf {
    fn name(&self) -> &'static str {
        self.name
    }

    /// The order of the last step (the highest allowed before the first).
    fn order(&self) -> u32 {
        if self.started {
            self.k as u32
        } else {
            self.kmax as u32
        }
    }

    fn is_adaptive(&self) -> bool {
        !self.fixed
    }

    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        check_initial(sys, t, y)?;
        let n = sys.dim();
        let kmax = opts.multistep.max_order.unwrap_or(MAX_ORDER);
        if !(1..=MAX_ORDER).contains(&kmax) {
            return Err(OdeError::InvalidOption {
                field: "multistep.max_order",
                reason: "must be in 1..=5 for ndf and bdf",
            });
        }
        self.jw.setup(sys)?;
        // Size the LU storage now: the first factorization happens inside a step.
        self.lu.matrix_mut(self.jw.n());
        self.started = false;
        if self.dim != n || self.work.y.len() != n {
            self.work.resize(n);
            self.dim = n;
        }
        self.kmax = kmax;
        self.fixed = opts.h_fixed.is_some();
        self.t = t;
        self.t_prev = t;
        self.work.y.copy_from_slice(y);
        initial_rhs(sys, t, &self.work.y, &mut self.work.f, stats)?;
        self.work.y_prev.copy_from_slice(y);
        self.work.f_prev.copy_from_slice(&self.work.f);
        self.jac_have = false;
        self.jac_current = false;
        self.restart_pending = false;
        self.begin_history(sys, opts, stats)?;
        self.started = true;
        Ok(())
    }

    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        if !self.started {
            return Err(OdeError::NotStarted);
        }
        if self.restart_pending {
            let w = &mut self.work;
            sys.rhs(self.t, &w.y, &mut w.f);
            stats.rhs_evals += 1;
            if !all_finite(&w.f) {
                return Err(OdeError::NonFinite { t: self.t, h: 0.0 });
            }
            w.f_prev.copy_from_slice(&w.f);
            // The old Jacobian is from another point; keep it only as an "old" one.
            self.jac_current = false;
            self.begin_history(sys, opts, stats)?;
            self.restart_pending = false;
        }
        self.advance(sys, t_stop, opts, stats)
    }

    fn t(&self) -> f64 {
        self.t
    }

    fn y(&self) -> &[f64] {
        &self.work.y
    }

    fn ends(&self) -> StepEnds<'_> {
        StepEnds {
            t0: self.t_prev,
            t1: self.t,
            y0: &self.work.y_prev,
            y1: &self.work.y,
            f0: &self.work.f_prev,
            f1: &self.work.f,
        }
    }

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        _sys: &S,
        t: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) {
        let n = out.len().min(self.dim);
        if self.restart_pending || self.t_prev == self.t {
            out[..n].copy_from_slice(&self.work.y[..n]);
            return;
        }
        dense::interpolate(
            &self.work.dif,
            self.k,
            self.t,
            self.h,
            &self.work.y,
            t,
            &mut out[..n],
        );
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // The history no longer belongs to this point: the next step begins a new one at
        // order 1 (with f(t, y) evaluated then).
        self.t = t;
        self.t_prev = t;
        let n = y.len().min(self.dim);
        self.work.y[..n].copy_from_slice(&y[..n]);
        self.work.y_prev[..n].copy_from_slice(&y[..n]);
        self.restart_pending = true;
        self.k = 1;
        self.k_next = 1;
    }
}
