//! Checking one state against its mode's equalities and declared conditions.

use crate::error::{HybridError, StateFailure};
use crate::model::EvalModel;

/// Tolerance of [`check_initial_state`]: a condition below `−tol · max(1, ‖x‖∞)` or an
/// equality residual above it refuses the state.
pub const STATE_TOL: f64 = 1e-9;

/// Checks the initial state `x` of a run in `mode`: every equality of the mode
/// ([`EvalModel::state_residual`]) holds and every condition is non-negative
/// ([`check_state_conditions`]), both within [`STATE_TOL`]` · max(1, ‖x‖∞)`. The error names
/// the equality or condition, the mode, the value and the state.
pub fn check_initial_state<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    x: &[f64],
) -> Result<(), HybridError> {
    let tol = state_tol(model, mode, x)?;
    if let Some((what, value)) = model.state_residual(mode, x) {
        if !(value.abs() <= tol) {
            return Err(HybridError::Inadmissible(Box::new(StateFailure {
                what,
                equality: true,
                mode: model.mode_name(mode),
                t: None,
                value,
                state: x.to_vec(),
            })));
        }
    }
    check_state_conditions(model, mode, x)
}

/// Checks a state `x` of `mode` against the mode's conditions alone (not its equalities):
/// each `c_{m,i}(x) ≥ −`[`STATE_TOL`]` · max(1, ‖x‖∞)` (a NaN value fails). What an orbit's
/// starting guess, mapped to its state, must satisfy; the error names the condition, the
/// mode, the value and the state.
pub fn check_state_conditions<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    x: &[f64],
) -> Result<(), HybridError> {
    let tol = state_tol(model, mode, x)?;
    for i in 0..model.conditions(mode) {
        let value = model.condition(mode, i, x);
        if !(value >= -tol) {
            return Err(HybridError::Inadmissible(Box::new(StateFailure {
                what: model.condition_name(mode, i),
                equality: false,
                mode: model.mode_name(mode),
                t: None,
                value,
                state: x.to_vec(),
            })));
        }
    }
    Ok(())
}

/// The absolute tolerance [`STATE_TOL`]` · max(1, ‖x‖∞)` of a state of `mode`, after checking
/// that the mode exists and the state has the model's dimension.
fn state_tol<M: EvalModel + ?Sized>(model: &M, mode: usize, x: &[f64]) -> Result<f64, HybridError> {
    if mode >= model.modes() {
        return Err(HybridError::BadMode {
            mode,
            modes: model.modes(),
        });
    }
    if x.len() != model.dim() {
        return Err(HybridError::DimensionMismatch {
            what: "initial state",
            expected: model.dim(),
            got: x.len(),
        });
    }
    Ok(STATE_TOL * x.iter().fold(1.0f64, |m, v| m.max(v.abs())))
}
