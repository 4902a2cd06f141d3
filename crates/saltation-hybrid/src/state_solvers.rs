//! The integrators of the state alone, one per kind of mode: `method` in general, and the
//! exact stepper ([`AffineExp`]) in the modes [`StrideOptions::steps_exactly`] names. The
//! stride map and [`crate::simulate`] pick from them by the same rule; each integrator keeps
//! its own step-size and Zeno history, starts on its first segment of a run and restarts on
//! the later ones, and the run's statistics are the sum over those used.
//!
//! The exact stepper takes steps of about `1/ρ(A)` (for the event scan), so a stiff affine
//! mode (`ρ(A)` huge) would need more steps than `max_steps`, or a step below the floor. Where
//! it fails that way ([`falls_back`]) the segment is run again by `method` from its start, and
//! that mode stays with `method` for the rest of the solver's life: the exact stepper is an
//! optimisation and never the reason a run fails.

use crate::error::HybridError;
use crate::model::EvalModel;
use crate::stride::StrideOptions;
use saltation_ode::{AffineExp, AnyStepper, OdeError, Solver, Stats};

/// The two state integrators and which of them the current run has used.
pub(crate) struct StateSolvers {
    /// `method`, index 0; the exact stepper, index 1.
    solvers: [Solver<AnyStepper>; 2],
    used: [bool; 2],
    /// Modes where the exact stepper failed ([`falls_back`]) and `method` runs instead.
    inexact: Vec<usize>,
    /// Modes in which the exact stepper completed a segment in this run.
    exact_modes: Vec<usize>,
}

/// Whether an error of the exact stepper is one that `method` may not have: too many steps,
/// a step below its floor or no positive step (a stiff or huge `A`), a non-finite value (an
/// overflowing exponential). A false claim of affinity (`NotAffine`) is not: the stride's
/// `Φ = e^{Aτ}` would be wrong too, so it stays an error.
pub(crate) fn falls_back(e: &HybridError) -> bool {
    matches!(
        e,
        HybridError::Ode {
            source: OdeError::MaxSteps { .. }
                | OdeError::StepTooSmall { .. }
                | OdeError::InvalidOption { .. }
                | OdeError::NonFiniteRhs { .. }
                | OdeError::NonFinite { .. },
            ..
        }
    )
}

impl StateSolvers {
    /// Both integrators with the (already validated) options.
    pub(crate) fn new(opts: &StrideOptions) -> Result<Self, HybridError> {
        let ode_err = |source| HybridError::Ode { mode: 0, source };
        Ok(Self {
            solvers: [
                Solver::new(opts.method.stepper(), opts.ode.clone()).map_err(ode_err)?,
                Solver::new(AnyStepper::AffineExp(AffineExp::new()), opts.ode.clone())
                    .map_err(ode_err)?,
            ],
            used: [false; 2],
            inexact: Vec::new(),
            exact_modes: Vec::new(),
        })
    }

    /// Whether `mode` is stepped exactly: [`StrideOptions::steps_exactly`], unless the exact
    /// stepper failed there before.
    pub(crate) fn steps_exactly<M: EvalModel + ?Sized>(
        &self,
        opts: &StrideOptions,
        model: &M,
        mode: usize,
    ) -> bool {
        opts.steps_exactly(model, mode) && !self.inexact.contains(&mode)
    }

    /// `mode` goes to `method` from now on (the exact stepper failed there).
    pub(crate) fn fall_back(&mut self, mode: usize) {
        // The method runs the segment again from its start: the guard the exact stepper
        // located last (where the segment starts) is the method's too.
        let fired = self.solvers[1].last_fired();
        self.solvers[0].set_last_fired(fired);
        if !self.inexact.contains(&mode) {
            self.inexact.push(mode);
        }
        self.exact_modes.retain(|&m| m != mode);
    }

    /// Whether an accumulation predicted before a segment's end is a Zeno error
    /// ([`Solver::set_zeno_fit`]).
    pub(crate) fn set_zeno_fit(&mut self, on: bool) {
        for s in &mut self.solvers {
            s.set_zeno_fit(on);
        }
    }

    /// Notes that the exact stepper completed a segment in `mode`.
    pub(crate) fn note_exact(&mut self, mode: usize) {
        if !self.exact_modes.contains(&mode) {
            self.exact_modes.push(mode);
        }
    }

    /// The modes the exact stepper completed segments in during this run, in first-use order.
    pub(crate) fn exact_modes(&self) -> &[usize] {
        &self.exact_modes
    }

    /// Starts a new run: each integrator starts afresh on its next segment.
    pub(crate) fn new_run(&mut self) {
        self.used = [false; 2];
        self.exact_modes.clear();
    }

    /// The integrator of a segment in `mode`, and whether it is that integrator's first
    /// segment of the run (then it is started, else restarted).
    pub(crate) fn for_mode<M: EvalModel + ?Sized>(
        &mut self,
        opts: &StrideOptions,
        model: &M,
        mode: usize,
    ) -> (&mut Solver<AnyStepper>, bool) {
        let k = usize::from(self.steps_exactly(opts, model, mode));
        let first = !std::mem::replace(&mut self.used[k], true);
        (&mut self.solvers[k], first)
    }

    /// The state where the integrator of `mode` stands (after a segment that reached its time
    /// limit: the state at that time).
    pub(crate) fn y_of<M: EvalModel + ?Sized>(
        &self,
        opts: &StrideOptions,
        model: &M,
        mode: usize,
    ) -> &[f64] {
        self.solvers[usize::from(self.steps_exactly(opts, model, mode))].y()
    }

    /// The exact stepper, as the last segment it ran left it (its `e^{Ah}` is that mode's).
    pub(crate) fn exact(&self) -> Option<&AffineExp> {
        match self.solvers[1].stepper() {
            AnyStepper::AffineExp(s) => Some(s),
            _ => None,
        }
    }

    /// The work of the integrators used in this run.
    pub(crate) fn stats(&self) -> Stats {
        self.solvers
            .iter()
            .zip(self.used)
            .filter(|(_, used)| *used)
            .fold(Stats::default(), |acc, (s, _)| acc + s.stats())
    }
}
