//! The gait sensitivity norm (Hobbelen & Wisse 2007) against two independent references:
//! - the rimless wheel's closed form: with the energy `θ̇²/2 + λ² cos(θ + α)` conserved between
//!   impacts and `θ̇⁺ = μ θ̇⁻`, the stride map on `ω = θ̇` at `θ = −π/n` is
//!   `P(ω; α) = μ sqrt(ω² + 4λ² sin α sin(π/n))`, so `A = μ²` and
//!   `B = ∂P/∂α = 2μ²λ² cos α sin(π/n) / ω*`; the step time
//!   `T(ω, α) = ∫_{−π/n}^{π/n} dθ / s`, `s² = ω² + 2λ²(cos(α − π/n) − cos(θ + α))`, gives
//!   `C = −∫ ω / s³ dθ` and `D = −∫ λ²(sin(θ + α) − sin(α − π/n)) / s³ dθ` (composite Simpson,
//!   the integrand smooth), and the norm `sqrt(D² + C²B²/(1 − A²))`;
//! - finite disturbances: the stride map simulated with the parameter changed by `ε` for one
//!   stride, the step times' deviations over the following strides divided by `ε`; their
//!   2-norm converges to the gait sensitivity norm as `ε → 0` (first order in `ε`).

use nalgebra::{DMatrix, DVector};
use saltation::hybrid::{param_index, EvalModel, JacobianKind, ParamAugmented, StrideMap};
use saltation::models::{Model, RimlessWheel};
use saltation::orbit::{find_periodic_orbit, gait_sensitivity, param_linearisation};
use saltation::scenario::ModelFile;

/// `(A, B, C, D)` of the step time for a one-stride change of parameter `name`, at the orbit
/// from the file's first guess, and the orbit's full state.
fn linearise(
    mf: &ModelFile,
    name: &str,
) -> (DMatrix<f64>, DVector<f64>, DMatrix<f64>, f64, Vec<f64>) {
    let model = &mf.model;
    let orbit = find_periodic_orbit(model, &mf.guesses[0].u, &mf.orbit).unwrap();
    let k = param_index(model, name).unwrap();
    let aug = ParamAugmented::new(model, k).expect("exact derivatives");
    let mut map = StrideMap::new(
        &aug,
        ParamAugmented::<Model>::stride_options(&mf.orbit.stride),
    )
    .unwrap();
    let lin = param_linearisation(&mut map, &orbit.u0, model.param_value(k).unwrap()).unwrap();
    let r = lin.fu.nrows();
    let a = &lin.fu + DMatrix::identity(r, r);
    let c = DMatrix::from_row_slice(1, r, lin.tu.last().unwrap().as_slice());
    (a, lin.fp, c, *lin.tp.last().unwrap(), orbit.x0)
}

/// `sqrt(Σ_k ((T_k − T*)/ε)²)` over strides from the fixed point `x0`, parameter `name`
/// changed by `eps` on stride 0 only, until the deviation has decayed below 1e-12 of `ε`.
fn finite_disturbance_norm(mf: &ModelFile, name: &str, x0: &[f64], eps: f64) -> f64 {
    let k = param_index(&mf.model, name).unwrap();
    let p = mf.model.param_value(k).unwrap();
    let mut disturbed = mf.model.clone();
    disturbed.set_param_value(k, p + eps).unwrap();
    let mut plain = StrideMap::new(&mf.model, mf.orbit.stride.clone()).unwrap();
    let period = plain.eval(x0, JacobianKind::None).unwrap().period;
    let mut first = StrideMap::new(&disturbed, mf.orbit.stride.clone()).unwrap();
    let s = first.eval(x0, JacobianKind::None).unwrap();
    let mut sum = ((s.period - period) / eps).powi(2);
    let mut x = s.x;
    for _ in 0..400 {
        let s = plain.eval(&x, JacobianKind::None).unwrap();
        let y = (s.period - period) / eps;
        sum += y * y;
        x = s.x;
        if y.abs() < 1e-9 {
            break;
        }
    }
    sum.sqrt()
}

/// `∫_a^b f` by composite Simpson with `m` (even) intervals.
fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, m: usize) -> f64 {
    let h = (b - a) / m as f64;
    let mut s = f(a) + f(b);
    for i in 1..m {
        s += f(a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
    }
    s * h / 3.0
}

#[test]
fn rimless_wheel_matches_the_closed_form_linearisation() {
    let mf = crate::common::model_file("rimless_wheel.ron");
    let Model::RimlessWheel(wheel) = mf.model.clone() else {
        panic!("rimless_wheel.ron holds {:?}", mf.model)
    };
    let (l2, alpha) = (wheel.get("lambda2").unwrap(), wheel.get("alpha").unwrap());
    let half = std::f64::consts::PI / wheel.get("spokes").unwrap();
    let mu = RimlessWheel::mu(wheel.values());
    let w = RimlessWheel::analytic_fixed_point(wheel.values()).unwrap()[1];
    let a_exact = mu * mu;
    let b_exact = 2.0 * mu * mu * l2 * alpha.cos() * half.sin() / w;
    let s = |th: f64| (w * w + 2.0 * l2 * ((alpha - half).cos() - (th + alpha).cos())).sqrt();
    let c_exact = -simpson(|th| w / s(th).powi(3), -half, half, 20_000);
    let d_exact = -simpson(
        |th| l2 * ((th + alpha).sin() - (alpha - half).sin()) / s(th).powi(3),
        -half,
        half,
        20_000,
    );
    let gsn_exact = (d_exact * d_exact
        + c_exact * c_exact * b_exact * b_exact / (1.0 - a_exact * a_exact))
        .sqrt();

    let (a, b, c, d, x0) = linearise(&mf, "alpha");
    let close = |got: f64, want: f64, tol: f64, what: &str| {
        assert!(
            (got - want).abs() <= tol * want.abs(),
            "{what}: {got} vs closed form {want} (rel {:e})",
            ((got - want) / want).abs()
        );
    };
    close(a[(0, 0)], a_exact, 1e-12, "A");
    close(b[0], b_exact, 1e-12, "B");
    close(c[(0, 0)], c_exact, 1e-10, "C");
    close(d, d_exact, 1e-10, "D");
    let g = gait_sensitivity(&a, &b, &c, &DVector::from_element(1, d)).unwrap();
    close(g.norm, gsn_exact, 1e-10, "GSN");
    close(
        g.lyapunov_norm.unwrap(),
        gsn_exact,
        1e-10,
        "GSN by Lyapunov",
    );
    eprintln!(
        "rimless wheel, disturbance alpha: GSN {} (closed form {gsn_exact}), A {} B {} C {} D {}",
        g.norm, a_exact, b_exact, c_exact, d_exact
    );
    // Finite disturbances: the error of the ratio shrinks linearly with ε.
    let mut errs = Vec::new();
    for eps in [1e-3, 1e-4, 1e-5] {
        let fd = finite_disturbance_norm(&mf, "alpha", &x0, eps);
        let err = (fd - g.norm).abs() / g.norm;
        eprintln!("  ε = {eps:e}: finite-disturbance norm {fd}, relative error {err:e}");
        errs.push(err);
    }
    assert!(errs[2] < 1e-4, "{errs:?}");
    assert!(
        errs[1] < 0.2 * errs[0] && errs[2] < 0.2 * errs[1],
        "no first-order convergence: {errs:?}"
    );
}

#[test]
fn simplest_walker_finite_disturbances_converge_to_the_norm() {
    let mf = crate::common::model_file("simplest_walker.ron");
    let (a, b, c, d, x0) = linearise(&mf, "gamma");
    let g = gait_sensitivity(&a, &b, &c, &DVector::from_element(1, d)).unwrap();
    let lyap = g.lyapunov_norm.unwrap();
    assert!(
        (g.norm - lyap).abs() < 1e-10 * g.norm,
        "{} vs {lyap}",
        g.norm
    );
    let mut errs = Vec::new();
    for eps in [1e-5, 1e-6, 1e-7] {
        let fd = finite_disturbance_norm(&mf, "gamma", &x0, eps);
        let err = (fd - g.norm).abs() / g.norm;
        eprintln!("simplest walker ε = {eps:e}: finite-disturbance norm {fd} vs GSN {}, relative error {err:e}", g.norm);
        errs.push(err);
    }
    assert!(errs[2] < 1e-4, "{errs:?}");
    assert!(
        errs[1] < 0.2 * errs[0] && errs[2] < 0.2 * errs[1],
        "no first-order convergence: {errs:?}"
    );
}
