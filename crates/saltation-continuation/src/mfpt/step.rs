//! One stride of the section map at a drawn parameter value: the stochastic map
//! `u_{k+1} = π(P_{p_k}(χ_{p_k}(u_k)))` that both the chain and Monte Carlo iterate.
//!
//! The state carried from stride to stride is the section's reduced coordinate `u`, charted
//! with the parameter of the stride about to be taken (for a chart that does not depend on the
//! parameter, as the walkers' and the wheel's, this is the physical state itself). A stride
//! *fails* — the walker falls — on a failure guard, on any stride error (no guard within
//! `t_max`, grazing, an integration failure: the cause in the model's words), when it ends in
//! another mode than it started in, or when the new `u` is not finite.

use crate::diagram::failure_cause;
use crate::error::ContinuationError;
use saltation_hybrid::{EvalModel, JacobianKind, StrideMap, StrideOptions, StrideWorkspace};

/// What one stride did.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// It ended on the section; the new `u` was written.
    Landed,
    /// It failed, for this reason.
    Fell(String),
}

/// A model whose parameter `k` is set before every stride, with the stride map's workspace
/// kept between strides (one per thread).
pub struct Stepper<M: EvalModel + Clone> {
    model: M,
    k: usize,
    opts: StrideOptions,
    ws: Option<StrideWorkspace>,
    x: Vec<f64>,
}

impl<M: EvalModel + Clone> Stepper<M> {
    /// A stepper of a copy of `model` varying parameter `k`, with the stride settings `opts`
    /// (already validated for the model).
    pub fn new(model: &M, k: usize, opts: &StrideOptions) -> Self {
        Self {
            x: vec![0.0; model.dim()],
            model: model.clone(),
            k,
            opts: opts.clone(),
            ws: None,
        }
    }

    /// One stride from `u` with parameter `k` at `p`, the new reduced state into `out`.
    /// Errors: `p` is not a value the model accepts for the parameter (named `field`).
    pub fn step(
        &mut self,
        p: f64,
        u: &[f64],
        out: &mut [f64],
        field: &str,
    ) -> Result<Step, ContinuationError> {
        if self.model.param_value(self.k) != Some(p) {
            self.model.set_param_value(self.k, p).map_err(|source| {
                ContinuationError::InvalidParameter {
                    field: field.to_string(),
                    value: p,
                    source,
                }
            })?;
        }
        self.model.chart(u, &mut self.x);
        let map = match self.ws.take() {
            Some(ws) => StrideMap::with_workspace(&self.model, ws),
            None => StrideMap::new(&self.model, self.opts.clone()),
        };
        let mut map = match map {
            Ok(m) => m,
            Err(e) => return Ok(Step::Fell(failure_cause(&self.model, &e))),
        };
        let res = map.eval(&self.x, JacobianKind::None);
        self.ws = Some(map.into_workspace());
        let res = match res {
            Ok(r) => r,
            Err(e) => return Ok(Step::Fell(failure_cause(&self.model, &e))),
        };
        if res.mode != self.opts.start_mode {
            return Ok(Step::Fell(format!(
                "the stride ended in mode `{}`, not in the section's `{}`",
                self.model.mode_name(res.mode),
                self.model.mode_name(self.opts.start_mode)
            )));
        }
        self.model.project(&res.x, out);
        if let Some(i) = out.iter().position(|v| !v.is_finite()) {
            return Ok(Step::Fell(format!(
                "the section coordinate {i} became non-finite"
            )));
        }
        Ok(Step::Landed)
    }
}
