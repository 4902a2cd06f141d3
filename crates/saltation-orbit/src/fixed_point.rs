//! Fixed points of a hybrid model's stride map by Newton shooting, with Floquet multipliers.
//!
//! In the section's reduced coordinates `u` (chart `χ`, projection `π`) the fixed-point
//! equation is `F(u) = π(P(χ(u))) − u = 0` with the exact Newton matrix
//! `F_u = Dπ · P_x · Dχ − I`, `P_x` the stride Jacobian from variational equations and
//! saltation matrices ([`saltation_hybrid::StrideMap`]). It is solved by the damped Newton method
//! of [`crate::newton`] (an argmin solver), with coarse strides while the residual is large
//! ([`COARSE_ABOVE`], [`COARSE_TOL`]) and strides at the requested tolerance from then on; the
//! solution, its residual, its Jacobian and the multipliers all come from a stride at the
//! requested tolerance. Newton's matrix needs `P_x Dχ` only: when the section has at most half
//! the coordinates `r` of a state of `n ≥ 6` components, Newton's strides integrate the `n × r`
//! variational matrix `Φ·Dχ` ([`StrideMap::eval_seeded`]) and only the stride at the solution the
//! full `n × n` `Φ` (the orbit reports `P_x`). The Floquet multipliers are the eigenvalues of the full-state stride
//! Jacobian `P_x` at the fixed point: the nontrivial ones plus zeros for the directions the reset
//! collapses (saltation matrices: Aizerman and Gantmakher, "On the stability of periodic
//! motions", J. Appl. Math. Mech. 22 (1958); shooting and Floquet multipliers of non-smooth
//! periodic solutions: Leine and Nijmeijer, *Dynamics and Bifurcations of Non-Smooth Mechanical
//! Systems*, Springer 2004).
//!
//! # Multiple shooting
//! With [`OrbitOptions::shooting`] `=` [`Shooting::Multiple`] the stride is cut into segments
//! (at the events, or every phase into `N` pieces) whose start states are unknowns too, joined
//! by matching conditions with a cyclic block-bidiagonal Jacobian, and the multipliers come from
//! the segment Jacobians by the product QR ([`saltation_linalg::product_eigenvalues`]) — for
//! orbits whose multipliers span many orders of magnitude (module `multiple`).
//!
//! # Degenerate solutions
//! A fixed point of the stride map need not be a periodic orbit: from an equilibrium `x*` of the
//! flow near the section, `F` is below `ftol` although nothing moves. After convergence the
//! stride must have a positive, finite period `T` and move the state by more than the
//! resolution of the convergence tests,
//!
//! ```text
//! T·‖f(x₀)‖₂ > max(ftol, xtol)·max(1, ‖x₀‖₂),
//! ```
//!
//! `f` the vector field of the stride's start mode at the fixed point `x₀ = χ(u*)`; otherwise the
//! solve fails with [`OrbitError::Degenerate`].
//!
//! The state after the stride, `x₁ = P(χ(u*))`, must lie on the section's chart:
//!
//! ```text
//! ‖χ(π(x₁)) − x₁‖₂ ≤ CHART_TOLERANCE·max(1, ‖x₁‖₂)
//! ```
//!
//! ([`CHART_TOLERANCE`] `= 1e-6`). The residual compares reduced coordinates only; a chart that
//! pins a coordinate to a value the flow or reset does not give (a chart contradicting the
//! reset) has `π(x₁) = u*` although `x₁ ≠ χ(u*)`: not a periodic orbit
//! ([`Degeneracy::ChartMismatch`]). Not checked for a model whose multipliers are taken on the
//! section ([`EvalModel::multipliers_on_section`]): it declares coordinates outside the
//! periodicity (the SLIP runner's horizontal position and foot, which advance every stride;
//! a constrained mechanism's state off its section).
//!
//! The fixed point must also be isolated, i.e. determined by the residual test. The Newton
//! correction at the solution, `δ = −F_u⁻¹F(u*)` (the solver's LU, with the residual and
//! Jacobian of the converged evaluation), estimates the distance to the exact root; it must obey
//!
//! ```text
//! ‖δ‖₂ ≤ max(ISOLATION_FRACTION·‖u*‖₂, ftol·max(1, ‖u*‖₂), xtol·(1 + ‖u*‖₂))
//! ```
//!
//! ([`ISOLATION_FRACTION`] `= 1e-3`: `u*` known to three digits, or to the resolution of the
//! convergence tests — a step-converged solution always passes). A nearly singular `F_u` lets
//! `‖F‖` fall below `ftol` long before `u` is determined: on the approach to an equilibrium
//! whose stride map is `u + O(‖u‖³)` (the simplest walker on level ground), or along a family of
//! orbits. Then, or when `F_u` is singular at the solution, the solve fails with
//! [`Degeneracy::NotIsolated`]. For an isolated root Newton converges quadratically and the
//! correction is at the level of the integration error (`~1e-15` for the walker's gaits).

pub mod multiple;
mod options;
mod stride;

pub use options::{
    OrbitOptions, OrbitOptionsError, Segments, Shooting, MAX_PIECES_PER_PHASE,
    MAX_SHOOTING_UNKNOWNS,
};
pub use stride::{reduced_map, reduced_residual, COARSE_ABOVE, COARSE_TOL};

use crate::eigen::{eigenvalues_with, EigenBackend, EigenError};
use crate::fd::{central_difference, FdError};
use crate::newton::{
    format_vector, newton_step, norm2, solve, Convergence, NewtonError, NewtonReport,
};
use crate::stability::Multiplier;
use multiple::{joined_events, MultipleShooting, SetupError};
use nalgebra::{DMatrix, DVector};
use options::Segments as SegmentsOption;
use saltation_hybrid::{
    EvalModel, EventRecord, HybridError, JacobianKind, StrideMap, StrideOptions,
};
use serde::{Deserialize, Serialize};
use stride::{stride_jacobian, ReducedStride};
use thiserror::Error;

/// A periodic orbit: fixed point of the stride map and its stability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PeriodicOrbit {
    /// Fixed point, full state (just after the stride's last reset).
    pub x0: Vec<f64>,
    /// Fixed point in the section's reduced coordinates.
    pub u0: Vec<f64>,
    /// Stride duration.
    pub period: f64,
    /// Full-state stride Jacobian `P_x` at the fixed point (n×n), at the requested tolerance.
    pub jacobian: DMatrix<f64>,
    /// Its eigenvalues, by decreasing modulus; for a model whose
    /// [`EvalModel::multipliers_on_section`] is true, those of [`section_jacobian`] instead.
    pub multipliers: Vec<Multiplier>,
    /// Whether every multiplier lies strictly inside the unit circle.
    pub stable: bool,
    /// Newton iterations.
    pub newton_iterations: usize,
    /// `‖F(u*)‖` at the solution, from a stride at the requested tolerance.
    pub residual: f64,
    /// Events of one stride on the orbit.
    pub events: Vec<EventRecord>,
}

/// One smooth phase of a stride: the mode it runs in and how long.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    /// Mode index.
    pub mode: usize,
    /// Duration.
    pub duration: f64,
}

impl PeriodicOrbit {
    /// The stride's phases in the order met from the section: one per event (the mode before
    /// it, from the previous event's time), plus the stretch after the last event if the
    /// stride does not end there.
    pub fn phases(&self) -> Vec<Phase> {
        let mut out = Vec::with_capacity(self.events.len() + 1);
        let mut t = 0.0;
        for e in &self.events {
            out.push(Phase {
                mode: e.mode,
                duration: e.t - t,
            });
            t = e.t;
        }
        if let Some(last) = self.events.last() {
            if self.period > t {
                out.push(Phase {
                    mode: last.target,
                    duration: self.period - t,
                });
            }
        }
        out
    }
}

/// Why a converged fixed point is not a periodic orbit.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
#[non_exhaustive]
pub enum Degeneracy {
    /// The state barely moves in one stride: an equilibrium of the flow.
    #[error(
        "equilibrium, not a periodic orbit: the state moves by T·‖f(x₀)‖ = {motion:e} in one \
         stride, not more than the resolution of the convergence test {resolution:e}"
    )]
    Equilibrium {
        /// `T·‖f(x₀)‖₂`.
        motion: f64,
        /// `max(ftol, xtol)·max(1, ‖x₀‖₂)`.
        resolution: f64,
    },
    /// The Newton correction at the solution is not small against the solution: `u*` is not
    /// determined by the residual test (module documentation).
    #[error(
        "fixed point not isolated: the Newton matrix is nearly singular there (e.g. the \
         approach to an equilibrium, or a family of orbits); the Newton correction ‖δ‖ = \
         {correction:e} is more than {fraction:e}·‖u‖ (‖u‖ = {scale:e}) and more than the \
         convergence resolution {resolution:e}",
        fraction = ISOLATION_FRACTION
    )]
    NotIsolated {
        /// `‖δ‖₂`, `δ = −F_u⁻¹F` at the solution; infinite if `F_u` is singular.
        correction: f64,
        /// `‖u*‖₂`.
        scale: f64,
        /// `max(ftol·max(1, ‖u*‖₂), xtol·(1 + ‖u*‖₂))`.
        resolution: f64,
    },
    /// The state after the stride is not the chart of its reduced point: `π(P(χ(u*))) = u*`
    /// holds, but `P(χ(u*)) ≠ χ(u*)` — the section's chart contradicts the flow or the reset
    /// (it pins a coordinate to a value the stride does not return to), so `χ(u*)` is not on
    /// a periodic orbit.
    #[error(
        "not a periodic orbit: the state after the stride differs from the section chart of \
         its reduced point by ‖χ(π(x₁)) − x₁‖ = {mismatch:e} (largest in state component \
         {component}), more than {resolution:e}: the section's chart contradicts the model's \
         flow or reset (check the chart of the section after the guard)"
    )]
    ChartMismatch {
        /// `‖χ(π(x₁)) − x₁‖₂`.
        mismatch: f64,
        /// The state component with the largest difference.
        component: usize,
        /// [`CHART_TOLERANCE`]`·max(1, ‖x₁‖₂)`.
        resolution: f64,
    },
    /// The stride took no time (or its duration is not finite).
    #[error("stride of duration {period}, not a periodic orbit")]
    ZeroPeriod {
        /// The stride's duration.
        period: f64,
    },
}

/// Why no orbit was found.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum OrbitError {
    /// The options are invalid (bad input, not a failed computation).
    #[error(transparent)]
    InvalidOptions(#[from] OrbitOptionsError),
    /// The stride map failed at the initial guess (guard not reached, grazing, non-finite
    /// state, …), or while computing the stride at the solution. A failure at a later Newton
    /// iterate is [`OrbitError::Newton`] with [`NewtonError::System`], which carries the iterate.
    #[error(transparent)]
    Hybrid(#[from] HybridError),
    /// Newton did not converge (divergence, singular matrix, iteration limit, a stride that
    /// failed at an iterate after the initial guess) — carries the iterate in reduced
    /// coordinates ([`NewtonError::iterate`]); with multiple shooting the iterate is
    /// `(u, s_1, …, s_{S−1})`, the reduced coordinates followed by the segments' start states.
    #[error("Newton shooting failed: {0}")]
    Newton(NewtonError<HybridError>),
    /// Newton converged to something that is not a periodic orbit (an equilibrium) or is not
    /// isolated.
    #[error("degenerate solution u = {}: {reason}", format_vector(.u0.as_slice()))]
    Degenerate {
        /// The converged point, reduced coordinates.
        u0: Vec<f64>,
        /// The stride's duration there.
        period: f64,
        /// What is degenerate.
        reason: Degeneracy,
    },
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

impl From<NewtonError<HybridError>> for OrbitError {
    /// A stride failure at the initial guess (iteration 0) is the guess's fault:
    /// [`OrbitError::Hybrid`]; anything else stays a [`OrbitError::Newton`] with its iterate.
    fn from(e: NewtonError<HybridError>) -> Self {
        match e {
            NewtonError::System {
                error,
                iteration: 0,
                ..
            } => OrbitError::Hybrid(error),
            other => OrbitError::Newton(other),
        }
    }
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

/// Whether the stride from `x0` (period `period`) is degenerate (see the module documentation).
fn degeneracy<M: EvalModel + ?Sized>(
    model: &M,
    opts: &OrbitOptions,
    x0: &[f64],
    period: f64,
) -> Option<Degeneracy> {
    if !(period > 0.0 && period.is_finite()) {
        return Some(Degeneracy::ZeroPeriod { period });
    }
    let mut f = vec![0.0; x0.len()];
    model.flow(opts.stride.start_mode, 0.0, x0, &mut f);
    let motion = period * norm2(&f);
    let resolution = opts.newton.ftol.max(opts.newton.xtol) * norm2(x0).max(1.0);
    (motion <= resolution).then_some(Degeneracy::Equilibrium { motion, resolution })
}

/// Largest `‖χ(π(x₁)) − x₁‖₂`, relative to `max(1, ‖x₁‖₂)`, at a periodic orbit (`x₁` the state
/// after the stride from the solution): far above the integration and event-location errors
/// (a consistent chart reproduces `x₁` to those), far below a chart that contradicts the reset.
pub const CHART_TOLERANCE: f64 = 1e-6;

/// Whether the state `x1` after the stride is off the section's chart (module documentation).
fn off_chart<M: EvalModel + ?Sized>(model: &M, x1: &[f64]) -> Option<Degeneracy> {
    let mut u = vec![0.0; model.reduced_dim()];
    model.project(x1, &mut u);
    let mut back = vec![0.0; x1.len()];
    model.chart(&u, &mut back);
    let diff: Vec<f64> = back.iter().zip(x1).map(|(a, b)| a - b).collect();
    let mismatch = norm2(&diff);
    let resolution = CHART_TOLERANCE * norm2(x1).max(1.0);
    let component = (0..diff.len())
        .max_by(|&i, &j| diff[i].abs().total_cmp(&diff[j].abs()))
        .unwrap_or(0);
    // NaN compares false: a non-finite mismatch is reported too.
    (!(mismatch <= resolution)).then_some(Degeneracy::ChartMismatch {
        mismatch,
        component,
        resolution,
    })
}

/// Largest Newton correction at a solution, relative to `‖u*‖₂`, for the solution to count as
/// isolated (module documentation).
pub const ISOLATION_FRACTION: f64 = 1e-3;

/// Whether the converged root of `report` is not isolated (module documentation).
fn not_isolated(report: &NewtonReport, opts: &OrbitOptions) -> Option<Degeneracy> {
    let scale = norm2(report.solution.as_slice());
    let resolution = (opts.newton.ftol * scale.max(1.0)).max(opts.newton.xtol * (1.0 + scale));
    let correction = newton_step(&report.jacobian, &report.residual)
        .map_or(f64::INFINITY, |d| norm2(d.as_slice()));
    (correction > resolution && correction > ISOLATION_FRACTION * scale).then_some(
        Degeneracy::NotIsolated {
            correction,
            scale,
            resolution,
        },
    )
}

/// Finds the fixed point of `model`'s stride map from `u_guess` (reduced coordinates): Newton
/// on `F(u) = π(P(χ(u))) − u` until `‖F‖₂ ≤ ftol·max(1, ‖u‖₂)` (or the step test), at the
/// requested stride tolerance; then the multipliers, and the check that the solution moves
/// and is isolated (module documentation).
///
/// Errors: [`OrbitError::InvalidOptions`] for bad options (checked first),
/// [`OrbitError::GuessLength`], [`OrbitError::Hybrid`] if the stride fails at the guess,
/// [`OrbitError::Newton`] if Newton fails (with the iterate), [`OrbitError::Degenerate`] for an
/// equilibrium or a fixed point that is not isolated, [`OrbitError::Eigen`].
///
/// ```
/// # use saltation_orbit::{find_periodic_orbit, OrbitOptions};
/// # fn demo<M: saltation_hybrid::EvalModel>(model: &M) {
/// let orbit = find_periodic_orbit(model, &[0.2, -0.2], &OrbitOptions::default()).unwrap();
/// println!("period {} stable {}", orbit.period, orbit.stable);
/// # }
/// ```
pub fn find_periodic_orbit<M: EvalModel + ?Sized>(
    model: &M,
    u_guess: &[f64],
    opts: &OrbitOptions,
) -> Result<PeriodicOrbit, OrbitError> {
    opts.validate_for(model)?;
    let r = model.reduced_dim();
    if u_guess.len() != r {
        return Err(OrbitError::GuessLength {
            expected: r,
            got: u_guess.len(),
        });
    }
    if let options::Shooting::Multiple { segments } = opts.shooting {
        return find_by_multiple_shooting(model, u_guess, opts, segments);
    }
    // Building the stride maps only checks the (already validated) options.
    let sys = ReducedStride::new(model, &opts.stride, opts.newton.ftol)
        .map_err(OrbitOptionsError::Stride)?;
    let mut report = solve(&sys, &DVector::from_column_slice(u_guess), &opts.newton)?;
    // The residual, Newton matrix and stride at the solution come from the stride with the full
    // `P_x` (Newton's last one, unless that carried `P_x Dχ` only: then a fresh one).
    let (mut f, mut fu, mut stride) = sys.fine_stride_at(&report.solution)?;
    if report.converged_by == Convergence::Residual
        && !opts
            .newton
            .residual_converged(norm2(f.as_slice()), &report.solution)
    {
        // The fresh stride's residual misses the test that the reduced one passed (they differ
        // by the integration error): Newton goes on from there with full strides only.
        sys.full_only();
        let before = report.iterations;
        report = solve(&sys, &report.solution, &opts.newton)?;
        report.iterations += before;
        (f, fu, stride) = sys.fine_stride_at(&report.solution)?;
    }
    report.residual_norm = norm2(f.as_slice());
    report.residual = f;
    report.jacobian = fu;
    let isolation = not_isolated(&report, opts);
    let u0 = report.solution;
    let n = model.dim();
    let mut x0 = vec![0.0; n];
    model.chart(u0.as_slice(), &mut x0);
    if let Some(reason) = degeneracy(model, opts, &x0, stride.period)
        .or(isolation)
        .or_else(|| {
            // A model whose multipliers are taken on the section declares coordinates the
            // section leaves out of the periodicity (a position that advances every stride).
            (!model.multipliers_on_section())
                .then(|| off_chart(model, &stride.x))
                .flatten()
        })
    {
        return Err(OrbitError::Degenerate {
            u0: u0.as_slice().to_vec(),
            period: stride.period,
            reason,
        });
    }
    let jacobian = stride_jacobian(&stride, n)?.clone();
    let multipliers = if model.multipliers_on_section() {
        multipliers_of(
            &section_jacobian(model, u0.as_slice(), &stride.x, &jacobian),
            opts.eigen,
        )?
    } else {
        multipliers_of(&jacobian, opts.eigen)?
    };
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

/// [`find_periodic_orbit`] by multiple shooting (module `multiple`): Newton on the matching
/// conditions of the segments, the same checks of the solution, the multipliers from the
/// segment Jacobians by [`saltation_linalg::product_eigenvalues`]. The orbit's `residual` is
/// `‖F(z*)‖₂` of the matching conditions.
fn find_by_multiple_shooting<M: EvalModel + ?Sized>(
    model: &M,
    u_guess: &[f64],
    opts: &OrbitOptions,
    segments: SegmentsOption,
) -> Result<PeriodicOrbit, OrbitError> {
    let (sys, z0) =
        MultipleShooting::new(model, &opts.stride, segments, u_guess).map_err(|e| match e {
            SetupError::Options(o) => OrbitError::InvalidOptions(o),
            SetupError::Hybrid(h) => OrbitError::Hybrid(h),
        })?;
    let report = solve(&sys, &z0, &opts.newton)?;
    let segs = sys.segments_at(&report.solution)?;
    let isolation = not_isolated(&report, opts);
    let (n, r) = (model.dim(), model.reduced_dim());
    let u0 = report.solution.as_slice()[..r].to_vec();
    let mut x0 = vec![0.0; n];
    model.chart(&u0, &mut x0);
    let (period, events) = joined_events(&segs);
    let x1 = segs.last().map(|s| s.x.as_slice()).unwrap_or(&[]);
    if let Some(reason) = degeneracy(model, opts, &x0, period)
        .or(isolation)
        .or_else(|| off_chart(model, x1))
    {
        return Err(OrbitError::Degenerate { u0, period, reason });
    }
    let factors = segs
        .iter()
        .map(|s| stride_jacobian(s, n).cloned())
        .collect::<Result<Vec<_>, _>>()?;
    let multipliers: Vec<Multiplier> = saltation_linalg::product_eigenvalues(&factors)?
        .into_iter()
        .map(Multiplier::from)
        .collect();
    let jacobian = factors
        .iter()
        .fold(DMatrix::identity(n, n), |acc, a| a * acc);
    let stable = multipliers.iter().all(|m| m.modulus() < 1.0);
    Ok(PeriodicOrbit {
        x0,
        u0,
        period,
        jacobian,
        multipliers,
        stable,
        newton_iterations: report.iterations,
        residual: report.residual_norm,
        events,
    })
}

/// The stride map's Jacobian in the section's reduced coordinates, `M = Dπ(x₁) · P_x · Dχ(u₀)`
/// (r×r), from the full-state `P_x` at `x₀ = χ(u₀)`, `x₁ = P(x₀)`.
pub fn section_jacobian<M: EvalModel + ?Sized>(
    model: &M,
    u0: &[f64],
    x1: &[f64],
    p_x: &DMatrix<f64>,
) -> DMatrix<f64> {
    let (n, r) = (model.dim(), model.reduced_dim());
    let mut dchi = vec![0.0; n * r];
    model.chart_jacobian(u0, &mut dchi);
    let mut dpi = vec![0.0; r * n];
    model.project_jacobian(x1, &mut dpi);
    DMatrix::from_row_slice(r, n, &dpi) * p_x * DMatrix::from_row_slice(n, r, &dchi)
}

/// Central finite-difference Jacobian of the full-state stride map at `x0` with step `h`
/// (`J_ij ≈ (P_i(x + h e_j) − P_i(x − h e_j)) / 2h`), for comparison with the variational one.
///
/// Errors: [`OrbitError::InvalidOptions`] for invalid `opts` (checked with
/// [`StrideOptions::validate_for`]), [`OrbitError::FiniteDifference`] for a bad step or point, a wrong `x0` length or a
/// failed stride.
pub fn stride_jacobian_fd<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    h: f64,
    opts: &StrideOptions,
) -> Result<DMatrix<f64>, OrbitError> {
    // `StrideMap::new` validates the options against the model.
    let mut map = StrideMap::new(model, opts.clone()).map_err(OrbitOptionsError::Stride)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_system_failure_blames_the_guess_only_at_iteration_zero() {
        let fell = HybridError::GuardNotReached {
            mode: 0,
            t_max: 1.0,
            seen: Default::default(),
        };
        let at = |iteration| NewtonError::System {
            error: fell.clone(),
            iterate: DVector::from_vec(vec![0.25, -1.5]),
            iteration,
        };
        assert_eq!(OrbitError::from(at(0)), OrbitError::Hybrid(fell.clone()));
        let later = OrbitError::from(at(3));
        match &later {
            OrbitError::Newton(e) => {
                let (k, u) = e.iterate().unwrap();
                assert_eq!(k, 3);
                assert_eq!(u.as_slice(), &[0.25, -1.5]);
            }
            other => panic!("{other:?}"),
        }
        let text = later.to_string();
        assert!(text.contains("iteration 3"), "{text}");
        assert!(text.contains("u = [0.25, -1.5]"), "{text}");
        assert!(text.contains("stride not completed"), "{text}");
    }
}
