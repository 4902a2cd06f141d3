//! The constant mass matrix `M` of `M y' = f(t, y)` as the one-step stiff methods need it:
//! identity, invertible (then `y' = M⁻¹ f` is available from one LU made at the start), or
//! singular (an index-1 DAE: only the methods that accept one go on).
//!
//! `M` counts as singular when its LU meets a zero pivot or when its 1-norm condition number
//! `κ₁ = ‖M‖₁ ‖M⁻¹‖₁` exceeds `1 / (n ε)`, the form of the test MATLAB's solvers make before
//! they treat a problem as a DAE (`ε · nnz(M) · cond(M) > 1`).

use crate::linalg::{JacobianWork, Lu};

/// Which kind of mass matrix the system has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum MassKind {
    /// `M = I` (no mass matrix given).
    #[default]
    Identity,
    /// A nonsingular `M`.
    Invertible,
    /// A singular `M` (a differential-algebraic system).
    Singular,
}

/// The mass matrix's kind and, when it is invertible, its LU factors.
#[derive(Debug, Clone, Default)]
pub(crate) struct Mass {
    kind: MassKind,
    lu: Lu,
}

impl Mass {
    /// Classifies the mass matrix read by [`JacobianWork::setup`].
    pub(crate) fn classify(jw: &JacobianWork) -> Self {
        let Some(m) = jw.mass() else {
            return Self::default();
        };
        let n = jw.n();
        let mut lu = Lu::new();
        lu.matrix_mut(n).copy_from_slice(m);
        if lu.factor().is_err() {
            return Self {
                kind: MassKind::Singular,
                lu,
            };
        }
        // ‖M⁻¹‖₁ from the n columns of M⁻¹ (once per start; the state of one mode is small).
        let mut col = vec![0.0; n];
        let mut inv_norm: f64 = 0.0;
        for j in 0..n {
            col.fill(0.0);
            col[j] = 1.0;
            lu.solve(&mut col);
            inv_norm = inv_norm.max(col.iter().map(|v| v.abs()).sum());
        }
        let m_norm = (0..n)
            .map(|j| (0..n).map(|i| m[i * n + j].abs()).sum::<f64>())
            .fold(0.0, f64::max);
        let cond = m_norm * inv_norm;
        let kind = if !(cond * n as f64 * f64::EPSILON <= 1.0) {
            MassKind::Singular
        } else {
            MassKind::Invertible
        };
        Self { kind, lu }
    }

    /// The kind of `M`.
    pub(crate) fn kind(&self) -> MassKind {
        self.kind
    }

    /// Whether `M` is singular.
    pub(crate) fn is_singular(&self) -> bool {
        self.kind == MassKind::Singular
    }

    /// Writes the derivative `y' = M⁻¹ f` of a full state vector (`x` and every column of a
    /// variational `Φ`) into `out`; returns `false` (leaving `out` as it was) for a singular `M`.
    pub(crate) fn derivative(&self, jw: &JacobianWork, f: &[f64], out: &mut [f64]) -> bool {
        match self.kind {
            MassKind::Identity => {
                out.copy_from_slice(f);
                true
            }
            MassKind::Invertible => {
                out.copy_from_slice(f);
                jw.solve(&self.lu, out);
                true
            }
            MassKind::Singular => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::OdeSystem;

    struct WithMass(Vec<f64>);
    impl OdeSystem for WithMass {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
            dy.copy_from_slice(y);
        }
        fn mass_matrix(&self) -> Option<Vec<f64>> {
            Some(self.0.clone())
        }
    }

    fn kind_of(m: [f64; 4]) -> MassKind {
        let mut jw = JacobianWork::default();
        jw.setup(&WithMass(m.to_vec())).unwrap();
        Mass::classify(&jw).kind()
    }

    #[test]
    fn classifies_identity_invertible_and_singular_mass_matrices() {
        let mut jw = JacobianWork::default();
        jw.setup(&crate::FnSystem::new(
            2,
            |_t, _y: &[f64], _d: &mut [f64]| {},
        ))
        .unwrap();
        assert_eq!(Mass::classify(&jw).kind(), MassKind::Identity);
        assert_eq!(kind_of([2.0, 1.0, 0.0, 3.0]), MassKind::Invertible);
        assert_eq!(kind_of([1.0, 0.0, 0.0, 0.0]), MassKind::Singular);
        // No zero pivot, but singular to working precision (κ₁ ≈ 4 / 1.1e-15).
        assert_eq!(kind_of([1.0, 1.0, 1.0, 1.0 + 1e-15]), MassKind::Singular);
        assert_eq!(kind_of([0.0; 4]), MassKind::Singular);
    }

    #[test]
    fn derivative_solves_with_the_mass_matrix() {
        let mut jw = JacobianWork::default();
        jw.setup(&WithMass(vec![2.0, 1.0, 0.0, 4.0])).unwrap();
        let mass = Mass::classify(&jw);
        // M [1, 2] = [4, 8].
        let mut out = [0.0; 2];
        assert!(mass.derivative(&jw, &[4.0, 8.0], &mut out));
        assert!((out[0] - 1.0).abs() < 1e-15 && (out[1] - 2.0).abs() < 1e-15);
    }
}
