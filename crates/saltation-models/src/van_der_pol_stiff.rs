//! The van der Pol oscillator in Hairer & Wanner's scaled stiff form (VDPOL).
//!
//! With `μ = 1/√ε` and the time scaled by `μ` (so that the period of the relaxation oscillation
//! stays of order one as `μ → ∞`), van der Pol's equation `z'' − μ(1 − z²) z' + z = 0` becomes
//!
//! ```text
//! y1' = y2
//! y2' = ((1 − y1²) y2 − y1) / ε
//! ```
//!
//! (Hairer & Wanner, *Solving Ordinary Differential Equations II*, 2nd ed. 1996, §IV.1;
//! problem VDPOL of the Test Set for IVP Solvers of Mazzia & Magherini, with
//! `ε = 10⁻⁶`, `y(0) = (2, 0)`, `t ∈ [0, 2]`). For small `ε` the solution follows the slow
//! manifold `y2 = y1 / (1 − y1²)` and jumps in time `O(ε)` when it reaches `|y1| = 1`; the
//! period is about 1.614, so `[0, 2]` holds two jumps (near `t ≈ 0.807` and `1.614`, where
//! `|y2|` reaches about `1.33·10⁶`; computed here with radau5 at tolerance 1e-9). The Jacobian
//!
//! ```text
//! f_y = [[0, 1], [(−2 y1 y2 − 1)/ε, (1 − y1²)/ε]]
//! ```
//!
//! has an eigenvalue near `(1 − y1²)/ε ≈ −3·10⁶` on the slow manifold at `y1 = 2`.
//!
//! This is a plain ODE (one mode, no guards); [`crate::VanDerPol`] is the unscaled oscillator
//! with a Poincaré section, whose `epsilon` is the damping `μ`, not this `ε`. Reference solution:
//! [`crate::reference::vdpol`].

use saltation_hybrid::{FlowJacobian, HybridModel, Limit, Param, Scalar};

/// Index of `ε` in the parameter vector.
pub const EPS: usize = 0;

/// The scaled oscillator's parameter: `ε = 1/μ² > 0` (default 10⁻⁶, the test-set value): the
/// smaller, the stiffer.
pub const PARAMS: &[Param] = &[Param::new("eps", 1.0e-6)
    .above(Limit::Open(0.0))
    .described("eps > 0 (eps = 1/mu^2; stiff for eps << 1)")];

/// The scaled van der Pol oscillator `y1' = y2`, `ε y2' = (1 − y1²) y2 − y1` (its equations;
/// the parameter is `eps`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct VanDerPolStiff;

impl HybridModel for VanDerPolStiff {
    saltation_hybrid::no_guards!();
    fn name(&self) -> &str {
        "van_der_pol_stiff"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn mode_name(&self, _mode: usize) -> String {
        "flow".into()
    }
    fn state_names(&self) -> Vec<String> {
        vec!["y1".into(), "y2".into()]
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = ((-x[0] * x[0] + 1.0) * x[1] - x[0]) / p[EPS];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
}

impl FlowJacobian for VanDerPolStiff {
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        self.flow(p, mode, t, x, dx);
        let eps = p[EPS];
        jac.copy_from_slice(&[
            0.0,
            1.0,
            (-2.0 * x[0] * x[1] - 1.0) / eps,
            (1.0 - x[0] * x[0]) / eps,
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saltation_hybrid::ad::flow_jacobian_ad;
    use saltation_hybrid::{Bound, EvalModel};

    #[test]
    fn jacobian_matches_ad() {
        let m = Bound::new(VanDerPolStiff);
        let (mut hand, mut ad) = ([0.0; 4], [0.0; 4]);
        for x in [[2.0, 0.0], [2.0, -0.66], [-1.0, 1.0e6], [0.3, -2.5]] {
            m.flow_jacobian(0, 0.0, &x, &mut hand);
            flow_jacobian_ad(&m, 0, 0.0, &x, &mut ad);
            for (h, a) in hand.iter().zip(&ad) {
                assert!(
                    (h - a).abs() <= 1e-15 * a.abs(),
                    "{x:?}: {hand:?} vs {ad:?}"
                );
            }
        }
    }

    /// On the slow manifold `y2 = y1/(1 − y1²)` the fast equation is at rest.
    #[test]
    fn slow_manifold_is_at_rest() {
        let m = Bound::new(VanDerPolStiff);
        let y1: f64 = 2.0;
        let x = [y1, y1 / (1.0 - y1 * y1)];
        let mut dx = [0.0; 2];
        m.flow(0, 0.0, &x, &mut dx);
        assert!(dx[1].abs() < 1e-9, "{dx:?}");
        let bad = Bound::with_named(VanDerPolStiff, [("eps", 0.0)]);
        assert!(bad.unwrap_err().to_string().contains("eps"));
    }
}
