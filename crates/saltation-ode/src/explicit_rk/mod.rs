//! Generic explicit Runge–Kutta engine driven by a [`Tableau`].
//!
//! One attempt computes the stages `k_i = f(t + c_i h, y + h Σ_{j<i} a_ij k_j)`, the new state
//! `y + h Σ b_i k_i` (for a tableau without FSAL also `f` there, before the error test, so that
//! this RHS call overlaps the error norm) and the local error estimate of the tableau; the
//! shared PI controller ([`crate::control`]) accepts or rejects it. The workspace (stages,
//! temporaries, dense-output coefficients) is allocated in [`Stepper::start`] and reused: the
//! step loop does not allocate.

mod dense;

mod kernel;

mod stiffness;

use crate::control::{initial_step, PiController};
use crate::step_state::{state_accessors, StepState};
use crate::stepper::{check_initial, first_step, require_identity_mass, Stepper};
use crate::tableau::{DenseOutput, ErrorEstimate, Tableau};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// The workspace of an [`ExplicitRk`] besides its [`StepState`], as named slices of one buffer.
pub(super) struct Parts<'a> {
    /// Stage argument.
    pub ytmp: &'a mut [f64],
    /// Candidate new state.
    pub ynew: &'a mut [f64],
    /// Stages, `k_j` at `[j n, (j+1) n)`, then room for `f` at the candidate new point (written
    /// by every attempt of a tableau without FSAL; DOP853's stage 13) and DOP853's three extra
    /// dense-output stages.
    pub k: &'a mut [f64],
    /// Dense-output polynomial coefficients `r_1..r_8` of the last step.
    pub rcont: &'a mut [f64],
}

/// Workspace length for dimension `n` and `stages` stages.
fn work_len(n: usize, stages: usize) -> usize {
    (2 + stages + 4 + 8) * n
}

/// Splits the workspace (layout `ytmp, ynew, k, rcont`).
#[inline(always)]
pub(super) fn split(work: &mut [f64], n: usize) -> Parts<'_> {
    let (ytmp, r) = work.split_at_mut(n);
    let (ynew, r) = r.split_at_mut(n);
    let (k, rcont) = r.split_at_mut(r.len() - 8 * n);
    Parts {
        ytmp,
        ynew,
        k,
        rcont,
    }
}

/// An explicit Runge–Kutta method with its workspace.
#[derive(Debug, Clone)]
pub struct ExplicitRk {
    tab: &'static Tableau,
    /// The current point, the last step's start and the next step size (`fixed`: no
    /// controller).
    state: StepState,
    /// The rest of the workspace in one allocation, split by [`split`] into [`Parts`].
    work: Vec<f64>,
    dense_ready: bool,
    ctl: Option<PiController>,
    /// Stiffness detection (adaptive pairs with a second stage at `c = 1`).
    stiff: Option<stiffness::StiffnessMonitor>,
}

impl ExplicitRk {
    /// The PI weight `β` of Hairer's codes: 0 in `dop853`, 0.04 in `dopri5` (used for the
    /// other pairs too) unless the options give one.
    fn default_beta(&self) -> f64 {
        if matches!(self.tab.error, ErrorEstimate::Dop853 { .. }) {
            0.0
        } else {
            0.04
        }
    }

    /// A stepper for `tab` (workspace sized on `start`).
    pub fn new(tab: &'static Tableau) -> Self {
        Self {
            tab,
            state: StepState::default(),
            work: Vec::new(),
            dense_ready: false,
            ctl: None,
            stiff: None,
        }
    }

    /// The tableau driving this stepper.
    pub fn tableau(&self) -> &'static Tableau {
        self.tab
    }

    /// Step size proposed for the next step.
    pub fn next_step_size(&self) -> f64 {
        self.state.h
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
        self.ctl.is_some() || (!self.state.started && self.tab.is_adaptive())
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
        require_identity_mass(sys, self.tab.name)?;
        let n = sys.dim();
        // Built before anything changes: an unusable `pi_beta` leaves the stepper as it was.
        let ctl = if self.tab.is_adaptive() && opts.h_fixed.is_none() {
            let beta = opts.explicit.pi_beta.unwrap_or(self.default_beta());
            Some(PiController::new(self.tab.error_order, beta, opts)?)
        } else {
            None
        };
        if self.state.n != n || self.work.is_empty() {
            // `vec![0.0; len]` would be a `calloc`, which glibc serves without its thread cache:
            // reserving and filling reuses a cached block when solves repeat.
            let len = work_len(n, self.tab.stages());
            self.work = Vec::with_capacity(len);
            self.work.resize(len, 0.0);
        }
        self.state.resize(n);
        self.state.start_at(sys, t, y, stats)?;
        self.dense_ready = false;
        self.state.fixed = ctl.is_none();
        self.ctl = ctl;
        // The count of suspicious steps carries over restarts after events (the problem does
        // not stop being stiff at an impact); a new monitor only when there is none.
        if self.ctl.is_none() || opts.explicit.stiffness_limit == 0 {
            self.stiff = None;
        } else if self.stiff.is_none() {
            let f_new = if self.tab.fsal {
                self.tab.stages() - 1
            } else {
                self.tab.stages()
            };
            self.stiff =
                stiffness::StiffnessMonitor::new(self.tab, f_new, opts.explicit.stiffness_limit);
        }
        if self.ctl.is_some() {
            let (st, order) = (&self.state, self.tab.order);
            let h = first_step(opts, || {
                let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
                stats.rhs_evals += 1;
                let p = split(&mut self.work, n);
                initial_step(&mut rhs, t, &st.y, &st.f, order, opts, p.ytmp, p.ynew)
            });
            self.state.h = h;
        } else {
            self.state.h = opts
                .h_fixed
                .or(opts.h_init)
                .ok_or(OdeError::FixedStepNeedsStep {
                    method: self.tab.name,
                })?;
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
        if self.state.f_stale {
            // A non-finite f fails the first attempt's error estimate.
            self.state.refresh_f(sys, stats);
        }
        self.advance(sys, t_stop, opts, stats)
    }

    state_accessors!(state);

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        out: &mut [f64],
        stats: &mut Stats,
    ) {
        match self.tab.dense {
            DenseOutput::Hermite => self.ends().hermite(t, out),
            DenseOutput::Dp5 { d } => crate::dim::with_dim!(self.state.n, |dim| {
                if !self.dense_ready {
                    self.prepare_dp5(dim, d);
                }
                self.eval_dp5(dim, t, out)
            }),
            DenseOutput::Dop853(coef) if std::ptr::eq(coef, &crate::tableau::DOP853_DENSE) => {
                crate::dim::with_dim!(self.state.n, |dim| {
                    if !self.dense_ready {
                        self.prepare_dop853(dim, sys, &crate::tableau::DOP853_DENSE, stats);
                    }
                    self.eval_dop853(dim, t, out)
                })
            }
            // A user-made DOP853-style tableau: run-time coefficients and length.
            DenseOutput::Dop853(coef) => {
                let dim = crate::dim::Dyn(self.state.n);
                if !self.dense_ready {
                    self.prepare_dop853(dim, sys, coef, stats);
                }
                self.eval_dop853(dim, t, out)
            }
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // The old step's polynomial no longer matches its ends: make the last step empty. f(t, y)
        // is evaluated by the next step, if there is one: after a terminal event the integration
        // usually ends or restarts after a reset.
        self.state.truncate(t, y);
        self.dense_ready = false;
        if let Some(c) = self.ctl.as_mut() {
            c.reset();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{FnSystem, Ivp, Method, OdeError, SolverOptions};

    #[test]
    fn a_pi_weight_too_large_for_the_pair_is_a_named_option_error() {
        let decay = FnSystem::new(1, |_t, y: &[f64], dy: &mut [f64]| dy[0] = -y[0]);
        let opts = SolverOptions {
            explicit: crate::ExplicitOptions {
                pi_beta: Some(0.08),
                ..Default::default()
            },
            ..SolverOptions::with_tol(1e-10)
        };
        // DOP853 (q = 7): α = 1/8 − 0.06 < β. The controller's steady error would be
        // safety^(1/(α−β)) > 1: never accepted, the step shrinks until `MaxSteps`.
        let r = Ivp::new(&decay, 0.0, &[1.0]).solve(Method::Dop853, 1.0, &opts);
        assert!(
            matches!(
                r,
                Err(OdeError::InvalidOption {
                    field: "explicit.pi_beta",
                    ..
                })
            ),
            "{r:?}"
        );
        // DP5 (q = 4): α = 1/5 − 0.06 > β is a working PI controller.
        let s = Ivp::new(&decay, 0.0, &[1.0])
            .solve(Method::Dp5, 1.0, &opts)
            .unwrap();
        assert!((s.y[0] - (-1.0f64).exp()).abs() < 1e-9, "{}", s.y[0]);
    }

    /// `y₁' = −y₁`, `0 = y₁ − y₂` (a singular mass matrix `diag(1, 0)`).
    struct Dae;
    impl crate::OdeSystem for Dae {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
            dy[0] = -y[0];
            dy[1] = y[0] - y[1];
        }
        fn mass_matrix(&self) -> Option<Vec<f64>> {
            Some(vec![1.0, 0.0, 0.0, 0.0])
        }
    }

    #[test]
    fn a_singular_mass_matrix_is_refused_by_every_explicit_method() {
        let opts = SolverOptions {
            h_fixed: Some(0.1),
            ..SolverOptions::with_tol(1e-8)
        };
        for m in [
            Method::Dp5,
            Method::Dop853,
            Method::Rkf45,
            Method::Bs23,
            Method::Rk4,
            Method::Euler,
        ] {
            let o = if m.is_adaptive() {
                SolverOptions::with_tol(1e-8)
            } else {
                opts.clone()
            };
            let r = Ivp::new(&Dae, 0.0, &[1.0, 1.0]).solve(m, 1.0, &o);
            assert!(
                matches!(r, Err(OdeError::MassMatrixUnsupported { .. })),
                "{m:?}: {r:?}"
            );
        }
        // The same system as an ODE (M = I given explicitly) is integrated.
        struct Ode;
        impl crate::OdeSystem for Ode {
            fn dim(&self) -> usize {
                1
            }
            fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
                dy[0] = -y[0];
            }
            fn mass_matrix(&self) -> Option<Vec<f64>> {
                Some(vec![1.0])
            }
        }
        let s = Ivp::new(&Ode, 0.0, &[1.0])
            .solve(Method::Dp5, 1.0, &SolverOptions::with_tol(1e-10))
            .unwrap();
        assert!((s.y[0] - (-1.0f64).exp()).abs() < 1e-8, "{}", s.y[0]);
    }
}
