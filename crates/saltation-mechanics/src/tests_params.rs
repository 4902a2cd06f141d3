//! Exact parameter derivatives of a constrained model against central differences in the
//! parameter: the flow (implicit differentiation, the dual pass, and the cached affine form),
//! the lift-off multiplier, the impact and the section chart, with the parameter in the mass
//! matrix, the forces, a nonlinear bilateral constraint and a contact's gap.

use crate::*;
use num_dual::Dual64;
use saltation_hybrid::{Bound, EvalModel, Param, Scalar};

/// A point mass `m` on a rod of length `l` from the origin, `q = (x, y)`, gravity `g` along
/// −y, and a sloped floor at `y = −d (1 + x/5)` (contact 0, gap `y + d (1 + x/5)`, whose
/// gradient depends on `d` as well). Every parameter enters somewhere.
#[derive(Debug, Clone, Copy, PartialEq)]
struct RodOverFloor;

/// `m`, `l`, `g`, `d`.
const ROD: &[Param] = &[
    Param::new("m", 2.0),
    Param::new("l", 1.5),
    Param::new("g", 9.81),
    Param::new("d", 1.2),
];

impl MechanicalSystem for RodOverFloor {
    fn name(&self) -> &str {
        "rod over floor"
    }
    fn dofs(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        ROD
    }
    fn mass_matrix<D: Scalar>(&self, p: &[D], _q: &[D], h: &mut [D]) {
        h.fill(D::zero());
        h[0] = p[0];
        h[3] = p[0];
    }
    fn forces<D: Scalar>(&self, p: &[D], _closed: ContactSet, _q: &[D], _qd: &[D], c: &mut [D]) {
        c[0] = D::zero();
        c[1] = p[0] * p[2];
    }
    fn bilateral_count(&self) -> usize {
        1
    }
    fn bilateral<D: Scalar>(&self, p: &[D], q: &[D], gamma: &mut [D]) {
        gamma[0] = q[0] * q[0] + q[1] * q[1] - p[1] * p[1];
    }
    fn contact_count(&self) -> usize {
        1
    }
    fn gap<D: Scalar>(&self, p: &[D], _i: usize, q: &[D]) -> D {
        q[1] + p[3] * (q[0] * 0.2 + 1.0)
    }
}

fn model() -> Bound<Constrained<RodOverFloor>> {
    // Sections at the swing's lowest point would need the floor; this one fixes `x` and `ẋ`
    // with the rod's constraint alone.
    let section = Section {
        closed: ContactSet::NONE,
        independent: vec![0],
        guess: vec![0.0, -1.0],
    };
    let model = Constrained::new(RodOverFloor, ConstraintOptions::default(), Some(section));
    Bound::new(model.unwrap())
}

/// A state near the rod's manifold (off it by a little, so the Baumgarte terms count too).
const X: [f64; 4] = [0.6, -1.36, 1.1, 0.5];

/// Central difference in parameter `k` (relative step 1e-6) of `f(model)`.
fn central(k: usize, f: impl Fn(&Bound<Constrained<RodOverFloor>>) -> Vec<f64>) -> Vec<f64> {
    let base = model();
    let p = base.param_value(k).unwrap();
    let h = 1e-6 * p.abs().max(1.0);
    let at = |v: f64| {
        let mut m = base.clone();
        m.set_param_value(k, v).unwrap();
        f(&m)
    };
    let (a, b) = (at(p + h), at(p - h));
    a.iter().zip(&b).map(|(a, b)| (a - b) / (2.0 * h)).collect()
}

fn assert_close(what: &str, exact: &[f64], reference: &[f64], tol: f64) {
    let scale = reference.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (i, (a, b)) in exact.iter().zip(reference).enumerate() {
        assert!(
            (a - b).abs() <= tol * scale,
            "{what}[{i}]: exact {a} vs central difference {b}"
        );
    }
}

/// `(p + ε)` as the dual scalar and the state as constants.
fn dual_state(x: &[f64]) -> Vec<Dual64> {
    x.iter().map(|&v| Dual64::from_re(v)).collect()
}

#[test]
fn flow_derivatives_in_every_parameter_and_mode() {
    let m = model();
    for mode in 0..2 {
        for k in 0..4 {
            let p = m.param_value(k).unwrap();
            assert!(m.param_derivatives(k));
            let mut implicit = [0.0; 4];
            assert!(m.flow_param_derivative(k, mode, 0.0, &X, &mut implicit));
            let mut dual = vec![Dual64::from_re(0.0); 4];
            m.flow_with_param(
                k,
                Dual64::new(p, 1.0),
                mode,
                0.0,
                &dual_state(&X),
                &mut dual,
            );
            let dual: Vec<f64> = dual.iter().map(|d| d.eps).collect();
            let fd = central(k, |m| {
                let mut dx = vec![0.0; 4];
                m.flow(mode, 0.0, &X, &mut dx);
                dx
            });
            let what = format!("mode {mode}, ∂f/∂{}", m.param_names()[k]);
            assert_close(&what, &implicit, &fd, 1e-8);
            assert_close(&what, &dual, &implicit, 1e-13);
        }
    }
}

#[test]
fn guard_reset_and_chart_derivatives() {
    let m = model();
    let xd = dual_state(&X);
    for k in 0..4 {
        let name = m.param_names()[k].clone();
        let pd = Dual64::new(m.param_value(k).unwrap(), 1.0);
        // The floor's gap in flight, the floor's multiplier on it.
        for mode in 0..2 {
            let exact = m.guard_with_param(k, pd, mode, 0, &xd).eps;
            let fd = central(k, |m| vec![m.guard(mode, 0, &X)]);
            assert_close(&format!("mode {mode}, ∂h/∂{name}"), &[exact], &fd, 1e-8);
        }
        // The impact onto the floor.
        let mut out = vec![Dual64::from_re(0.0); 4];
        m.reset_with_param(k, pd, 0, 0, &xd, &mut out);
        let exact: Vec<f64> = out.iter().map(|d| d.eps).collect();
        let fd = central(k, |m| {
            let mut out = vec![0.0; 4];
            m.reset(0, 0, &X, &mut out);
            out
        });
        assert_close(&format!("∂g/∂{name}"), &exact, &fd, 1e-8);
        // The chart: y from the rod's length, ẏ from its rate.
        let u = [Dual64::from_re(0.6), Dual64::from_re(1.1)];
        let mut x = vec![Dual64::from_re(0.0); 4];
        m.chart_with_param(k, pd, &u, &mut x);
        let exact: Vec<f64> = x.iter().map(|d| d.eps).collect();
        let fd = central(k, |m| {
            let mut x = vec![0.0; 4];
            m.chart(&[0.6, 1.1], &mut x);
            x
        });
        assert_close(&format!("∂χ/∂{name}"), &exact, &fd, 1e-8);
    }
    // The length does move the chart (the test is not vacuous).
    let mut x = vec![Dual64::from_re(0.0); 4];
    let u = [Dual64::from_re(0.6), Dual64::from_re(1.1)];
    m.chart_with_param(1, Dual64::new(1.5, 1.0), &u, &mut x);
    assert!(x[1].eps.abs() > 0.5, "∂y/∂l = {}", x[1].eps);
}

/// A mass on a spring `k` (rest length `l0`) above the floor, free or resting on it: every
/// mode is affine, so `∂f/∂p` comes from the cached affine coefficients; it must equal the
/// implicit derivative evaluated afresh at any state.
#[derive(Debug, Clone, Copy, PartialEq)]
struct SpringMass;

/// `m`, `k`, `l0`.
const SPRING: &[Param] = &[
    Param::new("m", 3.0),
    Param::new("k", 200.0),
    Param::new("l0", 0.8),
];

impl MechanicalSystem for SpringMass {
    fn name(&self) -> &str {
        "spring mass"
    }
    fn dofs(&self) -> usize {
        1
    }
    fn params(&self) -> &[Param] {
        SPRING
    }
    fn mass_matrix<D: Scalar>(&self, p: &[D], _q: &[D], h: &mut [D]) {
        h[0] = p[0];
    }
    fn forces<D: Scalar>(&self, p: &[D], _closed: ContactSet, q: &[D], _qd: &[D], c: &mut [D]) {
        let (m, k, l0) = (p[0], p[1], p[2]);
        c[0] = (q[0] - l0) * k + m * 9.81;
    }
    fn contact_count(&self) -> usize {
        0
    }
    fn gap<D: Scalar>(&self, _p: &[D], _i: usize, q: &[D]) -> D {
        q[0]
    }
    fn constraints_are_linear(&self) -> bool {
        true
    }
    fn mass_matrix_is_constant(&self) -> bool {
        true
    }
    fn forces_are_linear(&self) -> bool {
        true
    }
}

#[test]
fn affine_modes_take_the_cached_form() {
    let m = Bound::new(Constrained::new(SpringMass, ConstraintOptions::default(), None).unwrap());
    assert!(m.flow_jacobian_is_constant(0));
    for x in [[0.0, 0.0], [0.5, -2.0], [3.0, 7.0]] {
        for k in 0..3 {
            let mut cached = [0.0; 2];
            assert!(m.flow_param_derivative(k, 0, 0.0, &x, &mut cached));
            let p = m.param_value(k).unwrap();
            let mut dual = vec![Dual64::from_re(0.0); 2];
            m.flow_with_param(k, Dual64::new(p, 1.0), 0, 0.0, &dual_state(&x), &mut dual);
            // q̈ = −(k (q − l0))/m − g: ∂q̈/∂m = k (q − l0)/m², ∂q̈/∂k = −(q − l0)/m,
            // ∂q̈/∂l0 = k/m.
            let (mm, kk, l0) = (3.0, 200.0, 0.8);
            let closed_form = [kk * (x[0] - l0) / (mm * mm), -(x[0] - l0) / mm, kk / mm][k];
            assert_close("cached ∂q̈/∂p", &cached, &[0.0, closed_form], 1e-14);
            assert_close("dual ∂q̈/∂p", &[dual[0].eps, dual[1].eps], &cached, 1e-14);
        }
    }
}

#[test]
fn a_singular_mode_gives_nan_derivatives_not_a_panic() {
    // Where the rod's constraint gradient (2x, 2y) is parallel to the floor's (d/5, 1), the
    // mode with the floor closed has a singular saddle-point matrix.
    let m = model();
    let x = [-0.24, -1.0, 0.3, 0.1];
    for k in 0..4 {
        let mut fp = [0.0; 4];
        assert!(m.flow_param_derivative(k, 1, 0.0, &x, &mut fp));
        assert!(fp[2..].iter().all(|v| v.is_nan()), "{fp:?}");
        let p = Dual64::new(m.param_value(k).unwrap(), 1.0);
        let mut dual = vec![Dual64::from_re(0.0); 4];
        m.flow_with_param(k, p, 1, 0.0, &dual_state(&x), &mut dual);
        assert!(dual[2..].iter().all(|v| v.re.is_nan()));
        assert!(m.guard_with_param(k, p, 1, 0, &dual_state(&x)).re.is_nan());
    }
    // In flight the same state is regular.
    let mut fp = [0.0; 4];
    assert!(m.flow_param_derivative(1, 0, 0.0, &x, &mut fp));
    assert!(fp.iter().all(|v| v.is_finite()));
}
