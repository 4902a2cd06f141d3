//! Balancing before the QR algorithm: isolation of eigenvalues by permutation, then diagonal
//! scaling by powers of two (Parlett and Reinsch, Numer. Math. 13 (1969) 293–304; the variant of
//! LAPACK `dgebal` since 3.5.0, which measures rows and columns in the 2-norm including the
//! diagonal, after James, Langou and Lowery, arXiv:1401.5766).
//!
//! Permutation: if row `j` of the active block has no nonzero off-diagonal entry, moving `j` to
//! the end of the block makes it block upper triangular with the 1×1 block `a_jj`, so `a_jj` is an
//! eigenvalue and `j` leaves the block; likewise a column with no nonzero off-diagonal entry
//! (moved to the front). Repeat until nothing changes. Triangular and permutation-like matrices
//! are solved exactly this way.
//!
//! Scaling: `B ← D⁻¹ B D` with `D = diag(2^{k_i})` chosen so that row and column `i` have
//! comparable norms. Powers of two make the similarity exact in floating point; it reduces
//! `‖B‖_F`, which the backward error of the QR algorithm is proportional to.

use nalgebra::DMatrix;

/// Largest number of scaling sweeps. Each sweep either changes nothing (and ends the loop) or
/// reduces `‖B‖_F` by a fixed factor, so this cap is never reached in practice.
const MAX_SWEEPS: usize = 256;

/// The outcome of the permutation step: eigenvalues read off the diagonal and the indices
/// (in their original order) of the block that still needs the QR algorithm.
pub(crate) struct Isolated {
    /// Eigenvalues isolated by permutation (exact diagonal entries of the input).
    pub(crate) eigenvalues: Vec<f64>,
    /// Row/column indices of the remaining active block.
    pub(crate) active: Vec<usize>,
}

/// Isolates eigenvalues by (implicit) symmetric permutations.
pub(crate) fn isolate(a: &DMatrix<f64>) -> Isolated {
    let n = a.nrows();
    let mut active: Vec<usize> = (0..n).collect();
    let mut eigenvalues = Vec::new();
    loop {
        let found = active.iter().position(|&j| {
            let row_clear = active.iter().all(|&k| k == j || a[(j, k)] == 0.0);
            let col_clear = active.iter().all(|&k| k == j || a[(k, j)] == 0.0);
            row_clear || col_clear
        });
        match found {
            Some(pos) => {
                let j = active.remove(pos);
                eigenvalues.push(a[(j, j)]);
            }
            None => break,
        }
    }
    Isolated {
        eigenvalues,
        active,
    }
}

/// Scales the square matrix `b` in place by a diagonal similarity with powers of two.
pub(crate) fn scale(b: &mut DMatrix<f64>) {
    const RADIX: f64 = 2.0;
    const FACTOR: f64 = 0.95;
    let n = b.nrows();
    let sfmin1 = f64::MIN_POSITIVE / f64::EPSILON;
    let sfmax1 = 1.0 / sfmin1;
    let sfmin2 = sfmin1 * RADIX;
    let sfmax2 = 1.0 / sfmin2;
    let mut scale = vec![1.0_f64; n];
    for _ in 0..MAX_SWEEPS {
        let mut noconv = false;
        for (i, sc) in scale.iter_mut().enumerate() {
            let mut c = b.column(i).norm();
            let mut r = b.row(i).norm();
            let mut ca = b.column(i).amax();
            let mut ra = b.row(i).amax();
            if c == 0.0 || r == 0.0 || !(c.is_finite() && r.is_finite()) {
                continue;
            }
            let s = c + r;
            let mut f = 1.0_f64;
            let mut g = r / RADIX;
            while c < g && f.max(c).max(ca) < sfmax2 && r.min(g).min(ra) > sfmin2 {
                f *= RADIX;
                c *= RADIX;
                ca *= RADIX;
                r /= RADIX;
                g /= RADIX;
                ra /= RADIX;
            }
            g = c / RADIX;
            while g >= r && r.max(ra) < sfmax2 && f.min(c).min(g).min(ca) > sfmin2 {
                f /= RADIX;
                c /= RADIX;
                g /= RADIX;
                ca /= RADIX;
                r *= RADIX;
                ra *= RADIX;
            }
            if c + r >= FACTOR * s {
                continue;
            }
            if f < 1.0 && *sc < 1.0 && f * *sc <= sfmin1 {
                continue;
            }
            if f > 1.0 && *sc > 1.0 && *sc >= sfmax1 / f {
                continue;
            }
            *sc *= f;
            noconv = true;
            b.row_mut(i).scale_mut(1.0 / f);
            b.column_mut(i).scale_mut(f);
        }
        if !noconv {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangular_matrix_is_fully_isolated() {
        let a = DMatrix::from_row_slice(3, 3, &[1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 0.0, 0.0, 6.0]);
        let iso = isolate(&a);
        assert!(iso.active.is_empty());
        let mut ev = iso.eigenvalues;
        ev.sort_by(f64::total_cmp);
        assert_eq!(ev, vec![1.0, 4.0, 6.0]);
    }

    #[test]
    fn scaling_equalises_a_graded_matrix() {
        let mut b = DMatrix::from_row_slice(2, 2, &[1.0, 1e8, 1e-8, 1.0]);
        let before = b.norm();
        scale(&mut b);
        assert!(b.norm() < 1e-3 * before);
        // Similarity by powers of two keeps the diagonal exactly.
        assert_eq!(b[(0, 0)], 1.0);
        assert_eq!(b[(1, 1)], 1.0);
    }
}
