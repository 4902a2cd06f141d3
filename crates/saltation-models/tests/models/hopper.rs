//! The hopper of Zana, Bodor, Bencsik & Zelei (2018): the constrained four-particle form
//! (built with the constrained-mechanics layer) against the hand-written minimal-coordinate
//! form, independence of the arbitrary mass splits, the generic saltation matrices against the
//! textbook formula with finite-difference ingredients, constraint drift, the impact energy
//! split and admissibility.

use nalgebra::DMatrix;
use saltation_hybrid::saltation::{saltation_matrix, Jump};
use saltation_hybrid::{simulate, Bound, EvalModel, SimulateOptions, StrideOptions};
use saltation_mechanics::{
    check_admissibility, AdmissibilityOptions, Constrained, ConstraintOptions, ContactReports,
    MechanicalSystem, ViolationKind,
};
use saltation_models::hopper::{
    stride_options, Hopper, HopperParams, HopperParticles, HopperUnconstrained, FLIGHT, GROUND,
};
use saltation_orbit::{find_periodic_orbit, stride_jacobian_fd, OrbitOptions, PeriodicOrbit};

/// Lift-off guess `(z_U, ż_U)` near the §4.2 gait.
const GUESS: [f64; 2] = [1.02, 1.7];

fn options(tol: f64) -> OrbitOptions {
    let mut o = OrbitOptions {
        stride: stride_options(tol, 20.0),
        ..OrbitOptions::default()
    };
    o.newton.ftol = 1e-13;
    o.newton.xtol = 1e-15;
    o
}

fn constrained(p: HopperParams, mu_u: f64, mu_l: f64) -> Bound<Hopper> {
    HopperParticles::bound(&p, mu_u, mu_l).unwrap()
}

fn unconstrained(p: HopperParams) -> Bound<HopperUnconstrained> {
    HopperUnconstrained::bound(&p).unwrap()
}

fn solve<M: EvalModel>(m: &M) -> PeriodicOrbit {
    find_periodic_orbit(m, &GUESS, &options(1e-14)).unwrap()
}

/// Touchdown time of a stride (the first event).
fn touchdown(o: &PeriodicOrbit) -> f64 {
    o.events[0].t
}

#[test]
fn constrained_equals_unconstrained() {
    for p in [
        HopperParams::default(),
        HopperParams {
            d_g: -60.0,
            ..HopperParams::default()
        },
    ] {
        let a = solve(&unconstrained(p));
        let b = solve(&constrained(p, 0.5, 0.5));
        let close = |x: f64, y: f64, what: &str| {
            assert!(
                (x - y).abs() <= 1e-12 * x.abs().max(1.0),
                "{what}: {x} vs {y}"
            )
        };
        close(a.u0[0], b.u0[0], "z_U at lift-off");
        close(a.u0[1], b.u0[1], "dz_U at lift-off");
        close(a.period, b.period, "period");
        close(touchdown(&a), touchdown(&b), "flight time");
        close(a.multipliers[0].re, b.multipliers[0].re, "multiplier");
        assert!(b.multipliers.len() == 2 && b.multipliers[1].modulus() < 1e-12);
        assert!(a.multipliers[1..].iter().all(|m| m.modulus() < 1e-12));
    }
}

#[test]
fn mass_splits_do_not_matter() {
    let p = HopperParams::default();
    let base = solve(&constrained(p, 0.5, 0.5));
    for (mu_u, mu_l) in [(0.1, 0.9), (0.9, 0.2), (0.3, 0.3)] {
        let o = solve(&constrained(p, mu_u, mu_l));
        for (x, y) in base.u0.iter().zip(&o.u0).chain([(&base.period, &o.period)]) {
            assert!((x - y).abs() <= 1e-12, "({mu_u}, {mu_l}): {x} vs {y}");
        }
        let (x, y) = (base.multipliers[0].re, o.multipliers[0].re);
        assert!(
            (x - y).abs() <= 1e-12,
            "({mu_u}, {mu_l}): multiplier {x} vs {y}"
        );
    }
}

/// Central difference of a vector function of `x` (row-major m×n).
fn fd_jacobian(n: usize, m: usize, x: &[f64], f: impl Fn(&[f64], &mut [f64])) -> Vec<f64> {
    let mut jac = vec![0.0; m * n];
    let (mut fp, mut fm) = (vec![0.0; m], vec![0.0; m]);
    for j in 0..n {
        let h = 1e-6 * x[j].abs().max(1.0);
        let (mut xp, mut xm) = (x.to_vec(), x.to_vec());
        xp[j] += h;
        xm[j] -= h;
        f(&xp, &mut fp);
        f(&xm, &mut fm);
        for i in 0..m {
            jac[i * n + j] = (fp[i] - fm[i]) / (2.0 * h);
        }
    }
    jac
}

/// `S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)` written out with plain loops.
fn textbook_saltation(n: usize, gx: &[f64], hx: &[f64], fm: &[f64], fp: &[f64]) -> DMatrix<f64> {
    let gx = DMatrix::from_row_slice(n, n, gx);
    let hx = DMatrix::from_row_slice(1, n, hx);
    let fm = DMatrix::from_column_slice(n, 1, fm);
    let fp = DMatrix::from_column_slice(n, 1, fp);
    let hxf = (&hx * &fm)[(0, 0)];
    &gx + (fp - &gx * &fm) * hx / hxf
}

#[test]
fn saltation_matrices_are_the_textbook_formula() {
    let model = constrained(HopperParams::default(), 0.4, 0.7);
    let orbit = solve(&model);
    let n = model.dim();
    for e in &orbit.events {
        let x = &e.x_minus;
        // The layer's pieces by automatic differentiation, through the library's formula.
        let (mut gx, mut hx, mut fm, mut fp) =
            (vec![0.0; n * n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        model.reset_jacobian(e.mode, e.guard, x, &mut gx);
        model.guard_gradient(e.mode, e.guard, x, &mut hx);
        model.flow(e.mode, e.t, x, &mut fm);
        model.flow(e.target, e.t, &e.x_plus, &mut fp);
        let hxf: f64 = hx.iter().zip(&fm).map(|(a, b)| a * b).sum();
        let mut s = vec![0.0; n * n];
        let jump = Jump {
            gx: &gx,
            hx: &hx,
            f_minus: &fm,
            f_plus: &fp,
        };
        saltation_matrix(&jump, hxf, &mut s);
        // The same formula from finite differences of the model's f64 functions.
        let gx_fd = fd_jacobian(n, n, x, |y, out| model.reset(e.mode, e.guard, y, out));
        let hx_fd = fd_jacobian(n, 1, x, |y, out| out[0] = model.guard(e.mode, e.guard, y));
        let reference = textbook_saltation(n, &gx_fd, &hx_fd, &fm, &fp);
        let s = DMatrix::from_row_slice(n, n, &s);
        let err = (&s - &reference).amax() / reference.amax();
        assert!(
            err < 1e-7,
            "{} event: relative difference {err:e}",
            model.mode_name(e.mode)
        );
        // Lift-off has the identity reset but a new vector field: S ≠ I.
        if e.mode == GROUND {
            assert!((&s - DMatrix::identity(n, n)).amax() > 1e-3);
        }
        // The AD flow Jacobian agrees with finite differences too.
        let mut fx = vec![0.0; n * n];
        model.flow_jacobian(e.mode, e.t, x, &mut fx);
        let fx_fd = fd_jacobian(n, n, x, |y, out| model.flow(e.mode, e.t, y, out));
        for (a, b) in fx.iter().zip(&fx_fd) {
            assert!((a - b).abs() < 1e-4 * (1.0 + a.abs()), "{a} vs {b}");
        }
    }
}

#[test]
fn stride_jacobian_matches_central_differences() {
    for model in [
        constrained(HopperParams::default(), 0.5, 0.5),
        constrained(HopperParams::default(), 0.2, 0.8),
    ] {
        let o = solve(&model);
        let fd = stride_jacobian_fd(&model, &o.x0, 1e-6, &options(1e-13).stride).unwrap();
        let err = (&o.jacobian - &fd).amax() / o.jacobian.amax();
        assert!(err < 1e-6, "relative difference {err:e}");
    }
}

#[test]
fn constraint_residuals_stay_below_1e_10_over_an_orbit() {
    for baumgarte in [0.0, 10.0] {
        let section = MechanicalSystem::section(&HopperParticles).unwrap();
        let drift = ConstraintOptions { baumgarte };
        let model = Constrained::new(HopperParticles, drift, Some(section)).unwrap();
        let mut p = HopperParams::default().values().to_vec();
        p.extend([0.3, 0.6]);
        let model = Bound::with_values(model, p).unwrap();
        let o = solve(&model);
        let sim = SimulateOptions {
            stride: options(1e-13).stride,
            strides: 3,
            dt: Some(1e-3),
            ..SimulateOptions::default()
        };
        let trace = simulate(&model, &o.x0, &sim).unwrap();
        assert!(trace.failure.is_none());
        let mut worst = (0.0f64, 0.0f64);
        for (x, &mode) in trace.x.iter().zip(&trace.mode) {
            let (pos, vel) = model.constraint_residual(mode, x);
            worst = (worst.0.max(pos), worst.1.max(vel));
        }
        assert!(trace.x.len() > 1000);
        assert!(
            worst.0 < 1e-10 && worst.1 < 1e-10,
            "ω = {baumgarte}: {worst:?}"
        );
    }
}

#[test]
fn impact_energy_split_matches_the_two_block_model() {
    let p = HopperParams::default();
    let model = constrained(p, 0.35, 0.65);
    let o = solve(&model);
    let e = &o.events[0];
    assert_eq!((e.mode, e.target), (FLIGHT, GROUND));
    let split = model.impact_energy(e.mode, 0, &e.x_minus).unwrap();
    // Blocks move rigidly: ż1 = ż2 = ż_U, ż3 = ż4 = ż_L.
    let (vu, vl) = (e.x_minus[4], e.x_minus[7]);
    let kept = 0.5 * p.m_upper() * vu * vu;
    let lost = 0.5 * p.m_lower() * vl * vl;
    assert!((split.admissible - kept).abs() < 1e-12 * kept);
    assert!((split.lost - lost).abs() < 1e-12 * lost);
    assert!((split.total - split.admissible - split.lost).abs() < 1e-12 * split.total);
    // After the impact the lower block rests and the upper keeps its momentum: its particles
    // leave with the upper block's centre-of-mass velocity (equal to `ż_U` up to the
    // rounding-level drift of the rigid link that the integration leaves in `x⁻`).
    assert!(e.x_plus[6].abs() < 1e-15 && e.x_plus[7].abs() < 1e-15);
    let m = HopperParticles::masses(model.values());
    let v_cm = (m[0] * e.x_minus[4] + m[1] * e.x_minus[5]) / (m[0] + m[1]);
    assert!((e.x_plus[4] - v_cm).abs() < 1e-15 && (e.x_plus[5] - v_cm).abs() < 1e-15);
    assert!((e.x_minus[4] - e.x_minus[5]).abs() < 1e-13);
}

#[test]
fn the_gait_of_section_4_2_is_admissible() {
    let model = constrained(HopperParams::default(), 0.5, 0.5);
    let o = solve(&model);
    let stride = StrideOptions {
        ..options(1e-12).stride
    };
    let a = check_admissibility(&model, &o.x0, &stride, &AdmissibilityOptions::default()).unwrap();
    assert!(a.admissible, "{:?}", a.violation);
}

#[test]
fn a_pulling_contact_is_reported() {
    // Touchdown with the spring stretched by 0.5 m: right after the impact the ground would
    // have to hold the lower block down (λ = k·0.5 − m_L g > 0).
    let model = constrained(HopperParams::default(), 0.5, 0.5);
    let x0 = [1.501, 1.501, 0.001, 0.001, 0.0, 0.0, -5.0, -5.0];
    let stride = options(1e-12).stride;
    let a = check_admissibility(&model, &x0, &stride, &AdmissibilityOptions::default()).unwrap();
    assert!(!a.admissible);
    let v = a.violation.unwrap();
    assert_eq!((v.kind, v.mode.as_str()), (ViolationKind::Pulls, "ground"));
    assert!(v.value > 0.0 && v.t > 0.0);
}

#[test]
fn a_penetrating_contact_is_reported_at_the_start() {
    // The foot 0.1 m below the ground in flight, falling at 1 m/s: the gap condition fails at
    // once, and the orbit check reports the contact as penetrating with the gap itself, the
    // state where it fails, under the contact's name (the same checker as every model's).
    let model = constrained(HopperParams::default(), 0.5, 0.5);
    let x0 = [1.2, 1.2, -0.1, -0.1, -1.0, -1.0, -1.0, -1.0];
    let stride = options(1e-12).stride;
    let a = check_admissibility(&model, &x0, &stride, &AdmissibilityOptions::default()).unwrap();
    let v = a.violation.clone().unwrap();
    assert!(!a.admissible);
    assert_eq!(
        (v.kind, v.mode.as_str(), v.condition.as_str()),
        (ViolationKind::Penetrates, "flight", "foot")
    );
    assert!(v.t == 0.0 && v.state == x0, "{v:?}");
    // The lowest gap of the phase from there on: at most the starting −0.1.
    assert!(v.value <= -0.1, "{v:?}");
    // Through the model's face the same verdict.
    let b = model.admissibility(&x0, &stride).unwrap().unwrap();
    assert_eq!(a, b);
}

/// Cases for the closed-form comparison: parameters and a flight-time guess picking the orbit.
fn closed_form_cases() -> Vec<(HopperParams, f64)> {
    let p = HopperParams::default();
    vec![
        (p, 0.3),
        (HopperParams { d_g: -60.0, ..p }, 0.13),
        (HopperParams { d_g: -60.0, ..p }, 0.27),
        (
            HopperParams {
                mu: 0.95,
                d_g: -20.0,
                ..p
            },
            0.35,
        ),
    ]
}

#[test]
fn both_forms_agree_with_the_closed_form_solution() {
    use saltation_hybrid::{JacobianKind, StrideMap};
    use saltation_models::hopper::closed_form::periodic_orbit;
    for (p, t_guess) in closed_form_cases() {
        let exact = periodic_orbit(&p, t_guess).unwrap();
        // Start 1e-3 away from the exact lift-off state.
        let guess = [exact.liftoff[0] + 1e-3, exact.liftoff[2] - 1e-3];
        let un = unconstrained(p);
        let con = constrained(p, 0.3, 0.6);
        let opts = options(1e-14);
        let a = find_periodic_orbit(&un, &guess, &opts).unwrap();
        let b = find_periodic_orbit(&con, &guess, &opts).unwrap();
        // A stride integrated to ~1e-14 fixes the orbit to ~1e-14 / (1 − μ): the bound is 1e-12
        // for multipliers up to 0.5 (§4.2: 0.47) and grows with the conditioning of M − I
        // beyond (μ = 0.95, d_G = −20: μ = 0.97, 19e-12).
        let bound = 1e-12 * (0.5 / (1.0 - exact.multiplier)).max(1.0);
        let close = |x: f64, y: f64, what: &str| {
            let err = (x - y).abs() / y.abs().max(1.0);
            assert!(
                err <= bound,
                "{p:?} {what}: {x} vs closed form {y} ({err:e})"
            );
        };
        for o in [&a, &b] {
            close(o.u0[0], exact.liftoff[0], "z_U at lift-off");
            close(o.u0[1], exact.liftoff[2], "dz_U at lift-off");
            close(o.period, exact.period, "period");
            close(o.events[0].t, exact.t_flight, "flight time");
            close(o.multipliers[0].re, exact.multiplier, "multiplier");
        }
        // The paper's monodromy Φ̃ (fixed end time, product of flow Jacobians and both
        // saltation matrices) of the minimal-coordinate model.
        let mut map = StrideMap::new(&un, opts.stride.clone()).unwrap();
        let mono = map
            .eval(&a.x0, JacobianKind::Monodromy)
            .unwrap()
            .jacobian
            .unwrap();
        for i in 0..4 {
            for j in 0..4 {
                close(mono[(i, j)], exact.monodromy[i][j], &format!("Φ̃[{i},{j}]"));
            }
        }
        // The energy split at touchdown.
        let e = &b.events[0];
        let split = con.impact_energy(e.mode, 0, &e.x_minus).unwrap();
        close(
            split.lost / split.total,
            exact.energy.lost / exact.energy.total,
            "T_c/T",
        );
    }
}
