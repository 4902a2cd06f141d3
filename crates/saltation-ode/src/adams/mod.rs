//! Variable-order, variable-step Adams–Bashforth–Moulton PECE in modified divided differences:
//! Shampine & Gordon's DE/STEP (L. F. Shampine and M. K. Gordon, *Computer Solution of Ordinary
//! Differential Equations: the Initial Value Problem*, Freeman 1975), the method of MATLAB's
//! `ode113` (Shampine & Reichelt, *The MATLAB ODE Suite*, SIAM J. Sci. Comput. 18, 1997, §4).
//!
//! One step of order `k` (1 ≤ k ≤ 12, capped by `multistep.max_order`) from `x_n` to
//! `x_{n+1} = x_n + h`, in the notation of [`coefficients`]:
//!
//! 1. **P**redict with the Adams–Bashforth formula of order `k`:
//!    `p = y_n + h Σ_{i=1}^{k} g_i φ*_i(n)`, `φ*_i(n) = β_i φ_i(n)`.
//! 2. **E**valuate `f^p = f(x_{n+1}, p)`; the predicted difference is
//!    `φ^p_{k+1}(n+1) = f^p − Σ_{i≤k} φ*_i(n)` (and `φ^p_k = φ^p_{k+1} + φ*_k`, …).
//! 3. Estimate the local error of the order-`k` corrector,
//!    `err = |h| (g_k − g_{k+1}) ‖φ^p_{k+1}‖` (the difference of the Adams–Moulton formulas of
//!    orders `k+1` and `k`), and the order-selection estimates (see [`selection`]). A step
//!    with `err > 1` is rejected.
//! 4. **C**orrect with the Adams–Moulton formula of order `k+1`:
//!    `y_{n+1} = p + h g_{k+1} φ^p_{k+1}(n+1)`. This is *local extrapolation*: the error is
//!    estimated for order `k` but the more accurate order-`k+1` value is propagated, so the
//!    solution of "order `k`" converges with order `k+1` (MATLAB: "a formula of order 13 is
//!    used to form the error estimate and the function does local extrapolation").
//! 5. **E**valuate `f_{n+1} = f(x_{n+1}, y_{n+1})` and update the differences:
//!    `φ_1(n+1) = f_{n+1}`, `φ_{i+1}(n+1) = φ_i(n+1) − φ*_i(n)`, `i = 1..=k+1`.
//!
//! Two evaluations of `f` per step, whatever the order. The integration starts at order 1 with
//! the step `h = ¼ / √‖f₀ / w‖` (STEP's starting step in the crate's scaled norm, unless
//! `h_init` is given); in the start phase the order rises by one and the step doubles at every
//! step. An event ([`Stepper::truncate`]) restarts the history at order 1. With `h_fixed` the
//! step is constant and error control off; the order ramps `1, 2, …` up to the cap and stays
//! there.
//!
//! The dense output is the interpolant of Shampine & Gordon's `SINTRP` (see [`dense`]).
//! Error weights and norms are the crate's ([`crate::control::weight`], [`NormAcc`],
//! `controlled_dims`); the explicit method requires `M = I`. The workspace is allocated in
//! `start`; steps and dense output do not allocate.
//!
//! [`amplification`] gives the linear stability of the fixed-step scheme for the lecture
//! figures.

mod coefficients;
mod dense;
mod selection;
mod stability;
mod step;

pub use stability::amplification;

use crate::control::{controlled_dims, weight, NormAcc};
use crate::step_state::{state_accessors, StepState};
use crate::stepper::{
    all_finite, check_initial, first_step, initial_rhs, require_identity_mass, zeroed, Stepper,
};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use coefficients::{KMAX, LEN};

/// Method name.
const NAME: &str = "abm";

/// The `abm` stepper (MATLAB `ode113`): variable-order Adams–Bashforth–Moulton PECE.
#[derive(Debug, Clone)]
pub struct Abm {
    /// The current point, the last step's start and the step proposed for the next step
    /// (`fixed`: constant steps, no error control; `f_stale`: after a truncation, `f` at the
    /// current point is still to be evaluated and the history restarted).
    state: StepState,
    /// Order cap (`multistep.max_order`, default 12).
    kmax: usize,
    /// Order for the next step.
    k: usize,
    /// Order of the last accepted step (0 before the first one).
    k_old: usize,
    /// Size of the last accepted step.
    h_old: f64,
    /// Steps taken with the current step size (STEP's `ns`, at most `k_old + 1`).
    ns: usize,
    /// Start phase: raise the order and double the step at every step.
    phase1: bool,
    /// Fixed steps: the times are `t_base + j h` (no drift from summing `h`), `j = n_fixed`
    /// steps since `t_base` (the start, a restart or a step cut short at a stop time).
    t_base: f64,
    n_fixed: usize,
    /// History lengths `ψ_j` at the current point (0 where the history is shorter).
    psi: [f64; LEN],
    /// Predicted, then corrected state of an attempt, and `f` there.
    p: Vec<f64>,
    fp: Vec<f64>,
    /// `Σ_{i≤k} g_i φ*_i` of an attempt.
    dy: Vec<f64>,
    /// `Σ_{i≤k} φ*_i` of an attempt (scratch when the differences are updated).
    sk: Vec<f64>,
    /// `φ_i` at `[(i−1) n, i n)`, `i = 1..=KMAX+2`.
    phi: Vec<f64>,
}

impl Default for Abm {
    fn default() -> Self {
        Self::new()
    }
}

impl Abm {
    /// A fresh stepper (workspace sized on `start`).
    pub fn new() -> Self {
        Self {
            state: StepState::default(),
            kmax: KMAX,
            k: 1,
            k_old: 0,
            h_old: 0.0,
            ns: 0,
            phase1: true,
            t_base: 0.0,
            n_fixed: 0,
            psi: [0.0; LEN],
            p: Vec::new(),
            fp: Vec::new(),
            dy: Vec::new(),
            sk: Vec::new(),
            phi: Vec::new(),
        }
    }

    /// Order of the last accepted step (0 before the first step and right after a restart).
    /// The propagated solution is one order higher (local extrapolation).
    pub fn current_order(&self) -> usize {
        self.k_old
    }

    /// Order chosen for the next step.
    pub fn next_order(&self) -> usize {
        self.k
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.state.h
    }

    /// Sizes the workspace for dimension `n` (only when it changes).
    fn allocate(&mut self, n: usize) {
        if self.state.n == n && self.phi.len() == (KMAX + 2) * n && !self.state.y.is_empty() {
            return;
        }
        self.state.resize(n);
        zeroed([&mut self.p, &mut self.fp, &mut self.dy, &mut self.sk], n);
        self.phi.clear();
        self.phi.resize((KMAX + 2) * n, 0.0);
    }

    /// Restarts the history at the current point, whose `f` is in the state: order 1, one
    /// point, `φ_1 = f`, the other differences 0, an empty last step.
    fn reset_history(&mut self) {
        let st = &mut self.state;
        let n = st.n;
        st.t_prev = st.t;
        st.y_prev.copy_from_slice(&st.y);
        st.f_prev.copy_from_slice(&st.f);
        self.phi[..n].copy_from_slice(&st.f);
        self.phi[n..].fill(0.0);
        self.psi = [0.0; LEN];
        self.k = 1;
        self.k_old = 0;
        self.h_old = 0.0;
        self.ns = 0;
        self.phase1 = true;
        self.t_base = st.t;
        self.n_fixed = 0;
    }

    /// STEP's starting step `¼ / √‖f / w‖` (infinite for `f = 0`: the first step then goes to
    /// the stop time), or `h_init`; at most `h_max`.
    fn starting_step(&self, opts: &SolverOptions) -> f64 {
        let h = match opts.h_init {
            Some(h) => h,
            None => {
                let (mut acc, st) = (NormAcc::new(opts.norm), &self.state);
                for m in 0..controlled_dims(opts, st.n) {
                    acc.add(st.f[m] / weight(opts, m, st.y[m], st.y[m]));
                }
                let norm = acc.finish();
                if norm > 0.0 {
                    0.25 / norm.sqrt()
                } else {
                    f64::INFINITY
                }
            }
        };
        h.min(opts.h_max)
    }

    /// Evaluates `f` at the current point (after a truncation) and restarts the history.
    fn restart_here<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let st = &mut self.state;
        sys.rhs(st.t, &st.y, &mut st.f);
        stats.rhs_evals += 1;
        if !all_finite(&st.f) {
            return Err(OdeError::NonFiniteRhs { t: st.t });
        }
        self.reset_history();
        if !self.state.fixed {
            self.state.h = self.state.h.min(self.starting_step(opts));
        }
        self.state.f_stale = false;
        Ok(())
    }
}

impl Stepper for Abm {
    fn name(&self) -> &'static str {
        NAME
    }

    /// The order cap (12 by default, as `Method::Abm.order()`); the propagated solution is
    /// one order higher by local extrapolation.
    fn order(&self) -> u32 {
        self.kmax as u32
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
        require_identity_mass(sys, NAME)?;
        if let Some(h) = opts.h_fixed {
            if !(h > 0.0 && h.is_finite()) {
                return Err(OdeError::InvalidOption {
                    field: "h_fixed",
                    reason: "must be finite and > 0",
                });
            }
        }
        self.state.fixed = opts.h_fixed.is_some();
        self.kmax = opts.multistep.max_order.unwrap_or(KMAX).clamp(1, KMAX);
        self.allocate(n);
        let st = &mut self.state;
        st.t = t;
        st.y.copy_from_slice(y);
        initial_rhs(sys, t, &st.y, &mut st.f, stats)?;
        // The empty last step is made by `reset_history`.
        self.reset_history();
        self.state.h = first_step(opts, || self.starting_step(opts));
        self.state.f_stale = false;
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
            self.restart_here(sys, opts, stats)?;
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
        if self.k_old == 0 || t == st.t {
            st.copy_y(out);
            return;
        }
        dense::interpolate(
            t - st.t,
            &self.psi,
            self.k_old + 1,
            &st.y,
            &self.phi,
            &mut out[..st.n],
        );
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // The old step's polynomial no longer matches its ends: make the last step empty. `f`
        // here is evaluated, and the history restarted at order 1, by the next step, if any.
        self.state.truncate(t, y);
        self.k_old = 0;
    }
}
