//! The mean first-passage time of the mesh chain: the eigenvalue and the expected steps.
//!
//! With `Q` the transient block and `a_i = 1 − Σ_j Q_ij` the absorption probabilities
//! ([`super::chain`]), only the points reachable from the nominal orbit's weights `w⁰` count
//! (the set `R`, by a graph search). If some point of `R` cannot reach an absorbing
//! transition, the walker from the nominal orbit never falls with positive probability:
//! `λ₂ = 1` and both times are infinite (reported as such, not computed).
//!
//! **Eigenvalue** (Byl & Tedrake 2009): `λ₂` is the spectral radius of `Q`, the largest
//! eigenvalue of `T` other than the absorbing state's 1, and `MFPT = 1/(1 − λ₂)` strides. It
//! is found by power iteration on `Qᵀ` from `w⁰`: `x ← Qᵀx / ‖Qᵀx‖₁`, whose escape rate
//! `e = Σ_i x_i a_i` (with `‖x‖₁ = 1`) tends to `1 − λ₂` as `x` tends to the quasi-stationary
//! distribution; computing `e` from the counted `a_i` rather than as `1 − λ` keeps it exact
//! when `λ₂` is within rounding of 1, and `MFPT = 1/e`. Converged when
//! `|e_k − e_{k−1}| ≤ tol·e_k` three times running; a typed error after `max_iters`. If the
//! mass dies out (`Qᵀx = 0`: every path falls within a few strides), `λ₂ = 0`.
//!
//! **Expected steps** from the nominal orbit: `m = (I − Q)⁻¹ 1` on `R`, written
//! `(I − Q) v = a_i v_i + Σ_j Q_ij (v_i − v_j)` (no cancellation of `1 − Σ Q_ij`), solved by
//! BiCGSTAB (van der Vorst 1992) from `v = MFPT` to a relative residual below `tol`; the true
//! residual must be below `100·tol` or the solve is a typed error; `m(u₀) = Σ_i w⁰_i m_i`. Both times count the strides taken,
//! the one that falls included (a walker that falls on its first stride has 1).

use super::chain::ChainRow;
use super::mesh::weights;
use crate::basin::BasinGrid;
use crate::error::ContinuationError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Settings of the chain's solution.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ChainOptions {
    /// Relative tolerance of the escape rate and of the linear solve, in `(0, 1e-3]`
    /// (default 1e-10).
    pub tol: f64,
    /// Iteration cap of each, in `1..=10 000 000` (default 1 000 000).
    pub max_iters: usize,
}

impl Default for ChainOptions {
    fn default() -> Self {
        Self {
            tol: 1e-10,
            max_iters: 1_000_000,
        }
    }
}

/// The chain's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChainSolution {
    /// `λ₂`, the spectral radius of the transient block (`1 − e`).
    pub lambda2: f64,
    /// `1/(1 − λ₂)` strides; `None` (absent from JSON) when infinite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mfpt: Option<f64>,
    /// Expected strides to absorption from the nominal orbit, `m(u₀)`; `None` (absent from
    /// JSON) when infinite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_steps: Option<f64>,
    /// Power iterations taken.
    pub iterations: usize,
    /// BiCGSTAB iterations taken.
    pub solve_iterations: usize,
    /// The linear solve's final relative residual `‖1 − (I − Q)m‖₂/‖1‖₂`.
    pub residual: f64,
    /// Mesh points.
    pub points: usize,
    /// Points reachable from the nominal orbit.
    pub reachable: usize,
    /// Terrain samples per point.
    pub samples: usize,
    /// Stored transitions (non-zero `Q_ij`).
    pub transitions: usize,
    /// Fraction of all `points × samples` strides absorbed (fell or left the mesh).
    pub absorbed_fraction: f64,
    /// Strides that fell.
    pub fallen: usize,
    /// Strides that ended outside the mesh's box.
    pub left_mesh: usize,
    /// The falls by cause.
    pub causes: BTreeMap<String, usize>,
    /// Why a time is infinite, where one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

fn fail(reason: String) -> ContinuationError {
    ContinuationError::Mfpt { reason }
}

/// Solves the chain of `rows` (every mesh point, in order; `samples` per point) from the
/// nominal orbit's reduced state `u0` (module documentation).
pub fn solve_chain(
    mesh: &BasinGrid,
    rows: &[ChainRow],
    samples: usize,
    u0: &[f64],
    opts: &ChainOptions,
) -> Result<ChainSolution, ContinuationError> {
    if !(opts.tol > 0.0 && opts.tol <= 1e-3) {
        return Err(ContinuationError::invalid(
            "tol",
            format!("{} must be in (0, 1e-3]", opts.tol),
        ));
    }
    if !(1..=10_000_000).contains(&opts.max_iters) {
        return Err(ContinuationError::invalid(
            "max_iters",
            format!("{} must be in 1..=10000000", opts.max_iters),
        ));
    }
    let n = mesh.cells();
    if rows.len() != n {
        return Err(ContinuationError::invalid(
            "rows",
            format!("{} rows for a mesh of {n} points", rows.len()),
        ));
    }
    let mut w0 = Vec::new();
    if u0.len() != mesh.base.len() || !weights(mesh, u0, &mut w0) {
        return Err(ContinuationError::invalid(
            "mesh",
            format!("the nominal orbit u0 = {u0:?} is outside the mesh's box: widen it"),
        ));
    }
    let k = samples.max(1) as f64;
    let a: Vec<f64> = rows
        .iter()
        .map(|r| (r.fallen + r.left_mesh) as f64 / k)
        .collect();
    let mut causes = BTreeMap::new();
    for r in rows {
        for (c, m) in &r.causes {
            *causes.entry(c.clone()).or_insert(0) += m;
        }
    }
    let fallen: usize = rows.iter().map(|r| r.fallen).sum();
    let left_mesh: usize = rows.iter().map(|r| r.left_mesh).sum();
    // The points reachable from w⁰.
    let mut in_r = vec![false; n];
    let mut stack: Vec<usize> = w0.iter().map(|&(c, _)| c).collect();
    let mut reach = Vec::new();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut in_r[i], true) {
            continue;
        }
        reach.push(i);
        stack.extend(rows[i].next.iter().map(|&(j, _)| j).filter(|&j| !in_r[j]));
    }
    reach.sort_unstable();
    // Those of R that can reach an absorption, searched backwards.
    let mut rev: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &i in &reach {
        for &(j, _) in &rows[i].next {
            rev[j].push(i);
        }
    }
    let mut can_fall = vec![false; n];
    let mut stack: Vec<usize> = reach.iter().copied().filter(|&i| a[i] > 0.0).collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut can_fall[i], true) {
            continue;
        }
        stack.extend(rev[i].iter().copied().filter(|&j| !can_fall[j]));
    }
    drop(rev);
    let mut sol = ChainSolution {
        lambda2: 1.0,
        mfpt: None,
        expected_steps: None,
        iterations: 0,
        solve_iterations: 0,
        residual: 0.0,
        points: n,
        reachable: reach.len(),
        samples,
        transitions: rows.iter().map(|r| r.next.len()).sum(),
        absorbed_fraction: (fallen + left_mesh) as f64 / (n as f64 * k),
        fallen,
        left_mesh,
        causes,
        note: None,
    };
    if let Some(&i) = reach.iter().find(|&&i| !can_fall[i]) {
        sol.note = Some(format!(
            "from the nominal orbit the chain reaches mesh point {i} ({:?}), from which it never \
             falls: λ₂ = 1 and both times are infinite",
            mesh.start(i)
        ));
        return Ok(sol);
    }
    // Power iteration on Qᵀ.
    let mut x = vec![0.0; n];
    for &(c, w) in &w0 {
        x[c] = w;
    }
    let mut y = vec![0.0; n];
    let (mut e_prev, mut calm, mut converged) = (f64::NAN, 0, false);
    let mut e = 0.0;
    for it in 1..=opts.max_iters {
        sol.iterations = it;
        e = reach.iter().map(|&i| x[i] * a[i]).sum::<f64>();
        for &i in &reach {
            y[i] = 0.0;
        }
        for &i in &reach {
            if x[i] != 0.0 {
                for &(j, q) in &rows[i].next {
                    y[j] += x[i] * q;
                }
            }
        }
        let s: f64 = reach.iter().map(|&i| y[i]).sum();
        if s <= 0.0 {
            // Every path from u₀ is absorbed within `it` strides.
            e = 1.0;
            converged = true;
            break;
        }
        for &i in &reach {
            x[i] = y[i] / s;
        }
        if (e - e_prev).abs() <= opts.tol * e {
            calm += 1;
            if calm >= 3 {
                converged = true;
                break;
            }
        } else {
            calm = 0;
        }
        e_prev = e;
    }
    if !converged {
        return Err(fail(format!(
            "the power iteration for λ₂ did not converge in {} iterations (escape rate {e:e}, \
             last change {:e}): raise the iteration cap or coarsen the mesh",
            opts.max_iters,
            (e - e_prev).abs()
        )));
    }
    sol.lambda2 = 1.0 - e;
    sol.mfpt = Some(1.0 / e);
    // Expected steps on R.
    let (m, iters, res) = bicgstab(rows, &a, &reach, 1.0 / e, opts)?;
    sol.solve_iterations = iters;
    sol.residual = res;
    let pos: BTreeMap<usize, usize> = reach.iter().enumerate().map(|(p, &i)| (i, p)).collect();
    sol.expected_steps = Some(w0.iter().map(|&(c, w)| w * m[pos[&c]]).sum());
    Ok(sol)
}

/// `(I − Q)v` on R, in the absorption form of the module documentation.
fn apply(rows: &[ChainRow], a: &[f64], reach: &[usize], pos: &[usize], v: &[f64], out: &mut [f64]) {
    for (p, &i) in reach.iter().enumerate() {
        let vi = v[p];
        let mut s = a[i] * vi;
        for &(j, q) in &rows[i].next {
            s += q * (vi - v[pos[j]]);
        }
        out[p] = s;
    }
}

fn dot(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

/// BiCGSTAB for `(I − Q) m = 1` on R from `m = m0`: the solution, the iterations and the
/// true relative residual.
fn bicgstab(
    rows: &[ChainRow],
    a: &[f64],
    reach: &[usize],
    m0: f64,
    opts: &ChainOptions,
) -> Result<(Vec<f64>, usize, f64), ContinuationError> {
    let nr = reach.len();
    let mut pos = vec![usize::MAX; rows.len()];
    for (p, &i) in reach.iter().enumerate() {
        pos[i] = p;
    }
    let bnorm = (nr as f64).sqrt();
    let mut x = vec![m0; nr];
    let mut ax = vec![0.0; nr];
    apply(rows, a, reach, &pos, &x, &mut ax);
    let mut r: Vec<f64> = ax.iter().map(|v| 1.0 - v).collect();
    let rhat = r.clone();
    let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
    let mut v = vec![0.0; nr];
    let mut p = vec![0.0; nr];
    let mut s = vec![0.0; nr];
    let mut t = vec![0.0; nr];
    let target = opts.tol * bnorm;
    let mut iters = 0;
    let true_residual = |x: &[f64], ax: &mut [f64]| {
        apply(rows, a, reach, &pos, x, ax);
        ax.iter().map(|v| (1.0 - v).powi(2)).sum::<f64>().sqrt() / bnorm
    };
    if dot(&r, &r).sqrt() > target {
        loop {
            iters += 1;
            if iters > opts.max_iters {
                break;
            }
            let rho_new = dot(&rhat, &r);
            if rho_new == 0.0 || !rho_new.is_finite() {
                break;
            }
            let beta = (rho_new / rho) * (alpha / omega);
            for i in 0..nr {
                p[i] = r[i] + beta * (p[i] - omega * v[i]);
            }
            apply(rows, a, reach, &pos, &p, &mut v);
            alpha = rho_new / dot(&rhat, &v);
            for i in 0..nr {
                s[i] = r[i] - alpha * v[i];
            }
            if dot(&s, &s).sqrt() <= target {
                for i in 0..nr {
                    x[i] += alpha * p[i];
                }
                break;
            }
            apply(rows, a, reach, &pos, &s, &mut t);
            omega = dot(&t, &s) / dot(&t, &t);
            for i in 0..nr {
                x[i] += alpha * p[i] + omega * s[i];
                r[i] = s[i] - omega * t[i];
            }
            rho = rho_new;
            if dot(&r, &r).sqrt() <= target {
                break;
            }
            if omega == 0.0 || !omega.is_finite() {
                break;
            }
        }
    }
    let res = true_residual(&x, &mut ax);
    // The recursive residual may drift from the true one; allow a factor 100 on the target.
    if !(res <= 100.0 * opts.tol) {
        return Err(fail(format!(
            "the expected steps (I − Q) m = 1 did not converge: relative residual {res:e} after \
             {} BiCGSTAB iterations (target {:e})",
            iters.min(opts.max_iters),
            opts.tol
        )));
    }
    Ok((x, iters.min(opts.max_iters), res))
}
