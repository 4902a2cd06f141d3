//! Coefficients of the 3-stage Radau IIA method and of its transformed Newton iteration.
//!
//! The method (Hairer & Wanner, *Solving ODEs II*, 2nd ed. 1996, §IV.5 and §IV.8) is
//! the collocation method at the Radau right points `c = ((4 − √6)/10, (4 + √6)/10, 1)`: order
//! 5, stage order 3, `bᵀ` equal to the last row of `A` (stiffly accurate).
//!
//! The simplified Newton iteration works on the transformed stage increments
//! `W = (T⁻¹ ⊗ I) Z`, where `T⁻¹ A⁻¹ T = [[γ̂, 0, 0], [0, α̂, −β̂], [0, β̂, α̂]]` (§IV.8):
//! `A⁻¹` has one real eigenvalue `γ̂` and a complex pair `α̂ ± iβ̂`. The numbers `T` and `T⁻¹` are the ones published with Hairer & Wanner's code RADAU5 (`T₃₂ = 1`, `T₃₃ = 0`); the
//! unit tests check the similarity to 1e-14 and the eigenvalues against their closed forms
//! `γ̂ = 30 / (6 + ∛81 − ∛9)` and `α̂ ± iβ̂ = 1 / ((12 − ∛81 + ∛9)/60 ± i (∛81 + ∛9)√3/60)`.

/// `√6`.
const SQ6: f64 = 2.449489742783178;

/// First node `c₁ = (4 − √6)/10`.
pub const C1: f64 = (4.0 - SQ6) / 10.0;
/// Second node `c₂ = (4 + √6)/10`.
pub const C2: f64 = (4.0 + SQ6) / 10.0;
/// The nodes `(c₁, c₂, 1)`.
pub const C: [f64; 3] = [C1, C2, 1.0];
/// `c₁ − 1`.
pub const C1M1: f64 = C1 - 1.0;
/// `c₂ − 1`.
pub const C2M1: f64 = C2 - 1.0;
/// `c₁ − c₂`.
pub const C1MC2: f64 = C1 - C2;

/// The Runge–Kutta matrix `A` (row-major; `bᵀ` is its last row). The stepper works with its
/// transformed form (`T`, `T⁻¹`, `γ̂`, `α̂`, `β̂`, `C`); `A` defines them and is checked by the
/// tests.
#[cfg_attr(not(test), allow(dead_code))]
pub const A: [[f64; 3]; 3] = [
    [
        (88.0 - 7.0 * SQ6) / 360.0,
        (296.0 - 169.0 * SQ6) / 1800.0,
        (-2.0 + 3.0 * SQ6) / 225.0,
    ],
    [
        (296.0 + 169.0 * SQ6) / 1800.0,
        (88.0 + 7.0 * SQ6) / 360.0,
        (-2.0 - 3.0 * SQ6) / 225.0,
    ],
    [(16.0 - SQ6) / 36.0, (16.0 + SQ6) / 36.0, 1.0 / 9.0],
];

/// Real eigenvalue `γ̂` of `A⁻¹`.
pub const GAMMA: f64 = 3.637834252744496;
/// Real part `α̂` of the complex eigenvalues of `A⁻¹`.
pub const ALPHA: f64 = 2.6810828736277523;
/// Imaginary part `β̂` of the complex eigenvalues of `A⁻¹`.
pub const BETA: f64 = 3.0504301992474105;

/// `T` (with `T₃₂ = 1`, `T₃₃ = 0`): `Z = (T ⊗ I) W`.
pub const T: [[f64; 3]; 3] = [
    [
        0.09123239487089295,
        -0.1412552950209542,
        -0.030029194105147424,
    ],
    [0.241717932707107, 0.20412935229379994, 0.3829421127572619],
    [0.966048182615093, 1.0, 0.0],
];

/// `T⁻¹`: `W = (T⁻¹ ⊗ I) Z`.
pub const TI: [[f64; 3]; 3] = [
    [4.325579890063155, 0.33919925181580984, 0.5417705399358749],
    [
        -4.178718591551905,
        -0.32768282076106237,
        0.47662355450055044,
    ],
    [-0.5028726349457868, 2.571926949855605, -0.5960392048282249],
];

/// Weights `d` of the embedded error estimate (§IV.8):
/// `err = (γ̂/h M − J)⁻¹ (f(t₀, y₀) + M Σ dᵢ Zᵢ / h)`. They solve `Σ dᵢ cᵢ = −1`,
/// `Σ dᵢ cᵢ² = Σ dᵢ cᵢ³ = 0`, so that the estimate vanishes on cubic solutions.
pub const DD: [f64; 3] = [
    -(13.0 + 7.0 * SQ6) / 3.0,
    (-13.0 + 7.0 * SQ6) / 3.0,
    -1.0 / 3.0,
];

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
mod tests {
    use super::*;

    type M3 = [[f64; 3]; 3];

    fn mul(a: &M3, b: &M3) -> M3 {
        let mut c = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                c[i][j] = (0..3).map(|k| a[i][k] * b[k][j]).sum();
            }
        }
        c
    }

    /// Inverse by cofactors.
    fn inv(a: &M3) -> M3 {
        let cof = |i: usize, j: usize| {
            let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
            let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
            a[r0][c0] * a[r1][c1] - a[r0][c1] * a[r1][c0]
        };
        let det: f64 = (0..3).map(|j| a[0][j] * cof(0, j)).sum();
        let mut r = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                r[j][i] = cof(i, j) / det;
            }
        }
        r
    }

    #[test]
    fn collocation_conditions_hold() {
        // Σ_j a_ij c_j^(k−1) = c_i^k / k for k = 1, 2, 3 (stage order 3).
        for (i, row) in A.iter().enumerate() {
            for k in 1..=3 {
                let lhs: f64 = (0..3).map(|j| row[j] * C[j].powi(k - 1)).sum();
                let rhs = C[i].powi(k) / k as f64;
                assert!((lhs - rhs).abs() < 1e-15, "row {i}, k {k}: {lhs} vs {rhs}");
            }
        }
        // Quadrature order 5: Σ b_j c_j^(k−1) = 1/k for k = 1..=5, not for k = 6.
        let b = A[2];
        for k in 1..=6 {
            let q: f64 = (0..3).map(|j| b[j] * C[j].powi(k - 1)).sum();
            if k <= 5 {
                assert!((q - 1.0 / k as f64).abs() < 1e-15, "k {k}: {q}");
            } else {
                assert!((q - 1.0 / 6.0).abs() > 1e-4);
            }
        }
        // The nodes are the zeros of the Radau polynomial d²/dx² (x² (x − 1)³) ∝ 10x² − 8x + 1.
        for c in [C1, C2] {
            assert!((10.0 * c * c - 8.0 * c + 1.0).abs() < 1e-15);
        }
    }

    #[test]
    fn eigenvalues_match_their_closed_forms() {
        let (c81, c9) = (81f64.cbrt(), 9f64.cbrt());
        let g = 30.0 / (6.0 + c81 - c9);
        let (ar, ai) = ((12.0 - c81 + c9) / 60.0, (c81 + c9) * 3f64.sqrt() / 60.0);
        let m = ar * ar + ai * ai;
        assert!((g - GAMMA).abs() < 4e-15, "{g}");
        assert!((ar / m - ALPHA).abs() < 4e-15, "{}", ar / m);
        assert!((ai / m - BETA).abs() < 4e-15, "{}", ai / m);
        // γ̂ is a root of det(A⁻¹ − λ I): the characteristic polynomial of A is
        // λ³ − λ²·tr(A) + …; check via det(I − A γ̂) = 0 instead.
        let mut ia = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                ia[i][j] = if i == j { 1.0 } else { 0.0 } - GAMMA * A[i][j];
            }
        }
        let det = ia[0][0] * (ia[1][1] * ia[2][2] - ia[1][2] * ia[2][1])
            - ia[0][1] * (ia[1][0] * ia[2][2] - ia[1][2] * ia[2][0])
            + ia[0][2] * (ia[1][0] * ia[2][1] - ia[1][1] * ia[2][0]);
        assert!(det.abs() < 1e-14, "{det}");
    }

    #[test]
    fn t_block_diagonalises_a_inverse() {
        let ti_t = mul(&TI, &T);
        for i in 0..3 {
            for j in 0..3 {
                let e = if i == j { 1.0 } else { 0.0 };
                assert!(
                    (ti_t[i][j] - e).abs() < 1e-14,
                    "T⁻¹T[{i}][{j}] = {}",
                    ti_t[i][j]
                );
            }
        }
        let lam = mul(&TI, &mul(&inv(&A), &T));
        let want = [[GAMMA, 0.0, 0.0], [0.0, ALPHA, -BETA], [0.0, BETA, ALPHA]];
        for i in 0..3 {
            for j in 0..3 {
                assert!(
                    (lam[i][j] - want[i][j]).abs() < 1e-14,
                    "T⁻¹A⁻¹T[{i}][{j}] = {} vs {}",
                    lam[i][j],
                    want[i][j]
                );
            }
        }
    }

    #[test]
    fn error_weights_kill_cubics() {
        let moment = |k: i32| -> f64 { (0..3).map(|i| DD[i] * C[i].powi(k)).sum() };
        assert!((moment(1) + 1.0).abs() < 1e-14, "{}", moment(1));
        assert!(moment(2).abs() < 1e-14, "{}", moment(2));
        assert!(moment(3).abs() < 1e-14, "{}", moment(3));
        // Not a quartic: the estimate is O(h⁴).
        assert!(moment(4).abs() > 1e-3);
    }
}
