//! Running a trace's phases again with each mode's guards and declared conditions watched as
//! events: the samples, the located crossings of zero and the located local minima that the
//! checker ([`super::first_violation`]) and the phase minima ([`super::phase_minima`]) read.

use super::minima::MinimumAt;
use super::CONDITION_SAMPLES;
use crate::error::HybridError;
use crate::guards::ModeGuards;
use crate::model::EvalModel;
use crate::simulate::Trace;
use crate::state_solvers::StateSolvers;
use crate::stride::StrideOptions;
use crate::variational::ModeFlow;
use saltation_ode::{Direction, EventSet, Sampling, Stop, Trajectory, ZenoLimit, MAX_COUNT};

/// The guards of a mode (terminal, indices `0..g`) followed by its conditions (non-terminal,
/// falling, indices `g..g + c`), and optionally the time derivative of one condition
/// (non-terminal, rising, index `g + c`: its zeros are the condition's local minima), and
/// optionally the time derivatives of the signed guards `ŝ_j h_j` (non-terminal, rising, after
/// those: their zeros are the guards' local minima, [`super::guard_touches`]).
struct Watched<'a, M: ?Sized> {
    guards: ModeGuards<'a, M>,
    g: usize,
    /// The condition whose slope `dc/dt` is watched.
    slope: Option<usize>,
    /// The sign `ŝ_j` of each guard whose slope `ŝ_j ḣ_j` is watched (empty: none watched;
    /// `0`: that guard's slope is never zero by a sign change, see [`guard_sign`]).
    touch_signs: Vec<f64>,
    /// Scratch for a guard's gradient.
    grad: std::cell::RefCell<Vec<f64>>,
}

/// The sign `ŝ` that makes guard `j` of `mode` non-negative while it has not fired: `−1` for a
/// guard firing on a rising crossing (`h < 0` before), `+1` for a falling one; for a guard
/// firing either way, the sign of `h` at the phase's start `x` (or of `ḣ = h_x·f` there where
/// `h = 0`; `0` where both vanish: the guard is not watched in that phase).
pub(super) fn guard_sign<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    t: f64,
    x: &[f64],
) -> f64 {
    match model.guard_info(mode, j).direction {
        Direction::Rising => -1.0,
        Direction::Falling => 1.0,
        Direction::Either => {
            let h = model.guard(mode, j, x);
            let v = if h != 0.0 {
                h
            } else {
                guard_rate(model, mode, j, t, x, &mut vec![0.0; x.len()])
            };
            if v > 0.0 {
                1.0
            } else if v < 0.0 {
                -1.0
            } else {
                0.0
            }
        }
    }
}

/// `ḣ = h_x · f` of guard `j` of `mode` at `(t, x)` with the exact gradient (guards do not
/// depend on time); `grad` is scratch of length `n`.
fn guard_rate<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    t: f64,
    x: &[f64],
    grad: &mut Vec<f64>,
) -> f64 {
    let n = model.dim();
    let mut f = vec![0.0; n];
    model.flow(mode, t, &x[..n], &mut f);
    grad.resize(n, 0.0);
    model.guard_gradient(mode, j, &x[..n], grad);
    grad.iter().zip(&f).map(|(g, f)| g * f).sum()
}

impl<M: EvalModel + ?Sized> Watched<'_, M> {
    /// The conditions of the mode.
    fn nc(&self) -> usize {
        self.guards.model.conditions(self.guards.mode)
    }
    /// Index of the first guard slope.
    fn touch_start(&self) -> usize {
        self.g + self.nc() + usize::from(self.slope.is_some())
    }
}

/// `dc/dt = ∇c · f` of condition `cond` of `mode` at `(t, x)`, by a central difference of `c`
/// along the flow direction `f̂ = f/‖f‖`: `‖f‖ (c(x + h f̂) − c(x − h f̂)) / 2h` with
/// `h = ε^{1/3} max(1, ‖x‖∞)` (error `O(h²)` of truncation plus `O(ε/h)` of rounding, both
/// `∼ ε^{2/3}` relative). Only its sign change matters: a zero of it misplaced by `δt` moves
/// the minimum's value by `O(δt²)`.
pub fn condition_slope<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    cond: usize,
    t: f64,
    x: &[f64],
) -> f64 {
    let n = model.dim();
    let x = &x[..n];
    let mut f = vec![0.0; n];
    model.flow(mode, t, x, &mut f);
    let nf = f.iter().map(|v| v * v).sum::<f64>().sqrt();
    if !(nf > 0.0 && nf.is_finite()) {
        return 0.0;
    }
    let h = f64::EPSILON.cbrt() * x.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    let shifted =
        |s: f64| -> Vec<f64> { x.iter().zip(&f).map(|(xi, fi)| xi + s * fi / nf).collect() };
    let (plus, minus) = (shifted(h), shifted(-h));
    nf * (model.condition(mode, cond, &plus) - model.condition(mode, cond, &minus)) / (2.0 * h)
}

impl<M: EvalModel + ?Sized> EventSet for Watched<'_, M> {
    fn count(&self) -> usize {
        self.g + self.nc() + usize::from(self.slope.is_some()) + self.touch_signs.len()
    }
    fn value(&self, i: usize, t: f64, y: &[f64]) -> f64 {
        let m = self.guards.model;
        if i < self.g {
            self.guards.value(i, t, y)
        } else if i < self.g + self.nc() {
            m.condition(self.guards.mode, i - self.g, &y[..m.dim()])
        } else if i < self.touch_start() {
            let cond = self.slope.unwrap_or(0);
            condition_slope(m, self.guards.mode, cond, t, y)
        } else {
            let j = i - self.touch_start();
            let rate = guard_rate(m, self.guards.mode, j, t, y, &mut self.grad.borrow_mut());
            self.touch_signs[j] * rate
        }
    }
    fn direction(&self, i: usize) -> Direction {
        if i < self.g {
            self.guards.direction(i)
        } else if i < self.g + self.nc() {
            Direction::Falling
        } else {
            Direction::Rising
        }
    }
    fn enabled(&self, i: usize, t: f64, y: &[f64]) -> bool {
        i >= self.g || self.guards.enabled(i, t, y)
    }
    /// The guards stop the run, except while their slopes are watched: the run then goes to
    /// each phase's event time as the trace has it, so that a guard crossed and crossed back
    /// between the trace's event samples (a double crossing it did not see) shows as a negative
    /// interior minimum instead of ending the phase early.
    fn terminal(&self, i: usize) -> bool {
        i < self.g && self.touch_signs.is_empty()
    }
}

/// A value of a condition somewhere on the trajectory.
pub(super) struct Sample {
    pub(super) t: f64,
    pub(super) mode: usize,
    pub(super) cond: usize,
    pub(super) value: f64,
    pub(super) x: Vec<f64>,
    /// Index of the segment.
    pub(super) seg: usize,
    /// Where in the segment.
    pub(super) at: MinimumAt,
}

/// One smooth piece of a trace: mode, start and end.
struct Piece<'a> {
    mode: usize,
    t0: f64,
    x0: &'a [f64],
    /// End time and state before the event; `None` for the last piece (which ends at
    /// `trace.end`, by time or by a failure).
    event: Option<(f64, &'a [f64])>,
}

/// The smooth pieces of `trace`, which started at `(t0, x0)` in `start_mode`.
fn pieces<'a>(trace: &'a Trace, t0: f64, x0: &'a [f64], start_mode: usize) -> Vec<Piece<'a>> {
    let mut out = Vec::with_capacity(trace.events.len() + 1);
    let (mut mode, mut t, mut x) = (start_mode, t0, x0);
    for e in &trace.events {
        out.push(Piece {
            mode,
            t0: t,
            x0: x,
            event: Some((e.t, &e.x_minus)),
        });
        (mode, t, x) = (e.target, e.t, &e.x_plus);
    }
    out.push(Piece {
        mode,
        t0: t,
        x0: x,
        event: None,
    });
    out
}

/// What [`scan`] records.
pub(super) struct Scan {
    /// Every condition's values at the phases' starts and ends and at the integrator's steps.
    pub(super) samples: Vec<Sample>,
    /// The located crossings of zero (falling).
    pub(super) crossings: Vec<Sample>,
    /// The located local minima of the watched condition.
    pub(super) minima: Vec<Sample>,
    /// The located interior local minima of the signed guards `ŝ_j h_j` (`cond`: the guard's
    /// index, `value`: `ŝ_j h_j` there), when watched.
    pub(super) touches: Vec<Sample>,
}

/// Runs the pieces of `trace` again with the same integrators, each mode's guards and
/// conditions watched (and the slope of condition `slope.1` in piece `slope.0`, and with
/// `touches` the slopes of the signed guards: their interior local minima).
pub(super) fn scan<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
    slope: Option<(usize, usize)>,
    touches: bool,
) -> Result<Scan, HybridError> {
    let n = model.dim();
    let mut touched: Vec<Sample> = Vec::new();
    let mut samples: Vec<Sample> = Vec::new();
    let mut crossings: Vec<Sample> = Vec::new();
    let mut minima: Vec<Sample> = Vec::new();
    // The trace has passed the Zeno limits already; the conditions' crossings added here may
    // coincide with its events (a contact force reaching zero at lift-off), which those limits
    // would take for an accumulation.
    let mut opts = opts.clone();
    opts.ode.zeno = ZenoLimit {
        max_events: MAX_COUNT,
        window: 2,
        min_span: 0.0,
        min_interval: 0.0,
    };
    // At least `CONDITION_SAMPLES` interior samples per step: the exact stepper of an affine
    // mode takes steps as long as a whole phase, and a condition that dips below zero and
    // recovers between two samples is not seen.
    opts.ode.event_samples = opts.ode.event_samples.max(CONDITION_SAMPLES);
    let opts = &opts;
    let mut solvers = StateSolvers::new(opts)?;
    let all = pieces(trace, t0, x0, opts.start_mode);
    let t_last = trace.end.0;
    for (seg, piece) in all.iter().enumerate() {
        let mode = piece.mode;
        let nc = model.conditions(mode);
        let eval_at = |t: f64, x: &[f64], at: MinimumAt, samples: &mut Vec<Sample>| {
            for cond in 0..nc {
                let value = model.condition(mode, cond, &x[..n]);
                samples.push(Sample {
                    t,
                    mode,
                    cond,
                    value,
                    x: x[..n].to_vec(),
                    seg,
                    at,
                });
            }
        };
        eval_at(piece.t0, piece.x0, MinimumAt::Start, &mut samples);
        if let Some((te, xm)) = piece.event {
            eval_at(te, xm, MinimumAt::End, &mut samples);
        }
        // Run the segment again with the conditions watched (a mode without conditions too,
        // so that each integrator's history stays that of the trace).
        let sys = ModeFlow { model, mode };
        let watched_slope = slope.filter(|&(s, c)| s == seg && c < nc).map(|(_, c)| c);
        let g = model.guards(mode);
        let watched = Watched {
            guards: ModeGuards::new(model, mode),
            g,
            slope: watched_slope,
            touch_signs: if touches {
                (0..g)
                    .map(|j| guard_sign(model, mode, j, piece.t0, piece.x0))
                    .collect()
            } else {
                Vec::new()
            },
            grad: std::cell::RefCell::new(vec![0.0; n]),
        };
        let t_limit = match piece.event {
            Some((te, _)) if touches => te,
            Some((te, _)) => te.max(piece.t0 + opts.t_max),
            None => t_last,
        };
        let (solver, first) = solvers.for_mode(opts, model, mode);
        let ode = |source| HybridError::Ode { mode, source };
        if first {
            solver
                .start(&sys, &watched, piece.t0, piece.x0)
                .map_err(ode)?;
        } else {
            solver
                .restart(&sys, &watched, piece.t0, piece.x0)
                .map_err(ode)?;
        }
        let logged = solver.event_log().len();
        let mut traj = Trajectory::new(if nc > 0 {
            Sampling::Steps
        } else {
            Sampling::None
        });
        let stop = solver
            .integrate(&sys, &watched, t_limit, Some(&mut traj))
            .map_err(ode)?;
        let t_end = match (&stop, piece.event) {
            (Stop::Event(hit), _) => hit.t,
            (Stop::TimeReached, Some((te, _))) => te,
            (Stop::TimeReached, None) => t_last,
        };
        for k in 0..traj.len() {
            if traj.t[k] < t_end {
                eval_at(traj.t[k], traj.state(k), MinimumAt::Interior, &mut samples);
            }
        }
        let near = 1e-12 * t_end.abs().max(1.0);
        for hit in &solver.event_log()[logged..] {
            let ends_by_event = piece.event.is_some();
            if hit.index < watched.g || (ends_by_event && hit.t >= t_end - near) {
                continue;
            }
            if hit.index >= watched.touch_start() {
                // A guard's interior local minimum: not at the phase's start (a reset onto
                // the guard) and only where the guard would count a crossing.
                let j = hit.index - watched.touch_start();
                let x = &hit.y[..n];
                if hit.t > piece.t0 + near && model.guard_enabled(mode, j, x) {
                    touched.push(Sample {
                        t: hit.t,
                        mode,
                        cond: j,
                        value: watched.touch_signs[j] * model.guard(mode, j, x),
                        x: x.to_vec(),
                        seg,
                        at: MinimumAt::Interior,
                    });
                }
                continue;
            }
            let cond = hit.index - watched.g;
            let sample = |cond: usize| Sample {
                t: hit.t,
                mode,
                cond,
                value: model.condition(mode, cond, &hit.y[..n]),
                x: hit.y[..n].to_vec(),
                seg,
                at: MinimumAt::Interior,
            };
            if cond < nc {
                crossings.push(sample(cond));
            } else if let Some(c) = watched_slope {
                minima.push(sample(c));
            }
        }
    }
    Ok(Scan {
        samples,
        crossings,
        minima,
        touches: touched,
    })
}
