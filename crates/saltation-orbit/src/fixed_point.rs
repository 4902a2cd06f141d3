//! Fixed points of a hybrid model's stride map by Newton shooting, with Floquet multipliers.
//!
//! In the section's reduced coordinates `u` (chart `χ`, projection `π`) the fixed-point
//! equation is `F(u) = π(P(χ(u))) − u = 0` with the exact Newton matrix
//! `F_u = Dπ · P_x · Dχ − I`, `P_x` the stride Jacobian from variational equations and
//! saltation matrices ([`saltation_hybrid::StrideMap`]). It is solved by the damped Newton method
//! of [`crate::newton`] (an argmin solver). The Floquet multipliers are the eigenvalues of the
//! full-state stride Jacobian `P_x` at the fixed point: the nontrivial ones plus zeros for the
//! directions the reset collapses (METHODS.md, "Periodic orbits: shooting").

use crate::eigen::{eigenvalues_with, EigenBackend, EigenError};
use crate::fd::{central_difference, FdError};
use crate::newton::{solve, NewtonError, NewtonOptions, SquareSystem};
use crate::stability::Multiplier;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{
    EventRecord, HybridError, HybridModel, JacobianKind, StrideMap, StrideOptions, StrideResult,
};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use thiserror::Error;

/// Settings of a periodic-orbit solve: integration, Newton and eigenvalue backend.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OrbitOptions {
    /// Stride integration settings.
    pub stride: StrideOptions,
    /// Newton settings.
    pub newton: NewtonOptions,
    /// Eigenvalue backend for the multipliers.
    pub eigen: EigenBackend,
}

/// A periodic orbit: fixed point of the stride map and its stability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodicOrbit {
    /// Fixed point, full state (just after the stride's last reset).
    pub x0: Vec<f64>,
    /// Fixed point in the section's reduced coordinates.
    pub u0: Vec<f64>,
    /// Stride duration.
    pub period: f64,
    /// Full-state stride Jacobian `P_x` at the fixed point (n×n).
    pub jacobian: DMatrix<f64>,
    /// Its eigenvalues, by decreasing modulus.
    pub multipliers: Vec<Multiplier>,
    /// Whether every multiplier lies strictly inside the unit circle.
    pub stable: bool,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// `‖F(u*)‖` at the solution.
    pub residual: f64,
    /// Events of one stride on the orbit.
    pub events: Vec<EventRecord>,
}

/// Why no orbit was found.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum OrbitError {
    /// The stride map failed (guard not reached, grazing, non-finite state, …).
    #[error(transparent)]
    Hybrid(#[from] HybridError),
    /// Newton did not converge (divergence, singular matrix, iteration limit) — carries the last
    /// iterate in reduced coordinates.
    #[error("Newton shooting failed: {0}")]
    Newton(NewtonError<HybridError>),
    /// The multipliers could not be computed.
    #[error(transparent)]
    Eigen(#[from] EigenError),
    /// A finite-difference Jacobian failed.
    #[error("finite differences failed: {0}")]
    FiniteDifference(FdError<HybridError>),
    /// A guess has the wrong length.
    #[error("guess has {got} entries, the model's section has {expected}")]
    GuessLength {
        /// Reduced dimension.
        expected: usize,
        /// Given.
        got: usize,
    },
}

/// `F(u) = π(P(χ(u))) − u` with its exact Jacobian, remembering the last stride.
///
/// Inexact Newton: while the previous residual is large (> [`COARSE_ABOVE`]) the stride is
/// integrated with a looser tolerance ([`COARSE_TOL`], never looser than asked for), since an
/// error far below the residual cannot change the iteration; near the solution every evaluation
/// uses the requested tolerance, so the solution, its residual and its Jacobian are full-accuracy.
struct ReducedStride<'a, M: HybridModel + ?Sized> {
    map: RefCell<StrideMap<'a, M>>,
    coarse: Option<RefCell<StrideMap<'a, M>>>,
    last_norm: std::cell::Cell<f64>,
    last: RefCell<Option<(DVector<f64>, StrideResult)>>,
}

/// Residual above which strides may use the coarse tolerance.
pub const COARSE_ABOVE: f64 = 1e-5;
/// Tolerance of the coarse strides (rtol and atol).
pub const COARSE_TOL: f64 = 1e-9;

impl<M: HybridModel + ?Sized> SquareSystem for ReducedStride<'_, M> {
    type Error = HybridError;

    fn dim(&self) -> usize {
        self.map.borrow().model().reduced_dim()
    }

    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
        let use_coarse = self.last_norm.get() > COARSE_ABOVE;
        let mut map = match &self.coarse {
            Some(c) if use_coarse => c.borrow_mut(),
            _ => self.map.borrow_mut(),
        };
        let (f, df, res) = reduced_residual(&mut map, u.as_slice())?;
        let norm = f.norm();
        // A coarse evaluation never ends the iteration: mark it so that the next one is fine.
        self.last_norm.set(if use_coarse {
            norm.min(COARSE_ABOVE)
        } else {
            norm
        });
        *self.last.borrow_mut() = Some((u.clone(), res));
        Ok((f, df))
    }
}

/// `F(u) = π(P(χ(u))) − u`, its exact Jacobian `F_u = Dπ · P_x · Dχ − I` (r×r) and the stride
/// itself, for one stride map.
pub fn reduced_residual<M: HybridModel + ?Sized>(
    map: &mut StrideMap<'_, M>,
    u: &[f64],
) -> Result<(DVector<f64>, DMatrix<f64>, StrideResult), HybridError> {
    let model = map.model();
    let (n, r) = (model.dim(), model.reduced_dim());
    if u.len() != r {
        return Err(HybridError::DimensionMismatch {
            what: "reduced coordinates",
            expected: r,
            got: u.len(),
        });
    }
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
    let jac = res.jacobian.as_ref().expect("stride Jacobian requested");
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
    let mut x = vec![0.0; n];
    model.chart(u, &mut x);
    let res = map.eval(&x, JacobianKind::None)?;
    let mut pu = vec![0.0; r];
    model.project(&res.x, &mut pu);
    Ok(DVector::from_vec(pu))
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

/// Multipliers (eigenvalues of `jac`) by decreasing modulus.
pub fn multipliers_of(
    jac: &DMatrix<f64>,
    backend: EigenBackend,
) -> Result<Vec<Multiplier>, EigenError> {
    Ok(eigenvalues_with(jac, backend)?
        .into_iter()
        .map(Multiplier::from)
        .collect())
}

/// Finds the fixed point of `model`'s stride map from `u_guess` (reduced coordinates).
///
/// ```
/// # use saltation_orbit::{find_periodic_orbit, OrbitOptions};
/// # fn demo<M: saltation_hybrid::HybridModel>(model: &M) {
/// let orbit = find_periodic_orbit(model, &[0.2, -0.2], &OrbitOptions::default()).unwrap();
/// println!("period {} stable {}", orbit.period, orbit.stable);
/// # }
/// ```
pub fn find_periodic_orbit<M: HybridModel + ?Sized>(
    model: &M,
    u_guess: &[f64],
    opts: &OrbitOptions,
) -> Result<PeriodicOrbit, OrbitError> {
    let r = model.reduced_dim();
    if u_guess.len() != r {
        return Err(OrbitError::GuessLength {
            expected: r,
            got: u_guess.len(),
        });
    }
    let coarse = coarse_options(&opts.stride)
        .map(|o| StrideMap::new(model, o).map(RefCell::new))
        .transpose()?;
    let sys = ReducedStride {
        map: RefCell::new(StrideMap::new(model, opts.stride.clone())?),
        coarse,
        last_norm: std::cell::Cell::new(f64::INFINITY),
        last: RefCell::new(None),
    };
    let report =
        solve(&sys, &DVector::from_column_slice(u_guess), &opts.newton).map_err(|e| match e {
            NewtonError::System(h) => OrbitError::Hybrid(h),
            other => OrbitError::Newton(other),
        })?;
    let u0 = report.solution.clone();
    // The stride at the solution (cached when Newton's last evaluation was there).
    let cached = sys.last.borrow_mut().take().filter(|(u, _)| *u == u0);
    let stride = match cached {
        Some((_, res)) => res,
        None => {
            let mut x = vec![0.0; model.dim()];
            model.chart(u0.as_slice(), &mut x);
            sys.map.borrow_mut().eval(&x, JacobianKind::StrideMap)?
        }
    };
    let mut x0 = vec![0.0; model.dim()];
    model.chart(u0.as_slice(), &mut x0);
    let jacobian = stride.jacobian.clone().expect("stride Jacobian requested");
    let multipliers = multipliers_of(&jacobian, opts.eigen)?;
    let stable = multipliers.iter().all(|m| m.modulus() < 1.0);
    Ok(PeriodicOrbit {
        x0,
        u0: u0.as_slice().to_vec(),
        period: stride.period,
        jacobian,
        multipliers,
        stable,
        newton_iterations: report.iterations,
        residual: report.residual_norm,
        events: stride.events,
    })
}

/// Central finite-difference Jacobian of the full-state stride map at `x0` with step `h`
/// (`J_ij ≈ (P_i(x + h e_j) − P_i(x − h e_j)) / 2h`), for comparison with the variational one.
pub fn stride_jacobian_fd<M: HybridModel + ?Sized>(
    model: &M,
    x0: &[f64],
    h: f64,
    opts: &StrideOptions,
) -> Result<DMatrix<f64>, OrbitError> {
    let mut map = StrideMap::new(model, opts.clone())?;
    central_difference(
        |x: &DVector<f64>| {
            map.eval(x.as_slice(), JacobianKind::None)
                .map(|r| DVector::from_vec(r.x))
        },
        &DVector::from_column_slice(x0),
        h,
    )
    .map_err(OrbitError::FiniteDifference)
}
