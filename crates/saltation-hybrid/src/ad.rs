//! Jacobians of a model's functions: hand-written where the model provides them, otherwise by
//! forward-mode automatic differentiation with [`num_dual`].
//!
//! Why num-dual: it is maintained, pure Rust, and its dual numbers implement the full set of
//! elementary functions behind one trait (`DualNum<f64>`), so a model is written once, generic
//! over the scalar, and differentiated exactly (no truncation error). For state dimensions up
//! to 8 the derivative part is a static vector (`DualSVec64<N>`, one pass, no heap); larger
//! systems take one `Dual64` pass per column.

use crate::model::EvalModel;
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
pub fn flow_and_jacobian_ad<M: EvalModel + ?Sized>(
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
pub fn flow_jacobian_ad<M: EvalModel + ?Sized>(
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
pub fn guard_gradient_ad<M: EvalModel + ?Sized>(
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
pub fn reset_jacobian_ad<M: EvalModel + ?Sized>(
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
pub fn flow_jacobian<M: EvalModel + ?Sized>(
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
pub fn guard_gradient<M: EvalModel + ?Sized>(
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
pub fn reset_jacobian<M: EvalModel + ?Sized>(
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

/// `Dχ(u)` (row-major n × r) by automatic differentiation of [`EvalModel::chart`].
pub fn chart_jacobian_ad<M: EvalModel + ?Sized>(model: &M, u: &[f64], jac: &mut [f64]) {
    let (n, r) = (model.dim(), model.reduced_dim());
    dispatch!(r, n, u, jac, |us, out| model.chart(us, out));
}

/// `Dπ(x)` (row-major r × n) by automatic differentiation of [`EvalModel::project`].
pub fn project_jacobian_ad<M: EvalModel + ?Sized>(model: &M, x: &[f64], jac: &mut [f64]) {
    let (n, r) = (model.dim(), model.reduced_dim());
    dispatch!(n, r, x, jac, |xs, out| model.project(xs, out));
}

/// A hand-written derivative that disagrees with automatic differentiation of the function it
/// differentiates ([`check_hand_written`]).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "hand-written {what} differs from automatic differentiation by {error:.2e} \
     (relative to {scale:.2e}): entry {entry}, hand-written {hand}, automatic {auto}"
)]
pub struct Mismatch {
    /// Which derivative (`"chart Jacobian"`, `"flow Jacobian of mode 1"`, …).
    pub what: String,
    /// Row-major index of the worst entry.
    pub entry: usize,
    /// The hand-written value there.
    pub hand: f64,
    /// The automatic one.
    pub auto: f64,
    /// The largest absolute difference.
    pub error: f64,
    /// `max(1, max |automatic|)`, the scale the difference is judged against.
    pub scale: f64,
}

/// The worst entry of `hand − auto`, an error if it exceeds `tol · max(1, max |auto|)`.
fn compare(what: String, hand: &[f64], auto: &[f64], tol: f64) -> Result<(), Mismatch> {
    let scale = auto.iter().fold(1.0f64, |s, v| s.max(v.abs()));
    let (entry, error) = hand
        .iter()
        .zip(auto)
        .map(|(h, a)| {
            if h.is_nan() || a.is_nan() {
                f64::INFINITY
            } else {
                (h - a).abs()
            }
        })
        .enumerate()
        .fold((0, 0.0f64), |w, (i, e)| if e > w.1 { (i, e) } else { w });
    if error <= tol * scale {
        return Ok(());
    }
    Err(Mismatch {
        what,
        entry,
        hand: hand.get(entry).copied().unwrap_or(f64::NAN),
        auto: auto.get(entry).copied().unwrap_or(f64::NAN),
        error,
        scale,
    })
}

/// Checks every hand-written derivative of `model` against automatic differentiation of the
/// function it belongs to: in mode `mode` at `(t, x)`, the flow Jacobian and each guard's
/// gradient and reset Jacobian, and for a mode said to have a constant flow Jacobian
/// ([`EvalModel::flow_jacobian_is_constant`]) that it is the same at another state and time,
/// and for a mode said to be autonomous ([`EvalModel::flow_is_autonomous`]) that `f` is the
/// same at other times;
/// at the reduced coordinates `u`, the chart Jacobian, and the
/// projection Jacobian at `χ(u)`. Relative tolerance `tol` (both are exact up to rounding: 1e-12
/// is a sound choice). Call it in a model's tests, at a few states of each mode; derivatives the
/// model leaves to automatic differentiation pass trivially.
pub fn check_hand_written<M: EvalModel + ?Sized>(
    model: &M,
    mode: usize,
    t: f64,
    x: &[f64],
    u: &[f64],
    tol: f64,
) -> Result<(), Mismatch> {
    let (n, r) = (model.dim(), model.reduced_dim());
    let (mut hand, mut auto) = (vec![0.0; n * n], vec![0.0; n * n]);
    if model.flow_jacobian(mode, t, x, &mut hand) {
        flow_jacobian_ad(model, mode, t, x, &mut auto);
        compare(format!("flow Jacobian of mode {mode}"), &hand, &auto, tol)?;
    }
    if model.flow_jacobian_is_constant(mode) {
        // The claim `f_x ≡ A`: `f_x` at `(t, x)` and at another state and time.
        let other: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, v)| v + 0.5 + 0.125 * i as f64)
            .collect();
        flow_jacobian_ad(model, mode, t, x, &mut hand);
        flow_jacobian_ad(model, mode, t + 0.375, &other, &mut auto);
        compare(
            format!("flow Jacobian of mode {mode} (said to be constant) at another state"),
            &auto,
            &hand,
            tol,
        )?;
    }
    let mut dx = vec![0.0; n];
    if model.flow_is_autonomous(mode) {
        // The claim `f = f(x)`: f at `(t, x)` and at two other times.
        model.flow::<f64>(mode, t, x, &mut dx);
        let mut later = vec![0.0; n];
        for dt in [0.375, -1.625] {
            model.flow::<f64>(mode, t + dt, x, &mut later);
            compare(
                format!("flow of mode {mode} (said to be autonomous) at another time"),
                &later,
                &dx,
                tol,
            )?;
        }
    }
    if model.flow_and_jacobian(mode, t, x, &mut dx, &mut hand) {
        flow_jacobian_ad(model, mode, t, x, &mut auto);
        compare(
            format!("flow_and_jacobian of mode {mode}"),
            &hand,
            &auto,
            tol,
        )?;
    }
    for j in 0..model.guards(mode) {
        let (mut gh, mut ga) = (vec![0.0; n], vec![0.0; n]);
        if model.guard_gradient(mode, j, x, &mut gh) {
            guard_gradient_ad(model, mode, j, x, &mut ga);
            compare(
                format!("gradient of guard {j} of mode {mode}"),
                &gh,
                &ga,
                tol,
            )?;
        }
        if model.reset_jacobian(mode, j, x, &mut hand) {
            reset_jacobian_ad(model, mode, j, x, &mut auto);
            compare(
                format!("reset Jacobian of guard {j} of mode {mode}"),
                &hand,
                &auto,
                tol,
            )?;
        }
    }
    let (mut ch, mut ca) = (vec![0.0; n * r], vec![0.0; n * r]);
    model.chart_jacobian(u, &mut ch);
    chart_jacobian_ad(model, u, &mut ca);
    compare("chart Jacobian".into(), &ch, &ca, tol)?;
    let mut xs = vec![0.0; n];
    model.chart(u, &mut xs);
    model.project_jacobian(&xs, &mut ch);
    project_jacobian_ad(model, &xs, &mut ca);
    compare("projection Jacobian".into(), &ch, &ca, tol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Guard, Scalar};

    /// A ball on the section `x = 0` with the reduced coordinate `u = [v]`; `wrong` makes its
    /// hand-written chart Jacobian wrong.
    struct Ball {
        wrong: bool,
    }

    impl EvalModel for Ball {
        fn name(&self) -> &str {
            "ball"
        }
        fn dim(&self) -> usize {
            2
        }
        fn flow<D: Scalar>(&self, _: usize, _: f64, x: &[D], dx: &mut [D]) {
            dx[0] = x[1];
            dx[1] = D::from(-9.81);
        }
        fn guards(&self, _: usize) -> usize {
            1
        }
        fn guard<D: Scalar>(&self, _: usize, _: usize, x: &[D]) -> D {
            x[0]
        }
        fn describe_guard(&self, _: usize, _: usize) -> Guard<Self> {
            Guard::to(0).falling()
        }
        fn reduced_dim(&self) -> usize {
            1
        }
        fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
            x[0] = D::from(0.0);
            x[1] = u[0] * u[0];
        }
        fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
            let d = if self.wrong { u[0] } else { 2.0 * u[0] };
            jac.copy_from_slice(&[0.0, d]);
        }
        fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
            u[0] = x[1];
        }
    }

    #[test]
    fn chart_and_projection_jacobians_by_ad_and_a_wrong_one_is_caught() {
        let ball = Ball { wrong: false };
        // Dπ by automatic differentiation of the generic projection.
        let mut dpi = [0.0; 2];
        ball.project_jacobian(&[0.0, 3.0], &mut dpi);
        assert_eq!(dpi, [0.0, 1.0]);
        check_hand_written(&ball, 0, 0.0, &[0.0, 9.0], &[3.0], 1e-14).unwrap();
        let e = check_hand_written(&Ball { wrong: true }, 0, 0.0, &[0.0, 9.0], &[3.0], 1e-12)
            .unwrap_err();
        assert_eq!(e.what, "chart Jacobian");
        assert_eq!((e.entry, e.hand, e.auto), (1, 3.0, 6.0));
        assert!(e.to_string().contains("chart Jacobian"), "{e}");
    }
}
