//! The stride map linearised in the state and in one parameter, and the gait sensitivity norm
//! (Hobbelen & Wisse 2007).
//!
//! **Linearisation.** With reduced coordinates `u` of the section and a parameter `p`, the
//! stride map `u ↦ π(P(χ(u); p))` and the stride's event times `T_j(u, p)` are differentiated
//! exactly by one stride of the state augmented with `p` ([`ParamAugmented`]): its reduced
//! Jacobian is `[[A, B], [0, 1]]` with `A = ∂π(P(χ(u)))/∂u` and `B = ∂π(P)/∂p`, and its event-
//! time gradients `∇t_j · Dχ̃` are `(∂T_j/∂u, ∂T_j/∂p)` ([`param_linearisation`]; continuation's
//! exact `F_p` uses the same function).
//!
//! **Gait sensitivity norm.** A disturbance `d_k` entering as a one-stride change of `p`
//! (`p + d_k` during stride `k`) and gait indicators `y_k` measured on stride `k` give, about a
//! periodic orbit `u*`, the linear system
//!
//! `x_{k+1} = A x_k + B d_k`, `y_k = C x_k + D d_k`, `x = u − u*`.
//!
//! The norm is the 2-norm of the indicators' response to a unit impulse `d_0 = 1` summed over
//! strides, the H2 norm of the system: `‖G‖₂² = Σ_k ‖y_k‖²` with `y_0 = D`,
//! `y_k = C A^{k−1} B` ([`gait_sensitivity`], the sum truncated once the state `A^{k−1} B` has
//! decayed below [`DECAY`] of its largest norm). The closed form `‖G‖₂² = ‖D‖² + tr(C W Cᵀ)`
//! with the controllability Gramian `W = A W Aᵀ + B Bᵀ` (a discrete Lyapunov equation, solved
//! here as `(I − A⊗A) vec W = vec(B Bᵀ)`) cross-checks it. Both exist only for a stable orbit
//! (spectral radius of `A` below 1): otherwise [`SensitivityError::Unstable`].

use crate::fixed_point::reduced_residual;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{EvalModel, HybridError, ParamAugmented, StrideMap, StrideResult};
use thiserror::Error;

/// Relative size below which the impulse response's state counts as decayed.
pub const DECAY: f64 = 1e-14;
/// Most strides of an impulse response (a floor on the loop: a spectral radius of
/// `1 − 3·10⁻⁴` still decays to [`DECAY`] within it).
pub const MAX_STRIDES: usize = 200_000;
/// Largest reduced dimension the Lyapunov cross-check is solved for (its system is `r² × r²`).
pub const MAX_LYAPUNOV_DIM: usize = 24;

/// The stride map and its event times linearised in the reduced state and one parameter.
#[derive(Debug, Clone)]
pub struct ParamLinearisation {
    /// `F = π(P(χ(u); p)) − u`.
    pub f: DVector<f64>,
    /// `F_u = A − I` (r × r).
    pub fu: DMatrix<f64>,
    /// `F_p = B = ∂π(P)/∂p` (length r).
    pub fp: DVector<f64>,
    /// `∂T_j/∂u` per event `j` of the stride (length r each).
    pub tu: Vec<DVector<f64>>,
    /// `∂T_j/∂p` per event.
    pub tp: Vec<f64>,
    /// `∂x⁺/∂u` (n × r): the stride's end state (just after its last reset, the full state)
    /// differentiated in the reduced start, `P_x Dχ`.
    pub xu: DMatrix<f64>,
    /// `∂x⁺/∂p` (length n), the chart's dependence on `p` included.
    pub xp: DVector<f64>,
    /// The stride as the model's own (the parameter component dropped; the Jacobian `n × n`).
    pub stride: StrideResult,
}

/// One stride of the augmented state `(χ(u), p)` on `map` (a stride map of the model
/// augmented with `p`, [`ParamAugmented`]): `F`, `F_u`, `F_p` and the event times' exact
/// gradients in `u` and `p`.
pub fn param_linearisation<M: EvalModel + ?Sized>(
    map: &mut StrideMap<'_, ParamAugmented<'_, M>>,
    u: &[f64],
    p: f64,
) -> Result<ParamLinearisation, HybridError> {
    let aug = map.model();
    let (n, r) = (aug.dim() - 1, aug.reduced_dim() - 1);
    let mut ua = u.to_vec();
    ua.push(p);
    let (fa, ja, mut stride) = reduced_residual(map, &ua)?;
    let mut dchi = vec![0.0; (n + 1) * (r + 1)];
    aug.chart_jacobian(&ua, &mut dchi);
    let dchi = DMatrix::from_row_slice(n + 1, r + 1, &dchi);
    let grads: Vec<DVector<f64>> = stride
        .event_time_gradients
        .iter()
        .map(|g| dchi.tr_mul(&DVector::from_column_slice(g)))
        .collect();
    // The end state in (u, p): P̃_x Dχ̃, its first n rows.
    let end = stride
        .jacobian
        .as_ref()
        .map(|j| j * &dchi)
        .unwrap_or_else(|| DMatrix::from_element(n + 1, r + 1, f64::NAN));
    let xu = end.view((0, 0), (n, r)).into_owned();
    let xp = end.view((0, r), (n, 1)).column(0).into_owned();
    let tu = grads.iter().map(|g| g.rows(0, r).into_owned()).collect();
    let tp = grads.iter().map(|g| g[r]).collect();
    stride.x.truncate(n);
    for e in &mut stride.events {
        e.x_minus.truncate(n);
        e.x_plus.truncate(n);
    }
    for g in &mut stride.event_time_gradients {
        g.truncate(n);
    }
    stride.jacobian = stride.jacobian.map(|j| j.view((0, 0), (n, n)).into_owned());
    Ok(ParamLinearisation {
        f: fa.rows(0, r).into_owned(),
        fu: ja.view((0, 0), (r, r)).into_owned(),
        fp: ja.view((0, r), (r, 1)).column(0).into_owned(),
        tu,
        tp,
        xu,
        xp,
        stride,
    })
}

/// Why the gait sensitivity norm could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SensitivityError {
    /// The matrices do not fit together (`A` r × r, `B` r, `C` q × r, `D` q).
    #[error("sizes do not fit: A {a_rows}×{a_cols}, B {b}, C {c_rows}×{c_cols}, D {d}")]
    Shape {
        /// Rows of `A`.
        a_rows: usize,
        /// Columns of `A`.
        a_cols: usize,
        /// Length of `B`.
        b: usize,
        /// Rows of `C`.
        c_rows: usize,
        /// Columns of `C`.
        c_cols: usize,
        /// Length of `D`.
        d: usize,
    },
    /// A matrix entry is not finite.
    #[error("the linearisation has a non-finite entry ({which})")]
    NonFinite {
        /// Which matrix.
        which: &'static str,
    },
    /// The orbit is not asymptotically stable: the impulse response does not decay and the
    /// norm does not exist.
    #[error(
        "the orbit is not stable (spectral radius of the stride Jacobian {radius} ≥ 1): a \
         disturbance does not die out and the gait sensitivity norm does not exist"
    )]
    Unstable {
        /// Spectral radius of `A`.
        radius: f64,
    },
    /// The eigenvalues of `A` could not be computed.
    #[error("no eigenvalues of the stride Jacobian: {0}")]
    Eigen(String),
    /// The response had not decayed after [`MAX_STRIDES`] strides.
    #[error(
        "the impulse response has not decayed below {DECAY:e} of its peak after {strides} \
         strides (spectral radius {radius})"
    )]
    NotDecayed {
        /// Strides computed.
        strides: usize,
        /// Spectral radius of `A`.
        radius: f64,
    },
}

/// The gait sensitivity norm of `x_{k+1} = A x_k + B d_k`, `y_k = C x_k + D d_k`.
#[derive(Debug, Clone, PartialEq)]
pub struct GaitSensitivity {
    /// `y_k` for `k = 0, 1, …` (the last one is the first whose state had decayed).
    pub impulse_response: Vec<DVector<f64>>,
    /// `sqrt(Σ_k ‖y_k‖²)` over [`GaitSensitivity::impulse_response`].
    pub norm: f64,
    /// `sqrt(‖D‖² + tr(C W Cᵀ))` with `W` the Gramian from the discrete Lyapunov equation;
    /// `None` above [`MAX_LYAPUNOV_DIM`] or where that system is singular.
    pub lyapunov_norm: Option<f64>,
    /// Spectral radius of `A`.
    pub spectral_radius: f64,
}

fn finite(which: &'static str, v: &[f64]) -> Result<(), SensitivityError> {
    if v.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(SensitivityError::NonFinite { which })
    }
}

/// The impulse response and H2 norm of `(A, B, C, D)`; see the module documentation.
pub fn gait_sensitivity(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    c: &DMatrix<f64>,
    d: &DVector<f64>,
) -> Result<GaitSensitivity, SensitivityError> {
    let r = a.nrows();
    if a.ncols() != r || b.len() != r || c.ncols() != r || c.nrows() != d.len() {
        return Err(SensitivityError::Shape {
            a_rows: a.nrows(),
            a_cols: a.ncols(),
            b: b.len(),
            c_rows: c.nrows(),
            c_cols: c.ncols(),
            d: d.len(),
        });
    }
    finite("A", a.as_slice())?;
    finite("B", b.as_slice())?;
    finite("C", c.as_slice())?;
    finite("D", d.as_slice())?;
    let radius = if r == 0 {
        0.0
    } else {
        let mu = crate::eigenvalues(a).map_err(|e| SensitivityError::Eigen(e.to_string()))?;
        crate::spectral_radius(&mu)
    };
    if !(radius < 1.0) {
        return Err(SensitivityError::Unstable { radius });
    }
    let mut response = vec![d.clone()];
    let mut sum = d.norm_squared();
    let mut x = b.clone();
    let mut peak = x.norm();
    let mut k = 1;
    loop {
        let y = c * &x;
        sum += y.norm_squared();
        response.push(y);
        let size = x.norm();
        peak = peak.max(size);
        if size <= DECAY * peak {
            break;
        }
        if k >= MAX_STRIDES {
            return Err(SensitivityError::NotDecayed { strides: k, radius });
        }
        x = a * &x;
        k += 1;
    }
    Ok(GaitSensitivity {
        impulse_response: response,
        norm: sum.sqrt(),
        lyapunov_norm: lyapunov_norm(a, b, c, d),
        spectral_radius: radius,
    })
}

/// `sqrt(‖D‖² + tr(C W Cᵀ))`, `W − A W Aᵀ = B Bᵀ` solved as `(I − A⊗A) vec W = vec(B Bᵀ)`.
fn lyapunov_norm(
    a: &DMatrix<f64>,
    b: &DVector<f64>,
    c: &DMatrix<f64>,
    d: &DVector<f64>,
) -> Option<f64> {
    let r = a.nrows();
    if r > MAX_LYAPUNOV_DIM {
        return None;
    }
    let m = DMatrix::identity(r * r, r * r) - a.kronecker(a);
    let q = b * b.transpose();
    let w = m.lu().solve(&DVector::from_column_slice(q.as_slice()))?;
    let w = DMatrix::from_column_slice(r, r, w.as_slice());
    let s = d.norm_squared() + (c * w * c.transpose()).trace();
    (s.is_finite() && s >= 0.0).then(|| s.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_system_matches_its_geometric_series() {
        // y_0 = D, y_k = C a^{k−1} B: ‖G‖² = D² + C²B²/(1 − a²).
        let (a, b, c, d) = (0.6_f64, 1.5_f64, -0.7_f64, 0.3_f64);
        let g = gait_sensitivity(
            &DMatrix::from_element(1, 1, a),
            &DVector::from_element(1, b),
            &DMatrix::from_element(1, 1, c),
            &DVector::from_element(1, d),
        )
        .unwrap();
        let exact = (d * d + c * c * b * b / (1.0 - a * a)).sqrt();
        assert!(
            (g.norm - exact).abs() < 1e-15 * exact,
            "{} vs {exact}",
            g.norm
        );
        assert!((g.lyapunov_norm.unwrap() - exact).abs() < 1e-14 * exact);
        assert!((g.impulse_response[3][0] - c * a * a * b).abs() < 1e-16);
    }

    #[test]
    fn two_dimensional_system_agrees_with_the_lyapunov_closed_form() {
        let a = DMatrix::from_row_slice(2, 2, &[0.5, 0.9, -0.3, 0.2]);
        let b = DVector::from_vec(vec![1.0, -2.0]);
        let c = DMatrix::from_row_slice(2, 2, &[1.0, 0.5, 0.0, 2.0]);
        let d = DVector::from_vec(vec![0.1, 0.0]);
        let g = gait_sensitivity(&a, &b, &c, &d).unwrap();
        let l = g.lyapunov_norm.unwrap();
        assert!((g.norm - l).abs() < 1e-13 * l, "{} vs {l}", g.norm);
    }

    #[test]
    fn unstable_and_bad_shapes_are_errors() {
        let one = DVector::from_element(1, 1.0);
        let e = gait_sensitivity(
            &DMatrix::from_element(1, 1, -1.0),
            &one,
            &DMatrix::from_element(1, 1, 1.0),
            &one,
        );
        assert!(matches!(e, Err(SensitivityError::Unstable { radius }) if radius == 1.0));
        let e = gait_sensitivity(
            &DMatrix::from_element(1, 1, 0.5),
            &DVector::from_element(2, 1.0),
            &DMatrix::from_element(1, 1, 1.0),
            &one,
        );
        assert!(matches!(e, Err(SensitivityError::Shape { .. })));
        let e = gait_sensitivity(
            &DMatrix::from_element(1, 1, f64::NAN),
            &one,
            &DMatrix::from_element(1, 1, 1.0),
            &one,
        );
        assert!(matches!(e, Err(SensitivityError::NonFinite { which: "A" })));
    }
}
