//! The van der Pol limit cycle at `ε = 1` (van der Pol 1926): a smooth flow seen through a Poincaré
//! section (`y = 0` falling, `x > 0`, identity reset), solved with `models/van_der_pol.ron`.
//!
//! References, independent of our variational equations and saltation matrices:
//! - the period 6.66328685932313 (`reference::van_der_pol::PERIOD`);
//! - Liouville's formula: `det Φ(T) = exp(∮ tr f_x dt)`, and since one multiplier of the
//!   fixed-time monodromy is exactly 1, the other is `μ = exp(∮ ε(1 − x²) dt)`.
//!
//! The integral is computed by appending the quadrature `z' = ε(1 − x²)` to the state and
//! integrating `[x, y, z]` from the fixed point around the cycle to the section again (plain
//! `saltation::ode`, no variational equations, the section located as an ordinary event). That
//! puts `z` under the same adaptive error control as the state, so the quadrature is as accurate
//! as the trajectory (global error ~ the tolerance), with nothing to choose (no quadrature rule
//! on sampled dense output, whose error would add to the interpolant's).

use saltation::hybrid::{EvalModel, JacobianKind, StrideMap};
use saltation::models::reference::van_der_pol as reference;
use saltation::models::Model;
use saltation::ode::{Direction, Event, FnSystem, Ivp, Method, SolverOptions, Stop};
use saltation::orbit::{eigenvalues, find_periodic_orbit, PeriodicOrbit};
use saltation::scenario::ModelFile;

fn model_file() -> ModelFile {
    crate::common::model_file("van_der_pol.ron")
}

fn limit_cycle(mf: &ModelFile) -> PeriodicOrbit {
    let Model::VanDerPol(vdp) = &mf.model else {
        panic!("van_der_pol.ron holds {:?}", mf.model)
    };
    assert_eq!(vdp.get("epsilon"), Ok(reference::EPSILON));
    find_periodic_orbit(&mf.model, &mf.guesses[0].u, &mf.orbit).unwrap()
}

/// `(∮ ε(1 − x²) dt, T)` from the section point `x0` once around the cycle, by the augmented
/// system `[x, y, z]` with DOP853 at `rtol = atol = 1e-14`.
fn divergence_integral(eps: f64, x0: &[f64]) -> (f64, f64) {
    let sys = FnSystem::new(3, move |_t: f64, u: &[f64], du: &mut [f64]| {
        du[0] = u[1];
        du[1] = eps * (1.0 - u[0] * u[0]) * u[1] - u[0];
        du[2] = eps * (1.0 - u[0] * u[0]);
    });
    let section = vec![Event::new(|_t, u: &[f64]| u[1])
        .direction(Direction::Falling)
        .enabled_when(|_t, u: &[f64]| u[0] > 0.0)];
    let start = [x0[0], x0[1], 0.0];
    let sol = Ivp::new(&sys, 0.0, &start)
        .events(&section)
        .solve(Method::Dop853, 50.0, &SolverOptions::with_tol(1e-14))
        .unwrap();
    assert!(matches!(sol.stop, Stop::Event(_)), "{:?}", sol.stop);
    (sol.y[2], sol.t)
}

#[test]
fn limit_cycle_period_and_multipliers() {
    let mf = model_file();
    let orbit = limit_cycle(&mf);
    let eps = reference::EPSILON;

    let dt = (orbit.period - reference::PERIOD).abs();
    eprintln!(
        "period {:.15} (reference {}), diff {dt:.1e}",
        orbit.period,
        reference::PERIOD
    );
    assert!(dt < 1e-10);
    assert!(
        orbit.x0[1] == 0.0 && orbit.x0[0] > 2.0 && orbit.x0[0] < 2.01,
        "{:?}",
        orbit.x0
    );

    let (integral, t_quad) = divergence_integral(eps, &orbit.x0);
    let mu_ref = integral.exp();
    assert!(
        (t_quad - orbit.period).abs() < 1e-10,
        "{t_quad} vs {}",
        orbit.period
    );
    eprintln!("∮ ε(1 − x²) dt = {integral:.15}, μ = {mu_ref:.15e}");

    // Fixed-time monodromy Φ(T) (S = I at the identity reset): multipliers {1, μ}.
    let mut map = StrideMap::new(&mf.model, mf.orbit.stride.clone()).unwrap();
    let mono = map.eval(&orbit.x0, JacobianKind::Monodromy).unwrap();
    let mut mu = eigenvalues(mono.jacobian.as_ref().unwrap()).unwrap();
    mu.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    let (one, small) = (mu[0], mu[1]);
    let d1 = (one - 1.0).norm();
    let rel = (small.re - mu_ref).abs() / mu_ref;
    eprintln!(
        "monodromy: |μ₁ − 1| = {d1:.1e}, μ₂ = {:.15e}, relative diff {rel:.1e}",
        small.re
    );
    assert!(d1 < 1e-10, "{one}");
    assert!(small.im == 0.0 && rel < 1e-10, "{small} vs {mu_ref}");
    // Liouville directly: det Φ(T) = μ₁ μ₂.
    let det = mono.jacobian.as_ref().unwrap().determinant();
    assert!(
        (det - mu_ref).abs() / mu_ref < 1e-10,
        "det {det} vs {mu_ref}"
    );

    // Event-terminated stride Jacobian: {0, μ} (the flow direction is collapsed).
    let mut st = eigenvalues(&orbit.jacobian).unwrap();
    st.sort_by(|a, b| b.norm().total_cmp(&a.norm()));
    let rel_s = (st[0].re - mu_ref).abs() / mu_ref;
    eprintln!(
        "stride map: μ = {:.15e} (relative diff {rel_s:.1e}), |trivial| = {:.1e}",
        st[0].re,
        st[1].norm()
    );
    assert!(st[0].im == 0.0 && rel_s < 1e-10, "{} vs {mu_ref}", st[0]);
    assert!(st[1].norm() < 1e-10 * mu_ref, "{}", st[1]);
    assert!(orbit.stable);
    // The reduced (1×1) Poincaré-map derivative is μ as well.
    assert_eq!(orbit.u0.len(), 1);
    assert_eq!(mf.model.reduced_dim(), 1);
}
