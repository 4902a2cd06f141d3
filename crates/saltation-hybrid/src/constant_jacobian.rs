//! The variational matrix of a phase whose flow Jacobian is constant.
//!
//! In a mode with `f_x ≡ A` (the vector field is affine in the state, `f = A x + b(t)`;
//! [`EvalModel::flow_jacobian_is_constant`]) the variational equations `Φ' = A Φ` have the
//! exact solution `Φ(τ) = e^{Aτ}` over a phase of duration `τ`. The stride map then integrates
//! the state alone and multiplies the carried `Ψ` (`n × c`) by the matrix exponential at the
//! phase's end: `n` components integrated instead of `n + n c`, and a `Φ` exact to rounding for
//! the computed phase duration. The exponential is nalgebra's scaling and squaring with a Padé
//! approximant (Higham, "The scaling and squaring method for the matrix exponential
//! revisited", SIAM J. Matrix Anal. Appl. 26, 2005; Moler & Van Loan, "Nineteen dubious ways
//! to compute the exponential of a matrix, twenty-five years later", SIAM Review 45, 2003).

use crate::model::EvalModel;
use nalgebra::DMatrix;

/// `ψ ← e^{A τ} ψ` for `ψ` row-major `n × c`, `A = f_x` of `mode` evaluated at `(t, x)` (any
/// point: it is constant there); `a` is an `n × n` scratch buffer.
pub(crate) fn propagate<M: EvalModel + ?Sized>(
    model: &M,
    (mode, t, x): (usize, f64, &[f64]),
    tau: f64,
    psi: &mut [f64],
    c: usize,
    a: &mut [f64],
) {
    let n = model.dim();
    model.flow_jacobian(mode, t, x, &mut a[..n * n]);
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
    use crate::{
        AffineModes, Bound, GuardSpec, HybridModel, JacobianKind, Scalar, StrideMap, StrideOptions,
    };

    /// A damped oscillator `ẍ = −ω²x − 2ζωẋ + F` against a wall at `x = 0` (restitution
    /// `e`): affine flow, one guard; with `exact = false` it does not say so. `cubic` adds a
    /// hardening spring `−c x³`, which makes a claim of constant `f_x` false.
    struct WallOscillator {
        exact: bool,
        cubic: f64,
        /// Says the flow is autonomous (it is, unless `forcing` ≠ 0).
        autonomous: bool,
        /// A time-dependent force `forcing · sin t`, which makes a claim of autonomy false.
        forcing: f64,
    }

    impl WallOscillator {
        fn new(exact: bool) -> Self {
            Self {
                exact,
                cubic: 0.0,
                autonomous: false,
                forcing: 0.0,
            }
        }
    }

    impl HybridModel for WallOscillator {
        type Guard = usize;
        fn name(&self) -> &str {
            "wall oscillator"
        }
        fn dim(&self) -> usize {
            2
        }
        fn guards(&self, _mode: usize) -> &[usize] {
            &[0]
        }
        fn flow<D: Scalar>(&self, _: &[D], _mode: usize, t: f64, x: &[D], dx: &mut [D]) {
            let (w, zeta, force) = (3.0, 0.05, -2.0 + self.forcing * t.sin());
            dx[0] = x[1];
            dx[1] =
                x[0] * (-w * w) - x[1] * (2.0 * zeta * w) + force - x[0] * x[0] * x[0] * self.cubic;
        }
        fn autonomous(&self, _mode: usize) -> bool {
            self.autonomous
        }
        fn guard<D: Scalar>(&self, _: &[D], _mode: usize, _g: usize, x: &[D]) -> D {
            x[0]
        }
        fn describe(&self, _mode: usize, _g: usize) -> GuardSpec {
            GuardSpec::to(0).falling()
        }
        fn reset<D: Scalar>(&self, _: &[D], _mode: usize, _g: usize, x: &[D], out: &mut [D]) {
            out[0] = x[0];
            out[1] = x[1] * -0.8;
        }
        fn affine_modes(&self) -> Option<&dyn AffineModes> {
            Some(self)
        }
    }

    impl AffineModes for WallOscillator {
        fn jacobian_is_constant(&self, _mode: usize) -> bool {
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
            Bound::new(WallOscillator::new(true)),
            Bound::new(WallOscillator::new(false)),
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
            let m = WallOscillator {
                cubic,
                ..WallOscillator::new(true)
            };
            crate::ad::check_hand_written(&Bound::new(m), 0, 0.0, &[0.3, -0.2], &[0.3, -0.2], 1e-12)
        };
        assert!(check(0.0).is_ok());
        let e = check(1.0).unwrap_err();
        assert!(e.to_string().contains("said to be constant"), "{e}");
    }

    /// An autonomous affine mode is stepped exactly (`e^{Ãh}`): the stride, its period, event
    /// time gradients and Jacobian (full and seeded, `Φ` from the cached `e^{Ah}`) agree with
    /// the integrated stride to the integration tolerance, and the vector field is evaluated
    /// a few times per phase instead of at every stage.
    #[test]
    fn exact_steps_match_the_integrated_stride() {
        let opts = StrideOptions {
            events_per_stride: 3,
            ..StrideOptions::default()
        };
        let exact = Bound::new(WallOscillator {
            autonomous: true,
            ..WallOscillator::new(true)
        });
        let integrated = Bound::new(WallOscillator::new(false));
        assert!(opts.steps_exactly(&exact, 0) && !opts.steps_exactly(&integrated, 0));
        let x0 = [0.0, 1.5];
        let mut me = StrideMap::new(&exact, opts.clone()).unwrap();
        let mut mi = StrideMap::new(&integrated, opts).unwrap();
        let seed = [1.0, 0.5, -2.0, 0.25];
        let (period, v_end) = closed_form_stride(x0[1], 3);
        for kind in [
            JacobianKind::None,
            JacobianKind::StrideMap,
            JacobianKind::Monodromy,
        ] {
            let (e, i) = (me.eval(&x0, kind).unwrap(), mi.eval(&x0, kind).unwrap());
            // Exact stepping is exact to rounding; the integrated stride to its tolerance.
            assert!((e.period - period).abs() < 1e-14, "{} {period}", e.period);
            assert!((e.x[1] - v_end).abs() < 1e-14, "{:?} {v_end}", e.x);
            assert!((i.period - period).abs() < 1e-11, "{} {period}", i.period);
            assert!(e.stats.rhs_evals * 10 < i.stats.rhs_evals, "{:?}", e.stats);
            if kind == JacobianKind::None {
                continue;
            }
            let (je, ji) = (e.jacobian.unwrap(), i.jacobian.unwrap());
            assert!((&je - &ji).amax() < 1e-10, "{je}\n{ji}");
            for (ge, gi) in e.event_time_gradients.iter().zip(&i.event_time_gradients) {
                for (a, b) in ge.iter().zip(gi) {
                    assert!((a - b).abs() < 1e-10, "{ge:?} {gi:?}");
                }
            }
            let s = me.eval_seeded(&x0, kind, &seed, 2).unwrap();
            let want = &je * DMatrix::from_row_slice(2, 2, &seed);
            assert!((s.jacobian.unwrap() - want).amax() < 1e-12);
        }
    }

    /// The wall oscillator's stride of `events` impacts from `(0, v₀)` in closed form: each
    /// flight is `x(t) = F/ω² + e^{−ζωt}(C₁ cos ω_d t + C₂ sin ω_d t)` from `(0, v)`, its end
    /// the first zero of `x` (bracketed on a grid of 10⁻³, then bisected to adjacent
    /// floats), where `v ← −0.8 ẋ`. Returns the stride's duration and final velocity.
    fn closed_form_stride(v0: f64, events: usize) -> (f64, f64) {
        let (w, zeta, force): (f64, f64, f64) = (3.0, 0.05, -2.0);
        let (s, wd) = (zeta * w, w * (1.0 - zeta * zeta).sqrt());
        let (mut v, mut total) = (v0, 0.0);
        for _ in 0..events {
            let c1 = -force / (w * w);
            let c2 = (v + s * c1) / wd;
            let x = |t: f64| {
                force / (w * w) + (-s * t).exp() * (c1 * (wd * t).cos() + c2 * (wd * t).sin())
            };
            let dx = |t: f64| {
                let (c, si) = ((wd * t).cos(), (wd * t).sin());
                (-s * t).exp() * (-s * (c1 * c + c2 * si) + wd * (-c1 * si + c2 * c))
            };
            let mut b = 1e-3;
            while x(b) > 0.0 {
                b += 1e-3;
            }
            let mut a = b - 1e-3;
            while b - a > 2.0 * f64::EPSILON * b {
                let m = 0.5 * (a + b);
                if x(m) > 0.0 {
                    a = m;
                } else {
                    b = m;
                }
            }
            total += a;
            v = -0.8 * dx(a);
        }
        (total, v)
    }

    /// A false claim of an autonomous affine flow (a hardening spring) that `check_hand_written`
    /// would have caught ends the stride with a typed error instead of a wrong stride: the
    /// stepper compares the model's `f` with `A x + b` after its first step.
    #[test]
    fn a_false_claim_of_affinity_ends_the_stride() {
        let m = Bound::new(WallOscillator {
            cubic: 1.0,
            autonomous: true,
            ..WallOscillator::new(true)
        });
        let mut map = StrideMap::new(&m, StrideOptions::default()).unwrap();
        let e = map.eval(&[0.0, 1.5], JacobianKind::None).unwrap_err();
        assert!(
            matches!(
                e,
                crate::HybridError::Ode {
                    source: saltation_ode::OdeError::NotAffine { .. },
                    ..
                }
            ),
            "{e}"
        );
    }

    /// `check_hand_written` tests the claim of autonomy.
    #[test]
    fn a_false_claim_of_autonomy_is_caught() {
        let check = |forcing| {
            let m = WallOscillator {
                autonomous: true,
                forcing,
                ..WallOscillator::new(true)
            };
            crate::ad::check_hand_written(&Bound::new(m), 0, 0.3, &[0.3, -0.2], &[0.3, -0.2], 1e-12)
        };
        assert!(check(0.0).is_ok());
        let e = check(1.0).unwrap_err();
        assert!(e.to_string().contains("said to be autonomous"), "{e}");
    }
}
