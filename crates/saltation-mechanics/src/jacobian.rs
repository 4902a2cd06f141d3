//! The flow Jacobian of a contact mode by implicit differentiation of its saddle-point system
//! (notation of [`crate::kernel`]). With `z = [q̈; λ]` fixed at the solution, the residual
//!
//! `R(x; z) = K(q) z − b(q, q̇) = [H q̈ + Gᵀλ + C; G q̈ + q̇ᵀγ_qq q̇ + 2ω G q̇ + ω² γ]`
//!
//! vanishes along the flow, so `z_x = −K⁻¹ R_x`, one solve with `2n` columns on the factors
//! already used for `z`. `R_x` comes from one forward pass in static dual numbers over
//! `x = [q, q̇]` of the parts of `R` that vary (all of it in general; only `C` when `H` is
//! constant and the constraints are affine, whose rows of `R_x` are then `[ω² G, 2ω G]`).

use crate::constraints::{constraint_terms_into, TermsMut};
use crate::kernel::{dot, Factored, Mode};
use crate::lu::subtract_product;
use crate::system::{with_lifted, MechanicalSystem};
use crate::work::{split, with_buffer};
use nalgebra::{Const, U1};
use num_dual::{Dual64, DualSVec64};
use saltation_hybrid::Scalar;

impl<S: MechanicalSystem + ?Sized> Mode<'_, S> {
    /// `f_x = [[0, I], [∂q̈/∂q, ∂q̈/∂q̇]]` (row-major 2n × 2n) into `jac`, from the solution
    /// `z`, `G` and the factored `K`; `rx` is scratch of `(n + r) × 2n`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn flow_jacobian(
        &self,
        q: &[f64],
        v: &[f64],
        z: &[f64],
        g: &[f64],
        k: Factored<'_>,
        rx: &mut [f64],
        jac: &mut [f64],
    ) {
        let (n, m) = (q.len(), z.len());
        let n2 = 2 * n;
        rx.fill(0.0);
        let (a, lam) = z.split_at(n);
        match n {
            1 => self.residual_static::<2>(q, v, a, lam, rx),
            2 => self.residual_static::<4>(q, v, a, lam, rx),
            3 => self.residual_static::<6>(q, v, a, lam, rx),
            4 => self.residual_static::<8>(q, v, a, lam, rx),
            5 => self.residual_static::<10>(q, v, a, lam, rx),
            6 => self.residual_static::<12>(q, v, a, lam, rx),
            7 => self.residual_static::<14>(q, v, a, lam, rx),
            8 => self.residual_static::<16>(q, v, a, lam, rx),
            _ => self.residual_columns(q, v, a, lam, rx),
        }
        let (top, bottom) = jac.split_at_mut(n * n2);
        top.fill(0.0);
        for i in 0..n {
            top[i * n2 + n + i] = 1.0;
        }
        match (k, self.fixed) {
            // Constant K: the constraint rows' part is cached, `−(K⁻¹)_{q̈,q̈} R_top,x` is left.
            (Factored::Inverse(inv), Some(fixed)) => {
                bottom.copy_from_slice(&fixed.drift);
                subtract_product(inv, m, n, &rx[..n * n2], n2, bottom);
            }
            _ => {
                if self.fixed_jac().is_some() {
                    let (w1, w2) = (2.0 * self.omega, self.omega * self.omega);
                    for (k, row) in rx[n * n2..].chunks_exact_mut(n2).enumerate() {
                        for j in 0..n {
                            row[j] = w2 * g[k * n + j];
                            row[n + j] = w1 * g[k * n + j];
                        }
                    }
                }
                k.solve(m, rx, n2);
                for (o, d) in bottom.iter_mut().zip(&rx[..n * n2]) {
                    *o = -d;
                }
            }
        }
    }

    /// The varying part of `R` (see the module documentation) in the scalar `X`, with the
    /// parameter values `p` as constants of `X`: the first `n` entries of `out` always, the
    /// last `r` only when the constraints are not affine.
    fn residual<X: Scalar>(
        &self,
        p: &[X],
        q: &[X],
        v: &[X],
        a: &[f64],
        lam: &[f64],
        out: &mut [X],
    ) {
        let (n, r) = (q.len(), lam.len());
        let (top, bottom) = out.split_at_mut(n);
        top.fill(X::zero());
        self.sys.forces(p, self.closed, q, v, top);
        if self.mass.is_none() {
            with_buffer(X::zero(), n * n, |h| {
                self.sys.mass_matrix(p, q, h);
                for (i, t) in top.iter_mut().enumerate() {
                    *t += dot(a, &h[i * n..(i + 1) * n]);
                }
            });
        }
        if self.fixed_jac().is_some() || r == 0 {
            return;
        }
        with_buffer(X::zero(), r * n, |g| {
            with_buffer(X::zero(), 3 * r, |w| {
                let [gamma, rate, convective] = split(w, [r, r, r]);
                let t = TermsMut {
                    gamma: &mut *gamma,
                    jac: &mut *g,
                    rate: &mut *rate,
                    convective: &mut *convective,
                };
                constraint_terms_into(self.sys, p, self.closed, q, v, t);
                for (i, t) in top.iter_mut().enumerate() {
                    *t += (0..r).fold(X::zero(), |s, k| s + g[k * n + i] * lam[k]);
                }
                let (w1, w2) = (2.0 * self.omega, self.omega * self.omega);
                for k in 0..r {
                    bottom[k] = dot(a, &g[k * n..(k + 1) * n])
                        + convective[k]
                        + rate[k] * w1
                        + gamma[k] * w2;
                }
            })
        });
    }

    /// Rows of `R_x` (row-major (n + r) × 2n) added into `rx`, by one pass with `N = 2n`
    /// derivative directions.
    fn residual_static<const N: usize>(
        &self,
        q: &[f64],
        v: &[f64],
        a: &[f64],
        lam: &[f64],
        rx: &mut [f64],
    ) {
        let n = N / 2;
        let x: [DualSVec64<N>; N] = std::array::from_fn(|i| {
            DualSVec64::from_re(if i < n { q[i] } else { v[i - n] }).derivative(i)
        });
        if lam.len() > n {
            // More constraints than coordinates (K is singular): not worth a static buffer.
            return self.residual_columns(q, v, a, lam, rx);
        }
        let rows = self.rows(n, lam.len());
        let mut out = [DualSVec64::<N>::from_re(0.0); N];
        let out = &mut out[..n + lam.len()];
        let zero = DualSVec64::<N>::from_re(0.0);
        with_lifted(self.p, DualSVec64::<N>::from_re, zero, |p| {
            self.residual(p, &x[..n], &x[n..], a, lam, out)
        });
        for (o, row) in out.iter().take(rows).zip(rx.chunks_exact_mut(N)) {
            let d = o.eps.unwrap_generic(Const::<N>, U1);
            for (t, s) in row.iter_mut().zip(d.iter()) {
                *t += s;
            }
        }
    }

    /// [`Mode::residual_static`] for any `n`: one single-direction pass per column.
    fn residual_columns(&self, q: &[f64], v: &[f64], a: &[f64], lam: &[f64], rx: &mut [f64]) {
        let (n, r) = (q.len(), lam.len());
        let n2 = 2 * n;
        let rows = self.rows(n, r);
        let mut x: Vec<Dual64> = q.iter().chain(v).map(|&s| Dual64::from_re(s)).collect();
        let mut out = vec![Dual64::from_re(0.0); n + r];
        let p: Vec<Dual64> = self.p.iter().map(|&v| Dual64::from_re(v)).collect();
        for j in 0..n2 {
            x[j].eps = 1.0;
            self.residual(&p, &x[..n], &x[n..], a, lam, &mut out);
            x[j].eps = 0.0;
            for (i, o) in out.iter().enumerate().take(rows) {
                rx[i * n2 + j] += o.eps;
            }
        }
    }

    /// Rows of `R` the dual pass produces: `n`, or `n + r` with non-affine constraints.
    fn rows(&self, n: usize, r: usize) -> usize {
        if self.fixed_jac().is_some() {
            n
        } else {
            n + r
        }
    }
}
