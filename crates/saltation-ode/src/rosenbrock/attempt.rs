//! One attempted step of the modified Rosenbrock 2(3) W-method (Shampine & Reichelt 1997, §3),
//! for `M y' = f(t, y)` with a constant nonsingular `M`:
//!
//! ```text
//!     W   = M − h d J,                         d = 1/(2 + √2),  e₃₂ = 6 + √2,
//!     F₀  = f(t_n, y_n),                       T = ∂f/∂t (t_n, y_n),
//!     k₁  = W⁻¹ (F₀ + h d T),
//!     F₁  = f(t_n + h/2, y_n + (h/2) k₁),
//!     k₂  = W⁻¹ (F₁ − M k₁) + k₁,
//!     y_{n+1} = y_n + h k₂,
//!     F₂  = f(t_{n+1}, y_{n+1}),
//!     k₃  = W⁻¹ (F₂ − e₃₂ (M k₂ − F₁) − 2 (M k₁ − F₀) + h d T),
//!     est = (h/6) (k₁ − 2 k₂ + k₃).
//! ```
//!
//! (With `M = I` these are the published formulas; for `M ≠ I` they are the same method applied
//! to `y' = M⁻¹ f`, multiplied through by `M`.) `F₂` is the next step's `F₀` (FSAL). For a
//! variational system `[x, Φ]` the `k`'s are solved block by block with the `n × n` factors of
//! `W` ([`JacobianWork::solve`]), i.e. `J` is replaced by `I ⊗ f_x` (the coupling through the
//! second derivatives of `f` is left out) and `∂(f_x Φ)/∂t` by 0: the method is a W-method, of
//! order 2 for any matrix in `W` (Shampine & Reichelt 1997, §3), so `Φ` keeps order 2; only its
//! error estimate (third order with the exact Jacobian) is affected, and `Φ` normally stays out of
//! step control (`error_dims = n`).

use super::{Rosenbrock23, D, E32};
use crate::control::{weight, NormAcc};
use crate::{OdeSystem, SolverOptions, Stats};

impl Rosenbrock23 {
    /// Stages, new state (`ynew`), `F₂` (`f2`) and the scaled norm of the error estimate over
    /// the first `m` components, with `W` factored. NaN when something was not finite.
    pub(super) fn attempt<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        t_new: f64,
        m: usize,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        let hd = h * D;
        let st = &self.state;
        let len = st.n;
        for i in 0..len {
            self.k1[i] = self.f0[i] + hd * self.tdot[i];
        }
        self.jw.solve(&self.lu, &mut self.k1);
        for i in 0..len {
            self.ytmp[i] = st.y[i] + 0.5 * h * self.k1[i];
        }
        sys.rhs(st.t + 0.5 * h, &self.ytmp, &mut self.f1);
        stats.rhs_evals += 1;
        self.jw.mass_times(&self.k1, &mut self.mk1);
        for i in 0..len {
            self.k2[i] = self.f1[i] - self.mk1[i];
        }
        self.jw.solve(&self.lu, &mut self.k2);
        for i in 0..len {
            self.k2[i] += self.k1[i];
            self.ynew[i] = st.y[i] + h * self.k2[i];
        }
        sys.rhs(t_new, &self.ynew, &mut self.f2);
        stats.rhs_evals += 1;
        // k₃ (M k₂ into `k3` first).
        self.jw.mass_times(&self.k2, &mut self.k3);
        for i in 0..len {
            self.k3[i] =
                self.f2[i] - E32 * (self.k3[i] - self.f1[i]) - 2.0 * (self.mk1[i] - self.f0[i])
                    + hd * self.tdot[i];
        }
        self.jw.solve(&self.lu, &mut self.k3);
        let mut acc = NormAcc::new(opts.norm);
        for i in 0..m {
            let est = h / 6.0 * (self.k1[i] - 2.0 * self.k2[i] + self.k3[i]);
            acc.add(est / weight(opts, i, st.y[i], self.ynew[i]));
        }
        acc.finish()
    }
}
