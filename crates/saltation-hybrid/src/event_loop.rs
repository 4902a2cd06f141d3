//! The one event loop of the hybrid layer: integrate a mode's flow to its first guard, then
//! take the discrete step there (failure guards, reset, target mode, finiteness, transversality).
//!
//! The stride map ([`crate::StrideMap`]) and the simulation ([`crate::simulate`]) both advance
//! by calling [`advance`] once per event, so an event is located, reset and checked for grazing
//! the same way whether a stride Jacobian or a plotted trajectory is wanted. What differs is
//! only what the caller does with the crossing: the stride map multiplies the variational matrix
//! by a saltation matrix built from the same [`JumpWork`], the simulation records samples.

use crate::crossings::Crossings;
use crate::error::HybridError;
use crate::guards::{check_reset_finite, reset_at, ModeGuards};
use crate::model::EvalModel;
use crate::saltation::{transversality, EventSite, Jump};
use saltation_ode::{AnyStepper, OdeError, OdeSystem, Solver, Stop, Trajectory};

/// The vectors of one jump (`g_x`, `h_x`, `f⁻`, `f⁺`), reused from event to event.
pub(crate) struct JumpWork {
    gx: Vec<f64>,
    hx: Vec<f64>,
    fm: Vec<f64>,
    fp: Vec<f64>,
    /// Guard crossings seen and not taken in the last segment that ended at its time limit.
    pub rejected: Crossings,
}

impl JumpWork {
    /// Work for a model of dimension `n`.
    pub(crate) fn new(n: usize) -> Self {
        Self {
            gx: vec![0.0; n * n],
            hx: vec![0.0; n],
            fm: vec![0.0; n],
            fp: vec![0.0; n],
            rejected: Crossings::default(),
        }
    }

    /// The last crossing's jump.
    pub(crate) fn jump(&self) -> Jump<'_> {
        Jump {
            gx: &self.gx,
            hx: &self.hx,
            f_minus: &self.fm,
            f_plus: &self.fp,
        }
    }
}

/// An event at the end of a segment, after its discrete step.
#[derive(Debug, Clone)]
pub(crate) struct Crossing {
    /// Event time.
    pub t: f64,
    /// Guard that fired.
    pub guard: usize,
    /// Mode after the event.
    pub target: usize,
    /// The integrator's state just before the event (the state, then `Φ` for a variational
    /// system).
    pub y_minus: Vec<f64>,
    /// The state just after the reset.
    pub x_plus: Vec<f64>,
    /// `h_x f⁻`, already checked against grazing (NaN for an accumulation, which is no
    /// crossing).
    pub hxf: f64,
}

/// How a segment ended.
pub(crate) enum SegmentEnd {
    /// `t_limit` was reached before any guard.
    TimeReached,
    /// A guard fired.
    Event(Crossing),
}

/// Where a segment starts and what it watches.
pub(crate) struct Segment<'a, M: ?Sized, S> {
    /// The model.
    pub model: &'a M,
    /// The current mode.
    pub mode: usize,
    /// Its flow, plain or variational.
    pub sys: &'a S,
    /// Whether this is the first segment of a run (`start`, clearing the statistics and the
    /// Zeno history) or a later one (`restart`).
    pub first: bool,
    /// Relative transversality below which an event is grazing.
    pub grazing_tol: f64,
    /// Whether an accumulation of crossings goes on through the guard the model declares for
    /// it ([`EvalModel::guard_on_accumulation`]): a simulation does; a stride map, whose
    /// Jacobian has no saltation matrix for it, reports the Zeno error.
    pub accumulate: bool,
}

impl<M: EvalModel + ?Sized, S: OdeSystem> Segment<'_, M, S> {
    /// Integrates from `(t, y)` to the first guard of the mode or `t_limit` (recording into
    /// `out`), and at a guard takes the discrete step, filling `w` with the jump's vectors.
    pub(crate) fn advance(
        &self,
        solver: &mut Solver<AnyStepper>,
        t: f64,
        y: &[f64],
        t_limit: f64,
        out: Option<&mut Trajectory>,
        w: &mut JumpWork,
    ) -> Result<SegmentEnd, HybridError> {
        let (model, mode) = (self.model, self.mode);
        let guards = ModeGuards::new(model, mode);
        let ode = |source| HybridError::from_ode(model, mode, source);
        if self.first {
            solver.start(self.sys, &guards, t, y).map_err(ode)?;
        } else {
            solver.restart(self.sys, &guards, t, y).map_err(ode)?;
        }
        let hit = match solver.integrate(self.sys, &guards, t_limit, out) {
            Ok(Stop::TimeReached) => {
                w.rejected = guards.take_rejected();
                return Ok(SegmentEnd::TimeReached);
            }
            Ok(Stop::Event(hit)) => hit,
            Err(OdeError::Zeno { t, guard, .. })
                if self.accumulate && model.guard_on_accumulation(mode, guard).is_some() =>
            {
                // The solver sits at the last located crossing: go on through the declared
                // guard from there.
                let k = model.guard_on_accumulation(mode, guard).unwrap_or(guard);
                return self.accumulated(k, t, solver.y().to_vec(), w);
            }
            Err(e) => return Err(ode(e)),
        };
        let (j, t) = (hit.index, hit.t);
        let n = model.dim();
        let xm = &hit.y[..n];
        let (target, xp) = reset_at(model, (mode, j, t), xm, || guards.take_rejected())?;
        check_reset_finite(&xp)?;
        // Transversality (grazing) is checked at every event.
        model.flow(mode, t, xm, &mut w.fm);
        model.flow(target, t, &xp, &mut w.fp);
        model.guard_gradient(mode, j, xm, &mut w.hx);
        model.reset_jacobian(mode, j, xm, &mut w.gx);
        let site = EventSite { mode, guard: j, t };
        let hxf = transversality(&w.jump(), site, self.grazing_tol)?;
        Ok(SegmentEnd::Event(Crossing {
            t,
            guard: j,
            target,
            y_minus: hit.y,
            x_plus: xp,
            hxf,
        }))
    }

    /// The discrete step of guard `k` (declared for an accumulation) at `(t, y)`: its reset
    /// and target, without a transversality check (it was not crossed).
    fn accumulated(
        &self,
        k: usize,
        t: f64,
        y: Vec<f64>,
        w: &mut JumpWork,
    ) -> Result<SegmentEnd, HybridError> {
        let (model, mode) = (self.model, self.mode);
        let n = model.dim();
        let (target, xp) = reset_at(model, (mode, k, t), &y[..n], Default::default)?;
        check_reset_finite(&xp)?;
        model.flow(mode, t, &y[..n], &mut w.fm);
        model.flow(target, t, &xp, &mut w.fp);
        Ok(SegmentEnd::Event(Crossing {
            t,
            guard: k,
            target,
            y_minus: y,
            x_plus: xp,
            hxf: f64::NAN,
        }))
    }
}
