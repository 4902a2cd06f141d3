//! OREGO: the Oregonator, Field & Noyes' model of the Belousov–Zhabotinskii reaction, a stiff
//! relaxation oscillator.
//!
//! Field & Noyes (1974, *J. Chem. Phys.* 60, 1877–1884) reduced the Field–Körös–Noyes
//! mechanism to three species; in their scaled variables (`y1 = α` ∝ [HBrO₂], `y2 = η` ∝ [Br⁻],
//! `y3 = ρ` ∝ [Ce(IV)]):
//!
//! ```text
//! y1' = s (y2 − y1 y2 + y1 − q y1²)
//! y2' = (−y2 − y1 y2 + f y3) / s
//! y3' = w (y1 − y3)
//! ```
//!
//! with `s = 77.27`, `q = 8.375·10⁻⁶`, `w = 0.161` and the stoichiometric factor `f = 1` —
//! problem OREGO of Hairer & Wanner, *Solving Ordinary Differential Equations II*, 2nd ed.
//! 1996, §IV.1 and §IV.10, and of the Test Set for IVP Solvers of Mazzia & Magherini, with
//! `y(0) = (1, 2, 3)`, `t ∈ [0, 360]`. The solution is a relaxation oscillation of period about
//! 303 whose components spike over orders of magnitude: on `[0, 360]`, spikes near `t ≈ 20` and
//! `323`, `y1` between 1 and `1.18·10⁵`, `y2` between `3·10⁻³` and `1.77·10³`, `y3` between 1
//! and `3.1·10⁴` (computed here with radau5 at tolerance 1e-9); at `t = 360`, `y3` is still
//! decaying after the second spike. The Jacobian is
//!
//! ```text
//! f_y = [[s (1 − y2 − 2 q y1), s (1 − y1), 0],
//!        [−y2 / s, −(1 + y1) / s, f / s],
//!        [w, 0, −w]]
//! ```
//!
//! A plain ODE (one mode, no guards). Reference solution: [`crate::reference::orego`].

use saltation_hybrid::{FlowJacobian, HybridModel, Limit, Param, Scalar};

/// Index of the time-scale ratio `s` in the parameter vector.
pub const S: usize = 0;
/// Index of `q`.
pub const Q: usize = 1;
/// Index of the relaxation rate `w`.
pub const W: usize = 2;
/// Index of the stoichiometric factor `f`.
pub const F: usize = 3;

/// The constants of the scaled Oregonator (Field & Noyes 1974): the time-scale ratio `s > 0`
/// (default 77.27); `q ≥ 0`, the ratio of the autocatalytic and disproportionation rates of
/// HBrO₂ (default 8.375·10⁻⁶); the relaxation rate of the catalyst `w ≥ 0` (default 0.161);
/// the stoichiometric factor `f ≥ 0` (default 1).
pub const PARAMS: &[Param] = &[
    Param::new("s", 77.27)
        .above(Limit::Open(0.0))
        .described("s > 0 (a ratio of time scales)"),
    Param::new("q", 8.375e-6)
        .above(Limit::Closed(0.0))
        .described("q >= 0 (a ratio of rate constants)"),
    Param::new("w", 0.161)
        .above(Limit::Closed(0.0))
        .described("w >= 0 (a relaxation rate)"),
    Param::new("f", 1.0)
        .above(Limit::Closed(0.0))
        .described("f >= 0 (a stoichiometric factor)"),
];

/// The Oregonator (one mode, no guards; its equations, the parameters are `s`, `q`, `w`, `f`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Orego;

impl HybridModel for Orego {
    saltation_hybrid::no_guards!();
    fn name(&self) -> &str {
        "orego"
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
        vec!["y1 (HBrO2)".into(), "y2 (Br-)".into(), "y3 (Ce(IV))".into()]
    }
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, y: &[D], dy: &mut [D]) {
        dy[0] = (y[1] + y[0] * (-y[0] * p[Q] - y[1] + 1.0)) * p[S];
        dy[1] = (y[2] * p[F] - (y[0] + 1.0) * y[1]) / p[S];
        dy[2] = (y[0] - y[2]) * p[W];
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
}

impl FlowJacobian for Orego {
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
        let (s, q, w, f) = (p[S], p[Q], p[W], p[F]);
        jac.copy_from_slice(&[
            s * (1.0 - 2.0 * q * y[0] - y[1]),
            s * (1.0 - y[0]),
            0.0,
            -y[1] / s,
            -(1.0 + y[0]) / s,
            f / s,
            w,
            0.0,
            -w,
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
        let m = Bound::new(Orego);
        let (mut hand, mut ad) = ([0.0; 9], [0.0; 9]);
        for x in [[1.0, 2.0, 3.0], [1.0e5, 1.0, 3.0e4], [-0.4, 0.7, 1.3]] {
            m.flow_jacobian(0, 0.0, &x, &mut hand);
            flow_jacobian_ad(&m, 0, 0.0, &x, &mut ad);
            for (h, a) in hand.iter().zip(&ad) {
                assert!(
                    (h - a).abs() <= 1e-14 * a.abs().max(1.0),
                    "{x:?}: {hand:?} vs {ad:?}"
                );
            }
        }
    }

    /// The default constants give the test set's right-hand side
    /// `77.27 (y2 + y1 (1 − 8.375·10⁻⁶ y1 − y2))`, `(y3 − (1 + y1) y2)/77.27`,
    /// `0.161 (y1 − y3)`.
    #[test]
    fn defaults_give_the_published_right_hand_side() {
        let m = Bound::new(Orego);
        let y = [1.5, 2.5, 3.5];
        let mut dy = [0.0; 3];
        m.flow(0, 0.0, &y, &mut dy);
        let want = [
            77.27 * (y[1] + y[0] * (1.0 - 8.375e-6 * y[0] - y[1])),
            (y[2] - (1.0 + y[0]) * y[1]) / 77.27,
            0.161 * (y[0] - y[2]),
        ];
        for (g, w) in dy.iter().zip(want) {
            assert!((g - w).abs() <= 1e-14 * w.abs(), "{dy:?} vs {want:?}");
        }
        let bad = Bound::with_named(Orego, [("s", 0.0)]);
        assert!(bad.unwrap_err().to_string().contains("`s`"));
    }
}
