//! Admissibility of a periodic orbit of a constrained model: it is physical only if every
//! closed contact pushes (`λ_i ≤ 0`) through its whole contact phase, right after touchdown
//! included, and every open contact's gap stays non-negative through its free phase. The
//! stride map cannot see either failure by itself: an orbit found by shooting may pass
//! through the ground between two integration steps, or start a contact phase with a pulling
//! force whose guard never changes sign.

use crate::constraints::multiplier_index;
use crate::model::Constrained;
use crate::system::{ContactSet, MechanicalSystem};
use saltation_hybrid::{
    simulate, Admissibility, Bound, EvalModel, HybridError, SimulateOptions, StrideOptions,
    Violation, ViolationKind,
};
use serde::{Deserialize, Serialize};

/// Options of [`check_admissibility`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdmissibilityOptions {
    /// Samples per stride from the dense output (default 1000; at most 10⁶). Right after
    /// every event the state is checked exactly, whatever the sampling.
    pub samples: usize,
    /// Relative tolerance: a multiplier above `tol · max|λ|` or a gap below `−tol · max|gap|`
    /// over the stride is a violation (default 1e-9).
    pub tol: f64,
}

impl Default for AdmissibilityOptions {
    fn default() -> Self {
        Self {
            samples: 1000,
            tol: 1e-9,
        }
    }
}

/// One sampled contact condition.
struct Sample {
    t: f64,
    mode: usize,
    contact: usize,
    kind: ViolationKind,
    /// `λ_i` (pulls when positive) or `−gap` (penetrates when positive).
    excess: f64,
}

/// Checks one stride of `model` (a constrained model at its parameter values) from `x0` (a
/// state on the orbit, e.g. its fixed point) sampled `opts.samples` times and at every
/// post-event state.
pub fn check_admissibility<S: MechanicalSystem + Clone>(
    model: &Bound<Constrained<S>>,
    x0: &[f64],
    stride: &StrideOptions,
    opts: &AdmissibilityOptions,
) -> Result<Admissibility, HybridError> {
    if !((1..=1_000_000).contains(&opts.samples) && opts.tol >= 0.0 && opts.tol.is_finite()) {
        return Err(HybridError::InvalidOption {
            field: "admissibility",
            reason: "samples must be in 1..=1000000 and tol finite and ≥ 0",
        });
    }
    let mut sim = SimulateOptions {
        stride: stride.clone(),
        strides: 1,
        dt: None,
        ..SimulateOptions::default()
    };
    // A first pass for the period, then the sampled one.
    let first = simulate(model, x0, &sim)?;
    if let Some(e) = first.failure {
        return Err(e);
    }
    sim.dt = Some((first.end.0 / opts.samples as f64).max(f64::MIN_POSITIVE));
    let trace = simulate(model, x0, &sim)?;
    if let Some(e) = trace.failure {
        return Err(e);
    }
    let mut samples = Vec::new();
    for ((&t, x), &mode) in trace.t.iter().zip(&trace.x).zip(&trace.mode) {
        conditions(model, t, mode, x, &mut samples);
    }
    for e in &trace.events {
        conditions(model, e.t, e.target, &e.x_plus, &mut samples);
    }
    let scale = |kind| {
        samples
            .iter()
            .filter(|s| s.kind == kind)
            .fold(0.0f64, |m, s| m.max(s.excess.abs()))
    };
    let (lam_scale, gap_scale) = (
        scale(ViolationKind::Pulls),
        scale(ViolationKind::Penetrates),
    );
    let worst = samples
        .iter()
        .map(|s| {
            let sc = if s.kind == ViolationKind::Pulls {
                lam_scale
            } else {
                gap_scale
            };
            (s.excess / sc.max(f64::MIN_POSITIVE), s)
        })
        .filter(|(rel, _)| *rel > opts.tol)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let sys = model.model().system();
    Ok(Admissibility {
        admissible: worst.is_none(),
        violation: worst.map(|(_, s)| Violation {
            t: s.t,
            mode: model.mode_name(s.mode),
            condition: sys.contact_name(s.contact),
            kind: s.kind,
            value: if s.kind == ViolationKind::Pulls {
                s.excess
            } else {
                -s.excess
            },
            state: Vec::new(),
        }),
    })
}

/// The contact conditions of `mode` at `x`, appended to `out`.
fn conditions<S: MechanicalSystem + Clone>(
    model: &Bound<Constrained<S>>,
    t: f64,
    mode: usize,
    x: &[f64],
    out: &mut Vec<Sample>,
) {
    let (p, sys) = (model.values(), model.model().system());
    let n = sys.dofs();
    let closed = ContactSet::from_mode(mode);
    let lambda = model.model().multipliers(p, mode, x);
    for i in 0..sys.contact_count() {
        let (kind, excess) = if closed.contains(i) {
            let k = multiplier_index(sys, closed, i);
            let l = lambda.as_ref().map_or(f64::NAN, |l| l[k]);
            (ViolationKind::Pulls, l)
        } else {
            (ViolationKind::Penetrates, -sys.gap(p, i, &x[..n]))
        };
        out.push(Sample {
            t,
            mode,
            contact: i,
            kind,
            excess,
        });
    }
}
