//! Radau IIA of order 5: the 3-stage collocation method at the Radau right points, implemented
//! as Hairer & Wanner's code RADAU5 (*Solving ODEs II: Stiff and Differential-Algebraic
//! Problems*, 2nd ed., Springer 1996, §IV.8).
//!
//! For `M y' = f(t, y)` (`M` constant, possibly singular: index-1 DAEs) one step solves the
//! stage equations `M Zᵢ = h Σⱼ aᵢⱼ f(t + cⱼh, y + Zⱼ)`, `i = 1, 2, 3`, and sets
//! `y₁ = y + Z₃` (`c = ((4−√6)/10, (4+√6)/10, 1)`, order 5, stage order 3, L-stable).
//!
//! * **Newton** (`newton.rs`): simplified Newton on the transformed increments
//!   `W = (T⁻¹ ⊗ I) Z` with one real `n × n` LU of `γ̂/h M − J` and one complex `n × n` LU of
//!   `(α̂ + iβ̂)/h M − J` per step size; starting values from the previous step's collocation
//!   polynomial, extrapolated (zero at the first step and after a restart); contraction-rate
//!   monitoring and Hairer's stopping test; at most `nit` iterations (default 7).
//! * **Jacobian and LU reuse**: `J` is recomputed only when the last step's contraction rate
//!   `Θ` exceeded `thet` (default 0.001, `newton.jacobian_reuse`), or after a failure with an
//!   old `J`; the LU factors are kept (and the step size with them) when `Θ ≤ thet` and the
//!   proposed step ratio lies in `[1, 1.2]` (RADAU5's `quot1`, `quot2`).
//! * **Error estimate** (`estimate.rs`) and **step size** (`controller.rs`): RADAU5's embedded
//!   estimate filtered through the real LU, with the second estimate at the first step and
//!   after a rejection; the predictive controller of Gustafsson; the crate's error weights with
//!   the user's tolerances (without RADAU5's transformation `rtol' = 0.1 rtol^{2/3}`, see
//!   `controller.rs`).
//! * **Dense output** (`dense.rs`): the collocation polynomial (RADAU5's `CONTR5`), uniform
//!   error `O(h⁴)`.
//! * **Fixed step** (`h_fixed`): constant steps, no error estimate, Newton to convergence (to
//!   the round-off level `10 ε / rtol` of the scaled norm, at most 50 iterations unless
//!   `newton.tol` / `newton.max_iters` say otherwise).
//!
//! Newton failures halve the step (or shrink it by RADAU5's predicted factor); a singular
//! iteration matrix halves it too, at most 5 times per step before
//! [`OdeError::SingularMatrix`]. The workspace is allocated in `start`; steps do not allocate.

mod coefficients;
mod controller;
mod dense;
mod estimate;
mod newton;
mod stability;
mod step;
mod work;

pub use stability::stability_function;

use crate::control::initial_step;
use crate::linalg::{ComplexLu, JacobianWork, Lu};
use crate::step_state::{state_accessors, StepState};
use crate::stepper::{check_initial, first_step, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use controller::{fixed_step_newton_tolerance, newton_tolerance, Controller};
use newton::Contraction;
use work::Work;

/// RADAU5's default Jacobian-reuse threshold `thet`.
const DEFAULT_THET: f64 = 0.001;
/// RADAU5's default Newton iteration cap `nit`.
const DEFAULT_NIT: usize = 7;
/// Newton iteration cap with `h_fixed` (no smaller step to fall back on): iterate to
/// convergence, divergence (`Θ ≥ 0.99`) or this many iterations.
const FIXED_STEP_NIT: usize = 50;
/// RADAU5's default initial step when no estimate is available (a singular mass matrix).
const DEFAULT_H0: f64 = 1e-6;

/// The Radau IIA (order 5) stepper with its workspace.
#[derive(Debug, Clone)]
pub struct Radau5 {
    jw: JacobianWork,
    lu: Lu,
    clu: ComplexLu,
    w: Work,
    /// The current point, the last step's start and the next step size (constant with
    /// `h_fixed`).
    state: StepState,
    /// Size of the last accepted step (for the extrapolated starting values).
    h_old: f64,
    /// Step size the LU factors were computed for (`None`: none valid).
    lu_h: Option<f64>,
    /// A new Jacobian is due before the next attempt.
    need_jac: bool,
    /// The Jacobian was evaluated at the current point (RADAU5's `CALJAC`).
    jac_current: bool,
    /// No step accepted since the (re)start: zero starting values, 0.1 shrink on rejection,
    /// second error estimate.
    first: bool,
    /// The last attempt was rejected (second error estimate, no growth after acceptance).
    reject: bool,
    con: Contraction,
    /// Newton stopping tolerance.
    fnewt: f64,
    ctl: Controller,
}

impl Default for Radau5 {
    fn default() -> Self {
        Self::new()
    }
}

impl Radau5 {
    /// A fresh stepper (workspace sized on `start`).
    pub fn new() -> Self {
        let opts = SolverOptions::default();
        Self {
            jw: JacobianWork::default(),
            lu: Lu::new(),
            clu: ComplexLu::new(),
            w: Work::default(),
            state: StepState::default(),
            h_old: 0.0,
            lu_h: None,
            need_jac: true,
            jac_current: false,
            first: true,
            reject: false,
            con: Contraction {
                theta: DEFAULT_THET,
                faccon: 1.0,
            },
            fnewt: newton_tolerance(&opts),
            ctl: Controller::new(&opts, DEFAULT_NIT),
        }
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.state.h
    }
}

impl Stepper for Radau5 {
    fn name(&self) -> &'static str {
        "radau5"
    }

    fn order(&self) -> u32 {
        5
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
        let dim = sys.dim();
        self.jw.setup(sys)?;
        self.w.resize(dim);
        self.state.resize(dim);
        self.state.start_at(sys, t, y, stats)?;
        // With `h_fixed` the first step (`h_fixed`) is every step: `state.h` stays.
        self.state.fixed = opts.h_fixed.is_some();
        let identity_mass = self.jw.has_identity_mass();
        let (st, w) = (&self.state, &mut self.w);
        let h = first_step(opts, || {
            if !identity_mass {
                return DEFAULT_H0.min(opts.h_max);
            }
            let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
            stats.rhs_evals += 1;
            // Order 3: the error estimate the controller sees is O(h⁴).
            let h = initial_step(&mut rhs, t, &st.y, &st.f, 3, opts, &mut w.tmp, &mut w.tmp2);
            if h > 0.0 && h.is_finite() {
                h
            } else {
                DEFAULT_H0.min(opts.h_max)
            }
        });
        self.state.h = h;
        self.h_old = h;
        self.lu_h = None;
        self.need_jac = true;
        self.jac_current = false;
        self.first = true;
        self.reject = false;
        let thet = opts.newton.jacobian_reuse.unwrap_or(DEFAULT_THET);
        self.con = Contraction {
            theta: thet,
            faccon: 1.0,
        };
        self.fnewt = if opts.h_fixed.is_some() {
            fixed_step_newton_tolerance(opts)
        } else {
            newton_tolerance(opts)
        };
        self.ctl = Controller::new(opts, opts.newton.max_iters.unwrap_or(DEFAULT_NIT));
        for q in &mut self.w.q {
            q.fill(0.0);
        }
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
        let h = st.t - st.t_prev;
        if h == 0.0 {
            st.copy_y(out);
            return;
        }
        let n = out.len().min(st.n);
        let q = &self.w.q;
        dense::eval(
            &st.y[..n],
            [&q[0][..n], &q[1][..n], &q[2][..n]],
            (t - st.t) / h,
            &mut out[..n],
        );
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // f(t, y) is evaluated by the next step, if there is one.
        self.state.truncate(t, y);
        // The old collocation polynomial no longer starts here: zero starting values, and the
        // controller forgets its history. The Jacobian and LU factors stay (they are
        // approximations anyway; a Newton failure with them recomputes J).
        self.first = true;
        self.reject = false;
        self.jac_current = false;
        self.ctl.reset();
    }
}
