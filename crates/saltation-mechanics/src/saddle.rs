//! Accelerations and Lagrange multipliers of a contact mode from the saddle-point system
//! (index reduction to acceleration level; Zana et al. 2018, eq. 18), and the inelastic impact
//! as the same system at the velocity level.

use crate::kernel::{Mode, Rhs};
use crate::system::{with_real, ContactSet, MechanicalSystem};
use saltation_hybrid::{Scalar, SingularMatrix};

/// Accelerations `q̈` and multipliers `λ` with the contacts `closed` at the parameter values
/// `p` (in the scalar of the state):
///
/// `[[H, Gᵀ], [G, 0]] [q̈; λ] = [−C; −q̇ᵀγ_qq q̇ − 2ω G q̇ − ω² γ]`,
///
/// the acceleration-level constraint `γ̈ = 0` stabilised after Baumgarte (1972) as
/// `γ̈ + 2ω γ̇ + ω² γ = 0` (critically damped; `ω = 0` is the plain index-1 form). Returns
/// `(q̈, λ)`; `λ` has the bilateral multipliers first, then one per closed contact. The
/// matrix is factored in `f64`; the derivative parts of a dual scalar follow by iterative
/// refinement on the same factors (exact to the scalar's order).
pub fn accelerations<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    p: &[D],
    closed: ContactSet,
    baumgarte: f64,
    q: &[D],
    qd: &[D],
) -> Result<(Vec<D>, Vec<D>), SingularMatrix> {
    let mut sol = with_real(p, |pr| {
        Mode::uncached(sys, pr, closed, baumgarte).solve_dual(p, q, qd, Rhs::Accelerations)
    })?;
    let lambda = sol.split_off(q.len());
    Ok((sol, lambda))
}

/// Post-impact velocity of a perfectly inelastic impact that closes the constraints of
/// `closed` (at the parameter values `p`): `q̇⁺ = P_a q̇` with `P_a = I − H⁻¹Gᵀ(G H⁻¹ Gᵀ)⁻¹ G` (Zana et al. 2018, eq. 27),
/// computed as the impulse balance `H (q̇⁺ − q̇) + Gᵀ Λ = 0`, `G q̇⁺ = 0` (one saddle solve).
pub fn impact_velocity<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    p: &[D],
    closed: ContactSet,
    q: &[D],
    qd: &[D],
) -> Result<Vec<D>, SingularMatrix> {
    let mut sol = with_real(p, |pr| {
        Mode::uncached(sys, pr, closed, 0.0).solve_dual(p, q, qd, Rhs::Impact)
    })?;
    sol.truncate(q.len());
    Ok(sol)
}

/// Kinetic energy `½ vᵀ H(q; p) v`.
pub fn kinetic_energy<S: MechanicalSystem + ?Sized>(
    sys: &S,
    p: &[f64],
    q: &[f64],
    v: &[f64],
) -> f64 {
    let n = q.len();
    let mut h = vec![0.0; n * n];
    sys.mass_matrix(p, q, &mut h);
    0.5 * (0..n)
        .map(|i| v[i] * (0..n).map(|j| h[i * n + j] * v[j]).sum::<f64>())
        .sum::<f64>()
}
