//! Jacobians of a model's functions, and their derivatives in one parameter, by forward-mode
//! automatic differentiation with [`num_dual`] of the generic formulas of a
//! [`HybridModel`]: the state (and, for `∂/∂p_k`, the parameter `p_k`) seeded as dual numbers.
//! [`check_hand_written`] compares a model's hand-written derivatives with these.
//!
//! Why num-dual: it is maintained, pure Rust, and its dual numbers implement the full set of
//! elementary functions behind one trait (`DualNum<f64>`), so a model is written once, generic
//! over the scalar, and differentiated exactly (no truncation error). For state dimensions up
//! to 8 the derivative part is a static vector (`DualSVec64<N>`, one pass, no heap); larger
//! systems take one `Dual64` pass per column.

use crate::hybrid_model::HybridModel;
use crate::param::with_scalars;
use crate::Bound;
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

/// `f` into `dx` and `f_x` into `jac` (`n × n`) of mode `mode` at `(t, x)` in one pass.
pub fn flow_and_jacobian<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    mode: usize,
    t: f64,
    x: &[f64],
    dx: &mut [f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    dispatch!(n, n, x, jac, Some(dx), |xs, out| with_scalars(
        p,
        None,
        |pd| model.flow(pd, mode, t, xs, out)
    ));
}

/// The value and gradient `h_x` of guard `g` of `mode` at `x`.
pub fn guard_gradient<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    mode: usize,
    g: M::Guard,
    x: &[f64],
    grad: &mut [f64],
) -> f64 {
    let n = model.dim();
    let mut h = [0.0];
    dispatch!(n, 1, x, grad, Some(&mut h[..]), |xs, out| out[0] =
        with_scalars(p, None, |pd| model.guard(pd, mode, g, xs)));
    h[0]
}

/// `g(x)` into `out` and `g_x` into `jac` (`n × n`) of the reset of guard `g` of `mode`.
pub fn reset_jacobian<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    mode: usize,
    g: M::Guard,
    x: &[f64],
    out: &mut [f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    dispatch!(n, n, x, jac, Some(out), |xs, o| with_scalars(
        p,
        None,
        |pd| model.reset(pd, mode, g, xs, o)
    ));
}

/// `Dχ(u)` (`n × r`) into `jac`.
pub fn chart_jacobian<M: HybridModel + ?Sized>(model: &M, p: &[f64], u: &[f64], jac: &mut [f64]) {
    let (n, r) = (model.dim(), model.reduced_dim());
    dispatch!(r, n, u, jac, |us, out| with_scalars(p, None, |pd| model
        .chart(pd, us, out)));
}

/// `Dπ(x)` (`r × n`) into `jac`.
pub fn project_jacobian<M: HybridModel + ?Sized>(model: &M, p: &[f64], x: &[f64], jac: &mut [f64]) {
    let (n, r) = (model.dim(), model.reduced_dim());
    dispatch!(n, r, x, jac, |xs, out| with_scalars(p, None, |pd| model
        .project(pd, xs, out)));
}

/// Runs `f` with `z = (x, p_k)`, the state with parameter `k`'s value appended, the point at
/// which the `*_in_param` derivatives are taken (on the stack for small systems).
fn appended<R>(x: &[f64], pk: f64, f: impl FnOnce(&[f64]) -> R) -> R {
    crate::with_buffer(0.0, x.len() + 1, |z| {
        z[..x.len()].copy_from_slice(x);
        z[x.len()] = pk;
        f(z)
    })
}

/// `f` into `dx` and `[f_x | ∂f/∂p_k]` (`n × (n + 1)`) into `jac` at parameter `k` set to
/// `pk`, in one pass with `n + 1` directions.
#[allow(clippy::too_many_arguments)]
pub fn flow_in_param<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    k: usize,
    pk: f64,
    mode: usize,
    t: f64,
    x: &[f64],
    dx: &mut [f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    appended(x, pk, |z| {
        dispatch!(n + 1, n, z, jac, Some(dx), |zs, out| {
            let (xs, q) = zs.split_at(n);
            with_scalars(p, Some((k, q[0])), |pd| model.flow(pd, mode, t, xs, out))
        })
    });
}

/// `h` and `[h_x | ∂h/∂p_k]` (length `n + 1`) at parameter `k` set to `pk`.
#[allow(clippy::too_many_arguments)]
pub fn guard_in_param<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    k: usize,
    pk: f64,
    mode: usize,
    g: M::Guard,
    x: &[f64],
    grad: &mut [f64],
) -> f64 {
    let n = model.dim();
    let mut h = [0.0];
    appended(x, pk, |z| {
        dispatch!(n + 1, 1, z, grad, Some(&mut h[..]), |zs, out| {
            let (xs, q) = zs.split_at(n);
            out[0] = with_scalars(p, Some((k, q[0])), |pd| model.guard(pd, mode, g, xs));
        })
    });
    h[0]
}

/// `g` into `out` and `[g_x | ∂g/∂p_k]` (`n × (n + 1)`) into `jac` at parameter `k` set to `pk`.
#[allow(clippy::too_many_arguments)]
pub fn reset_in_param<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    k: usize,
    pk: f64,
    mode: usize,
    g: M::Guard,
    x: &[f64],
    out: &mut [f64],
    jac: &mut [f64],
) {
    let n = model.dim();
    appended(x, pk, |z| {
        dispatch!(n + 1, n, z, jac, Some(out), |zs, o| {
            let (xs, q) = zs.split_at(n);
            with_scalars(p, Some((k, q[0])), |pd| model.reset(pd, mode, g, xs, o))
        })
    });
}

/// `χ(u)` into `x` and `[Dχ | ∂χ/∂p_k]` (`n × (r + 1)`) into `jac` at parameter `k` set to `pk`.
pub fn chart_in_param<M: HybridModel + ?Sized>(
    model: &M,
    p: &[f64],
    k: usize,
    pk: f64,
    u: &[f64],
    x: &mut [f64],
    jac: &mut [f64],
) {
    let (n, r) = (model.dim(), model.reduced_dim());
    appended(u, pk, |z| {
        dispatch!(r + 1, n, z, jac, Some(x), |zs, o| {
            let (us, q) = zs.split_at(r);
            with_scalars(p, Some((k, q[0])), |pd| model.chart(pd, us, o))
        })
    });
}

/// `f_x` of a bound model by automatic differentiation, whether or not it has a hand-written
/// one (to compare them).
pub fn flow_jacobian_ad<M: HybridModel>(
    model: &Bound<M>,
    mode: usize,
    t: f64,
    x: &[f64],
    jac: &mut [f64],
) {
    crate::with_buffer(0.0, x.len(), |dx| {
        flow_and_jacobian(model.model(), model.values(), mode, t, x, dx, jac)
    })
}

/// `h_x` of guard `j` of `mode` of a bound model by automatic differentiation.
pub fn guard_gradient_ad<M: HybridModel>(
    model: &Bound<M>,
    mode: usize,
    j: usize,
    x: &[f64],
    grad: &mut [f64],
) {
    let g = model.model().guards(mode)[j];
    guard_gradient(model.model(), model.values(), mode, g, x, grad);
}

/// `g_x` of the reset of guard `j` of `mode` of a bound model by automatic differentiation.
pub fn reset_jacobian_ad<M: HybridModel>(
    model: &Bound<M>,
    mode: usize,
    j: usize,
    x: &[f64],
    jac: &mut [f64],
) {
    let g = model.model().guards(mode)[j];
    crate::with_buffer(0.0, x.len(), |out| {
        reset_jacobian(model.model(), model.values(), mode, g, x, out, jac)
    });
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

/// Checks every hand-written derivative of `model` (its capabilities
/// [`crate::FlowJacobian`], [`crate::GuardGradient`], [`crate::ResetJacobian`],
/// [`crate::SectionJacobians`]) against automatic differentiation of the formula it belongs
/// to, and its claims: in mode `mode` at `(t, x)`, the flow Jacobian and each guard's gradient
/// and reset Jacobian; for a mode said to have a constant flow Jacobian
/// ([`crate::AffineModes`]) that it is the same at another state and time; for a mode said to
/// be autonomous ([`HybridModel::autonomous`]) that `f` is the same at other times; at the
/// reduced coordinates `u`, the chart Jacobian, and the projection Jacobian at `χ(u)`.
/// Relative tolerance `tol` (both are exact up to rounding: 1e-12 is a sound choice). Call it
/// in a model's tests, at a few states of each mode.
pub fn check_hand_written<M: HybridModel>(
    model: &Bound<M>,
    mode: usize,
    t: f64,
    x: &[f64],
    u: &[f64],
    tol: f64,
) -> Result<(), Mismatch> {
    let (m, p) = (model.model(), model.values());
    let (n, r) = (m.dim(), m.reduced_dim());
    let (mut hand, mut auto) = (vec![0.0; n * n], vec![0.0; n * n]);
    let (mut dx, mut da) = (vec![0.0; n], vec![0.0; n]);
    if let Some(h) = m.hand_flow_jacobian() {
        h.flow_and_jacobian(p, mode, t, x, &mut dx, &mut hand);
        flow_and_jacobian(m, p, mode, t, x, &mut da, &mut auto);
        compare(format!("flow Jacobian of mode {mode}"), &hand, &auto, tol)?;
        compare(format!("flow of mode {mode} (hand-written)"), &dx, &da, tol)?;
    }
    if m.affine_modes()
        .is_some_and(|a| a.jacobian_is_constant(mode))
    {
        // The claim `f_x ≡ A`: `f_x` at `(t, x)` and at another state and time.
        let other: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, v)| v + 0.5 + 0.125 * i as f64)
            .collect();
        flow_and_jacobian(m, p, mode, t, x, &mut dx, &mut hand);
        flow_and_jacobian(m, p, mode, t + 0.375, &other, &mut da, &mut auto);
        compare(
            format!("flow Jacobian of mode {mode} (said to be constant) at another state"),
            &auto,
            &hand,
            tol,
        )?;
    }
    if m.autonomous(mode) {
        // The claim `f = f(x)`: f at `(t, x)` and at two other times.
        let now = with_scalars(p, None, |pd| {
            let mut f = vec![0.0; n];
            m.flow(pd, mode, t, x, &mut f);
            f
        });
        for dt in [0.375, -1.625] {
            let later = with_scalars(p, None, |pd| {
                let mut f = vec![0.0; n];
                m.flow(pd, mode, t + dt, x, &mut f);
                f
            });
            compare(
                format!("flow of mode {mode} (said to be autonomous) at another time"),
                &later,
                &now,
                tol,
            )?;
        }
    }
    for &g in m.guards(mode) {
        let (mut gh, mut ga) = (vec![0.0; n], vec![0.0; n]);
        if let Some(h) = m.hand_guard_gradient() {
            h.guard_gradient(p, mode, g, x, &mut gh);
            guard_gradient(m, p, mode, g, x, &mut ga);
            compare(
                format!("gradient of guard {g:?} of mode {mode}"),
                &gh,
                &ga,
                tol,
            )?;
        }
        if let Some(h) = m.hand_reset_jacobian() {
            h.reset_jacobian(p, mode, g, x, &mut hand);
            reset_jacobian(m, p, mode, g, x, &mut da, &mut auto);
            compare(
                format!("reset Jacobian of guard {g:?} of mode {mode}"),
                &hand,
                &auto,
                tol,
            )?;
        }
    }
    if let Some(h) = m.hand_section_jacobians() {
        let (mut ch, mut ca) = (vec![0.0; n * r], vec![0.0; n * r]);
        h.chart_jacobian(p, u, &mut ch);
        chart_jacobian(m, p, u, &mut ca);
        compare("chart Jacobian".into(), &ch, &ca, tol)?;
        let xs = with_scalars(p, None, |pd| {
            let mut xs = vec![0.0; n];
            m.chart(pd, u, &mut xs);
            xs
        });
        h.project_jacobian(p, &xs, &mut ch);
        project_jacobian(m, p, &xs, &mut ca);
        compare("projection Jacobian".into(), &ch, &ca, tol)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EvalModel, GuardSpec, Scalar, SectionJacobians};

    /// A ball on the section `x = 0` with the reduced coordinate `u = [v]`; `wrong` makes its
    /// hand-written chart Jacobian wrong.
    struct Ball {
        wrong: bool,
    }

    impl HybridModel for Ball {
        type Guard = usize;
        fn name(&self) -> &str {
            "ball"
        }
        fn dim(&self) -> usize {
            2
        }
        fn flow<D: Scalar>(&self, _: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
            dx[0] = x[1];
            dx[1] = D::from(-9.81);
        }
        fn guards(&self, _: usize) -> &[usize] {
            &[0]
        }
        fn describe(&self, _: usize, _: usize) -> GuardSpec {
            GuardSpec::to(0).falling()
        }
        fn guard<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D]) -> D {
            x[0]
        }
        fn reset<D: Scalar>(&self, _: &[D], _: usize, _: usize, x: &[D], out: &mut [D]) {
            out.copy_from_slice(x);
        }
        fn reduced_dim(&self) -> usize {
            1
        }
        fn chart<D: Scalar>(&self, _: &[D], u: &[D], x: &mut [D]) {
            x[0] = D::from(0.0);
            x[1] = u[0] * u[0];
        }
        fn project<D: Scalar>(&self, _: &[D], x: &[D], u: &mut [D]) {
            u[0] = x[1];
        }
        fn hand_section_jacobians(&self) -> Option<&dyn SectionJacobians> {
            Some(self)
        }
    }

    impl SectionJacobians for Ball {
        fn chart_jacobian(&self, _: &[f64], u: &[f64], jac: &mut [f64]) {
            let d = if self.wrong { u[0] } else { 2.0 * u[0] };
            jac.copy_from_slice(&[0.0, d]);
        }
        fn project_jacobian(&self, _: &[f64], _: &[f64], jac: &mut [f64]) {
            jac.copy_from_slice(&[0.0, 1.0]);
        }
    }

    #[test]
    fn chart_and_projection_jacobians_by_ad_and_a_wrong_one_is_caught() {
        let ball = Bound::new(Ball { wrong: false });
        // Dπ by automatic differentiation of the generic projection.
        let mut dpi = [0.0; 2];
        project_jacobian(ball.model(), &[], &[0.0, 3.0], &mut dpi);
        assert_eq!(dpi, [0.0, 1.0]);
        let mut dchi = [0.0; 2];
        ball.chart_jacobian(&[3.0], &mut dchi);
        assert_eq!(dchi, [0.0, 6.0]);
        check_hand_written(&ball, 0, 0.0, &[0.0, 9.0], &[3.0], 1e-14).unwrap();
        let e = check_hand_written(
            &Bound::new(Ball { wrong: true }),
            0,
            0.0,
            &[0.0, 9.0],
            &[3.0],
            1e-12,
        )
        .unwrap_err();
        assert_eq!(e.what, "chart Jacobian");
        assert_eq!((e.entry, e.hand, e.auto), (1, 3.0, 6.0));
        assert!(e.to_string().contains("chart Jacobian"), "{e}");
    }

    /// `∂/∂p` by a dual number seeded in `p[k]`, against the closed form of `f = (x₁, −g)`,
    /// `h = x₀ − c`, `g(x) = (x₀, −e x₁)`, `χ(u) = (c, u²)` in parameters `(g, c, e)`.
    #[test]
    fn parameter_derivatives_by_a_dual_in_p() {
        struct P;
        impl HybridModel for P {
            type Guard = usize;
            fn name(&self) -> &str {
                "p"
            }
            fn dim(&self) -> usize {
                2
            }
            fn params(&self) -> &[crate::Param] {
                const P: &[crate::Param] = &[
                    crate::Param::new("g", 9.81),
                    crate::Param::new("c", 0.5),
                    crate::Param::new("e", 0.8),
                ];
                P
            }
            fn flow<D: Scalar>(&self, p: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
                dx[0] = x[1];
                dx[1] = -p[0];
            }
            fn guards(&self, _: usize) -> &[usize] {
                &[0]
            }
            fn describe(&self, _: usize, _: usize) -> GuardSpec {
                GuardSpec::to(0)
            }
            fn guard<D: Scalar>(&self, p: &[D], _: usize, _: usize, x: &[D]) -> D {
                x[0] - p[1]
            }
            fn reset<D: Scalar>(&self, p: &[D], _: usize, _: usize, x: &[D], out: &mut [D]) {
                out[0] = x[0];
                out[1] = -p[2] * x[1];
            }
            fn reduced_dim(&self) -> usize {
                1
            }
            fn chart<D: Scalar>(&self, p: &[D], u: &[D], x: &mut [D]) {
                x[0] = p[1];
                x[1] = u[0] * u[0];
            }
        }
        let m = Bound::new(P);
        let (mut dx, mut jac) = ([0.0; 2], [0.0; 6]);
        m.flow_in_param(0, 2.0, 0, 0.0, &[1.0, 3.0], &mut dx, &mut jac);
        assert_eq!(dx, [3.0, -2.0]);
        assert_eq!(jac, [0.0, 1.0, 0.0, 0.0, 0.0, -1.0]);
        let mut grad = [0.0; 3];
        let h = m.guard_in_param(1, 0.25, 0, 0, &[1.0, 3.0], &mut grad);
        assert_eq!((h, grad), (0.75, [1.0, 0.0, -1.0]));
        let (mut out, mut rj) = ([0.0; 2], [0.0; 6]);
        m.reset_in_param(2, 0.5, 0, 0, &[1.0, 3.0], &mut out, &mut rj);
        assert_eq!(out, [1.0, -1.5]);
        assert_eq!(rj, [1.0, 0.0, 0.0, 0.0, -0.5, -3.0]);
        let (mut x, mut cj) = ([0.0; 2], [0.0; 4]);
        m.chart_in_param(1, 0.7, &[2.0], &mut x, &mut cj);
        assert_eq!(x, [0.7, 4.0]);
        assert_eq!(cj, [0.0, 1.0, 4.0, 0.0]);
        // A parameter the formula does not read has a zero derivative.
        m.flow_in_param(1, 0.7, 0, 0.0, &[1.0, 3.0], &mut dx, &mut jac);
        assert_eq!(jac[2], 0.0);
        assert_eq!(jac[5], 0.0);
    }
}
