//! Whether the chain's answer can be trusted beside Monte Carlo's: the warnings printed with
//! each roughness level.
//!
//! The chain is a discretisation: strides that end outside the mesh's box are counted as
//! falls, and a mesh coarser than the basin moves surviving states into cells that fall, so
//! its times can be far too short with nothing else to show it (the simplest walker's basin is
//! a band 0.01 rad/s wide). Monte Carlo walks the exact stride map and has only sampling
//! error, so where both are computed the chain's expected strides from the nominal orbit,
//! `m(u₀)` — the same quantity Monte Carlo estimates — is compared with Monte Carlo's mean.
//! Monte Carlo's 95 % interval `[lo, hi]` about its mean `m̂` is widened to 99.9 %, each side
//! by `z_{0.9995}/z_{0.975} = 3.2905/1.9600`, so that an exact chain is flagged by chance
//! about once in a thousand levels:
//!
//! `m(u₀) > m̂ + 1.679 (hi − m̂)`  or  `m(u₀) < m̂ − 1.679 (m̂ − lo)`.

use super::{ChainSolution, McSummary};

/// `z_{0.9995} / z_{0.975}`: a 95 % half-width stretched to 99.9 %.
pub const WIDEN: f64 = 3.290_526_731_491_926 / 1.959_963_984_540_054;

/// The warnings for one level: strides that left the mesh, and a chain outside Monte Carlo's
/// widened interval (module documentation; only where Monte Carlo ran, `mc`). Empty when
/// neither applies.
pub fn agreement(chain: &ChainSolution, mc: Option<&McSummary>) -> Vec<String> {
    let mut out = Vec::new();
    if chain.left_mesh > 0 {
        out.push(format!(
            "{} of the chain's strides ended outside the mesh's box and were counted as falls: \
             widen the mesh until none do",
            chain.left_mesh
        ));
    }
    let Some(mc) = mc else {
        return out;
    };
    if let (Some(m), Some(mean), Some([lo, hi])) = (chain.expected_steps, mc.mean, mc.ci) {
        let (low, high) = (mean - WIDEN * (mean - lo), mean + WIDEN * (hi - mean));
        if m < low || m > high {
            out.push(format!(
                "the chain's {m:.6} strides from the orbit lie outside Monte Carlo's 99.9 % \
                 interval [{low:.6}, {high:.6}]: the chain is not converged — refine the mesh, \
                 widen it, or raise --samples"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn chain(expected: Option<f64>, left: usize) -> ChainSolution {
        ChainSolution {
            lambda2: 0.9,
            mfpt: Some(10.0),
            expected_steps: expected,
            iterations: 1,
            solve_iterations: 1,
            residual: 0.0,
            points: 1,
            reachable: 1,
            samples: 1,
            transitions: 1,
            absorbed_fraction: 0.1,
            fallen: 1,
            left_mesh: left,
            causes: BTreeMap::new(),
            note: None,
        }
    }

    fn mc(mean: Option<f64>, ci: Option<[f64; 2]>) -> McSummary {
        McSummary {
            runs: 100,
            fell: 100,
            censored: 0,
            strides: 1000,
            mean,
            ci,
            estimator: "sample_mean".into(),
            note: None,
            causes: BTreeMap::new(),
        }
    }

    #[test]
    fn the_interval_is_widened_to_99_9_percent_on_each_side() {
        let m = mc(Some(100.0), Some([90.0, 120.0]));
        // Upper edge 100 + 1.679·20 = 133.58, lower 100 − 1.679·10 = 83.21.
        assert!(agreement(&chain(Some(133.0), 0), Some(&m)).is_empty());
        assert!(agreement(&chain(Some(84.0), 0), Some(&m)).is_empty());
        let w = agreement(&chain(Some(134.0), 0), Some(&m));
        assert!(w.len() == 1 && w[0].contains("99.9 %"), "{w:?}");
        assert_eq!(agreement(&chain(Some(83.0), 0), Some(&m)).len(), 1);
        assert!((WIDEN - 1.678_871_018_8).abs() < 1e-10);
    }

    #[test]
    fn leaving_the_mesh_is_reported_and_nothing_is_compared_without_both_times() {
        let w = agreement(&chain(None, 7), Some(&mc(Some(1.0), Some([0.5, 1.5]))));
        assert!(
            w.len() == 1 && w[0].starts_with("7 of the chain's strides"),
            "{w:?}"
        );
        assert!(agreement(&chain(Some(1e9), 0), Some(&mc(None, None))).is_empty());
        // The chain alone: only its own warning.
        assert!(agreement(&chain(Some(1e9), 0), None).is_empty());
        assert_eq!(agreement(&chain(None, 7), None).len(), 1);
    }
}
