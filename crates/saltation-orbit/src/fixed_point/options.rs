//! Settings of a periodic-orbit solve and their validation.

use crate::eigen::EigenBackend;
use crate::newton::{NewtonOptions, NewtonOptionsError};
use saltation_hybrid::{EvalModel, HybridError, StrideOptions};
use saltation_ode::OdeError;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// How the fixed-point equation is set up ([`OrbitOptions::shooting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Shooting {
    /// One stride from the section: `F(u) = π(P(χ(u))) − u` (default).
    #[default]
    Single,
    /// The stride cut into segments whose start states are unknowns too, joined by matching
    /// conditions (`crate::fixed_point` module documentation, section "Multiple shooting").
    Multiple {
        /// Where the stride is cut.
        segments: Segments,
    },
}

impl Shooting {
    /// Checks the number of pieces: [`Segments::PerMode`]`(N)` needs `N` in
    /// `1..=`[`MAX_PIECES_PER_PHASE`] ([`OrbitOptionsError::Shooting`]).
    pub fn validate(&self) -> Result<(), OrbitOptionsError> {
        if let Shooting::Multiple {
            segments: Segments::PerMode(pieces),
        } = *self
        {
            if !(1..=MAX_PIECES_PER_PHASE).contains(&pieces) {
                return Err(OrbitOptionsError::Shooting {
                    reason: format!(
                        "PerMode({pieces}): the pieces per phase must be in \
                         1..={MAX_PIECES_PER_PHASE}"
                    ),
                });
            }
        }
        Ok(())
    }

    /// [`Shooting::validate`] plus what depends on the model: multiple shooting does not apply
    /// to a time-forced model or one whose multipliers are taken on the section.
    pub fn validate_for<M: EvalModel + ?Sized>(&self, model: &M) -> Result<(), OrbitOptionsError> {
        self.validate()?;
        if *self != Shooting::Single {
            let reason = if model.forcing().is_some() {
                Some("multiple shooting does not apply to a time-forced model (its segments would start at forcing phases that the stride brings back by whole periods only at its end); use Single")
            } else if model.multipliers_on_section() {
                Some("multiple shooting does not apply to a model whose multipliers are taken on the section (coordinates outside the periodicity, e.g. a position that advances every stride); use Single")
            } else {
                None
            };
            if let Some(reason) = reason {
                return Err(OrbitOptionsError::Shooting {
                    reason: format!("{reason} (model `{}`)", model.name()),
                });
            }
        }
        Ok(())
    }
}

/// Where multiple shooting cuts the stride.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Segments {
    /// At the events: one segment per phase (from the state after a reset to the next event,
    /// through its reset).
    Phases,
    /// Every phase in `N` pieces of equal time (the phase durations of the stride from the
    /// initial guess, fixed during the solve): `N − 1` fixed-time pieces and the rest of the
    /// phase to its event; `N` in `1..=`[`MAX_PIECES_PER_PHASE`].
    PerMode(usize),
}

/// Largest `N` of [`Segments::PerMode`].
pub const MAX_PIECES_PER_PHASE: usize = 1000;

/// Largest number of unknowns of a multiple shooting, `r + (S − 1) n` (`S` segments, `n`
/// states, `r` reduced coordinates): its dense Newton matrix is at most 1024² entries (8 MiB,
/// an LU of about 7·10⁸ flops per Newton step).
pub const MAX_SHOOTING_UNKNOWNS: usize = 1024;

/// Settings of a periodic-orbit solve: integration, Newton and eigenvalue backend.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OrbitOptions {
    /// Stride integration settings.
    pub stride: StrideOptions,
    /// Newton settings.
    pub newton: NewtonOptions,
    /// Eigenvalue backend for the multipliers (must be compiled in).
    pub eigen: EigenBackend,
    /// Single (default) or multiple shooting.
    pub shooting: Shooting,
}

/// An [`OrbitOptions`] field outside its valid range: bad input, not a failed computation.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum OrbitOptionsError {
    /// A stride option (`stride.*`) is invalid (the hybrid layer's reason names the field), or
    /// `stride.start_mode` is not a mode of the model.
    #[error("invalid option `{field}`: {source}", field = stride_field(.0), source = .0)]
    Stride(HybridError),
    /// A Newton option (`newton.*`) is invalid.
    #[error(transparent)]
    Newton(#[from] NewtonOptionsError),
    /// The shooting cannot be used as asked: a bad number of pieces, or a model where multiple
    /// shooting does not apply.
    #[error("invalid option `shooting`: {reason}")]
    Shooting {
        /// What is wrong.
        reason: String,
    },
    /// The eigenvalue backend is not compiled in.
    #[error(
        "invalid option `eigen` = {backend:?}: backend not compiled in (enable the cargo feature \
         `lapack` of saltation-orbit)"
    )]
    EigenBackend {
        /// The backend asked for.
        backend: EigenBackend,
    },
}

impl OrbitOptionsError {
    /// Path of the offending field in [`OrbitOptions`], e.g. `"stride.ode.rtol"`,
    /// `"newton.max_iters"`, `"eigen"`.
    pub fn field(&self) -> String {
        match self {
            OrbitOptionsError::Stride(e) => stride_field(e),
            OrbitOptionsError::Newton(e) => format!("newton.{}", e.name),
            OrbitOptionsError::EigenBackend { .. } => "eigen".to_string(),
            OrbitOptionsError::Shooting { .. } => "shooting".to_string(),
        }
    }
}

/// Path of the stride option a [`HybridError`] from validation is about.
fn stride_field(e: &HybridError) -> String {
    match e {
        HybridError::InvalidOption { field, .. } => format!("stride.{field}"),
        HybridError::Ode {
            source: OdeError::InvalidOption { field, .. },
            ..
        } => format!("stride.ode.{field}"),
        HybridError::Ode { .. } => "stride.ode".to_string(),
        HybridError::BadMode { .. } | HybridError::NoGuards { .. } => {
            "stride.start_mode".to_string()
        }
        HybridError::DimensionMismatch { what, .. } if what.starts_with("atol") => {
            "stride.ode.atol".to_string()
        }
        _ => "stride".to_string(),
    }
}

impl OrbitOptions {
    /// Checks every field: `stride` ([`StrideOptions::validate`]), `newton`
    /// ([`NewtonOptions::validate`]) and that the `eigen` backend is compiled in.
    pub fn validate(&self) -> Result<(), OrbitOptionsError> {
        self.stride.validate().map_err(OrbitOptionsError::Stride)?;
        self.newton.validate()?;
        if !self.eigen.is_available() {
            return Err(OrbitOptionsError::EigenBackend {
                backend: self.eigen,
            });
        }
        self.shooting.validate()?;
        Ok(())
    }

    /// [`OrbitOptions::validate`] plus what depends on the model
    /// ([`StrideOptions::validate_for`]: `stride.start_mode` is one of its modes, a vector
    /// `stride.ode.atol` has one entry per state component).
    pub fn validate_for<M: EvalModel + ?Sized>(&self, model: &M) -> Result<(), OrbitOptionsError> {
        self.validate()?;
        self.stride
            .validate_for(model)
            .map_err(OrbitOptionsError::Stride)?;
        self.shooting.validate_for(model)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_every_part_is_checked() {
        assert_eq!(OrbitOptions::default().validate(), Ok(()));
        let mut o = OrbitOptions::default();
        o.stride.t_max = -1.0;
        let e = o.validate().unwrap_err();
        assert_eq!(e.field(), "stride.t_max");
        assert!(e.to_string().contains("`stride.t_max`"), "{e}");
        let mut o = OrbitOptions::default();
        o.stride.ode.rtol = f64::NAN;
        assert_eq!(o.validate().unwrap_err().field(), "stride.ode.rtol");
        let mut o = OrbitOptions::default();
        o.newton.max_iters = 10_001;
        let e = o.validate().unwrap_err();
        assert_eq!(e.field(), "newton.max_iters");
        assert!(matches!(e, OrbitOptionsError::Newton(ref n) if n.value == 10_001.0));
        o.newton.max_iters = 10_000;
        assert_eq!(o.validate(), Ok(()));
        for (pieces, ok) in [(0, false), (1, true), (1000, true), (1001, false)] {
            let o = OrbitOptions {
                shooting: Shooting::Multiple {
                    segments: Segments::PerMode(pieces),
                },
                ..Default::default()
            };
            assert_eq!(o.validate().is_ok(), ok, "{pieces}");
            if !ok {
                assert_eq!(o.validate().unwrap_err().field(), "shooting");
            }
        }
        let o = OrbitOptions {
            eigen: EigenBackend::Lapack,
            ..Default::default()
        };
        if cfg!(feature = "lapack") {
            assert_eq!(o.validate(), Ok(()));
        } else {
            let e = o.validate().unwrap_err();
            assert_eq!(
                e,
                OrbitOptionsError::EigenBackend {
                    backend: EigenBackend::Lapack
                }
            );
            assert_eq!(e.field(), "eigen");
        }
    }
}
