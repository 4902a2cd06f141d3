//! The mesh of the chain: a [`BasinGrid`] over *every* reduced coordinate of the section (one
//! or two), each axis with at least two values, increasing; a state is mapped to the mesh by
//! multilinear interpolation weights.
//!
//! For a state `u` in the box, on each axis `t = (u − from)/(to − from)·(N − 1)`, `i = ⌊t⌋`
//! (at most `N − 2`), `f = t − i`: weights `1 − f` on value `i` and `f` on value `i + 1`; in
//! two dimensions the products of the two axes' weights (bilinear, four points). The weights
//! are non-negative, sum to one and reproduce `u` exactly (`Σ w_c x_c = u`), so a transition
//! into `u` becomes the transitions into its neighbours with these probabilities. A state
//! outside the box (by more than 10⁻¹² of an axis' length) has no weights: the chain counts it
//! as *left the mesh* (absorbed, reported apart from the falls).

use crate::basin::BasinGrid;
use crate::error::ContinuationError;

/// Largest number of mesh points.
pub const MAX_MESH_CELLS: usize = 1_000_000;

/// Checks `grid` as a mesh of a section of `reduced_dim` coordinates ([`BasinGrid::validate`]
/// and: every coordinate on an axis, counts ≥ 2, `from < to`, at most [`MAX_MESH_CELLS`]).
pub fn validate_mesh(grid: &BasinGrid, reduced_dim: usize) -> Result<(), ContinuationError> {
    let field = |k: usize| format!("mesh[{k}] ({})", grid.axes[k].name);
    grid.validate(reduced_dim).map_err(|e| e.within("mesh."))?;
    if grid.axes.len() != reduced_dim {
        return Err(ContinuationError::invalid(
            "mesh",
            format!(
                "{} axis/axes, but the section has {reduced_dim} reduced coordinate(s): the chain \
                 needs every one on an axis (one or two)",
                grid.axes.len()
            ),
        ));
    }
    for (k, a) in grid.axes.iter().enumerate() {
        if a.count < 2 {
            return Err(ContinuationError::invalid(
                field(k),
                "at least 2 points per axis",
            ));
        }
        if a.from >= a.to {
            return Err(ContinuationError::invalid(
                field(k),
                format!("from {} must be below to {}", a.from, a.to),
            ));
        }
    }
    if grid.cells() > MAX_MESH_CELLS {
        return Err(ContinuationError::invalid(
            "mesh",
            format!("{} points: at most {MAX_MESH_CELLS}", grid.cells()),
        ));
    }
    Ok(())
}

/// The interpolation weights of `u` on the mesh (module documentation) into `out` (cleared
/// first; zero weights left out), or `false` when `u` is outside the box.
pub fn weights(grid: &BasinGrid, u: &[f64], out: &mut Vec<(usize, f64)>) -> bool {
    out.clear();
    out.push((0, 1.0));
    for a in &grid.axes {
        let x = u[a.index];
        let n = a.count;
        let t = (x - a.from) / (a.to - a.from) * (n - 1) as f64;
        let slack = 1e-12 * (n - 1) as f64;
        if !(t >= -slack && t <= (n - 1) as f64 + slack) {
            out.clear();
            return false;
        }
        let t = t.clamp(0.0, (n - 1) as f64);
        let i = (t.floor() as usize).min(n - 2);
        let f = t - i as f64;
        let prev = std::mem::take(out);
        for (c, w) in prev {
            for (j, wj) in [(i, 1.0 - f), (i + 1, f)] {
                if wj > 0.0 {
                    out.push((c * n + j, w * wj));
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basin::BasinAxis;

    fn grid2() -> BasinGrid {
        BasinGrid {
            axes: vec![
                BasinAxis {
                    name: "a".into(),
                    index: 1,
                    from: 0.0,
                    to: 1.0,
                    count: 3,
                },
                BasinAxis {
                    name: "b".into(),
                    index: 0,
                    from: -1.0,
                    to: 1.0,
                    count: 5,
                },
            ],
            base: vec![0.0, 0.0],
        }
    }

    #[test]
    fn weights_reproduce_the_state() {
        let g = grid2();
        let mut w = Vec::new();
        for u in [
            [0.3, 0.7],
            [-1.0, 0.0],
            [1.0, 1.0],
            [0.5, 0.25],
            [-0.99, 0.999],
        ] {
            assert!(weights(&g, &u, &mut w), "{u:?}");
            let sum: f64 = w.iter().map(|p| p.1).sum();
            assert!((sum - 1.0).abs() < 1e-15);
            let mut back = [0.0; 2];
            for &(c, p) in &w {
                let x = g.start(c);
                back[0] += p * x[0];
                back[1] += p * x[1];
            }
            assert!(
                (back[0] - u[0]).abs() < 1e-14 && (back[1] - u[1]).abs() < 1e-14,
                "{u:?}"
            );
        }
        // A mesh point has weight one on itself.
        assert!(weights(&g, &g.start(7), &mut w));
        assert_eq!(w, vec![(7, 1.0)]);
        assert!(!weights(&g, &[0.0, 1.01], &mut w) && w.is_empty());
        assert!(!weights(&g, &[f64::NAN, 0.5], &mut w));
    }

    #[test]
    fn validate_mesh_names_the_problem() {
        assert_eq!(validate_mesh(&grid2(), 2), Ok(()));
        let field = |g: BasinGrid, r| match validate_mesh(&g, r) {
            Err(ContinuationError::InvalidOption { field, .. }) => field,
            o => panic!("{o:?}"),
        };
        let mut g = grid2();
        g.axes[0].count = 1;
        assert_eq!(field(g, 2), "mesh[0] (a)");
        let mut g = grid2();
        g.axes[1].from = 2.0;
        assert_eq!(field(g, 2), "mesh[1] (b)");
        let mut g = grid2();
        g.axes.pop();
        assert_eq!(field(g, 2), "mesh");
        let mut g = grid2();
        g.axes[0].count = 2000;
        g.axes[1].count = 2000;
        assert_eq!(field(g, 2), "mesh");
    }
}
