//! Generic explicit Runge–Kutta engine driven by a [`Tableau`].
//!
//! One attempt computes the stages `k_i = f(t + c_i h, y + h Σ_{j<i} a_ij k_j)`, the new state
//! `y + h Σ b_i k_i` and the local error estimate of the tableau; the shared PI controller
//! ([`crate::control`]) accepts or rejects it. The workspace (stages, temporaries, dense-output
//! coefficients) is allocated in [`Stepper::start`] and reused: the step loop does not allocate.

mod dense;
mod dim;
mod kernel;

use crate::control::{initial_step, PiController};
use crate::stepper::{StepEnds, Stepper};
use crate::tableau::{DenseOutput, ErrorEstimate, Tableau};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// An explicit Runge–Kutta method with its workspace.
#[derive(Debug, Clone)]
pub struct ExplicitRk {
    tab: &'static Tableau,
    n: usize,
    t: f64,
    t_prev: f64,
    h: f64,
    y: Vec<f64>,
    y_prev: Vec<f64>,
    f: Vec<f64>,
    f_prev: Vec<f64>,
    /// Stages, `k_j` at `[j n, (j+1) n)`; room for DOP853's stage 13 and three extra dense stages.
    k: Vec<f64>,
    ytmp: Vec<f64>,
    ynew: Vec<f64>,
    /// Dense-output polynomial coefficients `r_1..r_8` of the last step.
    rcont: Vec<f64>,
    dense_ready: bool,
    ctl: Option<PiController>,
    started: bool,
}

impl ExplicitRk {
    /// A stepper for `tab` (workspace sized on `start`).
    pub fn new(tab: &'static Tableau) -> Self {
        Self {
            tab,
            n: 0,
            t: 0.0,
            t_prev: 0.0,
            h: 0.0,
            y: Vec::new(),
            y_prev: Vec::new(),
            f: Vec::new(),
            f_prev: Vec::new(),
            k: Vec::new(),
            ytmp: Vec::new(),
            ynew: Vec::new(),
            rcont: Vec::new(),
            dense_ready: false,
            ctl: None,
            started: false,
        }
    }

    /// The tableau driving this stepper.
    pub fn tableau(&self) -> &'static Tableau {
        self.tab
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.h
    }
}

impl Stepper for ExplicitRk {
    fn name(&self) -> &'static str {
        self.tab.name
    }

    fn order(&self) -> u32 {
        self.tab.order
    }

    fn is_adaptive(&self) -> bool {
        self.ctl.is_some() || (!self.started && self.tab.is_adaptive())
    }

    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = sys.dim();
        if y.len() != n {
            return Err(OdeError::DimensionMismatch {
                what: "initial state",
                expected: n,
                got: y.len(),
            });
        }
        if !t.is_finite() || y.iter().any(|v| !v.is_finite()) {
            return Err(OdeError::NonFiniteInitial { t });
        }
        if self.n != n || self.k.is_empty() {
            self.n = n;
            for v in [
                &mut self.y,
                &mut self.y_prev,
                &mut self.f,
                &mut self.f_prev,
                &mut self.ytmp,
                &mut self.ynew,
            ] {
                v.clear();
                v.resize(n, 0.0);
            }
            self.k = vec![0.0; (self.tab.stages() + 4) * n];
            self.rcont = vec![0.0; 8 * n];
        }
        self.t = t;
        self.t_prev = t;
        self.y.copy_from_slice(y);
        self.y_prev.copy_from_slice(y);
        sys.rhs(t, &self.y, &mut self.f);
        stats.rhs_evals += 1;
        self.f_prev.copy_from_slice(&self.f);
        self.dense_ready = false;
        if self.tab.is_adaptive() && opts.h_fixed.is_none() {
            // Hairer's codes: β = 0.04 in dopri5, 0 in dop853.
            let beta = if matches!(self.tab.error, ErrorEstimate::Dop853 { .. }) {
                0.0
            } else {
                0.04
            };
            self.ctl = Some(PiController::new(self.tab.error_order, beta, opts));
            self.h = match opts.h_init {
                Some(h) => h.min(opts.h_max),
                None => {
                    let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
                    stats.rhs_evals += 1;
                    initial_step(
                        &mut rhs,
                        t,
                        &self.y,
                        &self.f,
                        self.tab.order,
                        opts,
                        &mut self.ytmp,
                        &mut self.ynew,
                    )
                }
            };
        } else {
            self.ctl = None;
            self.h = opts
                .h_fixed
                .or(opts.h_init)
                .ok_or(OdeError::FixedStepNeedsStep {
                    method: self.tab.name,
                })?;
        }
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
        loop {
            let remaining = t_stop - self.t;
            let mut h = self.h.min(opts.h_max);
            let mut last = false;
            // Land exactly on t_stop, and avoid a sliver of a last step.
            if h >= remaining * (1.0 - 1e-12) {
                h = remaining;
                last = true;
            }
            let floor = opts.h_min.max(16.0 * f64::EPSILON * self.t.abs());
            let err = self.attempt(sys, h, opts, stats);
            let (accept, h_next) = match self.ctl.as_mut() {
                None if err.is_nan() => return Err(OdeError::NonFinite { t: self.t, h }),
                None => (true, self.h),
                Some(_) if !err.is_finite() => (false, h * opts.min_shrink),
                Some(c) => c.next(h, err),
            };
            if !accept {
                stats.rejected_steps += 1;
                if h_next < floor {
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
                continue;
            }
            // Accept: shift the current point to the previous one.
            std::mem::swap(&mut self.y_prev, &mut self.y);
            std::mem::swap(&mut self.f_prev, &mut self.f);
            std::mem::swap(&mut self.y, &mut self.ynew);
            self.t_prev = self.t;
            self.t = if last { t_stop } else { self.t + h };
            let (s, n) = (self.tab.stages(), self.n);
            if self.tab.fsal {
                self.f.copy_from_slice(&self.k[(s - 1) * n..s * n]);
            } else {
                sys.rhs(self.t, &self.y, &mut self.f);
                stats.rhs_evals += 1;
                // DOP853's dense output uses f(t+h, y₁) as its stage 13.
                self.k[s * n..(s + 1) * n].copy_from_slice(&self.f);
            }
            if self.y.iter().any(|v| !v.is_finite()) || self.f.iter().any(|v| !v.is_finite()) {
                return Err(OdeError::NonFinite { t: self.t_prev, h });
            }
            stats.steps += 1;
            self.dense_ready = false;
            if self.ctl.is_some() && !last {
                self.h = h_next;
            }
            return Ok(());
        }
    }

    fn t(&self) -> f64 {
        self.t
    }

    fn y(&self) -> &[f64] {
        &self.y
    }

    fn ends(&self) -> StepEnds<'_> {
        StepEnds {
            t0: self.t_prev,
            t1: self.t,
            y0: &self.y_prev,
            y1: &self.y,
            f0: &self.f_prev,
            f1: &self.f,
        }
    }

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) {
        match self.tab.dense {
            DenseOutput::Hermite => self.ends().hermite(t, out),
            DenseOutput::Dp5 { d } => dim::with_dim!(self.n, |dim| {
                if !self.dense_ready {
                    self.prepare_dp5(dim, d);
                }
                self.eval_dp5(dim, t, out)
            }),
            DenseOutput::Dop853(coef) => dim::with_dim!(self.n, |dim| {
                if !self.dense_ready {
                    if std::ptr::eq(coef, &crate::tableau::DOP853_DENSE) {
                        self.prepare_dop853(dim, sys, &crate::tableau::DOP853_DENSE, stats);
                    } else {
                        self.prepare_dop853(dim, sys, coef, stats);
                    }
                }
                self.eval_dop853(dim, t, out)
            }),
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, y: &[f64], stats: &mut Stats) {
        self.t = t;
        self.y.copy_from_slice(y);
        sys.rhs(t, &self.y, &mut self.f);
        stats.rhs_evals += 1;
        self.dense_ready = false;
        // The old step's polynomial no longer matches its ends: make the last step empty.
        self.t_prev = t;
        self.y_prev.copy_from_slice(y);
        self.f_prev.copy_from_slice(&self.f);
        if let Some(c) = self.ctl.as_mut() {
            c.reset();
        }
    }
}
