//! Exact parameter derivatives of the reduced stride map, `F_p` with
//! `F(u, p) = π(P(χ(u; p); p)) − u`, from one stride of the state augmented with the parameter
//! ([`ParamAugmented`]: variational equations and saltation matrices of `(x, p)`), against an
//! independent reference: Richardson-extrapolated central differences of the stride map itself
//! (`(4 D(h/2) − D(h)) / 3`, truncation error O(h⁴)). Every parameter of every equation model
//! with a section, and the built-in walker's slope, at each model's periodic orbit: parameters
//! enter flows, guards (the hopper's lift-off force), resets (its inelastic impact) and charts.

use crate::common::model_file;
use nalgebra::{DMatrix, DVector};
use saltation::hybrid::{EvalModel, ParamAugmented, StrideMap, StrideOptions};
use saltation::orbit::{find_periodic_orbit, reduced_map, reduced_residual};

/// `π(P(χ(u; q); q))` with parameter `k` at `q`.
fn g<M: EvalModel + Clone>(
    model: &M,
    k: usize,
    q: f64,
    u: &[f64],
    o: &StrideOptions,
) -> DVector<f64> {
    let mut m = model.clone();
    m.set_param_value(k, q).unwrap();
    let mut map = StrideMap::new(&m, o.clone()).unwrap();
    reduced_map(&mut map, u).unwrap()
}

/// `F` and `[F_u, F_p]` of the stride augmented with parameter `k`, at `u`.
fn augmented<M: EvalModel>(
    model: &M,
    k: usize,
    u: &[f64],
    o: &StrideOptions,
) -> (DVector<f64>, DMatrix<f64>) {
    let aug = ParamAugmented::new(model, k).unwrap_or_else(|| {
        let name = &model.param_names()[k];
        panic!("{}: no exact derivative in {name}", model.name())
    });
    let mut ua = u.to_vec();
    ua.push(model.param_value(k).unwrap());
    let mut map = StrideMap::new(&aug, ParamAugmented::<M>::stride_options(o)).unwrap();
    let (f, j, _) = reduced_residual(&mut map, &ua).unwrap();
    (f, j)
}

/// Checks `F_p` of the augmented stride for parameter `k` at `u` against the extrapolated
/// central differences with step `rel_step · max(|p|, 0.01)`, and that `F` and `F_u` are those
/// of the plain stride; returns the largest difference in `F_p` relative to its size (floor
/// 1e-3).
pub fn exact_vs_central<M: EvalModel + Clone>(
    model: &M,
    k: usize,
    u: &[f64],
    o: &StrideOptions,
    rel_step: f64,
) -> f64 {
    let name = &model.param_names()[k];
    let p = model.param_value(k).unwrap();
    let r = u.len();
    let (fa, ja) = augmented(model, k, u, o);
    let fp = ja.view((0, r), (r, 1)).column(0).into_owned();

    // The plain stride integrates `Φ` too (not `e^{Aτ}` in an affine mode), so that both
    // strides step on the same kind of system.
    let integrated = StrideOptions {
        exact_affine_phases: false,
        ..o.clone()
    };
    let mut plain = StrideMap::new(model, integrated.clone()).unwrap();
    let (f, fu, _) = reduced_residual(&mut plain, u).unwrap();
    // Both integrate the same map at the model's tolerance, but the augmented state has one
    // component more in the error norm, so the step sequences differ: F agrees to the
    // integration error, relative to the size of the state (rtol is relative).
    let df = (fa.rows(0, r) - &f).amax();
    let scale = u.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    assert!(df < 1e-12 * scale, "{name}: F changed by {df:.2e}");
    assert!(
        (ja.view((0, 0), (r, r)) - &fu).amax() < 1e-9 * fu.amax().max(1.0),
        "{name}: F_u changed"
    );

    // The differences are of strides integrated by the method too: its integration error is
    // smooth in p and cancels in a difference, as the augmented stride's does. An exactly
    // stepped stride (an autonomous affine mode) is exact to rounding instead, about 1e-14 in
    // F here, which does not cancel: divided by h it is ~1e-10, the size of the derivative in
    // an arbitrary mass split, which is zero.
    let h = rel_step * p.abs().max(1e-2);
    let d = |h: f64| {
        (g(model, k, p + h, u, &integrated) - g(model, k, p - h, u, &integrated)) / (2.0 * h)
    };
    let reference = (d(h / 2.0) * 4.0 - d(h)) / 3.0;
    (&fp - &reference).amax() / reference.amax().max(1e-3)
}

/// Every parameter of the file's model at its first gait.
fn every_parameter(name: &str, tol: f64) {
    let f = model_file(name);
    let orbit = find_periodic_orbit(&f.model, &f.guesses[0].u, &f.orbit)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let o = f.orbit.stride.clone();
    for (k, p) in f.model.param_names().iter().enumerate() {
        let err = exact_vs_central(&f.model, k, &orbit.u0, &o, 1e-3);
        assert!(err < tol, "{name}: ∂F/∂{p} differs by {err:.1e} (relative)");
    }
}

#[test]
fn walker_slope_builtin_and_equations() {
    every_parameter("simplest_walker.ron", 1e-7);
    every_parameter("equations/simplest_walker.ron", 1e-7);
}

#[test]
fn hopper_every_parameter() {
    // Parameters in the flow (g, m, mu, k, d_F, d_G), the lift-off guard and the impact reset.
    every_parameter("equations/hopper_unconstrained.ron", 1e-7);
}

#[test]
fn compass_gait_and_rimless_wheel_every_parameter() {
    every_parameter("equations/compass_gait.ron", 1e-7);
    every_parameter("equations/rimless_wheel.ron", 1e-7);
}

#[test]
fn constrained_hopper_every_parameter() {
    // The constrained-mechanics layer: parameters in the mass matrix (m, mu and the splits),
    // hence in the saddle-point solve, the lift-off multiplier and the impact projection.
    every_parameter("hopper.ron", 1e-7);
}

/// The constrained four-particle hopper and the two-coordinate equation form share the section
/// coordinates `(z_U, ż_U)` at lift-off, so their exact `F_p` must agree in every shared
/// parameter (differentiated through the saddle-point system in one, through the equations in
/// the other); the arbitrary mass splits must not move the map at all.
#[test]
fn constrained_hopper_derivatives_equal_the_unconstrained_ones() {
    let c = model_file("hopper.ron");
    let e = model_file("equations/hopper_unconstrained.ron");
    let orbit = find_periodic_orbit(&c.model, &c.guesses[0].u, &c.orbit).unwrap();
    let o = c.orbit.stride.clone();
    let r = orbit.u0.len();
    let names = c.model.param_names();
    let mut shared = 0;
    for (k, name) in names.iter().enumerate() {
        let fp_c = augmented(&c.model, k, &orbit.u0, &o)
            .1
            .column(r)
            .rows(0, r)
            .into_owned();
        match e.model.param_names().iter().position(|n| n == name) {
            Some(ke) => {
                let fp_e = augmented(&e.model, ke, &orbit.u0, &o)
                    .1
                    .column(r)
                    .rows(0, r)
                    .into_owned();
                let err = (&fp_c - &fp_e).amax() / fp_e.amax().max(1e-3);
                assert!(
                    err < 1e-9,
                    "∂F/∂{name}: {fp_c} vs {fp_e} ({err:.1e} relative)"
                );
                shared += 1;
            }
            None => assert!(fp_c.amax() < 1e-10, "∂F/∂{name} = {fp_c}, not 0"),
        }
    }
    assert_eq!(shared, 7, "shared parameters of {names:?}");
}

#[test]
fn time_forced_models_every_parameter() {
    // The forcing period 2π/ω depends on ω: with an event section the stride brings the phase
    // back by k T(ω) (its derivative −k T'(ω)), with a stroboscopic one the strobe sits at
    // t = T(ω) and takes T(ω) off the phase.
    every_parameter("equations/vibrating_table_forced.ron", 1e-7);
    every_parameter("equations/impact_oscillator_forced.ron", 1e-7);
}
