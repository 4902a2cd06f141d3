//! The reduced fixed-point residual `F(u) = π(P(χ(u))) − u` of a stride map, and the square
//! system Newton solves, with its two accuracy levels.

use crate::newton::{norm2, SquareSystem};
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{
    EvalModel, HybridError, JacobianKind, StrideMap, StrideOptions, StrideResult,
};
use std::cell::{Cell, RefCell};

/// Residual norm down to which strides may use the coarse tolerance: at the first accepted
/// Newton iterate with `‖F‖₂ ≤ COARSE_ABOVE` the solve switches to the requested tolerance.
pub const COARSE_ABOVE: f64 = 1e-5;
/// Tolerance of the coarse strides (rtol and atol).
pub const COARSE_TOL: f64 = 1e-9;
/// A fine stride that evaluates again the point of a coarse one carries the full `Φ` (it may be
/// the last, whose `P_x` the orbit reports) only if the coarse residual was at most
/// `ftol·max(1, ‖u‖₂) + FINAL_MARGIN`: above, the fine residual (the coarse one up to the coarse
/// integration error) cannot pass the convergence test, and `Φ·Dχ` is all Newton needs.
const FINAL_MARGIN: f64 = 100.0 * COARSE_TOL;
/// Smallest state dimension `n` whose Newton strides carry `Φ·Dχ` (n × r, with `2r ≤ n`)
/// instead of `Φ`: below it the full matrix has at most 20 components and costs no more
/// (measured: the 4-state walker and two-block hopper took 30–45% more instructions seeded).
const SEED_MIN_DIM: usize = 6;

/// `F(u) = π(P(χ(u))) − u` with its exact Jacobian, at one of two accuracies.
///
/// Inexact Newton: while the residual is large the stride is integrated with a looser tolerance
/// ([`COARSE_TOL`], only if looser than asked for), since an integration error far below the
/// residual cannot change the iteration. The switch to the requested tolerance is made by the
/// Newton solver ([`SquareSystem::refine`]) at an accepted iterate, never inside a line search,
/// and before convergence is declared; so the solution, its residual and its Jacobian are at the
/// requested tolerance.
///
/// Newton needs `P_x Dχ` only (`F_u = Dπ · (P_x Dχ) − I`): when the section has at most half
/// the coordinates of the state (`2r ≤ n`, [`SEED_MIN_DIM`] `≤ n`) and some mode integrates
/// its variational equations (see [`StrideOptions::all_phases_exponential`]: seeding would then only make Newton's last stride be repeated with `Φ`) the strides integrate the
/// `n × r` matrix `Φ·Dχ` instead of `Φ` ([`StrideMap::eval_seeded`]), except a fine stride that
/// may be the last one
/// (see [`FINAL_MARGIN`]): the orbit reports the full `P_x` of the stride at its solution, so
/// that one integrates `Φ`, and [`ReducedStride::fine_stride_at`] integrates it afresh if
/// Newton's last fine stride did not.
pub(crate) struct ReducedStride<'a, M: EvalModel + ?Sized> {
    fine: RefCell<StrideMap<'a, M>>,
    coarse: Option<RefCell<StrideMap<'a, M>>>,
    coarse_active: Cell<bool>,
    /// Whether strides may carry `Φ·Dχ` instead of `Φ` (the section is much smaller than the
    /// state).
    seeded: Cell<bool>,
    /// Newton's convergence test `ftol`, for the guess whether a fine stride is the last.
    ftol: f64,
    /// The last coarse evaluation: the point and its residual norm.
    last_coarse: RefCell<Option<(DVector<f64>, f64)>>,
    /// The last evaluation at the requested tolerance, and whether it carried the full `Φ`.
    last_fine: RefCell<Option<(DVector<f64>, StrideResult, bool)>>,
}

impl<'a, M: EvalModel + ?Sized> ReducedStride<'a, M> {
    /// Newton's system for `model` with the requested stride options (starts coarse when the
    /// coarse tolerance is looser than the requested one); `ftol` is Newton's residual
    /// tolerance.
    pub(crate) fn new(model: &'a M, opts: &StrideOptions, ftol: f64) -> Result<Self, HybridError> {
        let coarse = coarse_options(opts)
            .map(|o| StrideMap::new(model, o).map(RefCell::new))
            .transpose()?;
        Ok(Self {
            fine: RefCell::new(StrideMap::new(model, opts.clone())?),
            coarse_active: Cell::new(coarse.is_some()),
            coarse,
            seeded: Cell::new(
                model.dim() >= SEED_MIN_DIM
                    && 2 * model.reduced_dim() <= model.dim()
                    && !opts.all_phases_exponential(model),
            ),
            ftol,
            last_coarse: RefCell::new(None),
            last_fine: RefCell::new(None),
        })
    }

    /// From now on every stride carries the full `Φ`.
    pub(crate) fn full_only(&self) {
        self.seeded.set(false);
    }

    /// The residual, its Jacobian and the stride (with the full `P_x`) from `u` at the requested
    /// tolerance: Newton's last such evaluation if it was at `u` with the full `Φ`, else a fresh
    /// one.
    #[allow(clippy::type_complexity)]
    pub(crate) fn fine_stride_at(
        &self,
        u: &DVector<f64>,
    ) -> Result<(DVector<f64>, DMatrix<f64>, StrideResult), HybridError> {
        let cached = self.last_fine.borrow_mut().take();
        if let Some((cu, res, true)) = cached {
            if cu == *u {
                let model = self.fine.borrow().model();
                let (f, df) = residual_of(model, u.as_slice(), &res, Seeding::Full)?;
                return Ok((f, df, res));
            }
        }
        reduced_residual(&mut self.fine.borrow_mut(), u.as_slice())
    }

    /// Whether a fine stride at `u` should carry the full `Φ`: always unless seeding is on and
    /// `u` is the point of the last coarse stride, whose residual says this cannot be the last
    /// evaluation ([`FINAL_MARGIN`]).
    fn fine_is_full(&self, u: &DVector<f64>) -> bool {
        if !self.seeded.get() {
            return true;
        }
        match self.last_coarse.borrow().as_ref() {
            Some((cu, norm)) if cu == u => {
                *norm <= self.ftol * norm2(u.as_slice()).max(1.0) + FINAL_MARGIN
            }
            _ => true,
        }
    }
}

impl<M: EvalModel + ?Sized> SquareSystem for ReducedStride<'_, M> {
    type Error = HybridError;

    fn dim(&self) -> usize {
        self.fine.borrow().model().reduced_dim()
    }

    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
        let reduced = if self.seeded.get() {
            Seeding::Chart
        } else {
            Seeding::Full
        };
        match &self.coarse {
            Some(coarse) if self.coarse_active.get() => {
                let (f, df, _) = reduced_eval(&mut coarse.borrow_mut(), u.as_slice(), reduced)?;
                *self.last_coarse.borrow_mut() = Some((u.clone(), norm2(f.as_slice())));
                Ok((f, df))
            }
            _ => {
                let full = self.fine_is_full(u);
                let seeding = if full { Seeding::Full } else { reduced };
                let (f, df, res) =
                    reduced_eval(&mut self.fine.borrow_mut(), u.as_slice(), seeding)?;
                *self.last_fine.borrow_mut() = Some((u.clone(), res, full));
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

/// Which variational matrix a stride of the reduced residual carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seeding {
    /// `Φ` (n × n) from the identity: the stride's full `P_x`.
    Full,
    /// `Φ·Dχ(u)` (n × r) from the chart's Jacobian: `P_x Dχ`, all that `F_u` needs.
    Chart,
}

/// `F(u) = π(P(χ(u))) − u`, its exact Jacobian `F_u = Dπ · P_x · Dχ − I` (r×r) and the stride
/// itself, for one stride map.
pub fn reduced_residual<M: EvalModel + ?Sized>(
    map: &mut StrideMap<'_, M>,
    u: &[f64],
) -> Result<(DVector<f64>, DMatrix<f64>, StrideResult), HybridError> {
    reduced_eval(map, u, Seeding::Full)
}

/// [`reduced_residual`] with the stride's variational matrix chosen by `seeding`: with
/// [`Seeding::Chart`] the stride's Jacobian is `P_x Dχ` (n × r) and
/// `F_u = Dπ · (P_x Dχ) − I`.
pub(crate) fn reduced_eval<M: EvalModel + ?Sized>(
    map: &mut StrideMap<'_, M>,
    u: &[f64],
    seeding: Seeding,
) -> Result<(DVector<f64>, DMatrix<f64>, StrideResult), HybridError> {
    let model = map.model();
    let (n, r) = (model.dim(), model.reduced_dim());
    check_reduced(u, r)?;
    let mut x = vec![0.0; n];
    model.chart(u, &mut x);
    let res = match seeding {
        Seeding::Full => map.eval(&x, JacobianKind::StrideMap)?,
        Seeding::Chart => {
            let mut dchi = vec![0.0; n * r];
            model.chart_jacobian(u, &mut dchi);
            map.eval_seeded(&x, JacobianKind::StrideMap, &dchi, r)?
        }
    };
    let (f, df) = residual_of(model, u, &res, seeding)?;
    Ok((f, df, res))
}

/// `F(u)` and `F_u` from the stride `res` from `χ(u)`, whose Jacobian is `P_x` (n × n) or
/// `P_x Dχ` (n × r) as `seeding` says.
fn residual_of<M: EvalModel + ?Sized>(
    model: &M,
    u: &[f64],
    res: &StrideResult,
    seeding: Seeding,
) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
    let (n, r) = (model.dim(), model.reduced_dim());
    let mut pu = vec![0.0; r];
    model.project(&res.x, &mut pu);
    let mut dpi = vec![0.0; r * n];
    model.project_jacobian(&res.x, &mut dpi);
    let dpi = DMatrix::from_row_slice(r, n, &dpi);
    let f = DVector::from_vec(pu) - DVector::from_column_slice(u);
    let pxdchi = match seeding {
        Seeding::Full => {
            let mut dchi = vec![0.0; n * r];
            model.chart_jacobian(u, &mut dchi);
            let dchi = DMatrix::from_row_slice(n, r, &dchi);
            // (Dπ P_x) Dχ, in the order the products were always formed.
            let df = dpi * stride_jacobian(res, n)? * dchi - DMatrix::identity(r, r);
            return Ok((f, df));
        }
        Seeding::Chart => match res.jacobian.as_ref() {
            Some(j) if j.shape() == (n, r) => j,
            other => {
                return Err(HybridError::DimensionMismatch {
                    what: "seeded stride Jacobian (entries)",
                    expected: n * r,
                    got: other.map_or(0, |j| j.len()),
                })
            }
        },
    };
    Ok((f, dpi * pxdchi - DMatrix::identity(r, r)))
}

/// The state-only reduced map `π(P(χ(u)))` (no Jacobian), e.g. for parameter derivatives.
pub fn reduced_map<M: EvalModel + ?Sized>(
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
