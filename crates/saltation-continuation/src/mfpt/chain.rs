//! The transitions of the mesh Markov chain (Byl & Tedrake 2009): from every mesh point, one
//! stride at each of the terrain's `K` samples, the end states mapped to the mesh.
//!
//! Row `i` of the transient block `Q` is `Q_ij = (1/K) Σ_s w_j(u'_{i,s})` with
//! `u'_{i,s} = π(P_{p_s}(χ_{p_s}(u_i)))` ([`super::step`]) and `w_j` the interpolation weights
//! ([`super::mesh::weights`]); the absorption probability of row `i` is
//! `a_i = (fallen_i + left_i)/K`, counted exactly (the strides that fell, and those that
//! ended outside the mesh's box). Each row depends only on its mesh point and the samples, so
//! the rows are the same at any thread count and in any shard.

use super::mesh::{validate_mesh, weights};
use super::step::{Step, Stepper};
use crate::basin::BasinGrid;
use crate::error::ContinuationError;
use crate::options::stride_error;
use rayon::prelude::*;
use saltation_hybrid::{EvalModel, StrideOptions};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest number of terrain samples per mesh point.
pub const MAX_SAMPLES: usize = 100_000;

/// Largest `points × samples × 2^dim` (the transitions held before merging; 16 bytes each).
pub const MAX_TRANSITIONS: usize = 400_000_000;

/// One row of the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChainRow {
    /// `(j, Q_ij)` by increasing `j`, zero entries left out.
    pub next: Vec<(usize, f64)>,
    /// Samples whose stride fell.
    pub fallen: usize,
    /// Samples whose stride ended outside the mesh's box.
    pub left_mesh: usize,
    /// The falls by cause (sorted by cause).
    pub causes: Vec<(String, usize)>,
}

impl ChainRow {
    /// The row of `k` strides' ends: `Ok(u')` where a stride landed, `Err(cause)` where it
    /// fell; each weighs `1/k`.
    pub fn from_ends(
        mesh: &BasinGrid,
        ends: impl IntoIterator<Item = Result<Vec<f64>, String>>,
    ) -> Self {
        let mut next: Vec<(usize, f64)> = Vec::new();
        let (mut fallen, mut left_mesh, mut k) = (0, 0, 0usize);
        let mut causes: BTreeMap<String, usize> = BTreeMap::new();
        let mut w = Vec::new();
        let mut ends_w: Vec<(usize, f64)> = Vec::new();
        for e in ends {
            k += 1;
            match e {
                Err(cause) => {
                    fallen += 1;
                    *causes.entry(cause).or_default() += 1;
                }
                Ok(u) => {
                    if weights(mesh, &u, &mut w) {
                        ends_w.extend_from_slice(&w);
                    } else {
                        left_mesh += 1;
                    }
                }
            }
        }
        ends_w.sort_by_key(|&(j, _)| j);
        let inv = 1.0 / k.max(1) as f64;
        for (j, p) in ends_w {
            match next.last_mut() {
                Some((last, q)) if *last == j => *q += p * inv,
                _ => next.push((j, p * inv)),
            }
        }
        Self {
            next,
            fallen,
            left_mesh,
            causes: causes.into_iter().collect(),
        }
    }
}

/// Checks the settings of a chain and returns the number of mesh points.
pub fn validate_chain<M: EvalModel + ?Sized>(
    model: &M,
    k: usize,
    samples: &[f64],
    stride: &StrideOptions,
    mesh: &BasinGrid,
) -> Result<usize, ContinuationError> {
    stride
        .validate_for(model)
        .map_err(|e| stride_error(e, "stride"))?;
    validate_mesh(mesh, model.reduced_dim())?;
    if model.param_value(k).is_none() {
        return Err(ContinuationError::invalid(
            "param",
            format!("the model has no parameter {k}"),
        ));
    }
    if !(1..=MAX_SAMPLES).contains(&samples.len()) {
        return Err(ContinuationError::invalid(
            "samples",
            format!("{} must be in 1..={MAX_SAMPLES}", samples.len()),
        ));
    }
    let cells = mesh.cells();
    let held = cells
        .checked_mul(samples.len())
        .and_then(|n| n.checked_mul(1 << mesh.axes.len()));
    if held.is_none_or(|n| n > MAX_TRANSITIONS) {
        return Err(ContinuationError::invalid(
            "samples",
            format!(
                "{cells} mesh points × {} samples × {} weights: at most {MAX_TRANSITIONS} \
                 transitions (memory)",
                samples.len(),
                1 << mesh.axes.len()
            ),
        ));
    }
    if let Some(&bad) = samples.iter().find(|p| !p.is_finite()) {
        return Err(ContinuationError::invalid(
            "distribution",
            format!("the sample {bad} is not finite"),
        ));
    }
    Ok(cells)
}

/// The rows of the mesh points `cells` (indices below [`BasinGrid::cells`]), in that order, in
/// parallel (rayon, one point at a time per thread); `on_cell(done, total)` after each.
/// Parameter `k` takes each value of `samples` in turn; a sample the model rejects is an
/// error naming the `distribution`.
pub fn chain_rows<M: EvalModel + Clone + Send + Sync>(
    model: &M,
    k: usize,
    samples: &[f64],
    stride: &StrideOptions,
    mesh: &BasinGrid,
    cells: &[usize],
    on_cell: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<ChainRow>, ContinuationError> {
    let total = validate_chain(model, k, samples, stride, mesh)?;
    if let Some(&c) = cells.iter().find(|&&c| c >= total) {
        return Err(ContinuationError::invalid(
            "cells",
            format!("point {c} is not below the mesh's {total}"),
        ));
    }
    for &p in samples {
        if let Err(source) = model.clone().set_param_value(k, p) {
            return Err(ContinuationError::InvalidParameter {
                field: "distribution".into(),
                value: p,
                source,
            });
        }
    }
    let r = model.reduced_dim();
    let done = AtomicUsize::new(0);
    cells
        .par_iter()
        .with_max_len(1)
        .map_init(
            || Stepper::new(model, k, stride),
            |st, &c| -> Result<ChainRow, ContinuationError> {
                let u = mesh.start(c);
                let mut ends = Vec::with_capacity(samples.len());
                for &p in samples {
                    let mut out = vec![0.0; r];
                    ends.push(match st.step(p, &u, &mut out, "distribution")? {
                        Step::Landed => Ok(out),
                        Step::Fell(cause) => Err(cause),
                    });
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                on_cell(n, cells.len());
                Ok(ChainRow::from_ends(mesh, ends))
            },
        )
        .collect()
}
