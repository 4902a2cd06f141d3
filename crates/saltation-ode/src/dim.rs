//! Dimensions known at compile time or at run time, and the stage combinations written once for
//! both.
//!
//! The hot loops are monomorphised for common small dimensions ([`Fixed`]: 2, 4, 6 and 20 — a
//! 4-state model with its 4×4 variational matrix) so that component loops unroll and vectorise;
//! any other size runs the same code with a run-time length ([`Dyn`]). [`with_dim!`] picks one.

/// A state dimension.
pub(crate) trait Dim: Copy {
    fn n(self) -> usize;
    /// Runs `f` on a scratch state of length `n`: a stack array for a fixed dimension (so the
    /// compiler sees it alias nothing), else the first `n` entries of `heap`.
    fn with_scratch<R>(self, heap: &mut [f64], f: impl FnOnce(&mut [f64]) -> R) -> R;
}

#[derive(Clone, Copy)]
pub(crate) struct Fixed<const N: usize>;

impl<const N: usize> Dim for Fixed<N> {
    #[inline(always)]
    fn n(self) -> usize {
        N
    }
    #[inline(always)]
    fn with_scratch<R>(self, _heap: &mut [f64], f: impl FnOnce(&mut [f64]) -> R) -> R {
        f(&mut [0.0; N])
    }
}

#[derive(Clone, Copy)]
pub(crate) struct Dyn(pub usize);

impl Dim for Dyn {
    #[inline(always)]
    fn n(self) -> usize {
        self.0
    }
    #[inline(always)]
    fn with_scratch<R>(self, heap: &mut [f64], f: impl FnOnce(&mut [f64]) -> R) -> R {
        f(&mut heap[..self.0])
    }
}

/// Runs `$body` with `$d` bound to the [`Dim`] for `$n`.
macro_rules! with_dim {
    ($n:expr, |$d:ident| $body:expr) => {{
        use $crate::dim::{Dyn, Fixed};
        match $n {
            2 => {
                let $d = Fixed::<2>;
                $body
            }
            4 => {
                let $d = Fixed::<4>;
                $body
            }
            6 => {
                let $d = Fixed::<6>;
                $body
            }
            20 => {
                let $d = Fixed::<20>;
                $body
            }
            n => {
                let $d = Dyn(n);
                $body
            }
        }
    }};
}
pub(crate) use with_dim;

/// `Σ_j coef_j k_j[m]` over stage-major stages (`k_j` at `[j n, (j+1) n)`), zero coefficients
/// skipped. The sum starts from the first nonzero term (not from `0.0 +`, which does not fold).
#[inline(always)]
pub(crate) fn comp(coef: &[f64], k: &[f64], n: usize, m: usize) -> f64 {
    let mut acc = 0.0;
    let mut first = true;
    for (j, &a) in coef.iter().enumerate() {
        if a != 0.0 {
            if first {
                acc = a * k[j * n + m];
                first = false;
            } else {
                acc += a * k[j * n + m];
            }
        }
    }
    acc
}

/// `out = y + h Σ_j coef_j k_j`, per component: one short dot product with constant
/// coefficients for the built-in tableaus. (Sweeping stage by stage with a vector operation over
/// the components measured slower, for n = 4 and n = 20 alike.)
///
/// Evaluated as `(y + h Σ_{j<l} coef_j k_j) + (h coef_l) k_l`, `l` the last nonzero coefficient
/// (in the stage rows of the built-in tableaus, the newest stage): the stage the next RHS call
/// waits for enters through one multiply and one add, the older terms are summed while it is
/// being computed.
#[inline(always)]
pub(crate) fn combine<D: Dim>(d: D, out: &mut [f64], y: &[f64], h: f64, coef: &[f64], k: &[f64]) {
    let n = d.n();
    let (out, y) = (&mut out[..n], &y[..n]);
    let k = &k[..coef.len() * n];
    let Some(l) = coef.iter().rposition(|&a| a != 0.0) else {
        out.copy_from_slice(y);
        return;
    };
    let (head, hl) = (&coef[..l], h * coef[l]);
    let kl = &k[l * n..(l + 1) * n];
    if head.iter().all(|&a| a == 0.0) {
        for m in 0..n {
            out[m] = y[m] + hl * kl[m];
        }
    } else {
        for m in 0..n {
            out[m] = (y[m] + h * comp(head, k, n, m)) + hl * kl[m];
        }
    }
}

/// `out = h Σ_j coef_j k_j`.
#[inline(always)]
pub(crate) fn scaled<D: Dim>(d: D, out: &mut [f64], h: f64, coef: &[f64], k: &[f64]) {
    let n = d.n();
    let k = &k[..coef.len() * n];
    for (m, o) in out[..n].iter_mut().enumerate() {
        *o = h * comp(coef, k, n, m);
    }
}
