//! The integrators of the state alone, one per kind of mode: `method` in general, and the
//! exact stepper ([`AffineExp`]) in the modes [`StrideOptions::steps_exactly`] names. The
//! stride map and [`crate::simulate`] pick from them by the same rule; each integrator keeps
//! its own step-size and Zeno history, starts on its first segment of a run and restarts on
//! the later ones, and the run's statistics are the sum over those used.

use crate::error::HybridError;
use crate::model::EvalModel;
use crate::stride::StrideOptions;
use saltation_ode::{AffineExp, AnyStepper, Solver, Stats};

/// The two state integrators and which of them the current run has used.
pub(crate) struct StateSolvers {
    /// `method`, index 0; the exact stepper, index 1.
    solvers: [Solver<AnyStepper>; 2],
    used: [bool; 2],
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
        })
    }

    /// Starts a new run: each integrator starts afresh on its next segment.
    pub(crate) fn new_run(&mut self) {
        self.used = [false; 2];
    }

    /// The integrator of a segment in `mode`, and whether it is that integrator's first
    /// segment of the run (then it is started, else restarted).
    pub(crate) fn for_mode<M: EvalModel + ?Sized>(
        &mut self,
        opts: &StrideOptions,
        model: &M,
        mode: usize,
    ) -> (&mut Solver<AnyStepper>, bool) {
        let k = usize::from(opts.steps_exactly(model, mode));
        let first = !std::mem::replace(&mut self.used[k], true);
        (&mut self.solvers[k], first)
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
