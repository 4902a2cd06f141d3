//! The hot loop of one Runge–Kutta attempt.
//!
//! The same generic code runs every tableau, but it is monomorphised for the built-in adaptive
//! pairs (so the coefficients are compile-time constants: stage loops unroll and zero
//! coefficients vanish) and for common small dimensions (so component loops unroll); any other
//! tableau or size runs the identical code with run-time values. Stages are stored stage-major
//! (`k_j` at `[j n, (j+1) n)`); each combination is `y + h Σ_j a_ij k_j`.

use super::{split, ExplicitRk};
use crate::control::{controlled_dims, weight, NormAcc};
use crate::dim::{combine, comp, with_dim, Dim, Dyn};
use crate::stepper::all_finite;
use crate::tableau::{ErrorEstimate, Tableau, BS23, DOP853, DP5};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};

/// Where the tableau comes from: a built-in static (constant-folded) or a run-time reference.
trait TabSource: Copy {
    fn tab(self) -> &'static Tableau;
}

macro_rules! static_tab {
    ($name:ident, $tab:expr) => {
        #[derive(Clone, Copy)]
        struct $name;
        impl TabSource for $name {
            #[inline(always)]
            fn tab(self) -> &'static Tableau {
                &$tab
            }
        }
    };
}
static_tab!(Dop853Tab, DOP853);
static_tab!(Dp5Tab, DP5);
static_tab!(Bs23Tab, BS23);

#[derive(Clone, Copy)]
struct RuntimeTab(&'static Tableau);

impl TabSource for RuntimeTab {
    #[inline(always)]
    fn tab(self) -> &'static Tableau {
        self.0
    }
}

/// Expands `$body` for stage indices 1..=15 as literal constants (each guarded by `i < s`), then
/// loops over any further stages.
macro_rules! for_stages {
    ($s:expr, |$i:ident| $body:block) => {{
        let s = $s;
        macro_rules! one {
            ($k:literal) => {
                if $k < s {
                    let $i: usize = $k;
                    $body
                }
            };
        }
        one!(1);
        one!(2);
        one!(3);
        one!(4);
        one!(5);
        one!(6);
        one!(7);
        one!(8);
        one!(9);
        one!(10);
        one!(11);
        one!(12);
        one!(13);
        one!(14);
        one!(15);
        for $i in 16..s {
            $body
        }
    }};
}

impl ExplicitRk {
    /// One accepted step towards `t_stop` (rejected attempts retried inside), dispatched once to
    /// the instance for this tableau and dimension.
    pub(super) fn advance<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let tab = self.tab;
        if std::ptr::eq(tab, &DOP853) {
            self.advance_dims(Dop853Tab, sys, t_stop, opts, stats)
        } else if std::ptr::eq(tab, &DP5) {
            self.advance_dims(Dp5Tab, sys, t_stop, opts, stats)
        } else if std::ptr::eq(tab, &BS23) {
            self.advance_dims(Bs23Tab, sys, t_stop, opts, stats)
        } else {
            self.advance_instance(RuntimeTab(tab), Dyn(self.state.n), sys, t_stop, opts, stats)
        }
    }

    #[inline(always)]
    fn advance_dims<T: TabSource, S: OdeSystem + ?Sized>(
        &mut self,
        t: T,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        with_dim!(self.state.n, |d| self
            .advance_instance(t, d, sys, t_stop, opts, stats))
    }

    /// One accepted step, one instance per tableau and dimension (kept out of line: the caller
    /// stays small). Attempts steps until one is accepted (or the step size falls below its
    /// floor), then shifts the current point to the previous one and moves to the new point.
    #[inline(never)]
    fn advance_instance<T: TabSource, D: Dim, S: OdeSystem + ?Sized>(
        &mut self,
        src: T,
        d: D,
        sys: &S,
        t_stop: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        let n = d.n();
        let tab = src.tab();
        loop {
            let (h, last, t_new) = self.state.clip(self.state.h, t_stop, opts);
            let err = self.attempt_in(src, d, sys, h, t_new, opts, stats);
            let (accept, h_next) = match self.ctl.as_mut() {
                None if err.is_nan() => return Err(OdeError::NonFinite { t: self.state.t, h }),
                None => (true, self.state.h),
                Some(_) if !err.is_finite() => (false, h * opts.min_shrink),
                Some(c) => c.next(h, err),
            };
            if !accept {
                self.state.reject(err, h, h_next, opts, stats)?;
                continue;
            }
            // Accept: the current point becomes the previous one.
            let s = tab.stages();
            let st = &mut self.state;
            st.shift(t_new);
            let p = split(&mut self.work, n);
            st.y[..n].copy_from_slice(&p.ynew[..n]);
            // The new point's derivative: the last stage (FSAL) or the extra one `attempt_in`
            // evaluated (also DOP853's stage 13 for its dense output).
            let f_new = if tab.fsal { s - 1 } else { s };
            st.f[..n].copy_from_slice(&p.k[f_new * n..(f_new + 1) * n]);
            st.count_accepted(h, stats)?;
            if let Some(m) = self.stiff.as_mut() {
                if m.due() {
                    let i = m.stage();
                    let mc = controlled_dims(opts, n);
                    let (k, f1) = p.k.split_at(f_new * n);
                    let hl = super::stiffness::h_lambda(
                        tab,
                        i,
                        n,
                        mc,
                        h,
                        &st.y_prev[..n],
                        &st.y[..n],
                        k,
                        &f1[..n],
                    );
                    if m.record(hl) {
                        return Err(OdeError::Stiff {
                            method: tab.name,
                            t: st.t,
                            steps: m.accepted(),
                        });
                    }
                }
            }
            self.dense_ready = false;
            if self.ctl.is_some() && !last {
                st.h = h_next;
            }
            return Ok(());
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn attempt_in<T: TabSource, D: Dim, S: OdeSystem + ?Sized>(
        &mut self,
        src: T,
        d: D,
        sys: &S,
        h: f64,
        t_new: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        let n = d.n();
        let tab = src.tab();
        let s = tab.stages();
        // The current point as local slices of length `n`, like the workspace's.
        let (t, y, f) = (self.state.t, &self.state.y[..n], &self.state.f[..n]);
        let p = split(&mut self.work, n);
        p.k[..n].copy_from_slice(f);
        for_stages!(s, |i| {
            let (done, rest) = p.k.split_at_mut(i * n);
            combine(d, p.ytmp, y, h, tab.a[i], done);
            sys.rhs(t + tab.c[i] * h, &p.ytmp[..n], &mut rest[..n]);
        });
        stats.rhs_evals += s - 1;
        if tab.fsal {
            // The last stage was evaluated at y + h Σ b_j k_j (its a-row equals b).
            p.ynew[..n].copy_from_slice(&p.ytmp[..n]);
        } else {
            combine(d, p.ynew, y, h, tab.b, p.k);
            // The derivative at the new point, into the slot after the stages, before the error
            // estimate rather than after acceptance: its RHS latency then overlaps the error
            // norm and the controller instead of following them (a rejected step wastes it).
            sys.rhs(t_new, &p.ynew[..n], &mut p.k[s * n..(s + 1) * n]);
            stats.rhs_evals += 1;
        }
        if self.ctl.is_none() {
            return if all_finite(&p.ynew[..n]) {
                0.0
            } else {
                f64::NAN
            };
        }
        let (ynew, k) = (&p.ynew[..n], &p.k[..]);
        // All components controlled (the usual case) gives the norm loop a constant length.
        match controlled_dims(opts, n) {
            mc if mc == n => error_norm(tab, n, n, h, y, ynew, k, opts),
            mc => error_norm(tab, n, mc, h, y, ynew, k, opts),
        }
    }
}

/// The scaled norm of the local error estimate `h Σ e_i k_i` over the first `mc` components
/// (for DOP853 the combination of its two estimators, see [`ErrorEstimate::Dop853`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn error_norm(
    tab: &Tableau,
    n: usize,
    mc: usize,
    h: f64,
    y: &[f64],
    ynew: &[f64],
    k: &[f64],
    opts: &SolverOptions,
) -> f64 {
    let (y, ynew) = (&y[..mc], &ynew[..mc]);
    match tab.error {
        ErrorEstimate::None => 0.0,
        ErrorEstimate::Embedded(e) => {
            let k = &k[..e.len() * n];
            let mut acc = NormAcc::new(opts.norm);
            for m in 0..mc {
                acc.add(h * comp(e, k, n, m) / weight(opts, m, y[m], ynew[m]));
            }
            acc.finish()
        }
        ErrorEstimate::Dop853 { e5, e3 } => {
            let k = &k[..e5.len() * n];
            let (mut a5, mut a3) = (NormAcc::new(opts.norm), NormAcc::new(opts.norm));
            for m in 0..mc {
                let w = weight(opts, m, y[m], ynew[m]);
                a5.add(h * comp(e5, k, n, m) / w);
                a3.add(h * comp(e3, k, n, m) / w);
            }
            // `err5² / √(err5² + 0.01 err3²)` from the squared norms: no root taken only to be
            // squared again on the step-to-step critical path.
            let (sq5, sq3) = (a5.finish_squared(), a3.finish_squared());
            let deno = sq5 + 0.01 * sq3;
            if deno > 0.0 {
                sq5 / deno.sqrt()
            } else {
                sq5.sqrt()
            }
        }
    }
}
