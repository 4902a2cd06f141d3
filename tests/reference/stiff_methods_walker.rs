//! The simplest walker's Table 1 (Garcia et al. 1998 model at γ = 0.009, the values of
//! Bhounsule 2014) reproduced with the implicit methods, whose variational equations are
//! solved with the 4×4 iteration matrix (staggered corrector), and the stride Jacobian of every
//! adaptive method against central differences of an independent, much tighter stride map.

use saltation::hybrid::{JacobianKind, StrideMap, StrideOptions};
use saltation::models::reference::walker_table1 as table;
use saltation::models::Model;
use saltation::ode::{Method, SolverOptions};
use saltation::orbit::{find_periodic_orbit, stride_jacobian_fd};
use saltation::scenario::ModelFile;

fn model_file() -> ModelFile {
    crate::common::model_file("simplest_walker.ron")
}

/// Both gaits with `method` at `rtol = atol = tol`: fixed points and nontrivial multipliers
/// against Table 1 (the unstable gait's second multiplier with the 9th-decimal slip corrected).
fn table1_with(method: Method, tol: f64, bound: f64) {
    let mut mf = model_file();
    mf.orbit.stride.method = method;
    mf.orbit.stride.ode = SolverOptions::with_tol(tol);
    let Model::SimplestWalker(_) = &mf.model else {
        panic!("not the walker")
    };
    let opts = mf.orbit.clone();
    let stable = find_periodic_orbit(&mf.model, &mf.guesses[0].u, &opts)
        .unwrap_or_else(|e| panic!("{}: stable gait: {e}", method.name()));
    let unstable = find_periodic_orbit(&mf.model, &mf.guesses[1].u, &opts)
        .unwrap_or_else(|e| panic!("{}: unstable gait: {e}", method.name()));
    for (got, want) in stable.x0.iter().zip(table::STABLE_X0) {
        assert!(
            (got - want).abs() < bound,
            "{}: x0 {got} vs {want}",
            method.name()
        );
    }
    for (got, want) in unstable.x0.iter().zip(table::UNSTABLE_X0) {
        assert!(
            (got - want).abs() < bound,
            "{}: x0 {got} vs {want}",
            method.name()
        );
    }
    let (re, im) = table::STABLE_PAIR;
    let mut worst: f64 = 0.0;
    for m in &stable.multipliers[..2] {
        let d = (m.re - re).abs().max((m.im.abs() - im).abs());
        worst = worst.max(d);
    }
    for (m, want) in unstable.multipliers[..2].iter().zip(table::UNSTABLE) {
        worst = worst.max((m.re - want).abs().max(m.im.abs()));
    }
    eprintln!(
        "{} at tol {tol:e}: worst multiplier error {worst:.1e}",
        method.name()
    );
    assert!(
        worst < bound,
        "{}: multipliers off by {worst:e}",
        method.name()
    );
    assert!(stable.stable && !unstable.stable);
}

#[test]
fn table1_with_radau5() {
    table1_with(Method::Radau5, 1e-12, 1e-9);
}

/// NDF is a multistep code of order ≤ 5: its global error is ~100× its local tolerance here, so
/// it needs 1e-13 for Table 1 to 1e-9 (at 1e-12 the worst multiplier is off by 1.7e-9).
#[test]
fn table1_with_ndf() {
    table1_with(Method::Ndf, 1e-13, 1e-9);
}

/// The tolerance each method runs at below: tight for the high-order ones, moderate for the
/// second-order ones (whose step count grows like tol^(-1/3)).
fn tol_of(method: Method) -> f64 {
    match method.order() {
        ..=2 => 1e-8,
        3 => 1e-9,
        _ => 1e-11,
    }
}

#[test]
fn stride_jacobian_of_every_method_matches_central_differences() {
    let mf = model_file();
    let x0 = table::STABLE_X0;
    let reference = StrideOptions {
        method: Method::Dop853,
        ode: SolverOptions::with_tol(1e-14),
        ..mf.orbit.stride.clone()
    };
    // Central differences of a DOP853 stride map at 1e-14, Richardson-extrapolated from steps
    // 2e-4 and 1e-4 (`(4 J(h/2) − J(h))/3`, truncation O(h⁴)): accurate to ~2e-7 here (plain
    // central differences at 1e-5 are off by ~1e-6, as Table 1's FD column shows).
    let fd_h = stride_jacobian_fd(&mf.model, &x0, 2e-4, &reference).unwrap();
    let fd_h2 = stride_jacobian_fd(&mf.model, &x0, 1e-4, &reference).unwrap();
    let fd = (fd_h2 * 4.0 - fd_h) / 3.0;
    const FD_ACCURACY: f64 = 3e-7;
    // The same map's variational Jacobian, checked against them, is the tight reference.
    let exact = StrideMap::new(&mf.model, reference.clone())
        .unwrap()
        .eval(&x0, JacobianKind::StrideMap)
        .unwrap();
    let (x_ref, j_ref) = (exact.x, exact.jacobian.unwrap());
    let d = (&j_ref - &fd).abs().max();
    eprintln!("dop853 at 1e-14: |J − J_fd| = {d:.1e}");
    assert!(d < FD_ACCURACY, "reference Jacobian vs differences: {d:e}");
    for method in Method::ALL.into_iter().filter(|m| m.is_adaptive()) {
        let tol = tol_of(method);
        let opts = StrideOptions {
            method,
            ode: SolverOptions::with_tol(tol),
            ..mf.orbit.stride.clone()
        };
        let mut map =
            StrideMap::new(&mf.model, opts).unwrap_or_else(|e| panic!("{}: {e}", method.name()));
        let r = map
            .eval(&x0, JacobianKind::StrideMap)
            .unwrap_or_else(|e| panic!("{}: {e}", method.name()));
        let jac = r.jacobian.as_ref().unwrap();
        let (to_fd, to_ref) = ((jac - &fd).abs().max(), (jac - &j_ref).abs().max());
        let err_x =
            r.x.iter()
                .zip(&x_ref)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
        eprintln!(
            "{:>12} tol {tol:.0e}: |P − P_ref| = {err_x:.1e}, |J − J_fd| = {to_fd:.1e}, \
             |J − J_ref| = {to_ref:.1e} ({} steps, {} Jacobians, {} LU)",
            method.name(),
            r.stats.steps,
            r.stats.jacobian_evals,
            r.stats.lu_decompositions
        );
        // The variational Jacobian is as accurate as the state it comes with, relative to its
        // size: its entries reach ~10 where the state's are ~0.3, so within 200 times the
        // state's own error (or the tolerance, if the state happens to be closer) of the
        // reference — measured 30–50 for the explicit pairs — and so within the differences'
        // accuracy of the differences. A wrong variational solve is off by far more.
        let bound = 200.0 * err_x.max(tol);
        assert!(
            to_ref < bound + 1e-11 && to_fd < bound + FD_ACCURACY,
            "{}: stride Jacobian off by {to_ref:e} (state off by {err_x:e})",
            method.name()
        );
    }
}
