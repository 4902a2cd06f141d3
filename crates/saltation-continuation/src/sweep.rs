//! Parameter sweeps in parallel (rayon): independent solves along one parameter, and a 2-D grid
//! whose rows are continued in one parameter (each solve starting from its left neighbour) while
//! the rows run in parallel — for stability maps.

use crate::error::ContinuationError;
use crate::family::ModelFamily;
use rayon::prelude::*;
use saltation_orbit::{find_periodic_orbit, OrbitOptions, PeriodicOrbit};

/// Independent solves at each parameter value, from the same guess, in parallel.
pub fn sweep_1d<F: ModelFamily>(
    family: &F,
    params: &[f64],
    guess: &[f64],
    opts: &OrbitOptions,
) -> Vec<Result<PeriodicOrbit, ContinuationError>> {
    params
        .par_iter()
        .map(|&p| {
            let model = family.model_at(p)?;
            Ok(find_periodic_orbit(&model, guess, opts)?)
        })
        .collect()
}

/// One cell of a 2-D sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct GridPoint {
    /// Row parameter.
    pub row: f64,
    /// Column parameter.
    pub col: f64,
    /// The orbit, if one was found.
    pub orbit: Option<PeriodicOrbit>,
}

/// A grid over `rows × cols`: `make_family(row)` gives the family over the column parameter;
/// each row is continued left to right (a failed cell restarts the next from the last success,
/// or from `guess`), rows in parallel.
pub fn sweep_2d<F: ModelFamily, G: Fn(f64) -> F + Sync>(
    make_family: G,
    rows: &[f64],
    cols: &[f64],
    guess: &[f64],
    opts: &OrbitOptions,
) -> Vec<Vec<GridPoint>> {
    rows.par_iter()
        .map(|&row| {
            let family = make_family(row);
            let mut last: Vec<f64> = guess.to_vec();
            cols.iter()
                .map(|&col| {
                    let orbit = family
                        .model_at(col)
                        .ok()
                        .and_then(|m| find_periodic_orbit(&m, &last, opts).ok());
                    if let Some(o) = &orbit {
                        last = o.u0.clone();
                    }
                    GridPoint { row, col, orbit }
                })
                .collect()
        })
        .collect()
}
