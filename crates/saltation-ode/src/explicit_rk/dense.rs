//! Continuous extensions of the explicit Runge–Kutta methods (Hairer, Nørsett & Wanner,
//! *Solving ODEs I*, §II.6): Dormand–Prince 5(4)'s 4th-order and DOP853's 7th-order formulas.
//! Both share the leading terms `r₁ = y₀`, `r₂ = Δ = y₁ − y₀`, `r₃ = h f₀ − Δ`,
//! `r₄ = Δ − h f₁ − r₃`, so that the interpolant matches `y` and `f` at both ends.

use super::{split, ExplicitRk};
use crate::dim::{scaled, Dim};
use crate::tableau::Dop853Dense;
use crate::{OdeSystem, Stats};

impl ExplicitRk {
    fn h_last(&self) -> f64 {
        self.state.t - self.state.t_prev
    }

    /// `θ = (t − t_prev) / h` in the last step (1 for an empty one).
    #[inline(always)]
    fn theta(&self, t: f64) -> f64 {
        let h = self.h_last();
        if h == 0.0 {
            1.0
        } else {
            (t - self.state.t_prev) / h
        }
    }

    #[inline(always)]
    fn prepare_common<D: Dim>(&mut self, dim: D) {
        let (n, h) = (dim.n(), self.h_last());
        let st = &self.state;
        let p = split(&mut self.work, n);
        let (y, y0, f, f0) = (&st.y[..n], &st.y_prev[..n], &st.f[..n], &st.f_prev[..n]);
        let r = &mut p.rcont[..4 * n];
        for i in 0..n {
            let d = y[i] - y0[i];
            let r3 = h * f0[i] - d;
            r[i] = y0[i];
            r[n + i] = d;
            r[2 * n + i] = r3;
            r[3 * n + i] = d - h * f[i] - r3;
        }
    }

    /// `r₅ = h Σ d_i k_i` (Dormand–Prince 5(4)).
    #[inline(always)]
    pub(super) fn prepare_dp5<D: Dim>(&mut self, dim: D, d: &[f64]) {
        self.prepare_common(dim);
        let (n, h) = (dim.n(), self.h_last());
        let p = split(&mut self.work, n);
        scaled(dim, &mut p.rcont[4 * n..5 * n], h, d, p.k);
        self.dense_ready = true;
    }

    /// `y(θ) = r₁ + θ(r₂ + θ₁(r₃ + θ(r₄ + θ₁ r₅)))`, `θ₁ = 1 − θ`.
    #[inline(always)]
    pub(super) fn eval_dp5<D: Dim>(&self, dim: D, t: f64, out: &mut [f64]) {
        let n = dim.n();
        let out = &mut out[..n];
        let th = self.theta(t);
        let th1 = 1.0 - th;
        let r = &self.work[self.work.len() - 8 * n..][..5 * n];
        for i in 0..n {
            out[i] = r[i]
                + th * (r[n + i] + th1 * (r[2 * n + i] + th * (r[3 * n + i] + th1 * r[4 * n + i])));
        }
    }

    /// Extra stages `k₁₄..k₁₆` and `r₅..r₈ = h Σ d_qj k_j` (DOP853).
    /// (Inlined so that, called with the static DOP853 coefficients, they fold to constants.)
    #[inline(always)]
    pub(super) fn prepare_dop853<D: Dim, S: OdeSystem + ?Sized>(
        &mut self,
        dim: D,
        sys: &S,
        coef: &Dop853Dense,
        stats: &mut Stats,
    ) {
        self.prepare_common(dim);
        let h = self.h_last();
        // Literal indices, so that with the static coefficients every row is a constant.
        self.extra_stage::<0, D, S>(dim, sys, coef, h, stats);
        self.extra_stage::<1, D, S>(dim, sys, coef, h, stats);
        self.extra_stage::<2, D, S>(dim, sys, coef, h, stats);
        self.dense_row::<0, D>(dim, coef, h);
        self.dense_row::<1, D>(dim, coef, h);
        self.dense_row::<2, D>(dim, coef, h);
        self.dense_row::<3, D>(dim, coef, h);
        self.dense_ready = true;
    }

    /// Extra stage `k_{14+Q}` of DOP853's dense output.
    #[inline(always)]
    fn extra_stage<const Q: usize, D: Dim, S: OdeSystem + ?Sized>(
        &mut self,
        dim: D,
        sys: &S,
        coef: &Dop853Dense,
        h: f64,
        stats: &mut Stats,
    ) {
        let n = dim.n();
        let base = 13; // k₁..k₁₃ (k₁₃ = f(t+h, y₁)) are in place.
        let st = &self.state;
        let p = split(&mut self.work, n);
        let (done, rest) = p.k.split_at_mut((base + Q) * n);
        crate::dim::combine(dim, p.ytmp, &st.y_prev, h, coef.a_extra[Q], done);
        sys.rhs(
            st.t_prev + coef.c_extra[Q] * h,
            &p.ytmp[..n],
            &mut rest[..n],
        );
        stats.rhs_evals += 1;
    }

    /// Dense coefficient `r_{5+Q} = h Σ_j d_Qj k_j`.
    #[inline(always)]
    fn dense_row<const Q: usize, D: Dim>(&mut self, dim: D, coef: &Dop853Dense, h: f64) {
        let n = dim.n();
        let p = split(&mut self.work, n);
        let (_, tail) = p.rcont.split_at_mut((4 + Q) * n);
        scaled(dim, tail, h, &coef.d[Q], p.k);
    }

    /// `y(θ) = r₁ + θ(r₂ + θ₁(r₃ + θ(r₄ + θ₁(r₅ + θ(r₆ + θ₁(r₇ + θ r₈))))))`.
    #[inline(always)]
    pub(super) fn eval_dop853<D: Dim>(&self, dim: D, t: f64, out: &mut [f64]) {
        let n = dim.n();
        let out = &mut out[..n];
        let th = self.theta(t);
        let th1 = 1.0 - th;
        let r = &self.work[self.work.len() - 8 * n..];
        for i in 0..n {
            let c = r[4 * n + i] + th * (r[5 * n + i] + th1 * (r[6 * n + i] + th * r[7 * n + i]));
            out[i] = r[i] + th * (r[n + i] + th1 * (r[2 * n + i] + th * (r[3 * n + i] + th1 * c)));
        }
    }
}
