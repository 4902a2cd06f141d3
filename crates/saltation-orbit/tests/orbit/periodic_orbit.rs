//! Reference tests of `find_periodic_orbit` with the van der Pol oscillator: the limit cycle and
//! its multiplier, the equilibrium at the origin (not an orbit), and option validation at every
//! entry point.

use crate::models::van_der_pol::{van_der_pol, VanDerPol};
use saltation_hybrid::{Bound, HybridError, JacobianKind, StrideMap, StrideOptions};
use saltation_orbit::{
    central_difference, find_periodic_orbit, reduced_map, stride_jacobian_fd, Degeneracy,
    EigenBackend, NewtonOptions, OrbitError, OrbitOptions, OrbitOptionsError,
};

/// Period of the van der Pol limit cycle at ε = 1.
const PERIOD: f64 = 6.663_286_859_323_13;

fn vdp() -> Bound<VanDerPol> {
    van_der_pol(1.0)
}

#[test]
fn limit_cycle_is_found_with_its_period_and_multiplier() {
    let model = vdp();
    let opts = OrbitOptions::default();
    let orbit = find_periodic_orbit(&model, &[2.0], &opts).unwrap();
    assert!((orbit.period - PERIOD).abs() < 1e-10, "{}", orbit.period);
    // Amplitude (the maximum of x) about 2.0086.
    assert!((orbit.u0[0] - 2.0086).abs() < 1e-4, "{:?}", orbit.u0);
    assert!(orbit.residual <= 1e-12 * orbit.u0[0]);
    // Multipliers of the stride Jacobian: {μ, 0}; μ is the derivative of the reduced map,
    // checked by central differences of the map itself.
    let mut map = StrideMap::new(&model, opts.stride.clone()).unwrap();
    let d = central_difference(
        |u| reduced_map(&mut map, u.as_slice()),
        &nalgebra::DVector::from_column_slice(&orbit.u0),
        1e-4,
    )
    .unwrap();
    let mu = orbit.multipliers[0].re;
    assert!((mu - d[(0, 0)]).abs() < 1e-7, "{mu} {}", d[(0, 0)]);
    assert!(orbit.multipliers[0].im == 0.0 && mu > 0.0 && mu < 1.0);
    assert!(orbit.multipliers[1].modulus() < 1e-12);
    assert!(orbit.stable);
}

/// The defect: from 1e-300 the stride map's residual at the guess is 3.6e-299, below the
/// absolute ftol, and the equilibrium at the origin was reported as a periodic orbit (period
/// 7.25, multiplier 37.6).
#[test]
fn the_equilibrium_at_the_origin_is_not_an_orbit() {
    let model = vdp();
    let r = find_periodic_orbit(&model, &[1e-300], &OrbitOptions::default());
    match &r {
        Err(OrbitError::Degenerate {
            u0,
            period,
            reason: Degeneracy::Equilibrium { motion, resolution },
        }) => {
            assert_eq!(u0, &[1e-300]);
            // Near the origin the flow is linear: the return time is 2π/ω, ω = √3/2 for ε = 1.
            let t_linear = 2.0 * std::f64::consts::PI / (3f64.sqrt() / 2.0);
            assert!((period - t_linear).abs() < 1e-9, "{period}");
            // T·‖f(x₀)‖ = T·1e-300 (f = (0, −x₀)); resolution max(ftol, xtol)·1 = 1e-12.
            assert!(
                (motion / (t_linear * 1e-300) - 1.0).abs() < 1e-9,
                "{motion:e}"
            );
            assert_eq!(*resolution, 1e-12);
        }
        other => panic!("expected Degenerate, got {other:?}"),
    }
    let text = r.unwrap_err().to_string();
    assert!(text.contains("equilibrium, not a periodic orbit"), "{text}");
    // Exactly at the origin the guard is never crossed: a stride failure at the guess.
    let r = find_periodic_orbit(&model, &[0.0], &OrbitOptions::default());
    assert!(
        matches!(
            r,
            Err(OrbitError::Hybrid(HybridError::GuardNotReached { .. }))
        ),
        "{r:?}"
    );
    // The origin is a root of F (near it P(u) ≈ 37.6 u): Newton from 1e-3 converges to it
    // (to ~1e-17) and that, too, is rejected.
    let r = find_periodic_orbit(&model, &[1e-3], &OrbitOptions::default());
    assert!(
        matches!(&r, Err(OrbitError::Degenerate { u0, .. }) if u0[0].abs() < 1e-12),
        "{r:?}"
    );
}

#[test]
fn invalid_options_are_typed_before_any_stride() {
    let model = vdp();
    let bad_newton = OrbitOptions {
        newton: NewtonOptions {
            max_iters: 1_000_000,
            ..Default::default()
        },
        ..Default::default()
    };
    let r = find_periodic_orbit(&model, &[2.0], &bad_newton);
    assert!(
        matches!(&r, Err(OrbitError::InvalidOptions(e)) if e.field() == "newton.max_iters"),
        "{r:?}"
    );
    let mut bad_stride = OrbitOptions::default();
    bad_stride.stride.ode.rtol = -1.0;
    let r = find_periodic_orbit(&model, &[2.0], &bad_stride);
    assert!(
        matches!(&r, Err(OrbitError::InvalidOptions(e)) if e.field() == "stride.ode.rtol"),
        "{r:?}"
    );
    let mut bad_mode = OrbitOptions::default();
    bad_mode.stride.start_mode = 1;
    let r = find_periodic_orbit(&model, &[2.0], &bad_mode);
    assert!(
        matches!(&r, Err(OrbitError::InvalidOptions(e)) if e.field() == "stride.start_mode"),
        "{r:?}"
    );
    let mut bad_atol = OrbitOptions::default();
    bad_atol.stride.ode.atol = saltation_ode::Atol::Vector(vec![1e-12]);
    let r = find_periodic_orbit(&model, &[2.0], &bad_atol);
    assert!(
        matches!(&r, Err(OrbitError::InvalidOptions(e)) if e.field() == "stride.ode.atol"),
        "{r:?}"
    );
    let lapack = OrbitOptions {
        eigen: EigenBackend::Lapack,
        ..Default::default()
    };
    let r = find_periodic_orbit(&model, &[2.0], &lapack);
    if cfg!(feature = "lapack") {
        assert!(r.is_ok(), "{r:?}");
    } else {
        assert_eq!(
            r,
            Err(OrbitError::InvalidOptions(
                OrbitOptionsError::EigenBackend {
                    backend: EigenBackend::Lapack
                }
            ))
        );
    }
    // The finite-difference entry point checks its stride options too.
    let bad = StrideOptions {
        t_max: f64::NAN,
        ..Default::default()
    };
    let r = stride_jacobian_fd(&model, &[2.0, 0.0], 1e-5, &bad);
    assert!(
        matches!(&r, Err(OrbitError::InvalidOptions(e)) if e.field() == "stride.t_max"),
        "{r:?}"
    );
    // A wrong length is an error, not a panic.
    let mut map = StrideMap::new(&model, StrideOptions::default()).unwrap();
    assert!(matches!(
        reduced_map(&mut map, &[1.0, 2.0]),
        Err(HybridError::DimensionMismatch { .. })
    ));
    assert!(map.eval(&[2.0, 0.0], JacobianKind::None).is_ok());
    assert!(matches!(
        find_periodic_orbit(&model, &[1.0, 2.0], &OrbitOptions::default()),
        Err(OrbitError::GuessLength {
            expected: 1,
            got: 2
        })
    ));
}

/// Van der Pol with a chart that contradicts the flow: the section is `y = 0` (the guard), but
/// the chart puts the state at `(u, −0.1)`, just past the maximum. `π(P(χ(u))) = u` still has a root (the maximum of `x`
/// reached from `(u, −0.1)` after one turn equals `u`), but the stride ends at `y = 0`, not at the chart's
/// `y = −0.1`: no periodic orbit.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct OffChart;

impl saltation_hybrid::HybridModel for OffChart {
    type Guard = crate::models::van_der_pol::Section;
    fn name(&self) -> &str {
        "van_der_pol_off_chart"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[saltation_hybrid::Param] {
        crate::models::van_der_pol::PARAMS
    }
    fn flow<D: saltation_hybrid::Scalar>(&self, p: &[D], m: usize, t: f64, x: &[D], dx: &mut [D]) {
        VanDerPol.flow(p, m, t, x, dx)
    }
    fn guards(&self, m: usize) -> &[Self::Guard] {
        VanDerPol.guards(m)
    }
    fn describe(&self, m: usize, g: Self::Guard) -> saltation_hybrid::GuardSpec {
        VanDerPol.describe(m, g)
    }
    fn guard<D: saltation_hybrid::Scalar>(&self, p: &[D], m: usize, g: Self::Guard, x: &[D]) -> D {
        VanDerPol.guard(p, m, g, x)
    }
    fn reset<D: saltation_hybrid::Scalar>(
        &self,
        p: &[D],
        m: usize,
        g: Self::Guard,
        x: &[D],
        out: &mut [D],
    ) {
        VanDerPol.reset(p, m, g, x, out)
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    /// `χ(u) = (u, −0.1)`: off the section `y = 0`.
    fn chart<D: saltation_hybrid::Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x[0] = u[0];
        x[1] = D::from(-0.1);
    }
    fn project<D: saltation_hybrid::Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[0];
    }
}

#[test]
fn a_chart_contradicting_the_flow_is_not_an_orbit() {
    use saltation_hybrid::HybridModel as _;
    let _ = OffChart.name();
    let model = Bound::with_values(OffChart, vec![1.0]).unwrap();
    let r = find_periodic_orbit(&model, &[2.0], &OrbitOptions::default());
    match &r {
        Err(OrbitError::Degenerate {
            reason:
                Degeneracy::ChartMismatch {
                    mismatch,
                    component,
                    resolution,
                },
            ..
        }) => {
            // x₁ = (u*, 0) and χ(π(x₁)) = (u*, −0.1).
            assert!((mismatch - 0.1).abs() < 1e-9, "{mismatch}");
            assert_eq!(*component, 1);
            assert!(*resolution < 1e-5, "{resolution}");
        }
        other => panic!("expected ChartMismatch, got {other:?}"),
    }
    let text = r.unwrap_err().to_string();
    assert!(text.contains("chart"), "{text}");
    // The consistent chart of the same oscillator passes the check.
    assert!(find_periodic_orbit(&vdp(), &[2.0], &OrbitOptions::default()).is_ok());
}
