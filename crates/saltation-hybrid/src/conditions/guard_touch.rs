//! Guards touched tangentially: every guard of a mode as an implicit condition for tangency.
//!
//! A guard `h_{m,j}(x)` of mode `m`, signed `ŝ_j h_j` so that it is non-negative while the guard
//! has not fired (`ŝ = −1` for a guard counting rising crossings, `+1` for falling ones, the
//! sign at the phase's start for either), grazes where an **interior** local minimum of
//! `ŝ_j h_j(x(t))` over a phase reaches zero without the guard firing there: the trajectory
//! touches the guard's surface tangentially (`ḣ = 0`, `ḧ` of the sign that turns it back).
//! Each interior minimum is located as a rising zero of `ŝ_j ḣ_j = ŝ_j h_x · f` (exact guard
//! gradient) by the integrator's event location on its dense output, while the phases are run
//! again as the admissibility checker runs them ([`super::check_trace`]) except that the
//! guards do not stop the run: each phase runs to its event time as the trace has it, so that
//! a guard crossed and crossed back between the trace's event samples (a double crossing the
//! simulation did not see: an orbit passing just through the guard) shows as a negative
//! minimum. Not
//! candidates: the phase's end, where the guard that ends it is zero by construction; its
//! start (a reset onto a guard's surface); a minimum where the guard is not enabled (it would
//! not fire there anyway).
//!
//! What grazing detection in continuation and grazing curves use for a model whose guards are
//! touched without a declared condition: a positive least value, shrinking to zero along a
//! branch, is the clearance of the orbit from the guard it is about to graze.

use super::scan::scan;
use crate::error::HybridError;
use crate::model::EvalModel;
use crate::simulate::Trace;
use crate::stride::StrideOptions;

/// One interior local minimum of a signed guard over one phase of a trace ([`guard_touches`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GuardTouch {
    /// Index of the phase (smooth piece of the trace, `0` up to the number of events).
    pub phase: usize,
    /// The mode of the phase.
    pub mode: usize,
    /// The guard's index in its mode.
    pub guard: usize,
    /// Time of the minimum.
    pub t: f64,
    /// `ŝ h` there: the clearance from the guard (`≥ 0` while it has not fired, `0` at a
    /// tangency).
    pub value: f64,
    /// The state there.
    pub state: Vec<f64>,
}

impl GuardTouch {
    /// The name a grazing of this guard goes by in reports: `guard:NAME`, distinct from the
    /// model's declared conditions.
    pub fn name<M: EvalModel + ?Sized>(&self, model: &M) -> String {
        guard_condition_name(model, self.mode, self.guard)
    }
}

/// `guard:NAME` of guard `j` of `mode` ([`GuardTouch::name`]).
pub fn guard_condition_name<M: EvalModel + ?Sized>(model: &M, mode: usize, j: usize) -> String {
    format!("guard:{}", model.guard_name(mode, j))
}

/// The interior local minima of every signed guard over every phase of `trace`, a simulation
/// from `x0` at time `t0` with the stride options `opts` (as [`crate::simulate`] ran it), in
/// phase and time order (see the module documentation).
pub fn guard_touches<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
) -> Result<Vec<GuardTouch>, HybridError> {
    if x0.len() != model.dim() {
        return Err(HybridError::DimensionMismatch {
            what: "guard touches (initial state)",
            expected: model.dim(),
            got: x0.len(),
        });
    }
    let found = scan(model, trace, t0, x0, opts, None, true)?;
    Ok(found
        .touches
        .into_iter()
        .map(|s| GuardTouch {
            phase: s.seg,
            mode: s.mode,
            guard: s.cond,
            t: s.t,
            value: s.value,
            state: s.x,
        })
        .collect())
}

/// The least of [`guard_touches`] (`None` when no guard has an interior local minimum).
pub fn least_guard_touch<M: EvalModel + ?Sized>(
    model: &M,
    trace: &Trace,
    t0: f64,
    x0: &[f64],
    opts: &StrideOptions,
) -> Result<Option<GuardTouch>, HybridError> {
    Ok(guard_touches(model, trace, t0, x0, opts)?
        .into_iter()
        .min_by(|a, b| a.value.total_cmp(&b.value)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{simulate, Bound, GuardSpec, HybridModel, Param, Scalar, SimulateOptions};

    /// A ball `ẏ = v`, `v̇ = −g` between a floor (guard 0, `y` falling, elastic bounce) and a
    /// ceiling at `H` (guard 1, `y − H` rising, enabled only while `v < V`).
    struct Box2;
    const PARAMS: &[Param] = &[
        Param::new("g", 9.81),
        Param::new("H", 2.0),
        Param::new("V", 100.0),
    ];
    impl HybridModel for Box2 {
        type Guard = usize;
        fn name(&self) -> &str {
            "box"
        }
        fn dim(&self) -> usize {
            2
        }
        fn modes(&self) -> usize {
            1
        }
        fn params(&self) -> &[Param] {
            PARAMS
        }
        fn autonomous(&self, _mode: usize) -> bool {
            true
        }
        fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
            dx[0] = x[1];
            dx[1] = -p[0];
        }
        fn guards(&self, _mode: usize) -> &[usize] {
            &[0, 1]
        }
        fn guard_name(&self, _mode: usize, g: usize) -> String {
            ["floor", "ceiling"][g].into()
        }
        fn describe(&self, _mode: usize, g: usize) -> GuardSpec {
            if g == 0 {
                GuardSpec::to(0).falling()
            } else {
                GuardSpec::to(0).rising().enabled_when(|p, x| x[1] < p[2])
            }
        }
        fn guard<D: Scalar>(&self, p: &[D], _mode: usize, g: usize, x: &[D]) -> D {
            if g == 0 {
                x[0]
            } else {
                x[0] - p[1]
            }
        }
        fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, _g: usize, x: &[D], out: &mut [D]) {
            out[0] = x[0];
            out[1] = -x[1];
        }
    }

    fn touches(v_max: f64) -> (Vec<GuardTouch>, Bound<Box2>) {
        let m = Bound::with_values(Box2, vec![9.81, 2.0, v_max]).unwrap();
        let mut sim = SimulateOptions {
            t_end: Some(2.0),
            dt: None,
            ..SimulateOptions::default()
        };
        sim.stride.ode = saltation_ode::SolverOptions::with_tol(1e-12);
        let x0 = [0.0, 5.0];
        let trace = simulate(&m, &x0, &sim).unwrap();
        assert!(trace.failure.is_none());
        (guard_touches(&m, &trace, 0.0, &x0, &sim.stride).unwrap(), m)
    }

    /// The ceiling's clearance `H − y` is least at the apex, `H − v0²/2g` at `t = v0/g`, in
    /// each flight (the second one after an elastic bounce at `2v0/g`); the floor, zero at each
    /// phase's start and end by construction, has no interior minimum; a ceiling not enabled
    /// at the apex is not a candidate.
    #[test]
    fn the_apex_is_the_ceilings_least_clearance() {
        let (g, v0, h) = (9.81f64, 5.0f64, 2.0);
        let (found, m) = touches(100.0);
        assert_eq!(found.len(), 2, "{found:?}");
        for (k, touch) in found.iter().enumerate() {
            assert_eq!((touch.phase, touch.guard), (k, 1));
            let clearance = h - v0 * v0 / (2.0 * g);
            assert!((touch.value - clearance).abs() < 1e-11, "{touch:?}");
            assert!(
                (touch.t - (2 * k + 1) as f64 * v0 / g).abs() < 1e-7,
                "{touch:?}"
            );
            assert_eq!(touch.name(&m), "guard:ceiling");
        }
        // Enabled only while v < −1: never at an apex (v = 0).
        assert!(touches(-1.0).0.is_empty());
    }
}
