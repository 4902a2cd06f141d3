//! Jacobians of a model's functions: hand-written where the model provides them, otherwise by
//! forward-mode automatic differentiation with [`num_dual`].
//!
//! Why num-dual: it is maintained, pure Rust, and its dual numbers implement the full set of
//! elementary functions behind one trait (`DualNum<f64>`), so a model is written once, generic
//! over the scalar, and differentiated exactly (no truncation error). For state dimensions up
//! to 8 the derivative part is a static vector (`DualSVec64<N>`, one pass, no heap); larger
//! systems take one `Dual64` pass per column.

use crate::model::HybridModel;
use nalgebra::{Const, U1};
use num_dual::{Derivative, Dual64, DualSVec64, DualVec};

/// Seeds `x` as the independent variables of a static-vector dual number.
fn seed<const N: usize>(x: &[f64]) -> [DualSVec64<N>; N] {
    std::array::from_fn(|i| {
        let mut d = DualVec::from_re(x[i]);
        d.eps = Derivative::derivative_generic(Const::<N>, U1, i);
        d
    })
}

/// Row `r` of the derivative part into `row`.
fn grad_of<const N: usize>(d: &DualSVec64<N>, row: &mut [f64]) {
    let g = d.eps.unwrap_generic(Const::<N>, U1);
    row.copy_from_slice(g.as_slice());
}

/// Evaluates the vector-valued `f: Dⁿ → Dᵐ` and its Jacobian (row-major m×n) with static duals,
/// and its values into `values` if given. Up to `m = N` outputs live on the stack.
fn jac_static<const N: usize>(
    m: usize,
    x: &[f64],
    f: &mut dyn FnMut(&[DualSVec64<N>], &mut [DualSVec64<N>]),
    jac: &mut [f64],
    values: Option<&mut [f64]>,
) {
    let xs = seed::<N>(x);
    let mut stack = [DualVec::from_re(0.0); N];
    let mut heap = Vec::new();
    let out: &mut [DualSVec64<N>] = if m <= N {
        &mut stack[..m]
    } else {
        heap.resize(m, DualVec::from_re(0.0));
        &mut heap
    };
    f(&xs, out);
    for (r, o) in out.iter().enumerate() {
        grad_of(o, &mut jac[r * N..(r + 1) * N]);
    }
    if let Some(v) = values {
        for (v, o) in v.iter_mut().zip(out.iter()) {
            *v = o.re;
        }
    }
}

/// Column-by-column forward mode with single-direction duals (any n), and the values into
/// `values` if given.
fn jac_columns(
    n: usize,
    m: usize,
    x: &[f64],
    f: &mut dyn FnMut(&[Dual64], &mut [Dual64]),
    jac: &mut [f64],
    values: Option<&mut [f64]>,
) {
    let mut xs: Vec<Dual64> = x.iter().map(|&v| Dual64::from_re(v)).collect();
    let mut out = vec![Dual64::from_re(0.0); m];
    for j in 0..n {
        xs[j].eps = 1.0;
        f(&xs, &mut out);
        xs[j].eps = 0.0;
        for r in 0..m {
            jac[r * n + j] = out[r].eps;
        }
    }
    if let Some(v) = values {
        if n == 0 {
            f(&xs, &mut out);
        }
        for (v, o) in v.iter_mut().zip(&out) {
            *v = o.re;
        }
    }
}

macro_rules! dispatch {
    ($n:expr, $m:expr, $x:expr, $jac:expr, |$xs:ident, $out:ident| $body:expr) => {
        dispatch!($n, $m, $x, $jac, None, |$xs, $out| $body)
    };
    ($n:expr, $m:expr, $x:expr, $jac:expr, $values:expr, |$xs:ident, $out:ident| $body:expr) => {
        match $n {
            1 => jac_static::<1>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            2 => jac_static::<2>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            3 => jac_static::<3>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            4 => jac_static::<4>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            5 => jac_static::<5>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            6 => jac_static::<6>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            7 => jac_static::<7>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            8 => jac_static::<8>($m, $x, &mut |$xs, $out| $body, $jac, $values),
            n => jac_columns(n, $m, $x, &mut |$xs, $out| $body, $jac, $values),
        }
    };
}

/// `f` and `f_x` of mode `mode` at `(t, x)` in one pass of automatic differentiation: the
/// values are the real parts of the dual evaluation.
pub fn flow_and_jacobian_ad<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    t: f64,
    x: &[f64],
    dx: &mut [f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    dispatch!(n, n, x, jac, Some(dx), |xs, out| model
        .flow(mode, t, xs, out));
}

/// `f_x` of mode `mode` at `(t, x)` by automatic differentiation (row-major n×n).
pub fn flow_jacobian_ad<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    t: f64,
    x: &[f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    dispatch!(n, n, x, jac, |xs, out| model.flow(mode, t, xs, out));
}

/// `h_x` of guard `j` of `mode` at `x` by automatic differentiation.
pub fn guard_gradient_ad<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    x: &[f64],
    grad: &mut [f64],
) {
    let n = model.dim();
    dispatch!(n, 1, x, grad, |xs, out| out[0] = model.guard(mode, j, xs));
}

/// `g_x` of the reset of guard `j` of `mode` at `x` by automatic differentiation.
pub fn reset_jacobian_ad<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    x: &[f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    dispatch!(n, n, x, jac, |xs, out| model.reset(mode, j, xs, out));
}

/// `f_x`: the model's hand-written Jacobian if it has one, else automatic.
pub fn flow_jacobian<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    t: f64,
    x: &[f64],
    jac: &mut [f64],
) {
    if !model.flow_jacobian(mode, t, x, jac) {
        flow_jacobian_ad(model, mode, t, x, jac);
    }
}

/// `h_x`: hand-written if provided, else automatic.
pub fn guard_gradient<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    x: &[f64],
    grad: &mut [f64],
) {
    if !model.guard_gradient(mode, j, x, grad) {
        guard_gradient_ad(model, mode, j, x, grad);
    }
}

/// `g_x`: hand-written if provided, else automatic.
pub fn reset_jacobian<M: HybridModel + ?Sized>(
    model: &M,
    mode: usize,
    j: usize,
    x: &[f64],
    jac: &mut [f64],
) {
    if !model.reset_jacobian(mode, j, x, jac) {
        reset_jacobian_ad(model, mode, j, x, jac);
    }
}
