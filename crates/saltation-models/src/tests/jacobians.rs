//! Hand-written Jacobians of every built-in model against forward-mode automatic
//! differentiation (exact up to rounding, so the bound is ~1e-14 relative), at pseudo-random
//! states and parameters; chart and projection Jacobians against central differences.

use super::Rng;
use crate::Model;
use saltation_hybrid::{ad, EvalModel, HybridModel};

/// Runs `$body` with `$b` bound to the variant's `Bound` model (every built-in model is one).
macro_rules! on_bound {
    ($m:expr, |$b:ident| $body:expr) => {
        match $m {
            Model::RimlessWheel($b) => $body,
            Model::SimplestWalker($b) => $body,
            Model::BouncingBall($b) => $body,
            Model::VanDerPol($b) => $body,
            Model::Robertson($b) => $body,
            Model::RobertsonDae($b) => $body,
            Model::VanDerPolStiff($b) => $body,
            Model::Hires($b) => $body,
            Model::Orego($b) => $body,
            Model::Hopper($b) => $body,
            Model::HopperUnconstrained($b) => $body,
            Model::Monopod($b) => $body,
            Model::Equations($b) => $body,
            other => panic!("not a built-in model: {other:?}"),
        }
    };
}

/// `f_x` by automatic differentiation, whatever the model hand-writes.
fn flow_jacobian_ad(m: &Model, mode: usize, t: f64, x: &[f64], jac: &mut [f64]) {
    on_bound!(m, |b| ad::flow_jacobian_ad(b, mode, t, x, jac))
}

/// `h_x` by automatic differentiation.
fn guard_gradient_ad(m: &Model, mode: usize, j: usize, x: &[f64], grad: &mut [f64]) {
    on_bound!(m, |b| ad::guard_gradient_ad(b, mode, j, x, grad))
}

/// `g_x` by automatic differentiation.
fn reset_jacobian_ad(m: &Model, mode: usize, j: usize, x: &[f64], jac: &mut [f64]) {
    on_bound!(m, |b| ad::reset_jacobian_ad(b, mode, j, x, jac))
}

/// Which derivatives the model hand-writes: `f_x`, `h_x`, `g_x`.
fn hand_written(m: &Model) -> (bool, bool, bool) {
    on_bound!(m, |b| (
        b.model().hand_flow_jacobian().is_some(),
        b.model().hand_guard_gradient().is_some(),
        b.model().hand_reset_jacobian().is_some()
    ))
}

/// Parameter sets per model.
const PARAM_SETS: usize = 8;
/// States per parameter set.
const STATES: usize = 64;
/// Relative bound for hand-written vs automatic derivatives (both exact up to rounding).
const AD_TOL: f64 = 1e-14;

/// Every built-in model with its default parameters; fails if a name in [`Model::NAMES`] has no
/// constructor, so a new model cannot be forgotten here.
fn every_model() -> Vec<Model> {
    Model::NAMES
        .iter()
        .map(|n| {
            let m = Model::with_defaults(n).unwrap_or_else(|| panic!("no defaults for {n}"));
            assert_eq!(m.variant_name(), *n);
            m
        })
        .collect()
}

/// The model with every numeric parameter scaled by a random factor in [0.5, 1.5) (integer
/// parameters rounded; a bounded one that leaves its range by less, [0.95, 1.05)).
fn perturbed(model: &Model, rng: &mut Rng) -> Model {
    let mut m = model.clone();
    for name in model.param_names() {
        let old = model.param(&name).unwrap();
        let v = old * rng.uniform(0.5, 1.5);
        // A bounded parameter (a mass share below 1) may need a smaller change.
        let near = old * rng.uniform(0.95, 1.05);
        m = m
            .with_param(&name, v)
            .or_else(|_| m.with_param(&name, v.round()))
            .or_else(|_| m.with_param(&name, near))
            .unwrap_or_else(|e| panic!("{}: {e}", model.name()));
    }
    m
}

/// Models differentiated by automatic differentiation only, by design: the constrained hopper's
/// equations are derived by the constrained-mechanics layer, whose Jacobians are checked
/// against finite differences in `tests/models/hopper.rs`.
fn ad_only(model: &Model) -> bool {
    matches!(model, Model::Hopper(_))
}

/// Whether every guard's reset lands on the section (strides of one event). The hoppers'
/// strides have two (touchdown, lift-off): only lift-off from a state that satisfies the ground
/// constraints ends on the section, which their orbit tests check.
fn every_reset_on_section(model: &Model) -> bool {
    !matches!(model, Model::Hopper(_) | Model::HopperUnconstrained(_))
}

/// `max |a − b| ≤ AD_TOL · max(1, max |b|)`, with a message naming what was compared.
fn assert_close(a: &[f64], b: &[f64], what: &str) -> f64 {
    let scale = b.iter().fold(1.0f64, |s, v| s.max(v.abs()));
    let err = a
        .iter()
        .zip(b)
        .fold(0.0f64, |e, (x, y)| e.max((x - y).abs()));
    assert!(
        err <= AD_TOL * scale,
        "{what}: hand-written {a:?} vs AD {b:?} (error {err:e}, scale {scale})"
    );
    err / scale
}

#[test]
fn hand_written_jacobians_match_automatic_differentiation() {
    let mut rng = Rng::new(0x5a17_a710);
    for base in every_model().into_iter().filter(|m| !ad_only(m)) {
        let mut worst = 0.0f64;
        for _ in 0..PARAM_SETS {
            let model = perturbed(&base, &mut rng);
            let n = model.dim();
            let (mut hand, mut ad) = (vec![0.0; n * n], vec![0.0; n * n]);
            let (mut gh, mut ga) = (vec![0.0; n], vec![0.0; n]);
            for _ in 0..STATES {
                let x: Vec<f64> = (0..n).map(|_| rng.uniform(-3.0, 3.0)).collect();
                let t = rng.uniform(0.0, 10.0);
                for mode in 0..model.modes() {
                    let what = format!("{} f_x mode {mode} at {x:?}", model.name());
                    let (hand_fx, hand_hx, hand_gx) = hand_written(&model);
                    assert!(hand_fx, "{what}: not hand-written");
                    model.flow_jacobian(mode, t, &x, &mut hand);
                    flow_jacobian_ad(&model, mode, t, &x, &mut ad);
                    worst = worst.max(assert_close(&hand, &ad, &what));
                    // The combined f/f_x agrees with both parts.
                    let (mut dx, mut f) = (vec![0.0; n], vec![0.0; n]);
                    model.flow_and_jacobian(mode, t, &x, &mut dx, &mut hand);
                    model.flow(mode, t, &x, &mut f);
                    assert_close(&dx, &f, &format!("{what}: combined f"));
                    worst = worst.max(assert_close(&hand, &ad, &format!("{what}: combined")));
                    for j in 0..model.guards(mode) {
                        let what = format!("{} guard {j} of mode {mode} at {x:?}", model.name());
                        assert!(hand_hx, "{what}: h_x not hand-written");
                        model.guard_gradient(mode, j, &x, &mut gh);
                        guard_gradient_ad(&model, mode, j, &x, &mut ga);
                        worst = worst.max(assert_close(&gh, &ga, &format!("{what} h_x")));
                        assert!(hand_gx, "{what}: g_x not hand-written");
                        model.reset_jacobian(mode, j, &x, &mut hand);
                        reset_jacobian_ad(&model, mode, j, &x, &mut ad);
                        worst = worst.max(assert_close(&hand, &ad, &format!("{what} g_x")));
                    }
                }
            }
        }
        eprintln!(
            "{}: worst relative hand/AD difference {worst:e}",
            base.name()
        );
    }
}

/// The structural claims a stride relies on: a mode said to have a constant `f_x`
/// ([`EvalModel::flow_jacobian_is_constant`]: `Φ = e^{Aτ}`) has the same `f_x` (by AD) at
/// two random states and times, and a mode said to be autonomous
/// ([`EvalModel::flow_is_autonomous`]: with the former, stepped exactly) the same `f` at two
/// times; for every built-in model (the constrained hopper too), at random parameters.
#[test]
fn claims_of_constant_jacobians_and_autonomy_hold() {
    let mut rng = Rng::new(0x0a11_e0a5);
    let mut claims = 0;
    for base in every_model() {
        for _ in 0..PARAM_SETS {
            let model = perturbed(&base, &mut rng);
            let n = model.dim();
            let (mut a, mut b) = (vec![0.0; n * n], vec![0.0; n * n]);
            let (mut f, mut g) = (vec![0.0; n], vec![0.0; n]);
            for _ in 0..8 {
                let x: Vec<f64> = (0..n).map(|_| rng.uniform(-3.0, 3.0)).collect();
                let y: Vec<f64> = (0..n).map(|_| rng.uniform(-3.0, 3.0)).collect();
                let (t, s) = (rng.uniform(0.0, 10.0), rng.uniform(0.0, 10.0));
                for mode in 0..model.modes() {
                    let what = format!("{} mode {mode}", model.name());
                    if model.flow_jacobian_is_constant(mode) {
                        claims += 1;
                        flow_jacobian_ad(&model, mode, t, &x, &mut a);
                        flow_jacobian_ad(&model, mode, s, &y, &mut b);
                        assert_close(&a, &b, &format!("{what}: f_x said constant"));
                    }
                    if model.flow_is_autonomous(mode) {
                        claims += 1;
                        model.flow(mode, t, &x, &mut f);
                        model.flow(mode, s, &x, &mut g);
                        assert_close(&f, &g, &format!("{what}: f said autonomous"));
                    }
                }
            }
        }
    }
    // The hoppers, the bouncing ball and the monopod's flight make claims.
    assert!(claims > 0);
}

/// Moves `x` onto the zero set of guard `j` of `mode` by Newton steps along the coordinate with
/// the largest guard-gradient component.
fn onto_guard(model: &Model, mode: usize, j: usize, x: &mut [f64]) {
    let mut grad = vec![0.0; x.len()];
    for _ in 0..50 {
        let h = model.guard(mode, j, x);
        if h.abs() < 1e-15 {
            return;
        }
        model.guard_gradient(mode, j, x, &mut grad);
        let k = (0..x.len())
            .max_by(|&a, &b| grad[a].abs().total_cmp(&grad[b].abs()))
            .unwrap();
        x[k] -= h / grad[k];
    }
    panic!("{}: could not put {x:?} on guard {j}", model.name());
}

#[test]
fn chart_and_projection_are_consistent_with_their_jacobians_and_the_reset() {
    const STEP: f64 = 1e-6;
    // Central differences of smooth, full-precision functions: truncation ~STEP², rounding
    // ~ε/STEP ≈ 2e-10.
    const FD_TOL: f64 = 1e-8;
    let mut rng = Rng::new(0xc4a7);
    for base in every_model() {
        for _ in 0..PARAM_SETS {
            let model = perturbed(&base, &mut rng);
            let (n, r) = (model.dim(), model.reduced_dim());
            let name = model.name().to_string();
            for _ in 0..STATES {
                // Chart: Dχ against central differences; π(χ(u)) = u; Dπ Dχ = I.
                let u: Vec<f64> = (0..r).map(|_| rng.uniform(-2.0, 2.0)).collect();
                let mut dchi = vec![0.0; n * r];
                model.chart_jacobian(&u, &mut dchi);
                let (mut xp, mut xm, mut back) = (vec![0.0; n], vec![0.0; n], vec![0.0; r]);
                for c in 0..r {
                    let (mut up, mut um) = (u.clone(), u.clone());
                    up[c] += STEP;
                    um[c] -= STEP;
                    model.chart(&up, &mut xp);
                    model.chart(&um, &mut xm);
                    for i in 0..n {
                        let fd = (xp[i] - xm[i]) / (up[c] - um[c]);
                        let d = (fd - dchi[i * r + c]).abs();
                        assert!(
                            d < FD_TOL,
                            "{name}: Dχ[{i},{c}] at {u:?}: {fd} vs {}",
                            dchi[i * r + c]
                        );
                    }
                }
                let mut x = vec![0.0; n];
                model.chart(&u, &mut x);
                model.project(&x, &mut back);
                for c in 0..r {
                    assert!(
                        (back[c] - u[c]).abs() <= 1e-15 * (1.0 + u[c].abs()),
                        "{name}: π(χ(u)) ≠ u"
                    );
                }
                let mut dpi = vec![0.0; r * n];
                model.project_jacobian(&x, &mut dpi);
                for a in 0..r {
                    for b in 0..r {
                        let p: f64 = (0..n).map(|k| dpi[a * n + k] * dchi[k * r + b]).sum();
                        let id = if a == b { 1.0 } else { 0.0 };
                        assert!((p - id).abs() < 1e-14, "{name}: Dπ Dχ ≠ I at {u:?}");
                    }
                }
                // Projection: Dπ against central differences at a random full state.
                let x: Vec<f64> = (0..n).map(|_| rng.uniform(-2.0, 2.0)).collect();
                model.project_jacobian(&x, &mut dpi);
                let (mut pp, mut pm) = (vec![0.0; r], vec![0.0; r]);
                for c in 0..n {
                    let (mut a, mut b) = (x.clone(), x.clone());
                    a[c] += STEP;
                    b[c] -= STEP;
                    model.project(&a, &mut pp);
                    model.project(&b, &mut pm);
                    for i in 0..r {
                        let fd = (pp[i] - pm[i]) / (a[c] - b[c]);
                        assert!(
                            (fd - dpi[i * n + c]).abs() < FD_TOL,
                            "{name}: Dπ[{i},{c}] at {x:?}"
                        );
                    }
                }
                // A reset of a point on a guard lands on the section: χ(π(g(x⁻))) = g(x⁻).
                let mut xg = x.clone();
                let mut gx = vec![0.0; n];
                let modes = if every_reset_on_section(&model) {
                    model.modes()
                } else {
                    0
                };
                for mode in 0..modes {
                    for j in 0..model.guards(mode) {
                        onto_guard(&model, mode, j, &mut xg);
                        model.reset(mode, j, &xg, &mut gx);
                        model.project(&gx, &mut back);
                        model.chart(&back, &mut xp);
                        for i in 0..n {
                            assert!(
                                (xp[i] - gx[i]).abs() <= 1e-13 * (1.0 + gx[i].abs()),
                                "{name}: g({xg:?}) = {gx:?} is not on the section (χ(π(·)) = {xp:?})"
                            );
                        }
                    }
                }
            }
        }
    }
}
