//! Reference tests with the compass-gait biped (Goswami, Thuilot & Espiau 1998): the model
//! itself (energy, impact, heel-strike geometry), its stable gait at φ = 3° against the published
//! values and against a second method, and the Newton defects it exposed — a divergence reported
//! at a converged point, residuals and multipliers from the coarse stride, a fall at a trial
//! point ending the solve.

use crate::models::compass_gait::{
    biped, energy, masses, swing_foot, CompassGait, Contact, GUARDS, PHI,
};
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::{Bound, EvalModel, HybridError, JacobianKind, StrideMap, StrideOptions};
use saltation_orbit::{
    find_periodic_orbit, multipliers_of, norm2, reduced_map, reduced_residual, solve,
    stride_jacobian_fd, NewtonError, NewtonOptions, OrbitError, OrbitOptions, PeriodicOrbit,
    SquareSystem,
};
use std::cell::RefCell;

/// The guess of the defect report: `u = [θ_s, θ̇_ns, θ̇_s]`.
const GUESS: [f64; 3] = [0.29, -0.3, -1.4];

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

fn stable_gait(model: &Bound<CompassGait>) -> PeriodicOrbit {
    find_periodic_orbit(model, &GUESS, &OrbitOptions::default()).unwrap()
}

fn tight(tol: f64) -> StrideOptions {
    let mut o = StrideOptions::default();
    o.ode.rtol = tol;
    o.ode.atol = saltation_ode::Atol::Scalar(tol);
    o
}

/// Classical RK4 step of the swing-phase flow (a second integrator, independent of
/// saltation-ode).
fn rk4(model: &Bound<CompassGait>, x: &[f64; 4], h: f64) -> [f64; 4] {
    let f = |y: &[f64; 4]| {
        let mut d = [0.0; 4];
        model.flow(0, 0.0, y, &mut d);
        d
    };
    let add = |y: &[f64; 4], k: &[f64; 4], s: f64| std::array::from_fn(|i| y[i] + s * k[i]);
    let k1 = f(x);
    let k2 = f(&add(x, &k1, h / 2.0));
    let k3 = f(&add(x, &k2, h / 2.0));
    let k4 = f(&add(x, &k3, h));
    std::array::from_fn(|i| x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]))
}

/// Planar cross product `p × v` (z component).
fn cross(p: [f64; 2], v: [f64; 2]) -> f64 {
    p[0] * v[1] - p[1] * v[0]
}

#[test]
fn swing_phase_conserves_energy() {
    // The equations of motion are Lagrange's for the energy in `compass_gait::energy`: along the
    // flow E is constant. RK4 with h = 1e-4 over 0.7 s: energy error ~ h⁴.
    let model = biped();
    let mut x = [-0.3234, 0.2187, -0.3772, -1.0918];
    let e0 = energy(&model, &x);
    for _ in 0..7000 {
        x = rk4(&model, &x, 1e-4);
    }
    assert!((energy(&model, &x) - e0).abs() < 1e-10 * e0.abs(), "{x:?}");
    // It did swing: the swing leg is now in front.
    assert!(x[0] > 0.2 && x[1] < -0.2, "{x:?}");
}

#[test]
fn impact_conserves_angular_momenta_and_swaps_the_legs() {
    let model = biped();
    let phi = model.values()[PHI];
    for (theta_ns, w_ns, w_s) in [(0.25, 1.3, -1.1), (0.3, -0.4, -2.0), (0.1, 2.0, 0.5)] {
        // A pre-impact state on the heel-strike surface, swing leg in front.
        let xm = [theta_ns, -2.0 * phi - theta_ns, w_ns, w_s];
        assert!(model.guard(0, 0, &xm).abs() < 1e-15);
        let foot = swing_foot(&model, &xm);
        assert!(
            (foot[1] - foot[0] * phi.tan()).abs() < 1e-15,
            "on the slope"
        );
        let mut xp = [0.0; 4];
        model.reset(0, 0, &xm, &mut xp);
        let before = masses(&model, &xm);
        let after = masses(&model, &xp);
        // Positions are continuous: the new stance foot is the old swing foot, the old stance
        // leg's mass is the new swing leg's.
        for (b, a) in [(0, 2), (1, 1), (2, 0)] {
            for (k, f) in foot.iter().enumerate() {
                assert!((before[b].1[k] - (after[a].1[k] + f)).abs() < 1e-15);
            }
        }
        // Whole biped about the impact point.
        let l_before: f64 = before
            .iter()
            .map(|(m, p, v)| m * cross([p[0] - foot[0], p[1] - foot[1]], *v))
            .sum();
        let l_after: f64 = after.iter().map(|(m, p, v)| m * cross(*p, *v)).sum();
        assert!((l_before - l_after).abs() < 1e-13, "{l_before} {l_after}");
        // Trailing leg about the hip.
        let rel = |mass: (f64, [f64; 2], [f64; 2]), hip: (f64, [f64; 2], [f64; 2])| {
            mass.0 * cross([mass.1[0] - hip.1[0], mass.1[1] - hip.1[1]], mass.2)
        };
        let h_before = rel(before[0], before[1]);
        let h_after = rel(after[2], after[1]);
        assert!((h_before - h_after).abs() < 1e-13, "{h_before} {h_after}");
    }
}

#[test]
fn stable_gait_matches_the_published_one() {
    // Goswami et al. (1998) give the stable gait of this biped at φ = 3° as the post-impact state
    // θ = (θ_ns, θ_s) = (−0.3234, 0.2187), θ̇ = (−0.3772, −1.0918) rad, rad/s. Their four digits
    // are reproduced with g = 9.8 m/s².
    let m98 = Bound::with_named(CompassGait, [("g", 9.8)]).unwrap();
    let o98 = stable_gait(&m98);
    let published = [-0.3234, 0.2187, -0.3772, -1.0918];
    for (x, p) in o98.x0.iter().zip(published) {
        assert!((x - p).abs() <= 0.5e-4, "{:?} vs {published:?}", o98.x0);
    }
    assert!(o98.stable);
    // g only scales time: with g = 9.81 angles, multipliers are the same and velocities scale by
    // √(9.81/9.8), the period by √(9.8/9.81).
    let o = stable_gait(&biped());
    let s = (9.81f64 / 9.8).sqrt();
    assert!((o.u0[0] - o98.u0[0]).abs() < 1e-11);
    assert!((o.u0[1] - s * o98.u0[1]).abs() < 1e-11);
    assert!((o.u0[2] - s * o98.u0[2]).abs() < 1e-11);
    assert!((o.period - o98.period / s).abs() < 1e-11);
    for (a, b) in o.multipliers.iter().zip(&o98.multipliers) {
        assert!((a.re - b.re).abs() < 1e-9 && (a.im - b.im).abs() < 1e-9);
    }
    // Stable: a complex pair of modulus 0.58, a real multiplier 0.13 and the zero the reset
    // collapses (the impact fixes θ_ns + θ_s).
    let modulus: Vec<f64> = o.multipliers.iter().map(|m| m.modulus()).collect();
    assert!(
        (modulus[0] - 0.58).abs() < 0.01 && modulus[0] == modulus[1],
        "{modulus:?}"
    );
    assert!(
        (o.multipliers[2].re - 0.1316).abs() < 1e-3,
        "{:?}",
        o.multipliers
    );
    assert!(modulus[3] < 1e-12, "{modulus:?}");
    // The heel strike that ends the stride is on the slope.
    let xm = &o.events[0].x_minus;
    let foot = swing_foot(&biped(), xm);
    assert!((foot[1] - foot[0] * 3f64.to_radians().tan()).abs() < 1e-12);
}

#[test]
fn fixed_point_agrees_with_iterating_the_stride_map() {
    // Second method: the gait is stable, so P^k(u) converges to it (rate |μ| = 0.58); iterate
    // the stride map itself (no Newton, no Jacobian) at a tighter tolerance.
    let model = biped();
    let orbit = stable_gait(&model);
    let mut map = StrideMap::new(&model, tight(1e-13)).unwrap();
    let mut u: Vec<f64> = orbit.u0.iter().map(|x| x + 1e-3).collect();
    let mut change = f64::INFINITY;
    for _ in 0..200 {
        let next = reduced_map(&mut map, &u).unwrap();
        change = (&next - DVector::from_column_slice(&u)).norm();
        u = next.as_slice().to_vec();
        if change < 1e-15 {
            break;
        }
    }
    assert!(change < 1e-14, "{change}");
    let diff: Vec<f64> = u.iter().zip(&orbit.u0).map(|(a, b)| a - b).collect();
    // Integration error ~1e-12 (Newton's strides) amplified by ‖(I − P_u)⁻¹‖ ≈ 1/(1 − 0.58).
    assert!(norm(&diff) < 1e-11, "{diff:?}");
}

#[test]
fn stride_jacobian_agrees_with_central_differences() {
    let model = biped();
    let orbit = stable_gait(&model);
    // At tolerance 1e-13 the central differences' error is their truncation error C·h² (the
    // integration noise ~1e-13/h is far smaller): halving h divides it by 4, and Richardson
    // extrapolation (4 J(h/2) − J(h))/3 removes it, leaving O(h⁴) and the noise.
    let opts = tight(1e-13);
    let (h1, h2) = (2e-5, 1e-5);
    let fd1 = stride_jacobian_fd(&model, &orbit.x0, h1, &opts).unwrap();
    let fd2 = stride_jacobian_fd(&model, &orbit.x0, h2, &opts).unwrap();
    let e1 = (&fd1 - &orbit.jacobian).amax();
    let e2 = (&fd2 - &orbit.jacobian).amax();
    assert!((3.9..4.1).contains(&(e1 / e2)), "{e1:e} {e2:e}");
    let richardson = (&fd2 * 4.0 - &fd1) / 3.0;
    let err = (&richardson - &orbit.jacobian).amax();
    assert!(err < 1e-8, "{err:e}\n{richardson}\n{}", orbit.jacobian);
}

/// Newton from the report's guess, with the default options (coarse strides at first), used to
/// stop with "Newton diverged at iteration 4 (residual 4.1e-11)" at an iterate that is the orbit
/// to 1e-11: the line search compared a coarse residual with a fine one. The reported residual,
/// Jacobian and multipliers must come from a stride at the requested tolerance.
#[test]
fn newton_converges_at_the_requested_tolerance_from_the_reported_guess() {
    let model = biped();
    let opts = OrbitOptions::default();
    let orbit = find_periodic_orbit(&model, &GUESS, &opts).unwrap();
    assert!(orbit.residual <= opts.newton.ftol * norm(&orbit.u0).max(1.0));
    // A fresh stride at the requested tolerance from the solution gives the same numbers.
    let mut fine = StrideMap::new(&model, opts.stride.clone()).unwrap();
    let (f, _, res) = reduced_residual(&mut fine, &orbit.u0).unwrap();
    assert_eq!(orbit.residual, norm2(f.as_slice()));
    let jac = res.jacobian.unwrap();
    assert_eq!(orbit.jacobian, jac);
    assert_eq!(orbit.multipliers, multipliers_of(&jac, opts.eigen).unwrap());
    assert_eq!(orbit.period, res.period);
    // The coarse stride (tolerance 1e-9) at the same point is measurably different, so the
    // equalities above say which stride the numbers came from.
    let mut coarse = StrideMap::new(&model, tight(1e-9)).unwrap();
    let (fc, _, rc) = reduced_residual(&mut coarse, &orbit.u0).unwrap();
    assert!(
        (fc.norm() - f.norm()).abs() > 1e-13,
        "{} {}",
        fc.norm(),
        f.norm()
    );
    assert!((rc.jacobian.unwrap() - &jac).amax() > 1e-12);

    // With ftol = 1e-10 the old code stopped on the coarse residual 4.1e-11 and reported it.
    let loose = OrbitOptions {
        newton: NewtonOptions {
            ftol: 1e-10,
            ..Default::default()
        },
        ..Default::default()
    };
    let o = find_periodic_orbit(&model, &GUESS, &loose).unwrap();
    let (f, _, res) = reduced_residual(&mut fine, &o.u0).unwrap();
    assert_eq!(o.residual, norm2(f.as_slice()));
    assert_eq!(o.jacobian, res.jacobian.unwrap());
    assert!(o.residual <= 1e-10 * norm(&o.u0).max(1.0));

    // Restarting from the iterate where the old code reported divergence (it failed there at
    // iteration 0) converges to the same gait.
    let old_stop = [
        0.21866880294515562,
        -0.3773739489239464,
        -1.0923835899106384,
    ];
    let again = find_periodic_orbit(&model, &old_stop, &opts).unwrap();
    let diff: Vec<f64> = again.u0.iter().zip(&orbit.u0).map(|(a, b)| a - b).collect();
    assert!(norm(&diff) < 1e-12, "{diff:?}");
}

/// The reduced residual at the requested tolerance as a [`SquareSystem`], to look at Newton's
/// report.
struct Fine<'a>(RefCell<StrideMap<'a, Bound<CompassGait>>>);

impl SquareSystem for Fine<'_> {
    type Error = HybridError;
    fn dim(&self) -> usize {
        3
    }
    fn eval(&self, u: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), HybridError> {
        let (f, j, _) = reduced_residual(&mut self.0.borrow_mut(), u.as_slice())?;
        Ok((f, j))
    }
}

fn fell(e: &HybridError) -> bool {
    matches!(e, HybridError::Failure { guard, .. } if GUARDS[*guard] == Contact::Fall)
}

#[test]
fn a_fall_at_a_trial_point_shrinks_the_step() {
    // From this guess Newton's second full step makes the walker fall (the old code ended the
    // solve there with the fall); half that step does not, and Newton converges to the
    // unstable short-step gait.
    let model = biped();
    let guess = DVector::from_vec(vec![0.2, 0.1, -1.2]);
    let sys = Fine(RefCell::new(
        StrideMap::new(&model, StrideOptions::default()).unwrap(),
    ));
    let rep = solve(&sys, &guess, &NewtonOptions::default()).unwrap();
    assert_eq!(rep.failed_trials, 1);
    assert_eq!(rep.dampings[1], 0.5);
    // The full step from the first iterate falls indeed.
    let one = NewtonOptions {
        max_iters: 1,
        ..Default::default()
    };
    let Err(NewtonError::MaxIterations { iterate: u1, .. }) = solve(&sys, &guess, &one) else {
        panic!("one step only");
    };
    let (f1, j1) = sys.eval(&u1).unwrap();
    let full = &u1 - j1.lu().solve(&f1).unwrap();
    let mut map = StrideMap::new(&model, StrideOptions::default()).unwrap();
    let r = reduced_map(&mut map, full.as_slice());
    assert!(matches!(&r, Err(e) if fell(e)), "{r:?}");
    // The same through find_periodic_orbit: an unstable gait (a real multiplier ≈ 4.3).
    let o = find_periodic_orbit(&model, guess.as_slice(), &OrbitOptions::default()).unwrap();
    let diff: Vec<f64> =
        o.u0.iter()
            .zip(rep.solution.iter())
            .map(|(a, b)| a - b)
            .collect();
    assert!(norm(&diff) < 1e-12, "{diff:?}");
    assert!(!o.stable);
    assert!(
        (o.multipliers[0].re - 4.29).abs() < 0.01,
        "{:?}",
        o.multipliers
    );
}

#[test]
fn a_guess_that_falls_is_blamed_on_the_guess() {
    let model = biped();
    let guess = [0.3, 0.0, -2.0];
    let mut map = StrideMap::new(&model, StrideOptions::default()).unwrap();
    let mut x = [0.0; 4];
    model.chart(&guess, &mut x);
    assert!(matches!(map.eval(&x, JacobianKind::None), Err(ref e) if fell(e)));
    let r = find_periodic_orbit(&model, &guess, &OrbitOptions::default());
    assert!(matches!(&r, Err(OrbitError::Hybrid(e)) if fell(e)), "{r:?}");
}
