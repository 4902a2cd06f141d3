//! Continuous extensions of the explicit Runge–Kutta methods (Hairer, Nørsett & Wanner,
//! *Solving ODEs I*, §II.6): Dormand–Prince 5(4)'s 4th-order and DOP853's 7th-order formulas.
//! Both share the leading terms `r₁ = y₀`, `r₂ = Δ = y₁ − y₀`, `r₃ = h f₀ − Δ`,
//! `r₄ = Δ − h f₁ − r₃`, so that the interpolant matches `y` and `f` at both ends.

use super::ExplicitRk;
use crate::tableau::Dop853Dense;
use crate::{OdeSystem, Stats};

impl ExplicitRk {
    fn h_last(&self) -> f64 {
        self.t - self.t_prev
    }

    fn prepare_common(&mut self) {
        let (n, h) = (self.n, self.h_last());
        for i in 0..n {
            let d = self.y[i] - self.y_prev[i];
            let r3 = h * self.f_prev[i] - d;
            self.rcont[i] = self.y_prev[i];
            self.rcont[n + i] = d;
            self.rcont[2 * n + i] = r3;
            self.rcont[3 * n + i] = d - h * self.f[i] - r3;
        }
    }

    /// `r₅ = h Σ d_i k_i` (Dormand–Prince 5(4)).
    pub(super) fn prepare_dp5(&mut self, d: &[f64]) {
        self.prepare_common();
        let (n, h) = (self.n, self.h_last());
        combine_into(&mut self.rcont[4 * n..5 * n], h, d, &self.k, n);
        self.dense_ready = true;
    }

    /// `y(θ) = r₁ + θ(r₂ + θ₁(r₃ + θ(r₄ + θ₁ r₅)))`, `θ₁ = 1 − θ`.
    pub(super) fn eval_dp5(&self, t: f64, out: &mut [f64]) {
        let n = self.n;
        let h = self.h_last();
        let th = if h == 0.0 { 1.0 } else { (t - self.t_prev) / h };
        let th1 = 1.0 - th;
        let r = &self.rcont;
        for i in 0..n {
            out[i] = r[i]
                + th * (r[n + i] + th1 * (r[2 * n + i] + th * (r[3 * n + i] + th1 * r[4 * n + i])));
        }
    }

    /// Extra stages `k₁₄..k₁₆` and `r₅..r₈ = h Σ d_qj k_j` (DOP853).
    /// (Inlined so that, called with the static DOP853 coefficients, they fold to constants.)
    #[inline(always)]
    pub(super) fn prepare_dop853<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        coef: &Dop853Dense,
        stats: &mut Stats,
    ) {
        self.prepare_common();
        let (n, h) = (self.n, self.h_last());
        // Literal indices, so that with the static coefficients every row is a constant.
        self.extra_stage::<0, S>(sys, coef, h, stats);
        self.extra_stage::<1, S>(sys, coef, h, stats);
        self.extra_stage::<2, S>(sys, coef, h, stats);
        self.dense_row::<0>(coef, n, h);
        self.dense_row::<1>(coef, n, h);
        self.dense_row::<2>(coef, n, h);
        self.dense_row::<3>(coef, n, h);
        self.dense_ready = true;
    }

    /// Extra stage `k_{14+Q}` of DOP853's dense output.
    #[inline(always)]
    fn extra_stage<const Q: usize, S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        coef: &Dop853Dense,
        h: f64,
        stats: &mut Stats,
    ) {
        let n = self.n;
        let base = 13; // k₁..k₁₃ (k₁₃ = f(t+h, y₁)) are in place.
        let (done, rest) = self.k.split_at_mut((base + Q) * n);
        combine_into(&mut self.ytmp, h, coef.a_extra[Q], done, n);
        for (o, y) in self.ytmp.iter_mut().zip(&self.y_prev) {
            *o += y;
        }
        sys.rhs(
            self.t_prev + coef.c_extra[Q] * h,
            &self.ytmp,
            &mut rest[..n],
        );
        stats.rhs_evals += 1;
    }

    /// Dense coefficient `r_{5+Q} = h Σ_j d_Qj k_j`.
    #[inline(always)]
    fn dense_row<const Q: usize>(&mut self, coef: &Dop853Dense, n: usize, h: f64) {
        let (_, tail) = self.rcont.split_at_mut((4 + Q) * n);
        combine_into(&mut tail[..n], h, &coef.d[Q], &self.k, n);
    }

    /// `y(θ) = r₁ + θ(r₂ + θ₁(r₃ + θ(r₄ + θ₁(r₅ + θ(r₆ + θ₁(r₇ + θ r₈))))))`.
    pub(super) fn eval_dop853(&self, t: f64, out: &mut [f64]) {
        let n = self.n;
        let h = self.h_last();
        let th = if h == 0.0 { 1.0 } else { (t - self.t_prev) / h };
        let th1 = 1.0 - th;
        let r = &self.rcont;
        for i in 0..n {
            let c = r[4 * n + i] + th * (r[5 * n + i] + th1 * (r[6 * n + i] + th * r[7 * n + i]));
            out[i] = r[i] + th * (r[n + i] + th1 * (r[2 * n + i] + th * (r[3 * n + i] + th1 * c)));
        }
    }
}

/// `out = h Σ_j coef_j k_j` over stage-major stages (zero coefficients skipped).
#[inline(always)]
fn combine_into(out: &mut [f64], h: f64, coef: &[f64], k: &[f64], n: usize) {
    let k = &k[..coef.len() * n];
    for (m, o) in out.iter_mut().enumerate().take(n) {
        let mut acc = 0.0;
        for (j, &c) in coef.iter().enumerate() {
            if c != 0.0 {
                acc += c * k[j * n + m];
            }
        }
        *o = h * acc;
    }
}
