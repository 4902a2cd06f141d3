//! Checks of the closed-form hopper: phases against the matrix exponential, dual-number
//! derivatives against central differences, the `d_G = 0` ground time and typed errors.

use super::*;
use nalgebra::{DMatrix, DVector};
use num_dual::{Dual2_64, Dual64};
use std::f64::consts::PI;

pub(super) fn default_orbit(p: &HopperParams) -> ClosedFormOrbit {
    let guesses = flight_time_guesses(p).expect("a bracket");
    periodic_orbit(p, *guesses.last().expect("a guess")).expect("the orbit")
}

/// `ẋ = A x + b` of a phase as the augmented 5×5 matrix `[[A, b], [0, 0]]`.
fn augmented(p: &HopperParams, flight: bool) -> DMatrix<f64> {
    let (mu, ml, k, g, l0) = (p.m_upper(), p.m_lower(), p.k, p.g, p.l0);
    let mut a = DMatrix::zeros(5, 5);
    a[(0, 2)] = 1.0;
    a[(1, 3)] = 1.0;
    if flight {
        let d = p.d_f;
        let row = [k, -k, d, -d, -k * l0]; // the spring-damper force F = row · [x; 1]
        for j in 0..5 {
            a[(2, j)] = -row[j] / mu;
            a[(3, j)] = row[j] / ml;
        }
        a[(2, 4)] -= g;
        a[(3, 4)] -= g;
    } else {
        a[(2, 0)] = -k / mu;
        a[(2, 1)] = k / mu;
        a[(2, 2)] = -p.d_g / mu;
        a[(2, 3)] = p.d_g / mu;
        a[(2, 4)] = -g + k * l0 / mu;
    }
    a
}

fn rel_err(a: &[f64; 4], b: &DVector<f64>) -> f64 {
    let scale = b.iter().take(4).fold(1e-300_f64, |m, v| m.max(v.abs()));
    (0..4).map(|i| (a[i] - b[i]).abs()).fold(0.0, f64::max) / scale
}

#[test]
fn phases_match_the_matrix_exponential() {
    let p = HopperParams::default();
    let m_r = p.m_upper() * p.m_lower() / p.m;
    let cases = [
        p,
        HopperParams {
            d_f: 2.0 * (p.k * m_r).sqrt(),
            d_g: 0.0,
            ..p
        }, // critical flight
        HopperParams {
            d_f: 2000.0,
            d_g: 3000.0,
            ..p
        }, // overdamped
        HopperParams {
            d_f: 0.0,
            d_g: -3000.0,
            ..p
        }, // growing ground mode
        HopperParams {
            mu: 0.95,
            l0: 0.3,
            ..p
        },
    ];
    let states = [
        [1.019, 0.0, 1.74, 0.0],
        [1.05, 0.2, -0.7, 1.3],
        [0.8, -0.1, 0.3, -2.0],
    ];
    for q in &cases {
        for (flight, times) in [
            (true, [1e-3, 0.05, 0.1, 0.3, 0.7]),
            (false, [1e-3, 0.05, 0.1, 0.25, 0.5]),
        ] {
            let a = augmented(q, flight);
            for x0 in &states {
                for &t in &times {
                    let x = if flight {
                        flight_state(q, *x0, t)
                    } else {
                        ground_state(q, *x0, t)
                    };
                    let e =
                        (&a * t).exp() * DVector::from_vec(vec![x0[0], x0[1], x0[2], x0[3], 1.0]);
                    let err = rel_err(&x, &e);
                    assert!(
                        err <= 1e-13,
                        "flight {flight} {q:?} x0 {x0:?} t {t}: {err:e}"
                    );
                }
            }
        }
    }
}

/// `f(x0)` of a stride as a flat vector: end state, `t_F`, `t_G`, pre-impact state.
fn stride_outputs<D: DualNum<f64> + Copy>(p: &HopperParams, x0: [D; 4]) -> Vec<D> {
    let s = stride(p, x0).expect("stride");
    let mut out = s.end.to_vec();
    out.extend([s.t_flight, s.t_ground]);
    out.extend(s.pre_impact);
    out
}

#[test]
fn stride_derivatives_match_central_differences() {
    let p = HopperParams::default();
    let o = default_orbit(&p);
    let off = [o.liftoff[0] + 3e-3, 2e-3, o.liftoff[2] - 0.02, 0.05];
    for x in [o.liftoff, off] {
        for j in 0..4 {
            let xd: [Dual64; 4] = std::array::from_fn(|i| Dual64::new(x[i], (i == j) as u8 as f64));
            let ad = stride_outputs(&p, xd);
            let h = 1e-6;
            let (mut xp, mut xm) = (x, x);
            xp[j] += h;
            xm[j] -= h;
            let (fp, fm) = (stride_outputs(&p, xp), stride_outputs(&p, xm));
            for (i, d) in ad.iter().enumerate() {
                let fd = (fp[i] - fm[i]) / (2.0 * h);
                assert!(
                    (d.eps - fd).abs() <= 1e-7 * (1.0 + fd.abs()),
                    "x {x:?} ∂{i}/∂{j}: {} vs {fd}",
                    d.eps
                );
            }
        }
    }
}

#[test]
fn second_derivative_of_the_flight_time_is_exact() {
    let p = HopperParams::default();
    let v = default_orbit(&p).liftoff[2];
    let t2 = touchdown_time(&p, liftoff_state(&p, Dual2_64::new(v, 1.0, 0.0))).unwrap();
    let d1 = |v: f64| {
        touchdown_time(&p, liftoff_state(&p, Dual64::new(v, 1.0)))
            .unwrap()
            .eps
    };
    let h = 1e-5;
    let fd = (d1(v + h) - d1(v - h)) / (2.0 * h);
    assert!((t2.v1 - d1(v)).abs() <= 1e-14 * d1(v).abs());
    assert!(
        (t2.v2 - fd).abs() <= 1e-7 * (1.0 + fd.abs()),
        "{} vs {fd}",
        t2.v2
    );
}
/// At `d_G = 0` the ground phase is an undamped oscillation `y = z_U − z_e` about the static
/// equilibrium and lift-off is `y = c = m g/k` rising. From `(c, −v)` it lasts exactly
/// `2(π − φ)/ω`, `φ = atan2(v/ω, c)`: less than the period `2π/ω` for every `v > 0`.
#[test]
fn ground_time_at_zero_ground_damping() {
    let p = HopperParams {
        d_g: 0.0,
        ..Default::default()
    };
    let omega = (p.k / p.m_upper()).sqrt();
    let c = p.m * p.g / p.k;
    let delta = 1e-3; // start just after (c, −v), where λ = 0 up to rounding
                      // (v = 1e-4: λ is positive for only 1.6e-5 s, far less than the scan step.)
    for v in [1e-4, 1e-3, 1e-2, 0.3, 1.5] {
        let x0 = ground_state(&p, liftoff_state(&p, -v), delta);
        let t = liftoff_time(&p, x0).unwrap() + delta;
        let exact = 2.0 * (PI - (v / omega).atan2(c)) / omega;
        // Near grazing the lift-off time is conditioned by ẏ = v: δt ≈ δz_U / v, with the
        // rounding δz_U ≈ 2 ulp(z_U) of the state.
        let tol = 1e-13 * exact + 4.0 * f64::EPSILON * x0[0] / v;
        assert!((t - exact).abs() <= tol, "{t} vs {exact}");
        assert!(t < 2.0 * PI / omega);
    }
    // No periodic hopping without energy input; along the flight-time branch t_G tends to
    // 2π √(m_U/k) and d_G to 0 only as the hop vanishes.
    assert!(matches!(
        flight_time_guesses(&p),
        Err(ClosedFormError::NoBracket { .. })
    ));
    let base = HopperParams::default();
    let t_g0 = 2.0 * PI * (base.m_upper() / base.k).sqrt();
    let mut guess = Some(LiftoffGuess {
        d_g: -2.6,
        zu_dot: 0.185,
    });
    let mut last = (f64::MAX, f64::MAX);
    for t_f in [0.05, 0.03, 0.02, 0.01, 0.006, 0.004] {
        let (d_g, o) = periodic_orbit_at_flight_time(&base, t_f, guess).unwrap();
        let gap = 1.0 - o.t_ground / t_g0;
        assert!(
            gap > 0.0 && gap < last.0 && d_g < 0.0 && -d_g < last.1,
            "{t_f}: {gap} {d_g}"
        );
        last = (gap, -d_g);
        guess = Some(LiftoffGuess {
            d_g,
            zu_dot: o.liftoff[2],
        });
    }
    assert!(last.0 < 0.011 && last.1 < 2e-3);
}

#[test]
fn bad_input_is_a_typed_error() {
    let p = HopperParams::default();
    let bad = HopperParams { mu: 1.2, ..p };
    assert!(matches!(
        stride(&bad, [1.0, 0.0, 1.0, 0.0]),
        Err(ClosedFormError::Params(_))
    ));
    assert!(matches!(
        stride(&p, [f64::NAN, 0.0, 1.0, 0.0]),
        Err(ClosedFormError::Input(_))
    ));
    // The negative ground damper pulls the foot off at touchdown (λ⁺ > 0).
    assert!(matches!(
        stride(&p, liftoff_state(&p, 1.3)),
        Err(ClosedFormError::NoStance { .. })
    ));
    // A strongly damped ground phase never lifts off again.
    let damped = HopperParams { d_g: 3000.0, ..p };
    let x = [0.99, 0.0, -1.0, 0.0];
    assert!(matches!(
        liftoff_time(&damped, x),
        Err(ClosedFormError::NoLiftoff { .. })
    ));
    // ... and there the damper pulls the foot down at lift-off.
    let x = liftoff_state(&damped, 0.5);
    assert!(matches!(
        stride(&damped, x),
        Err(ClosedFormError::NoFlight { .. })
    ));
    // Falling from lift-off: the foot goes down at once.
    let x = [p.l0 + p.m_lower() * p.g / p.k, 0.0, -1.0, -1.0];
    assert!(matches!(
        touchdown_time(&p, x),
        Err(ClosedFormError::NoFlight { .. })
    ));
    assert!(matches!(
        periodic_orbit(&p, -1.0),
        Err(ClosedFormError::Input(_))
    ));
    assert!(periodic_orbit_at_flight_time(&p, f64::NAN, None).is_err());
    let mu95 = HopperParams { mu: 0.95, ..p };
    assert!(matches!(
        flight_time_guesses(&mu95),
        Err(ClosedFormError::NoBracket { .. })
    ));
}
