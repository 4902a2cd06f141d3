//! The accuracy criteria of the solver study, on a uniform grid `t_i = i h` from the dense
//! output of each run and of the reference.

/// Divergence time, the study's eq. (32): the first grid time at which
/// `|y − y_ref| / |y_ref| ≥ ε`, looking only where `|y_ref| ≥ floor` (the relative error is
/// meaningless near zero). A run that never diverges gets the last grid time.
pub fn divergence_time(t: &[f64], y: &[f64], y_ref: &[f64], epsilon: f64, floor: f64) -> f64 {
    t.iter()
        .zip(y.iter().zip(y_ref))
        .find(|(_, (&y, &r))| r.abs() >= floor && (y - r).abs() >= epsilon * r.abs())
        .map_or_else(|| t.last().copied().unwrap_or(0.0), |(&t, _)| t)
}

/// Integral of the absolute error by the trapezoidal rule on a uniform grid of step `h`, the
/// study's eq. (33): `IAE = h/2 (|e_0| + |e_N|) + h Σ_{i=1}^{N−1} |e_i|`.
pub fn integrated_absolute_error(h: f64, y: &[f64], y_ref: &[f64]) -> f64 {
    let e: Vec<f64> = y.iter().zip(y_ref).map(|(a, b)| (a - b).abs()).collect();
    match e.len() {
        0 | 1 => 0.0,
        n => h * (0.5 * (e[0] + e[n - 1]) + e[1..n - 1].iter().sum::<f64>()),
    }
}

/// Touchdowns seen on a grid: sign changes of `y1` from `> 0` to `≤ 0`.
pub fn grid_touchdowns(y1: &[f64]) -> usize {
    y1.windows(2).filter(|w| w[0] > 0.0 && w[1] <= 0.0).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trapezoid_is_exact_for_a_linear_error() {
        // e(t) = t on [0, 1]: ∫ |e| = 1/2, exact for the trapezoidal rule.
        let h = 0.01;
        let y: Vec<f64> = (0..=100).map(|i| i as f64 * h).collect();
        let zero = vec![0.0; y.len()];
        assert!((integrated_absolute_error(h, &y, &zero) - 0.5).abs() < 1e-14);
        // |sin| over a period: 4 (1 − cos(π/2)) / (2π)·… — compare with the closed form 2/π·π.
        let n = 10_000;
        let h = 2.0 * std::f64::consts::PI / n as f64;
        let y: Vec<f64> = (0..=n).map(|i| (i as f64 * h).sin()).collect();
        let zero = vec![0.0; y.len()];
        assert!((integrated_absolute_error(h, &y, &zero) - 4.0).abs() < 1e-6);
    }

    #[test]
    fn divergence_time_skips_small_references() {
        let t = [0.0, 1.0, 2.0, 3.0];
        let r = [1.0, 0.01, 1.0, 1.0];
        // At t = 1 the relative error is huge but |r| < floor; at t = 2 it is 10 % ≥ 5 %.
        let y = [1.0, 0.5, 1.1, 1.0];
        assert_eq!(divergence_time(&t, &y, &r, 0.05, 0.05), 2.0);
        assert_eq!(divergence_time(&t, &r, &r, 0.05, 0.05), 3.0);
    }

    #[test]
    fn touchdowns_count_downward_crossings() {
        assert_eq!(grid_touchdowns(&[1.0, 0.5, 0.0, -0.1, 0.2, -0.3, 0.1]), 2);
    }
}
