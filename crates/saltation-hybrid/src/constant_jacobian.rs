//! The variational matrix of a phase whose flow Jacobian is constant.
//!
//! In a mode with `f_x ≡ A` (the vector field is affine in the state, `f = A x + b(t)`;
//! [`HybridModel::flow_jacobian_is_constant`]) the variational equations `Φ' = A Φ` have the
//! exact solution `Φ(τ) = e^{Aτ}` over a phase of duration `τ`. The stride map then integrates
//! the state alone and multiplies the carried `Ψ` (`n × c`) by the matrix exponential at the
//! phase's end: `n` components integrated instead of `n + n c`, and a `Φ` exact to rounding for
//! the computed phase duration. The exponential is nalgebra's scaling and squaring with a Padé
//! approximant (Higham, "The scaling and squaring method for the matrix exponential
//! revisited", SIAM J. Matrix Anal. Appl. 26, 2005; Moler & Van Loan, "Nineteen dubious ways
//! to compute the exponential of a matrix, twenty-five years later", SIAM Review 45, 2003).

use crate::ad::flow_jacobian;
use crate::model::HybridModel;
use nalgebra::DMatrix;

/// `ψ ← e^{A τ} ψ` for `ψ` row-major `n × c`, `A = f_x` of `mode` evaluated at `(t, x)` (any
/// point: it is constant there); `a` is an `n × n` scratch buffer.
pub(crate) fn propagate<M: HybridModel + ?Sized>(
    model: &M,
    (mode, t, x): (usize, f64, &[f64]),
    tau: f64,
    psi: &mut [f64],
    c: usize,
    a: &mut [f64],
) {
    let n = model.dim();
    flow_jacobian(model, mode, t, x, &mut a[..n * n]);
    let e = (DMatrix::from_row_slice(n, n, &a[..n * n]) * tau).exp();
    let before = DMatrix::from_row_slice(n, c, &psi[..n * c]);
    let after = e * before;
    for i in 0..n {
        for k in 0..c {
            psi[i * c + k] = after[(i, k)];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{JacobianKind, Scalar, StrideMap, StrideOptions};

    /// A damped oscillator `ẍ = −ω²x − 2ζωẋ + F` against a wall at `x = 0` (restitution
    /// `e`): affine flow, one guard; with `exact = false` it does not say so. `cubic` adds a
    /// hardening spring `−c x³`, which makes a claim of constant `f_x` false.
    struct WallOscillator {
        exact: bool,
        cubic: f64,
    }

    impl HybridModel for WallOscillator {
        fn name(&self) -> &str {
            "wall oscillator"
        }
        fn dim(&self) -> usize {
            2
        }
        fn modes(&self) -> usize {
            1
        }
        fn guards(&self, _mode: usize) -> usize {
            1
        }
        fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
            let (w, zeta, force) = (3.0, 0.05, -2.0);
            dx[0] = x[1];
            dx[1] =
                x[0] * (-w * w) - x[1] * (2.0 * zeta * w) + force - x[0] * x[0] * x[0] * self.cubic;
        }
        fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
            x[0]
        }
        fn describe_guard(&self, _mode: usize, _j: usize) -> crate::Guard<Self> {
            crate::Guard::to(0).falling()
        }
        fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
            out[0] = x[0];
            out[1] = x[1] * -0.8;
        }
        fn flow_jacobian_is_constant(&self, _mode: usize) -> bool {
            self.exact
        }
    }

    /// The stride Jacobian with `Φ = e^{Aτ}` equals the integrated one (to the integration
    /// tolerance: the two runs take different steps), seeded or full, for both kinds.
    #[test]
    fn the_exponential_matches_the_integrated_variational_matrix() {
        let opts = StrideOptions {
            events_per_stride: 3,
            ..StrideOptions::default()
        };
        let x0 = [0.0, 1.5];
        let (exact, integrated) = (
            WallOscillator {
                exact: true,
                cubic: 0.0,
            },
            WallOscillator {
                exact: false,
                cubic: 0.0,
            },
        );
        let mut me = StrideMap::new(&exact, opts.clone()).unwrap();
        let mut mi = StrideMap::new(&integrated, opts).unwrap();
        for kind in [JacobianKind::StrideMap, JacobianKind::Monodromy] {
            let (e, i) = (me.eval(&x0, kind).unwrap(), mi.eval(&x0, kind).unwrap());
            let (je, ji) = (e.jacobian.unwrap(), i.jacobian.unwrap());
            assert!((&je - &ji).amax() < 1e-10, "{je}\n{ji}");
            assert!((e.period - i.period).abs() < 1e-12);
            for (ge, gi) in e.event_time_gradients.iter().zip(&i.event_time_gradients) {
                for (a, b) in ge.iter().zip(gi) {
                    assert!((a - b).abs() < 1e-10, "{ge:?} {gi:?}");
                }
            }
            // Only the state was integrated: fewer right-hand sides than with Φ under
            // error control.
            assert!(e.stats.rhs_evals < i.stats.rhs_evals);
            let seed = [1.0, 0.5, -2.0, 0.25];
            let s = me.eval_seeded(&x0, kind, &seed, 2).unwrap();
            let want = &je * DMatrix::from_row_slice(2, 2, &seed);
            assert!((s.jacobian.unwrap() - want).amax() < 1e-12);
        }
    }

    /// `check_hand_written` tests the claim of a constant `f_x`.
    #[test]
    fn a_false_claim_of_a_constant_jacobian_is_caught() {
        let check = |cubic| {
            let m = WallOscillator { exact: true, cubic };
            crate::ad::check_hand_written(&m, 0, 0.0, &[0.3, -0.2], &[0.3, -0.2], 1e-12)
        };
        assert!(check(0.0).is_ok());
        let e = check(1.0).unwrap_err();
        assert!(e.to_string().contains("said to be constant"), "{e}");
    }
}
