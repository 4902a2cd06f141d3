//! Dense linear algebra for the implicit methods: LU factorizations (real and complex) of the
//! `n × n` iteration matrices, solves with several right-hand sides at once (the columns of a
//! variational matrix), and the Jacobian `∂f/∂y` (the system's own, or finite differences).
//!
//! The matrices are small and dense (the state of one hybrid mode), so a plain partial-pivoting
//! LU in row-major storage is the right tool: no external BLAS, no allocation per step.

mod complex_lu;
mod jacobian;
mod lu;

pub use complex_lu::ComplexLu;
pub use jacobian::{JacobianWork, FD_FLOOR};
pub use lu::Lu;

/// A pivot was exactly zero or not finite: the matrix is singular to working precision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Singular;
