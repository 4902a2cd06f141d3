//! The trait a user implements to describe a constrained mechanical system.

use saltation_hybrid::{ParamError, Scalar};
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
/// `H(q) q̈ + C(q, q̇) + γ_qᵀ(q) λ = 0`, `γ(q) = 0`,
///
/// with mass matrix `H`, generalized forces `C` (springs, dampers, gravity, actuators, velocity
/// terms, all on the left-hand side as in Zana et al. 2018, eq. 15), and the active constraints
/// `γ`: the bilateral constraints `γ_b` always, plus the gap `γ_i(q)` of every closed
/// unilateral contact `i`. A contact closes when its gap falls to zero (an inelastic impact)
/// and opens when its multiplier `λ_i` rises through zero: the contact force on the system is
/// `−γ_{i,q}ᵀ λ_i`, so a gap that grows away from the ground is pushed by `λ_i < 0`, and
/// `λ_i > 0` would be the ground pulling.
///
/// Everything is written once, generic over the scalar `D` ([`Scalar`]); constraint
/// Jacobians `γ_q`, the convective term `γ̇_q q̇` and all Jacobians of the resulting hybrid
/// model then come from automatic differentiation.
pub trait MechanicalSystem {
    /// Short name (`"hopper"`).
    fn name(&self) -> &str;
    /// Number of coordinates `n`.
    fn dofs(&self) -> usize;
    /// Names of the coordinates (the velocities are named `d<name>`).
    fn coordinate_names(&self) -> Vec<String> {
        (0..self.dofs()).map(|i| format!("q{i}")).collect()
    }
    /// Mass matrix `H(q)` (row-major `n × n`, symmetric positive definite) into `h`.
    fn mass_matrix<D: Scalar>(&self, q: &[D], h: &mut [D]);
    /// Generalized forces `C(q, q̇)` (left-hand side convention) with the contacts `closed`.
    fn forces<D: Scalar>(&self, closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]);
    /// Number of bilateral constraints (default 0).
    fn bilateral_count(&self) -> usize {
        0
    }
    /// Bilateral constraints `γ_b(q)` into `gamma` (length [`MechanicalSystem::bilateral_count`]).
    fn bilateral<D: Scalar>(&self, _q: &[D], _gamma: &mut [D]) {}
    /// Number of unilateral contacts (at most [`MAX_CONTACTS`]).
    fn contact_count(&self) -> usize;
    /// Name of contact `i` (for messages).
    fn contact_name(&self, i: usize) -> String {
        format!("contact {i}")
    }
    /// Gap `γ_i(q)` of contact `i`: positive open, zero closed.
    fn gap<D: Scalar>(&self, i: usize, q: &[D]) -> D;
    /// Whether every constraint — the bilateral ones and every contact's gap — is affine in
    /// `q`, `γ(q) = G q + γ₀` with a constant `G` (default `false`). Then `G` is computed once
    /// per contact mode, the convective term `q̇ᵀγ_qq q̇` is zero and the flow makes no dual
    /// pass over the constraints. Only an optimisation, and a promise: declared for a
    /// nonlinear constraint, it gives wrong accelerations.
    fn constraints_are_linear(&self) -> bool {
        false
    }
    /// Whether the mass matrix `H` is the same at every `q` (default `false`). Then it is
    /// evaluated once (at `q = 0`); with affine constraints
    /// ([`MechanicalSystem::constraints_are_linear`]) the saddle-point matrix of every contact
    /// mode is constant as well and is factored once. Only an optimisation, and a promise.
    fn mass_matrix_is_constant(&self) -> bool {
        false
    }
    /// Whether the forces are affine in the state in every contact mode,
    /// `C(q, q̇) = C_q q + C_q̇ q̇ + C₀` with constant `C_q`, `C_q̇`, `C₀` (default `false`).
    /// With a constant mass matrix and affine constraints every contact mode's flow is then
    /// affine as well, `x' = A x + a`, and its Jacobian `f_x = A` is computed once per mode
    /// instead of at every evaluation. Only an optimisation, and a promise: declared for
    /// nonlinear forces, it gives a wrong `f_x` (hence wrong stride Jacobians and multipliers).
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
    /// Checks the parameters' physical ranges (default: nothing to check).
    fn check_params(&self) -> Result<(), ParamError> {
        Ok(())
    }
    /// Names of the parameters (default: none); as [`saltation_hybrid::EvalModel::param_names`].
    /// `saltation_hybrid::named_params!` writes these three methods for `f64` fields.
    fn param_names(&self) -> Vec<String> {
        Vec::new()
    }
    /// Value of parameter `k` (default: none).
    fn param_value(&self, _k: usize) -> Option<f64> {
        None
    }
    /// Sets parameter `k`, checked (default: no parameters).
    fn set_param_value(&mut self, k: usize, _value: f64) -> Result<(), ParamError> {
        Err(ParamError::Unknown {
            name: format!("#{k}"),
            known: self.param_names(),
        })
    }
    /// Whether the `*_with_param` functions below give the system's exact dependence on
    /// parameter `k` (default `false`). When `true`, [`crate::Constrained`] gives exact
    /// parameter derivatives ([`saltation_hybrid::EvalModel::param_derivatives`]): `∂q̈/∂p`,
    /// `∂λ/∂p`, the impact's `∂q̇⁺/∂p` and the section chart's `∂χ/∂p` by automatic
    /// differentiation through the saddle-point system, so that continuation in `k` takes
    /// `∂F/∂p` from the variational equations instead of central differences.
    fn param_derivatives(&self, _k: usize) -> bool {
        false
    }
    /// The mass matrix with parameter `k` given as the scalar `p` (a dual number carries
    /// `∂/∂p`). The default ignores `p`: a system that declares
    /// [`MechanicalSystem::param_derivatives`] overrides every function that depends on `k`.
    fn mass_matrix_with_param<D: Scalar>(&self, _k: usize, _p: D, q: &[D], h: &mut [D]) {
        self.mass_matrix(q, h)
    }
    /// The forces with parameter `k` given as the scalar `p` (default: ignores `p`).
    fn forces_with_param<D: Scalar>(
        &self,
        _k: usize,
        _p: D,
        closed: ContactSet,
        q: &[D],
        qd: &[D],
        c: &mut [D],
    ) {
        self.forces(closed, q, qd, c)
    }
    /// The bilateral constraints with parameter `k` given as the scalar `p` (default: ignores
    /// `p`).
    fn bilateral_with_param<D: Scalar>(&self, _k: usize, _p: D, q: &[D], gamma: &mut [D]) {
        self.bilateral(q, gamma)
    }
    /// The gap of contact `i` with parameter `k` given as the scalar `p` (default: ignores
    /// `p`).
    fn gap_with_param<D: Scalar>(&self, _k: usize, _p: D, i: usize, q: &[D]) -> D {
        self.gap(i, q)
    }
}

/// Parameter `k` of a system given as the scalar `p` (its derivative parts carry `∂/∂p`), or
/// `None` for the system at its own parameter values: what the crate's generic evaluations
/// ([`crate::constraints`], the saddle-point solve, the section chart) pass down to the
/// system's functions.
pub(crate) type ParamArg<D> = Option<(usize, D)>;

/// Lifts a parameter argument into a scalar built on `D` (a nested dual number).
pub(crate) fn lift<D: Copy, E>(param: ParamArg<D>, f: impl Fn(D) -> E) -> ParamArg<E> {
    param.map(|(k, p)| (k, f(p)))
}

/// `H(q)` into `h` ([`MechanicalSystem::mass_matrix_with_param`] when a parameter is given).
pub(crate) fn mass_matrix<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    param: ParamArg<D>,
    q: &[D],
    h: &mut [D],
) {
    match param {
        Some((k, p)) => sys.mass_matrix_with_param(k, p, q, h),
        None => sys.mass_matrix(q, h),
    }
}

/// `C(q, q̇)` into `c` ([`MechanicalSystem::forces_with_param`] when a parameter is given).
pub(crate) fn forces<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    param: ParamArg<D>,
    closed: ContactSet,
    q: &[D],
    qd: &[D],
    c: &mut [D],
) {
    match param {
        Some((k, p)) => sys.forces_with_param(k, p, closed, q, qd, c),
        None => sys.forces(closed, q, qd, c),
    }
}

/// `γ_b(q)` into `gamma` ([`MechanicalSystem::bilateral_with_param`] when a parameter is
/// given).
pub(crate) fn bilateral<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    param: ParamArg<D>,
    q: &[D],
    gamma: &mut [D],
) {
    match param {
        Some((k, p)) => sys.bilateral_with_param(k, p, q, gamma),
        None => sys.bilateral(q, gamma),
    }
}

/// The gap of contact `i` ([`MechanicalSystem::gap_with_param`] when a parameter is given).
pub(crate) fn gap<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    param: ParamArg<D>,
    i: usize,
    q: &[D],
) -> D {
    match param {
        Some((k, p)) => sys.gap_with_param(k, p, i, q),
        None => sys.gap(i, q),
    }
}
