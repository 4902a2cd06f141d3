//! Tests of the fast paths against automatic differentiation through the general one: the
//! hand-derived flow Jacobian, the `f64` kernel, derivatives of second order through the
//! refined saddle solve, and the constant-structure hints.

use crate::*;
use num_dual::{Dual2_64, Dual64};
use saltation_hybrid::ad::{flow_jacobian_ad, guard_gradient_ad, reset_jacobian_ad};
use saltation_hybrid::{Bound, EvalModel, Scalar};

/// A point mass in the plane with a configuration-dependent mass matrix, nonlinear forces,
/// a nonlinear bilateral constraint (a bent rail) and a curved floor contact: every term of
/// the saddle-point system varies with the state.
#[derive(Clone, Copy)]
struct Bead;

impl MechanicalSystem for Bead {
    fn name(&self) -> &str {
        "bead"
    }
    fn dofs(&self) -> usize {
        3
    }
    fn mass_matrix<D: Scalar>(&self, _p: &[D], q: &[D], h: &mut [D]) {
        h[0] = q[0] * q[0] * 0.5 + 2.0;
        h[1] = q[1] * 0.1;
        h[3] = h[1];
        h[4] = (q[0] * 0.3).cos() + 1.5;
        h[8] = D::from(1.2);
    }
    fn forces<D: Scalar>(&self, _p: &[D], closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]) {
        let d = if closed.contains(0) { 0.7 } else { 0.2 };
        c[0] = q[0].sin() * 3.0 + qd[0] * qd[1] * d;
        c[1] = q[1] * 2.0 + qd[1] * qd[1] * 0.1 + 9.81;
        c[2] = q[2] * q[0] + qd[2] * d;
    }
    fn bilateral_count(&self) -> usize {
        1
    }
    fn bilateral<D: Scalar>(&self, _p: &[D], q: &[D], gamma: &mut [D]) {
        gamma[0] = q[2] - q[0] * q[0] * 0.2 - q[1] * 0.1;
    }
    fn contact_count(&self) -> usize {
        1
    }
    fn gap<D: Scalar>(&self, _p: &[D], _i: usize, q: &[D]) -> D {
        q[1] - (q[0] * 0.5).sin() * 0.3
    }
}

fn bead() -> Bound<Constrained<Bead>> {
    Bound::new(Constrained::new(Bead, ConstraintOptions::default(), None).unwrap())
}

/// A state off the constraint manifold (so the Baumgarte terms matter).
const X: [f64; 6] = [0.4, 0.25, 0.1, -0.7, 0.3, 1.1];

fn assert_close(a: &[f64], b: &[f64], tol: f64, what: &str) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x - y).abs() <= tol * (1.0 + y.abs()),
            "{what}[{i}]: {x} vs {y}"
        );
    }
}

/// The generic flow for any scalar (dual numbers in the state), at the model's values.
fn flow_d<S: MechanicalSystem + Clone, D: saltation_hybrid::Scalar>(
    m: &saltation_hybrid::Bound<Constrained<S>>,
    mode: usize,
    x: &[D],
    out: &mut [D],
) {
    use saltation_hybrid::HybridModel;
    saltation_hybrid::param::with_scalars(m.values(), None, |p| {
        m.model().flow(p, mode, 0.0, x, out)
    })
}

#[test]
fn hand_flow_jacobian_matches_automatic_differentiation() {
    let model = bead();
    for mode in 0..2 {
        let (mut hand, mut ad) = ([0.0; 36], [0.0; 36]);
        model.flow_jacobian(mode, 0.0, &X, &mut hand);
        flow_jacobian_ad(&model, mode, 0.0, &X, &mut ad);
        assert_close(&hand, &ad, 1e-12, "f_x");
        let (mut dx, mut both, mut f) = ([0.0; 6], [0.0; 36], [0.0; 6]);
        model.flow_and_jacobian(mode, 0.0, &X, &mut dx, &mut both);
        model.flow(mode, 0.0, &X, &mut f);
        assert_eq!(dx, f, "the flow of flow_and_jacobian is that of flow");
        assert_eq!(both, hand);
    }
}

#[test]
fn dual_flow_has_the_real_flow_as_real_part() {
    let model = bead();
    for mode in 0..2 {
        let mut f = [0.0; 6];
        model.flow(mode, 0.0, &X, &mut f);
        let xd: Vec<Dual64> = X.iter().map(|&v| Dual64::new(v, 1.0)).collect();
        let mut fd = vec![Dual64::from_re(0.0); 6];
        flow_d(&model, mode, &xd, &mut fd);
        let re: Vec<f64> = fd.iter().map(|d| d.re).collect();
        assert_close(&re, &f, 1e-14, "re f");
    }
}

#[test]
fn second_derivatives_through_the_saddle_solve_are_exact() {
    // d²f/ds² along a direction e by Dual2 against a central difference of the first
    // derivative (Dual64): the refined solve carries the second-order part too.
    let model = bead();
    let e = [0.3, -0.2, 0.5, 0.1, 0.7, -0.4];
    let first = |s: f64| -> Vec<f64> {
        let x: Vec<Dual64> = X
            .iter()
            .zip(&e)
            .map(|(&v, &d)| Dual64::new(v + s * d, d))
            .collect();
        let mut f = vec![Dual64::from_re(0.0); 6];
        flow_d(&model, 1, &x, &mut f);
        f.iter().map(|d| d.eps).collect()
    };
    let x2: Vec<Dual2_64> = X
        .iter()
        .zip(&e)
        .map(|(&v, &d)| Dual2_64::new(v, d, 0.0))
        .collect();
    let mut f2 = vec![Dual2_64::from_re(0.0); 6];
    flow_d(&model, 1, &x2, &mut f2);
    let h = 1e-5;
    let (p, m) = (first(h), first(-h));
    let fd: Vec<f64> = p.iter().zip(&m).map(|(a, b)| (a - b) / (2.0 * h)).collect();
    let v2: Vec<f64> = f2.iter().map(|d| d.v2).collect();
    assert_close(&v2, &fd, 1e-7, "d²f");
    let v1: Vec<f64> = f2.iter().map(|d| d.v1).collect();
    assert_close(&v1, &first(0.0), 1e-13, "df");
}

/// Two blocks on a line joined rigidly, above a floor: affine constraints, constant mass.
/// `hinted` declares both, so the cached path runs; otherwise the general one.
#[derive(Clone, Copy)]
struct Blocks {
    hinted: bool,
}

impl MechanicalSystem for Blocks {
    fn name(&self) -> &str {
        "blocks"
    }
    fn dofs(&self) -> usize {
        3
    }
    fn mass_matrix<D: Scalar>(&self, _p: &[D], _q: &[D], h: &mut [D]) {
        for (i, m) in [1.0, 2.0, 0.5].into_iter().enumerate() {
            h[i * 4] = D::from(m);
        }
    }
    fn forces<D: Scalar>(&self, _p: &[D], closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]) {
        let d = if closed.contains(0) { -3.0 } else { 1.0 };
        let s = (q[1] - q[2] - 1.0) * 40.0 + (qd[1] - qd[2]) * d;
        c[0] = D::from(9.81);
        c[1] = s + 19.62 + q[1] * q[1];
        c[2] = -s + 4.905;
    }
    fn bilateral_count(&self) -> usize {
        1
    }
    fn bilateral<D: Scalar>(&self, _p: &[D], q: &[D], gamma: &mut [D]) {
        gamma[0] = q[0] - q[1] - 0.5;
    }
    fn contact_count(&self) -> usize {
        1
    }
    fn gap<D: Scalar>(&self, _p: &[D], _i: usize, q: &[D]) -> D {
        q[2] * 2.0 - 0.1
    }
    fn constraints_are_linear(&self) -> bool {
        self.hinted
    }
    fn mass_matrix_is_constant(&self) -> bool {
        self.hinted
    }
}

#[test]
fn constant_structure_hints_change_nothing_but_the_speed() {
    let plain = Constrained::new(Blocks { hinted: false }, ConstraintOptions::default(), None);
    let hinted = Constrained::new(Blocks { hinted: true }, ConstraintOptions::default(), None);
    let (plain, hinted) = (Bound::new(plain.unwrap()), Bound::new(hinted.unwrap()));
    let x = [1.7, 1.1, 0.08, 0.3, -0.2, -1.5];
    for mode in 0..2 {
        let (mut a, mut b) = ([0.0; 6], [0.0; 6]);
        plain.flow(mode, 0.0, &x, &mut a);
        hinted.flow(mode, 0.0, &x, &mut b);
        assert_close(&a, &b, 1e-13, "f");
        let (mut ja, mut jb, mut jad) = ([0.0; 36], [0.0; 36], [0.0; 36]);
        plain.flow_jacobian(mode, 0.0, &x, &mut ja);
        hinted.flow_jacobian(mode, 0.0, &x, &mut jb);
        flow_jacobian_ad(&hinted, mode, 0.0, &x, &mut jad);
        assert_close(&ja, &jb, 1e-13, "f_x");
        assert_close(&jb, &jad, 1e-13, "f_x vs AD");
        // The forces are not affine (`q₁²`): f_x is not constant, hints or not.
        assert!(!hinted.flow_jacobian_is_constant(mode) && !plain.flow_jacobian_is_constant(mode));
        let (ga, gb) = (plain.guard(mode, 0, &x), hinted.guard(mode, 0, &x));
        assert!(
            (ga - gb).abs() < 1e-12 * (1.0 + ga.abs()),
            "guard {ga} vs {gb}"
        );
        let (mut gra, mut grb) = ([0.0; 6], [0.0; 6]);
        guard_gradient_ad(&plain, mode, 0, &x, &mut gra);
        guard_gradient_ad(&hinted, mode, 0, &x, &mut grb);
        assert_close(&gra, &grb, 1e-13, "h_x");
        let (mut ra, mut rb) = ([0.0; 36], [0.0; 36]);
        reset_jacobian_ad(&plain, mode, 0, &x, &mut ra);
        reset_jacobian_ad(&hinted, mode, 0, &x, &mut rb);
        assert_close(&ra, &rb, 1e-13, "g_x");
    }
    let (mut ra, mut rb) = ([0.0; 6], [0.0; 6]);
    plain.reset(0, 0, &x, &mut ra);
    hinted.reset(0, 0, &x, &mut rb);
    assert_close(&ra, &rb, 1e-13, "reset");
}

/// Two identical constraints: the saddle-point matrix is singular in every mode.
#[derive(Clone, Copy)]
struct Redundant;

impl MechanicalSystem for Redundant {
    fn name(&self) -> &str {
        "redundant"
    }
    fn dofs(&self) -> usize {
        2
    }
    fn mass_matrix<D: Scalar>(&self, _p: &[D], _q: &[D], h: &mut [D]) {
        h[0] = D::from(1.0);
        h[3] = D::from(1.0);
    }
    fn forces<D: Scalar>(&self, _p: &[D], _closed: ContactSet, _q: &[D], _qd: &[D], c: &mut [D]) {
        c[1] = D::from(1.0);
    }
    fn bilateral_count(&self) -> usize {
        1
    }
    fn bilateral<D: Scalar>(&self, _p: &[D], q: &[D], gamma: &mut [D]) {
        gamma[0] = q[1];
    }
    fn contact_count(&self) -> usize {
        1
    }
    fn gap<D: Scalar>(&self, _p: &[D], _i: usize, q: &[D]) -> D {
        q[1]
    }
    fn constraints_are_linear(&self) -> bool {
        true
    }
    fn mass_matrix_is_constant(&self) -> bool {
        true
    }
}

#[test]
fn a_singular_mode_writes_nan_on_every_path() {
    let model =
        Bound::new(Constrained::new(Redundant, ConstraintOptions::default(), None).unwrap());
    let x = [0.0, 0.0, 1.0, 0.0];
    let (mut f, mut jac) = ([0.0; 4], [0.0; 16]);
    model.flow(1, 0.0, &x, &mut f);
    assert!(f[2..].iter().all(|v| v.is_nan()) && f[..2] == [1.0, 0.0]);
    model.flow_and_jacobian(1, 0.0, &x, &mut f, &mut jac);
    assert!(jac.iter().all(|v| v.is_nan()));
    assert!(model.guard(1, 0, &x).is_nan());
    assert!(model.multipliers(1, &x).is_none());
    let mut out = [0.0; 4];
    model.reset(0, 0, &x, &mut out);
    assert!(out[2..].iter().all(|v| v.is_nan()));
    // The free mode has one constraint and is regular.
    model.flow(0, 0.0, &x, &mut f);
    assert!(f.iter().all(|v| v.is_finite()));
}
