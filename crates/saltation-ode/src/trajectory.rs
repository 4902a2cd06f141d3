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
