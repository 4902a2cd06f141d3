//! The stride (Poincaré) map `P` of a hybrid model and its exact Jacobian.
//!
//! A stride starts in `start_mode` at `x₀` (time 0) and runs through the model's flows, guards
//! and resets until `events_per_stride` events have fired (those that count,
//! [`EvalModel::stride_event`]); `P(x₀)` is the state just after the last reset, with a
//! time-forced model's phase brought back by the whole forcing periods it advanced
//! ([`crate::Forcing`]). Its Jacobian is the ordered product over the stride's segments (saltation
//! matrices: Aizerman & Gantmacher 1958, Leine & Nijmeijer 2004; see [`crate::saltation`]):
//!
//! - [`JacobianKind::StrideMap`] (event time free, the Poincaré map of Bhounsule 2014, §2.1):
//!   `P_x = E_k Φ_k S_{k−1} Φ_{k−1} ⋯ S_1 Φ_1`, with `Φ_i` from the variational equations,
//!   `S_i` the saltation matrices of the intermediate events and
//!   `E_k = g_x (I − f⁻ h_x / (h_x f⁻))` at the last one; its eigenvalues are the nontrivial
//!   multipliers plus zeros.
//! - [`JacobianKind::Monodromy`] (fixed time, as in Zana, Bodor, Bencsik & Zelei 2018): the
//!   same product with `S_k` at the last event; it keeps the trivial multiplier 1 along the flow.
//!
//! [`StrideMap::eval_seeded`] computes the product applied to an `n × c` matrix `V` instead,
//! `P_x V = E_k Φ_k ⋯ S_1 (Φ_1 V)`, by integrating the variational equations from `V` (they are
//! linear in `Φ`) and applying each factor to the `c` columns: a shooting method in `r` reduced
//! coordinates needs `P_x Dχ` only (`c = r` columns instead of `n`).
//!
//! In a mode whose flow Jacobian is constant ([`EvalModel::flow_jacobian_is_constant`]:
//! `f = A x + b(t)`) a phase of duration `τ` has `Φ = e^{Aτ}` exactly: the state is integrated
//! alone and the carried matrix is multiplied by the exponential at the phase's end
//! (`constant_jacobian.rs`; [`StrideOptions::exact_affine_phases`]). When the mode is also
//! autonomous ([`EvalModel::flow_is_autonomous`]: `f = A x + b`) the state is not
//! integrated either but stepped exactly, `[x(t + h); 1] = e^{Ãh} [x(t); 1]`
//! ([`saltation_ode::AffineExp`]), and `Φ` is applied as `e^{Ah}` powers cached by that
//! stepper. Such phases run on the state-only integrators (the exact one or `method`), the
//! others on the variational one; each keeps its own step-size and Zeno history, and the
//! stride's statistics are their sum.

use crate::constant_jacobian::propagate;
use crate::error::HybridError;
use crate::event_loop::{JumpWork, Segment, SegmentEnd};
use crate::model::EvalModel;
use crate::saltation::{saltation_matrix, terminal_factor};
use crate::state_solvers::{falls_back, StateSolvers};
use crate::variational::{ModeFlow, VariationalFlow};
use nalgebra::DMatrix;
use saltation_ode::{AnyStepper, Atol, Method, Solver, SolverOptions, Stats};
use serde::{Deserialize, Serialize};

/// Which Jacobian a stride computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum JacobianKind {
    /// None: the state only (cheapest).
    None,
    /// Event-terminated stride map (time free): `E_k Φ_k ⋯ S_1 Φ_1`.
    StrideMap,
    /// Fixed-time monodromy: `S_k Φ_k ⋯ S_1 Φ_1`.
    Monodromy,
}

/// Options of a stride computation. Plain struct with defaults; the same struct is the RON
/// schema of a model file's `stride` section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StrideOptions {
    /// Integration method (default DOP853).
    pub method: Method,
    /// Integrator options (default `rtol = atol = 1e-12`).
    pub ode: SolverOptions,
    /// Mode a stride starts in (default 0; below the model's number of modes).
    pub start_mode: usize,
    /// Events that make up one stride (default 1; at most [`MAX_EVENTS_PER_STRIDE`]).
    pub events_per_stride: usize,
    /// Longest duration of one stride before [`HybridError::GuardNotReached`] (default 100).
    pub t_max: f64,
    /// Whether the variational matrix `Φ` enters the step-size control (default true: the
    /// multipliers are then as accurate as the state).
    pub variational_error_control: bool,
    /// Whether a phase in a mode with a constant flow Jacobian
    /// ([`EvalModel::flow_jacobian_is_constant`]) takes its variational matrix as `e^{Aτ}`
    /// with the state integrated alone, and whether a mode that is moreover autonomous
    /// ([`EvalModel::flow_is_autonomous`], no mass matrix) steps its state exactly by
    /// `e^{Ãh}` ([`saltation_ode::AffineExp`]) instead of by `method` (default true); false
    /// integrates the state and the variational equations there by `method` as in any other
    /// mode (for comparisons: both step on the same system).
    pub exact_affine_phases: bool,
    /// Relative transversality `|h_x f⁻| / (|h_x||f⁻|)` below which an event is grazing
    /// (in `[0, 1)`; default 1e-10).
    pub grazing_tol: f64,
}

/// Largest [`StrideOptions::events_per_stride`]: a stride of more events is a Zeno cascade or a
/// wrong section, not a gait.
pub const MAX_EVENTS_PER_STRIDE: usize = 10_000;

impl Default for StrideOptions {
    fn default() -> Self {
        Self {
            method: Method::Dop853,
            ode: SolverOptions::with_tol(1e-12),
            start_mode: 0,
            events_per_stride: 1,
            t_max: 100.0,
            variational_error_control: true,
            exact_affine_phases: true,
            grazing_tol: crate::saltation::GRAZING_TOL,
        }
    }
}

impl StrideOptions {
    /// Whether every mode of `model` takes `Φ = e^{Aτ}` under these options
    /// ([`StrideOptions::exact_affine_phases`], [`EvalModel::flow_jacobian_is_constant`]):
    /// then a stride integrates the state alone, and its full `Φ` costs what a state-only
    /// stride does (one `n × n` exponential per phase).
    pub fn all_phases_exponential<M: EvalModel + ?Sized>(&self, model: &M) -> bool {
        self.exact_affine_phases && (0..model.modes()).all(|m| model.flow_jacobian_is_constant(m))
    }

    /// Whether a phase in `mode` steps its state exactly ([`saltation_ode::AffineExp`]):
    /// [`StrideOptions::exact_affine_phases`] is on and the mode is autonomous and affine
    /// ([`EvalModel::flow_jacobian_is_constant`], [`EvalModel::flow_is_autonomous`])
    /// with `M = I`.
    pub fn steps_exactly<M: EvalModel + ?Sized>(&self, model: &M, mode: usize) -> bool {
        self.exact_affine_phases
            && model.flow_jacobian_is_constant(mode)
            && model.flow_is_autonomous(mode)
            && model.mass_matrix(mode).is_none()
    }

    /// Checks the ranges of every field.
    pub fn validate(&self) -> Result<(), HybridError> {
        self.ode
            .validate()
            .map_err(|source| HybridError::Ode { mode: 0, source })?;
        if !self.method.is_adaptive() && self.ode.h_fixed.is_none() && self.ode.h_init.is_none() {
            return Err(HybridError::InvalidOption {
                field: "ode.h_fixed",
                reason: "the fixed-step methods (Euler, Heun, Rk4) need a step size h_fixed",
            });
        }
        if self.ode.error_dims.is_some() {
            return Err(HybridError::InvalidOption {
                field: "ode.error_dims",
                reason: "is set by the stride map (the state, plus the variational matrix when \
                         variational_error_control is on): remove it",
            });
        }
        if !(1..=MAX_EVENTS_PER_STRIDE).contains(&self.events_per_stride) {
            return Err(HybridError::InvalidOption {
                field: "events_per_stride",
                reason: "must be in 1..=10000",
            });
        }
        if !(self.t_max > 0.0 && self.t_max.is_finite()) {
            return Err(HybridError::InvalidOption {
                field: "t_max",
                reason: "must be finite and > 0",
            });
        }
        if !(0.0..1.0).contains(&self.grazing_tol) {
            return Err(HybridError::InvalidOption {
                field: "grazing_tol",
                reason: "must be in [0, 1)",
            });
        }
        Ok(())
    }

    /// [`StrideOptions::validate`] plus what depends on the model: `start_mode` is one of its
    /// modes, and a vector `atol` has one entry per state component. [`StrideMap::new`] calls
    /// it; callers that want to tell bad settings from failed strides call it first.
    pub fn validate_for<M: EvalModel + ?Sized>(&self, model: &M) -> Result<(), HybridError> {
        self.validate()?;
        if self.start_mode >= model.modes() {
            return Err(HybridError::BadMode {
                mode: self.start_mode,
                modes: model.modes(),
            });
        }
        if let Atol::Vector(v) = &self.ode.atol {
            if v.len() != model.dim() {
                return Err(HybridError::DimensionMismatch {
                    what: "atol (one entry per state component)",
                    expected: model.dim(),
                    got: v.len(),
                });
            }
        }
        Ok(())
    }

    /// The integrator options of the variational system `[x, Φ]` (`n + n c` components, `Φ`
    /// of `n × c` row-major; `c = n` for the full matrix): with `variational_error_control` off
    /// only `x` is controlled; otherwise a vector `atol` is extended so that every entry
    /// `Φ_ik` of row `i` has the absolute tolerance of state component `i` (a unit perturbation
    /// of the start is held to the same absolute accuracy as the state it moves).
    fn variational_ode(&self, n: usize, c: usize) -> SolverOptions {
        let mut o = self.ode.clone();
        if !self.variational_error_control {
            o.error_dims = Some(n);
        } else if let Atol::Vector(v) = &self.ode.atol {
            let mut full = Vec::with_capacity(n + n * c);
            full.extend_from_slice(v);
            for a in v {
                full.extend(std::iter::repeat_n(*a, c));
            }
            o.atol = Atol::Vector(full);
        }
        o
    }
}

/// One event of a stride.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    /// Event time (from the stride's start).
    pub t: f64,
    /// Mode before the event.
    pub mode: usize,
    /// Guard that fired.
    pub guard: usize,
    /// Mode after the event.
    pub target: usize,
    /// State just before the reset.
    pub x_minus: Vec<f64>,
    /// State just after the reset.
    pub x_plus: Vec<f64>,
}

/// Result of one stride.
#[derive(Debug, Clone)]
pub struct StrideResult {
    /// `P(x₀)`: the state just after the last reset.
    pub x: Vec<f64>,
    /// Mode the stride ends in.
    pub mode: usize,
    /// Duration of the stride.
    pub period: f64,
    /// The events met, in order.
    pub events: Vec<EventRecord>,
    /// The requested Jacobian (n×n), if any; `n × c`, the Jacobian times the seed `V`, from
    /// [`StrideMap::eval_seeded`].
    pub jacobian: Option<DMatrix<f64>>,
    /// With a Jacobian: the gradient `∂t_k/∂x₀` (length n) of each event's time,
    /// `−h_x Ψ_k / (h_x f⁻)` with `Ψ_k = Φ_k S_{k−1} ⋯ S_1 Φ_1` the fixed-time Jacobian of the
    /// state just before event k (empty without a Jacobian); from
    /// [`StrideMap::eval_seeded`], `∂t_k/∂x₀ · V` (length c).
    pub event_time_gradients: Vec<Vec<f64>>,
    /// Integrator work.
    pub stats: Stats,
}

/// A stride map with its workspace (two integrators, Jacobian buffers), reusable across calls.
pub struct StrideMap<'a, M: ?Sized> {
    model: &'a M,
    ws: StrideWorkspace,
}

/// The workspace of a stride map without its model: two integrators and the Jacobian buffers.
/// A caller that evaluates many models of one family (continuation: a new model at every
/// parameter value) keeps it between maps ([`StrideMap::into_workspace`],
/// [`StrideMap::with_workspace`]) instead of allocating it again.
pub struct StrideWorkspace {
    opts: StrideOptions,
    n: usize,
    /// The state alone: by `method`, or exactly in the autonomous affine modes.
    state: StateSolvers,
    var: Solver<AnyStepper>,
    /// The integrator of [`StrideMap::eval_seeded`] with `c ≠ n` columns (made on first use).
    seeded: Option<(usize, Solver<AnyStepper>)>,
    buf: Buffers,
}

struct Buffers {
    y: Vec<f64>,
    jump: JumpWork,
    fac: Vec<f64>,
    phi: Vec<f64>,
}

impl StrideWorkspace {
    /// A workspace for states of dimension `n` with the (already validated) options.
    fn new(opts: StrideOptions, n: usize) -> Result<Self, HybridError> {
        let ode_err = |source| HybridError::Ode { mode: 0, source };
        saltation_ode::check_dense("n × n variational matrix of the stride Jacobian", n, n)
            .map_err(ode_err)?;
        let state = StateSolvers::new(&opts)?;
        let var =
            Solver::new(opts.method.stepper(), opts.variational_ode(n, n)).map_err(ode_err)?;
        let buf = Buffers {
            y: vec![0.0; n + n * n],
            jump: JumpWork::new(n),
            fac: vec![0.0; n * n],
            phi: vec![0.0; n * n],
        };
        Ok(Self {
            opts,
            n,
            state,
            var,
            seeded: None,
            buf,
        })
    }

    /// Sizes the buffers for a variational matrix of `c` columns and, for `c ≠ n`, makes its
    /// integrator (kept for the next call with the same `c`).
    fn prepare(&mut self, c: usize) -> Result<(), HybridError> {
        let n = self.n;
        if self.buf.y.len() < n + n * c {
            self.buf.y.resize(n + n * c, 0.0);
            self.buf.phi.resize(n * c, 0.0);
        }
        if c != n && self.seeded.as_ref().is_none_or(|(sc, _)| *sc != c) {
            let o = self.opts.variational_ode(n, c);
            let solver = Solver::new(self.opts.method.stepper(), o)
                .map_err(|source| HybridError::Ode { mode: 0, source })?;
            self.seeded = Some((c, solver));
        }
        Ok(())
    }
}

/// The matrix the variational equations start from.
#[derive(Clone, Copy)]
enum Seed<'s> {
    /// `Φ(0) = I` (n × n): the full Jacobian.
    Identity,
    /// `Φ(0) = V` (row-major n × c).
    Columns(&'s [f64], usize),
}

/// What one evaluation integrates.
#[derive(Clone, Copy, Debug)]
enum Span {
    /// A stride: from `start_mode` until `events_per_stride` counted events.
    Stride,
    /// One phase: in the mode from the state until the first event, through its reset.
    Phase(usize),
    /// A fixed time in the mode, with no event.
    Flow(usize, f64),
}

/// The checks of [`StrideMap::new`] that depend on the model.
fn check_model<M: EvalModel + ?Sized>(model: &M, opts: &StrideOptions) -> Result<(), HybridError> {
    opts.validate_for(model)?;
    if model.guards(opts.start_mode) == 0 {
        return Err(HybridError::NoGuards {
            mode: opts.start_mode,
        });
    }
    Ok(())
}

impl<'a, M: EvalModel + ?Sized> StrideMap<'a, M> {
    /// A stride map of `model` with validated options; [`HybridError::NoGuards`] when the start
    /// mode has no guard (the stride could only run into `t_max`; such a model is for
    /// [`crate::simulate`], which takes the same options).
    pub fn new(model: &'a M, opts: StrideOptions) -> Result<Self, HybridError> {
        check_model(model, &opts)?;
        let ws = StrideWorkspace::new(opts, model.dim())?;
        Ok(Self { model, ws })
    }

    /// A stride map of `model` on a workspace left by an earlier map (same options; rebuilt if
    /// the state dimension differs). The model is checked as by [`StrideMap::new`].
    pub fn with_workspace(model: &'a M, ws: StrideWorkspace) -> Result<Self, HybridError> {
        check_model(model, &ws.opts)?;
        let ws = if ws.n == model.dim() {
            ws
        } else {
            StrideWorkspace::new(ws.opts, model.dim())?
        };
        Ok(Self { model, ws })
    }

    /// The workspace, for [`StrideMap::with_workspace`].
    pub fn into_workspace(self) -> StrideWorkspace {
        self.ws
    }

    /// The options in force.
    pub fn options(&self) -> &StrideOptions {
        &self.ws.opts
    }

    /// The model.
    pub fn model(&self) -> &'a M {
        self.model
    }

    /// One stride from `x0` (full state), with the Jacobian of the requested kind.
    pub fn eval(&mut self, x0: &[f64], kind: JacobianKind) -> Result<StrideResult, HybridError> {
        self.run(x0, kind, Seed::Identity, Span::Stride)
    }

    /// One phase from `x0` in `mode`: the flow until the mode's first event (counted toward a
    /// stride or not), and its reset — the segment of a multiple shooting cut at the events.
    /// The Jacobian is that of the phase map `x₀ ↦ x⁺`, `E Φ` (event time free,
    /// [`JacobianKind::StrideMap`]) or `S Φ` ([`JacobianKind::Monodromy`]); composing the
    /// phase maps of a stride gives the stride map, and the product of their
    /// [`JacobianKind::StrideMap`] Jacobians its `P_x` (`E_{i+1} Φ_{i+1} f⁺_i = 0` makes
    /// `E_{i+1} Φ_{i+1} S_i = E_{i+1} Φ_{i+1} E_i`, since `S_i − E_i = f⁺_i h_x/(h_x f⁻)`).
    /// A forced model's phase is brought back as at the end of a stride.
    ///
    /// Errors as [`StrideMap::eval`], and [`HybridError::BadMode`] for a mode out of range.
    pub fn eval_phase(
        &mut self,
        x0: &[f64],
        mode: usize,
        kind: JacobianKind,
    ) -> Result<StrideResult, HybridError> {
        self.check_mode(mode)?;
        self.run(x0, kind, Seed::Identity, Span::Phase(mode))
    }

    /// The flow of `mode` from `x0` over the time `duration` (> 0, finite), with no event: a
    /// piece of a phase cut at a fixed time. With a Jacobian (either kind) it is the
    /// fundamental matrix `Φ(duration)` of the variational equations (or `e^{Aτ}` in a mode
    /// with a constant flow Jacobian, as in a stride). The result has no events, `period =
    /// duration`, and a forced model's phase is not brought back.
    ///
    /// Errors: [`HybridError::EventInPiece`] if a guard fires before `duration`,
    /// [`HybridError::InvalidOption`] for a duration that is not finite and positive,
    /// [`HybridError::BadMode`], and the integration errors of [`StrideMap::eval`].
    pub fn eval_flow(
        &mut self,
        x0: &[f64],
        mode: usize,
        duration: f64,
        kind: JacobianKind,
    ) -> Result<StrideResult, HybridError> {
        self.check_mode(mode)?;
        if !(duration > 0.0 && duration.is_finite()) {
            return Err(HybridError::InvalidOption {
                field: "duration",
                reason: "the duration of a fixed-time piece must be finite and > 0",
            });
        }
        self.run(x0, kind, Seed::Identity, Span::Flow(mode, duration))
    }

    /// `mode` is one of the model's.
    fn check_mode(&self, mode: usize) -> Result<(), HybridError> {
        if mode >= self.model.modes() {
            return Err(HybridError::BadMode {
                mode,
                modes: self.model.modes(),
            });
        }
        Ok(())
    }

    /// One stride from `x0` whose variational equations start from the `n × c` matrix `seed`
    /// (row-major) instead of the identity: the returned Jacobian is `J V` (`n × c`), `J` the
    /// Jacobian of `kind`, and the event-time gradients are `∂t_k/∂x₀ · V` (length `c`). With
    /// `V = Dχ(u)`, the Jacobian of a section's chart, this is what Newton in the reduced
    /// coordinates needs, for `c/n` of the variational work (see the module documentation).
    /// The step-size control sees `[x, J V]` instead of `[x, J]`, so the state agrees with
    /// [`StrideMap::eval`]'s to the integration tolerance, not bit for bit. With
    /// [`JacobianKind::None`] the seed is ignored.
    pub fn eval_seeded(
        &mut self,
        x0: &[f64],
        kind: JacobianKind,
        seed: &[f64],
        cols: usize,
    ) -> Result<StrideResult, HybridError> {
        let n = self.model.dim();
        if cols == 0 || seed.len() != n * cols {
            return Err(HybridError::DimensionMismatch {
                what: "stride seed matrix (entries, n × columns with columns ≥ 1)",
                expected: n * cols.max(1),
                got: seed.len(),
            });
        }
        if seed.iter().any(|v| !v.is_finite()) {
            return Err(HybridError::NonFinite {
                what: "stride seed matrix",
            });
        }
        self.run(x0, kind, Seed::Columns(seed, cols), Span::Stride)
    }

    /// One stride (or the `span` of one) from `x0` with the variational equations started
    /// from `seed`: the one event loop of the stride map.
    fn run(
        &mut self,
        x0: &[f64],
        kind: JacobianKind,
        seed: Seed<'_>,
        span: Span,
    ) -> Result<StrideResult, HybridError> {
        let model = self.model;
        let n = model.dim();
        if x0.len() != n {
            return Err(HybridError::DimensionMismatch {
                what: "stride start state",
                expected: n,
                got: x0.len(),
            });
        }
        if x0.iter().any(|v| !v.is_finite()) {
            return Err(HybridError::NonFinite {
                what: "stride start state",
            });
        }
        let with_jac = kind != JacobianKind::None;
        // Columns of the variational matrix carried (0 without a Jacobian).
        let c = match (with_jac, seed) {
            (false, _) => 0,
            (true, Seed::Identity) => n,
            (true, Seed::Columns(_, c)) => c,
        };
        let len = n + n * c;
        let opts = &self.ws.opts;
        let (t_max, grazing_tol, events_per_stride) =
            (opts.t_max, opts.grazing_tol, opts.events_per_stride);
        if with_jac {
            self.ws.prepare(c)?;
        }
        let ws = &mut self.ws;
        // The state alone (no Jacobian, or a mode whose constant `f_x` gives `Φ = e^{Aτ}`) by
        // `method` or, in an autonomous affine mode, exactly; and the state with its
        // variational matrix.
        let state = &mut ws.state;
        state.new_run();
        let var = match &mut ws.seeded {
            _ if !with_jac || c == n => &mut ws.var,
            Some((_, seeded)) => seeded,
            None => unreachable!("made by prepare"),
        };
        let mut var_used = false;
        let b = &mut ws.buf;
        b.y[..n].copy_from_slice(x0);
        match seed {
            _ if !with_jac => {}
            Seed::Identity => crate::model::identity(&mut b.y[n..len], n),
            Seed::Columns(v, _) => b.y[n..len].copy_from_slice(v),
        }
        let (mut mode, t_limit) = match span {
            Span::Stride => (ws.opts.start_mode, t_max),
            Span::Phase(m) => (m, t_max),
            Span::Flow(m, d) => (m, d),
        };
        let mut t = 0.0;
        let mut events: Vec<EventRecord> = Vec::with_capacity(events_per_stride.min(8));
        let mut counted = 0usize;
        let mut time_grads: Vec<Vec<f64>> = Vec::new();
        loop {
            // `Ψ` by the matrix exponential in this phase (the state integrated alone).
            let exact =
                with_jac && ws.opts.exact_affine_phases && model.flow_jacobian_is_constant(mode);
            let t_start = t;
            let end = if with_jac && !exact {
                let sys = VariationalFlow::with_columns(model, mode, c);
                let seg = Segment {
                    model,
                    mode,
                    sys: &sys,
                    first: !std::mem::replace(&mut var_used, true),
                    grazing_tol,
                    accumulate: false,
                };
                seg.advance(var, t, &b.y[..len], t_limit, None, &mut b.jump)
            } else {
                let sys = ModeFlow { model, mode };
                let exact_try = state.steps_exactly(&ws.opts, model, mode);
                let run = |state: &mut StateSolvers, jump: &mut JumpWork| {
                    let (solver, first) = state.for_mode(&ws.opts, model, mode);
                    let seg = Segment {
                        model,
                        mode,
                        sys: &sys,
                        first,
                        grazing_tol,
                        accumulate: false,
                    };
                    seg.advance(solver, t, &b.y[..n], t_limit, None, jump)
                };
                let mut jump = std::mem::replace(&mut b.jump, JumpWork::new(0));
                let mut end = run(state, &mut jump);
                if exact_try && end.as_ref().err().is_some_and(falls_back) {
                    // A stiff or huge affine mode: `method` takes it from the phase's start.
                    state.fall_back(mode);
                    end = run(state, &mut jump);
                }
                b.jump = jump;
                end
            }?;
            let cr = match (end, span) {
                (SegmentEnd::TimeReached, Span::Flow(_, duration)) => {
                    // The piece's end: its state (and variational matrix) at `duration`.
                    if with_jac && !exact {
                        b.y[..len].copy_from_slice(&var.y()[..len]);
                    } else {
                        if exact {
                            let (x_start, psi) = b.y[..len].split_at_mut(n);
                            exact_psi(
                                (model, &ws.opts, state),
                                (mode, t_start, x_start),
                                duration,
                                (psi, c),
                                &mut b.fac,
                            );
                        }
                        b.y[..n].copy_from_slice(&state.y_of(&ws.opts, model, mode)[..n]);
                    }
                    let mut stats = state.stats();
                    if var_used {
                        stats = stats + var.stats();
                    }
                    return Ok(StrideResult {
                        x: b.y[..n].to_vec(),
                        mode,
                        period: duration,
                        events,
                        jacobian: with_jac.then(|| DMatrix::from_row_slice(n, c, &b.y[n..len])),
                        event_time_gradients: time_grads,
                        stats,
                    });
                }
                (SegmentEnd::TimeReached, _) => {
                    return Err(HybridError::GuardNotReached {
                        mode,
                        t_max,
                        seen: std::mem::take(&mut b.jump.rejected),
                    })
                }
                (SegmentEnd::Event(cr), Span::Flow(_, duration)) => {
                    return Err(HybridError::EventInPiece {
                        mode,
                        guard: cr.guard,
                        t: cr.t,
                        duration,
                    })
                }
                (SegmentEnd::Event(cr), _) => cr,
            };
            t = cr.t;
            // Events that count toward `events_per_stride` (all but a stroboscopic section's
            // impacts between its strobes).
            let counts = model.stride_event(mode, cr.guard);
            let last = match span {
                Span::Stride => counts && counted + 1 == events_per_stride,
                Span::Phase(_) | Span::Flow(..) => true,
            };
            counted += usize::from(counts);
            if events.len() >= MAX_EVENTS_PER_STRIDE {
                return Err(HybridError::TooManyEvents {
                    limit: MAX_EVENTS_PER_STRIDE,
                    t,
                });
            }
            if with_jac {
                // Ψ (n × c), the Jacobian of the state just before the event (times the seed):
                // the carried matrix times e^{Aτ}, or the integrated one.
                let psi: &[f64] = if exact {
                    let (x_start, psi) = b.y[..len].split_at_mut(n);
                    exact_psi(
                        (model, &ws.opts, state),
                        (mode, t_start, x_start),
                        t - t_start,
                        (psi, c),
                        &mut b.fac,
                    );
                    psi
                } else {
                    &cr.y_minus[n..len]
                };
                let jump = b.jump.jump();
                // ∂t/∂x₀ = −h_x Ψ / (h_x f⁻).
                time_grads.push(
                    (0..c)
                        .map(|k| -(0..n).map(|l| jump.hx[l] * psi[l * c + k]).sum::<f64>() / cr.hxf)
                        .collect(),
                );
                if last && kind == JacobianKind::StrideMap {
                    terminal_factor(&jump, cr.hxf, &mut b.fac);
                } else {
                    saltation_matrix(&jump, cr.hxf, &mut b.fac);
                }
                // Ψ ← factor · Ψ⁻
                for i in 0..n {
                    for k in 0..c {
                        let mut acc = 0.0;
                        for l in 0..n {
                            acc += b.fac[i * n + l] * psi[l * c + k];
                        }
                        b.phi[i * c + k] = acc;
                    }
                }
                b.y[n..len].copy_from_slice(&b.phi[..n * c]);
            }
            b.y[..n].copy_from_slice(&cr.x_plus);
            let mut x_minus = cr.y_minus;
            x_minus.truncate(n);
            events.push(EventRecord {
                t,
                mode,
                guard: cr.guard,
                target: cr.target,
                x_minus,
                x_plus: cr.x_plus,
            });
            mode = cr.target;
            if last {
                // A forced model's phase, back by the whole periods it advanced.
                let (x_end, jac_end) = b.y[..len].split_at_mut(n);
                let seed = match seed {
                    Seed::Identity => None,
                    Seed::Columns(v, _) => Some(v),
                };
                crate::forcing::unwind_phase(
                    model,
                    x0.get(model.forcing().map_or(0, |f| f.phase))
                        .copied()
                        .unwrap_or(0.0),
                    x_end,
                    with_jac.then_some(crate::forcing::SeededJacobian {
                        jac: jac_end,
                        seed,
                        cols: c,
                    }),
                );
                let mut stats = state.stats();
                if var_used {
                    stats = stats + var.stats();
                }
                let jacobian = with_jac.then(|| DMatrix::from_row_slice(n, c, &b.y[n..len]));
                return Ok(StrideResult {
                    x: b.y[..n].to_vec(),
                    mode,
                    period: t,
                    events,
                    jacobian,
                    event_time_gradients: time_grads,
                    stats,
                });
            }
        }
    }
}

/// `Ψ ← e^{Aτ} Ψ` for a phase of duration `τ` in a mode with a constant flow Jacobian, started
/// at `(mode, t_start, x_start)`: the exact stepper's cached `e^{Ah}` when it stepped this
/// phase, else the exponential of `Aτ`. `psi` is `n × c` row-major.
fn exact_psi<M: EvalModel + ?Sized>(
    (model, opts, state): (&M, &StrideOptions, &StateSolvers),
    (mode, t_start, x_start): (usize, f64, &[f64]),
    tau: f64,
    (psi, c): (&mut [f64], usize),
    fac: &mut [f64],
) {
    let stepped = match state.exact() {
        Some(s) if state.steps_exactly(opts, model, mode) => s.propagate_columns(tau, psi, c),
        _ => false,
    };
    if !stepped {
        propagate(model, (mode, t_start, x_start), tau, psi, c, fac);
    }
}
