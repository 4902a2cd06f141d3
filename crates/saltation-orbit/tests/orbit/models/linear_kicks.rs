//! A linear hybrid model with an exactly known stride map: the state `(x, y)` rests while a
//! clock `c` runs (`ẋ = ẏ = 0`, `ċ = 1`); when `c = 1` the reset kicks `(x, y) ↦ D (x, y) + b`
//! and sets `c = 0`. A stride of `k` kicks has the fixed point `(I − D)⁻¹ b` (the one-kick
//! map's), the Jacobian `D^k` in `(x, y)`, and multipliers the `k`-th powers of `D`'s
//! eigenvalues and `0` (the clock, reset to 0). With `D = S diag(10, 10^{−0.6}) S⁻¹` and `k = 10`
//! the multipliers are exactly `1e10`, `1e-6` and `0`.

use saltation_hybrid::{GuardSpec, HybridModel, Param, Scalar};

/// `S`, the eigenvectors of `D` (columns).
const S: [[f64; 2]; 2] = [[1.0, 0.5], [0.3, 1.0]];
/// `D`'s eigenvalues.
pub const EIGEN: [f64; 2] = [10.0, 0.251_188_643_150_958]; // 10^{-0.6}
/// The kick's offset `b`.
pub const B: [f64; 2] = [1.0, -2.0];

/// `D = S diag(EIGEN) S⁻¹`.
pub fn d_matrix() -> [[f64; 2]; 2] {
    let det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
    let inv = [
        [S[1][1] / det, -S[0][1] / det],
        [-S[1][0] / det, S[0][0] / det],
    ];
    let mut d = [[0.0; 2]; 2];
    for (i, row) in d.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (0..2).map(|k| S[i][k] * EIGEN[k] * inv[k][j]).sum();
        }
    }
    d
}

/// The fixed point `(I − D)⁻¹ b`.
pub fn fixed_point() -> [f64; 2] {
    let d = d_matrix();
    let (a, b, c, e) = (1.0 - d[0][0], -d[0][1], -d[1][0], 1.0 - d[1][1]);
    let det = a * e - b * c;
    [(e * B[0] - b * B[1]) / det, (a * B[1] - c * B[0]) / det]
}

/// The model (no parameters).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LinearKicks;

/// The one guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kick {
    /// `c = 1`.
    Clock,
}

impl HybridModel for LinearKicks {
    type Guard = Kick;
    fn name(&self) -> &str {
        "linear_kicks"
    }
    fn dim(&self) -> usize {
        3
    }
    fn params(&self) -> &[Param] {
        &[]
    }
    fn flow<D: Scalar>(&self, _p: &[D], _mode: usize, _t: f64, _x: &[D], dx: &mut [D]) {
        dx[0] = D::from(0.0);
        dx[1] = D::from(0.0);
        dx[2] = D::from(1.0);
    }
    fn guards(&self, _mode: usize) -> &[Kick] {
        &[Kick::Clock]
    }
    fn describe(&self, _mode: usize, _g: Kick) -> GuardSpec {
        GuardSpec::to(0).rising()
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, _g: Kick, x: &[D]) -> D {
        x[2] - 1.0
    }
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, _g: Kick, x: &[D], out: &mut [D]) {
        let d = d_matrix();
        out[0] = x[0] * d[0][0] + x[1] * d[0][1] + B[0];
        out[1] = x[0] * d[1][0] + x[1] * d[1][1] + B[1];
        out[2] = D::from(0.0);
    }
    fn reduced_dim(&self) -> usize {
        2
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = u[1];
        x[2] = D::from(0.0);
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[0];
        u[1] = x[1];
    }
}
