//! The checks of a parsed model file.
//!
//! [`ModelFile::validate`] is the one validation of a model file: the model's parameters, the
//! guesses, the orbit settings (`orbit.stride`, `orbit.newton`, `orbit.eigen`) and the
//! `continuation` section (run with those orbit settings), everything that can be checked before
//! computing. The loader ([`crate::parse_model_file`]) calls it, so every subcommand and every
//! library caller that loads a file refuses the same inputs, and reports them as
//! `FILE:LINE:COLUMN: field: reason` ([`crate::field_offset`] finds the field in the text).

use crate::file::MAX_GUESSES;
use crate::{InitialState, ModelFile};
use saltation_hybrid::{EvalModel, ParamError};
use saltation_models::Model;

/// A check of a model file that failed: the field's path (`orbit.stride.ode.rtol`,
/// `guesses[1].u`, `continuation.branches[0].from`) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// Path of the field.
    pub field: String,
    /// What is wrong, with the valid range.
    pub reason: String,
}

impl ModelFile {
    /// Checks everything that does not need a computation (see the module documentation).
    pub fn validate(&self) -> Result<(), Invalid> {
        let model = &self.model;
        model.check_params().map_err(|e| Invalid {
            field: format!("model.{}", param_name(&e).unwrap_or("")),
            reason: e.to_string(),
        })?;
        if self.guesses.len() > MAX_GUESSES {
            return Err(Invalid {
                field: "guesses".into(),
                reason: format!("{} guesses: at most {}", self.guesses.len(), MAX_GUESSES),
            });
        }
        let r = model.reduced_dim();
        for (i, g) in self.guesses.iter().enumerate() {
            let field = format!("guesses[{i}].u");
            if let Some(k) = g.u.iter().position(|x| !x.is_finite()) {
                return Err(Invalid {
                    field,
                    reason: format!("guess \"{}\": value {} is not finite", g.label, k + 1),
                });
            }
            if g.u.len() != r {
                return Err(Invalid {
                    field,
                    reason: format!(
                        "guess \"{}\" has {} value(s), but the {} section has {r} reduced \
                         coordinate(s)",
                        g.label,
                        g.u.len(),
                        model.name()
                    ),
                });
            }
        }
        if let Model::Equations(m) = model {
            if let Some(start) = m.model().section_start_mode() {
                if self.orbit.stride.start_mode != start {
                    return Err(Invalid {
                        field: "orbit.stride.start_mode".into(),
                        reason: format!(
                            "the section starts after its guard in mode {start} ({}): set \
                             `start_mode: {start}`",
                            model.mode_name(start)
                        ),
                    });
                }
            }
        }
        self.orbit.validate_for(model).map_err(|e| Invalid {
            field: format!("orbit.{}", e.field()),
            reason: e.to_string(),
        })?;
        if let Some(init) = &self.initial {
            init.validate(model)?;
        }
        // The script as it runs, with the orbit settings checked above beside it.
        if let Some(spec) = &self.script() {
            let family = |p: f64| model.with_param(&spec.param, p);
            model.param(&spec.param).map_err(|e| Invalid {
                field: "continuation.param".into(),
                reason: e.to_string(),
            })?;
            spec.validate(&family, &self.orbit).map_err(|e| Invalid {
                field: format!("continuation.{}", e.field().unwrap_or("")),
                reason: e.to_string(),
            })?;
        }
        Ok(())
    }
}

impl InitialState {
    /// The state has the model's dimension and is finite, the time is finite and the mode is
    /// one of the model's.
    pub fn validate(&self, model: &Model) -> Result<(), Invalid> {
        let bad = |field: &str, reason: String| {
            Err(Invalid {
                field: format!("initial.{field}"),
                reason,
            })
        };
        if !self.t.is_finite() {
            return bad("t", "initial time must be finite".into());
        }
        if self.x.len() != model.dim() {
            return bad(
                "x",
                format!(
                    "initial state has {} value(s), but {} has {} state component(s)",
                    self.x.len(),
                    model.name(),
                    model.dim()
                ),
            );
        }
        if let Some(k) = self.x.iter().position(|v| !v.is_finite()) {
            return bad("x", format!("initial state value {} is not finite", k + 1));
        }
        if self.mode >= model.modes() {
            return bad(
                "mode",
                format!(
                    "initial mode {} is not a mode of {} (it has {})",
                    self.mode,
                    model.name(),
                    model.modes()
                ),
            );
        }
        Ok(())
    }
}

/// The parameter a [`ParamError`] names.
fn param_name(e: &ParamError) -> Option<&str> {
    match e {
        ParamError::NonFinite { name, .. }
        | ParamError::OutOfRange { name, .. }
        | ParamError::OutOfBounds { name, .. }
        | ParamError::NotNumeric { name }
        | ParamError::Unknown { name, .. } => Some(name),
        _ => None,
    }
}
