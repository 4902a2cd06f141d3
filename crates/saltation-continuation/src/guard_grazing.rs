//! Grazing of a guard touched tangentially, on a one-parameter branch: every guard as an
//! implicit condition for tangency, without a declared admissibility condition.
//!
//! At each point of a branch the stride from its fixed point is run once more with every
//! guard's slope watched ([`saltation_hybrid::least_guard_touch`]): the **clearance**
//! `γ = min ŝ_j h_j(x(t*))` over the interior local minima `t*` of the signed guards
//! (`ŝ_j h_j ≥ 0` while guard `j` has not fired), excluding each phase's end (where the guard
//! that ends it is zero by construction) and guards not enabled there. The orbit grazes where
//! `γ` reaches zero. Between two consecutive points `a`, `b` the branch has met a grazing
//! when
//! - both have a clearance and it changes sign with the same number of events (an orbit
//!   whose free flight passes through the guard without the stride firing it: a safeguard, as
//!   event location finds the pair of crossings around a turn of the guard, `saltation-ode`'s
//!   `locate`); or
//! - their numbers of events differ and the one with fewer events has a clearance `γ ≥ 0`
//!   (the branch went on to the orbits that fire the guard: a low-velocity impact).
//!
//! Where the branch cannot go on at all (an orbit that does not impact ends at its touch: just
//! beyond, the stride fires the guard, and the impacting orbit is no smooth continuation of
//! it), its last point is reported when its clearance is within the tolerance below
//! ([`grazing_at_end`]). A point whose run again fires a guard the stride itself did not (a
//! touch within the integration's resolution, resolved by one run and not the other) has
//! clearance zero there.
//!
//! The grazing point is then located between them on the branch (each trial corrected onto it
//! as the other bifurcations are, `crate::run`): a trial is on the grazing-free side when it
//! has the events of that side's end and a clearance `γ ≥ 0`. With `γ` known on both ends the
//! next trial is the Illinois regula falsi's zero of `γ`, otherwise the bisection of the
//! bracket (a trial whose corrector fails or whose events differ is on the far side), until
//! the parameter bracket is below `locate_tol` (at most 60 trials). The point reported is the
//! grazing-free end, and only when its clearance is below [`GRAZING_CLEARANCE`]` · max(1,
//! ‖x‖∞)`: a change of the events with the orbit far from any guard (a corner, a guard that
//! becomes enabled) is not a grazing and is not reported.

use crate::branch::{Bifurcation, BifurcationKind, BranchPoint};
use crate::corrector::Evaluator;
use crate::family::ModelFamily;
use crate::run::{make_point, span, split, stack, trial, State};
use nalgebra::DVector;
use saltation_hybrid::{least_guard_touch, simulate, EvalModel, SimulateOptions, StrideOptions};

/// Largest clearance, relative to `max(1, ‖x‖∞)`, of a located grazing point (see the module
/// documentation).
pub const GRAZING_CLEARANCE: f64 = 1e-6;

/// The clearance of an orbit from its guards: the least interior local minimum of a signed
/// guard over its stride, where it is and which guard.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Clearance {
    /// `γ = ŝ h` at the minimum.
    pub value: f64,
    /// The mode and guard.
    pub mode: usize,
    /// The guard's index in its mode.
    pub guard: usize,
    /// The phase of the stride.
    pub phase: usize,
}

/// The clearance of the stride of `model` from `x0` with the stride options `stride`; `None`
/// when no guard has an interior local minimum or the stride fails when run again.
pub(crate) fn clearance<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    stride: &StrideOptions,
) -> Option<Clearance> {
    clearance_of(model, x0, stride, None)
}

/// [`clearance`], knowing the times of the stride's own events from its start: where the run
/// again fires a guard the stride did not (an event the stride lacks, at a touch within the
/// integration tolerance: a pair of crossings one run resolves and the other does not), that
/// guard's clearance is taken as zero there — the orbit touches it to within what the
/// integration resolves.
fn clearance_of<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    stride: &StrideOptions,
    own_events: Option<&[f64]>,
) -> Option<Clearance> {
    let sim = SimulateOptions {
        stride: stride.clone(),
        strides: 1,
        dt: None,
        at: Some(Vec::new()),
        ..SimulateOptions::default()
    };
    let trace = simulate(model, x0, &sim).ok()?;
    if trace.failure.is_some() {
        return None;
    }
    if let Some(own) = own_events {
        let tol = |t: f64| 1e-6 * t.abs().max(1.0);
        let extra = trace.events.iter().enumerate().find(|(k, e)| {
            own.get(*k)
                .is_none_or(|&t| (e.t - sim.t0 - t).abs() > tol(t))
        });
        if let Some((phase, e)) = extra.filter(|_| trace.events.len() > own.len()) {
            return Some(Clearance {
                value: 0.0,
                mode: e.mode,
                guard: e.guard,
                phase,
            });
        }
    }
    let touch = least_guard_touch(model, &trace, sim.t0, x0, &sim.stride).ok()??;
    touch.value.is_finite().then_some(Clearance {
        value: touch.value,
        mode: touch.mode,
        guard: touch.guard,
        phase: touch.phase,
    })
}

/// The clearance of a branch point (`None` when the family has no model there).
pub(crate) fn point_clearance<F: ModelFamily>(
    family: &F,
    point: &BranchPoint,
    ev: &Evaluator<'_, F>,
) -> Option<Clearance> {
    let model = family.model_at(point.param).ok()?;
    clearance_of(&model, &point.x0, &ev.stride, Some(&point.event_times))
}

/// One end of the bracket: step parameter, point, and its clearance.
#[derive(Clone)]
struct End {
    s: f64,
    /// The parameter there (estimated along the step where the trial failed).
    p: f64,
    point: BranchPoint,
    clearance: Option<f64>,
}

/// Whether a trial with `point` and `clearance` is on the grazing-free side, whose end has
/// `events` events.
fn grazing_free(point: &BranchPoint, clearance: Option<&Clearance>, events: usize) -> bool {
    point.event_times.len() == events && clearance.is_some_and(|c| c.value >= 0.0)
}

/// The grazing of a guard between the last point (`state`, with clearance `clear_a`) and
/// `next` (with `clear_b`), located (see the module documentation); `None` when there is none.
pub(crate) fn locate_guard_grazing<F: ModelFamily>(
    ev: &Evaluator<'_, F>,
    family: &F,
    state: &State,
    clear_a: Option<&Clearance>,
    next: &BranchPoint,
    clear_b: Option<&Clearance>,
    label: &str,
) -> Option<Bifurcation> {
    let a = &state.point;
    let (na, nb) = (a.event_times.len(), next.event_times.len());
    let free_a = grazing_free(a, clear_a, na);
    let free_b = grazing_free(next, clear_b, nb);
    let crossed = na == nb && free_a != free_b && clear_a.is_some() && clear_b.is_some();
    let changed = na != nb && ((na < nb && free_a) || (nb < na && free_b));
    if !(crossed || changed) {
        return None;
    }
    let z_b = stack(&DVector::from_column_slice(&next.u), next.param);
    let s_b = span(state, next, &z_b, ev.opts);
    let (p_a, p_b) = (a.param, next.param);
    let end_a = End {
        s: 0.0,
        p: p_a,
        point: a.clone(),
        clearance: clear_a.map(|c| c.value),
    };
    let end_b = End {
        s: s_b,
        p: p_b,
        point: next.clone(),
        clearance: clear_b.map(|c| c.value),
    };
    let (mut free, mut far) = if free_a {
        (end_a, end_b)
    } else {
        (end_b, end_a)
    };
    let events = free.point.event_times.len();
    // The far end's clearance counts for regula falsi only when it is the same function (the
    // same events) below zero.
    if far.point.event_times.len() != events {
        far.clearance = None;
    }
    let mut side = 0i32;
    for _ in 0..60 {
        if (free.p - far.p).abs() <= ev.opts.locate_tol {
            break;
        }
        let s = match (free.clearance, far.clearance) {
            (Some(f), Some(g)) if g < 0.0 => {
                let s = (free.s * g - far.s * f) / (g - f);
                let (lo, hi) = (free.s.min(far.s), free.s.max(far.s));
                if s.is_finite() && s > lo && s < hi {
                    s
                } else {
                    0.5 * (free.s + far.s)
                }
            }
            _ => 0.5 * (free.s + far.s),
        };
        let Some((point, clear)) = trial(ev, state, &z_b, s, s_b)
            .ok()
            .and_then(|(z, e)| {
                let (u, p) = split(&z);
                make_point(family, &e, u.as_slice(), p, ev).ok()
            })
            .map(|point| {
                let clear = point_clearance(family, &point, ev);
                (point, clear)
            })
        else {
            far = End {
                s,
                p: p_a + (p_b - p_a) * s / s_b,
                point: far.point,
                clearance: None,
            };
            side = 0;
            continue;
        };
        let value = clear.as_ref().map(|c| c.value);
        if grazing_free(&point, clear.as_ref(), events) {
            free = End {
                s,
                p: point.param,
                point,
                clearance: value,
            };
            // Illinois: the end kept twice in a row has its value halved.
            if side == -1 {
                far.clearance = far.clearance.map(|g| 0.5 * g);
            }
            side = -1;
        } else {
            let same = point.event_times.len() == events;
            far = End {
                s,
                p: point.param,
                point,
                clearance: value.filter(|_| same),
            };
            if side == 1 {
                free.clearance = free.clearance.map(|f| 0.5 * f);
            }
            side = 1;
        }
    }
    let found = point_clearance(family, &free.point, ev)?;
    let scale = free.point.x0.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    if !(found.value <= GRAZING_CLEARANCE * scale) {
        return None;
    }
    let best = free.point;
    Some(Bifurcation {
        kind: BifurcationKind::Grazing,
        branch: label.to_string(),
        param: best.param,
        x0: best.x0,
        u: best.u,
        period: best.period,
        multipliers: best.multipliers,
    })
}

/// The grazing where a branch cannot go on: its corrector fails at the smallest step after a
/// point whose clearance is at most [`GRAZING_CLEARANCE`]` · max(1, ‖x‖∞)` (and not negative).
/// An orbit touching a guard in its free flight ends there: just beyond, the stride fires the
/// guard (the pair of crossings around the touch), and the orbit that impacts there is no
/// smooth continuation of it (the square-root singularity of a grazing bifurcation), so no
/// point of the far side converges to bracket it with. The last point, already within the
/// smallest step of the touch, is reported.
pub(crate) fn grazing_at_end(state: &State, label: &str) -> Option<Bifurcation> {
    let c = state.clearance.as_ref()?;
    let point = &state.point;
    let scale = point.x0.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    if !(c.value >= 0.0 && c.value <= GRAZING_CLEARANCE * scale) {
        return None;
    }
    Some(Bifurcation {
        kind: BifurcationKind::Grazing,
        branch: label.to_string(),
        param: point.param,
        x0: point.x0.clone(),
        u: point.u.clone(),
        period: point.period,
        multipliers: point.multipliers.clone(),
    })
}

#[cfg(test)]
mod tests {
    use crate::branch::{BifurcationKind, EndReason};
    use crate::options::ContinuationOptions;
    use crate::run::{continue_until, Start};
    use crate::test_models::CuspBounce;
    use saltation_hybrid::{Bound, ParamError};
    use saltation_orbit::OrbitOptions;

    /// A branch that stops at a grazing of a declared condition ends on the located point with
    /// that point's own admissibility — the last admissible orbit, not the inadmissible next
    /// point's verdict. The cusp map at `b = 0.1` grazes (landing speed 1.1) at
    /// `a = 0.001 − 0.1 b = −0.009`.
    #[test]
    fn stopping_at_a_grazing_labels_the_located_point_admissible() {
        let family = |a: f64| -> Result<Bound<CuspBounce>, ParamError> {
            Bound::with_values(CuspBounce, vec![a, 0.1])
        };
        let mut stopped = None;
        for direction in [-1.0, 1.0] {
            let opts = ContinuationOptions {
                direction,
                p_min: -0.1,
                p_max: 0.1,
                step: 1e-3,
                max_step: 2e-3,
                max_points: 100,
                ..ContinuationOptions::default()
            };
            let start = Start::new(-0.005, vec![1.05]);
            let branch = continue_until(
                &family,
                &start,
                &OrbitOptions::default(),
                &opts,
                Some(BifurcationKind::Grazing),
                &mut |_| {},
            )
            .unwrap();
            if branch.end == EndReason::StoppedAt(BifurcationKind::Grazing) {
                stopped = Some(branch);
            }
        }
        let branch = stopped.expect("one direction meets the grazing");
        let last = branch.points.last().unwrap();
        assert_eq!(last.admissible, Some(true), "{last:?}");
        assert!((last.param + 0.009).abs() < 1e-8, "{}", last.param);
    }
}
