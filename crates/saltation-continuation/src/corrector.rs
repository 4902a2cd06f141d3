//! Evaluation of the fixed-point equation along a parameter, and the correctors.
//!
//! With reduced coordinates `u` and parameter `p`, `F(u, p) = π(P_p^k(χ(u))) − u` (`P^k` the
//! `k`-fold stride map). `F_u` is exact (variational equations + saltation);
//! `F_p = (F(u, p + h) − F(u, p − h)) / 2h` by central differences (two strides without Jacobian).
//!
//! - Natural corrector: Newton on `F(u, p) = 0` at fixed `p`.
//! - Pseudo-arclength corrector (Keller): Newton on `G(z) = [F(u, p); τᵀ(z − z_pred)] = 0`,
//!   `z = (u, p)`, `τ` the unit tangent at the previous point, with the bordered matrix
//!   `[[F_u, F_p], [τᵀ]]`. It passes folds, where `F_u` alone is singular.

use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::ContinuationOptions;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{StrideMap, StrideOptions, StrideResult};
use saltation_orbit::{reduced_map, reduced_residual};

/// `F`, `F_u`, optionally `F_p`, and the stride at one `(u, p)`.
pub(crate) struct Eval {
    pub f: DVector<f64>,
    pub fu: DMatrix<f64>,
    pub fp: Option<DVector<f64>>,
    pub stride: StrideResult,
}

/// Evaluates `F` for a family with the `k`-fold stride.
pub(crate) struct Evaluator<'a, F: ModelFamily> {
    pub family: &'a F,
    pub stride: StrideOptions,
    pub opts: &'a ContinuationOptions,
}

impl<'a, F: ModelFamily> Evaluator<'a, F> {
    /// The evaluator of the `period_k`-fold stride map (`events_per_stride · period_k` events;
    /// an error if that product overflows).
    pub fn new(
        family: &'a F,
        opts: &'a ContinuationOptions,
        period_k: usize,
    ) -> Result<Self, ContinuationError> {
        let mut stride = opts.stride.clone();
        stride.events_per_stride = composed_events(stride.events_per_stride, period_k)?;
        Ok(Self {
            family,
            stride,
            opts,
        })
    }

    pub fn eval(&self, u: &[f64], p: f64, with_fp: bool) -> Result<Eval, ContinuationError> {
        let model = self.family.model_at(p)?;
        let mut map = StrideMap::new(&model, self.stride.clone())?;
        let (f, fu, stride) = reduced_residual(&mut map, u)?;
        let fp = if with_fp {
            let h = self.opts.fd_param_step * p.abs().max(1.0);
            let side = |q: f64| -> Result<DVector<f64>, ContinuationError> {
                let m = self.family.model_at(q)?;
                let mut map = StrideMap::new(&m, self.stride.clone())?;
                Ok(reduced_map(&mut map, u)?)
            };
            Some((side(p + h)? - side(p - h)?) / (2.0 * h))
        } else {
            None
        };
        Ok(Eval { f, fu, fp, stride })
    }

    /// Newton at fixed `p` from `u`. Returns the solution, its evaluation and the iterations.
    pub fn correct_natural(
        &self,
        u: &DVector<f64>,
        p: f64,
        with_fp: bool,
    ) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
        let mut u = u.clone();
        let mut last = f64::INFINITY;
        for it in 0..=self.opts.max_corrector_iters {
            let e = self.eval(u.as_slice(), p, false)?;
            let norm = e.f.norm();
            if norm <= self.opts.corrector_tol {
                let e = if with_fp {
                    self.eval(u.as_slice(), p, true)?
                } else {
                    e
                };
                return Ok((u, e, it));
            }
            if !(norm.is_finite()) || (it > 2 && norm > last) {
                break;
            }
            last = norm;
            let du =
                e.fu.clone()
                    .lu()
                    .solve(&(-&e.f))
                    .ok_or(ContinuationError::Singular { p })?;
            u += du;
        }
        Err(ContinuationError::Corrector {
            p,
            iterations: self.opts.max_corrector_iters,
            residual: last,
        })
    }

    /// Pseudo-arclength corrector from the predicted `z_pred` on the hyperplane normal to `tau`.
    pub fn correct_arclength(
        &self,
        z_pred: &DVector<f64>,
        tau: &DVector<f64>,
    ) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
        let r = z_pred.len() - 1;
        let mut z = z_pred.clone();
        let mut last = f64::INFINITY;
        for it in 0..=self.opts.max_corrector_iters {
            let (u, p) = (z.rows(0, r).clone_owned(), z[r]);
            let e = self.eval(u.as_slice(), p, true)?;
            let plane = tau.dot(&(&z - z_pred));
            let norm = e.f.norm().hypot(plane);
            if norm <= self.opts.corrector_tol {
                return Ok((z, e, it));
            }
            if !(norm.is_finite()) || (it > 2 && norm > last) {
                break;
            }
            last = norm;
            // `eval` was asked for `F_p`; without it the bordered matrix cannot be formed.
            let fp = e.fp.as_ref().ok_or(ContinuationError::Singular { p })?;
            let a = bordered(&e.fu, fp, tau);
            let mut rhs = DVector::zeros(r + 1);
            rhs.rows_mut(0, r).copy_from(&(-&e.f));
            rhs[r] = -plane;
            let dz = a
                .lu()
                .solve(&rhs)
                .ok_or(ContinuationError::Singular { p })?;
            z += dz;
        }
        Err(ContinuationError::Corrector {
            p: z[r],
            iterations: self.opts.max_corrector_iters,
            residual: last,
        })
    }
}

/// Events of the `period_k`-fold stride: `events_per_stride · max(period_k, 1)`, checked.
pub(crate) fn composed_events(
    events_per_stride: usize,
    period_k: usize,
) -> Result<usize, ContinuationError> {
    events_per_stride
        .checked_mul(period_k.max(1))
        .ok_or_else(|| {
            ContinuationError::invalid(
                "stride.events_per_stride",
                format!(
                    "{events_per_stride} events per stride times the period multiplicity \
                     {period_k} overflows"
                ),
            )
        })
}

/// The bordered matrix `[[F_u, F_p], [τᵀ]]`.
pub(crate) fn bordered(fu: &DMatrix<f64>, fp: &DVector<f64>, tau: &DVector<f64>) -> DMatrix<f64> {
    let r = fu.nrows();
    let mut a = DMatrix::zeros(r + 1, r + 1);
    a.view_mut((0, 0), (r, r)).copy_from(fu);
    a.view_mut((0, r), (r, 1)).copy_from(fp);
    for j in 0..=r {
        a[(r, j)] = tau[j];
    }
    a
}

/// Unit tangent of the branch at a point: solves `[[F_u, F_p], [τ_prevᵀ]] τ = [0; 1]`, so it
/// keeps the orientation of `τ_prev`.
pub(crate) fn tangent(
    fu: &DMatrix<f64>,
    fp: &DVector<f64>,
    tau_prev: &DVector<f64>,
) -> Option<DVector<f64>> {
    let r = fu.nrows();
    let mut rhs = DVector::zeros(r + 1);
    rhs[r] = 1.0;
    let t = bordered(fu, fp, tau_prev).lu().solve(&rhs)?;
    let n = t.norm();
    (n.is_finite() && n > 0.0).then(|| t / n)
}
