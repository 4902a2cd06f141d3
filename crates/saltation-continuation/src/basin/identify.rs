//! The attractors of a basin, identified from the per-cell outcomes in cell order.

use super::{BasinGrid, BasinOptions, StartOutcome};
use crate::corrector::composed_events;
use crate::error::ContinuationError;
use saltation_hybrid::{EvalModel, JacobianKind, StrideMap, StrideOptions};
use saltation_orbit::{find_periodic_orbit, Multiplier, OrbitOptions};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Cell value of a start that failed.
pub const CELL_FAILED: i64 = -1;

/// Cell value of a start that stayed undecided (or whose attractor could not be solved).
pub const CELL_UNDECIDED: i64 = -2;

/// Cause of an undecided cell that ran all its strides.
const NOT_CONVERGED: &str = "not converged within the strides";

/// One attractor: a periodic orbit of least period `period_k` strides.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attractor {
    /// Its id: attractors are numbered in the order of the first cell reaching them.
    pub id: usize,
    /// `A<id> (period <k>)`, with `, unstable` for an orbit not stable (a start on it).
    pub label: String,
    /// A point of the orbit on the section (full state, just after the stride's last reset):
    /// the Newton solution from the first cell's iterate.
    pub x0: Vec<f64>,
    /// The same point in reduced coordinates.
    pub u0: Vec<f64>,
    /// The mode its strides start in.
    pub mode: usize,
    /// Least period in strides.
    pub period_k: usize,
    /// Duration of the `period_k` strides.
    pub period: f64,
    /// Floquet multipliers of the `period_k`-fold stride map, by decreasing modulus.
    pub multipliers: Vec<Multiplier>,
    /// Whether every multiplier lies strictly inside the unit circle.
    pub stable: bool,
    /// The first cell that reached it.
    pub first_cell: usize,
    /// The `period_k` points of its cycle (reduced coordinates) and their modes.
    pub cycle: Vec<(Vec<f64>, usize)>,
}

/// A basin: the attractors, the cell values (attractor id, [`CELL_FAILED`] or
/// [`CELL_UNDECIDED`]) row-major over the grid, and the causes of the failed and undecided
/// cells with their counts (in the order of the first cell of each).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BasinResult {
    /// The grid.
    pub grid: BasinGrid,
    /// The attractors by id.
    pub attractors: Vec<Attractor>,
    /// One value per cell.
    pub cells: Vec<i64>,
    /// Why cells failed, with how many.
    pub failure_causes: Vec<(String, usize)>,
    /// Why cells are undecided, with how many.
    pub undecided_causes: Vec<(String, usize)>,
}

/// Counts of causes in the order first met.
#[derive(Default)]
struct Causes {
    list: Vec<(String, usize)>,
    index: HashMap<String, usize>,
}

impl Causes {
    fn add(&mut self, cause: &str) {
        match self.index.get(cause) {
            Some(&i) => self.list[i].1 += 1,
            None => {
                self.index.insert(cause.to_string(), self.list.len());
                self.list.push((cause.to_string(), 1));
            }
        }
    }
}

/// `‖a − b‖∞ ≤ tol · max(1, ‖a‖∞)`.
fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    let scale = a.iter().fold(1.0f64, |s, v| s.max(v.abs()));
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol * scale)
}

/// Whether `(u, mode)` lies on `cycle`.
fn on_cycle(cycle: &[(Vec<f64>, usize)], u: &[f64], mode: usize, tol: f64) -> bool {
    cycle.iter().any(|(p, m)| *m == mode && close(u, p, tol))
}

/// The `k` points of the cycle from `u0` in `mode` (reduced coordinates and modes), by `k`
/// strides; `None` if a stride fails.
fn cycle_of<M: EvalModel + ?Sized>(
    model: &M,
    stride: &StrideOptions,
    u0: &[f64],
    mode: usize,
    k: usize,
) -> Option<Vec<(Vec<f64>, usize)>> {
    let (n, r) = (model.dim(), model.reduced_dim());
    let mut x = vec![0.0; n];
    model.chart(u0, &mut x);
    let mut out = vec![(u0.to_vec(), mode)];
    let mut m = mode;
    for _ in 1..k {
        let mut o = stride.clone();
        o.start_mode = m;
        let res = StrideMap::new(model, o)
            .ok()?
            .eval(&x, JacobianKind::None)
            .ok()?;
        x = res.x;
        m = res.mode;
        let mut u = vec![0.0; r];
        model.project(&x, &mut u);
        out.push((u, m));
    }
    Some(out)
}

/// The orbit through `u` in `mode` as a fixed point of the `k`-fold stride map, by Newton.
fn solve_k<M: EvalModel + ?Sized>(
    model: &M,
    orbit: &OrbitOptions,
    u: &[f64],
    mode: usize,
    k: usize,
) -> Result<saltation_orbit::PeriodicOrbit, ContinuationError> {
    let mut o = orbit.clone();
    o.stride.start_mode = mode;
    o.stride.events_per_stride = composed_events(orbit.stride.events_per_stride, k)?;
    Ok(find_periodic_orbit(model, u, &o)?)
}

/// A new attractor from the converged iterate `u` (in `mode`, return period `k`): Newton on
/// the `k`-fold map, the least period `d | k` of the solution, Newton again on the `d`-fold
/// map when `d < k`. `Err` with the cause when Newton fails or the orbit found does not pass
/// through `u`.
fn new_attractor<M: EvalModel + ?Sized>(
    model: &M,
    orbit: &OrbitOptions,
    opts: &BasinOptions,
    u: &[f64],
    mode: usize,
    k: usize,
    cell: usize,
) -> Result<Attractor, String> {
    let newton_failed =
        |e: ContinuationError| format!("Newton from the converged iterate failed: {e}");
    let mut o = solve_k(model, orbit, u, mode, k).map_err(newton_failed)?;
    let full = cycle_of(model, &orbit.stride, &o.u0, mode, k)
        .ok_or_else(|| "a stride of the orbit found by Newton failed".to_string())?;
    // Least period: the first d | k whose point is the start again.
    let d = (1..=k)
        .find(|&d| {
            k.is_multiple_of(d)
                && (d == k || {
                    let (p, m) = &full[d];
                    *m == mode && close(&o.u0, p, opts.dedup_tol)
                })
        })
        .unwrap_or(k);
    let mut cycle = full;
    if d < k {
        o = solve_k(model, orbit, &o.u0, mode, d).map_err(newton_failed)?;
        cycle = cycle_of(model, &orbit.stride, &o.u0, mode, d)
            .ok_or_else(|| "a stride of the orbit found by Newton failed".to_string())?;
    }
    if !on_cycle(&cycle, u, mode, opts.dedup_tol) {
        return Err(
            "Newton from the converged iterate went to another orbit (raise --strides or lower tol)"
                .into(),
        );
    }
    Ok(Attractor {
        id: 0,
        label: String::new(),
        x0: o.x0,
        u0: o.u0,
        mode,
        period_k: d,
        period: o.period,
        multipliers: o.multipliers,
        stable: o.stable,
        first_cell: cell,
        cycle,
    })
}

/// The attractors and cell values of the outcomes of every cell of `grid` (in cell order:
/// `outcomes[c]` is cell `c`'s), with the orbit settings `orbit` (its stride settings those the
/// cells were iterated with). Deterministic: it depends only on its arguments.
///
/// Errors: `outcomes` not of the grid's length, or bad options.
pub fn identify<M: EvalModel + ?Sized>(
    model: &M,
    orbit: &OrbitOptions,
    opts: &BasinOptions,
    grid: &BasinGrid,
    outcomes: &[StartOutcome],
) -> Result<BasinResult, ContinuationError> {
    opts.validate()?;
    grid.validate(model.reduced_dim())?;
    if outcomes.len() != grid.cells() {
        return Err(ContinuationError::invalid(
            "outcomes",
            format!(
                "{} outcome(s) for a grid of {} cells",
                outcomes.len(),
                grid.cells()
            ),
        ));
    }
    let mut attractors: Vec<Attractor> = Vec::new();
    let mut cells = Vec::with_capacity(outcomes.len());
    let mut failures = Causes::default();
    let mut undecided = Causes::default();
    for (c, outcome) in outcomes.iter().enumerate() {
        let value = match outcome {
            StartOutcome::Failed { cause, .. } => {
                failures.add(cause);
                CELL_FAILED
            }
            StartOutcome::Undecided => {
                undecided.add(NOT_CONVERGED);
                CELL_UNDECIDED
            }
            StartOutcome::Converged {
                u, mode, period_k, ..
            } => {
                let known = attractors
                    .iter()
                    .position(|a| on_cycle(&a.cycle, u, *mode, opts.dedup_tol));
                match known {
                    Some(id) => id as i64,
                    None => match new_attractor(model, orbit, opts, u, *mode, *period_k, c) {
                        Err(cause) => {
                            undecided.add(&cause);
                            CELL_UNDECIDED
                        }
                        Ok(mut a) => {
                            // An orbit already known, reached from a point off its cycle.
                            let same = attractors.iter().position(|b| {
                                b.period_k == a.period_k
                                    && on_cycle(&b.cycle, &a.u0, a.mode, opts.dedup_tol)
                            });
                            match same {
                                Some(id) => id as i64,
                                None => {
                                    a.id = attractors.len();
                                    let unstable = if a.stable { "" } else { ", unstable" };
                                    a.label =
                                        format!("A{} (period {}{unstable})", a.id, a.period_k);
                                    attractors.push(a);
                                    (attractors.len() - 1) as i64
                                }
                            }
                        }
                    },
                }
            }
        };
        cells.push(value);
    }
    Ok(BasinResult {
        grid: grid.clone(),
        attractors,
        cells,
        failure_causes: failures.list,
        undecided_causes: undecided.list,
    })
}

impl BasinResult {
    /// The fraction of cells of each attractor (by id), failed and undecided.
    pub fn fractions(&self) -> (Vec<f64>, f64, f64) {
        let n = self.cells.len().max(1) as f64;
        let mut per = vec![0usize; self.attractors.len()];
        let (mut failed, mut undecided) = (0usize, 0usize);
        for &v in &self.cells {
            match v {
                CELL_FAILED => failed += 1,
                v if v >= 0 => {
                    if let Some(p) = per.get_mut(v as usize) {
                        *p += 1;
                    }
                }
                _ => undecided += 1,
            }
        }
        (
            per.iter().map(|&p| p as f64 / n).collect(),
            failed as f64 / n,
            undecided as f64 / n,
        )
    }
}
