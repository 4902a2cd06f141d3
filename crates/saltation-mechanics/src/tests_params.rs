//! Exact parameter derivatives of a constrained model against central differences in the
//! parameter: the flow (implicit differentiation, the dual pass, and the cached affine form),
//! the lift-off multiplier, the impact and the section chart, with the parameter in the mass
//! matrix, the forces, a nonlinear bilateral constraint and a contact's gap.

use crate::*;
use saltation_hybrid::{ad, Bound, EvalModel, HybridModel, Param, Scalar};

/// The layer's hand-written (implicit) `∂f/∂p_k` at the model's own values.
fn implicit_fp<M: HybridModel>(
    m: &Bound<M>,
    k: usize,
    mode: usize,
    x: &[f64],
    out: &mut [f64],
) -> bool {
    m.model()
        .hand_flow_param_derivative()
        .expect("the layer writes ∂f/∂p")
        .flow_param_derivative(m.values(), k, mode, 0.0, x, out)
}

/// `(f, ∂f/∂p_k)` by a dual number seeded in `p[k]` (automatic differentiation through the
/// saddle-point solve).
fn dual_fp<M: HybridModel>(m: &Bound<M>, k: usize, mode: usize, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = x.len();
    let (mut f, mut jac) = (vec![0.0; n], vec![0.0; n * (n + 1)]);
    ad::flow_in_param(
        m.model(),
        m.values(),
        k,
        m.values()[k],
        mode,
        0.0,
        x,
        &mut f,
        &mut jac,
    );
    (f, (0..n).map(|i| jac[i * (n + 1) + n]).collect())
}

/// `(h, ∂h/∂p_k)` of the first guard of `mode`, by a dual number in `p[k]`.
fn dual_hp<M: HybridModel>(m: &Bound<M>, k: usize, mode: usize, x: &[f64]) -> (f64, f64) {
    let n = x.len();
    let mut grad = vec![0.0; n + 1];
    let g = m.model().guards(mode)[0];
    let h = ad::guard_in_param(
        m.model(),
        m.values(),
        k,
        m.values()[k],
        mode,
        g,
        x,
        &mut grad,
    );
    (h, grad[n])
}

/// `∂g/∂p_k` of the first guard of mode 0, by a dual number in `p[k]`.
fn dual_gp<M: HybridModel>(m: &Bound<M>, k: usize, x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let (mut out, mut jac) = (vec![0.0; n], vec![0.0; n * (n + 1)]);
    let g = m.model().guards(0)[0];
    ad::reset_in_param(
        m.model(),
        m.values(),
        k,
        m.values()[k],
        0,
        g,
        x,
        &mut out,
        &mut jac,
    );
    (0..n).map(|i| jac[i * (n + 1) + n]).collect()
}

/// `∂χ/∂p_k` at `u` with parameter `k` at `pk`, by a dual number in `p[k]`.
fn dual_chip<M: HybridModel>(m: &Bound<M>, k: usize, pk: f64, u: &[f64]) -> Vec<f64> {
    let (n, r) = (m.model().dim(), u.len());
    let (mut x, mut jac) = (vec![0.0; n], vec![0.0; n * (r + 1)]);
    ad::chart_in_param(m.model(), m.values(), k, pk, u, &mut x, &mut jac);
    (0..n).map(|i| jac[i * (r + 1) + r]).collect()
}

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

#[test]
fn flow_derivatives_in_every_parameter_and_mode() {
    let m = model();
    for mode in 0..2 {
        for k in 0..4 {
            assert!(m.param_derivatives(k));
            let mut implicit = [0.0; 4];
            assert!(implicit_fp(&m, k, mode, &X, &mut implicit));
            let (_, dual) = dual_fp(&m, k, mode, &X);
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
    for k in 0..4 {
        let name = m.param_names()[k].clone();
        // The floor's gap in flight, the floor's multiplier on it.
        for mode in 0..2 {
            let exact = dual_hp(&m, k, mode, &X).1;
            let fd = central(k, |m| vec![m.guard(mode, 0, &X)]);
            assert_close(&format!("mode {mode}, ∂h/∂{name}"), &[exact], &fd, 1e-8);
        }
        // The impact onto the floor.
        let exact = dual_gp(&m, k, &X);
        let fd = central(k, |m| {
            let mut out = vec![0.0; 4];
            m.reset(0, 0, &X, &mut out);
            out
        });
        assert_close(&format!("∂g/∂{name}"), &exact, &fd, 1e-8);
        // The chart: y from the rod's length, ẏ from its rate.
        let exact = dual_chip(&m, k, m.values()[k], &[0.6, 1.1]);
        let fd = central(k, |m| {
            let mut x = vec![0.0; 4];
            m.chart(&[0.6, 1.1], &mut x);
            x
        });
        assert_close(&format!("∂χ/∂{name}"), &exact, &fd, 1e-8);
    }
    // The length does move the chart (the test is not vacuous).
    let dy = dual_chip(&m, 1, 1.5, &[0.6, 1.1])[1];
    assert!(dy.abs() > 0.5, "∂y/∂l = {dy}");
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
            assert!(implicit_fp(&m, k, 0, &x, &mut cached));
            let (_, dual) = dual_fp(&m, k, 0, &x);
            // q̈ = −(k (q − l0))/m − g: ∂q̈/∂m = k (q − l0)/m², ∂q̈/∂k = −(q − l0)/m,
            // ∂q̈/∂l0 = k/m.
            let (mm, kk, l0) = (3.0, 200.0, 0.8);
            let closed_form = [kk * (x[0] - l0) / (mm * mm), -(x[0] - l0) / mm, kk / mm][k];
            assert_close("cached ∂q̈/∂p", &cached, &[0.0, closed_form], 1e-14);
            assert_close("dual ∂q̈/∂p", &dual, &cached, 1e-14);
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
        assert!(implicit_fp(&m, k, 1, &x, &mut fp));
        assert!(fp[2..].iter().all(|v| v.is_nan()), "{fp:?}");
        let (f, _) = dual_fp(&m, k, 1, &x);
        assert!(f[2..].iter().all(|v| v.is_nan()));
        assert!(dual_hp(&m, k, 1, &x).0.is_nan());
    }
    // In flight the same state is regular.
    let mut fp = [0.0; 4];
    assert!(implicit_fp(&m, 1, 0, &x, &mut fp));
    assert!(fp.iter().all(|v| v.is_finite()));
}
