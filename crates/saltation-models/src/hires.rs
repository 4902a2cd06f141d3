//! HIRES: the "High Irradiance RESponse" of photomorphogenesis (Schäfer 1975), eight reacting
//! forms of phytochrome, a classic stiff test problem.
//!
//! Schäfer (1975, *J. Math. Biology* 2, 41–56) explained the high-irradiance responses of
//! plants by a model of phytochrome `P` in its red- and far-red-absorbing forms `Pr`, `Pfr`,
//! bound to a receptor `X` (`PrX`, `PfrX`, `PrX2`, `PfrX2`), and an enzyme complex `PfrX2E`
//! formed with the enzyme `E`. With `y = [Pr, Pfr, PrX, PfrX, PrX2, PfrX2, PfrX2E, E]`:
//!
//! ```text
//! y1' = −k1 y1 + k2 y2 + k6 y3 + oks
//! y2' =  k1 y1 − (k2 + k3) y2
//! y3' = −(k6 + k1) y3 + k2 y4 + k5 y5
//! y4' =  k3 y2 + k1 y3 − (k4 + k2) y4
//! y5' = −(k5 + k1) y5 + k2 (y6 + y7)
//! y6' = −k7 y6 y8 + k8 y4 + k1 y5 − k2 y6 + k8 y7
//! y7' =  k7 y6 y8 − (k2 + k8 + k9) y7
//! y8' = −k7 y6 y8 + (k2 + k8 + k9) y7
//! ```
//!
//! with `k1 = 1.71`, `k2 = 0.43`, `k3 = 8.32`, `k4 = 0.69`, `k5 = 0.035`, `k6 = 8.32`,
//! `k7 = 280`, `k8 = 0.69`, `k9 = 0.69`, `oks = 0.0007` (the numbers of Hairer & Wanner,
//! *Solving Ordinary Differential Equations II*, 2nd ed. 1996, §IV.10, and of problem HIRES of
//! the Test Set for IVP Solvers of Mazzia & Magherini; the names are those of the test set's
//! parametrised form as distributed with the R package deTestSet of Mazzia, Cash & Soetaert),
//! `y(0) = (1, 0, 0, 0, 0, 0, 0, 0.0057)`, `t ∈ [0, 321.8122]`. Only the `k7 y6 y8` terms are
//! nonlinear; `y7 + y8` is conserved.
//!
//! A plain ODE (one mode, no guards). Reference solution: [`crate::reference::hires`].

use saltation_hybrid::{FlowJacobian, HybridModel, Limit, Param, Scalar};

/// Index of `k1` in the parameter vector.
pub const K1: usize = 0;
/// Index of `k2`.
pub const K2: usize = 1;
/// Index of `k3`.
pub const K3: usize = 2;
/// Index of `k4`.
pub const K4: usize = 3;
/// Index of `k5`.
pub const K5: usize = 4;
/// Index of `k6`.
pub const K6: usize = 5;
/// Index of `k7`, the rate constant of the enzyme binding `PfrX2 + E → PfrX2E`.
pub const K7: usize = 6;
/// Index of `k8`.
pub const K8: usize = 7;
/// Index of `k9`.
pub const K9: usize = 8;
/// Index of `oks`, the constant synthesis rate of `Pr`.
pub const OKS: usize = 9;

/// A rate constant of the module's equations: finite and `≥ 0`.
const fn rate(name: &'static str, default: f64) -> Param {
    Param::new(name, default)
        .above(Limit::Closed(0.0))
        .described("k >= 0 (a reaction rate constant)")
}

/// The rate constants of the HIRES model (test-set values by default): `k1 … k9 ≥ 0` in the
/// module's equations (1.71, 0.43, 8.32, 0.69, 0.035, 8.32, 280, 0.69, 0.69) and the constant
/// synthesis rate `oks ≥ 0` of `Pr` (0.0007).
pub const PARAMS: &[Param] = &[
    rate("k1", 1.71),
    rate("k2", 0.43),
    rate("k3", 8.32),
    rate("k4", 0.69),
    rate("k5", 0.035),
    rate("k6", 8.32),
    rate("k7", 280.0),
    rate("k8", 0.69),
    rate("k9", 0.69),
    Param::new("oks", 0.0007)
        .above(Limit::Closed(0.0))
        .described("oks >= 0 (a synthesis rate)"),
];

/// The HIRES photomorphogenesis kinetics (8 species, one mode, no guards; its equations, the
/// parameters are `k1` … `k9` and `oks`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Hires;

impl HybridModel for Hires {
    saltation_hybrid::no_guards!();
    fn name(&self) -> &str {
        "hires"
    }
    fn dim(&self) -> usize {
        8
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
        ["Pr", "Pfr", "PrX", "PfrX", "PrX2", "PfrX2", "PfrX2E", "E"]
            .map(String::from)
            .to_vec()
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, y: &[D], dy: &mut [D]) {
        let bind = y[5] * y[7] * p[K7];
        let release = y[6] * (p[K2] + p[K8] + p[K9]);
        dy[0] = -y[0] * p[K1] + y[1] * p[K2] + y[2] * p[K6] + p[OKS];
        dy[1] = y[0] * p[K1] - y[1] * (p[K2] + p[K3]);
        dy[2] = -y[2] * (p[K6] + p[K1]) + y[3] * p[K2] + y[4] * p[K5];
        dy[3] = y[1] * p[K3] + y[2] * p[K1] - y[3] * (p[K4] + p[K2]);
        dy[4] = -y[4] * (p[K5] + p[K1]) + (y[5] + y[6]) * p[K2];
        dy[5] = -bind + y[3] * p[K8] + y[4] * p[K1] - y[5] * p[K2] + y[6] * p[K8];
        dy[6] = bind - release;
        dy[7] = release - bind;
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
}

impl FlowJacobian for Hires {
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        t: f64,
        y: &[f64],
        dy: &mut [f64],
        jac: &mut [f64],
    ) {
        self.flow(p, mode, t, y, dy);
        let [k1, k2, k3, k4, k5, k6, k7, k8, k9] = [
            p[K1], p[K2], p[K3], p[K4], p[K5], p[K6], p[K7], p[K8], p[K9],
        ];
        let out = k2 + k8 + k9;
        let (b6, b8) = (k7 * y[7], k7 * y[5]);
        jac.fill(0.0);
        let mut set = |i: usize, k: usize, v: f64| jac[i * 8 + k] = v;
        set(0, 0, -k1);
        set(0, 1, k2);
        set(0, 2, k6);
        set(1, 0, k1);
        set(1, 1, -(k2 + k3));
        set(2, 2, -(k6 + k1));
        set(2, 3, k2);
        set(2, 4, k5);
        set(3, 1, k3);
        set(3, 2, k1);
        set(3, 3, -(k4 + k2));
        set(4, 4, -(k5 + k1));
        set(4, 5, k2);
        set(4, 6, k2);
        set(5, 3, k8);
        set(5, 4, k1);
        set(5, 5, -b6 - k2);
        set(5, 6, k8);
        set(5, 7, -b8);
        set(6, 5, b6);
        set(6, 6, -out);
        set(6, 7, b8);
        set(7, 5, -b6);
        set(7, 6, out);
        set(7, 7, -b8);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saltation_hybrid::ad::flow_jacobian_ad;
    use saltation_hybrid::{Bound, EvalModel};

    #[test]
    fn jacobian_matches_ad() {
        let m = Bound::new(Hires);
        let (mut hand, mut ad) = ([0.0; 64], [0.0; 64]);
        for x in [
            [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057],
            [
                7.4e-4, 1.4e-4, 5.9e-5, 1.2e-3, 2.4e-3, 6.2e-3, 2.85e-3, 2.85e-3,
            ],
            [0.3, -0.2, 1.1, 0.7, -0.5, 0.9, 0.1, 0.4],
        ] {
            m.flow_jacobian(0, 0.0, &x, &mut hand);
            flow_jacobian_ad(&m, 0, 0.0, &x, &mut ad);
            for (h, a) in hand.iter().zip(&ad) {
                assert!((h - a).abs() <= 1e-15 * a.abs().max(1.0), "{x:?}");
            }
        }
    }

    /// The numbers of Hairer & Wanner's form (e.g. `y2' = 1.71 y1 − 8.75 y2`,
    /// `y7' = 280 y6 y8 − 1.81 y7`) follow from the default constants, and `y7 + y8` is
    /// conserved.
    #[test]
    fn defaults_give_the_published_coefficients() {
        let m = Bound::new(Hires);
        let mut jac = [0.0; 64];
        m.flow_jacobian(0, 0.0, &[0.0; 8], &mut jac);
        let at = |i: usize, k: usize| jac[i * 8 + k];
        for (got, want) in [
            (at(1, 1), -8.75),
            (at(2, 2), -10.03),
            (at(3, 3), -1.12),
            (at(4, 4), -1.745),
            (at(6, 6), -1.81),
        ] {
            assert!((got - want).abs() < 1e-13, "{got} vs {want}");
        }
        let mut dy = [0.0; 8];
        m.flow(0, 0.0, &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], &mut dy);
        assert!((dy[6] + dy[7]).abs() < 1e-14);
        let bad = Bound::with_named(Hires, [("k7", -280.0)]);
        assert!(bad.unwrap_err().to_string().contains("k7"));
    }
}
