//! Butcher tableaus of explicit Runge–Kutta methods, held as data.
//!
//! A method with `s` stages advances `y_{n+1} = y_n + h Σ_i b_i k_i` with
//! `k_i = f(t_n + c_i h, y_n + h Σ_{j<i} a_ij k_j)`. Embedded pairs carry error weights `e`
//! (`e_i = b_i − b̂_i`), so the local error estimate is `h Σ_i e_i k_i`.
//! Coefficients are taken from the original papers cited on each tableau.

/// How a method estimates its local error.
#[derive(Debug, Clone, Copy)]
pub enum ErrorEstimate {
    /// Fixed-step method: no estimate.
    None,
    /// Embedded pair: `err = h Σ e_i k_i` (length = number of stages).
    Embedded(&'static [f64]),
    /// Dormand–Prince 8(5,3): two estimators combined as
    /// `err = err5² / sqrt(err5² + 0.01 err3²)` on the scaled norms (Hairer, Nørsett & Wanner,
    /// *Solving ODEs I*, §II.10), with `err5 = h Σ e5_i k_i` and `err3 = h Σ e3_i k_i`.
    Dop853 {
        /// Weights of the 5th-order estimator (length = number of stages).
        e5: &'static [f64],
        /// Weights of the 3rd-order estimator (length = number of stages).
        e3: &'static [f64],
    },
}

/// Continuous extension (dense output) of a method over one accepted step.
#[derive(Debug, Clone, Copy)]
pub enum DenseOutput {
    /// Cubic Hermite interpolation from `y_n, f_n, y_{n+1}, f_{n+1}` (3rd order).
    Hermite,
    /// Dormand–Prince 5(4): 4th-order extension (Shampine 1986 / Hairer's `contd5`):
    /// with `θ` the fraction of the step, `θ₁ = 1 − θ`, `Δ = y₁ − y₀`,
    /// `y(θ) = y₀ + θ(Δ + θ₁(r₃ + θ(r₄ + θ₁ r₅)))`, `r₃ = h f₀ − Δ`, `r₄ = Δ − h f₁ − r₃`,
    /// `r₅ = h Σ d_i k_i`.
    Dp5 {
        /// Weights `d_i` over the stages (length = number of stages).
        d: &'static [f64],
    },
    /// Dormand–Prince 8(5,3): 7th-order extension using three extra stages.
    Dop853(&'static Dop853Dense),
}

/// Extra stages and coefficients of DOP853's 7th-order dense output
/// (Hairer, Nørsett & Wanner, *Solving ODEs I*, 2nd ed., §II.6 and the code `dop853`).
///
/// The extra stages are `k_{s+1}, k_{s+2}, k_{s+3}` (after the 12 stages of the step *and* the
/// FSAL stage `k_13 = f(t+h, y_{n+1})`), evaluated at `t + c_extra[m] h` with
/// `y_n + h Σ_j a_extra[m][j] k_j` (`a_extra[m]` has 13 + m entries: over k_1..k_13 and the
/// earlier extra stages). With `r₁ = y₀`, `r₂ = Δ = y₁ − y₀`, `r₃ = h f₀ − Δ`,
/// `r₄ = Δ − h f₁ − r₃` and `r_{5+q} = h Σ_j d[q][j] k_j` (q = 0..3, over k_1..k_16),
/// `y(θ) = r₁ + θ(r₂ + θ₁(r₃ + θ(r₄ + θ₁(r₅ + θ(r₆ + θ₁(r₇ + θ r₈))))))`.
#[derive(Debug)]
pub struct Dop853Dense {
    /// Nodes of the three extra stages.
    pub c_extra: [f64; 3],
    /// Coupling coefficients of the three extra stages.
    pub a_extra: [&'static [f64]; 3],
    /// Dense-output weights, four rows over the 16 stages.
    pub d: [[f64; 16]; 4],
}

/// An explicit Runge–Kutta method as data.
#[derive(Debug, Clone, Copy)]
pub struct Tableau {
    /// Short name (`"dop853"`).
    pub name: &'static str,
    /// Nodes `c_i` (length `s`).
    pub c: &'static [f64],
    /// Strictly lower-triangular coupling: `a[i]` holds `a_i0 .. a_i,i-1` (so `a[0]` is empty).
    pub a: &'static [&'static [f64]],
    /// Propagating weights `b_i`.
    pub b: &'static [f64],
    /// Order of the propagated solution.
    pub order: u32,
    /// Order used in the step-size exponent `1/(q+1)` (the lower order of the pair).
    pub error_order: u32,
    /// First Same As Last: the last stage is `f(t_{n+1}, y_{n+1})`.
    pub fsal: bool,
    /// Local error estimator.
    pub error: ErrorEstimate,
    /// Continuous extension.
    pub dense: DenseOutput,
}

mod bs23;
mod dop853;
mod dp5;
mod fixed;
mod rkf45;

pub use bs23::BS23;
pub use dop853::{DOP853, DOP853_DENSE};
pub use dp5::DP5;
pub use fixed::{EULER, HEUN, RK4};
pub use rkf45::RKF45;

impl Tableau {
    /// Number of stages `s` of one step.
    pub fn stages(&self) -> usize {
        self.c.len()
    }
    /// Whether the method has an error estimate (adaptive step size).
    pub fn is_adaptive(&self) -> bool {
        !matches!(self.error, ErrorEstimate::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [&Tableau; 7] = [&EULER, &HEUN, &RK4, &BS23, &RKF45, &DP5, &DOP853];

    #[test]
    fn rows_sum_to_nodes_and_weights_to_one() {
        for t in ALL {
            assert_eq!(t.a.len(), t.stages(), "{}", t.name);
            for (i, row) in t.a.iter().enumerate() {
                assert_eq!(row.len(), i, "{} row {i}", t.name);
                let s: f64 = row.iter().sum();
                assert!(
                    (s - t.c[i]).abs() < 1e-14,
                    "{} row {i}: {s} vs {}",
                    t.name,
                    t.c[i]
                );
            }
            let sb: f64 = t.b.iter().sum();
            assert!((sb - 1.0).abs() < 1e-14, "{}", t.name);
            if let ErrorEstimate::Embedded(e) = t.error {
                assert_eq!(e.len(), t.stages());
                assert!(e.iter().sum::<f64>().abs() < 1e-14, "{}", t.name);
            }
        }
    }

    /// Quadrature conditions `Σ b_i c_i^(k−1) = 1/k`, k = 1..=order.
    #[test]
    fn quadrature_order_conditions() {
        for t in ALL {
            for k in 1..=t.order as i32 {
                let s: f64 = t.b.iter().zip(t.c).map(|(b, c)| b * c.powi(k - 1)).sum();
                assert!((s - 1.0 / k as f64).abs() < 1e-13, "{} k={k}: {s}", t.name);
            }
        }
    }

    #[test]
    fn fsal_last_row_equals_weights() {
        for t in ALL.iter().filter(|t| t.fsal) {
            let last = t.a[t.stages() - 1];
            for (a, b) in last.iter().zip(t.b) {
                assert_eq!(a, b, "{}", t.name);
            }
            assert_eq!(t.b[t.stages() - 1], 0.0);
            assert_eq!(t.c[t.stages() - 1], 1.0);
        }
    }
}
