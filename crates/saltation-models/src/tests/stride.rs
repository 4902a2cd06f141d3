//! Stride Jacobians (variational equations and saltation matrices) against central differences
//! of the stride map at each periodic model's orbit, and the trivial multiplier of the
//! fixed-time monodromy.

use super::shipped;
use crate::Model;
use saltation_hybrid::{EvalModel, JacobianKind, StrideMap};
use saltation_orbit::{eigenvalues, find_periodic_orbit, stride_jacobian_fd};

/// Central-difference step (1e-5…1e-6 is the useful range; Bhounsule 2014 uses 1e-5).
const FD_STEP: f64 = 1e-6;
/// Requirement: central differences of the full stride map agree with the variational Jacobian
/// to ~1e-6 or better. With rtol = atol = 1e-14 the rounding part is ~1e-14/1e-6 = 1e-8 and the
/// truncation part ~STEP² · |P'''| ≈ 1e-12 · |P'''|; 1e-6 (relative to the largest entry) is the
/// stated requirement.
const FD_TOL: f64 = 1e-6;

/// The orbits of the shipped model files: (file, guess index).
const ORBITS: [(&str, usize); 4] = [
    ("rimless_wheel", 0),
    ("simplest_walker", 0),
    ("simplest_walker", 1),
    ("van_der_pol", 0),
];

#[test]
fn stride_jacobian_matches_central_differences_and_monodromy_keeps_one() {
    for (file, g) in ORBITS {
        let mf = shipped(file);
        let opts = mf.orbit.clone();
        let model: &Model = &mf.model;
        let guess = &mf.guesses[g];
        let orbit = find_periodic_orbit(model, &guess.u, &opts)
            .unwrap_or_else(|e| panic!("{file} {}: {e}", guess.label));
        let mut map = StrideMap::new(model, opts.stride.clone()).unwrap();
        let stride = map.eval(&orbit.x0, JacobianKind::StrideMap).unwrap();
        let jac = stride.jacobian.unwrap();
        let fd = stride_jacobian_fd(model, &orbit.x0, FD_STEP, &opts.stride).unwrap();
        let scale = jac.amax().max(1.0);
        let err = (&jac - &fd).amax();
        eprintln!(
            "{file} ({}): |P_x − FD| = {err:e} (scale {scale})",
            guess.label
        );
        assert!(
            err < FD_TOL * scale,
            "{file} ({}): {jac} vs FD {fd}",
            guess.label
        );

        // Fixed-time monodromy: the flow direction f(x0) is an eigenvector with multiplier 1.
        let mono = map.eval(&orbit.x0, JacobianKind::Monodromy).unwrap();
        let mono = mono.jacobian.unwrap();
        let mu = eigenvalues(&mono).unwrap();
        let dist = mu
            .iter()
            .map(|m| (m - 1.0).norm())
            .fold(f64::INFINITY, f64::min);
        eprintln!(
            "{file} ({}): monodromy multipliers {mu:?}, |μ − 1| = {dist:e}",
            guess.label
        );
        assert!(dist < 1e-9, "{file}: no multiplier 1 in {mu:?}");
        let n = model.dim();
        let mut f = vec![0.0; n];
        model.flow(opts.stride.start_mode, 0.0, &orbit.x0, &mut f);
        let fv = nalgebra::DVector::from_vec(f);
        let res = (&mono * &fv - &fv).amax() / fv.amax();
        assert!(res < 1e-9, "{file}: Φ f(x0) ≠ f(x0) ({res:e})");
        // The other multipliers are those of the stride map (plus zeros for collapsed directions).
        let mut sm = eigenvalues(&jac).unwrap();
        sm.retain(|m| m.norm() > 1e-8);
        for s in &sm {
            let d = mu
                .iter()
                .map(|m| (m - s).norm())
                .fold(f64::INFINITY, f64::min);
            assert!(
                d < 1e-9 * s.norm().max(1.0),
                "{file}: stride multiplier {s} not in {mu:?}"
            );
        }
    }
}
