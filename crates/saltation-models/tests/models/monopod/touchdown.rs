//! The monopod: the first touchdown in closed form.

use super::*;

/// The flight solution in closed form. In flight (18)–(19) are linear: the spring length
/// `d = y2 − y1` obeys `d̈ = −(c + m1*)(d − 1) = −4π²(d − 1)`, and the centre of mass
/// `z = (m1* y1 + c y2)/4π²` (weights `m1* : c = m1 : m2`) obeys `z̈ = −f*`. So
/// `y1 = z − (c/4π²) d` with `z = z0 + ż0 t − f* t²/2`, `d = 1 + (d0 − 1) cos 2πt + ḋ0/(2π)
/// sin 2πt`.
pub(crate) fn flight_y1(m: &Bound<Monopod>, q0: &[f64; 4], t: f64) -> f64 {
    let [_, m1, _, f] = values(m);
    let c = W2 - m1;
    let w = W2.sqrt();
    let z0 = (m1 * q0[0] + c * q0[2]) / W2;
    let vz0 = (m1 * q0[1] + c * q0[3]) / W2;
    let d0 = q0[2] - q0[0];
    let vd0 = q0[3] - q0[1];
    let z = z0 + vz0 * t - 0.5 * f * t * t;
    let d = 1.0 + (d0 - 1.0) * (w * t).cos() + vd0 / w * (w * t).sin();
    z - c / W2 * d
}

/// The first `t > 0` with `y1(t) = 0` (falling) of the closed form: a scan for the sign change,
/// then bisection to the last bit.
pub(crate) fn first_touchdown(m: &Bound<Monopod>, q0: &[f64; 4]) -> f64 {
    let y = |t| flight_y1(m, q0, t);
    let h = 1e-3;
    let mut a = 0.0;
    assert!(y(a) > 0.0);
    while y(a + h) > 0.0 {
        a += h;
        assert!(a < 1e3, "no touchdown");
    }
    let mut b = a + h;
    loop {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        if y(mid) > 0.0 {
            a = mid;
        } else {
            b = mid;
        }
    }
    0.5 * (a + b)
}

pub(crate) fn dop853(tol: f64) -> StrideOptions {
    StrideOptions {
        method: Method::Dop853,
        ode: SolverOptions {
            max_steps: 1_000_000,
            ..SolverOptions::with_tol(tol)
        },
        t_max: 1e3,
        ..StrideOptions::default()
    }
}

pub(crate) fn radau5(tol: f64) -> StrideOptions {
    StrideOptions {
        method: Method::Radau5,
        ..dop853(tol)
    }
}

pub(crate) fn run(
    m: &Bound<Monopod>,
    q0: &[f64],
    stride: StrideOptions,
    t_end: f64,
    at: Option<Vec<f64>>,
) -> Trace {
    let opts = SimulateOptions {
        stride,
        dt: None,
        t_end: Some(t_end),
        at,
        ..SimulateOptions::default()
    };
    let trace = simulate(m, q0, &opts).unwrap();
    assert!(trace.failure.is_none(), "{m:?}: {:?}", trace.failure);
    trace
}

#[test]
fn first_touchdown_matches_the_closed_form() {
    // From Q0 the spring is at its rest length and both masses are at rest, so they fall
    // together: y1 = 0.5 − f* t²/2, touchdown at t = 1/√f*. The other states make the spring
    // oscillate during the fall.
    let starts: [[f64; 4]; 3] = [Monopod::Q0, [0.5, 0.3, 1.3, -0.2], [0.8, -0.5, 1.9, -0.3]];
    for set in [NOMINAL, 0, 2, 7] {
        let m = Monopod::default().at(Monopod::TABLE2[set]);
        for (k, q0) in starts.iter().enumerate() {
            let t_star = first_touchdown(&m, q0);
            if k == 0 {
                let exact = 1.0 / Monopod::TABLE2[set][F].sqrt();
                assert!(
                    (t_star - exact).abs() <= 1e-14 * exact,
                    "{t_star} vs {exact}"
                );
            }
            // The closed form is a solution: it starts at q0 (checked through y1(0)) and the
            // simulation follows it before the event.
            assert!((flight_y1(&m, q0, 0.0) - q0[0]).abs() <= 1e-15);
            let trace = run(&m, q0, dop853(1e-13), t_star + 0.05, None);
            let e = &trace.events[0];
            assert_eq!((e.mode, e.target), (FLIGHT, STANCE));
            let err = (e.t - t_star).abs();
            println!(
                "monopod set {} start {k}: first touchdown {t_star:.15} (closed form), \
                 simulated {:.15}, difference {err:.1e}",
                set + 1,
                e.t
            );
            assert!(
                err <= 1e-11,
                "set {} start {k}: {} vs {t_star}",
                set + 1,
                e.t
            );
            assert!(e.x_minus[0].abs() <= 1e-12);
            assert_eq!(e.x_minus, e.x_plus);
            for (t, x) in trace.t.iter().zip(&trace.x).filter(|(t, _)| **t < e.t) {
                let y = flight_y1(&m, q0, *t);
                assert!(
                    (x[0] - y).abs() <= 1e-11 * (1.0 + y.abs()),
                    "set {} at t = {t}: {} vs {y}",
                    set + 1,
                    x[0]
                );
            }
        }
    }
}
