//! The active constraints of a contact mode and their derivatives by nested automatic
//! differentiation: `γ(q)`, its Jacobian `G = γ_q`, the rate `G q̇` and the convective term
//! `γ̇_q q̇ = q̇ᵀ γ_qq q̇` (one second-order dual pass along `q̇`).

use crate::system::{with_lifted, ContactSet, MechanicalSystem};
use crate::work::with_buffer;
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

/// `γ(q; p)` of the active set into `out` (length [`active_count`]), for any scalar (the
/// parameter values `p` in the same scalar as `q`).
pub fn active_constraints<S: MechanicalSystem + ?Sized, E: Scalar>(
    sys: &S,
    p: &[E],
    closed: ContactSet,
    q: &[E],
    out: &mut [E],
) {
    let h = sys.bilateral_count();
    sys.bilateral(p, q, &mut out[..h]);
    for (k, i) in closed.iter(sys.contact_count()).enumerate() {
        out[h + k] = sys.gap(p, i, q);
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

/// Output slices of [`constraint_terms_into`] (lengths r, r × n, r, r).
pub(crate) struct TermsMut<'a, D> {
    pub(crate) gamma: &'a mut [D],
    pub(crate) jac: &'a mut [D],
    pub(crate) rate: &'a mut [D],
    pub(crate) convective: &'a mut [D],
}

/// [`ConstraintTerms`] of the active set `closed` at `(q, q̇)` and the parameter values `p`:
/// `n` first-order dual passes for the columns of `G`, one second-order pass along `q̇` for the
/// rate and convective term.
pub fn constraint_terms<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    p: &[D],
    closed: ContactSet,
    q: &[D],
    qd: &[D],
) -> ConstraintTerms<D> {
    let (n, r) = (q.len(), active_count(sys, closed));
    let zero = D::zero();
    let mut t = ConstraintTerms {
        gamma: vec![zero; r],
        jac: vec![zero; r * n],
        rate: vec![zero; r],
        convective: vec![zero; r],
    };
    let out = TermsMut {
        gamma: &mut t.gamma,
        jac: &mut t.jac,
        rate: &mut t.rate,
        convective: &mut t.convective,
    };
    constraint_terms_into(sys, p, closed, q, qd, out);
    t
}

/// [`constraint_terms`] into caller-provided slices, without allocating for up to
/// 64 coordinates and constraints: column `j` of `G` is the derivative
/// part of `γ(q + ε e_j)`, and `γ(q + ε q̇)` to second order gives `γ`, `G q̇` and
/// `q̇ᵀ γ_qq q̇` at once.
pub(crate) fn constraint_terms_into<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    p: &[D],
    closed: ContactSet,
    q: &[D],
    qd: &[D],
    t: TermsMut<'_, D>,
) {
    let (n, r) = (q.len(), t.gamma.len());
    let (zero, one) = (D::zero(), D::one());
    if r == 0 {
        return;
    }
    let d0 = Dual::new(zero, zero);
    with_buffer(d0, n, |qe| {
        for (e, &v) in qe.iter_mut().zip(q) {
            *e = Dual::new(v, zero);
        }
        with_lifted(
            p,
            |v| Dual::new(v, zero),
            d0,
            |pe| {
                with_buffer(d0, r, |out| {
                    for j in 0..n {
                        qe[j].eps = one;
                        active_constraints(sys, pe, closed, qe, out);
                        qe[j].eps = zero;
                        for (row, o) in out.iter().enumerate() {
                            t.jac[row * n + j] = o.eps;
                        }
                    }
                })
            },
        )
    });
    let d2 = Dual2::new(zero, zero, zero);
    with_buffer(d2, n, |q2| {
        for ((e, &v), &w) in q2.iter_mut().zip(q).zip(qd) {
            *e = Dual2::new(v, w, zero);
        }
        with_lifted(
            p,
            |v| Dual2::new(v, zero, zero),
            d2,
            |p2| {
                with_buffer(d2, r, |out| {
                    active_constraints(sys, p2, closed, q2, out);
                    for (k, o) in out.iter().enumerate() {
                        t.gamma[k] = o.re;
                        t.rate[k] = o.v1;
                        t.convective[k] = o.v2;
                    }
                })
            },
        )
    });
}
