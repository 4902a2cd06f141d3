//! The workspace of the NDF/BDF stepper: allocated when an integration starts, reused by every
//! step (the step loop does not allocate).

use super::differences::Differences;
use crate::control::NormAcc;
use crate::stepper::zeroed;
use crate::SolverOptions;

/// Vectors of full length (state plus variational columns) and the difference array; `y_n`,
/// `f(t_n, y_n)` and the last step's start are in the stepper's
/// [`crate::step_state::StepState`].
#[derive(Debug, Clone, Default)]
pub struct Work {
    /// Candidate `y_{n+1}`.
    pub ynew: Vec<f64>,
    /// `f` at the Newton iterate, then at the accepted `y_{n+1}`.
    pub fnew: Vec<f64>,
    /// Predictor `y⁽⁰⁾_{n+1}` (and `y'(t_0)` while a history is begun).
    pub pred: Vec<f64>,
    /// `ψ = Σ γ_j ∇^j y_n / α_k`.
    pub psi: Vec<f64>,
    /// The correction `d = y_{n+1} − y⁽⁰⁾`.
    pub d: Vec<f64>,
    /// Newton correction `Δ`.
    pub del: Vec<f64>,
    /// Scratch (`ψ + d`).
    pub tmp: Vec<f64>,
    /// Error weights of the controlled components.
    pub w: Vec<f64>,
    /// `∇^j y_n`.
    pub dif: Differences,
}

impl Work {
    /// Sizes every vector for states of length `n` (contents zeroed).
    pub fn resize(&mut self, n: usize) {
        zeroed(
            [
                &mut self.ynew,
                &mut self.fnew,
                &mut self.pred,
                &mut self.psi,
                &mut self.d,
                &mut self.del,
                &mut self.tmp,
                &mut self.w,
            ],
            n,
        );
        self.dif.resize(n);
    }
}

/// The options' norm of `v / w` over the first `m` components (the controlled ones).
#[inline]
pub fn weighted_norm(v: &[f64], w: &[f64], m: usize, opts: &SolverOptions) -> f64 {
    let mut acc = NormAcc::new(opts.norm);
    for (vi, wi) in v[..m].iter().zip(&w[..m]) {
        acc.add(vi / wi);
    }
    acc.finish()
}
