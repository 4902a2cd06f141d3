//! Strides whose variational equations carry the section chart's Jacobian `Dχ` (n × r) instead
//! of the identity ([`StrideMap::eval_seeded`]), as Newton in reduced coordinates uses them:
//! the result is `P_x · Dχ` of the full computation, for the walker (`n = 4`, `r = 2`) and the
//! constrained hopper (`n = 8`, `r = 2`).

use super::{stride_options, HopperParams, HopperParticles};
use crate::SimplestWalker;
use nalgebra::DMatrix;
use saltation_hybrid::{Bound, EvalModel, JacobianKind, StrideMap, StrideOptions};
use saltation_orbit::{find_periodic_orbit, OrbitOptions};

/// `P_x Dχ` from the full `n × n` Jacobian and from a stride seeded with `Dχ` agree to `tol`
/// (relative to the largest entry), and so do the event time gradients `∂t_k/∂x₀ · Dχ` and the
/// states. Seeded with the identity, the stride is the full one exactly.
fn check<M: EvalModel>(model: &M, opts: &OrbitOptions, guess: &[f64], tol: f64) {
    let orbit = find_periodic_orbit(model, guess, opts).unwrap();
    let (n, r) = (model.dim(), model.reduced_dim());
    let mut dchi = vec![0.0; n * r];
    model.chart_jacobian(&orbit.u0, &mut dchi);
    let dchi_m = DMatrix::from_row_slice(n, r, &dchi);
    let mut map = StrideMap::new(model, opts.stride.clone()).unwrap();
    for kind in [JacobianKind::StrideMap, JacobianKind::Monodromy] {
        let full = map.eval(&orbit.x0, kind).unwrap();
        let seeded = map.eval_seeded(&orbit.x0, kind, &dchi, r).unwrap();
        let want = full.jacobian.as_ref().unwrap() * &dchi_m;
        let got = seeded.jacobian.as_ref().unwrap();
        assert_eq!(got.shape(), (n, r));
        let scale = want.amax().max(1.0);
        let err = (got - &want).amax() / scale;
        assert!(err <= tol, "{} {kind:?}: {err:e}", model.name());
        let state = full
            .x
            .iter()
            .zip(&seeded.x)
            .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
        assert!(state <= tol, "{} state: {state:e}", model.name());
        for (gf, gs) in full
            .event_time_gradients
            .iter()
            .zip(&seeded.event_time_gradients)
        {
            assert_eq!(gs.len(), r);
            for (k, g) in gs.iter().enumerate() {
                let want: f64 = (0..n).map(|l| gf[l] * dchi[l * r + k]).sum();
                assert!((g - want).abs() <= tol * want.abs().max(1.0), "{g} {want}");
            }
        }
        // The identity as the seed is the full computation.
        let mut id = vec![0.0; n * n];
        saltation_hybrid::identity(&mut id, n);
        let same = map.eval_seeded(&orbit.x0, kind, &id, n).unwrap();
        assert_eq!(same.jacobian, full.jacobian);
        assert_eq!(same.x, full.x);
    }
}

/// With the step size controlled on the state alone both integrations take the same steps and
/// the seeded Jacobian is the full one times `Dχ` up to rounding (1e-12). With the default
/// control the steps also see `Φ` (n × n) or `Φ Dχ` (n × r), so they differ and the two agree
/// to the integration error (rtol = 1e-12 over a stride: 1e-10).
#[test]
fn seeded_stride_jacobian_is_the_full_one_times_the_chart_jacobian() {
    let hopper = HopperParticles::bound(&HopperParams::default(), 0.5, 0.5).unwrap();
    for (variational_error_control, tol) in [(false, 1e-12), (true, 1e-10)] {
        let mut walker_opts = OrbitOptions::default();
        walker_opts.stride.variational_error_control = variational_error_control;
        check(
            &Bound::<SimplestWalker>::default(),
            &walker_opts,
            &[0.2, -0.2],
            tol,
        );
        let mut hopper_opts = OrbitOptions {
            stride: stride_options(1e-12, 20.0),
            ..OrbitOptions::default()
        };
        hopper_opts.stride.variational_error_control = variational_error_control;
        check(&hopper, &hopper_opts, &[1.02, 1.7], tol);
    }
}

#[test]
fn a_seed_of_the_wrong_size_or_not_finite_is_refused() {
    let walker = Bound::<SimplestWalker>::default();
    let mut map = StrideMap::new(&walker, StrideOptions::default()).unwrap();
    let x0 = [0.2, -0.2, 0.4, -0.2 * (1.0 - 0.4f64.cos())];
    assert!(map
        .eval_seeded(&x0, JacobianKind::StrideMap, &[1.0; 6], 2)
        .is_err());
    assert!(map
        .eval_seeded(&x0, JacobianKind::StrideMap, &[], 0)
        .is_err());
    let mut bad = [0.0; 8];
    bad[0] = f64::NAN;
    assert!(map
        .eval_seeded(&x0, JacobianKind::StrideMap, &bad, 2)
        .is_err());
}

/// The orbit's reported `P_x`, residual and multipliers are those of a fresh full stride at the
/// solution, although Newton's strides carried `P_x Dχ` only.
#[test]
fn the_orbit_reports_the_full_stride_at_its_solution() {
    let hopper = HopperParticles::bound(&HopperParams::default(), 0.5, 0.5).unwrap();
    let opts = OrbitOptions {
        stride: stride_options(1e-12, 20.0),
        ..OrbitOptions::default()
    };
    for guess in [[1.02, 1.7], [1.0190918565660803, 1.7403481061400419]] {
        let o = find_periodic_orbit(&hopper, &guess, &opts).unwrap();
        let mut map = StrideMap::new(&hopper, opts.stride.clone()).unwrap();
        let (f, _, res) = saltation_orbit::reduced_residual(&mut map, &o.u0).unwrap();
        assert_eq!(o.jacobian, res.jacobian.unwrap());
        assert_eq!(o.residual, saltation_orbit::norm2(f.as_slice()));
        assert_eq!(o.period, res.period);
        assert!(o.residual <= opts.newton.ftol * saltation_orbit::norm2(&o.u0).max(1.0));
    }
}
