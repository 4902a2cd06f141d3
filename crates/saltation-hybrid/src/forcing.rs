//! Time-forced (non-autonomous) models: the forcing phase as a state, carried modulo the
//! forcing period.
//!
//! A model whose equations depend on time periodically, `f(t + T, x) = f(t, x)` (and likewise
//! its guards and resets), declares it ([`crate::HybridModel::forcing`]): one state component,
//! the *phase* `θ`, obeys `θ' = 1` and stands for the time in every formula, and the period
//! `T(p)` is a function of the parameters. The model is then autonomous in the state
//! `(x, θ)`, so its guards and resets see the time, its saltation matrices carry `∂h/∂θ`, and
//! the stride machinery needs nothing new, except that the phase is only defined modulo `T`:
//! at the end of a stride that ran for `τ` the phase is brought back by the whole number of
//! periods it advanced,
//!
//! ```text
//! θ⁺ = θ₀ + τ − k T,      k = round(τ / T),      ∂θ⁺/∂· = ∂(θ₀ + τ)/∂· − k ∂T/∂·
//! ```
//!
//! ([`unwind_phase`]), so a periodic orbit (of `k` forcing periods) is a fixed point and its
//! multipliers are those of its period map. `∂T/∂·` is zero in the state and `T'(p)` in a
//! parameter appended to the state ([`crate::ParamAugmented`]).
//!
//! A model whose vector field reads the time without a declared forcing has no stride map
//! whose fixed points are periodic orbits (every stride would restart the clock):
//! [`require_declared_forcing`] refuses it where orbits are sought.

use crate::error::HybridError;
use crate::model::EvalModel;

/// The forcing of a time-forced model: which state is the phase and the period.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forcing<D> {
    /// Index of the phase `θ` in the state (`θ' = 1`; the time in every formula).
    pub phase: usize,
    /// The forcing period `T(p)` (finite and positive).
    pub period: D,
}

/// [`HybridError::UndeclaredForcing`] for a model with a mode whose vector field depends on
/// time ([`EvalModel::flow_is_autonomous`] false) and no declared forcing
/// ([`EvalModel::forcing`]); also a declared forcing whose period is not finite and positive
/// or whose phase is not a state. What `orbit`, `continue` and `orbit-diagram` call first
/// (`simulate` integrates such a model in true time).
pub fn require_declared_forcing<M: EvalModel + ?Sized>(model: &M) -> Result<(), HybridError> {
    match model.forcing() {
        Some(f) => {
            if !(f.period > 0.0 && f.period.is_finite()) {
                return Err(HybridError::BadForcing {
                    reason: format!(
                        "the forcing period is {} (must be finite and > 0)",
                        f.period
                    ),
                });
            }
            if f.phase >= model.dim() {
                return Err(HybridError::BadForcing {
                    reason: format!(
                        "the phase is state {} of a model with {} states",
                        f.phase,
                        model.dim()
                    ),
                });
            }
            Ok(())
        }
        None => match (0..model.modes()).find(|&m| !model.flow_is_autonomous(m)) {
            None => Ok(()),
            Some(mode) => Err(HybridError::UndeclaredForcing {
                model: model.name().to_string(),
                mode: model.mode_name(mode),
            }),
        },
    }
}

/// A stride's Jacobian times its seed: `jac` (`n × cols`, row-major) and the seed `V` (`n ×
/// cols`; `None` for the identity).
pub(crate) struct SeededJacobian<'a> {
    pub jac: &'a mut [f64],
    pub seed: Option<&'a [f64]>,
    pub cols: usize,
}

/// Brings the phase of the stride's end state `x` back by the whole number of periods it
/// advanced from `theta0` (see the module documentation), and, with a Jacobian `jac` (`n × c`,
/// row-major, the stride's Jacobian times its seed `V`: `n × c`, `None` for the identity),
/// subtracts `k ∂T/∂x₀ · V` from the phase's row. No-op for a model without forcing.
pub(crate) fn unwind_phase<M: EvalModel + ?Sized>(
    model: &M,
    theta0: f64,
    x: &mut [f64],
    jac: Option<SeededJacobian<'_>>,
) {
    let Some(f) = model.forcing() else { return };
    let Some(theta) = x.get(f.phase).copied() else {
        return;
    };
    let k = ((theta - theta0) / f.period).round();
    if k == 0.0 || !k.is_finite() {
        return;
    }
    x[f.phase] = theta - k * f.period;
    if let Some(SeededJacobian { jac, seed, cols: c }) = jac {
        let n = x.len();
        crate::with_buffer(0.0, n, |grad| {
            model.forcing_period_gradient(grad);
            if grad.iter().all(|&g| g == 0.0) {
                return;
            }
            for col in 0..c {
                let dt: f64 = match seed {
                    None => grad[col],
                    Some(v) => (0..n).map(|l| grad[l] * v[l * c + col]).sum(),
                };
                jac[f.phase * c + col] -= k * dt;
            }
        });
    }
}
