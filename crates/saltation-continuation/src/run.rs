//! The continuation driver: start, predict–correct with adaptive steps, detect and locate
//! bifurcations, end cleanly.

use crate::branch::{Bifurcation, BifurcationKind, Branch, BranchPoint, EndReason};
use crate::corrector::{tangent, Eval, Evaluator};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::guard_grazing::{grazing_at_end, locate_guard_grazing, point_clearance, Clearance};
use crate::options::{ContinuationOptions, Predictor};
use crate::tests_fn::{is_neimark_sacker, test_functions};
use nalgebra::{Complex, DMatrix, DVector};
use saltation_hybrid::EvalModel;
use saltation_ode::Num;
use saltation_orbit::{
    eigenvalues_with, find_periodic_orbit, multipliers_of, section_jacobian, EigenBackend,
    OrbitOptions, Shooting,
};

/// Where a branch starts: a parameter value and a guess (reduced coordinates) for the orbit there.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    /// Parameter value.
    pub param: f64,
    /// Guess of the fixed point of `P^k` in reduced coordinates.
    pub u: Vec<f64>,
    /// Branch label.
    pub label: String,
    /// Period multiplicity `k` (1 for ordinary orbits).
    pub period_k: usize,
}

impl Start {
    /// A period-1 branch from the orbit near `u` at parameter `param`, unlabelled.
    pub fn new(param: f64, u: Vec<f64>) -> Self {
        Self {
            param,
            u,
            label: String::new(),
            period_k: 1,
        }
    }

    /// The same start with the label `label` (names the branch in reports and plots).
    pub fn labelled(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// The same start for orbits of period `k` (fixed points of the `k`-fold stride map).
    pub fn with_period(mut self, k: usize) -> Self {
        self.period_k = k;
        self
    }
}

/// Progress report after each accepted point.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Points so far on this branch (1 after the starting orbit).
    pub points: usize,
    /// The branch's point limit ([`ContinuationOptions::max_points`]): `points / max_points`
    /// bounds the work left from below (a branch usually ends earlier, at its parameter bound).
    pub max_points: usize,
    /// Parameter of the last point.
    pub param: f64,
    /// Current step.
    pub step: f64,
}

/// A converged point with everything needed to go on from it.
pub(crate) struct State {
    pub(crate) z: DVector<f64>,
    pub(crate) tau: DVector<f64>,
    pub(crate) point: BranchPoint,
    /// `[∂T/∂u; ∂T/∂p]` of the continued event's time (event-time continuation only).
    grad_t: Option<DVector<f64>>,
    /// The orbit's clearance from its guards ([`crate::guard_grazing`]).
    pub(crate) clearance: Option<Clearance>,
}

/// `[∂T_j/∂u; ∂T_j/∂p]` of event `j` from an evaluation with `F_p`.
fn time_gradient(e: &Eval, j: usize) -> Option<DVector<f64>> {
    let tu = e.tu.get(j)?;
    let tp = *e.tp.as_ref()?.get(j)?;
    Some(stack(tu, tp))
}

/// The event whose time parametrises the branch, if any.
fn time_event(opts: &ContinuationOptions) -> Option<usize> {
    match opts.predictor {
        Predictor::EventTime { event } => Some(event),
        _ => None,
    }
}

/// Continues the branch from `start` within the options' bounds. Errors only if the options are
/// invalid ([`ContinuationOptions::validate`]), the start is (a non-finite parameter or guess, a
/// parameter outside `[p_min, p_max]`, a guess of the wrong length, a model that cannot be built
/// at `start.param`), or the starting orbit cannot be found; everything after that ends the
/// branch cleanly with an [`EndReason`] — including a parameter value the family rejects
/// ([`ModelFamily::model_at`] returning an error: [`EndReason::ParameterRejected`]).
///
/// Every loop ends: a failed step is halved until it falls below `min_step` (at most
/// `log2(max_step / min_step) ≤ 50` halvings in a row), every accepted step adds a point, and
/// the branch ends at `max_points`. [`continue_branch_with_progress`] reports each point.
pub fn continue_branch<F: ModelFamily>(
    family: &F,
    start: &Start,
    orbit: &OrbitOptions,
    opts: &ContinuationOptions,
) -> Result<Branch, ContinuationError> {
    continue_branch_with_progress(family, start, orbit, opts, &mut |_| {})
}

/// [`continue_branch`], calling `progress` after every accepted point (for a progress bar on
/// long runs).
pub fn continue_branch_with_progress<F: ModelFamily>(
    family: &F,
    start: &Start,
    orbit: &OrbitOptions,
    opts: &ContinuationOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Branch, ContinuationError> {
    let stop_at = opts
        .stop_at_period_doubling
        .then_some(BifurcationKind::PeriodDoubling);
    continue_until(family, start, orbit, opts, stop_at, progress)
}

/// [`continue_branch_with_progress`] ending the branch at its first located bifurcation of
/// kind `stop_at` (if any), on that bifurcation itself ([`EndReason::StoppedAt`]); the
/// options' `stop_at_period_doubling` is not read.
pub(crate) fn continue_until<F: ModelFamily>(
    family: &F,
    start: &Start,
    orbit: &OrbitOptions,
    opts: &ContinuationOptions,
    stop_at: Option<BifurcationKind>,
    progress: &mut dyn FnMut(Progress),
) -> Result<Branch, ContinuationError> {
    opts.validate_with(orbit)?;
    if !start.param.is_finite() {
        return Err(ContinuationError::invalid(
            "start.param",
            format!("{} is not finite", Num(start.param)),
        ));
    }
    if !(opts.p_min..=opts.p_max).contains(&start.param) {
        return Err(ContinuationError::invalid(
            "start.param",
            format!(
                "{} is outside the continuation's bounds [p_min, p_max] = [{}, {}]",
                Num(start.param),
                Num(opts.p_min),
                Num(opts.p_max)
            ),
        ));
    }
    if let Some(i) = start.u.iter().position(|x| !x.is_finite()) {
        return Err(ContinuationError::invalid(
            format!("start.u[{i}]"),
            "is not finite",
        ));
    }
    let ev = Evaluator::new(family, orbit, opts, start.period_k)?;
    let model =
        family
            .model_at(start.param)
            .map_err(|source| ContinuationError::InvalidParameter {
                field: "start.param".into(),
                value: start.param,
                source,
            })?;
    opts.shooting
        .validate_for(&model)
        .map_err(crate::options::shooting_error)?;
    let multiple = opts.shooting != Shooting::Single;
    let orbit_opts = OrbitOptions {
        stride: ev.stride.clone(),
        shooting: if multiple {
            opts.shooting
        } else {
            orbit.shooting
        },
        ..orbit.clone()
    };
    let orbit = find_periodic_orbit(&model, &start.u, &orbit_opts)?;
    let r = orbit.u0.len();
    let u0 = DVector::from_vec(orbit.u0.clone());
    // With multiple shooting the starting point is corrected at fixed p to the segments'
    // unknowns (the orbit solver's own), with G_p for the tangent.
    let (u0, e0) = if multiple {
        let (u, e, _) = ev.correct_natural(&u0, start.param, true)?;
        (u, e)
    } else {
        let e0 = ev.eval(u0.as_slice(), start.param, true)?;
        (u0, e0)
    };
    let mut tau0 = DVector::zeros(r + 1);
    tau0[r] = opts.direction;
    let tau = e0
        .fp
        .as_ref()
        .and_then(|fp| tangent(&e0.fu, fp, &tau0))
        .ok_or(ContinuationError::Singular { p: start.param })?;
    let grad_t = time_event(opts).and_then(|j| time_gradient(&e0, j));
    // Event-time continuation: the time moves the way it does when `p` starts in `direction`,
    // and keeps that sense (it is monotonic along the branches it is meant for).
    let time_sign = grad_t
        .as_ref()
        .map_or(1.0, |g| if g.dot(&tau) < 0.0 { -1.0 } else { 1.0 });
    let point = make_point(family, &e0, u0.as_slice(), start.param, &ev)?;
    let clearance = opts
        .detect
        .then(|| point_clearance(family, &point, &ev))
        .flatten();
    let mut state = State {
        z: stack(&u0, start.param),
        tau,
        point,
        grad_t,
        clearance,
    };
    let mut branch = Branch {
        label: start.label.clone(),
        period_k: start.period_k,
        points: vec![state.point.clone()],
        end: EndReason::MaxPoints,
        bifurcations: Vec::new(),
    };
    progress(Progress {
        points: 1,
        max_points: opts.max_points,
        param: start.param,
        step: opts.step,
    });
    let mut ds = opts.step;
    let mut prev_z: Option<DVector<f64>> = None;
    while branch.points.len() < opts.max_points {
        let attempt = step(&ev, &state, prev_z.as_ref(), ds, time_sign, opts);
        let (z, e, iters) = match attempt {
            Ok(ok) => ok,
            Err(err) => {
                ds *= 0.5;
                if ds < opts.min_step {
                    // An orbit that touches a guard ends there (see `grazing_at_end`).
                    let graze = opts
                        .detect
                        .then(|| grazing_at_end(&state, &branch.label))
                        .flatten();
                    if let Some(bif) = graze {
                        branch.bifurcations.push(bif);
                        if stop_at == Some(BifurcationKind::Grazing) {
                            branch.end = EndReason::StoppedAt(BifurcationKind::Grazing);
                            break;
                        }
                    }
                    branch.end = match err {
                        ContinuationError::Hybrid(h) => EndReason::StrideFailed(h.to_string()),
                        ContinuationError::Param(e) => EndReason::ParameterRejected(e.to_string()),
                        other => EndReason::CorrectorFailed(other.to_string()),
                    };
                    break;
                }
                continue;
            }
        };
        let p = z[r];
        if p > opts.p_max || p < opts.p_min {
            // Land exactly on the bound with the natural corrector, then stop.
            let bound = if p > opts.p_max {
                opts.p_max
            } else {
                opts.p_min
            };
            let (u_prev, p_prev) = split(&state.z);
            let (u_new, _) = split(&z);
            let w = (bound - p_prev) / (p - p_prev);
            let guess = &u_prev + (u_new - &u_prev) * w;
            if let Ok((u, e, _)) = ev.correct_natural(&guess, bound, false) {
                let point = make_point(family, &e, u.as_slice(), bound, &ev)?;
                if opts.detect {
                    let clearance = point_clearance(family, &point, &ev);
                    detect(
                        &ev,
                        family,
                        &state,
                        &point,
                        clearance.as_ref(),
                        &mut branch,
                        opts,
                    );
                }
                branch.points.push(point);
                progress(Progress {
                    points: branch.points.len(),
                    max_points: opts.max_points,
                    param: bound,
                    step: ds,
                });
            }
            branch.end = EndReason::ParameterBound;
            break;
        }
        let (u, _) = split(&z);
        let point = make_point(family, &e, u.as_slice(), p, &ev)?;
        let tau =
            e.fp.as_ref()
                .and_then(|fp| tangent(&e.fu, fp, &state.tau))
                .unwrap_or_else(|| state.tau.clone());
        let found = branch.bifurcations.len();
        let clearance = opts
            .detect
            .then(|| point_clearance(family, &point, &ev))
            .flatten();
        if opts.detect {
            detect(
                &ev,
                family,
                &state,
                &point,
                clearance.as_ref(),
                &mut branch,
                opts,
            );
        }
        if let Some(stop) = stop_at {
            let pd = branch
                .bifurcations
                .get(found..)
                .unwrap_or_default()
                .iter()
                .find(|b| b.kind == stop)
                .cloned();
            if let Some(pd) = pd {
                // End on the located point itself, with its own admissibility: that of both
                // ends of the step where they agree, checked again where they differ (a
                // grazing of a declared condition located in between).
                let admissible = if state.point.admissible == point.admissible {
                    point.admissible
                } else {
                    family
                        .model_at(pd.param)
                        .ok()
                        .and_then(|m| m.admissibility(&pd.x0, &ev.stride))
                        .map(|a| a.is_ok_and(|a| a.admissible))
                };
                branch.points.push(BranchPoint {
                    param: pd.param,
                    u: pd.u.clone(),
                    x0: pd.x0.clone(),
                    period: pd.period,
                    stable: pd.multipliers.iter().all(|m| m.modulus() < 1.0),
                    multipliers: pd.multipliers.clone(),
                    admissible,
                    event_times: point.event_times.clone(),
                    tests: point.tests,
                });
                branch.end = EndReason::StoppedAt(stop);
                progress(Progress {
                    points: branch.points.len(),
                    max_points: opts.max_points,
                    param: pd.param,
                    step: ds,
                });
                break;
            }
        }
        branch.points.push(point.clone());
        progress(Progress {
            points: branch.points.len(),
            max_points: opts.max_points,
            param: p,
            step: ds,
        });
        prev_z = Some(state.z.clone());
        let grad_t = time_event(opts).and_then(|j| time_gradient(&e, j));
        state = State {
            z,
            tau,
            point,
            grad_t,
            clearance,
        };
        if iters <= opts.fast_iters {
            ds = (ds * opts.growth).min(opts.max_step);
        } else if iters + 2 >= opts.max_corrector_iters {
            ds = (ds * 0.5).max(opts.min_step);
        }
    }
    Ok(branch)
}

/// One predictor–corrector step of size `ds` from `state`.
fn step<F: ModelFamily>(
    ev: &Evaluator<'_, F>,
    state: &State,
    prev_z: Option<&DVector<f64>>,
    ds: f64,
    time_sign: f64,
    opts: &ContinuationOptions,
) -> Result<(DVector<f64>, Eval, usize), ContinuationError> {
    match opts.predictor {
        Predictor::Arclength => {
            let z_pred = &state.z + &state.tau * ds;
            ev.correct_arclength(&z_pred, &state.tau)
        }
        Predictor::EventTime { event } => {
            let t = state
                .point
                .event_times
                .get(event)
                .copied()
                .unwrap_or(f64::NAN);
            let dt = time_sign * ds;
            // Along the tangent, scaled so that the event time moves by dt to first order.
            let rate = state.grad_t.as_ref().map_or(0.0, |g| g.dot(&state.tau));
            let guess = if rate.abs() > 0.0 && (dt / rate).is_finite() {
                &state.z + &state.tau * (dt / rate)
            } else {
                state.z.clone()
            };
            ev.correct_event_time(&guess, event, t + dt)
        }
        Predictor::Natural => {
            let (u, p) = split(&state.z);
            let p_new = p + opts.direction * ds;
            // Secant predictor through the last two points (constant for the first step).
            let guess = match prev_z {
                Some(zp) => {
                    let (u_old, p_old) = split(zp);
                    if (p - p_old).abs() > 0.0 {
                        &u + (&u - u_old) * ((p_new - p) / (p - p_old))
                    } else {
                        u.clone()
                    }
                }
                None => u.clone(),
            };
            let (u, e, it) = ev.correct_natural(&guess, p_new, true)?;
            Ok((stack(&u, p_new), e, it))
        }
    }
}

pub(crate) fn stack(u: &DVector<f64>, p: f64) -> DVector<f64> {
    let r = u.len();
    let mut z = DVector::zeros(r + 1);
    z.rows_mut(0, r).copy_from(u);
    z[r] = p;
    z
}

pub(crate) fn split(z: &DVector<f64>) -> (DVector<f64>, f64) {
    let r = z.len() - 1;
    (z.rows(0, r).clone_owned(), z[r])
}

/// Multipliers of the reduced Jacobian `J_r = F_u + I` (the nontrivial ones).
pub(crate) fn reduced_multipliers(
    fu: &DMatrix<f64>,
    eigen: EigenBackend,
) -> Result<Vec<Complex<f64>>, ContinuationError> {
    let jr = fu + DMatrix::identity(fu.nrows(), fu.ncols());
    Ok(eigenvalues_with(&jr, eigen)?)
}

/// The nontrivial multipliers of an evaluation: [`reduced_multipliers`] of `F_u`, or with
/// multiple shooting those of the segments' cyclic product (module `segments`), `r` of them.
pub(crate) fn eval_multipliers(
    e: &Eval,
    r: usize,
    eigen: EigenBackend,
) -> Result<Vec<Complex<f64>>, ContinuationError> {
    match &e.segments {
        Some(s) => s.reduced(r),
        None => reduced_multipliers(&e.fu, eigen),
    }
}

pub(crate) fn make_point<F: ModelFamily>(
    family: &F,
    e: &Eval,
    u: &[f64],
    p: f64,
    ev: &Evaluator<'_, F>,
) -> Result<BranchPoint, ContinuationError> {
    let eigen = ev.orbit.eigen;
    let model = family.model_at(p)?;
    let mut x0 = vec![0.0; model.dim()];
    model.chart(u, &mut x0);
    let multipliers = match &e.segments {
        // Multiple shooting (never with multipliers on the section): the product QR.
        Some(s) => s.multipliers()?,
        None => {
            // `Eval`s of single shooting come from `reduced_residual`, which always computes
            // the stride Jacobian.
            let jac = e
                .stride
                .jacobian
                .as_ref()
                .ok_or(ContinuationError::Singular { p })?;
            if model.multipliers_on_section() {
                multipliers_of(&section_jacobian(&model, u, &e.stride.x, jac), eigen)?
            } else {
                multipliers_of(jac, eigen)?
            }
        }
    };
    let stable = multipliers.iter().all(|m| m.modulus() < 1.0);
    let tests = test_functions(&eval_multipliers(e, u.len(), eigen)?);
    // A failed admissibility check (a stride that fails when run again) counts as not admissible.
    // Multiple shooting checks the stride its segments made (each piece from the state after
    // the previous reset, `saltation_hybrid::check_events`), not one stride from `x0`, whose
    // error a large multiplier amplifies.
    let admissibility = match &e.segments {
        Some(_) => saltation_hybrid::has_conditions(&model).then(|| {
            saltation_hybrid::check_events(
                &model,
                &x0,
                &e.stride.events,
                e.stride.period,
                &ev.stride,
                saltation_hybrid::CONDITION_TOL,
            )
        }),
        None => model.admissibility(&x0, &ev.stride),
    };
    let admissible = admissibility.map(|a| a.is_ok_and(|a| a.admissible));
    Ok(BranchPoint {
        param: p,
        u: u.to_vec(),
        x0,
        period: e.stride.period,
        multipliers,
        stable,
        admissible,
        event_times: e.stride.events.iter().map(|x| x.t).collect(),
        tests,
    })
}

const KINDS: [BifurcationKind; 3] = [
    BifurcationKind::Fold,
    BifurcationKind::PeriodDoubling,
    BifurcationKind::NeimarkSacker,
];

/// Checks the test functions between the last point and `next`; locates each sign change.
fn detect<F: ModelFamily>(
    ev: &Evaluator<'_, F>,
    family: &F,
    state: &State,
    next: &BranchPoint,
    next_clearance: Option<&Clearance>,
    branch: &mut Branch,
    opts: &ContinuationOptions,
) {
    let label = &branch.label;
    let clear_a = state.clearance.as_ref();
    if let Some(bif) = locate_guard_grazing(ev, family, state, clear_a, next, next_clearance, label)
    {
        branch.bifurcations.push(bif);
    }
    if let (Some(a), Some(b)) = (state.point.admissible, next.admissible) {
        if a != b {
            if let Ok(bif) = locate_grazing(ev, family, state, next, &branch.label) {
                branch.bifurcations.push(bif);
            }
        }
    }
    for (i, kind) in KINDS.into_iter().enumerate() {
        let (a, b) = (state.point.tests[i], next.tests[i]);
        if !(a * b < 0.0) {
            continue;
        }
        if let Ok(bif) = locate(ev, family, state, next, i, kind, &branch.label, opts) {
            let mu: Vec<Complex<f64>> = bif.multipliers.iter().map(|m| m.to_complex()).collect();
            if kind == BifurcationKind::NeimarkSacker && !is_neimark_sacker(&mu, 1e-4) {
                continue;
            }
            branch.bifurcations.push(bif);
        }
    }
}

/// The step parameter of `next` seen from `state`: arclength along the tangent, `Δp` for the
/// natural predictor, the change of the event time for event-time continuation.
pub(crate) fn span(
    state: &State,
    next: &BranchPoint,
    z_b: &DVector<f64>,
    opts: &ContinuationOptions,
) -> f64 {
    match opts.predictor {
        Predictor::Arclength => state.tau.dot(&(z_b - &state.z)),
        Predictor::Natural => next.param - state.z[state.z.len() - 1],
        Predictor::EventTime { event } => {
            let t = |p: &BranchPoint| p.event_times.get(event).copied().unwrap_or(f64::NAN);
            t(next) - t(&state.point)
        }
    }
}

/// The branch point at step parameter `s` from `state` towards `z_b` (whose step parameter is
/// `s_b`), corrected onto the branch.
pub(crate) fn trial<F: ModelFamily>(
    ev: &Evaluator<'_, F>,
    state: &State,
    z_b: &DVector<f64>,
    s: f64,
    s_b: f64,
) -> Result<(DVector<f64>, Eval), ContinuationError> {
    let w = s / s_b;
    let interpolated = &state.z + (z_b - &state.z) * w;
    match ev.opts.predictor {
        Predictor::Arclength => {
            let z_pred = &state.z + &state.tau * s;
            let (z, e, _) = ev.correct_arclength(&z_pred, &state.tau)?;
            Ok((z, e))
        }
        Predictor::Natural => {
            let (u, _) = split(&interpolated);
            let p = state.z[state.z.len() - 1] + s;
            let (u, e, _) = ev.correct_natural(&u, p, false)?;
            Ok((stack(&u, p), e))
        }
        Predictor::EventTime { event } => {
            let t = state
                .point
                .event_times
                .get(event)
                .copied()
                .unwrap_or(f64::NAN);
            let (z, e, _) = ev.correct_event_time(&interpolated, event, t + s)?;
            Ok((z, e))
        }
    }
}

/// Locates where admissibility changes between the last point (`s = 0`) and `next` by
/// bisection on the step parameter `s` (each trial point corrected onto the branch) until the
/// parameter bracket is below `locate_tol`; the reported point is the last admissible one.
fn locate_grazing<F: ModelFamily>(
    ev: &Evaluator<'_, F>,
    family: &F,
    state: &State,
    next: &BranchPoint,
    label: &str,
) -> Result<Bifurcation, ContinuationError> {
    let opts = ev.opts;
    let p_a = state.z[state.z.len() - 1];
    let z_b = stack(&DVector::from_column_slice(&next.u), next.param);
    let s_b = span(state, next, &z_b, opts);
    let admissible_lo = state.point.admissible;
    let (mut s_lo, mut s_hi) = (0.0, s_b);
    let (mut p_lo, mut p_hi) = (p_a, next.param);
    let mut best = state.point.clone();
    if admissible_lo != Some(true) {
        best = next.clone();
    }
    for _ in 0..60 {
        if (p_hi - p_lo).abs() <= opts.locate_tol {
            break;
        }
        let s = 0.5 * (s_lo + s_hi);
        let (z, e) = trial(ev, state, &z_b, s, s_b)?;
        let (u, p) = split(&z);
        let point = make_point(family, &e, u.as_slice(), p, ev)?;
        if point.admissible == admissible_lo {
            s_lo = s;
            p_lo = p;
        } else {
            s_hi = s;
            p_hi = p;
        }
        if point.admissible == Some(true) {
            best = point;
        }
    }
    Ok(Bifurcation {
        kind: BifurcationKind::Grazing,
        branch: label.to_string(),
        param: best.param,
        x0: best.x0,
        u: best.u,
        period: best.period,
        multipliers: best.multipliers,
    })
}

/// Locates the zero of test function `i` between the last point (`s = 0`) and `next` by the
/// Illinois variant of regula falsi on the step parameter `s` (arclength from the last point, or
/// `Δp` for the natural predictor), each trial point corrected onto the branch.
#[allow(clippy::too_many_arguments)]
fn locate<F: ModelFamily>(
    ev: &Evaluator<'_, F>,
    family: &F,
    state: &State,
    next: &BranchPoint,
    i: usize,
    kind: BifurcationKind,
    label: &str,
    opts: &ContinuationOptions,
) -> Result<Bifurcation, ContinuationError> {
    let r = state.z.len() - 1;
    let p_a = state.z[r];
    let z_b = stack(&DVector::from_column_slice(&next.u), next.param);
    let s_b = span(state, next, &z_b, opts);
    let (mut s_lo, mut s_hi) = (0.0, s_b);
    let (mut f_lo, mut f_hi) = (state.point.tests[i], next.tests[i]);
    let (mut p_lo, mut p_hi) = (p_a, next.param);
    let mut best: Option<(DVector<f64>, f64, Eval)> = None;
    let mut side = 0i32;
    for _ in 0..60 {
        if (p_hi - p_lo).abs() <= opts.locate_tol && best.is_some() {
            break;
        }
        let s = (s_lo * f_hi - s_hi * f_lo) / (f_hi - f_lo);
        let s = if s.is_finite() && s > s_lo.min(s_hi) && s < s_lo.max(s_hi) {
            s
        } else {
            0.5 * (s_lo + s_hi)
        };
        let (z, e) = trial(ev, state, &z_b, s, s_b)?;
        let f = test_functions(&eval_multipliers(&e, r, ev.orbit.eigen)?)[i];
        let p = z[r];
        if f * f_lo > 0.0 {
            s_lo = s;
            f_lo = f;
            p_lo = p;
            if side == -1 {
                f_hi *= 0.5;
            }
            side = -1;
        } else {
            s_hi = s;
            f_hi = f;
            p_hi = p;
            if side == 1 {
                f_lo *= 0.5;
            }
            side = 1;
        }
        best = Some((z, p, e));
        if f == 0.0 {
            break;
        }
    }
    let (z, p, e) = best.ok_or(ContinuationError::Corrector {
        p: p_a,
        iterations: 0,
        residual: f64::NAN,
    })?;
    let (u, _) = split(&z);
    let point = make_point(family, &e, u.as_slice(), p, ev)?;
    Ok(Bifurcation {
        kind,
        branch: label.to_string(),
        param: p,
        x0: point.x0,
        u: point.u,
        period: point.period,
        multipliers: point.multipliers,
    })
}
