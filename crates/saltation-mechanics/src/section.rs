//! Shooting coordinates on a constraint manifold: a state on the section satisfies the
//! constraints of a contact set (`γ(q) = 0`, `G q̇ = 0`), so it is fixed by a subset of the
//! coordinates (the independent ones) and their velocities; the others follow from the
//! constraints. Fixed points are sought in these `2k` coordinates, and the multipliers of
//! directions that break the constraints (artefacts of the redundant coordinates and of the
//! drift control) never enter.

use crate::constraints::{active_constraints, active_count, constraint_terms};
use crate::error::MechanicsError;
use crate::system::{with_lifted, with_real, ContactSet, MechanicalSystem};
use num_dual::Dual64;
use saltation_hybrid::{solve_dense, Scalar};
use serde::{Deserialize, Serialize};

/// Newton iterations of the chart's position solve (each one step of quadratic convergence;
/// linear constraints converge in one).
const CHART_ITERATIONS: usize = 50;

/// The shooting section of a constrained model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// Contacts closed at a section state (e.g. the stance contact at lift-off, whose gap and
    /// gap rate are zero there).
    pub closed: ContactSet,
    /// Independent coordinates (indices into `q`); the rest are solved from the constraints.
    pub independent: Vec<usize>,
    /// Where the Newton solve for the dependent coordinates starts (length `n`; empty: all
    /// zero). With nonlinear constraints it picks the branch (a pendulum above or below its
    /// pivot).
    #[serde(default)]
    pub guess: Vec<f64>,
}

impl Section {
    /// Checks the indices and that independent + constrained = all coordinates.
    pub fn validate<S: MechanicalSystem + ?Sized>(&self, sys: &S) -> Result<(), MechanicsError> {
        let n = sys.dofs();
        let mut seen = vec![false; n];
        for &i in &self.independent {
            if i >= n || seen[i] {
                return Err(MechanicsError::Section(format!(
                    "independent coordinate {i} is out of range (0..{n}) or repeated"
                )));
            }
            seen[i] = true;
        }
        if !(self.guess.is_empty() || self.guess.len() == n)
            || !self.guess.iter().all(|v| v.is_finite())
        {
            return Err(MechanicsError::Section(format!(
                "guess has {} entries: give {n} finite ones or none",
                self.guess.len()
            )));
        }
        if (self.closed.0 >> sys.contact_count()) != 0 {
            return Err(MechanicsError::Section(format!(
                "closed contact set {:#b} names a contact beyond the {} declared",
                self.closed.0,
                sys.contact_count()
            )));
        }
        let r = active_count(sys, self.closed);
        if self.independent.len() + r != n {
            return Err(MechanicsError::Section(format!(
                "{} independent coordinates + {r} active constraints ≠ {n} coordinates",
                self.independent.len()
            )));
        }
        Ok(())
    }

    fn dependent(&self, n: usize) -> Vec<usize> {
        (0..n).filter(|i| !self.independent.contains(i)).collect()
    }

    /// Columns `cols` of `G` (row-major r × n) as a row-major r × cols.len() matrix.
    fn columns<D: Scalar>(g: &[D], n: usize, cols: &[usize]) -> Vec<D> {
        let r = g.len() / n.max(1);
        let mut out = Vec::with_capacity(r * cols.len());
        for row in 0..r {
            out.extend(cols.iter().map(|&c| g[row * n + c]));
        }
        out
    }

    /// The dependent positions by Newton's method on `γ(q; p) = 0` from the guess, then one
    /// more step in the scalar `D` (with `q_I` seeded, its derivative is the implicit-function
    /// derivative `−G_D⁻¹ G_I`), and the dependent velocities from `G_D q̇_D = −G_I q̇_I`.
    /// With a parameter that carries a derivative part, the same step gives `∂χ/∂p`.
    fn solve<S: MechanicalSystem + ?Sized, D: Scalar>(
        &self,
        sys: &S,
        p: &[D],
        u: &[D],
        x: &mut [D],
    ) {
        let n = sys.dofs();
        let k = self.independent.len();
        let dep = self.dependent(n);
        let r = dep.len();
        let zero = u[0] * 0.0;
        let mut q = if self.guess.is_empty() {
            vec![0.0; n]
        } else {
            self.guess.clone()
        };
        for (a, &i) in self.independent.iter().enumerate() {
            q[i] = u[a].re();
        }
        let zeros = vec![0.0; n];
        let mut gamma = vec![0.0; r];
        let converged = with_real(p, |pr| {
            for _ in 0..CHART_ITERATIONS {
                let t = constraint_terms(sys, pr, self.closed, &q, &zeros);
                let scale = 1.0 + q.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                if t.gamma.iter().all(|g| g.abs() <= 1e-15 * scale) {
                    break;
                }
                let mut gd = Self::columns(&t.jac, n, &dep);
                gamma.copy_from_slice(&t.gamma);
                if solve_dense(&mut gd, &mut gamma, r, 1).is_err() {
                    return false;
                }
                for (a, &i) in dep.iter().enumerate() {
                    q[i] -= gamma[a];
                }
            }
            true
        });
        if !converged {
            x.iter_mut().for_each(|v| *v = zero + f64::NAN);
            return;
        }
        // The final step in D carries the derivative with respect to u.
        let mut qd_: Vec<D> = q.iter().map(|&v| zero + v).collect();
        for (a, &i) in self.independent.iter().enumerate() {
            qd_[i] = u[a];
        }
        let mut vel = vec![zero; n];
        for (a, &i) in self.independent.iter().enumerate() {
            vel[i] = u[k + a];
        }
        // The Newton step in D (positions), then the velocity solve at the updated positions
        // (its G_D depends on u through them).
        for stage in 0..2 {
            let t = constraint_terms(sys, p, self.closed, &qd_, &vel);
            let mut gd = Self::columns(&t.jac, n, &dep);
            let mut rhs = if stage == 0 { t.gamma } else { t.rate };
            if solve_dense(&mut gd, &mut rhs, r, 1).is_err() {
                x.iter_mut().for_each(|v| *v = zero + f64::NAN);
                return;
            }
            for (a, &i) in dep.iter().enumerate() {
                if stage == 0 {
                    qd_[i] -= rhs[a];
                } else {
                    vel[i] = -rhs[a];
                }
            }
        }
        x[..n].copy_from_slice(&qd_);
        x[n..2 * n].copy_from_slice(&vel);
    }

    /// `x = χ(u; p)` with `u = [q_I, q̇_I]` at the parameter values `p` (a parameter that
    /// carries a derivative part gives `∂χ/∂p`).
    pub fn chart<S: MechanicalSystem + ?Sized, D: Scalar>(
        &self,
        sys: &S,
        p: &[D],
        u: &[D],
        x: &mut [D],
    ) {
        self.solve(sys, p, u, x);
    }

    /// `Dχ(u; p)` (row-major 2n × 2k), one dual pass per column.
    pub fn chart_jacobian<S: MechanicalSystem + ?Sized>(
        &self,
        sys: &S,
        p: &[f64],
        u: &[f64],
        jac: &mut [f64],
    ) {
        let m = u.len();
        let n2 = 2 * sys.dofs();
        let mut ud: Vec<Dual64> = u.iter().map(|&v| Dual64::from_re(v)).collect();
        let mut xd = vec![Dual64::from_re(0.0); n2];
        with_lifted(p, Dual64::from_re, Dual64::from_re(0.0), |pd| {
            for j in 0..m {
                ud[j].eps = 1.0;
                self.solve(sys, pd, &ud, &mut xd);
                ud[j].eps = 0.0;
                for (row, v) in xd.iter().enumerate() {
                    jac[row * m + j] = v.eps;
                }
            }
        })
    }

    /// `u = π(x) = [q_I, q̇_I]`.
    pub fn project<D: Copy>(&self, n: usize, x: &[D], u: &mut [D]) {
        let k = self.independent.len();
        for (a, &i) in self.independent.iter().enumerate() {
            u[a] = x[i];
            u[k + a] = x[n + i];
        }
    }

    /// `Dπ` (row-major 2k × 2n): a selection.
    pub fn project_jacobian(&self, n: usize, jac: &mut [f64]) {
        let k = self.independent.len();
        jac.fill(0.0);
        for (a, &i) in self.independent.iter().enumerate() {
            jac[a * 2 * n + i] = 1.0;
            jac[(k + a) * 2 * n + n + i] = 1.0;
        }
    }
}

/// `γ` of `closed` at `q` and the parameter values `p` (for tests and residual reports).
pub fn constraint_values<S: MechanicalSystem + ?Sized>(
    sys: &S,
    p: &[f64],
    closed: ContactSet,
    q: &[f64],
) -> Vec<f64> {
    let mut out = vec![0.0; active_count(sys, closed)];
    active_constraints(sys, p, closed, q, &mut out);
    out
}
