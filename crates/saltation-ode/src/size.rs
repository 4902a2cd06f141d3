//! The size limit of dense matrices: an `n × n` Jacobian and its LU (implicit methods), the
//! `(n+1) × (n+1)` propagator of the exact affine stepper, the `n × n` variational matrix of a
//! stride Jacobian. Each is refused before it is allocated when it would hold more than
//! [`MAX_DENSE_ENTRIES`] numbers: a typed error ([`OdeError::TooLarge`]) instead of an
//! allocation failure that aborts the process, or an `O(n³)` factorisation that runs for hours.

use crate::OdeError;

/// Largest number of entries of one dense matrix, `2²⁰` (8 MiB of `f64`; `n ≤ 1024` for a
/// square one): its LU costs `n³/3 ≈ 3.6e8` operations, and a variational system of that size
/// `n³` per evaluation.
pub const MAX_DENSE_ENTRIES: usize = 1 << 20;

/// [`OdeError::TooLarge`] if a dense `rows × cols` matrix (`what`) exceeds
/// [`MAX_DENSE_ENTRIES`].
pub fn check_dense(what: &'static str, rows: usize, cols: usize) -> Result<(), OdeError> {
    match rows.checked_mul(cols) {
        Some(entries) if entries <= MAX_DENSE_ENTRIES => Ok(()),
        entries => Err(OdeError::TooLarge {
            what,
            rows,
            cols,
            entries: entries.unwrap_or(usize::MAX),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_on_the_entries() {
        assert!(check_dense("m", 1024, 1024).is_ok());
        assert!(check_dense("m", 1, MAX_DENSE_ENTRIES).is_ok());
        let e = check_dense("n × n Jacobian", 1025, 1025).unwrap_err();
        assert_eq!(
            e,
            OdeError::TooLarge {
                what: "n × n Jacobian",
                rows: 1025,
                cols: 1025,
                entries: 1025 * 1025
            }
        );
        assert!(e.to_string().contains("1025 × 1025"), "{e}");
        assert!(check_dense("m", usize::MAX, 2).is_err());
    }
}
