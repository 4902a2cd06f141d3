//! Checks of the closed-form periodic orbit: periodicity, the flight-time formulation, the
//! monodromy (trivial multiplier, saltation composition) and the reference numbers.

use super::tests::default_orbit;
use super::*;
use nalgebra::{Matrix4, Vector4};
use num_dual::Dual64;

#[test]
fn fixed_point_is_periodic_with_zero_multiplier_at_both_ends() {
    let p = HopperParams::default();
    let o = default_orbit(&p);
    let s = stride(&p, o.liftoff).unwrap();
    let mg = p.m * p.g;
    for i in 0..4 {
        assert!((s.end[i] - o.liftoff[i]).abs() <= 1e-12 * (1.0 + o.liftoff[i].abs()));
    }
    assert!(contact_multiplier(&p, o.liftoff).abs() <= 1e-12 * mg);
    assert!(contact_multiplier(&p, s.end).abs() <= 1e-12 * mg);
    assert!((o.period - o.t_flight - o.t_ground).abs() <= 1e-15);
    assert!((o.energy.total - o.energy.kept - o.energy.lost).abs() <= 1e-12 * o.energy.total);
    assert!(o.apex_upper.height > o.liftoff[0] && o.apex_lower.height > 0.0);
    assert!(o.apex_upper.time < o.t_flight && o.apex_lower.time < o.t_flight);
    // The same fixed point from other flight-time guesses.
    for t in [0.8 * o.t_flight, 0.95 * o.t_flight, 1.1 * o.t_flight] {
        let v = periodic_orbit(&p, t).unwrap().liftoff[2];
        assert!(
            (v - o.liftoff[2]).abs() <= 1e-14 * v,
            "{v} vs {}",
            o.liftoff[2]
        );
    }
}

#[test]
fn flight_time_formulation_recovers_d_g() {
    let p = HopperParams::default();
    let o = default_orbit(&p);
    let base = HopperParams { d_g: -70.0, ..p };
    for guess in [
        None,
        Some(LiftoffGuess {
            d_g: -70.0,
            zu_dot: 1.7,
        }),
    ] {
        let (d_g, o2) = periodic_orbit_at_flight_time(&base, o.t_flight, guess).unwrap();
        assert!((d_g + 80.0).abs() <= 1e-10, "d_G = {d_g}");
        assert!((o2.liftoff[2] - o.liftoff[2]).abs() <= 1e-12 * o.liftoff[2]);
        assert!((o2.multiplier - o.multiplier).abs() <= 1e-10);
    }
}

fn eigenvalues(m: &[[f64; 4]; 4]) -> Vec<(f64, f64)> {
    let a = Matrix4::from_fn(|i, j| m[i][j]);
    a.complex_eigenvalues()
        .iter()
        .map(|z| (z.re, z.im))
        .collect()
}

#[test]
fn monodromy_has_the_trivial_and_the_nontrivial_multiplier() {
    for p in [
        HopperParams::default(),
        HopperParams {
            d_g: -60.0,
            ..Default::default()
        },
    ] {
        for t in flight_time_guesses(&p).unwrap() {
            let o = periodic_orbit(&p, t).unwrap();
            let ev = eigenvalues(&o.monodromy);
            let near = |z: f64| {
                ev.iter()
                    .map(|e| (e.0 - z).hypot(e.1))
                    .fold(f64::MAX, f64::min)
            };
            assert!(near(1.0) <= 1e-10, "{ev:?}");
            assert!(near(o.multiplier) <= 1e-10, "{ev:?} vs {}", o.multiplier);
            // The flow direction is the eigenvector of 1: Φ f_F(x0) = f_F(x0).
            let c = Coeffs::<f64>::new(&p);
            let a = c.flight_accel(&o.liftoff);
            let f = [o.liftoff[2], o.liftoff[3], a[0], a[1]];
            for (i, row) in o.monodromy.iter().enumerate() {
                let phi_f: f64 = (0..4).map(|j| row[j] * f[j]).sum();
                assert!((phi_f - f[i]).abs() <= 1e-10 * (1.0 + f[i].abs()));
            }
            let [l1, l2] = o.jacobian_eigenvalues;
            assert!((l1[0] - o.multiplier).abs() <= 1e-12 && l1[1] == 0.0);
            assert!(l2[0].abs() <= 1e-12 && l2[1] == 0.0);
        }
    }
}

/// Jacobian of `f` at `x` by dual numbers.
fn jac(f: impl Fn([Dual64; 4]) -> [Dual64; 4], x: [f64; 4]) -> Matrix4<f64> {
    let mut m = Matrix4::zeros();
    for j in 0..4 {
        let y = f(std::array::from_fn(|i| {
            Dual64::new(x[i], (i == j) as u8 as f64)
        }));
        for i in 0..4 {
            m[(i, j)] = y[i].eps;
        }
    }
    m
}

/// Saltation matrix `S = R + (f⁺ − R f⁻) h_xᵀ / (h_x · f⁻)`.
fn saltation(
    r: Matrix4<f64>,
    f_minus: Vector4<f64>,
    f_plus: Vector4<f64>,
    h_x: Vector4<f64>,
) -> Matrix4<f64> {
    r + (f_plus - r * f_minus) * h_x.transpose() / h_x.dot(&f_minus)
}

/// The monodromy equals the composition `S_GF Φ_G(t_G) S_FG Φ_F(t_F)` of fixed-time flow
/// Jacobians and saltation matrices, built here from the vector fields alone.
#[test]
fn monodromy_is_the_saltation_composition() {
    for p in [
        HopperParams::default(),
        HopperParams {
            d_g: -60.0,
            ..Default::default()
        },
    ] {
        let c = Coeffs::<f64>::new(&p);
        let f_flight = |x: &[f64; 4]| {
            let a = c.flight_accel(x);
            Vector4::new(x[2], x[3], a[0], a[1])
        };
        let f_ground = |x: &[f64; 4]| {
            let a = -p.g - (p.k * (x[0] - x[1] - p.l0) + p.d_g * (x[2] - x[3])) / p.m_upper();
            Vector4::new(x[2], x[3], a, 0.0)
        };
        for t in flight_time_guesses(&p).unwrap() {
            let o = periodic_orbit(&p, t).unwrap();
            let s = stride(&p, o.liftoff).unwrap();
            let phi_f = jac(|x| flight_state(&p, x, Dual64::from(o.t_flight)), o.liftoff);
            let phi_g = jac(
                |x| ground_state(&p, x, Dual64::from(o.t_ground)),
                s.post_impact,
            );
            let r = Matrix4::from_diagonal(&Vector4::new(1.0, 1.0, 1.0, 0.0));
            let s_fg = saltation(
                r,
                f_flight(&s.pre_impact),
                f_ground(&s.post_impact),
                Vector4::y(),
            );
            let lambda_x = Vector4::new(p.k, -p.k, p.d_g, -p.d_g);
            let s_gf = saltation(
                Matrix4::identity(),
                f_ground(&s.end),
                f_flight(&s.end),
                lambda_x,
            );
            let composed = s_gf * phi_g * s_fg * phi_f;
            let mono = Matrix4::from_fn(|i, j| o.monodromy[i][j]);
            let err = (composed - mono).abs().max() / mono.abs().max();
            assert!(err <= 1e-12, "{err:e}");
        }
    }
}

fn print_orbit(label: &str, o: &ClosedFormOrbit) {
    let e = &o.energy;
    println!(
        "== {label}: d_G = {:?}, mu = {:?}",
        o.params.d_g, o.params.mu
    );
    println!("lift-off {:?}", o.liftoff);
    println!("t_F {:?} t_G {:?} T {:?}", o.t_flight, o.t_ground, o.period);
    println!("touchdown {:?}", o.touchdown);
    println!("multiplier {:?}", o.multiplier);
    println!("M {:?} eig {:?}", o.jacobian, o.jacobian_eigenvalues);
    println!("monodromy {:?}", o.monodromy);
    println!("monodromy eig {:?}", eigenvalues(&o.monodromy));
    println!("apex U {:?} L {:?}", o.apex_upper, o.apex_lower);
    println!(
        "T_a/T {:?} T_c/T {:?} T {:?} residual {:e}",
        e.kept / e.total,
        e.lost / e.total,
        e.total,
        o.residual
    );
}

/// The reference numbers (`cargo test … reference_numbers -- --nocapture`).
#[test]
fn reference_numbers() {
    let p = HopperParams::default();
    for q in [p, HopperParams { d_g: -60.0, ..p }] {
        for (i, t) in flight_time_guesses(&q).unwrap().into_iter().enumerate() {
            print_orbit(&format!("orbit {i}"), &periodic_orbit(&q, t).unwrap());
        }
    }
    let t_f = default_orbit(&p).t_flight;
    match periodic_orbit_at_flight_time(&HopperParams { mu: 0.95, ..p }, t_f, None) {
        Ok((_, o)) => print_orbit("mu = 0.95 at the default t_F", &o),
        Err(e) => println!("mu = 0.95 at the default t_F: {e}"),
    }
    let q = HopperParams {
        mu: 0.95,
        d_g: -20.0,
        ..p
    };
    for t in flight_time_guesses(&q).unwrap() {
        print_orbit("mu = 0.95", &periodic_orbit(&q, t).unwrap());
    }
}
