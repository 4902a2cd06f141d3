//! The mesh of the chain: a [`BasinGrid`] over *every* reduced coordinate of the section (any
//! number `d` of axes, one per coordinate; cells numbered row-major as in
//! [`crate::basin::grid`]), each axis with at least two values, increasing; a state is mapped
//! to the mesh by multilinear interpolation weights.
//!
//! For a state `u` in the box, on each axis `a` (of `N_a` values from `from_a` to `to_a`)
//! `t_a = (u_a − from_a)/(to_a − from_a)·(N_a − 1)`, `i_a = ⌊t_a⌋` (at most `N_a − 2`),
//! `f_a = t_a − i_a`. The weight of the corner `(i_0 + e_0, …, i_{d−1} + e_{d−1})`,
//! `e ∈ {0, 1}^d`, is the product `Π_a (e_a ? f_a : 1 − f_a)` (linear on one axis, bilinear
//! on two, trilinear on three: at most `2^d` points, zero weights left out). The weights are
//! non-negative, sum to one (`Π_a ((1 − f_a) + f_a) = 1`) and reproduce `u` exactly
//! (`Σ w_c x_c = u`, axis by axis), so a transition into `u` becomes the transitions into
//! its neighbours with these probabilities. A state outside the box (by more than 10⁻¹² of an
//! axis' length) has no weights: the chain counts it as *left the mesh* (absorbed, reported
//! apart from the falls). The number of axes is bounded by the section's dimension and, since
//! every axis has at least two values, by `log₂` [`MAX_MESH_CELLS`] (19); the transitions held,
//! `points × samples × 2^d`, are bounded by [`super::chain::MAX_TRANSITIONS`] (memory).

use crate::basin::BasinGrid;
use crate::error::ContinuationError;

/// Largest number of mesh points.
pub const MAX_MESH_CELLS: usize = 1_000_000;

/// Checks `grid` as a mesh of a section of `reduced_dim` coordinates
/// ([`BasinGrid::validate_axes`] and: every coordinate on an axis, counts ≥ 2, `from < to`, at
/// most [`MAX_MESH_CELLS`]).
pub fn validate_mesh(grid: &BasinGrid, reduced_dim: usize) -> Result<(), ContinuationError> {
    let field = |k: usize| format!("mesh[{k}] ({})", grid.axes[k].name);
    grid.validate_axes(reduced_dim)
        .map_err(|e| e.within("mesh."))?;
    if grid.axes.len() != reduced_dim {
        return Err(ContinuationError::invalid(
            "mesh",
            format!(
                "{} axis/axes, but the section has {reduced_dim} reduced coordinate(s): the chain \
                 needs every one on an axis",
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

    fn grid3() -> BasinGrid {
        let axis = |name: &str, index, from, to, count| BasinAxis {
            name: name.into(),
            index,
            from,
            to,
            count,
        };
        BasinGrid {
            axes: vec![
                axis("a", 2, -1.0, 1.0, 3),
                axis("b", 0, 0.0, 1.0, 4),
                axis("c", 1, 2.0, 3.0, 2),
            ],
            base: vec![0.0; 3],
        }
    }

    #[test]
    fn trilinear_weights_are_the_products_of_the_axes_weights() {
        let g = grid3();
        assert_eq!(validate_mesh(&g, 3), Ok(()));
        let mut w = Vec::new();
        // u = (u0, u1, u2): on axis a (u2) t = 1.5, on b (u0) t = 0.6, on c (u1) t = 0.25.
        let u = [0.2, 2.25, 0.5];
        assert!(weights(&g, &u, &mut w));
        assert_eq!(w.len(), 8);
        let mut expect = Vec::new();
        for (i, wi) in [(1, 0.5), (2, 0.5)] {
            for (j, wj) in [(0, 0.4), (1, 0.6)] {
                for (k, wk) in [(0, 0.75), (1, 0.25)] {
                    expect.push(((i * 4 + j) * 2 + k, wi * wj * wk));
                }
            }
        }
        for ((c, p), (ce, pe)) in w.iter().zip(&expect) {
            assert_eq!(c, ce);
            assert!((p - pe).abs() < 1e-15, "{c}: {p} {pe}");
        }
        let mut back = [0.0; 3];
        for &(c, p) in &w {
            for (b, x) in back.iter_mut().zip(g.start(c)) {
                *b += p * x;
            }
        }
        for (b, x) in back.iter().zip(u) {
            assert!((b - x).abs() < 1e-14);
        }
        // On a face of the box: a corner's weight only.
        assert!(weights(&g, &g.start(23), &mut w));
        assert_eq!(w, vec![(23, 1.0)]);
        assert!(!weights(&g, &[0.5, 3.5, 0.0], &mut w));
        // Four axes on a three-coordinate section, or two: refused.
        let mut four = grid3();
        four.axes.push(four.axes[0].clone());
        four.axes[3].index = 3;
        assert!(validate_mesh(&four, 3).is_err());
        let mut two = grid3();
        two.axes.pop();
        assert!(validate_mesh(&two, 3).is_err());
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
