//! A grid of points on the section: any number of axes over distinct reduced coordinates,
//! the others fixed. A basin's grid has one or two axes (its map is a picture,
//! [`MAX_BASIN_AXES`]); the mean first-passage time's mesh puts every reduced coordinate on an
//! axis ([`crate::mfpt::mesh`]). One numbering for both: cell `c` of axes with counts
//! `N₀, …, N_{d−1}` is the point of indices `(i₀, …, i_{d−1})` with
//! `c = ((i₀·N₁ + i₁)·N₂ + i₂)⋯` (row-major, the last axis fastest).

use crate::error::ContinuationError;
use serde::{Deserialize, Serialize};

/// Largest number of cells of one basin (10⁸: a shard file of a full grid stays addressable;
/// the outcomes of a run are held in memory, a few dozen bytes each).
pub const MAX_BASIN_CELLS: usize = 100_000_000;

/// Most axes of a basin's grid (its map is a 2-D picture).
pub const MAX_BASIN_AXES: usize = 2;

/// One axis: `count` values of reduced coordinate `index` evenly spaced from `from` to `to`
/// (`from` alone when `count = 1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BasinAxis {
    /// The coordinate's name (a state name or `u0`, `u1`, …).
    pub name: String,
    /// Its index among the reduced coordinates.
    pub index: usize,
    /// First value.
    pub from: f64,
    /// Last value.
    pub to: f64,
    /// Number of values (≥ 1).
    pub count: usize,
}

impl BasinAxis {
    /// Value `i` of the axis: `from + (to − from)·i/(count − 1)`.
    pub fn value(&self, i: usize) -> f64 {
        if self.count <= 1 {
            self.from
        } else {
            self.from + (self.to - self.from) * (i as f64) / ((self.count - 1) as f64)
        }
    }
}

/// The starts: `axes` over `base`, the reduced state whose other coordinates every start
/// shares. Cells are numbered row-major (module documentation): with two axes cell `(i, j)`
/// (value `i` of the first axis, value `j` of the second) is `i · count₁ + j`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BasinGrid {
    /// The axes (one or two for a basin; every reduced coordinate for a mesh).
    pub axes: Vec<BasinAxis>,
    /// The reduced state of the coordinates not on an axis.
    pub base: Vec<f64>,
}

impl BasinGrid {
    /// Number of cells (the product of the counts; saturating, see [`BasinGrid::validate`]).
    pub fn cells(&self) -> usize {
        self.axes
            .iter()
            .fold(1usize, |n, a| n.saturating_mul(a.count))
    }

    /// The start of cell `c`: `base` with the axes' coordinates set.
    pub fn start(&self, c: usize) -> Vec<f64> {
        let mut u = self.base.clone();
        let mut rest = c;
        for a in self.axes.iter().rev() {
            let i = rest % a.count.max(1);
            rest /= a.count.max(1);
            if let Some(v) = u.get_mut(a.index) {
                *v = a.value(i);
            }
        }
        u
    }

    /// Checks the grid as a basin's for a section of `reduced_dim` coordinates: one or two
    /// axes ([`MAX_BASIN_AXES`]) and [`BasinGrid::validate_axes`].
    pub fn validate(&self, reduced_dim: usize) -> Result<(), ContinuationError> {
        if !(1..=MAX_BASIN_AXES).contains(&self.axes.len()) {
            return Err(ContinuationError::invalid(
                "axes",
                format!("{} axes: give one or two", self.axes.len()),
            ));
        }
        self.validate_axes(reduced_dim)
    }

    /// Checks the grid for a section of `reduced_dim` coordinates, whatever its number of
    /// axes: at least one and at most `reduced_dim` axes, on distinct coordinates below
    /// `reduced_dim`, finite ends, counts ≥ 1, at most [`MAX_BASIN_CELLS`] cells, `base` of
    /// `reduced_dim` finite values.
    pub fn validate_axes(&self, reduced_dim: usize) -> Result<(), ContinuationError> {
        if self.axes.is_empty() {
            return Err(ContinuationError::invalid(
                "axes",
                "no axes: give at least one",
            ));
        }
        if self.axes.len() > reduced_dim {
            return Err(ContinuationError::invalid(
                "axes",
                format!(
                    "{} axes, but the section has {reduced_dim} reduced coordinate(s)",
                    self.axes.len()
                ),
            ));
        }
        for (k, a) in self.axes.iter().enumerate() {
            let field = format!("axes[{k}] ({})", a.name);
            if a.index >= reduced_dim {
                return Err(ContinuationError::invalid(
                    field,
                    format!(
                        "coordinate {} is not below the section's {reduced_dim}",
                        a.index
                    ),
                ));
            }
            if !a.from.is_finite() || !a.to.is_finite() {
                return Err(ContinuationError::invalid(field, "the ends must be finite"));
            }
            if a.count == 0 {
                return Err(ContinuationError::invalid(
                    field,
                    "the count must be at least 1",
                ));
            }
            if self.axes[..k].iter().any(|b| b.index == a.index) {
                return Err(ContinuationError::invalid(
                    field,
                    "the same coordinate twice",
                ));
            }
        }
        let total = self
            .axes
            .iter()
            .try_fold(1usize, |n, a| n.checked_mul(a.count));
        match total {
            Some(n) if n <= MAX_BASIN_CELLS => {}
            _ => {
                return Err(ContinuationError::invalid(
                    "axes",
                    format!(
                        "{} cells: at most {MAX_BASIN_CELLS}",
                        self.axes
                            .iter()
                            .map(|a| a.count.to_string())
                            .collect::<Vec<_>>()
                            .join(" × ")
                    ),
                ))
            }
        }
        if self.base.len() != reduced_dim {
            return Err(ContinuationError::invalid(
                "base",
                format!(
                    "has {} value(s), but the section has {reduced_dim}",
                    self.base.len()
                ),
            ));
        }
        if let Some(i) = self.base.iter().position(|v| !v.is_finite()) {
            return Err(ContinuationError::invalid(
                format!("base[{i}]"),
                "is not finite",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(index: usize, from: f64, to: f64, count: usize) -> BasinAxis {
        BasinAxis {
            name: format!("u{index}"),
            index,
            from,
            to,
            count,
        }
    }

    #[test]
    fn cells_are_row_major() {
        let g = BasinGrid {
            axes: vec![axis(1, 0.0, 1.0, 3), axis(0, 10.0, 20.0, 2)],
            base: vec![5.0, 6.0, 7.0],
        };
        assert_eq!(g.cells(), 6);
        // Cell (i, j) = i·2 + j: axis 0 (u1) value i, axis 1 (u0) value j.
        assert_eq!(g.start(0), vec![10.0, 0.0, 7.0]);
        assert_eq!(g.start(1), vec![20.0, 0.0, 7.0]);
        assert_eq!(g.start(2), vec![10.0, 0.5, 7.0]);
        assert_eq!(g.start(5), vec![20.0, 1.0, 7.0]);
        assert_eq!(g.validate(3), Ok(()));
    }

    #[test]
    fn cells_of_three_axes_are_row_major() {
        let g = BasinGrid {
            axes: vec![
                axis(2, 0.0, 1.0, 2),
                axis(0, 0.0, 2.0, 3),
                axis(1, 5.0, 8.0, 4),
            ],
            base: vec![0.0; 3],
        };
        assert_eq!(g.cells(), 24);
        // c = (i·3 + j)·4 + k: u2 value i, u0 value j, u1 value k.
        for (i, j, k) in [(0, 0, 0), (1, 2, 3), (0, 1, 2), (1, 0, 1)] {
            let c = (i * 3 + j) * 4 + k;
            assert_eq!(
                g.start(c),
                vec![j as f64, 5.0 + k as f64, i as f64],
                "{i} {j} {k}"
            );
        }
    }

    #[test]
    fn validate_names_what_is_wrong() {
        let ok = BasinGrid {
            axes: vec![axis(0, 0.0, 1.0, 2)],
            base: vec![0.0, 0.0],
        };
        assert_eq!(ok.validate(2), Ok(()));
        let bad = |edit: fn(&mut BasinGrid)| {
            let mut g = ok.clone();
            edit(&mut g);
            match g.validate(2) {
                Err(ContinuationError::InvalidOption { field, .. }) => field,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(bad(|g| g.axes.clear()), "axes");
        assert_eq!(bad(|g| g.axes[0].count = 0), "axes[0] (u0)");
        assert_eq!(bad(|g| g.axes[0].index = 2), "axes[0] (u0)");
        assert_eq!(bad(|g| g.axes[0].to = f64::NAN), "axes[0] (u0)");
        assert_eq!(bad(|g| g.axes.push(axis(0, 0.0, 1.0, 2))), "axes[1] (u0)");
        assert_eq!(
            bad(|g| {
                g.axes[0].count = usize::MAX;
                g.axes.push(axis(1, 0.0, 1.0, 3));
            }),
            "axes"
        );
        assert_eq!(bad(|g| g.base.push(1.0)), "base");
        // A basin's grid has at most two axes, a general one at most the section's dimension.
        let three = BasinGrid {
            axes: vec![
                axis(0, 0.0, 1.0, 2),
                axis(1, 0.0, 1.0, 2),
                axis(2, 0.0, 1.0, 2),
            ],
            base: vec![0.0; 3],
        };
        assert!(three.validate(3).is_err());
        assert_eq!(three.validate_axes(3), Ok(()));
        assert!(three.validate_axes(2).is_err());
        assert_eq!(bad(|g| g.base[1] = f64::INFINITY), "base[1]");
    }
}
