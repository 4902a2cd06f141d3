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

use saltation_hybrid::{check_range, EvalModel, ParamError, Scalar};
use serde::{Deserialize, Serialize};

/// Rate constants of the HIRES model (test-set values by default).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HiresParams {
    /// Rate constant `k1 ≥ 0` in the module's equations (default 1.71).
    pub k1: f64,
    /// Rate constant `k2 ≥ 0` in the module's equations (default 0.43).
    pub k2: f64,
    /// Rate constant `k3 ≥ 0` in the module's equations (default 8.32).
    pub k3: f64,
    /// Rate constant `k4 ≥ 0` in the module's equations (default 0.69).
    pub k4: f64,
    /// Rate constant `k5 ≥ 0` in the module's equations (default 0.035).
    pub k5: f64,
    /// Rate constant `k6 ≥ 0` in the module's equations (default 8.32).
    pub k6: f64,
    /// Rate constant `k7 ≥ 0` of the enzyme binding `PfrX2 + E → PfrX2E` (default 280).
    pub k7: f64,
    /// Rate constant `k8 ≥ 0` in the module's equations (default 0.69).
    pub k8: f64,
    /// Rate constant `k9 ≥ 0` in the module's equations (default 0.69).
    pub k9: f64,
    /// Constant synthesis rate `oks ≥ 0` of `Pr` (default 0.0007).
    pub oks: f64,
}

impl Default for HiresParams {
    fn default() -> Self {
        Self {
            k1: 1.71,
            k2: 0.43,
            k3: 8.32,
            k4: 0.69,
            k5: 0.035,
            k6: 8.32,
            k7: 280.0,
            k8: 0.69,
            k9: 0.69,
            oks: 0.0007,
        }
    }
}

/// The HIRES photomorphogenesis kinetics (8 species, one mode, no guards).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Hires {
    /// Its parameters.
    pub params: HiresParams,
}

impl EvalModel for Hires {
    saltation_hybrid::named_params!("k1" => params.k1, "k2" => params.k2, "k3" => params.k3, "k4" => params.k4, "k5" => params.k5, "k6" => params.k6, "k7" => params.k7, "k8" => params.k8, "k9" => params.k9, "oks" => params.oks);
    fn name(&self) -> &str {
        "hires"
    }
    fn dim(&self) -> usize {
        8
    }
    fn mode_name(&self, _mode: usize) -> String {
        "kinetics".into()
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, y: &[D], dy: &mut [D]) {
        let p = &self.params;
        let bind = y[5] * y[7] * p.k7;
        let release = y[6] * (p.k2 + p.k8 + p.k9);
        dy[0] = -y[0] * p.k1 + y[1] * p.k2 + y[2] * p.k6 + p.oks;
        dy[1] = y[0] * p.k1 - y[1] * (p.k2 + p.k3);
        dy[2] = -y[2] * (p.k6 + p.k1) + y[3] * p.k2 + y[4] * p.k5;
        dy[3] = y[1] * p.k3 + y[2] * p.k1 - y[3] * (p.k4 + p.k2);
        dy[4] = -y[4] * (p.k5 + p.k1) + (y[5] + y[6]) * p.k2;
        dy[5] = -bind + y[3] * p.k8 + y[4] * p.k1 - y[5] * p.k2 + y[6] * p.k8;
        dy[6] = bind - release;
        dy[7] = release - bind;
    }
    no_guards!();
    autonomous!();
    fn flow_jacobian(&self, _mode: usize, _t: f64, y: &[f64], jac: &mut [f64]) -> bool {
        let p = &self.params;
        let out = p.k2 + p.k8 + p.k9;
        let (b6, b8) = (p.k7 * y[7], p.k7 * y[5]);
        jac.fill(0.0);
        let mut set = |i: usize, k: usize, v: f64| jac[i * 8 + k] = v;
        set(0, 0, -p.k1);
        set(0, 1, p.k2);
        set(0, 2, p.k6);
        set(1, 0, p.k1);
        set(1, 1, -(p.k2 + p.k3));
        set(2, 2, -(p.k6 + p.k1));
        set(2, 3, p.k2);
        set(2, 4, p.k5);
        set(3, 1, p.k3);
        set(3, 2, p.k1);
        set(3, 3, -(p.k4 + p.k2));
        set(4, 4, -(p.k5 + p.k1));
        set(4, 5, p.k2);
        set(4, 6, p.k2);
        set(5, 3, p.k8);
        set(5, 4, p.k1);
        set(5, 5, -b6 - p.k2);
        set(5, 6, p.k8);
        set(5, 7, -b8);
        set(6, 5, b6);
        set(6, 6, -out);
        set(6, 7, b8);
        set(7, 5, -b6);
        set(7, 6, out);
        set(7, 7, -b8);
        true
    }
    fn check_params(&self) -> Result<(), ParamError> {
        let p = &self.params;
        for (name, k) in [
            ("k1", p.k1),
            ("k2", p.k2),
            ("k3", p.k3),
            ("k4", p.k4),
            ("k5", p.k5),
            ("k6", p.k6),
            ("k7", p.k7),
            ("k8", p.k8),
            ("k9", p.k9),
        ] {
            check_range(name, k, k >= 0.0, "k >= 0 (a reaction rate constant)")?;
        }
        check_range("oks", p.oks, p.oks >= 0.0, "oks >= 0 (a synthesis rate)")
    }
    fn state_names(&self) -> Vec<String> {
        ["Pr", "Pfr", "PrX", "PfrX", "PrX2", "PfrX2", "PfrX2E", "E"]
            .map(String::from)
            .to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use saltation_hybrid::ad::flow_jacobian_ad;

    #[test]
    fn jacobian_matches_ad() {
        let m = Hires::default();
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
        let m = Hires::default();
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
        m.flow::<f64>(0, 0.0, &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8], &mut dy);
        assert!((dy[6] + dy[7]).abs() < 1e-14);
        let mut bad = m;
        bad.params.k7 = -280.0;
        assert!(bad.check_params().unwrap_err().to_string().contains("k7"));
    }
}
