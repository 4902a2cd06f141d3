//! Why and where a curve ends: it closed on itself, it passed a strong resonance, or a step
//! failed at the smallest size.

use super::kind::CurveKind;
use super::point::CurveEnd;
use super::system::split;
use crate::error::ContinuationError;
use nalgebra::DVector;

/// Whether the segment from `a` along `seg` passes within a quarter of its length of `target`.
pub(super) fn near(target: &DVector<f64>, a: &DVector<f64>, seg: &DVector<f64>) -> bool {
    let l2 = seg.norm_squared();
    if !(l2 > 0.0) {
        return false;
    }
    let t = ((target - a).dot(seg) / l2).clamp(0.0, 1.0);
    (a + seg * t - target).norm() < 0.25 * l2.sqrt()
}

/// On a Neimark–Sacker curve, the resonance (`"1:1"` for `κ > 1`, `"1:2"` for `κ < −1`) a
/// solution `z` of the defining system lies beyond, where `κ = cos θ` has left `[−1, 1]`.
pub(super) fn beyond_resonance(kind: CurveKind, z: &DVector<f64>) -> Option<&'static str> {
    if kind != CurveKind::NeimarkSacker {
        return None;
    }
    let kappa = split(z, kind).3;
    if kappa > 1.0 {
        Some("1:1")
    } else if kappa < -1.0 {
        Some("1:2")
    } else {
        None
    }
}

/// Why the curve ends after a step that failed at the smallest size.
pub(super) fn end_of(err: ContinuationError) -> CurveEnd {
    match err {
        ContinuationError::Hybrid(h) => CurveEnd::OrbitLost(h.to_string()),
        ContinuationError::Param(e) => CurveEnd::ParameterRejected(e.to_string()),
        other => CurveEnd::CorrectorFailed(other.to_string()),
    }
}
