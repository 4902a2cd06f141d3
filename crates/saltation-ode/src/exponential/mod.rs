//! Exact steps of an autonomous affine system `y' = A y + b` (`A`, `b` constant).
//!
//! The flow of such a system is known in closed form: with the augmented matrix
//! `Ã = [[A, b], [0, 0]]` (order `n + 1`),
//! `[y(t + h); 1] = e^{Ãh} [y(t); 1]` (Moler & Van Loan 2003, §10; the augmented form of
//! Van Loan, "Computing integrals involving the matrix exponential", IEEE TAC 23, 1978).
//! [`AffineExp`] steps with that product, so each step is exact to rounding whatever its
//! length: it never rejects a step, and its step size is chosen for the event scan, not for
//! accuracy.
//!
//! - **Step size.** `h = 1/r` with `r = ‖A¹⁶‖^{1/16} ≥ ρ(A)` (`expm.rs`): no eigenvalue
//!   turns by more than one radian or grows by more than a factor `e` within a step, so a
//!   guard along the flow (a sum of such modes) changes sign at most a few times per step and
//!   the driver's samples see it. `h_max` (and `h_fixed`) cap it. The first step after a
//!   (re)start is the usual starting-step estimate (Hairer, Nørsett & Wanner, *Solving ODEs
//!   I*, §II.4) when that is shorter, and steps then double up to `h` (with `r = 0`, a
//!   nilpotent `A` as in free fall, they keep doubling up to `h_max`).
//! - **Work.** `e^{Ãh}` for the regular `h` is computed once (scaling and squaring, `expm.rs`)
//!   and kept in a small cache keyed by `(A, b)`, so that a hybrid system returning to a mode
//!   reuses it (and in a per-thread cache of 16, which the next stepper for the same modes
//!   finds): a regular step is then one `n × (n + 1)` matrix–vector product and `f` at its
//!   end one more. A shorter step (the first ones, the last one before `t_stop`) sums the
//!   Taylor series of the step (`series.rs`).
//! - **Dense output** is the same series, `y(t₀ + θh) = y₀ + Σ θᵏ hᵏ/k! A^{k−1} f₀`, built
//!   on the first request in a step. After a regular step it is first checked against the
//!   exponential's end point in the error weights `atol + rtol |y|`; if it fails (a matrix so
//!   far from normal that the series loses digits) that `(A, b)` takes its dense output from
//!   `e^{Ã s}` instead.
//!
//! The system must say it is autonomous and affine ([`OdeSystem::is_autonomous_affine`]);
//! `A` is its Jacobian and `b = f(0)`. [`AffineExp`] checks `f(y) = A y + b` at every start
//! and at the end of every step up to the first full one ([`OdeError::NotAffine`]); autonomy it takes on
//! trust. The mass matrix must be the identity.

mod expm;
mod series;

use crate::control::initial_step;
use crate::step_state::{state_accessors, StepState};
use crate::stepper::{all_finite, check_initial, first_step, Stepper};
use crate::{OdeError, OdeSystem, SolverOptions, Stats};
use expm::{expm, spectral_bound};
use series::Series;

/// Propagators kept (a hybrid stride visits a handful of modes).
const CACHE: usize = 4;

/// Relative mismatch of `f(y₀)` and `A y₀ + f(0)` above which the system is not affine.
const AFFINE_TOL: f64 = 1e-8;

/// Most products with `e^{Ah}` in [`AffineExp::propagate_columns`] (a longer phase takes the
/// exponential of `Aτ` from the caller).
const MAX_POWERS: usize = 256;

/// The order assumed by the starting-step estimate (that of DOP853, the default method).
const START_ORDER: u32 = 8;

/// How the dense output of an `(A, b)` is computed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum DenseBy {
    /// Not yet checked.
    Unchecked,
    /// The Taylor series (checked once against the exponential's step).
    Series,
    /// `e^{Ãs}` at each request.
    Exponential,
}

/// Propagators kept per thread across steppers: a stride map, an orbit solve or a
/// continuation step makes new steppers for the same modes, which then find `e^{Ãh}` here
/// (copied into their own cache) instead of computing it again.
const SHARED_CACHE: usize = 16;

thread_local! {
    static SHARED: std::cell::RefCell<Vec<Propagator>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `e^{Ãh}` of one `(A, b)` at its regular step `h`.
#[derive(Debug, Clone)]
struct Propagator {
    a: Vec<f64>,
    b: Vec<f64>,
    /// The cap `min(h_max, h_fixed)` the step was chosen under.
    cap: f64,
    /// The regular step (`∞` when `r = 0` and there is no cap: doubling steps only).
    h: f64,
    /// The top `n` rows of `e^{Ãh}`, `[E | c]` (row-major `n × (n + 1)`); empty for `h = ∞`.
    e: Vec<f64>,
    dense: DenseBy,
}

/// The exact stepper of an autonomous affine system (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct AffineExp {
    /// The current point (`f = A y + b`), the last step's start and the next step.
    state: StepState,
    /// The current propagator (index into `cache`).
    current: usize,
    cache: Vec<Propagator>,
    series: Series,
    /// Whether `series` is the last step's.
    series_valid: bool,
    /// `atol_i` and `rtol`, for checking the series against the exponential.
    atol: Vec<f64>,
    rtol: f64,
    /// Whether step ends are still checked against the system's own `f`: every step after a
    /// start up to the first regular or last one (a false claim of affinity seldom hides at
    /// states a full step apart).
    verify: bool,
    scratch: Vec<f64>,
    scratch2: Vec<f64>,
}

impl AffineExp {
    /// A fresh stepper (workspace sized on start).
    pub fn new() -> Self {
        Self::default()
    }

    fn prop(&self) -> &Propagator {
        &self.cache[self.current]
    }

    /// Finds or makes the propagator of `(a, b)` under `cap`; returns its index.
    fn propagator(&mut self, a: &[f64], b: &[f64], cap: f64) -> usize {
        if let Some(k) = self
            .cache
            .iter()
            .position(|p| p.cap == cap && p.a == a && p.b == b)
        {
            return k;
        }
        let p = SHARED.with(|shared| {
            let mut shared = shared.borrow_mut();
            if let Some(p) = shared.iter().find(|p| p.cap == cap && p.a == a && p.b == b) {
                return p.clone();
            }
            let p = Propagator::new(a, b, cap);
            if shared.len() == SHARED_CACHE {
                shared.remove(0);
            }
            shared.push(p.clone());
            p
        });
        if self.cache.len() < CACHE {
            self.cache.push(p);
            self.cache.len() - 1
        } else {
            // The oldest entry goes (the cache is small and kept in insertion order).
            self.cache.remove(0);
            self.cache.push(p);
            CACHE - 1
        }
    }
}

impl Propagator {
    /// `out = A x + b`.
    fn affine(&self, x: &[f64], out: &mut [f64]) {
        let n = self.b.len();
        mat_vec(&self.a, n, &x[..n], &mut out[..n]);
        for (o, b) in out[..n].iter_mut().zip(&self.b) {
            *o += b;
        }
    }

    /// The propagator of `(A, b)` (`n × n`, `n`) with its regular step under `cap`.
    fn new(a: &[f64], b: &[f64], cap: f64) -> Self {
        let n = b.len();
        let r = spectral_bound(a, n);
        let h = if r > 0.0 { (1.0 / r).min(cap) } else { cap };
        let e = if h.is_finite() {
            augmented_exponential(a, b, n, h)
        } else {
            Vec::new()
        };
        Propagator {
            a: a.to_vec(),
            b: b.to_vec(),
            cap,
            h,
            e,
            dense: DenseBy::Unchecked,
        }
    }
}

/// The top `n` rows of `e^{Ãh}`, `Ã = [[A, b], [0, 0]]`: `[E | c]` with `E = e^{Ah}`,
/// `c = ∫₀ʰ e^{As} ds b` (row-major `n × (n + 1)`).
fn augmented_exponential(a: &[f64], b: &[f64], n: usize, h: f64) -> Vec<f64> {
    let m = n + 1;
    let mut big = vec![0.0; m * m];
    for i in 0..n {
        for j in 0..n {
            big[i * m + j] = a[i * n + j] * h;
        }
        big[i * m + n] = b[i] * h;
    }
    let mut e = vec![0.0; m * m];
    expm(&big, m, &mut e);
    e.truncate(n * m);
    e
}

/// `out = M x` for the leading `out.len() × x.len()` block of `M`, row-major with rows of
/// length `stride` (`n` for `A`, `n + 1` for `[E | c]`).
fn mat_vec(m: &[f64], stride: usize, x: &[f64], out: &mut [f64]) {
    let n = x.len();
    for (i, o) in out.iter_mut().enumerate() {
        let row = &m[i * stride..i * stride + n];
        *o = row.iter().zip(x).map(|(a, x)| a * x).sum::<f64>();
    }
}

/// Why `f` (the system's value at `y`) is not `A y + b`, if it is not, to [`AFFINE_TOL`]
/// relative to the sizes of the terms.
fn affine_mismatch(a: &[f64], b: &[f64], y: &[f64], f: &[f64]) -> Option<String> {
    let n = y.len();
    (0..n).find_map(|i| {
        let row = &a[i * n..(i + 1) * n];
        let ay: f64 = row.iter().zip(y).map(|(a, y)| a * y).sum();
        let size: f64 =
            row.iter().zip(y).map(|(a, y)| (a * y).abs()).sum::<f64>() + b[i].abs() + f[i].abs();
        let miss = (f[i] - ay - b[i]).abs();
        (!(miss <= AFFINE_TOL * size)).then(|| {
            format!(
                "component {i} of f(y) is {:e}, but A y + f(0) is {:e}",
                f[i],
                ay + b[i]
            )
        })
    })
}

/// The largest `|v_i|`, NaN if any is NaN (`f64::max` would drop it).
pub(crate) fn max_abs(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| {
        if x.abs() > m || x.is_nan() {
            x.abs()
        } else {
            m
        }
    })
}

/// `out = E x + c` for `[E | c]` (`n × (n + 1)`).
fn apply(e: &[f64], x: &[f64], out: &mut [f64]) {
    let n = x.len();
    mat_vec(e, n + 1, x, &mut out[..n]);
    for (i, o) in out[..n].iter_mut().enumerate() {
        *o += e[i * (n + 1) + n];
    }
}

impl Stepper for AffineExp {
    fn name(&self) -> &'static str {
        "affine-exp"
    }
    /// Exact: no truncation error (reported as `u32::MAX`).
    fn order(&self) -> u32 {
        u32::MAX
    }
    fn is_adaptive(&self) -> bool {
        false
    }

    fn start<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t: f64,
        y: &[f64],
        opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        check_initial(sys, t, y)?;
        if sys.mass_matrix().is_some() {
            return Err(OdeError::MassMatrixUnsupported {
                method: self.name(),
                reason: "needs M = I",
            });
        }
        if sys.variational_columns() > 0 {
            return Err(OdeError::NotAffine {
                t,
                reason: "a variational system is stepped by the other methods".into(),
            });
        }
        if !sys.is_autonomous_affine() {
            return Err(OdeError::NotAffine {
                t,
                reason: "the system does not say it is autonomous and affine".into(),
            });
        }
        let n = y.len();
        self.state.resize(n);
        for v in [&mut self.scratch, &mut self.scratch2, &mut self.atol] {
            v.resize(n, 0.0);
        }
        self.rtol = opts.rtol;
        for (i, a) in self.atol.iter_mut().enumerate() {
            *a = opts.atol.get(i);
        }
        self.series_valid = false;
        self.state.start_at(sys, t, y, stats)?;
        // A from the Jacobian (or, when the system gives none, from f at the unit vectors:
        // exact for an affine f up to rounding), b = f(0).
        crate::check_dense(
            "(n+1) × (n+1) propagator of the exact affine stepper",
            n + 1,
            n + 1,
        )?;
        let mut a = vec![0.0; n * n];
        let mut b = vec![0.0; n];
        sys.rhs(t, &vec![0.0; n], &mut b);
        stats.rhs_evals += 1;
        stats.jacobian_evals += 1;
        if !sys.jacobian(t, y, &mut a) {
            let mut e = vec![0.0; n];
            let mut col = vec![0.0; n];
            for k in 0..n {
                e[k] = 1.0;
                sys.rhs(t, &e, &mut col);
                e[k] = 0.0;
                for i in 0..n {
                    a[i * n + k] = col[i] - b[i];
                }
            }
            stats.rhs_evals += n;
        }
        if !all_finite(&a) {
            return Err(OdeError::NotAffine {
                t,
                reason: "its Jacobian is not finite".into(),
            });
        }
        if !all_finite(&b) {
            // f is not defined at 0: b from the start point instead (exact in exact
            // arithmetic, and the affinity check below still holds).
            mat_vec(&a, n, y, &mut b);
            for (bi, fi) in b.iter_mut().zip(&self.state.f) {
                *bi = fi - *bi;
            }
        }
        if let Some(reason) = affine_mismatch(&a, &b, y, &self.state.f) {
            return Err(OdeError::NotAffine { t, reason });
        }
        let cap = opts.h_max.min(opts.h_fixed.unwrap_or(f64::INFINITY));
        self.current = self.propagator(&a, &b, cap);
        let h_reg = self.prop().h;
        let (f0, s1, s2) = (&self.state.f, &mut self.scratch, &mut self.scratch2);
        let h1 = first_step(opts, || {
            let mut rhs = |t: f64, y: &[f64], dy: &mut [f64]| sys.rhs(t, y, dy);
            stats.rhs_evals += 1;
            initial_step(&mut rhs, t, y, f0, START_ORDER, opts, s1, s2)
        });
        // Every step is exact: the starting estimate (tiny at a state at rest) is kept above
        // a few ulps of t, so that the step moves time.
        self.state.h = h1.max(64.0 * f64::EPSILON * t.abs()).min(h_reg);
        self.verify = true;
        if !(self.state.h > 0.0) {
            // (h_max is validated positive: the step itself is the cause, a regular step
            // 1/ρ(A) that underflows for a huge A or an unusable starting estimate.)
            return Err(OdeError::StepTooSmall { t, h: self.state.h });
        }
        self.state.started = true;
        Ok(())
    }

    fn step<S: OdeSystem + ?Sized>(
        &mut self,
        sys: &S,
        t_stop: f64,
        _opts: &SolverOptions,
        stats: &mut Stats,
    ) -> Result<(), OdeError> {
        // (No not-started check: before a start `h` is 0, and the step fails with
        // `StepTooSmall` here, as it always has.)
        let st = &mut self.state;
        let remaining = t_stop - st.t;
        // A step that would leave less than 1e-12 of itself before t_stop goes to t_stop (a
        // leftover of an ulp would be a step below the floor).
        let last = st.h >= remaining * (1.0 - 1e-12);
        let h = if last { remaining } else { st.h };
        if !(h > 0.0) || st.t + h == st.t {
            return Err(OdeError::StepTooSmall { t: st.t, h });
        }
        st.shift(if last { t_stop } else { st.t + h });
        let p = &self.cache[self.current];
        let regular = !last && h == p.h;
        let series_ok = p.dense != DenseBy::Exponential;
        if regular {
            apply(&p.e, &st.y_prev, &mut st.y);
            self.series_valid = false;
        } else if series_ok && self.series.build(&p.a, &st.y_prev, &st.f_prev, h) {
            self.series.eval(&st.y_prev, 1.0, &mut st.y);
            self.series_valid = true;
        } else {
            let e = augmented_exponential(&p.a, &p.b, st.n, h);
            apply(&e, &st.y_prev, &mut st.y);
            self.series_valid = false;
        }
        if !all_finite(&st.y) {
            // `e^{Ãh} y` itself overflowed: the solution leaves the floating-point range (the
            // vector field is finite wherever the state is). Back at the step's start, a
            // finite state.
            let t = st.t_prev;
            st.unshift();
            return Err(OdeError::Overflow { t, h });
        }
        p.affine(&st.y, &mut st.f);
        st.count_accepted(h, stats)?;
        if self.verify {
            // Checked at every step until the first regular or last one: the short starting
            // steps alone may not move the state far enough to show a false claim, and a
            // nilpotent A (h = ∞) or a phase that ends at an event may have no regular step.
            self.verify = !(regular || last);
            let st = &self.state;
            sys.rhs(st.t, &st.y, &mut self.scratch);
            stats.rhs_evals += 1;
            let p = &self.cache[self.current];
            if let Some(reason) = affine_mismatch(&p.a, &p.b, &st.y, &self.scratch) {
                return Err(OdeError::NotAffine { t: st.t, reason });
            }
        }
        if !last {
            self.state.h = (2.0 * h).min(self.prop().h);
        }
        Ok(())
    }

    state_accessors!(state);

    fn dense<S: OdeSystem + ?Sized>(
        &mut self,
        _sys: &S,
        t: f64,
        out: &mut [f64],
        _stats: &mut Stats,
    ) {
        let st = &self.state;
        let h = st.t - st.t_prev;
        if h == 0.0 {
            st.copy_y(out);
            return;
        }
        if !self.series_valid && self.prop().dense != DenseBy::Exponential {
            let a = &self.cache[self.current].a;
            let built = self.series.build(a, &st.y_prev, &st.f_prev, h);
            let ok = built && (self.prop().dense == DenseBy::Series || self.series_matches_step());
            let p = &mut self.cache[self.current];
            p.dense = if ok {
                DenseBy::Series
            } else {
                DenseBy::Exponential
            };
            self.series_valid = ok;
        }
        let st = &self.state;
        if self.series_valid {
            self.series.eval(&st.y_prev, (t - st.t_prev) / h, out);
        } else {
            let p = self.prop();
            let e = augmented_exponential(&p.a, &p.b, st.n, t - st.t_prev);
            apply(&e, &st.y_prev, out);
        }
    }

    fn truncate<S: OdeSystem + ?Sized>(&mut self, _sys: &S, t: f64, y: &[f64], _stats: &mut Stats) {
        // The last step is kept, cut to `[t_prev, t]`: the dense output of the exact flow
        // needs only its start.
        let st = &mut self.state;
        st.t = t;
        st.y.copy_from_slice(y);
        self.cache[self.current].affine(y, &mut st.f);
        self.series_valid = false;
    }

    /// Yes: each step is exact, so its length sees no time scale but `1/ρ(A)` (none for a
    /// nilpotent `A`).
    fn steps_need_guard_scale(&self) -> bool {
        true
    }

    fn limit_next_step(&mut self, h: f64) {
        let st = &mut self.state;
        let floor = 64.0 * f64::EPSILON * st.t.abs();
        if h < st.h {
            st.h = h.max(floor).min(st.h);
        }
    }
}

impl AffineExp {
    /// Whether the dense output of the system last started comes from its Taylor series
    /// (`true`, also before it was checked) or from `e^{Ãs}` at each request (`false`: the
    /// series missed the tolerance against the exponential over a step). `false` before a
    /// start.
    pub fn dense_output_by_series(&self) -> bool {
        !self.cache.is_empty() && self.prop().dense != DenseBy::Exponential
    }

    /// `ψ ← e^{Aτ} ψ` for `ψ` row-major `n × c`, with the `A` of the system last started: the
    /// variational matrix of a phase of duration `τ ≥ 0` (`Φ' = A Φ`). With `τ = m h + s`
    /// (`h` the regular step, `0 ≤ s < h`), `e^{As} ψ` by the Taylor series of the dense
    /// output (column by column, `ρ(A) s ≤ 1`), then `m` products with the cached
    /// `E = e^{Ah}`: `n² c (m + K)` flops, `K` the series' terms, instead of an `n × n`
    /// exponential of `Aτ`. `false` (and `ψ` unchanged) before a start, when `τ` is negative,
    /// not finite or more than 256 regular steps, or when the series does not converge or
    /// failed its check against the exponential for this `(A, b)`: the caller then forms
    /// `e^{Aτ}` otherwise.
    pub fn propagate_columns(&self, tau: f64, psi: &mut [f64], c: usize) -> bool {
        let n = self.state.n;
        if self.cache.is_empty() || !(tau >= 0.0) || !tau.is_finite() || psi.len() < n * c {
            return false;
        }
        let p = self.prop();
        if p.dense == DenseBy::Exponential {
            return false;
        }
        let (m, s) = if p.h.is_finite() {
            let m = (tau / p.h).floor();
            (m, (tau - m * p.h).max(0.0))
        } else {
            (0.0, tau)
        };
        if m > MAX_POWERS as f64 {
            return false;
        }
        let m = m as usize;
        // Each column ψ_k contiguous (column-major), then e^{As} ψ_k as the step series from
        // (ψ_k, A ψ_k) over s, evaluated at its end: the dense output's own series.
        let mut acc = vec![0.0; n * c];
        let (mut col, mut f0) = (vec![0.0; n], vec![0.0; n]);
        let mut series = Series::default();
        for k in 0..c {
            for (i, v) in col.iter_mut().enumerate() {
                *v = psi[i * c + k];
            }
            mat_vec(&p.a, n, &col, &mut f0);
            if !series.build(&p.a, &col, &f0, s) {
                return false;
            }
            series.eval(&col, 1.0, &mut acc[k * n..(k + 1) * n]);
        }
        // m products with E (the n × n block of [E | c]).
        let mut next = vec![0.0; n * c];
        for _ in 0..m {
            for (x, out) in acc.chunks_exact(n).zip(next.chunks_exact_mut(n)) {
                mat_vec(&p.e, n + 1, x, out);
            }
            std::mem::swap(&mut acc, &mut next);
        }
        for (i, row) in psi[..n * c].chunks_exact_mut(c).enumerate() {
            for (k, v) in row.iter_mut().enumerate() {
                *v = acc[k * n + i];
            }
        }
        true
    }

    /// Whether the series just built for the last step reproduces its end point (from the
    /// exponential) within the error weights `atol_i + rtol |y_i|`.
    fn series_matches_step(&mut self) -> bool {
        let (st, end) = (&self.state, &mut self.scratch);
        self.series.eval(&st.y_prev, 1.0, end);
        (0..st.n).all(|i| {
            let w = self.atol[i] + self.rtol * st.y[i].abs().max(st.y_prev[i].abs());
            (end[i] - st.y[i]).abs() <= w
        })
    }
}
