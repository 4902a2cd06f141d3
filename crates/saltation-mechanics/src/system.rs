//! The trait a user implements to describe a constrained mechanical system.

use saltation_hybrid::{Param, ParamError, Scalar};
use serde::{Deserialize, Serialize};

/// Largest number of unilateral contacts: the modes are the `2^c` subsets of closed contacts.
pub const MAX_CONTACTS: usize = 8;

/// The set of closed (active) unilateral contacts, one bit per contact. The hybrid model's
/// mode index is this bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ContactSet(pub u32);

impl ContactSet {
    /// No contact closed.
    pub const NONE: ContactSet = ContactSet(0);
    /// The set of a mode index.
    pub fn from_mode(mode: usize) -> Self {
        ContactSet(mode as u32)
    }
    /// The mode index of this set.
    pub fn mode(self) -> usize {
        self.0 as usize
    }
    /// Whether contact `i` is closed.
    pub fn contains(self, i: usize) -> bool {
        i < 32 && self.0 & (1 << i) != 0
    }
    /// The set with contact `i` closed as well.
    pub fn with(self, i: usize) -> Self {
        ContactSet(self.0 | (1 << i))
    }
    /// The set with contact `i` open.
    pub fn without(self, i: usize) -> Self {
        ContactSet(self.0 & !(1 << i))
    }
    /// Number of closed contacts.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether no contact is closed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The closed contacts in increasing order, among the first `contacts`.
    pub fn iter(self, contacts: usize) -> impl Iterator<Item = usize> {
        (0..contacts).filter(move |&i| self.contains(i))
    }
}

/// A mechanical system in (possibly redundant) coordinates `q ∈ ℝⁿ`:
///
/// `H(q; p) q̈ + C(q, q̇; p) + γ_qᵀ(q; p) λ = 0`, `γ(q; p) = 0`,
///
/// with mass matrix `H`, generalized forces `C` (springs, dampers, gravity, actuators, velocity
/// terms, all on the left-hand side as in Zana et al. 2018, eq. 15), and the active constraints
/// `γ`: the bilateral constraints `γ_b` always, plus the gap `γ_i(q)` of every closed
/// unilateral contact `i`. A contact closes when its gap falls to zero (an inelastic impact)
/// and opens when its multiplier `λ_i` rises through zero: the contact force on the system is
/// `−γ_{i,q}ᵀ λ_i`, so a gap that grows away from the ground is pushed by `λ_i < 0`, and
/// `λ_i > 0` would be the ground pulling.
///
/// **Parameters are data**, as in [`saltation_hybrid::HybridModel`]: the system declares them
/// ([`MechanicalSystem::params`]) and every formula receives their values as `p`, a slice of
/// the same scalar `D` as the coordinates. The system itself holds only its structure
/// (dimensions, contacts, which terms are constant).
///
/// Everything is written once, generic over the scalar `D` ([`Scalar`]); constraint
/// Jacobians `γ_q`, the convective term `γ̇_q q̇`, all Jacobians of the resulting hybrid
/// model and its derivatives in every parameter then come from automatic differentiation.
pub trait MechanicalSystem {
    /// Short name (`"hopper"`).
    fn name(&self) -> &str;
    /// Number of coordinates `n`.
    fn dofs(&self) -> usize;
    /// The parameters, declared once (name, default, valid range); `p[k]` in every formula is
    /// the value of the `k`-th (default: none).
    fn params(&self) -> &[Param] {
        &[]
    }
    /// Conditions on the parameter values beyond each one's declared range (default: none);
    /// as [`saltation_hybrid::HybridModel::check_params`].
    fn check_params(&self, _p: &[f64]) -> Result<(), ParamError> {
        Ok(())
    }
    /// Names of the coordinates (the velocities are named `d<name>`).
    fn coordinate_names(&self) -> Vec<String> {
        (0..self.dofs()).map(|i| format!("q{i}")).collect()
    }
    /// Mass matrix `H(q; p)` (row-major `n × n`, symmetric positive definite) into `h`.
    fn mass_matrix<D: Scalar>(&self, p: &[D], q: &[D], h: &mut [D]);
    /// Generalized forces `C(q, q̇; p)` (left-hand side convention) with the contacts `closed`.
    fn forces<D: Scalar>(&self, p: &[D], closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]);
    /// Number of bilateral constraints (default 0).
    fn bilateral_count(&self) -> usize {
        0
    }
    /// Bilateral constraints `γ_b(q; p)` into `gamma` (length
    /// [`MechanicalSystem::bilateral_count`]).
    fn bilateral<D: Scalar>(&self, _p: &[D], _q: &[D], _gamma: &mut [D]) {}
    /// Number of unilateral contacts (at most [`MAX_CONTACTS`]).
    fn contact_count(&self) -> usize;
    /// Name of contact `i` (for messages).
    fn contact_name(&self, i: usize) -> String {
        format!("contact {i}")
    }
    /// Gap `γ_i(q; p)` of contact `i`: positive open, zero closed.
    fn gap<D: Scalar>(&self, p: &[D], i: usize, q: &[D]) -> D;
    /// Whether every constraint — the bilateral ones and every contact's gap — is affine in
    /// `q`, `γ(q) = G q + γ₀` with a `G` that does not depend on `q` (it may depend on the
    /// parameters) (default `false`). Then `G` is computed once per contact mode and parameter
    /// vector, the convective term `q̇ᵀγ_qq q̇` is zero and the flow makes no dual pass over
    /// the constraints. Only an optimisation, and a promise: declared for a nonlinear
    /// constraint, it gives wrong accelerations.
    fn constraints_are_linear(&self) -> bool {
        false
    }
    /// Whether the mass matrix `H` is the same at every `q` (default `false`). Then it is
    /// evaluated once per parameter vector (at `q = 0`); with affine constraints
    /// ([`MechanicalSystem::constraints_are_linear`]) the saddle-point matrix of every contact
    /// mode is constant as well and is factored once. Only an optimisation, and a promise.
    fn mass_matrix_is_constant(&self) -> bool {
        false
    }
    /// Whether the forces are affine in the state in every contact mode,
    /// `C(q, q̇) = C_q q + C_q̇ q̇ + C₀` with `C_q`, `C_q̇`, `C₀` independent of the state
    /// (default `false`). With a constant mass matrix and affine constraints every contact
    /// mode's flow is then affine as well, `x' = A x + a`, and its Jacobian `f_x = A` is
    /// computed once per mode instead of at every evaluation. Only an optimisation, and a
    /// promise: declared for nonlinear forces, it gives a wrong `f_x` (hence wrong stride
    /// Jacobians and multipliers).
    fn forces_are_linear(&self) -> bool {
        false
    }
    /// Name of the mode with the contacts `closed` (default: `"free"` or the closed contacts).
    fn mode_name(&self, closed: ContactSet) -> String {
        if closed.is_empty() {
            return "free".into();
        }
        let names: Vec<String> = closed
            .iter(self.contact_count())
            .map(|i| self.contact_name(i))
            .collect();
        format!("contact: {}", names.join(" + "))
    }
    /// The shooting section [`crate::Constrained::from_system`] uses (default: none, the full
    /// state).
    fn section(&self) -> Option<crate::Section> {
        None
    }
    /// The integration options [`crate::Constrained::from_system`] uses (default: the
    /// defaults).
    fn constraint_options(&self) -> crate::ConstraintOptions {
        crate::ConstraintOptions::default()
    }
}

/// The real parts of `v` handed to `f` (on the stack for short vectors).
#[inline]
pub(crate) fn with_real<D: Scalar, R>(v: &[D], f: impl FnOnce(&[f64]) -> R) -> R {
    crate::work::with_buffer(0.0, v.len(), |r| {
        r.iter_mut().zip(v).for_each(|(a, b)| *a = b.re());
        f(r)
    })
}

/// `v` lifted into the scalar `E` (constants: no derivative parts of their own) handed to `f`.
pub(crate) fn with_lifted<D: Copy, E: Copy, R>(
    v: &[D],
    lift: impl Fn(D) -> E,
    zero: E,
    f: impl FnOnce(&[E]) -> R,
) -> R {
    crate::work::with_buffer(zero, v.len(), |e| {
        e.iter_mut().zip(v).for_each(|(a, &b)| *a = lift(b));
        f(e)
    })
}
