//! Simulation of many strides with a trace (times, states, modes, events) for plotting.

use crate::error::HybridError;
use crate::guards::{check_reset_finite, reset_at, ModeGuards};
use crate::model::HybridModel;
use crate::stride::{EventRecord, StrideOptions};
use crate::variational::ModeFlow;
use saltation_ode::{Sampling, Solver, Stop, Trajectory};

/// What to simulate.
#[derive(Debug, Clone, PartialEq)]
pub struct SimulateOptions {
    /// Integration settings, start mode, events per stride and time limit per stride.
    pub stride: StrideOptions,
    /// Number of strides (at most [`MAX_STRIDES`]).
    pub strides: usize,
    /// Output interval (dense output); `None` records every integration step.
    pub dt: Option<f64>,
}

/// Largest [`SimulateOptions::strides`].
pub const MAX_STRIDES: usize = 1_000_000;

impl Default for SimulateOptions {
    fn default() -> Self {
        Self {
            stride: StrideOptions::default(),
            strides: 1,
            dt: Some(0.01),
        }
    }
}

/// A simulated trajectory. If a stride failed, `failure` says why and everything before it is
/// kept.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Sample times.
    pub t: Vec<f64>,
    /// States at the samples.
    pub x: Vec<Vec<f64>>,
    /// Mode at each sample.
    pub mode: Vec<usize>,
    /// Events, in order.
    pub events: Vec<EventRecord>,
    /// States at the start of each stride (the first is the initial state).
    pub stride_starts: Vec<Vec<f64>>,
    /// Why the simulation stopped early, if it did.
    pub failure: Option<HybridError>,
}

/// Simulates `opts.strides` strides from `x0` in `opts.stride.start_mode`.
pub fn simulate<M: HybridModel + ?Sized>(
    model: &M,
    x0: &[f64],
    opts: &SimulateOptions,
) -> Result<Trace, HybridError> {
    opts.stride.validate_for(model)?;
    if opts.strides > MAX_STRIDES {
        return Err(HybridError::InvalidOption {
            field: "strides",
            reason: "must be at most 1000000",
        });
    }
    let n = model.dim();
    if x0.len() != n {
        return Err(HybridError::DimensionMismatch {
            what: "initial state",
            expected: n,
            got: x0.len(),
        });
    }
    if let Some(dt) = opts.dt {
        if !(dt > 0.0 && dt.is_finite()) {
            return Err(HybridError::InvalidOption {
                field: "dt",
                reason: "must be finite and > 0",
            });
        }
    }
    let mut solver = Solver::new(opts.stride.method.stepper(), opts.stride.ode.clone())
        .map_err(|source| HybridError::Ode { mode: 0, source })?;
    let mut trace = Trace::default();
    let mut mode = opts.stride.start_mode;
    let mut x = x0.to_vec();
    let mut t = 0.0;
    let mut started = false;
    'strides: for _ in 0..opts.strides {
        trace.stride_starts.push(x.clone());
        let t_limit = t + opts.stride.t_max;
        for _ in 0..opts.stride.events_per_stride {
            let guards = ModeGuards { model, mode };
            let sys = ModeFlow { model, mode };
            let sampling = match opts.dt {
                Some(dt) => {
                    let k0 = (t / dt).floor() as usize + 1;
                    let k1 = (t_limit / dt).ceil() as usize;
                    let mut times = vec![t];
                    times.extend((k0..=k1).map(|k| k as f64 * dt).filter(|&s| s > t));
                    Sampling::Times(times)
                }
                None => Sampling::Steps,
            };
            let mut traj = Trajectory::new(sampling);
            let res = if started {
                solver.restart(&sys, &guards, t, &x)
            } else {
                solver.start(&sys, &guards, t, &x)
            }
            .and_then(|_| solver.integrate(&sys, &guards, t_limit, Some(&mut traj)));
            started = true;
            for k in 0..traj.len() {
                trace.t.push(traj.t[k]);
                trace.x.push(traj.state(k).to_vec());
                trace.mode.push(mode);
            }
            let hit = match res {
                Err(source) => {
                    trace.failure = Some(HybridError::Ode { mode, source });
                    break 'strides;
                }
                Ok(Stop::TimeReached) => {
                    trace.failure = Some(HybridError::GuardNotReached {
                        mode,
                        t_max: opts.stride.t_max,
                    });
                    break 'strides;
                }
                Ok(Stop::Event(hit)) => hit,
            };
            // Close the segment exactly at the event.
            if trace.t.last() != Some(&hit.t) {
                trace.t.push(hit.t);
                trace.x.push(hit.y.clone());
                trace.mode.push(mode);
            }
            let (target, xp) = match reset_at(model, mode, hit.index, hit.t, &hit.y) {
                Ok(r) => r,
                Err(e) => {
                    trace.failure = Some(e);
                    break 'strides;
                }
            };
            trace.events.push(EventRecord {
                t: hit.t,
                mode,
                guard: hit.index,
                target,
                x_minus: hit.y,
                x_plus: xp.clone(),
            });
            if let Err(e) = check_reset_finite(&xp) {
                trace.failure = Some(e);
                break 'strides;
            }
            mode = target;
            x = xp;
            t = hit.t;
            trace.t.push(t);
            trace.x.push(x.clone());
            trace.mode.push(mode);
        }
    }
    Ok(trace)
}
