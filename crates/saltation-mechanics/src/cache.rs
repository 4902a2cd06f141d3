//! What a constrained model computes once instead of at every flow evaluation: the constant
//! mass matrix, and per contact mode the constant constraint Jacobian, the factors of the
//! constant saddle-point matrix and, with affine forces, the constant flow Jacobian, as far as
//! the system declares them constant ([`MechanicalSystem::mass_matrix_is_constant`],
//! [`MechanicalSystem::constraints_are_linear`], [`MechanicalSystem::forces_are_linear`]).
//! Constant in the state, these pieces depend on the parameter values: a [`Cache`] holds them
//! for one parameter vector, and a [`CacheSlot`] keeps the one of the values last asked for.

use crate::constraints::{active_count, constraint_terms};
use crate::kernel::{Factored, Mode};
use crate::lu::{factor, inverse, subtract_product};
use crate::system::{ContactSet, MechanicalSystem};
use saltation_hybrid::{Scalar, SingularMatrix};
use std::sync::{Arc, OnceLock, RwLock};

/// The constant pieces of one contact mode.
#[derive(Debug, Clone)]
pub(crate) struct ModeConst {
    /// Number of active constraints `r`.
    pub(crate) r: usize,
    /// `G = γ_q` (row-major r × n) when the constraints are affine.
    pub(crate) jac: Option<Vec<f64>>,
    /// `[[H, Gᵀ], [G, 0]]⁻¹` (row-major) when `H` is constant as well (or why the matrix is
    /// singular).
    pub(crate) inverse: Option<Result<Vec<f64>, SingularMatrix>>,
    /// The same inverse column-major (its columns contiguous; empty without it), for products
    /// `K⁻¹ b = Σ_j b_j (K⁻¹)_{·j}` of which only the leading rows may be wanted.
    pub(crate) inverse_columns: Vec<f64>,
    /// With the inverse: the constant part of `∂q̈/∂x`, `−(K⁻¹)_{q̈,λ} [ω² G, 2ω G]`
    /// (row-major n × 2n; see [`crate::jacobian`]).
    pub(crate) drift: Vec<f64>,
    /// With the inverse and affine forces ([`MechanicalSystem::forces_are_linear`]): the mode's
    /// flow is affine, [`AffineFlow`].
    pub(crate) affine: Option<AffineFlow>,
}

/// An affine mode's flow, `q̈(x) = q̈(0) + (∂q̈/∂x) x`, from its cached pieces.
#[derive(Debug, Clone)]
pub(crate) struct AffineFlow {
    /// The whole flow Jacobian `f_x = [[0, I], [∂q̈/∂q, ∂q̈/∂q̇]]` (row-major 2n × 2n), the
    /// same at every state.
    pub(crate) jac: Vec<f64>,
    /// The accelerations at `x = 0` (length n).
    pub(crate) accel_at_zero: Vec<f64>,
}

/// Assembles `K = [[H, Gᵀ], [G, 0]]` (row-major `(n + r)²`) into `k`.
pub(crate) fn assemble(h: &[f64], g: &[f64], n: usize, r: usize, k: &mut [f64]) {
    let m = n + r;
    k[..m * m].fill(0.0);
    for i in 0..n {
        k[i * m..i * m + n].copy_from_slice(&h[i * n..(i + 1) * n]);
    }
    for c in 0..r {
        for j in 0..n {
            k[(n + c) * m + j] = g[c * n + j];
            k[j * m + n + c] = g[c * n + j];
        }
    }
}

impl ModeConst {
    fn new<S: MechanicalSystem + ?Sized>(
        sys: &S,
        p: &[f64],
        closed: ContactSet,
        mass: Option<&[f64]>,
        omega: f64,
    ) -> Self {
        let (n, r) = (sys.dofs(), active_count(sys, closed));
        let zeros = vec![0.0; n];
        let jac = sys
            .constraints_are_linear()
            .then(|| constraint_terms(sys, p, closed, &zeros, &zeros).jac);
        let inverse = match (&jac, mass) {
            (Some(g), Some(h)) => {
                let m = n + r;
                let (mut lu, mut piv) = (vec![0.0; m * m], vec![0; m]);
                assemble(h, g, n, r, &mut lu);
                Some(factor(&mut lu, &mut piv, m).map(|()| inverse(&lu, &piv, m)))
            }
            _ => None,
        };
        let mut drift = Vec::new();
        if let (Some(Ok(inv)), Some(g)) = (&inverse, &jac) {
            let (m, n2) = (n + r, 2 * n);
            let mut rx = vec![0.0; r * n2];
            for k in 0..r {
                for j in 0..n {
                    rx[k * n2 + j] = omega * omega * g[k * n + j];
                    rx[k * n2 + n + j] = 2.0 * omega * g[k * n + j];
                }
            }
            drift = vec![0.0; n * n2];
            subtract_product(&inv[n..], m, r, &rx, n2, &mut drift);
        }
        let inverse_columns = match &inverse {
            Some(Ok(inv)) => {
                let m = n + r;
                (0..m * m).map(|k| inv[(k % m) * m + k / m]).collect()
            }
            _ => Vec::new(),
        };
        let mut fixed = Self {
            r,
            jac,
            inverse,
            inverse_columns,
            drift,
            affine: None,
        };
        if let (true, Some(Ok(inv)), Some(g)) =
            (sys.forces_are_linear(), &fixed.inverse, &fixed.jac)
        {
            // f_x does not depend on the state: evaluate it once, at x = 0 (R_x holds the
            // forces' constant derivatives there; the constraints' part is the cached drift).
            let mode = Mode {
                sys,
                p,
                closed,
                omega,
                mass,
                fixed: Some(&fixed),
            };
            let (zeros, z) = (vec![0.0; n], vec![0.0; n + r]);
            let (mut rx, mut fx) = (vec![0.0; (n + r) * 2 * n], vec![0.0; 4 * n * n]);
            let k = Factored::Inverse(inv);
            mode.flow_jacobian(&zeros, &zeros, &z, g, k, &mut rx, &mut fx);
            let mut a0 = vec![0.0; n];
            mode.solve_constant(&fixed, (inv, g), &zeros, &zeros, &mut a0, None);
            fixed.affine = Some(AffineFlow {
                jac: fx,
                accel_at_zero: a0,
            });
        }
        fixed
    }
}

/// The parameter derivative of an affine mode's accelerations, affine in the state as well:
/// with `q̈(x; p) = A(p) x + a(p)`, `∂q̈/∂p = A'(p) x + a'(p)`.
#[derive(Debug, Clone)]
pub(crate) struct ParamFlow {
    /// `∂q̈/∂p` at `x = 0` (length n).
    pub(crate) at_zero: Vec<f64>,
    /// `∂(∂q̈/∂p)/∂x` (row-major n × 2n).
    pub(crate) jac: Vec<f64>,
}

impl ParamFlow {
    /// `∂q̈/∂p` at `x = [q, q̇]` into `out` (length n).
    pub(crate) fn eval(&self, x: &[f64], out: &mut [f64]) {
        let n2 = x.len();
        for ((o, a0), row) in out
            .iter_mut()
            .zip(&self.at_zero)
            .zip(self.jac.chunks_exact(n2))
        {
            *o = a0 + row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
        }
    }
}

/// The constant pieces of a model at one parameter vector, filled per mode on first use.
pub(crate) struct Cache {
    /// The parameter values the pieces are for.
    p: Vec<f64>,
    /// `H` (row-major n × n) when constant.
    pub(crate) mass: Option<Vec<f64>>,
    /// Baumgarte rate `ω` of the model.
    omega: f64,
    modes: Vec<OnceLock<ModeConst>>,
    /// Number of parameters of the system.
    params: usize,
    /// Per mode and parameter (`mode · params + k`), [`ParamFlow`] of an affine mode.
    param_flows: Vec<OnceLock<Option<ParamFlow>>>,
}

impl Cache {
    /// The cache of `sys` at the parameter values `p` integrated with Baumgarte rate `omega`
    /// (the constant mass matrix is evaluated at `q = 0`).
    pub(crate) fn new<S: MechanicalSystem + ?Sized>(sys: &S, omega: f64, p: &[f64]) -> Self {
        let n = sys.dofs();
        let mass = sys.mass_matrix_is_constant().then(|| {
            let mut h = vec![0.0; n * n];
            sys.mass_matrix(p, &vec![0.0; n], &mut h);
            h
        });
        let count = 1usize << sys.contact_count();
        let modes = (0..count).map(|_| OnceLock::new()).collect();
        let params = p.len();
        let param_flows = (0..count * params).map(|_| OnceLock::new()).collect();
        Self {
            p: p.to_vec(),
            mass,
            omega,
            modes,
            params,
            param_flows,
        }
    }

    /// Whether the pieces are for the parameter values `p` (their real parts, bit for bit).
    pub(crate) fn is_for<D: Scalar>(&self, p: &[D]) -> bool {
        self.p.len() == p.len()
            && self
                .p
                .iter()
                .zip(p)
                .all(|(a, b)| a.to_bits() == b.re().to_bits())
    }

    /// The parameter values the pieces are for.
    pub(crate) fn values(&self) -> &[f64] {
        &self.p
    }

    /// [`ParamFlow`] of parameter `k` (at the cache's values) in contact mode `closed`, when
    /// the mode's flow is affine (its `f_x` is cached); found from `2n + 1` evaluations of the
    /// implicit derivative (at `x = 0` and at each unit vector: exact for an affine function,
    /// up to rounding). `None` otherwise, or when the saddle-point matrix is singular.
    pub(crate) fn param_flow<S: MechanicalSystem + ?Sized>(
        &self,
        sys: &S,
        closed: ContactSet,
        k: usize,
    ) -> Option<&ParamFlow> {
        if k >= self.params {
            return None;
        }
        let fixed = self.mode(sys, closed)?;
        fixed.affine.as_ref()?;
        let cell = self.param_flows.get(closed.mode() * self.params + k)?;
        cell.get_or_init(|| {
            let mode = Mode {
                sys,
                p: &self.p,
                closed,
                omega: self.omega,
                mass: self.mass.as_deref(),
                fixed: Some(fixed),
            };
            let (n, r) = (sys.dofs(), fixed.r);
            let mut x = vec![0.0; 2 * n];
            let mut dz = vec![0.0; n + r];
            let mut at = |x: &[f64]| -> Option<Vec<f64>> {
                let (q, v) = x.split_at(n);
                mode.param_derivative(k, q, v, &mut dz).ok()?;
                Some(dz[..n].to_vec())
            };
            let at_zero = at(&x)?;
            let mut jac = vec![0.0; n * 2 * n];
            for j in 0..2 * n {
                x[j] = 1.0;
                let col = at(&x)?;
                x[j] = 0.0;
                for i in 0..n {
                    jac[i * 2 * n + j] = col[i] - at_zero[i];
                }
            }
            Some(ParamFlow { at_zero, jac })
        })
        .as_ref()
    }

    /// The constant pieces of contact mode `closed` (`None` for a mode the system does not
    /// have).
    pub(crate) fn mode<S: MechanicalSystem + ?Sized>(
        &self,
        sys: &S,
        closed: ContactSet,
    ) -> Option<&ModeConst> {
        self.modes.get(closed.mode()).map(|cell| {
            cell.get_or_init(|| {
                ModeConst::new(sys, &self.p, closed, self.mass.as_deref(), self.omega)
            })
        })
    }
}

/// The cache of the parameter values last asked for, replaced when other values are asked
/// for: a model evaluated at one parameter vector (a [`saltation_hybrid::Bound`]) builds its
/// constant pieces once, and one whose values change rebuilds them on first use. Clones share
/// the current cache until either is asked for other values.
pub(crate) struct CacheSlot(RwLock<Arc<Cache>>);

impl CacheSlot {
    /// A slot holding the (empty) cache of `sys` at `p`.
    pub(crate) fn new<S: MechanicalSystem + ?Sized>(sys: &S, omega: f64, p: &[f64]) -> Self {
        Self(RwLock::new(Arc::new(Cache::new(sys, omega, p))))
    }

    /// Runs `f` with the cache of `sys` at the values `p` (their real parts): the current one
    /// if it is for them, else a new one, which replaces it. (`f` must not ask the slot
    /// again: it runs under the slot's read lock.)
    pub(crate) fn with<S: MechanicalSystem + ?Sized, D: Scalar, R>(
        &self,
        sys: &S,
        p: &[D],
        f: impl FnOnce(&Cache) -> R,
    ) -> R {
        let omega = {
            let current = self.0.read().unwrap_or_else(|e| e.into_inner());
            if current.is_for(p) {
                return f(&current);
            }
            current.omega
        };
        let values: Vec<f64> = p.iter().map(|v| v.re()).collect();
        let fresh = Arc::new(Cache::new(sys, omega, &values));
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = Arc::clone(&fresh);
        f(&fresh)
    }
}

impl Clone for CacheSlot {
    fn clone(&self) -> Self {
        Self(RwLock::new(Arc::clone(
            &self.0.read().unwrap_or_else(|e| e.into_inner()),
        )))
    }
}

impl std::fmt::Debug for CacheSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CacheSlot")
    }
}
