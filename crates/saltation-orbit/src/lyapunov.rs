//! Lyapunov exponents of a hybrid model across its impacts, on the section.
//!
//! The tangent map of one stride on the section is the reduced stride Jacobian
//! `J_j = Dπ · P_x · Dχ` at the iterate `u_j` ([`crate::reduced_residual`]: `F_u + I`), with
//! `P_x` exact — the variational equations through every phase and the saltation matrix at
//! every impact. Tangent vectors are carried by it and re-orthonormalised each stride
//! (Benettin et al. 1980; Shimada & Nagashima 1979): `J_j Q_j = Q_{j+1} R_j` (QR), and after
//! `N` strides of total duration `T_N`
//!
//! ```text
//! λ_i = (1/T_N) Σ_j ln|R_j,ii|   (per unit time),     ℓ_i = (1/N) Σ_j ln|R_j,ii|   (per stride).
//! ```
//!
//! The first `transient` strides only iterate the start (`u_{j+1} = π(P(χ(u_j)))`, no
//! Jacobian) and are not counted: the sums start on the attractor.
//!
//! At a periodic orbit of period `T` (one stride) with multipliers `μ_i` on the section,
//! `λ_i → ln|μ_i| / T` (exactly, stride by stride, for a one-dimensional section).

use crate::fixed_point::reduced_residual;
use nalgebra::DMatrix;
use saltation_hybrid::{EvalModel, HybridError, JacobianKind, ModeStrides, StrideOptions};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Largest number of strides of one computation.
pub const MAX_LYAPUNOV_STRIDES: usize = 10_000_000;

/// The Lyapunov spectrum on the section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LyapunovSpectrum {
    /// Exponents per unit time, descending.
    pub exponents: Vec<f64>,
    /// The same per stride (in the same order).
    pub per_stride: Vec<f64>,
    /// Strides taken.
    pub strides: usize,
    /// Their total duration.
    pub time: f64,
}

/// Why the exponents could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum LyapunovError {
    /// `strides` out of `1..=MAX_LYAPUNOV_STRIDES`.
    #[error("strides: {0} must be in 1..={MAX_LYAPUNOV_STRIDES}")]
    Strides(usize),
    /// `transient` above `MAX_LYAPUNOV_STRIDES`.
    #[error("transient: {0} must be in 0..={MAX_LYAPUNOV_STRIDES}")]
    Transient(usize),
    /// The start has the wrong length or is not finite.
    #[error("start: {0}")]
    Start(String),
    /// A stride failed.
    #[error("stride {stride} failed: {source}")]
    Stride {
        /// Its index (0 for the first).
        stride: usize,
        /// Why.
        #[source]
        source: HybridError,
    },
    /// The tangent map collapsed a direction (a zero or non-finite diagonal of `R`).
    #[error("stride {stride}: the tangent map is singular or not finite (|R_ii| = {value})")]
    Degenerate {
        /// Its index.
        stride: usize,
        /// The offending diagonal entry.
        value: f64,
    },
}

/// The Lyapunov exponents from the start `u0` (reduced coordinates) over `strides` strides
/// after `transient` strides discarded (module documentation); each stride starts in the mode
/// the last one ended in (the first in `stride.start_mode`). A failed stride is numbered from
/// the start, transient included.
pub fn lyapunov_exponents<M: EvalModel + ?Sized>(
    model: &M,
    stride: &StrideOptions,
    u0: &[f64],
    transient: usize,
    strides: usize,
) -> Result<LyapunovSpectrum, LyapunovError> {
    if !(1..=MAX_LYAPUNOV_STRIDES).contains(&strides) {
        return Err(LyapunovError::Strides(strides));
    }
    if transient > MAX_LYAPUNOV_STRIDES {
        return Err(LyapunovError::Transient(transient));
    }
    let r = model.reduced_dim();
    if u0.len() != r {
        return Err(LyapunovError::Start(format!(
            "{} value(s), but the section has {r}",
            u0.len()
        )));
    }
    if u0.iter().any(|v| !v.is_finite()) {
        return Err(LyapunovError::Start("not finite".into()));
    }
    let fail = |stride: usize| move |source: HybridError| LyapunovError::Stride { stride, source };
    let mut maps = ModeStrides::new(model, stride);
    let mut u = u0.to_vec();
    let mut x = vec![0.0; model.dim()];
    for j in 0..transient {
        model.chart(&u, &mut x);
        let res = maps.step(&x, JacobianKind::None).map_err(fail(j))?;
        model.project(&res.x, &mut u);
    }
    let mut q = DMatrix::<f64>::identity(r, r);
    let mut sums = vec![0.0; r];
    let mut time = 0.0;
    for j in transient..transient + strides {
        let map = maps.map().map_err(fail(j))?;
        let (_, fu, res) = reduced_residual(map, &u).map_err(fail(j))?;
        // J = F_u + I; the next iterate is π(P(χ(u))).
        let jac = fu + DMatrix::identity(r, r);
        let qr = (jac * &q).qr();
        let rr = qr.r();
        for (i, s) in sums.iter_mut().enumerate() {
            let d = rr[(i, i)].abs();
            if !(d > 0.0 && d.is_finite()) {
                return Err(LyapunovError::Degenerate {
                    stride: j,
                    value: d,
                });
            }
            *s += d.ln();
        }
        q = qr.q();
        model.project(&res.x, &mut u);
        time += res.period;
        maps.set_mode(res.mode);
    }
    let mut pairs: Vec<(f64, f64)> = sums
        .iter()
        .map(|s| (s / time, s / strides as f64))
        .collect();
    pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(LyapunovSpectrum {
        exponents: pairs.iter().map(|p| p.0).collect(),
        per_stride: pairs.iter().map(|p| p.1).collect(),
        strides,
        time,
    })
}
