//! Robertson's chemical kinetics (ROBER), the classic stiff test problem, as a plain ODE and as
//! its index-1 DAE form.
//!
//! Robertson (1966) modelled the reactions `A → B` (rate `k1`), `B + B → C + B` (`k2`) and
//! `B + C → A + C` (`k3`); with the concentrations `y = [y1, y2, y3]` of `A, B, C`:
//!
//! ```text
//! y1' = −k1 y1 + k3 y2 y3
//! y2' =  k1 y1 − k3 y2 y3 − k2 y2²
//! y3' =  k2 y2²
//! ```
//!
//! with `k1 = 0.04`, `k2 = 3·10⁷`, `k3 = 10⁴` and `y(0) = (1, 0, 0)` (Hairer & Wanner, *Solving
//! Ordinary Differential Equations II*, 2nd ed. 1996, §IV.1; problem ROBER of the
//! Test Set for IVP Solvers of Mazzia & Magherini, integrated to `t = 10¹¹`). The eigenvalues of
//! `f_y` reach about `−10⁴` while the solution evolves on time scales up to `10¹¹`; `y2` rises to
//! `3.6·10⁻⁵` within `t ≈ 10⁻²` and decays like `1/t` afterwards. The sum `y1 + y2 + y3 = 1` is
//! conserved exactly by the equations (and by every Runge–Kutta or linear multistep method, up
//! to rounding and the Newton tolerance).
//!
//! [`RobertsonDae`] replaces the third equation by that conservation law, the index-1 DAE
//! `M y' = F(y)` with `M = diag(1, 1, 0)` and `F3 = y1 + y2 + y3 − 1` (the standard index-1
//! formulation of ROBER for DAE codes); its exact solution is the ODE's. It is a separate model rather than a
//! parameter of [`Robertson`] because the form is structural, not a physical quantity: it
//! changes the mass matrix ([`saltation_hybrid::MassMatrix`]), the methods that can integrate the
//! model ([`saltation_ode::Method::accepts_singular_mass`]) and the meaning of the third
//! equation, while every numeric parameter of a model is a physical constant with a range that
//! `--set` and the continuation can vary.
//!
//! Reference solutions: [`crate::reference::rober`].

use saltation_hybrid::{FlowJacobian, HybridModel, Limit, MassMatrix, Param, Scalar};

/// Index of `k1`, the rate constant of `A → B`, in the parameter vector.
pub const K1: usize = 0;
/// Index of `k2`, the rate constant of `B + B → C + B`.
pub const K2: usize = 1;
/// Index of `k3`, the rate constant of `B + C → A + C`.
pub const K3: usize = 2;

/// A rate constant: finite and `≥ 0` (a zero rate removes its reaction).
const fn rate(name: &'static str, default: f64) -> Param {
    Param::new(name, default)
        .above(Limit::Closed(0.0))
        .described("k >= 0 (a reaction rate constant)")
}

/// The rate constants of Robertson's reactions (both forms): `k1 = 0.04`, `k2 = 3·10⁷`,
/// `k3 = 10⁴` by default, each `≥ 0`.
pub const PARAMS: &[Param] = &[rate("k1", 0.04), rate("k2", 3.0e7), rate("k3", 1.0e4)];

/// The first two right-hand sides (shared by both forms).
#[inline]
fn kinetics<D: Scalar>(p: &[D], x: &[D], dx: &mut [D]) {
    let (y1, y2, y3) = (x[0], x[1], x[2]);
    let r1 = y1 * p[K1];
    let r3 = y2 * y3 * p[K3];
    dx[0] = r3 - r1;
    dx[1] = r1 - r3 - y2 * y2 * p[K2];
}

/// The first two rows of `f_y` (shared by both forms) into `jac[..6]`.
#[inline]
fn kinetics_jacobian(p: &[f64], x: &[f64], jac: &mut [f64]) {
    let (k1, k2, k3) = (p[K1], p[K2], p[K3]);
    let (y2, y3) = (x[1], x[2]);
    jac[..6].copy_from_slice(&[
        -k1,
        k3 * y3,
        k3 * y2,
        k1,
        -k3 * y3 - 2.0 * k2 * y2,
        -k3 * y2,
    ]);
}

/// Names of the three concentrations.
fn species() -> Vec<String> {
    vec!["y1 (A)".into(), "y2 (B)".into(), "y3 (C)".into()]
}

/// Robertson's kinetics as an ODE (one mode, no guards; the parameters are `k1`, `k2`, `k3`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Robertson;

/// Robertson's kinetics as the index-1 DAE `diag(1, 1, 0) y' = F(y)`, the third equation being
/// the conservation law `0 = y1 + y2 + y3 − 1` (one mode, no guards; the parameters are `k1`,
/// `k2`, `k3`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RobertsonDae;

impl HybridModel for Robertson {
    saltation_hybrid::no_guards!();
    fn name(&self) -> &str {
        "robertson"
    }
    fn dim(&self) -> usize {
        3
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn mode_name(&self, _mode: usize) -> String {
        "kinetics".into()
    }
    fn state_names(&self) -> Vec<String> {
        species()
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        kinetics(p, x, dx);
        dx[2] = x[1] * x[1] * p[K2];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
}

impl FlowJacobian for Robertson {
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
        kinetics_jacobian(p, x, jac);
        jac[6..].copy_from_slice(&[0.0, 2.0 * p[K2] * x[1], 0.0]);
    }
}

impl HybridModel for RobertsonDae {
    saltation_hybrid::no_guards!();
    fn name(&self) -> &str {
        "robertson_dae"
    }
    fn dim(&self) -> usize {
        3
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn mode_name(&self, _mode: usize) -> String {
        "kinetics (DAE)".into()
    }
    fn state_names(&self) -> Vec<String> {
        species()
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        kinetics(p, x, dx);
        dx[2] = x[0] + x[1] + x[2] - 1.0;
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn mass_matrix(&self) -> Option<&dyn MassMatrix> {
        Some(self)
    }
}

impl FlowJacobian for RobertsonDae {
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
        kinetics_jacobian(p, x, jac);
        jac[6..].copy_from_slice(&[1.0, 1.0, 1.0]);
    }
}

impl MassMatrix for RobertsonDae {
    /// `M = diag(1, 1, 0)`: the third equation is algebraic.
    fn mass_matrix(&self, _p: &[f64], _mode: usize) -> Option<Vec<f64>> {
        Some(vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saltation_hybrid::ad::flow_jacobian_ad;
    use saltation_hybrid::{Bound, EvalModel};

    fn close(hand: &[f64], ad: &[f64], what: &str) {
        for (h, a) in hand.iter().zip(ad) {
            assert!(
                (h - a).abs() <= 1e-15 * a.abs(),
                "{what}: {hand:?} vs {ad:?}"
            );
        }
    }

    /// Hand-written `f_y` of both forms against forward AD at states spanning the problem's
    /// magnitudes (`y2` from 10⁻¹³ to 10⁻⁴).
    #[test]
    fn jacobians_match_ad() {
        let ode = Bound::new(Robertson);
        let dae = Bound::new(RobertsonDae);
        let (mut hand, mut ad) = ([0.0; 9], [0.0; 9]);
        for x in [
            [1.0, 0.0, 0.0],
            [0.9, 3.6e-5, 0.1],
            [2.1e-8, 8.3e-14, 1.0],
            [-0.3, 2.0, 1.7],
        ] {
            ode.flow_jacobian(0, 0.0, &x, &mut hand);
            flow_jacobian_ad(&ode, 0, 0.0, &x, &mut ad);
            close(&hand, &ad, &format!("ODE at {x:?}"));
            dae.flow_jacobian(0, 0.0, &x, &mut hand);
            flow_jacobian_ad(&dae, 0, 0.0, &x, &mut ad);
            close(&hand, &ad, &format!("DAE at {x:?}"));
        }
    }

    /// The ODE conserves `y1 + y2 + y3` (the rates sum to zero), the DAE's algebraic equation
    /// vanishes on the conservation law, and both forms agree on the differential rows.
    #[test]
    fn conservation_and_forms_agree() {
        let (ode, dae) = (Bound::new(Robertson), Bound::new(RobertsonDae));
        let x = [0.7, 2.0e-5, 0.3 - 2.0e-5];
        let (mut f, mut g) = ([0.0; 3], [0.0; 3]);
        ode.flow(0, 0.0, &x, &mut f);
        dae.flow(0, 0.0, &x, &mut g);
        assert!((f[0] + f[1] + f[2]).abs() < 1e-12 * f[2].abs().max(1.0));
        assert_eq!((f[0], f[1]), (g[0], g[1]));
        assert!(g[2].abs() < 1e-16);
        assert_eq!(EvalModel::mass_matrix(&ode, 0), None);
        assert_eq!(EvalModel::mass_matrix(&dae, 0).unwrap()[8], 0.0);
        assert_eq!(EvalModel::guards(&ode, 0), 0);
    }

    #[test]
    fn rates_must_be_non_negative() {
        let m = Bound::new(Robertson);
        assert!(m.check_params().is_ok());
        let e = Bound::with_named(Robertson, [("k2", -1.0)])
            .unwrap_err()
            .to_string();
        assert!(e.contains("k2") && e.contains(">= 0"), "{e}");
        assert!(Bound::with_named(Robertson, [("k2", f64::NAN)]).is_err());
    }
}
