//! A one-parameter family of hybrid models: what continuation walks along.

use saltation_hybrid::{HybridModel, ParamError};

/// Models `M(p)` for a scalar parameter `p`.
pub trait ModelFamily: Sync {
    /// The model type.
    type Model: HybridModel;
    /// The model at parameter value `p` (an error if `p` is invalid for it).
    fn model_at(&self, p: f64) -> Result<Self::Model, ParamError>;
}

/// Any `Fn(f64) -> Result<M, ParamError>` is a family.
impl<M: HybridModel, F: Fn(f64) -> Result<M, ParamError> + Sync> ModelFamily for F {
    type Model = M;
    fn model_at(&self, p: f64) -> Result<M, ParamError> {
        self(p)
    }
}
