//! Multiple shooting on the compass-gait biped: a gait with a multiplier above `1e8` that
//! single shooting cannot converge (its residual is the integration error amplified by the
//! stride) converges by multiple shooting, and its multipliers, down to `1e-31`, agree with an
//! independent value: the `k`-th powers of the one-step gait's multipliers, found by single
//! shooting on one step (well conditioned). Single and multiple shooting agree on a stable gait.

use crate::models::compass_gait::{biped, CompassGait, PHI};
use saltation_hybrid::Bound;
use saltation_orbit::{
    find_periodic_orbit, Multiplier, OrbitError, OrbitOptions, PeriodicOrbit, Segments, Shooting,
};

fn at_slope(degrees: f64) -> Bound<CompassGait> {
    let base = biped();
    let mut values = base.values().to_vec();
    values[PHI] = degrees.to_radians();
    Bound::with_values(CompassGait, values).unwrap()
}

fn with(o: &OrbitOptions, shooting: Shooting) -> OrbitOptions {
    OrbitOptions {
        shooting,
        ..o.clone()
    }
}

fn multiple(segments: Segments) -> Shooting {
    Shooting::Multiple { segments }
}

/// `k` steps per stride.
fn steps(k: usize) -> OrbitOptions {
    let mut o = OrbitOptions::default();
    o.stride.events_per_stride = k;
    o.stride.t_max = 100.0;
    o
}

/// `|a − b| ≤ tol·|b|`, componentwise for complex numbers.
fn close(a: &Multiplier, b: (f64, f64), tol: f64) -> bool {
    let (re, im) = b;
    let scale = (re * re + im * im).sqrt();
    ((a.re - re).powi(2) + (a.im - im).powi(2)).sqrt() <= tol * scale
}

/// The one-step gait at `degrees` by single shooting.
fn one_step(model: &Bound<CompassGait>) -> PeriodicOrbit {
    find_periodic_orbit(model, &[0.29, -0.3, -1.4], &steps(1)).unwrap()
}

#[test]
fn a_gait_with_a_multiplier_above_1e8_converges_by_multiple_shooting_only() {
    // At φ = 5.5° the period-1 gait is past its period doubling (4.39°): multipliers −1.947,
    // −0.141, 0.091 and 0. Thirty steps per stride: −1.947³⁰ ≈ 4.8e8.
    let model = at_slope(5.5);
    let gait = one_step(&model);
    let k = 30;
    let mu1 = &gait.multipliers;
    assert!(mu1[0].modulus() > 1.9 && mu1[0].re < 0.0, "{mu1:?}");
    // A guess off the gait by 1e-12: the stride from it ends 5e-4 off the gait (further, and
    // it comes near the period-2 gait born at 4.39°, to which Newton may then converge).
    let guess: Vec<f64> = gait.u0.iter().map(|v| v + 1e-12).collect();

    let single = find_periodic_orbit(&model, &guess, &steps(k));
    assert!(
        matches!(single, Err(OrbitError::Newton(_))),
        "single shooting should fail: {single:?}"
    );

    for segments in [Segments::Phases, Segments::PerMode(2)] {
        let opts = with(&steps(k), multiple(segments));
        let orbit = find_periodic_orbit(&model, &guess, &opts).unwrap();
        assert!(orbit.newton_iterations >= 1);
        assert!(orbit.residual <= 1e-12, "{}", orbit.residual);
        for (a, b) in orbit.u0.iter().zip(&gait.u0) {
            assert!((a - b).abs() < 1e-11, "{:?} vs {:?}", orbit.u0, gait.u0);
        }
        assert!((orbit.period - k as f64 * gait.period).abs() < 1e-10 * orbit.period);
        assert_eq!(orbit.events.len(), k);
        // The multipliers: μ_i³⁰ of the one-step gait's (independent: single shooting on one
        // step, whose multipliers carry ~1e-13 relative error, 30 times that in the power).
        let mu = &orbit.multipliers;
        assert!(mu[0].modulus() > 1e8, "{mu:?}");
        for i in 0..3 {
            let want = nalgebra::Complex::new(mu1[i].re, mu1[i].im).powu(k as u32);
            assert!(
                close(&mu[i], (want.re, want.im), 1e-9),
                "{segments:?}: multiplier {i}: {:?} vs {want}",
                mu[i]
            );
        }
        // The smallest nontrivial one is 0.091³⁰ ≈ 6e-32, twenty-three orders below the
        // product's roundoff (1e-16 · 4.8e8): the formed product's eigenvalues lose it.
        assert!(mu[2].modulus() < 1e-30);
        let dense = saltation_orbit::eigenvalues(&orbit.jacobian).unwrap();
        let want2 = mu1[2].re.powi(k as i32);
        assert!((dense[2].re - want2).abs() > 1e3 * want2.abs(), "{dense:?}");
        assert!(!orbit.stable);
    }
}

#[test]
fn single_and_multiple_shooting_agree_on_the_stable_gait() {
    // φ = 3°, two steps per stride (two segments per stride with Phases, eight with PerMode(4)).
    let model = at_slope(3.0);
    // A guess 1e-3 off the gait (from the published guess, the second step falls).
    let guess: Vec<f64> = one_step(&model).u0.iter().map(|v| v + 1e-3).collect();
    for k in [1, 2] {
        let single = find_periodic_orbit(&model, &guess, &steps(k)).unwrap();
        for segments in [Segments::Phases, Segments::PerMode(4)] {
            let opts = with(&steps(k), multiple(segments));
            let orbit = find_periodic_orbit(&model, &guess, &opts)
                .unwrap_or_else(|e| panic!("{k} {segments:?}: {e:?}"));
            assert!(orbit.newton_iterations >= 1);
            for (a, b) in orbit.u0.iter().zip(&single.u0) {
                assert!((a - b).abs() < 1e-10, "{:?} vs {:?}", orbit.u0, single.u0);
            }
            assert!((orbit.period - single.period).abs() < 1e-10);
            for (a, b) in orbit.multipliers.iter().zip(&single.multipliers) {
                assert!(
                    (a.re - b.re).abs() < 1e-10 && (a.im - b.im).abs() < 1e-10,
                    "{k} {segments:?}: {:?} vs {:?}",
                    orbit.multipliers,
                    single.multipliers
                );
            }
            assert!((&orbit.jacobian - &single.jacobian).amax() < 1e-9);
            assert_eq!(orbit.stable, single.stable);
            assert_eq!(orbit.events.len(), single.events.len());
        }
    }
}

/// The exact test: ten kicks of a linear model whose stride Jacobian is
/// `S diag(1e10, 1e-6) S⁻¹` (and 0 for its clock). Single shooting's residual carries the
/// rounding of `1e10·u` and cannot reach `ftol`; multiple shooting finds `(I − D)⁻¹ b` and the
/// multipliers `1e10`, `1e-6`, `0`.
#[test]
fn ten_linear_kicks_have_multipliers_1e10_and_1e_6() {
    use crate::models::linear_kicks::{fixed_point, LinearKicks};
    let model = Bound::with_values(LinearKicks, vec![]).unwrap();
    let exact = fixed_point();
    let guess = [exact[0] + 1e-3, exact[1] - 2e-3];
    let k = 10;
    // Single shooting either fails or stops on its step test with a residual far above ftol
    // (the rounding of 1e10·u lies along the expanding direction, where it moves u by 1e-17)
    // and a small multiplier from the formed P_x that misses 1e-6 (measured: 1.43e-6).
    match find_periodic_orbit(&model, &guess, &steps(k)) {
        Err(OrbitError::Newton(_)) => {}
        Ok(o) => {
            assert!(o.residual > 1e-9, "{}", o.residual);
            assert!(
                (o.multipliers[1].re - 1e-6).abs() > 0.1 * 1e-6,
                "{:?}",
                o.multipliers
            );
        }
        Err(e) => panic!("{e:?}"),
    }
    let orbit =
        find_periodic_orbit(&model, &guess, &with(&steps(k), multiple(Segments::Phases))).unwrap();
    for (a, b) in orbit.u0.iter().zip(&exact) {
        assert!(
            (a - b).abs() < 1e-13 * b.abs().max(1.0),
            "{:?} vs {exact:?}",
            orbit.u0
        );
    }
    assert!((orbit.period - k as f64).abs() < 1e-12);
    let mu = &orbit.multipliers;
    assert!(close(&mu[0], (1e10, 0.0), 1e-13), "{mu:?}");
    assert!(close(&mu[1], (1e-6, 0.0), 1e-12), "{mu:?}");
    assert!(mu[2].modulus() < 1e-20, "{mu:?}");
    // The formed product's small eigenvalue is off by far more than 1e-6 itself.
    let dense = saltation_orbit::eigenvalues(&orbit.jacobian).unwrap();
    assert!((dense[1].norm() - 1e-6).abs() > 1e-2 * 1e-6, "{dense:?}");
}
