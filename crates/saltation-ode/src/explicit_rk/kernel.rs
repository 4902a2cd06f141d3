//! The hot loop of one Runge–Kutta attempt.
//!
//! The same generic code runs every tableau, but it is monomorphised for the built-in adaptive
//! pairs (so the coefficients are compile-time constants: stage loops unroll and zero
//! coefficients vanish) and for common small dimensions (so component loops unroll); any other
//! tableau or size runs the identical code with run-time values. Stages are stored stage-major
//! (`k_j` at `[j n, (j+1) n)`); each combination is `y + h Σ_j a_ij k_j`.

use super::{all_finite, split, ExplicitRk};
use crate::control::{controlled_dims, weight, NormAcc};
use crate::dim::{combine, comp, with_dim, Dim, Dyn};
use crate::tableau::{ErrorEstimate, Tableau, BS23, DOP853, DP5};
use crate::{OdeSystem, SolverOptions, Stats};

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
    /// Stages of one attempt of size `h` from `(t, y)`; fills `ynew` and returns the scaled error
    /// norm (0 without error control, NaN for a non-finite result). `f(t, y)` is `k_1`.
    pub(super) fn attempt<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        h: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        let tab = self.tab;
        if std::ptr::eq(tab, &DOP853) {
            self.attempt_dims(Dop853Tab, sys, h, opts, stats)
        } else if std::ptr::eq(tab, &DP5) {
            self.attempt_dims(Dp5Tab, sys, h, opts, stats)
        } else if std::ptr::eq(tab, &BS23) {
            self.attempt_dims(Bs23Tab, sys, h, opts, stats)
        } else {
            self.attempt_in(RuntimeTab(tab), Dyn(self.n), sys, h, opts, stats)
        }
    }

    #[inline(always)]
    fn attempt_dims<T: TabSource, S: OdeSystem + ?Sized>(
        &mut self,
        t: T,
        sys: &S,
        h: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        with_dim!(self.n, |d| self.attempt_instance(t, d, sys, h, opts, stats))
    }

    /// One instance per tableau and dimension (kept out of line: the caller stays small).
    #[inline(never)]
    fn attempt_instance<T: TabSource, D: Dim, S: OdeSystem + ?Sized>(
        &mut self,
        src: T,
        d: D,
        sys: &S,
        h: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        self.attempt_in(src, d, sys, h, opts, stats)
    }

    #[inline(always)]
    fn attempt_in<T: TabSource, D: Dim, S: OdeSystem + ?Sized>(
        &mut self,
        src: T,
        d: D,
        sys: &S,
        h: f64,
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> f64 {
        let n = d.n();
        let tab = src.tab();
        let s = tab.stages();
        let p = split(&mut self.work, n);
        p.k[..n].copy_from_slice(&p.f[..n]);
        for_stages!(s, |i| {
            let (done, rest) = p.k.split_at_mut(i * n);
            combine(d, p.ytmp, p.y, h, tab.a[i], done);
            sys.rhs(self.t + tab.c[i] * h, &p.ytmp[..n], &mut rest[..n]);
        });
        stats.rhs_evals += s - 1;
        if tab.fsal {
            // The last stage was evaluated at y + h Σ b_j k_j (its a-row equals b).
            p.ynew[..n].copy_from_slice(&p.ytmp[..n]);
        } else {
            combine(d, p.ynew, p.y, h, tab.b, p.k);
        }
        let mc = controlled_dims(opts, n);
        let (y, ynew, k) = (&p.y[..n], &p.ynew[..n], &p.k[..]);
        match tab.error {
            _ if self.ctl.is_none() => {
                if all_finite(ynew) {
                    0.0
                } else {
                    f64::NAN
                }
            }
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
                let (err5, err3) = (a5.finish(), a3.finish());
                let deno = err5 * err5 + 0.01 * err3 * err3;
                if deno > 0.0 {
                    err5 * err5 / deno.sqrt()
                } else {
                    err5
                }
            }
        }
    }
}
