//! A one-parameter family of hybrid models: what continuation walks along.

use saltation_hybrid::{param_index, EvalModel, ParamError};

/// Models `M(p)` for a scalar parameter `p`.
pub trait ModelFamily: Sync {
    /// The model type.
    type Model: EvalModel;
    /// The model at parameter value `p` (an error if `p` is invalid for it).
    fn model_at(&self, p: f64) -> Result<Self::Model, ParamError>;
    /// Which of the model's parameters `p` is, when the family is "one named parameter of a
    /// model" (default `None`). With it, and a model that gives exact derivatives in that
    /// parameter ([`EvalModel::param_derivatives`]), continuation takes `∂F/∂p` from the
    /// variational equations of the state augmented with `p`
    /// ([`saltation_hybrid::ParamAugmented`]) instead of central differences.
    fn param_index(&self) -> Option<usize> {
        None
    }
}

/// Any `Fn(f64) -> Result<M, ParamError>` is a family (its `∂F/∂p` by central differences).
impl<M: EvalModel, F: Fn(f64) -> Result<M, ParamError> + Sync> ModelFamily for F {
    type Model = M;
    fn model_at(&self, p: f64) -> Result<M, ParamError> {
        self(p)
    }
}

/// The family of one named parameter of a model: `M(p)` is `model` with that parameter set to
/// `p` ([`EvalModel::set_param_value`], checked).
#[derive(Debug, Clone)]
pub struct ParamFamily<M> {
    model: M,
    k: usize,
}

impl<M: EvalModel + Clone + Sync> ParamFamily<M> {
    /// The family of parameter `name` of `model` ([`ParamError::Unknown`] listing the known
    /// names if there is none).
    pub fn new(model: M, name: &str) -> Result<Self, ParamError> {
        let k = param_index(&model, name)?;
        Ok(Self { model, k })
    }

    /// The model the family was made from.
    pub fn base(&self) -> &M {
        &self.model
    }
}

impl<M: EvalModel + Clone + Sync> ModelFamily for ParamFamily<M> {
    type Model = M;
    fn model_at(&self, p: f64) -> Result<M, ParamError> {
        let mut m = self.model.clone();
        m.set_param_value(self.k, p)?;
        Ok(m)
    }
    fn param_index(&self) -> Option<usize> {
        Some(self.k)
    }
}
