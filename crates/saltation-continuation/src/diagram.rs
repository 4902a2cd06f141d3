//! Orbit diagrams by brute force (as in Garcia et al.'s figure of the simplest walker): for each
//! parameter value, iterate the stride map from a start state, drop a transient, and record one
//! state component at every stride. A stride that fails (no heel-strike: the walker falls) ends
//! that parameter's run and is reported. Parameters run in parallel.

use crate::family::ModelFamily;
use rayon::prelude::*;
use saltation_hybrid::{JacobianKind, StrideMap, StrideOptions};
use saltation_ode::Atol;
use serde::{Deserialize, Serialize};

/// Settings of an orbit diagram.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OrbitDiagramOptions {
    /// Strides dropped before recording (default 200).
    pub transient: usize,
    /// Strides recorded (default 100).
    pub keep: usize,
    /// State component recorded (default 0).
    pub component: usize,
    /// Stride settings (default DOP853 at 1e-10: attractors need less than multipliers).
    pub stride: StrideOptions,
}

impl Default for OrbitDiagramOptions {
    fn default() -> Self {
        let mut stride = StrideOptions::default();
        stride.ode.rtol = 1e-10;
        stride.ode.atol = Atol::Scalar(1e-10);
        Self {
            transient: 200,
            keep: 100,
            component: 0,
            stride,
        }
    }
}

/// The attractor at one parameter value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagramColumn {
    /// Parameter value.
    pub param: f64,
    /// Recorded values of the chosen component (after the transient).
    pub values: Vec<f64>,
    /// Stride index (counting the transient) at which the run failed, if it did.
    pub failed_at: Option<usize>,
    /// Why it failed.
    pub failure: Option<String>,
}

/// Runs every parameter value in parallel from `x_start` (full state).
pub fn orbit_diagram<F: ModelFamily>(
    family: &F,
    params: &[f64],
    x_start: &[f64],
    opts: &OrbitDiagramOptions,
) -> Vec<DiagramColumn> {
    params
        .par_iter()
        .map(|&p| column(family, p, x_start, opts))
        .collect()
}

fn column<F: ModelFamily>(
    family: &F,
    p: f64,
    x_start: &[f64],
    opts: &OrbitDiagramOptions,
) -> DiagramColumn {
    let mut col = DiagramColumn {
        param: p,
        values: Vec::with_capacity(opts.keep),
        failed_at: None,
        failure: None,
    };
    let model = match family.model_at(p) {
        Ok(m) => m,
        Err(e) => {
            col.failed_at = Some(0);
            col.failure = Some(e.to_string());
            return col;
        }
    };
    let mut map = match StrideMap::new(&model, opts.stride.clone()) {
        Ok(m) => m,
        Err(e) => {
            col.failed_at = Some(0);
            col.failure = Some(e.to_string());
            return col;
        }
    };
    let mut x = x_start.to_vec();
    for k in 0..opts.transient + opts.keep {
        match map.eval(&x, JacobianKind::None) {
            Ok(r) => x = r.x,
            Err(e) => {
                col.failed_at = Some(k);
                col.failure = Some(e.to_string());
                break;
            }
        }
        if k >= opts.transient {
            col.values
                .push(x.get(opts.component).copied().unwrap_or(f64::NAN));
        }
    }
    col
}
