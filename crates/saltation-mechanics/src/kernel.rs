//! The saddle-point system of a contact mode (Zana et al. 2018, eq. 18),
//!
//! `K z = b`, `K = [[H, Gᵀ], [G, 0]]`, `z = [q̈; λ]`, `b = [−C; −q̇ᵀγ_qq q̇ − 2ω G q̇ − ω² γ]`,
//!
//! with one real factorisation of `K` (none when `K` is constant: its inverse is cached): in
//! `f64` without heap allocation ([`Mode::solve_real`], the integrator's path, optionally with
//! the flow Jacobian), or in any dual scalar ([`Mode::solve_dual`]), whose derivative parts
//! come from the same real factors by iterative refinement instead of an elimination in dual
//! arithmetic.

use crate::cache::{assemble, ModeConst};
use crate::constraints::{active_constraints, active_count, constraint_terms_into, TermsMut};
use crate::lu::{apply, factor, solve};
use crate::system::{ContactSet, MechanicalSystem};
use crate::work::{split, with_buffer, with_scratch};
use num_dual::Dual64;
use saltation_hybrid::{Scalar, SingularMatrix};

/// One contact mode of a system at the parameter values `p`, with whatever is constant in it
/// (cached for these values).
pub(crate) struct Mode<'a, S: ?Sized> {
    pub(crate) sys: &'a S,
    /// The parameter values.
    pub(crate) p: &'a [f64],
    pub(crate) closed: ContactSet,
    /// Baumgarte rate `ω`.
    pub(crate) omega: f64,
    /// The constant `H`, if declared.
    pub(crate) mass: Option<&'a [f64]>,
    /// The mode's constant pieces, if cached.
    pub(crate) fixed: Option<&'a ModeConst>,
}

/// A factored saddle-point matrix.
#[derive(Clone, Copy)]
pub(crate) enum Factored<'a> {
    /// LU factors and row swaps ([`crate::lu::factor`]).
    Lu(&'a [f64], &'a [usize]),
    /// The explicit inverse (of a constant matrix).
    Inverse(&'a [f64]),
}

impl Factored<'_> {
    /// `B ← K⁻¹ B` for `B` of `m × cols` (row-major).
    pub(crate) fn solve<D: Scalar>(self, m: usize, b: &mut [D], cols: usize) {
        match self {
            Factored::Lu(lu, piv) => solve(lu, piv, m, b, cols),
            Factored::Inverse(inv) => apply(inv, m, b, cols),
        }
    }
}

/// The right-hand side of a saddle solve.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rhs {
    /// `[−C; −q̇ᵀγ_qq q̇ − 2ω G q̇ − ω² γ]`: accelerations and multipliers.
    Accelerations,
    /// `[H q̇; 0]`: post-impact velocity and impulse (Zana et al. 2018, eq. 27).
    Impact,
}

impl<'a, S: MechanicalSystem + ?Sized> Mode<'a, S> {
    /// Contact mode `closed` of `sys` at the parameter values `p` with nothing cached: every
    /// piece is evaluated at the state.
    pub(crate) fn uncached(sys: &'a S, p: &'a [f64], closed: ContactSet, omega: f64) -> Self {
        Mode {
            sys,
            p,
            closed,
            omega,
            mass: None,
            fixed: None,
        }
    }

    /// Number of active constraints `r`.
    pub(crate) fn active(&self) -> usize {
        self.fixed
            .map_or_else(|| active_count(self.sys, self.closed), |f| f.r)
    }

    /// The constant `G`, if the constraints are affine and it is cached.
    pub(crate) fn fixed_jac(&self) -> Option<&[f64]> {
        self.fixed.and_then(|f| f.jac.as_deref())
    }

    /// `γ`, `G`, `G q̇` and `q̇ᵀγ_qq q̇` at `(q, q̇)` in `f64` into `t` (with affine
    /// constraints, `G` is the cached one and is not written).
    fn terms(&self, q: &[f64], v: &[f64], t: TermsMut<'_, f64>) {
        let n = q.len();
        match self.fixed_jac() {
            Some(g) => {
                t.gamma.fill(0.0);
                active_constraints(self.sys, self.p, self.closed, q, t.gamma);
                for (k, rate) in t.rate.iter_mut().enumerate() {
                    *rate = dot(&g[k * n..(k + 1) * n], v);
                }
                t.convective.fill(0.0);
            }
            None => constraint_terms_into(self.sys, self.p, self.closed, q, v, t),
        }
    }

    /// The accelerations `q̈` alone (length n) at `(q, q̇)` in `f64` into `a`, with `f_x` if
    /// asked for: the flow's part of [`Mode::solve_real`] (with a constant `K`, the rows of
    /// `K⁻¹ b` that belong to `q̈` only).
    pub(crate) fn accelerations_real(
        &self,
        q: &[f64],
        v: &[f64],
        a: &mut [f64],
        jac: Option<&mut [f64]>,
    ) -> Result<(), SingularMatrix> {
        let n = q.len();
        if let Some(fixed) = self.fixed {
            if let Some(affine) = &fixed.affine {
                let (fx, a0) = (&affine.jac, &affine.accel_at_zero);
                // An affine system: q̈ = q̈(0) + (∂q̈/∂q) q + (∂q̈/∂q̇) q̇, rows n.. of the cached
                // f_x.
                for (i, (ai, a0)) in a[..n].iter_mut().zip(a0).enumerate() {
                    let row = &fx[(n + i) * 2 * n..(n + i + 1) * 2 * n];
                    *ai = a0 + dot(&row[..n], q) + dot(&row[n..], v);
                }
                if let Some(jac) = jac {
                    jac.copy_from_slice(fx);
                }
                return Ok(());
            }
            if let (Some(Ok(inv)), Some(g)) = (&fixed.inverse, &fixed.jac) {
                self.solve_constant(fixed, (inv, g), q, v, &mut a[..n], jac);
                return Ok(());
            }
        }
        with_buffer(0.0, n + self.active(), |z| {
            self.solve_real(q, v, z, jac)?;
            a[..n].copy_from_slice(&z[..n]);
            Ok(())
        })
    }

    /// `z = [q̈; λ]` (length n + r) at `(q, q̇)` in `f64` into `z`; with `jac`, also the flow
    /// Jacobian `f_x` (row-major 2n × 2n, see [`Mode::flow_jacobian`]) from the same factors.
    pub(crate) fn solve_real(
        &self,
        q: &[f64],
        v: &[f64],
        z: &mut [f64],
        jac: Option<&mut [f64]>,
    ) -> Result<(), SingularMatrix> {
        if let Some(fixed) = self.fixed {
            match (&fixed.inverse, &fixed.jac) {
                (Some(Ok(inv)), Some(g)) => {
                    let m = q.len() + fixed.r;
                    self.solve_constant(fixed, (inv, g), q, v, &mut z[..m], jac);
                    return Ok(());
                }
                (Some(Err(e)), _) => return Err(*e),
                _ => {}
            }
        }
        let (n, r) = (q.len(), self.active());
        let m = n + r;
        let cols = if jac.is_some() { 2 * n } else { 0 };
        let lens = [n * n, r * n, r, r, r, m, m * m, m * cols];
        with_scratch(lens.iter().sum(), m, |w, piv| {
            let [hw, gw, gamma, rate, convective, b, kw, rx] = split(w, lens);
            let h: &[f64] = match self.mass {
                Some(h) => h,
                None => {
                    hw.fill(0.0);
                    self.sys.mass_matrix(self.p, q, hw);
                    hw
                }
            };
            self.terms(
                q,
                v,
                TermsMut {
                    gamma: &mut *gamma,
                    jac: &mut *gw,
                    rate: &mut *rate,
                    convective: &mut *convective,
                },
            );
            let g: &[f64] = self.fixed_jac().unwrap_or(gw);
            let z = &mut z[..m];
            b[..n].fill(0.0);
            self.sys.forces(self.p, self.closed, q, v, &mut b[..n]);
            for c in &mut b[..n] {
                *c = -*c;
            }
            let (w1, w2) = (2.0 * self.omega, self.omega * self.omega);
            for k in 0..r {
                b[n + k] = -convective[k] - rate[k] * w1 - gamma[k] * w2;
            }
            assemble(h, g, n, r, kw);
            factor(kw, piv, m)?;
            z.copy_from_slice(b);
            solve(kw, piv, m, z, 1);
            if let Some(jac) = jac {
                self.flow_jacobian(q, v, z, g, Factored::Lu(kw, piv), rx, jac);
            }
            Ok(())
        })
    }

    /// [`Mode::solve_real`] with a constant `K` and constant `G`: the leading `z.len()` entries
    /// of `K⁻¹ [−C; −2ω G q̇ − ω² γ]` (all `n + r`, or the `n` accelerations alone), formed as
    /// `Σ_j b_j (K⁻¹)_{·j}` from the cached columns of `K⁻¹` (the same sums, in the same order,
    /// as the rows' dot products); `f_x` is the cached one when the forces are affine.
    pub(crate) fn solve_constant(
        &self,
        fixed: &ModeConst,
        (inv, g): (&[f64], &[f64]),
        q: &[f64],
        v: &[f64],
        z: &mut [f64],
        jac: Option<&mut [f64]>,
    ) {
        let n = q.len();
        let r = fixed.r;
        let m = n + r;
        with_buffer(0.0, m + r, |w| {
            let (b, gamma) = w.split_at_mut(m);
            self.sys.forces(self.p, self.closed, q, v, &mut b[..n]);
            active_constraints(self.sys, self.p, self.closed, q, gamma);
            let (w1, w2) = (2.0 * self.omega, self.omega * self.omega);
            let (top, bottom) = b.split_at_mut(n);
            for c in top {
                *c = -*c;
            }
            for ((bk, gk), &gamma) in bottom.iter_mut().zip(g.chunks_exact(n)).zip(&*gamma) {
                *bk = -w1 * dot(gk, v) - w2 * gamma;
            }
            z.fill(0.0);
            for (&bj, col) in b.iter().zip(fixed.inverse_columns.chunks_exact(m)) {
                for (zi, &c) in z.iter_mut().zip(col) {
                    *zi += c * bj;
                }
            }
        });
        match (jac, fixed.affine.as_ref().map(|a| a.jac.as_slice())) {
            (Some(jac), Some(constant)) => jac.copy_from_slice(constant),
            (Some(jac), None) => {
                with_buffer(0.0, m, |zf| {
                    // f_x needs the multipliers too when only the accelerations were asked for.
                    let zf = if z.len() == m {
                        &*z
                    } else {
                        self.solve_constant(fixed, (inv, g), q, v, zf, None);
                        &*zf
                    };
                    with_scratch(m * 2 * n, 0, |rx, _| {
                        self.flow_jacobian(q, v, zf, g, Factored::Inverse(inv), rx, jac)
                    })
                })
            }
            (None, _) => {}
        }
    }

    /// `H`, `G` and the right-hand side `b` of the saddle-point system in any scalar `D` at
    /// `(q, q̇)` and the parameter values `p` (in `D`, whose real parts are the mode's own),
    /// all evaluated afresh (the cached pieces hold no derivatives in `p`), into the workspace
    /// `w` (length `n² + rn + 3r + m`, `m = n + r`); returns the slices `[h, g, b]`.
    fn pieces<'w, D: Scalar>(
        &self,
        p: &[D],
        q: &[D],
        v: &[D],
        rhs: Rhs,
        w: &'w mut [D],
    ) -> [&'w mut [D]; 3] {
        let (n, r) = (q.len(), self.active());
        let m = n + r;
        let [h, g, gamma, rate, convective, b] = split(w, [n * n, r * n, r, r, r, m]);
        self.sys.mass_matrix(p, q, h);
        let t = TermsMut {
            gamma: &mut *gamma,
            jac: &mut *g,
            rate: &mut *rate,
            convective: &mut *convective,
        };
        constraint_terms_into(self.sys, p, self.closed, q, v, t);
        match rhs {
            Rhs::Accelerations => {
                self.sys.forces(p, self.closed, q, v, &mut b[..n]);
                let (w1, w2) = (2.0 * self.omega, self.omega * self.omega);
                for c in &mut b[..n] {
                    *c = -*c;
                }
                for k in 0..r {
                    b[n + k] = -convective[k] - rate[k] * w1 - gamma[k] * w2;
                }
            }
            Rhs::Impact => {
                for i in 0..n {
                    b[i] = dot(&h[i * n..(i + 1) * n], v);
                }
            }
        }
        [h, g, b]
    }

    /// Workspace length of [`Mode::pieces`].
    fn pieces_len(&self, n: usize) -> usize {
        let r = self.active();
        n * n + r * n + 3 * r + n + r
    }

    /// The real factors of `K`: the cached inverse, or `K` assembled from the real parts of
    /// `h` and `g` and factored into `kw`, `piv`.
    fn factored<'k, D: Scalar>(
        &'k self,
        (h, g): (&[D], &[D]),
        n: usize,
        kw: &'k mut [f64],
        piv: &'k mut [usize],
    ) -> Result<Factored<'k>, SingularMatrix> {
        let r = self.active();
        match self.fixed.and_then(|f| f.inverse.as_ref()) {
            Some(Ok(inv)) => Ok(Factored::Inverse(inv)),
            Some(Err(e)) => Err(*e),
            None => {
                let hr: Vec<f64> = h.iter().map(|x| x.re()).collect();
                let gr: Vec<f64> = g.iter().map(|x| x.re()).collect();
                assemble(&hr, &gr, n, r, kw);
                factor(kw, piv, n + r)?;
                Ok(Factored::Lu(kw, piv))
            }
        }
    }

    /// `z = K⁻¹ b` in any scalar `D` (allocates; for automatic differentiation and the
    /// impact), with the parameter values `p` in `D` too (whose real parts must be the mode's
    /// own, `self.p`): `H`, `G` and `b` are evaluated afresh, so a parameter that carries a
    /// derivative part carries it through. `K`'s real part is factored in `f64` (or its cached
    /// inverse used); `z₁ = K₀⁻¹ b`, then `D::NDERIV` steps of `z ← z + K₀⁻¹ (b − K z)`: the
    /// error of `z₁` has no real part and each step raises its order in the derivative parts
    /// by one, so the derivatives up to `D`'s order are exact (the scheme of num-dual's
    /// implicit derivatives).
    pub(crate) fn solve_dual<D: Scalar>(
        &self,
        p: &[D],
        q: &[D],
        v: &[D],
        rhs: Rhs,
    ) -> Result<Vec<D>, SingularMatrix> {
        let n = q.len();
        let m = n + self.active();
        let len = self.pieces_len(n);
        let mut w = vec![D::zero(); len + 2 * m];
        let (head, tail) = w.split_at_mut(len);
        let (z, res) = tail.split_at_mut(m);
        let [h, g, b] = self.pieces(p, q, v, rhs, head);
        with_scratch(m * m, m, |kw, piv| {
            let k = self.factored((h, g), n, kw, piv)?;
            z.copy_from_slice(b);
            k.solve(m, z, 1);
            for _ in 0..D::NDERIV {
                residual(n, (h, g, b), z, res);
                k.solve(m, res, 1);
                z.iter_mut().zip(res.iter()).for_each(|(x, d)| *x += *d);
            }
            Ok(())
        })?;
        Ok(z.to_vec())
    }

    /// `∂z/∂p_k` (length `n + r`, into `dz`) of parameter `k` at the mode's own values, at a
    /// real state: implicit differentiation of `K z = b`, `z_p = K⁻¹ (b_p − K_p z)`.
    /// `b_p − K_p z` is the derivative part of the residual `b − K z` evaluated at the real
    /// solution `z` in one `Dual64` pass over the system's functions with `p_k` seeded (afresh,
    /// since `H`, `G` and `C` may depend on it); `K⁻¹` is the real factors (the cached inverse
    /// when `K` is constant).
    pub(crate) fn param_derivative(
        &self,
        k: usize,
        q: &[f64],
        v: &[f64],
        dz: &mut [f64],
    ) -> Result<(), SingularMatrix> {
        let n = q.len();
        let m = n + self.active();
        let len = self.pieces_len(n);
        // The real solution z, then the dual state, pieces and residual: scratch on the stack
        // for small systems (this runs at every integration stage of an augmented stride).
        with_buffer(0.0, m, |z| {
            self.solve_real(q, v, z, None)?;
            let np = self.p.len();
            with_buffer(Dual64::from_re(0.0), 2 * n + np + len + m, |w| {
                let [qd, vd, pd, head, res] = split(w, [n, n, np, len, m]);
                for (d, &a) in qd.iter_mut().zip(q).chain(vd.iter_mut().zip(v)) {
                    *d = Dual64::from_re(a);
                }
                for (d, &a) in pd.iter_mut().zip(self.p) {
                    *d = Dual64::from_re(a);
                }
                if let Some(pk) = pd.get_mut(k) {
                    pk.eps = 1.0;
                }
                let [h, g, b] = self.pieces(pd, qd, vd, Rhs::Accelerations, head);
                residual(n, (h, g, b), z, res);
                dz[..m]
                    .iter_mut()
                    .zip(res.iter())
                    .for_each(|(d, r)| *d = r.eps);
                with_scratch(m * m, m, |kw, piv| {
                    self.factored((h, g), n, kw, piv)?.solve(m, &mut dz[..m], 1);
                    Ok(())
                })
            })
        })
    }
}

/// The residual `res = b − K z` of the saddle-point system `K = [[H, Gᵀ], [G, 0]]`
/// (`H` n×n, `G` r×n, `z = [q̈; λ]`), for `z` in the scalar of `K` or real.
fn residual<Z: Copy, D: Scalar + std::ops::Mul<Z, Output = D>>(
    n: usize,
    (h, g, b): (&[D], &[D], &[D]),
    z: &[Z],
    res: &mut [D],
) {
    let r = g.len() / n.max(1);
    let (a, lam) = z.split_at(n);
    for i in 0..n {
        let gt = (0..r).fold(D::zero(), |s, k| s + g[k * n + i] * lam[k]);
        res[i] = b[i] - dot(a, &h[i * n..(i + 1) * n]) - gt;
    }
    for k in 0..r {
        res[n + k] = b[n + k] - dot(a, &g[k * n..(k + 1) * n]);
    }
}

/// `Σ_j a_j x_j` for real `a` or scalars of the same type as `x`.
pub(crate) fn dot<A: Copy, D: Scalar + std::ops::Mul<A, Output = D>>(a: &[A], x: &[D]) -> D {
    a.iter().zip(x).fold(D::zero(), |s, (&c, &v)| s + v * c)
}
