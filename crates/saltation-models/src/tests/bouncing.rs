//! The bouncing ball through the hybrid layer against its closed form: stride map, stride time,
//! stride Jacobian, impact times, the Zeno end, and the fixed points at `e = 1`.

use super::{shipped, Rng};
use crate::{BouncingBall, Model};
use saltation_hybrid::{simulate, Bound, JacobianKind, SimulateOptions, StrideMap, StrideOptions};
use saltation_ode::SolverOptions;

fn opts() -> StrideOptions {
    StrideOptions {
        ode: SolverOptions::with_tol(1e-13),
        t_max: 20.0,
        ..StrideOptions::default()
    }
}

#[test]
fn stride_map_time_and_jacobian_match_the_closed_form() {
    let mut rng = Rng::new(42);
    for _ in 0..40 {
        let ball = Bound::with_named(
            BouncingBall,
            [("g", rng.uniform(1.0, 20.0)), ("e", rng.uniform(0.1, 1.0))],
        )
        .unwrap();
        let x0 = [rng.uniform(0.01, 2.0), rng.uniform(-3.0, 3.0)];
        let (p, t) = BouncingBall::stride(ball.values(), x0);
        let pj = BouncingBall::stride_jacobian(ball.values(), x0);
        let mut map = StrideMap::new(&ball, opts()).unwrap();
        for kind in [JacobianKind::None, JacobianKind::StrideMap] {
            let r = map.eval(&x0, kind).unwrap();
            // Free fall is a polynomial of degree 2: DOP853 is exact up to rounding, the event
            // time is located to a few ulps.
            assert!((r.period - t).abs() < 1e-13 * t, "T {} vs {t}", r.period);
            assert!(r.x[0].abs() < 1e-13, "x after impact {}", r.x[0]);
            assert!(
                (r.x[1] - p[1]).abs() < 1e-13 * p[1],
                "v⁺ {} vs {}",
                r.x[1],
                p[1]
            );
            if let Some(j) = r.jacobian {
                for (k, want) in pj.iter().enumerate() {
                    let got = j[(k / 2, k % 2)];
                    assert!(
                        (got - want).abs() < 1e-12 * (1.0 + want.abs()),
                        "P_x[{k}] {got} vs {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn impact_times_and_velocities_match_the_closed_form() {
    let ball = Bound::<BouncingBall>::default();
    let h0 = 1.0;
    let k = 40;
    let sim = SimulateOptions {
        stride: opts(),
        strides: k,
        dt: None,
        ..Default::default()
    };
    let trace = simulate(&ball, &[h0, 0.0], &sim).unwrap();
    assert!(trace.failure.is_none(), "{:?}", trace.failure);
    let times = BouncingBall::impact_times(ball.values(), h0, k);
    let speeds = BouncingBall::impact_velocities(ball.values(), h0, k);
    for (i, ev) in trace.events.iter().enumerate() {
        assert!(
            (ev.t - times[i]).abs() < 1e-12 * times[i],
            "impact {i}: {} vs {}",
            ev.t,
            times[i]
        );
        let dv = (ev.x_minus[1] - speeds[i]).abs();
        assert!(
            dv < 1e-12 * speeds[0].abs(),
            "impact {i}: v⁻ {} vs {}",
            ev.x_minus[1],
            speeds[i]
        );
    }
    assert!(times[k - 1] < BouncingBall::zeno_time(ball.values(), h0).unwrap());
}

#[test]
fn zeno_ends_with_an_error_not_a_hang() {
    // With e = 0.8 from 1 m the flights shrink below the time resolution near t∞ ≈ 4.06 s after
    // ~150 impacts: the simulation must stop with a recorded failure.
    let mf = shipped("bouncing_ball");
    let Model::BouncingBall(ball) = mf.model else {
        panic!("bouncing_ball.ron holds {:?}", mf.model)
    };
    let sim = SimulateOptions {
        stride: mf.orbit.stride.clone(),
        strides: 10_000,
        dt: None,
        ..Default::default()
    };
    let trace = simulate(&ball, &[1.0, 0.0], &sim).unwrap();
    let failure = trace
        .failure
        .as_ref()
        .expect("Zeno must end the simulation");
    let tz = BouncingBall::zeno_time(ball.values(), 1.0).unwrap();
    eprintln!(
        "Zeno: {} impacts, last at {} (t∞ = {tz}), failure: {failure}",
        trace.events.len(),
        trace.events.last().unwrap().t
    );
    assert!(trace.events.len() < 10_000);
    assert!(trace.events.iter().all(|e| e.t <= tz + 1e-9));
}

#[test]
fn elastic_ball_has_a_fixed_point_at_every_take_off_speed() {
    let ball = Bound::with_named(BouncingBall, [("g", 9.81), ("e", 1.0)]).unwrap();
    let mut map = StrideMap::new(&ball, opts()).unwrap();
    for v in [0.1, 1.0, 7.0] {
        let r = map.eval(&[0.0, v], JacobianKind::StrideMap).unwrap();
        assert!((r.x[1] - v).abs() < 1e-13 * v && r.x[0].abs() < 1e-13);
        assert!((r.period - 2.0 * v / 9.81).abs() < 1e-13);
        let j = r.jacobian.unwrap();
        // [[0, 0], [g/v, 1]]: multipliers {0, 1}.
        assert!(j[(0, 0)].abs() < 1e-13 && j[(0, 1)].abs() < 1e-13);
        assert!(
            (j[(1, 0)] - 9.81 / v).abs() < 1e-11 * (9.81 / v) && (j[(1, 1)] - 1.0).abs() < 1e-13
        );
    }
}
