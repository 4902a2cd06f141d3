//! Recorded output of an integration.

use serde::{Deserialize, Serialize};

/// Which points an integration records.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub enum Sampling {
    /// Nothing but what the caller reads from the solver at the end (default).
    #[default]
    None,
    /// The start and the end of every accepted step.
    Steps,
    /// Exactly these times (ascending), from the method's dense output.
    Times(Vec<f64>),
    /// `start`, then the grid points `k·dt` in `(start, end]`, from the dense output; made as
    /// the integration reaches them (an integration that stops early at an event costs only
    /// the points it passed, however far `end` lies).
    Grid {
        /// First time recorded.
        start: f64,
        /// Grid spacing (> 0).
        dt: f64,
        /// Last time that may be recorded.
        end: f64,
    },
    /// Both [`Sampling::Steps`] and [`Sampling::Grid`]: the start and the end of every
    /// accepted step and, inside each step, the grid points `k·dt` in `(start, end]` from the
    /// dense output, in time order. Curves drawn through it are smooth however long the steps
    /// (at least one point per `dt`) and miss no fast transient (every step is there); it
    /// keeps at most the steps plus `(end − start)/dt + 1` points.
    StepsAndGrid {
        /// First time recorded.
        start: f64,
        /// Grid spacing (> 0).
        dt: f64,
        /// Last grid time.
        end: f64,
    },
}

impl Sampling {
    /// The `i`-th time to record, `None` past the last (for [`Sampling::Times`] and
    /// [`Sampling::Grid`], and the grid of [`Sampling::StepsAndGrid`]; `None` for the others).
    pub fn time(&self, i: usize) -> Option<f64> {
        match self {
            Sampling::Times(times) => times.get(i).copied(),
            &Sampling::Grid { start, dt, end } | &Sampling::StepsAndGrid { start, dt, end } => {
                if i == 0 {
                    return (start <= end).then_some(start);
                }
                // The first grid point after `start`; one that rounding puts on `start` (or
                // within a few ulps of it, `0.3` and `3·0.1`) is `start` itself.
                let mut k0 = (start / dt).floor() + 1.0;
                if k0 * dt - start <= 4.0 * f64::EPSILON * start.abs() {
                    k0 += 1.0;
                }
                let s = (k0 + (i - 1) as f64) * dt;
                (s <= end).then_some(s)
            }
            Sampling::None | Sampling::Steps => None,
        }
    }
}

/// Times and states of an integration, row-major (`y[k*dim .. (k+1)*dim]` at `t[k]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Trajectory {
    /// State dimension.
    pub dim: usize,
    /// Sample times.
    pub t: Vec<f64>,
    /// States, one row per time.
    pub y: Vec<f64>,
    /// What to record.
    pub sampling: Sampling,
    #[serde(skip)]
    pub(crate) cursor: usize,
}

impl Trajectory {
    /// An empty trajectory that records per `sampling`.
    pub fn new(sampling: Sampling) -> Self {
        Self {
            sampling,
            ..Self::default()
        }
    }

    /// Number of recorded points.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// State at sample `k`.
    pub fn state(&self, k: usize) -> &[f64] {
        &self.y[k * self.dim..(k + 1) * self.dim]
    }

    /// Component `i` over all samples.
    pub fn component(&self, i: usize) -> Vec<f64> {
        (0..self.len()).map(|k| self.y[k * self.dim + i]).collect()
    }

    pub(crate) fn push(&mut self, t: f64, y: &[f64]) {
        self.dim = y.len();
        self.t.push(t);
        self.y.extend_from_slice(y);
    }
}

#[cfg(test)]
mod tests {
    use super::Sampling;

    fn times(s: &Sampling) -> Vec<f64> {
        (0..).map_while(|i| s.time(i)).collect()
    }

    #[test]
    fn a_grid_is_its_start_then_the_multiples_of_dt_after_it() {
        let grid = |start, dt, end| times(&Sampling::Grid { start, dt, end });
        assert_eq!(grid(0.0, 0.25, 1.0), [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(grid(0.1, 0.25, 0.7), [0.1, 0.25, 0.5]);
        // 0.3/0.1 rounds below 3 and 3·0.1 above 0.3: no second sample at the start.
        assert_eq!(grid(0.3, 0.1, 0.65), [0.3, 4.0 * 0.1, 5.0 * 0.1, 6.0 * 0.1]);
        assert_eq!(grid(-0.5, 0.5, 0.4), [-0.5, 0.0]);
        assert!(grid(2.0, 0.5, 1.0).is_empty());
        // A far end costs nothing until the points are asked for.
        let far = Sampling::Grid {
            start: 0.0,
            dt: 1e-3,
            end: 1e12,
        };
        assert_eq!(far.time(1_000), Some(1.0));
        assert_eq!(times(&Sampling::Times(vec![1.0, 2.0])), [1.0, 2.0]);
        assert!(Sampling::Steps.time(0).is_none());
    }
}
