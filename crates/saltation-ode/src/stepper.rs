//! The one stepping interface every integrator implements.
//!
//! A [`Stepper`] owns its workspace and takes **one accepted step** per call to
//! [`Stepper::step`] (retrying rejected attempts inside). It never owns the loop: the driver
//! ([`crate::Solver`]) decides where to stop, locates events on the step's dense output and
//! records output. After `step` returns `Ok`, the stepper sits at the end of the accepted step
//! (`t`, `y`, `f(t, y)`), and [`Stepper::dense`] evaluates the continuous extension anywhere in
//! `[t_prev, t]`. After [`Stepper::truncate`] it sits at the truncation point, ready to step on
//! (or to be restarted after a jump); `f` there may be evaluated lazily by the next step, since
//! after a terminal event the integration usually ends or restarts.

use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// The two ends of the last accepted step: enough for cubic Hermite interpolation.
#[derive(Debug, Clone, Copy)]
pub struct StepEnds<'a> {
    /// Start time of the step.
    pub t0: f64,
    /// End time of the step.
    pub t1: f64,
    /// State at `t0`.
    pub y0: &'a [f64],
    /// State at `t1`.
    pub y1: &'a [f64],
    /// `f(t0, y0)`.
    pub f0: &'a [f64],
    /// `f(t1, y1)`.
    pub f1: &'a [f64],
}

/// Cubic Hermite basis at `θ`, the derivative weights without the factor `h`:
/// `[(1+2θ)(1−θ)², θ(1−θ)², θ²(3−2θ), θ²(θ−1)]`.
#[inline(always)]
pub(crate) fn hermite_basis(th: f64) -> [f64; 4] {
    let (u, th2) = (1.0 - th, th * th);
    [
        (1.0 + 2.0 * th) * u * u,
        th * u * u,
        th2 * (3.0 - 2.0 * th),
        th2 * (th - 1.0),
    ]
}

impl StepEnds<'_> {
    /// Cubic Hermite interpolant (3rd order) at `t` in `[t0, t1]`, written to `out`:
    /// `y(θ) = h₀₀ y₀ + h₁₀ h f₀ + h₀₁ y₁ + h₁₁ h f₁` with `θ = (t−t₀)/h` and the Hermite basis
    /// `h₀₀ = (1+2θ)(1−θ)²`, `h₁₀ = θ(1−θ)²`, `h₀₁ = θ²(3−2θ)`, `h₁₁ = θ²(θ−1)`.
    #[inline]
    pub fn hermite(&self, t: f64, out: &mut [f64]) {
        let h = self.t1 - self.t0;
        let th = if h == 0.0 { 1.0 } else { (t - self.t0) / h };
        let [c00, c10, c01, c11] = hermite_basis(th);
        let (c10, c11) = (c10 * h, c11 * h);
        let n = out.len();
        let (y0, y1, f0, f1) = (&self.y0[..n], &self.y1[..n], &self.f0[..n], &self.f1[..n]);
        for i in 0..n {
            out[i] = c00 * y0[i] + c10 * f0[i] + c01 * y1[i] + c11 * f1[i];
        }
    }
}

/// Whether every entry is finite (no NaN, no ±∞). One pass without early exit, which
/// vectorizes: `v · 0` is NaN exactly for infinite or NaN `v`.
#[inline]
pub(crate) fn all_finite(v: &[f64]) -> bool {
    v.iter().fold(0.0, |acc, &x| acc + x * 0.0) == 0.0
}

/// Sizes every vector of a workspace to length `n`, zeroed (keeping each allocation that fits).
pub(crate) fn zeroed<'a>(vectors: impl IntoIterator<Item = &'a mut Vec<f64>>, n: usize) {
    for v in vectors {
        v.clear();
        v.resize(n, 0.0);
    }
}

/// The checks every [`Stepper::start`] begins with: `y` has the system's dimension, and `t` and
/// `y` are finite.
pub(crate) fn check_initial<S: OdeSystem + ?Sized>(
    sys: &S,
    t: f64,
    y: &[f64],
) -> Result<(), OdeError> {
    let dim = sys.dim();
    if y.len() != dim {
        return Err(OdeError::DimensionMismatch {
            what: "initial state",
            expected: dim,
            got: y.len(),
        });
    }
    if !t.is_finite() || !all_finite(y) {
        return Err(OdeError::NonFiniteInitial { t });
    }
    Ok(())
}

/// Refuses a system whose mass matrix is not exactly the identity, for the explicit methods
/// (`y' = f` is all they integrate: `M y' = f` with a singular `M`, a DAE, would be integrated
/// as if `M = I` and give a wrong solution). With variational columns the identity is required
/// of the base block.
pub(crate) fn require_identity_mass<S: OdeSystem + ?Sized>(
    sys: &S,
    method: &'static str,
) -> Result<(), OdeError> {
    let Some(m) = sys.mass_matrix() else {
        return Ok(());
    };
    let n = crate::system::base_dim(sys.dim(), sys.variational_columns()).unwrap_or(sys.dim());
    let identity = m.len() == n * n
        && m.iter()
            .enumerate()
            .all(|(i, &v)| v == if i / n == i % n { 1.0 } else { 0.0 });
    if identity {
        Ok(())
    } else {
        Err(OdeError::MassMatrixUnsupported {
            method,
            reason: "is explicit and needs the identity mass matrix (M = I): use radau5, ndf, \
                     bdf, rosenbrock23, trapezoid or trbdf2",
        })
    }
}

/// `f(t, y)` into `f` at a (re)start, counted in `stats`; [`OdeError::NonFiniteRhs`] when the
/// model returns NaN or ±∞ there.
pub(crate) fn initial_rhs<S: OdeSystem + ?Sized>(
    sys: &S,
    t: f64,
    y: &[f64],
    f: &mut [f64],
    stats: &mut Stats,
) -> Result<(), OdeError> {
    sys.rhs(t, y, f);
    stats.rhs_evals += 1;
    if all_finite(f) {
        Ok(())
    } else {
        Err(OdeError::NonFiniteRhs { t })
    }
}

/// The first step of an adaptive method: `h_fixed` when given, else `h_init` (at most `h_max`),
/// else the method's own estimate `estimate()`.
pub(crate) fn first_step(opts: &SolverOptions, estimate: impl FnOnce() -> f64) -> f64 {
    match (opts.h_fixed, opts.h_init) {
        (Some(h), _) => h,
        (None, Some(h)) => h.min(opts.h_max),
        (None, None) => {
            // An estimate of 0 or NaN (a scaled norm that overflowed: `atol = 1e-300` at a
            // component of zero) would start with a step of size zero; Hairer's fallback for
            // an unusable estimate, 1e-6, instead.
            let h = estimate();
            if h > 0.0 {
                h
            } else {
                FALLBACK_FIRST_STEP.min(opts.h_max)
            }
        }
    }
}

/// First step when the estimate is unusable (Hairer & Wanner's `hinit` uses it when the
/// derivatives are too small to estimate from).
const FALLBACK_FIRST_STEP: f64 = 1e-6;

/// One integration method. Every family implements it: explicit Runge–Kutta
/// ([`crate::ExplicitRk`]), Radau IIA ([`crate::Radau5`]), BDF/NDF ([`crate::Bdf`]), Rosenbrock 2(3)
/// ([`crate::Rosenbrock23`]), the trapezoidal rule ([`crate::Trapezoid`]), TR-BDF2
/// ([`crate::Trbdf2`]), Adams–Bashforth–Moulton ([`crate::Abm`]) and the exact stepper of
/// autonomous affine systems ([`crate::AffineExp`]); [`crate::AnyStepper`] is their closed sum.
pub trait Stepper {
    /// Method name (`"dop853"`).
    fn name(&self) -> &'static str;
    /// Order of the propagated solution.
    fn order(&self) -> u32;
    /// Whether the step size is chosen by error control.
    fn is_adaptive(&self) -> bool;
    /// (Re)starts at `(t, y)`: sizes the workspace for `sys`, evaluates `f(t, y)` and chooses the
    /// first step (given, fixed or estimated). Forgets the step-size history.
    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError>;
    /// Takes one accepted step, never beyond `t_stop` (landing on it exactly when it is reached).
    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError>;
    /// Current time (end of the last step).
    fn t(&self) -> f64;
    /// Current state.
    fn y(&self) -> &[f64];
    /// Ends of the last accepted step. `f0`, `f1` are `f(t, y)`: the derivative `y'` when
    /// `M = I` (the driver then screens events with their cubic Hermite interpolant); with a mass
    /// matrix the driver uses [`Stepper::dense`] instead.
    fn ends(&self) -> StepEnds<'_>;
    /// The method's own dense output at `t ∈ [t_prev, t]` of the last accepted step.
    fn dense<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, out: &mut [f64], stats: &mut Stats);
    /// Cuts the last step short at `t` with state `y` (an event): the stepper then sits at `(t, y)`.
    fn truncate<S: OdeSystem + ?Sized>(&mut self, sys: &S, t: f64, y: &[f64], stats: &mut Stats);
    /// Whether the step size sees no time scale of its own (steps exact whatever their length),
    /// so that the driver limits the next step by the guards' time scale
    /// ([`Stepper::limit_next_step`]). Default: no.
    fn steps_need_guard_scale(&self) -> bool {
        false
    }
    /// Limits the next step to at most `h` (the guards' time scale; a step never shorter
    /// than a few ulps of `t`). Default: ignored.
    fn limit_next_step(&mut self, _h: f64) {}
}
