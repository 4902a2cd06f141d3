//! The reduced fixed-point residual `F(u) = π(P(χ(u))) − u` of a stride map, and the square
//! system Newton solves, with its two accuracy levels.

use crate::newton::SquareSystem;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{
    HybridError, HybridModel, JacobianKind, StrideMap, StrideOptions, StrideResult,
};
use std::cell::{Cell, RefCell};

/// Residual norm down to which strides may use the coarse tolerance: at the first accepted
/// Newton iterate with `‖F‖₂ ≤ COARSE_ABOVE` the solve switches to the requested tolerance.
pub const COARSE_ABOVE: f64 = 1e-5;
/// Tolerance of the coarse strides (rtol and atol).
pub const COARSE_TOL: f64 = 1e-9;

/// `F(u) = π(P(χ(u))) − u` with its exact Jacobian, at one of two accuracies.
///
/// Inexact Newton: while the residual is large the stride is integrated with a looser tolerance
/// ([`COARSE_TOL`], only if looser than asked for), since an integration error far below the
/// residual cannot change the iteration. The switch to the requested tolerance is made by the
/// Newton solver ([`SquareSystem::refine`]) at an accepted iterate, never inside a line search,
/// and before convergence is declared; so the solution, its residual and its Jacobian are at the
/// requested tolerance.
pub(crate) struct ReducedStride<'a, M: HybridModel + ?Sized> {
    fine: RefCell<StrideMap<'a, M>>,
    coarse: Option<RefCell<StrideMap<'a, M>>>,
    coarse_active: Cell<bool>,
    /// The last evaluation at the requested tolerance.
    last_fine: RefCell<Option<(DVector<f64>, StrideResult)>>,
}

impl<'a, M: HybridModel + ?Sized> ReducedStride<'a, M> {
    /// Newton's system for `model` with the requested stride options (starts coarse when the
    /// coarse tolerance is looser than the requested one).
    pub(crate) fn new(model: &'a M, opts: &StrideOptions) -> Result<Self, HybridError> {
        let coarse = coarse_options(opts)
            .map(|o| StrideMap::new(model, o).map(RefCell::new))
            .transpose()?;
        Ok(Self {
            fine: RefCell::new(StrideMap::new(model, opts.clone())?),
            coarse_active: Cell::new(coarse.is_some()),
            coarse,
            last_fine: RefCell::new(None),
        })
    }

    /// The stride from `u` at the requested tolerance: Newton's last such evaluation if it was
    /// at `u`, else a fresh one.
    pub(crate) fn fine_stride_at(&self, u: &DVector<f64>) -> Result<StrideResult, HybridError> {
        let cached = self.last_fine.borrow_mut().take();
        if let Some((cu, res)) = cached {
            if cu == *u {
                return Ok(res);
            }
        }
        let mut map = self.fine.borrow_mut();
        let (_, _, res) = reduced_residual(&mut map, u.as_slice())?;
        Ok(res)
    }
}

impl<M: HybridModel + ?Sized> SquareSystem for ReducedStride<'_, M> {
    type Error = HybridError;

    fn dim(&self) -> usize {
        self.fine.borrow().model().reduced_dim()
    }

    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
        match &self.coarse {
            Some(coarse) if self.coarse_active.get() => {
                let (f, df, _) = reduced_residual(&mut coarse.borrow_mut(), u.as_slice())?;
                Ok((f, df))
            }
            _ => {
                let (f, df, res) = reduced_residual(&mut self.fine.borrow_mut(), u.as_slice())?;
                *self.last_fine.borrow_mut() = Some((u.clone(), res));
                Ok((f, df))
            }
        }
    }

    fn coarse_until(&self) -> Option<f64> {
        self.coarse_active.get().then_some(COARSE_ABOVE)
    }

    fn refine(&self) -> bool {
        self.coarse_active.replace(false)
    }
}

/// The coarse stride options, if they are looser than the requested ones.
fn coarse_options(fine: &StrideOptions) -> Option<StrideOptions> {
    let loose = |o: &saltation_ode::SolverOptions| {
        o.rtol < COARSE_TOL && matches!(o.atol, saltation_ode::Atol::Scalar(a) if a < COARSE_TOL)
    };
    loose(&fine.ode).then(|| {
        let mut c = fine.clone();
        c.ode.rtol = COARSE_TOL;
        c.ode.atol = saltation_ode::Atol::Scalar(COARSE_TOL);
        c
    })
}

/// The `n × n` stride Jacobian of `res` (requested with [`JacobianKind::StrideMap`]), or a typed
/// error if the stride did not return one of that shape.
pub(crate) fn stride_jacobian(res: &StrideResult, n: usize) -> Result<&DMatrix<f64>, HybridError> {
    match res.jacobian.as_ref() {
        Some(j) if j.shape() == (n, n) => Ok(j),
        other => Err(HybridError::DimensionMismatch {
            what: "stride Jacobian (entries)",
            expected: n * n,
            got: other.map_or(0, |j| j.len()),
        }),
    }
}

/// `u.len() == r` or [`HybridError::DimensionMismatch`].
fn check_reduced(u: &[f64], r: usize) -> Result<(), HybridError> {
    if u.len() != r {
        return Err(HybridError::DimensionMismatch {
            what: "reduced coordinates",
            expected: r,
            got: u.len(),
        });
    }
    Ok(())
}

/// `F(u) = π(P(χ(u))) − u`, its exact Jacobian `F_u = Dπ · P_x · Dχ − I` (r×r) and the stride
/// itself, for one stride map.
pub fn reduced_residual<M: HybridModel + ?Sized>(
    map: &mut StrideMap<'_, M>,
    u: &[f64],
) -> Result<(DVector<f64>, DMatrix<f64>, StrideResult), HybridError> {
    let model = map.model();
    let (n, r) = (model.dim(), model.reduced_dim());
    check_reduced(u, r)?;
    let mut x = vec![0.0; n];
    model.chart(u, &mut x);
    let res = map.eval(&x, JacobianKind::StrideMap)?;
    let mut pu = vec![0.0; r];
    model.project(&res.x, &mut pu);
    let mut dchi = vec![0.0; n * r];
    model.chart_jacobian(u, &mut dchi);
    let mut dpi = vec![0.0; r * n];
    model.project_jacobian(&res.x, &mut dpi);
    let dchi = DMatrix::from_row_slice(n, r, &dchi);
    let dpi = DMatrix::from_row_slice(r, n, &dpi);
    let jac = stride_jacobian(&res, n)?;
    let f = DVector::from_vec(pu) - DVector::from_column_slice(u);
    let df = dpi * jac * dchi - DMatrix::identity(r, r);
    Ok((f, df, res))
}

/// The state-only reduced map `π(P(χ(u)))` (no Jacobian), e.g. for parameter derivatives.
pub fn reduced_map<M: HybridModel + ?Sized>(
    map: &mut StrideMap<'_, M>,
    u: &[f64],
) -> Result<DVector<f64>, HybridError> {
    let model = map.model();
    let (n, r) = (model.dim(), model.reduced_dim());
    check_reduced(u, r)?;
    let mut x = vec![0.0; n];
    model.chart(u, &mut x);
    let res = map.eval(&x, JacobianKind::None)?;
    let mut pu = vec![0.0; r];
    model.project(&res.x, &mut pu);
    Ok(DVector::from_vec(pu))
}
