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
use crate::step_state::{state_accessors, StepState};
use crate::stepper::{all_finite, check_initial, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use coefficients::{Coefficients, MAX_ORDER};
use work::Work;

/// The NDF (`ode15s`) or BDF stepper, orders 1–5.
#[derive(Debug, Clone)]
pub struct Bdf {
    coef: Coefficients,
    name: &'static str,
    /// Highest order allowed.
    kmax: usize,
    /// The current point, the last step's start and the step proposed for the next attempt
    /// (`fixed`: constant steps, error control off; `f_stale`: after a truncation, the next step
    /// begins a new history at the current point).
    state: StepState,
    /// Step of the last accepted step (the differences belong to it until the next attempt).
    h_dif: f64,
    /// Order of the last step.
    k: usize,
    /// Order proposed for the next attempt.
    k_next: usize,
    /// Accepted steps since the step size or order last changed (`ode15s`'s `nconhk`).
    same_steps: usize,
    /// With a fixed step: the grid `fixed_origin + j h`, and the steps taken on it.
    fixed_origin: f64,
    fixed_count: u64,
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
            kmax: MAX_ORDER,
            state: StepState::default(),
            h_dif: 0.0,
            k: 1,
            k_next: 1,
            same_steps: 0,
            fixed_origin: 0.0,
            fixed_count: 0,
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
        self.state.h
    }
}

/// The algebraic equations of an index-1 DAE (the rows `i` of a zero row of `M`, where
/// `0 = f_i(t₀, y₀)`) must hold at the start to the tolerance, `|f_i| ≤ atol_i + rtol ‖y₀‖∞`:
/// from inconsistent values the first step has no solution at any size, and the step size fell
/// to its floor at t₀ with a message about the error test ([`OdeError::InconsistentInitial`]).
fn check_consistent(
    mass: Option<&[f64]>,
    n: usize,
    y: &[f64],
    f: &[f64],
    opts: &SolverOptions,
) -> Result<(), OdeError> {
    let Some(m) = mass else {
        return Ok(());
    };
    let scale = y[..n].iter().fold(0.0f64, |a, v| a.max(v.abs()));
    for i in 0..n {
        let algebraic = m[i * n..(i + 1) * n].iter().all(|&v| v == 0.0);
        let tol = opts.atol.get(i) + opts.rtol_in_use() * scale;
        if algebraic && !(f[i].abs() <= tol) {
            return Err(OdeError::InconsistentInitial {
                equation: i,
                residual: f[i],
                tol,
            });
        }
    }
    Ok(())
}

impl Stepper for Bdf {
    fn name(&self) -> &'static str {
        self.name
    }

    /// The order of the last step (the highest allowed before the first).
    fn order(&self) -> u32 {
        if self.state.started {
            self.k as u32
        } else {
            self.kmax as u32
        }
    }

    fn is_adaptive(&self) -> bool {
        !self.state.fixed
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
        self.state.started = false;
        if self.state.n != n || self.work.ynew.len() != n {
            self.work.resize(n);
        }
        self.state.resize(n);
        self.kmax = kmax;
        self.state.fixed = opts.h_fixed.is_some();
        self.state.start_at(sys, t, y, stats)?;
        check_consistent(
            self.jw.mass(),
            self.jw.n(),
            &self.state.y,
            &self.state.f,
            opts,
        )?;
        self.jac_have = false;
        self.jac_current = false;
        self.begin_history(sys, opts, stats)?;
        self.state.started = true;
        Ok(())
    }

    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        self.state.ensure_started()?;
        if self.state.f_stale {
            let st = &mut self.state;
            sys.rhs(st.t, &st.y, &mut st.f);
            stats.rhs_evals += 1;
            if !all_finite(&st.f) {
                return Err(OdeError::NonFinite { t: st.t, h: 0.0 });
            }
            st.f_prev.copy_from_slice(&st.f);
            // The old Jacobian is from another point; keep it only as an "old" one.
            self.jac_current = false;
            self.begin_history(sys, opts, stats)?;
            self.state.f_stale = false;
        }
        self.advance(sys, t_stop, opts, stats)
    }

    state_accessors!(state);

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        _sys: &S,
        t: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) {
        let st = &self.state;
        if st.f_stale || st.t_prev == st.t {
            st.copy_y(out);
            return;
        }
        let n = out.len().min(st.n);
        dense::interpolate(
            &self.work.dif,
            self.k,
            st.t,
            self.h_dif,
            &st.y,
            t,
            &mut out[..n],
        );
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // The history no longer belongs to this point: the next step begins a new one at
        // order 1 (with f(t, y) evaluated then).
        self.state.truncate(t, y);
        self.k = 1;
        self.k_next = 1;
    }
}
