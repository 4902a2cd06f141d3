//! The active constraints of a contact mode and their derivatives by nested automatic
//! differentiation: `γ(q)`, its Jacobian `G = γ_q`, the rate `G q̇` and the convective term
//! `γ̇_q q̇ = q̇ᵀ γ_qq q̇` (one second-order dual pass along `q̇`).

use crate::system::{ContactSet, MechanicalSystem};
use num_dual::{Dual, Dual2};
use saltation_hybrid::Scalar;

/// Number of active constraints with the contacts `closed`: the bilateral ones, then one per
/// closed contact in increasing contact order (the order of the multipliers `λ`).
pub fn active_count<S: MechanicalSystem + ?Sized>(sys: &S, closed: ContactSet) -> usize {
    sys.bilateral_count() + closed.iter(sys.contact_count()).count()
}

/// Index in `λ` of contact `i`'s multiplier when the contacts `closed` (which include `i`)
/// are active.
pub fn multiplier_index<S: MechanicalSystem + ?Sized>(
    sys: &S,
    closed: ContactSet,
    i: usize,
) -> usize {
    sys.bilateral_count() + closed.iter(i).count()
}

/// `γ(q)` of the active set into `out` (length [`active_count`]), for any scalar.
pub fn active_constraints<S: MechanicalSystem + ?Sized, E: Scalar>(
    sys: &S,
    closed: ContactSet,
    q: &[E],
    out: &mut [E],
) {
    let h = sys.bilateral_count();
    sys.bilateral(q, &mut out[..h]);
    for (k, i) in closed.iter(sys.contact_count()).enumerate() {
        out[h + k] = sys.gap(i, q);
    }
}

/// Constraint terms at `(q, q̇)`.
pub struct ConstraintTerms<D> {
    /// `γ(q)` (length r).
    pub gamma: Vec<D>,
    /// `G = γ_q` (row-major r × n).
    pub jac: Vec<D>,
    /// `G q̇` (length r).
    pub rate: Vec<D>,
    /// `q̇ᵀ γ_qq q̇` per constraint (length r).
    pub convective: Vec<D>,
}

/// [`ConstraintTerms`] of the active set `closed` at `(q, q̇)`: `n` first-order dual passes
/// for the columns of `G`, one second-order pass along `q̇` for the rate and convective term.
pub fn constraint_terms<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    closed: ContactSet,
    q: &[D],
    qd: &[D],
) -> ConstraintTerms<D> {
    let n = q.len();
    let r = active_count(sys, closed);
    let zero = q[0] * 0.0;
    let one = zero + 1.0;
    let mut jac = vec![zero; r * n];
    if r > 0 {
        let mut qe: Vec<Dual<D, f64>> = q.iter().map(|&v| Dual::new(v, zero)).collect();
        let mut out = vec![Dual::new(zero, zero); r];
        for j in 0..n {
            qe[j].eps = one;
            active_constraints(sys, closed, &qe, &mut out);
            qe[j].eps = zero;
            for (row, o) in out.iter().enumerate() {
                jac[row * n + j] = o.eps;
            }
        }
    }
    let q2: Vec<Dual2<D, f64>> = q
        .iter()
        .zip(qd)
        .map(|(&v, &w)| Dual2::new(v, w, zero))
        .collect();
    let mut out2 = vec![Dual2::new(zero, zero, zero); r];
    active_constraints(sys, closed, &q2, &mut out2);
    ConstraintTerms {
        gamma: out2.iter().map(|o| o.re).collect(),
        jac,
        rate: out2.iter().map(|o| o.v1).collect(),
        convective: out2.iter().map(|o| o.v2).collect(),
    }
}
