//! Generic explicit Runge–Kutta engine driven by a [`Tableau`].
//!
//! One attempt computes the stages `k_i = f(t + c_i h, y + h Σ_{j<i} a_ij k_j)`, the new state
//! `y + h Σ b_i k_i` and the local error estimate of the tableau; the shared PI controller
//! ([`crate::control`]) accepts or rejects it. The workspace (stages, temporaries, dense-output
//! coefficients) is allocated in [`Stepper::start`] and reused: the step loop does not allocate.

mod dense;

use crate::control::{controlled_dims, initial_step, weight, NormAcc, PiController};
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
    /// Stages, `k_i` at `[i n, (i+1) n)`; room for DOP853's three extra dense stages.
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

    /// Stages of one attempt of size `h` from `(t, y)`; fills `ynew` and returns the scaled error
    /// norm (0 for fixed-step methods). `k_1 = f(t, y)` is already in place.
    #[inline]
    fn attempt<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        let n = self.n;
        let tab = self.tab;
        let s = tab.stages();
        self.k[..n].copy_from_slice(&self.f);
        for i in 1..s {
            let (done, rest) = self.k.split_at_mut(i * n);
            combine(&mut self.ytmp, &self.y, h, tab.a[i], done, n);
            sys.rhs(self.t + tab.c[i] * h, &self.ytmp, &mut rest[..n]);
        }
        stats.rhs_evals += s - 1;
        if tab.fsal {
            // The last stage was evaluated at y + h Σ b_j k_j (its a-row equals b).
            self.ynew.copy_from_slice(&self.ytmp);
        } else {
            combine(&mut self.ynew, &self.y, h, tab.b, &self.k[..s * n], n);
        }
        let m = controlled_dims(opts, n);
        match tab.error {
            _ if self.ctl.is_none() => {
                if self.ynew.iter().all(|v| v.is_finite()) {
                    0.0
                } else {
                    f64::NAN
                }
            }
            ErrorEstimate::None => 0.0,
            ErrorEstimate::Embedded(e) => {
                let mut acc = NormAcc::new(opts.norm);
                for c in 0..m {
                    let mut err = 0.0;
                    for (j, &ej) in e.iter().enumerate() {
                        if ej != 0.0 {
                            err += ej * self.k[j * n + c];
                        }
                    }
                    acc.add(h * err / weight(opts, c, self.y[c], self.ynew[c]));
                }
                acc.finish()
            }
            ErrorEstimate::Dop853 { e5, e3 } => {
                let (mut a5, mut a3) = (NormAcc::new(opts.norm), NormAcc::new(opts.norm));
                for c in 0..m {
                    let (mut r5, mut r3) = (0.0, 0.0);
                    for j in 0..s {
                        let kj = self.k[j * n + c];
                        r5 += e5[j] * kj;
                        r3 += e3[j] * kj;
                    }
                    let w = weight(opts, c, self.y[c], self.ynew[c]);
                    a5.add(h * r5 / w);
                    a3.add(h * r3 / w);
                }
                let (err5, err3) = (a5.finish(), a3.finish());
                let deno = err5 * err5 + 0.01 * err3 * err3;
                if deno > 0.0 {
                    err5 * err5 / deno.sqrt()
                } else {
                    err5
                }
            }
        }
    }
}

/// `out = y + h Σ_j coef_j k_j` over the stages in `k` (zero coefficients skipped).
#[inline(always)]
fn combine(out: &mut [f64], y: &[f64], h: f64, coef: &[f64], k: &[f64], n: usize) {
    out.copy_from_slice(y);
    for (j, &a) in coef.iter().enumerate() {
        if a != 0.0 {
            let ha = h * a;
            let kj = &k[j * n..(j + 1) * n];
            for (o, kv) in out.iter_mut().zip(kj) {
                *o += ha * kv;
            }
        }
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
            self.ctl = Some(PiController::new(self.tab.error_order, opts));
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
        let n = self.n;
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
                        OdeError::StepTooSmall { t: self.t, h: h_next }
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
            let s = self.tab.stages();
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

    fn dense<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, out: &mut [f64], stats: &mut Stats) {
        match self.tab.dense {
            DenseOutput::Hermite => self.ends().hermite(t, out),
            DenseOutput::Dp5 { d } => {
                if !self.dense_ready {
                    self.prepare_dp5(d);
                }
                self.eval_dp5(t, out);
            }
            DenseOutput::Dop853(coef) => {
                if !self.dense_ready {
                    self.prepare_dop853(sys, coef, stats);
                }
                self.eval_dop853(t, out);
            }
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
