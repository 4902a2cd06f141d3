//! Evaluation of the fixed-point equation along a parameter, and the correctors.
//!
//! With reduced coordinates `u` and parameter `p`, `F(u, p) = π(P_p^k(χ(u))) − u` (`P^k` the
//! `k`-fold stride map). `F_u` is exact (variational equations + saltation). `F_p` is exact
//! when the family names the model's parameter ([`ModelFamily::param_index`]) and the model
//! gives its dependence on it ([`EvalModel::param_derivatives`]): one stride of the state
//! augmented with `p` ([`ParamAugmented`]) gives `[F_u, F_p]` together; or, when the model's
//! own stride takes every phase's `Φ` as a matrix exponential (and so gets `F_u` without
//! integrating variational equations), `F_p` comes from an augmented stride seeded with the
//! chart's parameter column only, beside the model's own stride for `F` and `F_u`. Otherwise
//! `F_p = (F(u, p + h) − F(u, p − h)) / 2h` by central differences (two strides without
//! Jacobian). The time `T_j(u, p)` of event `j` of the stride has the exact gradient
//! `∂T_j/∂u = ∇_x t_j · Dχ` from the stride map, and `∂T_j/∂p` from the augmented stride or the
//! same two strides.
//!
//! Every corrector is one square system `G(z) = 0` solved by the damped Newton method of
//! `saltation-orbit` ([`saltation_orbit::solve`]), the same one that finds periodic orbits:
//! - natural: `G(u) = F(u, p)` at fixed `p`;
//! - pseudo-arclength (Keller): `G(z) = [F(u, p); τᵀ(z − z_pred)]`, `z = (u, p)`, with the
//!   bordered matrix `[[F_u, F_p], [τᵀ]]`; it passes folds, where `F_u` alone is singular;
//! - event time: `G(z) = [F(u, p); T_j(u, p) − s]` with `[[F_u, F_p], [∂T_j/∂u, ∂T_j/∂p]]`:
//!   the branch parametrised by the time of an event (a hopper's flight time), the model
//!   parameter an unknown.
//!
//! One stride-map workspace (integrators, buffers) serves every evaluation of a run; only
//! the model is rebuilt when `p` changes.

use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::{ContinuationOptions, Predictor};
use crate::segments::{Anchor, SegmentJacobians};
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{
    EvalModel, JacobianKind, ParamAugmented, StrideMap, StrideOptions, StrideResult,
    StrideWorkspace,
};
use saltation_orbit::{
    param_linearisation, reduced_residual, solve, NewtonError, NewtonOptions, OrbitOptions,
    SegmentPlan, Shooting, SquareSystem,
};
use std::cell::RefCell;

/// `F`, `F_u`, optionally `F_p`, event-time derivatives, and the stride at one `(u, p)`.
#[derive(Clone)]
pub(crate) struct Eval {
    pub f: DVector<f64>,
    pub fu: DMatrix<f64>,
    pub fp: Option<DVector<f64>>,
    /// `∂T_j/∂u` per event `j` (length r each); empty unless the predictor is an event time.
    pub tu: Vec<DVector<f64>>,
    /// `∂T_j/∂p` per event, with `fp`.
    pub tp: Option<Vec<f64>>,
    pub stride: StrideResult,
    /// With multiple shooting: the segment Jacobians (then `f`, `fu`, `fp` are the matching
    /// conditions `G`, `G_w`, `G_p` of module `segments`, and `stride` the joined segments,
    /// without Jacobian).
    pub segments: Option<SegmentJacobians>,
}

impl Eval {
    /// Time of event `j`.
    pub fn event_time(&self, j: usize) -> Option<f64> {
        self.stride.events.get(j).map(|e| e.t)
    }
}

/// Evaluates `F` for a family with the `k`-fold stride.
pub(crate) struct Evaluator<'a, F: ModelFamily> {
    pub family: &'a F,
    /// The orbit options' stride settings for the `k`-fold stride.
    pub stride: StrideOptions,
    /// The orbit options the branch runs with (Newton and eigenvalue settings).
    pub orbit: &'a OrbitOptions,
    pub opts: &'a ContinuationOptions,
    workspace: RefCell<Option<StrideWorkspace>>,
    /// The workspace of the augmented state's stride (exact `F_p`).
    pub(crate) augmented: RefCell<Option<StrideWorkspace>>,
    /// Multiple shooting: the last converged point, whose segments seed the next corrector.
    pub(crate) anchor: RefCell<Option<Anchor>>,
}

/// What closes the `r` equations `F(u, p) = 0` in `r + 1` unknowns.
#[derive(Debug, Clone)]
pub(crate) enum Closure {
    /// `p` fixed; the unknowns are `u` alone.
    Fixed(f64),
    /// `τᵀ(z − z_pred) = 0`.
    Plane {
        z_pred: DVector<f64>,
        tau: DVector<f64>,
    },
    /// `T_event(u, p) = time`.
    EventTime { event: usize, time: f64 },
}

impl<'a, F: ModelFamily> Evaluator<'a, F> {
    /// The evaluator of the `period_k`-fold stride map (`events_per_stride · period_k` events
    /// of the orbit options' stride; an error if that product overflows).
    pub fn new(
        family: &'a F,
        orbit: &'a OrbitOptions,
        opts: &'a ContinuationOptions,
        period_k: usize,
    ) -> Result<Self, ContinuationError> {
        let mut stride = orbit.stride.clone();
        stride.events_per_stride = composed_events(stride.events_per_stride, period_k)?;
        Ok(Self {
            family,
            stride,
            orbit,
            opts,
            workspace: RefCell::new(None),
            augmented: RefCell::new(None),
            anchor: RefCell::new(None),
        })
    }

    /// Runs `f` on a stride map of `model`, on the workspace kept in `cell` (made with `opts`
    /// the first time).
    pub(crate) fn with_map<M: EvalModel, T>(
        cell: &RefCell<Option<StrideWorkspace>>,
        opts: impl FnOnce() -> StrideOptions,
        model: &M,
        f: impl FnOnce(&mut StrideMap<'_, M>) -> Result<T, ContinuationError>,
    ) -> Result<T, ContinuationError> {
        let kept = cell.borrow_mut().take();
        let mut map = match kept {
            Some(ws) => StrideMap::with_workspace(model, ws)?,
            None => StrideMap::new(model, opts())?,
        };
        let out = f(&mut map);
        *cell.borrow_mut() = Some(map.into_workspace());
        out
    }

    /// [`Evaluator::with_map`] on the model's own workspace.
    pub(crate) fn with_plain_map<M: EvalModel, T>(
        &self,
        model: &M,
        f: impl FnOnce(&mut StrideMap<'_, M>) -> Result<T, ContinuationError>,
    ) -> Result<T, ContinuationError> {
        Self::with_map(&self.workspace, || self.stride.clone(), model, f)
    }

    pub fn eval(&self, u: &[f64], p: f64, with_fp: bool) -> Result<Eval, ContinuationError> {
        let model = self.family.model_at(p)?;
        let exact = self.family.param_index().filter(|_| with_fp);
        let aug = exact.and_then(|k| ParamAugmented::new(&model, k));
        if let Some(aug) = &aug {
            if !self.stride.all_phases_exponential(&model) {
                // The model's own stride integrates its variational equations: one augmented
                // stride gives [F_u, F_p] for the same components plus one column.
                return self.eval_augmented(aug, u, p);
            }
        }
        let mut e = self.eval_plain(&model, u)?;
        if with_fp {
            let (fp, tp) = match &aug {
                Some(aug) => self.param_derivative(&model, aug, u, p)?,
                None => {
                    let h = self.opts.fd_param_step * p.abs().max(1.0);
                    let (fa, ta) = self.side(u, p + h)?;
                    let (fb, tb) = self.side(u, p - h)?;
                    let tp = ta
                        .iter()
                        .zip(&tb)
                        .map(|(a, b)| (a - b) / (2.0 * h))
                        .collect();
                    ((fa - fb) / (2.0 * h), tp)
                }
            };
            e.fp = Some(fp);
            e.tp = Some(tp);
        }
        Ok(e)
    }

    /// `F`, `F_u`, the stride and (where the branch is parametrised by an event time) the
    /// event-time gradients in `u`, from one stride of the model at its own parameter value.
    fn eval_plain<M: EvalModel>(&self, model: &M, u: &[f64]) -> Result<Eval, ContinuationError> {
        let (n, r) = (model.dim(), model.reduced_dim());
        let (f, fu, stride) = self.with_plain_map(model, |map| Ok(reduced_residual(map, u)?))?;
        // Event-time gradients in u only where the branch is parametrised by an event time.
        let tu = if matches!(self.opts.predictor, Predictor::EventTime { .. }) {
            let mut dchi = vec![0.0; n * r];
            model.chart_jacobian(u, &mut dchi);
            let dchi = DMatrix::from_row_slice(n, r, &dchi);
            stride
                .event_time_gradients
                .iter()
                .map(|g| dchi.tr_mul(&DVector::from_column_slice(g)))
                .collect()
        } else {
            Vec::new()
        };
        Ok(Eval {
            f,
            fu,
            fp: None,
            tu,
            tp: None,
            stride,
            segments: None,
        })
    }

    /// [`Evaluator::eval`] with exact `F_p`: one stride of the augmented state `(x, p)`, whose
    /// reduced Jacobian is `[[F_u, F_p], [0, 0]]` (plus the identity's last row) and whose
    /// event-time gradients `∇ t_j · Dχ̃` are `(∂T_j/∂u, ∂T_j/∂p)`
    /// ([`saltation_orbit::param_linearisation`]).
    fn eval_augmented<M: EvalModel>(
        &self,
        aug: &ParamAugmented<'_, M>,
        u: &[f64],
        p: f64,
    ) -> Result<Eval, ContinuationError> {
        let opts = || ParamAugmented::<M>::stride_options(&self.stride);
        let lin = Self::with_map(&self.augmented, opts, aug, |map| {
            Ok(param_linearisation(map, u, p)?)
        })?;
        let tu = if matches!(self.opts.predictor, Predictor::EventTime { .. }) {
            lin.tu
        } else {
            Vec::new()
        };
        Ok(Eval {
            f: lin.f,
            fu: lin.fu,
            fp: Some(lin.fp),
            tu,
            tp: Some(lin.tp),
            stride: lin.stride,
            segments: None,
        })
    }

    /// Exact `F_p` and `∂T_j/∂p` beside a model stride whose phases all take `Φ = e^{Aτ}` (so
    /// that its `F_u` costs no variational integration): one stride of the augmented state
    /// `(x, p)` whose variational equations carry the single column `∂χ̃/∂p = (∂χ/∂p, 1)` (the
    /// chart's parameter column), so that it returns `w = P̃_y ∂χ̃/∂p = (∂P/∂p along the section, 1)`; then
    /// `F_p = Dπ · w[..n]`, and the event-time gradients in that direction are `∂T_j/∂p`.
    fn param_derivative<M: EvalModel>(
        &self,
        model: &M,
        aug: &ParamAugmented<'_, M>,
        u: &[f64],
        p: f64,
    ) -> Result<(DVector<f64>, Vec<f64>), ContinuationError> {
        let (n, r) = (model.dim(), model.reduced_dim());
        let mut ua = u.to_vec();
        ua.push(p);
        let mut xa = vec![0.0; n + 1];
        aug.chart(&ua, &mut xa);
        let mut dchi = vec![0.0; (n + 1) * (r + 1)];
        aug.chart_jacobian(&ua, &mut dchi);
        let seed: Vec<f64> = dchi.iter().skip(r).step_by(r + 1).copied().collect();
        let opts = || ParamAugmented::<M>::stride_options(&self.stride);
        let res = Self::with_map(&self.augmented, opts, aug, |map| {
            Ok(map.eval_seeded(&xa, JacobianKind::StrideMap, &seed, 1)?)
        })?;
        let w = res
            .jacobian
            .as_ref()
            .ok_or(ContinuationError::Singular { p })?;
        let mut dpi = vec![0.0; r * n];
        model.project_jacobian(&res.x[..n], &mut dpi);
        let fp = DMatrix::from_row_slice(r, n, &dpi) * w.view((0, 0), (n, 1));
        let tp = res.event_time_gradients.iter().map(|g| g[0]).collect();
        Ok((fp.column(0).into_owned(), tp))
    }

    /// `π(P_q(χ(u)))` and the event times at parameter `q` (a stride without Jacobian).
    fn side(&self, u: &[f64], q: f64) -> Result<(DVector<f64>, Vec<f64>), ContinuationError> {
        let m = self.family.model_at(q)?;
        let (n, r) = (m.dim(), m.reduced_dim());
        let mut x = vec![0.0; n];
        m.chart(u, &mut x);
        let res = self.with_plain_map(&m, |map| Ok(map.eval(&x, JacobianKind::None)?))?;
        let mut pu = vec![0.0; r];
        m.project(&res.x, &mut pu);
        Ok((
            DVector::from_vec(pu),
            res.events.iter().map(|e| e.t).collect(),
        ))
    }

    /// Newton at fixed `p` from `u`. Returns the solution, its evaluation (with `F_p` if
    /// asked) and the iterations.
    pub fn correct_natural(
        &self,
        u: &DVector<f64>,
        p: f64,
        with_fp: bool,
    ) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
        self.correct(u, Closure::Fixed(p), with_fp)
    }

    /// Pseudo-arclength corrector from the predicted `z_pred` on the hyperplane normal to `tau`.
    pub fn correct_arclength(
        &self,
        z_pred: &DVector<f64>,
        tau: &DVector<f64>,
    ) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
        let closure = Closure::Plane {
            z_pred: z_pred.clone(),
            tau: tau.clone(),
        };
        self.correct(z_pred, closure, true)
    }

    /// Corrector onto the point of the branch where event `event` happens at `time`, from the
    /// guess `z`.
    pub fn correct_event_time(
        &self,
        z: &DVector<f64>,
        event: usize,
        time: f64,
    ) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
        self.correct(z, Closure::EventTime { event, time }, true)
    }

    /// Solves `G = 0` of the closure by the damped Newton method from `z0` (`u`, or `(u, p)`);
    /// the evaluation at the solution comes with the result. With multiple shooting the
    /// unknowns are `(w, p)` (module `segments`), `w` starting along the stride of the
    /// prediction, and the solution returned is its `(u, p)`. The evaluation carries `F_p`
    /// when `with_fp` (always with a closure other than a fixed `p`).
    fn correct(
        &self,
        z0: &DVector<f64>,
        closure: Closure,
        with_fp: bool,
    ) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
        let p_of = |z: &DVector<f64>| match &closure {
            Closure::Fixed(p) => *p,
            _ => z[z.len() - 1],
        };
        let (plan, start) = match self.opts.shooting {
            Shooting::Single => (None, z0.clone()),
            Shooting::Multiple { segments } => {
                let (u, p) = unknowns(z0, &closure);
                let (plan, w) = self.predict_segments(segments, u.as_slice(), p)?;
                let start = match closure {
                    Closure::Fixed(_) => w,
                    _ => stack(&w, p),
                };
                (Some(plan), start)
            }
        };
        let r = match closure {
            Closure::Fixed(_) => z0.len(),
            _ => z0.len() - 1,
        };
        let system = CorrectorSystem {
            ev: self,
            closure: closure.clone(),
            dim: start.len(),
            r,
            plan,
            last: RefCell::new(None),
        };
        // The solver's residual test is relative to max(1, ‖z‖); the corrector's tolerance is
        // absolute (units of u).
        let newton = NewtonOptions {
            ftol: self.opts.corrector_tol / start.norm().max(1.0),
            xtol: 0.0,
            max_iters: self.opts.max_corrector_iters as u64,
            ..NewtonOptions::default()
        };
        match solve(&system, &start, &newton) {
            Ok(report) => {
                let z = &report.solution;
                let e = match system.last.take() {
                    Some((last, e)) if last == *z && (e.fp.is_some() || !with_fp) => e,
                    _ => system.evaluate(z, with_fp)?,
                };
                let branch = system.branch_unknowns(z);
                if let Some(plan) = system.plan {
                    let (w, p) = unknowns(z, &closure);
                    let tau = match &closure {
                        Closure::Plane { tau, .. } => Some(tau),
                        _ => None,
                    };
                    self.set_anchor(plan, w, p, r, &e, tau);
                }
                Ok((branch, e, report.iterations))
            }
            Err(e) => Err(newton_failure(e, &p_of, z0, self.opts.max_corrector_iters)),
        }
    }
}

/// A failed corrector's Newton error as a [`ContinuationError`]: the system's own error as it
/// is, a singular matrix or no convergence at the parameter `p_of` the last iterate has (of
/// `z0` when there is none).
pub(crate) fn newton_failure(
    e: NewtonError<ContinuationError>,
    p_of: &dyn Fn(&DVector<f64>) -> f64,
    z0: &DVector<f64>,
    max_iters: usize,
) -> ContinuationError {
    match e {
        NewtonError::System { error, .. } => error,
        NewtonError::Singular { iterate, .. } => ContinuationError::Singular { p: p_of(&iterate) },
        e => {
            let (p, residual) = match &e {
                NewtonError::Diverged {
                    iterate, residual, ..
                }
                | NewtonError::MaxIterations {
                    iterate, residual, ..
                } => (p_of(iterate), *residual),
                _ => (p_of(z0), f64::NAN),
            };
            ContinuationError::Corrector {
                p,
                iterations: max_iters,
                residual,
            }
        }
    }
}

/// `(u, p)` of the corrector's unknowns.
fn unknowns(z: &DVector<f64>, closure: &Closure) -> (DVector<f64>, f64) {
    match closure {
        Closure::Fixed(p) => (z.clone(), *p),
        _ => {
            let r = z.len() - 1;
            (z.rows(0, r).clone_owned(), z[r])
        }
    }
}

/// A corrector as a square system for the Newton solver; keeps the last evaluation so that
/// the one at the solution is not computed twice. Its unknowns are `u` or `(u, p)`, or with
/// multiple shooting (`plan`) `w = (u, s_1, …)` or `(w, p)`.
struct CorrectorSystem<'e, 'a, F: ModelFamily> {
    ev: &'e Evaluator<'a, F>,
    closure: Closure,
    dim: usize,
    /// The reduced dimension: `u` is the first `r` unknowns.
    r: usize,
    plan: Option<SegmentPlan>,
    last: RefCell<Option<(DVector<f64>, Eval)>>,
}

impl<F: ModelFamily> CorrectorSystem<'_, '_, F> {
    /// `(w, p)` of the unknowns: `w` is `u` for single shooting.
    fn split(&self, z: &DVector<f64>) -> (DVector<f64>, f64) {
        unknowns(z, &self.closure)
    }

    /// The branch's unknowns `u` or `(u, p)` of the corrector's `z`.
    fn branch_unknowns(&self, z: &DVector<f64>) -> DVector<f64> {
        if self.plan.is_none() {
            return z.clone();
        }
        let (w, p) = self.split(z);
        let u = w.rows(0, self.r).clone_owned();
        match self.closure {
            Closure::Fixed(_) => u,
            _ => stack(&u, p),
        }
    }

    /// The evaluation at `z`.
    fn evaluate(&self, z: &DVector<f64>, with_fp: bool) -> Result<Eval, ContinuationError> {
        let (w, p) = self.split(z);
        match &self.plan {
            None => self.ev.eval(w.as_slice(), p, with_fp),
            Some(plan) => self.ev.eval_segments(plan, w.as_slice(), p, with_fp),
        }
    }
}

impl<F: ModelFamily> SquareSystem for CorrectorSystem<'_, '_, F> {
    type Error = ContinuationError;

    fn dim(&self) -> usize {
        self.dim
    }

    fn eval(&self, z: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), ContinuationError> {
        let (w, p) = self.split(z);
        let r = self.r;
        let bordered_system = !matches!(self.closure, Closure::Fixed(_));
        let e = self.evaluate(z, bordered_system)?;
        let (g, jac) = match &self.closure {
            Closure::Fixed(_) => (e.f.clone(), e.fu.clone()),
            Closure::Plane { z_pred, tau } => {
                let fp = e.fp.as_ref().ok_or(ContinuationError::Singular { p })?;
                let mut zu = w.rows(0, r).clone_owned();
                zu = stack(&zu, p);
                (
                    stack(&e.f, tau.dot(&(zu - z_pred))),
                    bordered(&e.fu, fp, tau),
                )
            }
            Closure::EventTime { event, time } => {
                let u = &w;
                let t = e
                    .event_time(*event)
                    .ok_or_else(|| missing_event(*event, p))?;
                let fp = e.fp.as_ref().ok_or(ContinuationError::Singular { p })?;
                let tp = e.tp.as_ref().and_then(|v| v.get(*event).copied());
                let tp = tp.ok_or_else(|| missing_event(*event, p))?;
                let tu = e.tu.get(*event).ok_or_else(|| missing_event(*event, p))?;
                let mut row = DVector::zeros(u.len() + 1);
                row.rows_mut(0, u.len()).copy_from(tu);
                row[u.len()] = tp;
                let mut jac = bordered(&e.fu, fp, &row);
                jac.set_row(u.len(), &row.transpose());
                (stack(&e.f, t - time), jac)
            }
        };
        *self.last.borrow_mut() = Some((z.clone(), e));
        Ok((g, jac))
    }
}

/// The stride has fewer events than the continuation's event index.
fn missing_event(event: usize, p: f64) -> ContinuationError {
    ContinuationError::invalid(
        "predictor.event",
        format!("event {event} does not occur in the stride (at p = {p})"),
    )
}

/// `[v; last]`.
fn stack(v: &DVector<f64>, last: f64) -> DVector<f64> {
    let r = v.len();
    let mut z = DVector::zeros(r + 1);
    z.rows_mut(0, r).copy_from(v);
    z[r] = last;
    z
}

/// Events of the `period_k`-fold stride: `events_per_stride · max(period_k, 1)`, checked.
pub(crate) fn composed_events(
    events_per_stride: usize,
    period_k: usize,
) -> Result<usize, ContinuationError> {
    events_per_stride
        .checked_mul(period_k.max(1))
        .ok_or_else(|| {
            ContinuationError::invalid(
                "stride.events_per_stride",
                format!(
                    "{events_per_stride} events per stride times the period multiplicity \
                     {period_k} overflows"
                ),
            )
        })
}

/// The bordered matrix `[[F_u, F_p], [τᵀ]]`; with multiple shooting `[[G_w, G_p], [τᵀ]]`,
/// where `τ = (τ_u, τ_p)` of the branch acts on `(u, p)` only: its first `r = len(τ) − 1`
/// entries in the columns of `u` (the first `r`), its last in the column of `p`, and zeros in
/// those of the segment starts.
pub(crate) fn bordered(fu: &DMatrix<f64>, fp: &DVector<f64>, tau: &DVector<f64>) -> DMatrix<f64> {
    let m = fu.nrows();
    let r = tau.len() - 1;
    let mut a = DMatrix::zeros(m + 1, m + 1);
    a.view_mut((0, 0), (m, m)).copy_from(fu);
    a.view_mut((0, m), (m, 1)).copy_from(fp);
    for j in 0..r {
        a[(m, j)] = tau[j];
    }
    a[(m, m)] = tau[r];
    a
}

/// Unit tangent of the branch in `(u, p)` at a point: solves `[[F_u, F_p], [τ_prevᵀ]] t =
/// [0; 1]` (so it keeps the orientation of `τ_prev`) and normalises it; with multiple shooting
/// the same on `[[G_w, G_p], [τ_prevᵀ]]` ([`bordered`]), keeping the `(u, p)` part of `t`.
pub(crate) fn tangent(
    fu: &DMatrix<f64>,
    fp: &DVector<f64>,
    tau_prev: &DVector<f64>,
) -> Option<DVector<f64>> {
    let m = fu.nrows();
    let r = tau_prev.len() - 1;
    let mut rhs = DVector::zeros(m + 1);
    rhs[m] = 1.0;
    let t = bordered(fu, fp, tau_prev).lu().solve(&rhs)?;
    let mut t = if m == r {
        t
    } else {
        let mut tu = DVector::zeros(r + 1);
        tu.rows_mut(0, r).copy_from(&t.rows(0, r));
        tu[r] = t[m];
        tu
    };
    let n = t.norm();
    (n.is_finite() && n > 0.0).then(|| {
        t /= n;
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::ParamFamily;
    use crate::test_models::{bounce, QuadraticBounce};
    use saltation_hybrid::Bound;

    /// `F(u, p) = u² + p − u` for the quadratic bounce: `F_u = 2u − 1`, `F_p = 1` (the parameter
    /// is in the reset), and the landing time `T = 2u` has `∂T/∂u = 2`, `∂T/∂p = 0` — exactly
    /// from the augmented state, and the same to O(h²) from central differences.
    #[test]
    fn exact_and_central_difference_parameter_derivatives() {
        let opts = ContinuationOptions {
            predictor: Predictor::EventTime { event: 0 },
            ..ContinuationOptions::default()
        };
        let (u, p) = (0.3, 0.1);
        let exact_family = ParamFamily::new(Bound::new(QuadraticBounce), "p").unwrap();
        let orbit = OrbitOptions::default();
        let exact = Evaluator::new(&exact_family, &orbit, &opts, 1).unwrap();
        let fd = Evaluator::new(&bounce, &orbit, &opts, 1).unwrap();
        let e = exact.eval(&[u], p, true).unwrap();
        let c = fd.eval(&[u], p, true).unwrap();
        assert!((e.f[0] - (u * u + p - u)).abs() < 1e-14);
        assert!((e.fu[(0, 0)] - (2.0 * u - 1.0)).abs() < 1e-13);
        assert!((e.fp.as_ref().unwrap()[0] - 1.0).abs() < 1e-14);
        assert!((e.tu[0][0] - 2.0).abs() < 1e-12);
        assert!(e.tp.as_ref().unwrap()[0].abs() < 1e-14);
        assert!((c.fp.as_ref().unwrap()[0] - 1.0).abs() < 1e-7);
        assert!(c.tp.as_ref().unwrap()[0].abs() < 1e-7);
        // The stride as the model's own (the parameter component dropped).
        assert_eq!(e.stride.x.len(), 2);
        assert_eq!(e.stride.jacobian.as_ref().unwrap().shape(), (2, 2));
        assert!((e.stride.period - 2.0 * u).abs() < 1e-12);
    }
}
