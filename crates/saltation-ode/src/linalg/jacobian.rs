//! The Jacobian `∂f/∂y`, the mass matrix and the block structure of a system, as the implicit
//! methods need them.

use super::{ComplexLu, Lu};
use crate::system::base_dim;
use crate::{OdeError, OdeSystem, Stats};

/// Floor of `|y_j|` in the finite-difference increment `δ_j = √(ε · max(FD_FLOOR, |y_j|))`
/// (Hairer & Wanner's `radau5`): a relative increment of `√ε` for components of unit size and
/// above, an absolute one of `√(ε · 1e-5)` near zero.
pub const FD_FLOOR: f64 = 1e-5;

/// Jacobian, mass matrix and scratch of an implicit method for one system.
///
/// The system has dimension `n (1 + c)`: the state `x` (`n`), then `c` variational columns
/// (see [`OdeSystem::variational_columns`]). Everything here is `n × n`.
#[derive(Debug, Clone, Default)]
pub struct JacobianWork {
    n: usize,
    c: usize,
    /// `∂f/∂x` (row-major `n × n`).
    pub jac: Vec<f64>,
    mass: Option<Vec<f64>>,
    y_tmp: Vec<f64>,
    f_tmp: Vec<f64>,
}

impl JacobianWork {
    /// Sizes the work for `sys` and reads its mass matrix.
    pub fn setup<S: OdeSystem + ?Sized>(&mut self, sys: &S) -> Result<(), OdeError> {
        let dim = sys.dim();
        let c = sys.variational_columns();
        let n = base_dim(dim, c).ok_or(OdeError::DimensionMismatch {
            what: "variational system (dimension n (1 + c) for c variational columns)",
            expected: (dim / (1 + c)) * (1 + c),
            got: dim,
        })?;
        crate::check_dense("n × n Jacobian of the implicit method", n, n)?;
        self.n = n;
        self.c = c;
        self.jac.clear();
        self.jac.resize(n * n, 0.0);
        self.y_tmp.clear();
        self.y_tmp.resize(dim, 0.0);
        self.f_tmp.clear();
        self.f_tmp.resize(dim, 0.0);
        self.mass = sys.mass_matrix();
        if let Some(m) = &self.mass {
            if m.len() != n * n {
                return Err(OdeError::DimensionMismatch {
                    what: "mass matrix (n × n entries)",
                    expected: n * n,
                    got: m.len(),
                });
            }
            if m.iter().any(|v| !v.is_finite()) {
                return Err(OdeError::InvalidOption {
                    field: "mass_matrix",
                    reason: "must be finite",
                });
            }
        }
        Ok(())
    }

    /// Base dimension `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Variational columns `c`.
    pub fn columns(&self) -> usize {
        self.c
    }

    /// The mass matrix, `None` for the identity.
    pub fn mass(&self) -> Option<&[f64]> {
        self.mass.as_deref()
    }

    /// Whether the mass matrix is the identity.
    pub fn has_identity_mass(&self) -> bool {
        self.mass.is_none()
    }

    /// Evaluates `∂f/∂x` at `(t, y)` into [`JacobianWork::jac`]: the system's own Jacobian, else
    /// forward differences `(f(y + δ_j e_j) − f(y)) / δ_j` with `f = f(t, y)` given
    /// (`n` more evaluations of `f`). Counts one Jacobian evaluation.
    ///
    /// A Jacobian with a NaN or infinite entry (a field that is finite but not differentiable
    /// there, e.g. `sqrt(x^2)` at 0) is [`OdeError::NonFiniteJacobian`], named as the
    /// Jacobian's failure and not the vector field's, for every implicit method alike.
    pub fn evaluate<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        f: &[f64],
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        stats.jacobian_evals += 1;
        if !sys.jacobian(t, y, &mut self.jac) {
            self.differences(sys, t, y, f, stats);
        }
        if self.jac.iter().all(|v| v.is_finite()) {
            Ok(())
        } else {
            Err(OdeError::NonFiniteJacobian { t })
        }
    }

    /// Forward differences `(f(y + δ_j e_j) − f(y)) / δ_j` into [`JacobianWork::jac`].
    fn differences<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        f: &[f64],
        stats: &mut Stats,
    ) {
        let n = self.n;
        self.y_tmp.copy_from_slice(y);
        for (j, &yj) in y.iter().enumerate().take(n) {
            let delta = (f64::EPSILON * yj.abs().max(FD_FLOOR)).sqrt();
            self.y_tmp[j] = yj + delta;
            // The increment actually represented.
            let delta = self.y_tmp[j] - yj;
            sys.rhs(t, &self.y_tmp, &mut self.f_tmp);
            stats.rhs_evals += 1;
            for (i, (fd, f0)) in self.f_tmp.iter().zip(f).take(n).enumerate() {
                self.jac[i * n + j] = (fd - f0) / delta;
            }
            self.y_tmp[j] = yj;
        }
    }

    /// `∂f/∂t` at `(t, y)` into `out` (length `n`): the system's own, else the forward difference
    /// `(f(t + δ, y) − f(t, y)) / δ` with `δ = √ε · max(1, |t|)`.
    pub fn time_derivative<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        f: &[f64],
        out: &mut [f64],
        stats: &mut Stats,
    ) {
        if sys.time_derivative(t, y, out) {
            return;
        }
        let delta = f64::EPSILON.sqrt() * t.abs().max(1.0);
        let delta = (t + delta) - t;
        sys.rhs(t + delta, y, &mut self.f_tmp);
        stats.rhs_evals += 1;
        for i in 0..self.n {
            out[i] = (self.f_tmp[i] - f[i]) / delta;
        }
    }

    /// Writes `α M + β J` into `a` (`n × n`; `M = I` without a mass matrix).
    pub fn fill_shifted(&self, a: &mut [f64], alpha: f64, beta: f64) {
        let n = self.n;
        for (d, j) in a.iter_mut().zip(&self.jac) {
            *d = beta * j;
        }
        match &self.mass {
            None => {
                for i in 0..n {
                    a[i * n + i] += alpha;
                }
            }
            Some(m) => {
                for (d, mi) in a.iter_mut().zip(m) {
                    *d += alpha * mi;
                }
            }
        }
    }

    /// Factors `α M + β J` into `lu` (counts one LU decomposition).
    pub fn factor_real(
        &self,
        lu: &mut Lu,
        alpha: f64,
        beta: f64,
        stats: &mut Stats,
    ) -> Result<(), super::Singular> {
        stats.lu_decompositions += 1;
        self.fill_shifted(lu.matrix_mut(self.n), alpha, beta);
        lu.factor()
    }

    /// Factors `(αᵣ + i αᵢ) M + β J` into `lu` (counts one LU decomposition).
    pub fn factor_complex(
        &self,
        lu: &mut ComplexLu,
        alpha: (f64, f64),
        beta: f64,
        stats: &mut Stats,
    ) -> Result<(), super::Singular> {
        stats.lu_decompositions += 1;
        let n = self.n;
        let (re, im) = lu.matrix_mut(n);
        self.fill_shifted(re, alpha.0, beta);
        match &self.mass {
            None => {
                im.fill(0.0);
                for i in 0..n {
                    im[i * n + i] = alpha.1;
                }
            }
            Some(m) => {
                for (d, mi) in im.iter_mut().zip(m) {
                    *d = alpha.1 * mi;
                }
            }
        }
        lu.factor()
    }

    /// Solves with the `n × n` factorization for a full state vector `v = [x, Φ]`: `x` as one
    /// right-hand side, `Φ` (`n × c`, row-major) as `c` of them — the staggered solve of a
    /// block system with `I ⊗ A` on the diagonal.
    pub fn solve(&self, lu: &Lu, v: &mut [f64]) {
        let (x, phi) = v.split_at_mut(self.n);
        lu.solve_rows(x, 1);
        if self.c > 0 {
            lu.solve_rows(phi, self.c);
        }
    }

    /// [`JacobianWork::solve`] with a complex factorization (`vr + i vi`).
    pub fn solve_complex(&self, lu: &ComplexLu, vr: &mut [f64], vi: &mut [f64]) {
        let n = self.n;
        let (xr, pr) = vr.split_at_mut(n);
        let (xi, pi) = vi.split_at_mut(n);
        lu.solve_rows(xr, xi, 1);
        if self.c > 0 {
            lu.solve_rows(pr, pi, self.c);
        }
    }

    /// `out = M v` for a full state vector (`M` applied to `x` and to every column of `Φ`);
    /// a copy when `M = I`.
    pub fn mass_times(&self, v: &[f64], out: &mut [f64]) {
        let Some(m) = &self.mass else {
            out.copy_from_slice(v);
            return;
        };
        let (n, c) = (self.n, self.c);
        for i in 0..n {
            out[i] = (0..n).map(|k| m[i * n + k] * v[k]).sum();
        }
        for i in 0..n {
            for col in 0..c {
                out[n + i * c + col] = (0..n).map(|k| m[i * n + k] * v[n + k * c + col]).sum();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FnSystem;

    #[test]
    fn finite_differences_match_the_exact_jacobian() {
        let sys = FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
            dy[0] = y[0] * y[1];
            dy[1] = y[0].sin() - 3.0 * y[1];
        });
        let mut w = JacobianWork::default();
        w.setup(&sys).unwrap();
        let y = [0.7, -1.3];
        let mut f = [0.0; 2];
        sys.rhs(0.0, &y, &mut f);
        let mut stats = Stats::default();
        w.evaluate(&sys, 0.0, &y, &f, &mut stats).unwrap();
        let exact = [y[1], y[0], y[0].cos(), -3.0];
        for (a, b) in w.jac.iter().zip(exact) {
            assert!((a - b).abs() < 1e-7, "{a} vs {b}");
        }
        assert_eq!((stats.jacobian_evals, stats.rhs_evals), (1, 2));
    }
}
