//! Minimally augmented defining systems of codimension-one bifurcations of a fixed point of
//! the stride map (Govaerts 2000, ch. 3–4; Kuznetsov, *Elements of Applied Bifurcation
//! Theory*, 3rd ed., §10.2), and the curve's corrector built on them.
//!
//! With `J = F_u + I` the reduced stride Jacobian at `z = (u, p, p2)`:
//! - fold: `A = J − I`; period doubling: `A = J + I`; bordered by vectors `b`, `c`,
//!   `[[A, b], [cᵀ, 0]] [v; g] = [0; 1]` and `[[A, b], [cᵀ, 0]]ᵀ [w; h] = [0; 1]`; the
//!   condition is the scalar `g(z) = 0` (zero exactly where `A` is singular, while the bordered
//!   matrix stays regular), with `g_z = −wᵀ A_z v`;
//! - Neimark–Sacker: `A = J² − 2κJ + I` (singular with a two-dimensional kernel when `e^{±iθ}`,
//!   `κ = cos θ`, are multipliers), bordered by two columns `B` and rows `Cᵀ`:
//!   `[[A, B], [Cᵀ, 0]] [V; G] = [0; I₂]`; the conditions are two entries of `G`, the pair
//!   that makes the system best conditioned ([`Borders::choose`]), with
//!   `∂G_{ij} = −w_iᵀ A_z v_j` (`W` from the transposed system), and `κ` is one more unknown
//!   (`A_κ = −2J`).
//!
//! `A_z v` needs second derivatives of `F`. By symmetry of mixed partials, column `i` of
//! `J_z v` is `∂F_{z_i}/∂u · v`, the derivative of the exact first derivatives along `v`:
//! `J_z v ≈ ‖v‖ (F_z(u + h v̂) − F_z(u − h v̂)) / 2h`, `v̂ = v/‖v‖`, two evaluations of the exact
//! `F_z = [F_u, F_p, F_p2]` per direction (Neimark–Sacker:
//! `A_z v = J_z(Jv) + J (J_z v) − 2κ J_z v`, two directions). The step is
//! `h = ∛max(rtol, ε) · max(1, ‖u‖)`: the central difference errs by `O(h²)` (truncation) plus
//! `O(δ/h)` where `δ ≈ rtol` is the accuracy of `F_z`, balanced at `h ∼ δ^{1/3}`, which leaves
//! a relative error `∼ δ^{2/3}` (1e-8 at `rtol = 1e-12`). Only Newton's Jacobian carries this
//! error (convergence turns linear with a tiny rate); the residuals `F` and `g` are exact to
//! the integration tolerance, so the curve is too.
//!
//! # Multiple shooting (the lifted system)
//! With `Shooting::Multiple` the same systems are written on the lifted unknowns
//! `z = (w, p, p2)`, `w = (u, s_1, …, s_{S−1})` (module `segments`): `F` is the matching
//! conditions `r_k = Φ_k(s_k) − s_{k+1}`, closed by `π(Φ_{S−1}(s_{S−1})) − u`, and `F_u` their
//! cyclic block matrix `L` (blocks `A_k = ∂Φ_k/∂s`, the first times `Dχ`, the last through
//! `Dπ`, and `−I`), never the product of the segment Jacobians. Eliminating `s_1 … s_{S−1}`
//! from `L x = 0` leaves `(A_{S−1} ⋯ A_0 − I) x_u = 0` (reduced), so `L` is singular exactly
//! where the product has the multiplier +1 (fold: `A = L`); flipping the sign of the closing
//! block's `−I_r` (`A = L + 2E`, [`critical_matrix`]) leaves `(A_{S−1} ⋯ A_0 + I) x_u = 0`,
//! singular exactly at the multiplier −1 (period doubling). The bordered systems, `g`, and
//! `g_z = −wᵀ A_z v` are the formulas above with `m = r + (S − 1) n` unknowns in place of `r`
//! (`E` is constant, so `A_z v = L_z v`, by the same central differences of the exact
//! `[L, G_p, G_p2]` along `v` in `w`). Neimark–Sacker: the closing block's `−I_r` times
//! `e^{iθ}`, `A_c = L + (1 − e^{iθ})E`, leaves `(P − e^{iθ}I) x_u = 0` (`P` the reduced product):
//! singular exactly where `e^{iθ}` is a multiplier. It is bordered in its real form
//! `A = [[L + (1 − κ)E, σE], [−σE, L + (1 − κ)E]]` (`2m × 2m`, `κ = cos θ` the unknown,
//! `σ = √(1 − κ²)`), whose kernel `(Re x, Im x)`, `(−Im x, Re x)` is two-dimensional, by two
//! columns as above; `A_z v = (L_z v₁, L_z v₂)` for `v = (v₁, v₂)` (two directions), and
//! `A_κ = [[−E, −(κ/σ)E], [(κ/σ)E, −E]]` (singular at `|κ| = 1`, the strong resonances, where
//! the curve ends). Grazing: `γ` is taken over its phase from the start of the phase's
//! first segment ([`super::grazing`]).
//!
//! A grazing curve's condition is instead `γ(z) = 0`, the admissibility condition's least value
//! over its phase ([`super::grazing`]), with its gradient by central differences.
//!
//! The corrector is the one damped Newton method of `saltation-orbit` on
//! `[F(u, p, p2); g(z); τᵀ(z − z_pred)] = 0` (or `p2 − value` to land on a given `p2`).

use super::family2::{Plane, PlaneEval};
use super::kind::CurveKind;
use crate::corrector::newton_failure;
use crate::error::ContinuationError;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::EvalModel;
use saltation_orbit::{solve, NewtonOptions, SquareSystem};
use std::cell::RefCell;

/// The border vectors (columns) `B` and `C`, `r × q`: updated to the last accepted point's
/// `W` and `V` so that the bordered matrix stays well conditioned along the curve.
#[derive(Debug, Clone)]
pub(crate) struct Borders {
    pub b: DMatrix<f64>,
    pub c: DMatrix<f64>,
    /// The entries `(i, j)` of `G` that are the conditions: `(0, 0)` for one border; for two,
    /// the pair whose gradients make the defining system best conditioned ([`Borders::choose`]).
    pub entries: Vec<(usize, usize)>,
}

impl Borders {
    /// Borders from the singular vectors of `a` for its `q` smallest singular values (the
    /// left ones for `B`, the right ones for `C`): the bordered matrix is then regular when
    /// `A`'s kernel has dimension at most `q`.
    pub fn from_svd(a: &DMatrix<f64>, q: usize) -> Option<Self> {
        let svd = a.clone().svd(true, true);
        let (u, vt) = (svd.u?, svd.v_t?);
        let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
        order.sort_by(|&i, &j| svd.singular_values[i].total_cmp(&svd.singular_values[j]));
        let r = a.nrows();
        if order.len() < q {
            return None;
        }
        let mut b = DMatrix::zeros(r, q);
        let mut c = DMatrix::zeros(r, q);
        for (j, &i) in order.iter().take(q).enumerate() {
            b.set_column(j, &u.column(i));
            c.set_column(j, &vt.row(i).transpose());
        }
        let entries = (0..q).map(|i| (i, i)).collect();
        Some(Self { b, c, entries })
    }

    /// For two borders, the pair of entries of `G` (of the four) that makes the Jacobian of
    /// `[F; G_{e1}; G_{e2}]` at `d` best conditioned (the largest smallest singular value), as
    /// Govaerts (2000) chooses them: with a symmetric pair the two conditions can coincide
    /// (e.g. `G₁₁ ≡ G₂₂` when `J` commutes with a rotation).
    pub fn choose(mut self, d: &Defining) -> Self {
        if self.b.ncols() != 2 {
            return self;
        }
        let r = d.pe.e.fu.nrows();
        let dim = d.all.first().map_or(0, |e| e.3.len());
        let base = d.rows_with(&[], dim);
        let mut best = (f64::NEG_INFINITY, self.entries.clone());
        for a in 0..4 {
            for b in a + 1..4 {
                let pick = [d.all[a].clone(), d.all[b].clone()];
                let mut k = DMatrix::zeros(r + 2, dim);
                k.view_mut((0, 0), (r, dim)).copy_from(&base.rows(0, r));
                for (row, e) in pick.iter().enumerate() {
                    k.set_row(r + row, &e.3.transpose());
                }
                let smallest = k
                    .singular_values()
                    .iter()
                    .copied()
                    .fold(f64::INFINITY, f64::min);
                if smallest > best.0 {
                    best = (
                        smallest,
                        vec![(pick[0].0, pick[0].1), (pick[1].0, pick[1].1)],
                    );
                }
            }
        }
        self.entries = best.1;
        self
    }

    /// The borders a point's `W`, `V` give (each column normalised).
    pub fn from_point(d: &Defining, entries: &[(usize, usize)]) -> Self {
        let norm = |m: &DMatrix<f64>| {
            let mut m = m.clone();
            for mut col in m.column_iter_mut() {
                let n = col.norm();
                if n > 0.0 {
                    col /= n;
                }
            }
            m
        };
        Self {
            b: norm(&d.w),
            c: norm(&d.v),
            entries: entries.to_vec(),
        }
    }
}

/// The defining functions at one point.
#[derive(Clone)]
pub(crate) struct Defining {
    /// `F` and its exact first derivatives there.
    pub pe: PlaneEval,
    /// The conditions (`q` of them).
    pub g: DVector<f64>,
    /// Their gradients in `z` (`q × dim z`).
    pub grad: DMatrix<f64>,
    /// `V` and `W` of the bordered systems (`r × q`).
    pub v: DMatrix<f64>,
    pub w: DMatrix<f64>,
    /// Every entry `(i, j)` of `G` with its value and gradient.
    pub all: Vec<(usize, usize, f64, DVector<f64>)>,
}

impl Defining {
    /// The Jacobian of `[F; g]` in `z` (`(r + q) × dim z`).
    pub fn rows(&self, dim: usize) -> DMatrix<f64> {
        self.rows_with(&[&self.grad], dim)
    }

    /// `[F_z; extra…]` (`F_z` padded with zeros to `dim` columns).
    fn rows_with(&self, extra: &[&DMatrix<f64>], dim: usize) -> DMatrix<f64> {
        let r = self.pe.e.fu.nrows();
        let q: usize = extra.iter().map(|m| m.nrows()).sum();
        let mut k = DMatrix::zeros(r + q, dim);
        k.view_mut((0, 0), (r, r + 2)).copy_from(&self.pe.fz());
        let mut at = r;
        for m in extra {
            k.view_mut((at, 0), (m.nrows(), dim)).copy_from(m);
            at += m.nrows();
        }
        k
    }

    /// `[F; g]`.
    pub fn residual(&self) -> DVector<f64> {
        let r = self.pe.e.f.len();
        let q = self.g.len();
        let mut v = DVector::zeros(r + q);
        v.rows_mut(0, r).copy_from(&self.pe.e.f);
        v.rows_mut(r, q).copy_from(&self.g);
        v
    }
}

/// The matrix `A` of the kind from `F_u` (`m × m`) and `κ`, `r` the reduced dimension.
///
/// Single shooting (`m = r`, `F_u = J − I`): fold `A = F_u = J − I`, period doubling
/// `A = F_u + 2I = J + I`, Neimark–Sacker `A = J² − 2κJ + I`. Multiple shooting (`F_u = G_w`,
/// the cyclic block matrix `L` of the matching conditions, whose closing block row
/// `π(Φ_{S−1}(s_{S−1})) − u` has `−I_r` in the columns of `u`): fold `A = L`, period doubling
/// `A = L + 2E` with `E` the identity `I_r` at (closing rows, `u` columns) — the closing
/// condition `π(Φ_{S−1}) + u` — singular exactly where the product of the segment Jacobians
/// has the multiplier −1 (the same formula as single shooting's, `E = I` there).
/// Neimark–Sacker with `m = r` (single shooting, or one segment): `A = J² − 2κJ + I`. Lifted
/// (`m > r`): the closing block multiplied by `e^{iθ}`, `A_c = L + (1 − e^{iθ})E`, singular
/// exactly where `e^{iθ}` is a multiplier of the product, in its real form
/// `[[L + (1 − κ)E, σE], [−σE, L + (1 − κ)E]]` (`2m × 2m`, `κ = cos θ`, `σ = sin θ =
/// √(1 − κ²) ≥ 0`), whose kernel `(Re x, Im x)`, `(−Im x, Re x)` is two-dimensional.
pub(crate) fn critical_matrix(
    kind: CurveKind,
    fu: &DMatrix<f64>,
    r: usize,
    kappa: f64,
) -> DMatrix<f64> {
    let m = fu.nrows();
    let closing = |a: &mut DMatrix<f64>, at: (usize, usize), by: f64| {
        for i in 0..r.min(m) {
            a[(at.0 + m - r + i, at.1 + i)] += by;
        }
    };
    match kind {
        CurveKind::Fold | CurveKind::Grazing => fu.clone(),
        CurveKind::PeriodDoubling => {
            let mut a = fu.clone();
            closing(&mut a, (0, 0), 2.0);
            a
        }
        CurveKind::NeimarkSacker if m == r => {
            let id = DMatrix::<f64>::identity(m, m);
            let j = fu + &id;
            &j * &j - &j * (2.0 * kappa) + id
        }
        CurveKind::NeimarkSacker => {
            let sigma = lifted_sine(kappa);
            let mut a = DMatrix::zeros(2 * m, 2 * m);
            a.view_mut((0, 0), (m, m)).copy_from(fu);
            a.view_mut((m, m), (m, m)).copy_from(fu);
            closing(&mut a, (0, 0), 1.0 - kappa);
            closing(&mut a, (m, m), 1.0 - kappa);
            closing(&mut a, (0, m), sigma);
            closing(&mut a, (m, 0), -sigma);
            a
        }
    }
}

/// `σ = √(1 − κ²)` of the lifted Neimark–Sacker system (NaN past `|κ| = 1`, where the
/// evaluation fails and the curve ends: the strong resonances).
fn lifted_sine(kappa: f64) -> f64 {
    (1.0 - kappa * kappa).sqrt()
}

/// `A_z v` (`2m × dim`) of the lifted Neimark–Sacker system for `v = (v₁, v₂)` with
/// `L_z v₁`, `L_z v₂` (`m × (m + 2)`, with the `p`, `p2` columns) given: the diagonal blocks
/// carry `L_z`, and `∂A/∂κ = [[−E, −(κ/σ)E], [(κ/σ)E, −E]]`.
fn lifted_ns_derivative(
    d1: &DMatrix<f64>,
    d2: &DMatrix<f64>,
    v: &DVector<f64>,
    r: usize,
    kappa: f64,
    dim: usize,
) -> DMatrix<f64> {
    let m = d1.nrows();
    let mut az = DMatrix::zeros(2 * m, dim);
    az.view_mut((0, 0), (m, m + 2)).copy_from(d1);
    az.view_mut((m, 0), (m, m + 2)).copy_from(d2);
    let ratio = kappa / lifted_sine(kappa);
    for i in 0..r.min(m) {
        let (v1, v2) = (v[i], v[m + i]);
        az[(m - r + i, m + 2)] = -v1 - ratio * v2;
        az[(2 * m - r + i, m + 2)] = ratio * v1 - v2;
    }
    az
}

/// Solves `[[A, B], [Cᵀ, 0]] [V; G] = [0; I]` and the transposed system: `(V, G, W)`.
fn bordered_solve(
    a: &DMatrix<f64>,
    borders: &Borders,
) -> Option<(DMatrix<f64>, DMatrix<f64>, DMatrix<f64>)> {
    let (r, q) = (a.nrows(), borders.b.ncols());
    let mut m = DMatrix::zeros(r + q, r + q);
    m.view_mut((0, 0), (r, r)).copy_from(a);
    m.view_mut((0, r), (r, q)).copy_from(&borders.b);
    m.view_mut((r, 0), (q, r)).copy_from(&borders.c.transpose());
    let mut rhs = DMatrix::zeros(r + q, q);
    rhs.view_mut((r, 0), (q, q)).fill_with_identity();
    let x = m.clone().lu().solve(&rhs)?;
    let y = m.transpose().lu().solve(&rhs)?;
    if !(x.iter().chain(y.iter()).all(|v| v.is_finite())) {
        return None;
    }
    Some((
        x.rows(0, r).into_owned(),
        x.rows(r, q).into_owned(),
        y.rows(0, r).into_owned(),
    ))
}

/// The split of the unknowns `z = (u, p, p2[, κ])`.
pub(crate) fn split(z: &DVector<f64>, kind: CurveKind) -> (DVector<f64>, f64, f64, f64) {
    let extra = usize::from(kind == CurveKind::NeimarkSacker);
    let r = z.len() - 2 - extra;
    let kappa = if extra == 1 { z[r + 2] } else { 0.0 };
    (z.rows(0, r).into_owned(), z[r], z[r + 1], kappa)
}

/// The dimension of `z` for `r` reduced coordinates.
pub(crate) fn dim_z(kind: CurveKind, r: usize) -> usize {
    r + 2 + usize::from(kind == CurveKind::NeimarkSacker)
}

/// `J_z d` (column `i` is `∂J/∂z_i · d`, `z = (u, p, p2)`) by central differences of the exact
/// `F_z` along `d`.
fn directional<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    u: &DVector<f64>,
    p: f64,
    p2: f64,
    d: &DVector<f64>,
) -> Result<DMatrix<f64>, ContinuationError> {
    let r = u.len();
    let nd = d.norm();
    if !(nd > 0.0 && nd.is_finite()) {
        return Ok(DMatrix::zeros(r, r + 2));
    }
    let h = difference_step(plane, u);
    let dh = d / nd;
    let plus = plane.eval((u + &dh * h).as_slice(), p, p2)?.fz();
    let minus = plane.eval((u - &dh * h).as_slice(), p, p2)?.fz();
    Ok((plus - minus) * (nd / (2.0 * h)))
}

/// The step `h = ∛max(rtol, ε) · max(1, ‖u‖)` of the second-derivative differences.
pub(crate) fn difference_step<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    u: &DVector<f64>,
) -> f64 {
    let rtol = plane.orbit.stride.ode.rtol.max(f64::EPSILON);
    rtol.cbrt() * u.norm().max(1.0)
}

/// The defining functions of `kind` at `z` with `borders`.
pub(crate) fn defining<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    kind: CurveKind,
    borders: &Borders,
    z: &DVector<f64>,
) -> Result<Defining, ContinuationError> {
    let (u, p, p2, kappa) = split(z, kind);
    let pe = plane.eval(u.as_slice(), p, p2)?;
    let r = u.len();
    let dim = z.len();
    if kind == CurveKind::Grazing {
        return grazing_defining(plane, pe, z);
    }
    let j = &pe.e.fu + DMatrix::identity(r, r);
    let a = critical_matrix(kind, &pe.e.fu, pe.r, kappa);
    let (v, g, w) = bordered_solve(&a, borders).ok_or(ContinuationError::Singular { p })?;
    let q = kind.conditions();
    // The lifted Neimark–Sacker system (multiple shooting): 2m rows ([`critical_matrix`]).
    let lifted = kind == CurveKind::NeimarkSacker && pe.r < r;
    // A_z v_j (rows of A × dim) for each column of V.
    let mut az_v = Vec::with_capacity(q);
    for jj in 0..q {
        let vj = v.column(jj).into_owned();
        if lifted {
            let d1 = directional(plane, &u, p, p2, &vj.rows(0, r).into_owned())?;
            let d2 = directional(plane, &u, p, p2, &vj.rows(r, r).into_owned())?;
            az_v.push(lifted_ns_derivative(&d1, &d2, &vj, pe.r, kappa, dim));
            continue;
        }
        let dv = directional(plane, &u, p, p2, &vj)?;
        let mut az = DMatrix::zeros(r, dim);
        if kind == CurveKind::NeimarkSacker {
            let jv = &j * &vj;
            let djv = directional(plane, &u, p, p2, &jv)?;
            az.view_mut((0, 0), (r, r + 2))
                .copy_from(&(djv + &j * &dv - &dv * (2.0 * kappa)));
            az.set_column(r + 2, &(&jv * -2.0));
        } else {
            az.view_mut((0, 0), (r, r + 2)).copy_from(&dv);
        }
        az_v.push(az);
    }
    // ∂G_ij = −w_iᵀ A_z v_j.
    let mut all = Vec::with_capacity(q * q);
    for i in 0..q {
        for jj in 0..q {
            let grad = -(az_v[jj].transpose() * w.column(i));
            all.push((i, jj, g[(i, jj)], grad));
        }
    }
    let mut grad = DMatrix::zeros(q, dim);
    let mut gv = DVector::zeros(q);
    for (k, &(i, jj)) in borders.entries.iter().enumerate() {
        let e = &all[i * q + jj];
        gv[k] = e.2;
        grad.set_row(k, &e.3.transpose());
    }
    Ok(Defining {
        pe,
        g: gv,
        grad,
        v,
        w,
        all,
    })
}

/// The grazing curve's defining function `γ(z)` ([`super::grazing`]) with its gradient; `V`
/// and `W` are zero (no bordered system).
fn grazing_defining<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    pe: PlaneEval,
    z: &DVector<f64>,
) -> Result<Defining, ContinuationError> {
    let r = pe.e.f.len();
    let (p, p2) = (z[r], z[r + 1]);
    let which = plane
        .grazing
        .as_ref()
        .ok_or_else(|| ContinuationError::Grazing {
            p,
            p2,
            reason: "no grazing condition identified".into(),
        })?;
    let (g, grad) = super::grazing::gamma_and_gradient(plane, which, z)?;
    Ok(Defining {
        pe,
        g: DVector::from_element(1, g),
        grad: DMatrix::from_row_slice(1, z.len(), grad.as_slice()),
        v: DMatrix::zeros(r, 1),
        w: DMatrix::zeros(r, 1),
        all: vec![(0, 0, g, grad)],
    })
}

/// What closes the defining system's `r + q` equations in `dim z` unknowns.
#[derive(Debug, Clone)]
pub(crate) enum Closure {
    /// `τᵀ(z − z_pred) = 0`.
    Plane {
        z_pred: DVector<f64>,
        tau: DVector<f64>,
    },
    /// `p2 = value`.
    FixedP2(f64),
}

/// The defining system with its closure, for the Newton solver.
struct CurveSystem<'s, 'a, M: EvalModel + Clone + Sync> {
    plane: &'s Plane<'a, M>,
    kind: CurveKind,
    borders: &'s Borders,
    closure: Closure,
    dim: usize,
    last: RefCell<Option<(DVector<f64>, Defining)>>,
}

impl<M: EvalModel + Clone + Sync> SquareSystem for CurveSystem<'_, '_, M> {
    type Error = ContinuationError;

    fn dim(&self) -> usize {
        self.dim
    }

    fn eval(&self, z: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), ContinuationError> {
        let d = defining(self.plane, self.kind, self.borders, z)?;
        let m = self.dim - 1;
        let mut res = DVector::zeros(self.dim);
        res.rows_mut(0, m).copy_from(&d.residual());
        let mut jac = DMatrix::zeros(self.dim, self.dim);
        jac.view_mut((0, 0), (m, self.dim))
            .copy_from(&d.rows(self.dim));
        match &self.closure {
            Closure::Plane { z_pred, tau } => {
                res[m] = tau.dot(&(z - z_pred));
                jac.set_row(m, &tau.transpose());
            }
            Closure::FixedP2(value) => {
                let r = d.pe.e.f.len();
                res[m] = z[r + 1] - value;
                jac[(m, r + 1)] = 1.0;
            }
        }
        *self.last.borrow_mut() = Some((z.clone(), d));
        Ok((res, jac))
    }
}

/// Solves the defining system of `kind` closed by `closure` from `z0`: the solution, its
/// defining functions and the iterations.
pub(crate) fn correct<M: EvalModel + Clone + Sync>(
    plane: &Plane<'_, M>,
    kind: CurveKind,
    borders: &Borders,
    z0: &DVector<f64>,
    closure: Closure,
    tol: f64,
    max_iters: usize,
) -> Result<(DVector<f64>, Defining, usize), ContinuationError> {
    let r = z0.len() - 2 - usize::from(kind == CurveKind::NeimarkSacker);
    let system = CurveSystem {
        plane,
        kind,
        borders,
        closure,
        dim: z0.len(),
        last: RefCell::new(None),
    };
    let newton = NewtonOptions {
        ftol: tol / z0.norm().max(1.0),
        xtol: 0.0,
        max_iters: max_iters as u64,
        ..NewtonOptions::default()
    };
    let p_of = |z: &DVector<f64>| z[r];
    match solve(&system, z0, &newton) {
        Ok(report) => {
            let d = match system.last.into_inner() {
                Some((z, d)) if z == report.solution => d,
                _ => defining(plane, kind, borders, &report.solution)?,
            };
            Ok((report.solution, d, report.iterations))
        }
        Err(e) => Err(newton_failure(e, &p_of, z0, max_iters)),
    }
}

/// The unit tangent of the curve at a point with the Jacobian rows `k` of `[F; g]`: solves
/// `[[K], [τ_prevᵀ]] τ = [0; 1]`, so that it keeps the orientation of `τ_prev`.
pub(crate) fn tangent(k: &DMatrix<f64>, tau_prev: &DVector<f64>) -> Option<DVector<f64>> {
    let dim = k.ncols();
    let mut m = DMatrix::zeros(dim, dim);
    m.view_mut((0, 0), (dim - 1, dim)).copy_from(k);
    m.set_row(dim - 1, &tau_prev.transpose());
    let mut rhs = DVector::zeros(dim);
    rhs[dim - 1] = 1.0;
    let t = m.lu().solve(&rhs)?;
    let n = t.norm();
    (n.is_finite() && n > 0.0).then(|| t / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At a matrix with a simple zero eigenvalue the bordered system's `g` is zero, and away
    /// from it `g = −1/(cᵀA⁻¹b)`; the borders from the SVD keep the matrix regular.
    #[test]
    fn bordered_g_vanishes_exactly_at_singular_a() {
        let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 4.0]);
        let borders = Borders::from_svd(&a, 1).unwrap();
        let (v, g, w) = bordered_solve(&a, &borders).unwrap();
        assert!(g[(0, 0)].abs() < 1e-14);
        assert!((&a * &v).norm() < 1e-14 && (a.transpose() * &w).norm() < 1e-14);
        let a2 = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 3.0]);
        let (_, g, _) = bordered_solve(&a2, &borders).unwrap();
        let inv = a2.clone().try_inverse().unwrap();
        let s = (borders.c.transpose() * inv * &borders.b)[(0, 0)];
        assert!((g[(0, 0)] + 1.0 / s).abs() < 1e-13);
    }
}
