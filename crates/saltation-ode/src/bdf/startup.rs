//! Beginning a history: order 1, the first step size, and `∇y = h y'(t₀)`.
//!
//! A multistep method starts (and restarts after an event) at order 1 from the initial slope
//! `y'(t₀)`: the differences are `∇^1 y_0 = h y'(t₀)` and zero above, as in `ode15s`
//! (Shampine & Reichelt 1997, §2). With `M = I`, `y' = f`. With a constant mass matrix `M`
//! (possibly singular: an index-1 DAE whose initial state satisfies the algebraic equations),
//! the slope is `y' = (M − c J)⁻¹ f` for a small `c`: the tangent of the implicit Euler step of
//! size `c`, which tends to the consistent `y'` (the one satisfying the differentiated algebraic
//! equations) as `c → 0`; `c = 10⁻³ h` keeps its effect on the first error estimate at 0.1 %.
//!
//! The first step is given (`h_fixed`, `h_init`) or Hairer & Wanner's estimate for order 1
//! ([`crate::control::initial_step`], *Solving ODEs I*, §II.4), made with the slope above.

use super::Bdf;
use crate::control::initial_step;
use crate::stepper::first_step;
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// `c` of the slope used for the initial-step estimate, relative to `1/‖J‖∞`.
const PRELIMINARY_SHIFT: f64 = 1e-6;
/// `c / h` of the slope that starts the differences.
const SLOPE_SHIFT: f64 = 1e-3;

impl Bdf {
    /// Begins a new history at `(t, y)` with `f = f(t, y)` in place: order 1, the first step,
    /// `∇^1 = h y'`.
    pub(super) fn begin_history<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let t = self.state.t;
        let mass = self.jw.mass().is_some();
        if mass {
            self.evaluate_jacobian(sys, stats)?;
            let n = self.jw.n();
            let scale = (0..n)
                .map(|i| {
                    self.jw.jac[i * n..(i + 1) * n]
                        .iter()
                        .map(|v| v.abs())
                        .sum::<f64>()
                })
                .fold(0.0, f64::max);
            let c0 = if scale > 0.0 && scale.is_finite() {
                PRELIMINARY_SHIFT / scale
            } else {
                PRELIMINARY_SHIFT
            };
            self.slope(c0, stats)?;
        } else {
            self.work.pred.copy_from_slice(&self.state.f);
        }
        let h = first_step(opts, || {
            let (jw, lu, w, st) = (&self.jw, &self.lu, &mut self.work, &self.state);
            let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| {
                sys.rhs(t, y, dy);
                if mass {
                    jw.solve(lu, dy);
                }
            };
            stats.rhs_evals += 1;
            initial_step(
                &mut rhs,
                t,
                &st.y,
                &w.pred,
                1,
                opts,
                &mut w.ynew,
                &mut w.fnew,
            )
        });
        if mass {
            self.slope(SLOPE_SHIFT * h, stats)?;
        }
        self.work.dif.clear();
        for (d, yp) in self.work.dif.col_mut(1).iter_mut().zip(&self.work.pred) {
            *d = h * yp;
        }
        self.h_dif = h;
        self.state.h = h;
        self.k = 1;
        self.k_next = 1;
        self.same_steps = 0;
        self.fixed_origin = t;
        self.fixed_count = 0;
        self.lu_ok = false;
        self.rate = None;
        Ok(())
    }

    /// `pred = (M − c J)⁻¹ f` (the LU then holds that matrix, not the step's).
    fn slope(&mut self, c: f64, stats: &mut Stats) -> Result<(), OdeError> {
        self.lu_ok = false;
        self.jw
            .factor_real(&mut self.lu, 1.0, -c, stats)
            .map_err(|_| OdeError::SingularMatrix {
                t: self.state.t,
                h: c,
            })?;
        self.work.pred.copy_from_slice(&self.state.f);
        self.jw.solve(&self.lu, &mut self.work.pred);
        Ok(())
    }
}
