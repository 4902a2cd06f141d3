//! Accelerations and Lagrange multipliers of a contact mode from the saddle-point system
//! (index reduction to acceleration level; Zana et al. 2018, eq. 18), and the inelastic impact
//! as the same system at the velocity level.

use crate::constraints::{constraint_terms, ConstraintTerms};
use crate::system::{ContactSet, MechanicalSystem};
use saltation_hybrid::{solve_dense, Scalar, SingularMatrix};

/// Solves `[[H, Gᵀ], [G, 0]] [a; b] = [top; bottom]` for `H` (n × n) and `G` (r × n), both
/// row-major; returns `[a; b]` (length n + r).
fn saddle_solve<D: Scalar>(
    h: &[D],
    g: &[D],
    n: usize,
    r: usize,
    mut rhs: Vec<D>,
) -> Result<Vec<D>, SingularMatrix> {
    let m = n + r;
    let zero = h[0] * 0.0;
    let mut k = vec![zero; m * m];
    for i in 0..n {
        k[i * m..i * m + n].copy_from_slice(&h[i * n..(i + 1) * n]);
    }
    for c in 0..r {
        for j in 0..n {
            k[(n + c) * m + j] = g[c * n + j];
            k[j * m + n + c] = g[c * n + j];
        }
    }
    solve_dense(&mut k, &mut rhs, m, 1)?;
    Ok(rhs)
}

/// Accelerations `q̈` and multipliers `λ` with the contacts `closed`:
///
/// `[[H, Gᵀ], [G, 0]] [q̈; λ] = [−C; −q̇ᵀγ_qq q̇ − 2ω G q̇ − ω² γ]`,
///
/// the acceleration-level constraint `γ̈ = 0` stabilised after Baumgarte (1972) as
/// `γ̈ + 2ω γ̇ + ω² γ = 0` (critically damped; `ω = 0` is the plain index-1 form). Returns
/// `(q̈, λ)`; `λ` has the bilateral multipliers first, then one per closed contact.
pub fn accelerations<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    closed: ContactSet,
    baumgarte: f64,
    q: &[D],
    qd: &[D],
) -> Result<(Vec<D>, Vec<D>), SingularMatrix> {
    let n = q.len();
    let zero = q[0] * 0.0;
    let mut h = vec![zero; n * n];
    sys.mass_matrix(q, &mut h);
    let mut rhs = vec![zero; n];
    sys.forces(closed, q, qd, &mut rhs);
    for v in rhs.iter_mut() {
        *v = -*v;
    }
    let ConstraintTerms {
        gamma,
        jac,
        rate,
        convective,
    } = constraint_terms(sys, closed, q, qd);
    let r = gamma.len();
    for c in 0..r {
        rhs.push(-convective[c] - rate[c] * (2.0 * baumgarte) - gamma[c] * (baumgarte * baumgarte));
    }
    let mut sol = saddle_solve(&h, &jac, n, r, rhs)?;
    let lambda = sol.split_off(n);
    Ok((sol, lambda))
}

/// Post-impact velocity of a perfectly inelastic impact that closes the constraints of
/// `closed`: `q̇⁺ = P_a q̇` with `P_a = I − H⁻¹Gᵀ(G H⁻¹ Gᵀ)⁻¹ G` (Zana et al. 2018, eq. 27),
/// computed as the impulse balance `H (q̇⁺ − q̇) + Gᵀ Λ = 0`, `G q̇⁺ = 0` (one saddle solve).
pub fn impact_velocity<S: MechanicalSystem + ?Sized, D: Scalar>(
    sys: &S,
    closed: ContactSet,
    q: &[D],
    qd: &[D],
) -> Result<Vec<D>, SingularMatrix> {
    let n = q.len();
    let zero = q[0] * 0.0;
    let mut h = vec![zero; n * n];
    sys.mass_matrix(q, &mut h);
    let terms = constraint_terms(sys, closed, q, qd);
    let r = terms.gamma.len();
    let mut rhs: Vec<D> = (0..n)
        .map(|i| (0..n).fold(zero, |s, j| s + h[i * n + j] * qd[j]))
        .collect();
    rhs.extend(std::iter::repeat_n(zero, r));
    let mut sol = saddle_solve(&h, &terms.jac, n, r, rhs)?;
    sol.truncate(n);
    Ok(sol)
}

/// Kinetic energy `½ vᵀ H(q) v`.
pub fn kinetic_energy<S: MechanicalSystem + ?Sized>(sys: &S, q: &[f64], v: &[f64]) -> f64 {
    let n = q.len();
    let mut h = vec![0.0; n * n];
    sys.mass_matrix(q, &mut h);
    0.5 * (0..n)
        .map(|i| v[i] * (0..n).map(|j| h[i * n + j] * v[j]).sum::<f64>())
        .sum::<f64>()
}
