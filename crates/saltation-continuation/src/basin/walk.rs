//! One start of a basin iterated by the stride map, and all the starts of a grid in parallel.

use super::{BasinGrid, BasinOptions};
use crate::diagram::failure_cause;
use crate::error::ContinuationError;
use crate::options::stride_error;
use rayon::prelude::*;
use saltation_hybrid::{EvalModel, JacobianKind, ModeStrides, StrideOptions};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What became of one start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum StartOutcome {
    /// Converged to a cycle of `period_k` strides: the last iterate `u` (reduced coordinates),
    /// the mode its next stride starts in, and the strides taken.
    Converged {
        /// The last iterate.
        u: Vec<f64>,
        /// The mode it is in.
        mode: usize,
        /// The return period detected.
        period_k: usize,
        /// Strides taken.
        strides: usize,
    },
    /// A stride failed: at which stride (0 for the first) and why, in the model's words.
    Failed {
        /// Index of the failed stride.
        stride: usize,
        /// The cause ([`crate::failure_cause`]).
        cause: String,
    },
    /// Neither after all the strides.
    Undecided,
}

/// Iterates the start `u0` (reduced coordinates) stride by stride (module documentation of
/// [`crate::basin`]) with `strides`, restarted in the stride options' start mode (its maps,
/// made when first needed, are kept from start to start).
fn walk_with<'m, M: EvalModel + ?Sized>(
    model: &'m M,
    opts: &BasinOptions,
    strides: &mut ModeStrides<'m, M>,
    u0: &[f64],
) -> StartOutcome {
    let (n, r) = (model.dim(), model.reduced_dim());
    let keep = opts.max_period + 1;
    // The last `max_period + 1` iterates and their modes, a ring.
    let mut ring: Vec<(Vec<f64>, usize)> = Vec::with_capacity(keep);
    let mut x = vec![0.0; n];
    model.chart(u0, &mut x);
    strides.restart();
    ring.push((u0.to_vec(), strides.mode()));
    for j in 0..opts.strides {
        match strides.step(&x, JacobianKind::None) {
            Ok(res) => x = res.x,
            Err(e) => {
                return StartOutcome::Failed {
                    stride: j,
                    cause: failure_cause(model, &e),
                }
            }
        }
        let mode = strides.mode();
        let mut u = vec![0.0; r];
        model.project(&x, &mut u);
        if let Some(i) = u.iter().position(|v| !v.is_finite()) {
            return StartOutcome::Failed {
                stride: j,
                cause: format!("the section coordinate {i} became non-finite"),
            };
        }
        let scale = u.iter().fold(1.0f64, |s, v| s.max(v.abs()));
        let len = ring.len();
        for k in 1..=opts.max_period.min(len) {
            let (past, past_mode) = &ring[len - k];
            let d = u
                .iter()
                .zip(past)
                .fold(0.0f64, |d, (a, b)| d.max((a - b).abs()));
            if *past_mode == mode && d <= opts.tol * scale {
                return StartOutcome::Converged {
                    u,
                    mode,
                    period_k: k,
                    strides: j + 1,
                };
            }
        }
        // Keep the ring in order, oldest first: at most `keep` entries.
        if ring.len() == keep {
            ring.remove(0);
        }
        ring.push((u, mode));
    }
    StartOutcome::Undecided
}

/// [`walk_with`] on fresh stride maps: the outcome of the start `u0` alone.
pub fn walk<M: EvalModel + ?Sized>(
    model: &M,
    stride: &StrideOptions,
    opts: &BasinOptions,
    u0: &[f64],
) -> StartOutcome {
    walk_with(model, opts, &mut ModeStrides::new(model, stride), u0)
}

/// The outcomes of the cells `cells` of `grid` (indices below [`BasinGrid::cells`]), in
/// that order, in parallel (rayon, work-stealing: one cell at a time per thread, so slow and
/// fast cells balance). `on_cell(done, total)` is called from the workers after each cell
/// (`done` counts up, possibly out of order between threads; keep it short).
///
/// Checks first: `stride` ([`StrideOptions::validate_for`], named `stride.*`), `opts`
/// ([`BasinOptions::validate`]), `grid` ([`BasinGrid::validate`]) and every cell index.
pub fn basin_cells<M: EvalModel + Sync + ?Sized>(
    model: &M,
    stride: &StrideOptions,
    grid: &BasinGrid,
    opts: &BasinOptions,
    cells: &[usize],
    on_cell: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<StartOutcome>, ContinuationError> {
    stride
        .validate_for(model)
        .map_err(|e| stride_error(e, "stride"))?;
    opts.validate()?;
    grid.validate(model.reduced_dim())?;
    let total = grid.cells();
    if let Some(&c) = cells.iter().find(|&&c| c >= total) {
        return Err(ContinuationError::invalid(
            "cells",
            format!("cell {c} is not below the grid's {total}"),
        ));
    }
    let done = AtomicUsize::new(0);
    Ok(cells
        .par_iter()
        .with_max_len(1)
        .map_init(
            || ModeStrides::new(model, stride),
            |strides, &c| {
                let o = walk_with(model, opts, strides, &grid.start(c));
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                on_cell(n, cells.len());
                o
            },
        )
        .collect())
}
