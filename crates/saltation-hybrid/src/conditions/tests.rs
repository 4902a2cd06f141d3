//! The checker's tests on a ball under a ceiling.

use super::*;
use crate::admissibility::ViolationKind;
use crate::error::HybridError;
use crate::{simulate, Bound, GuardSpec, HybridModel, Param, Scalar, SimulateOptions};

/// A ball under a ceiling: `ẏ = v`, `v̇ = −g`, bouncing on the floor `y = 0` with
/// restitution `e`; admissible while `H − y ≥ 0` (below the ceiling), and, in the ground
/// mode 1 (at rest, `ẋ = 0`), while `y = 0` (its equality) and the floor pushes, `g ≥ 0`.
struct Ceiling;
const G: usize = 0;
const E: usize = 1;
const H: usize = 2;
const PARAMS: &[Param] = &[
    Param::new("g", 9.81),
    Param::new("e", 1.0),
    Param::new("H", 1.0),
];
impl HybridModel for Ceiling {
    type Guard = ();
    fn name(&self) -> &str {
        "ceiling"
    }
    fn dim(&self) -> usize {
        2
    }
    fn modes(&self) -> usize {
        2
    }
    fn mode_name(&self, mode: usize) -> String {
        ["flight", "rest"][mode].into()
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        if mode == 0 {
            dx[0] = x[1];
            dx[1] = -p[G];
        } else {
            dx[0] = x[1] * 0.0;
            dx[1] = x[1] * 0.0;
        }
    }
    fn guards(&self, mode: usize) -> &[()] {
        if mode == 0 {
            &[()]
        } else {
            &[]
        }
    }
    fn describe(&self, _mode: usize, _g: ()) -> GuardSpec {
        GuardSpec::to(0).falling()
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, _g: (), x: &[D]) -> D {
        x[0]
    }
    fn reset<D: Scalar>(&self, p: &[D], _mode: usize, _g: (), x: &[D], out: &mut [D]) {
        out[0] = x[0];
        out[1] = -x[1] * p[E];
    }
    fn conditions(&self, _mode: usize) -> usize {
        1
    }
    fn condition_name(&self, mode: usize, _i: usize) -> String {
        ["below ceiling", "floor pushes"][mode].into()
    }
    fn condition<D: Scalar>(&self, p: &[D], mode: usize, _i: usize, x: &[D]) -> D {
        if mode == 0 {
            -x[0] + p[H]
        } else {
            p[G]
        }
    }
    fn state_residual(&self, _p: &[f64], mode: usize, x: &[f64]) -> Option<(String, f64)> {
        (mode == 1).then(|| ("height at rest".to_string(), x[0]))
    }
}

fn ball(h: f64) -> Bound<Ceiling> {
    Bound::with_values(Ceiling, vec![9.81, 1.0, h]).unwrap()
}

/// Simulates to `t_end` from `(0, v0)` and checks the trace.
fn check(model: &Bound<Ceiling>, v0: f64, t_end: f64, exact: bool) -> Admissibility {
    let mut sim = SimulateOptions {
        t_end: Some(t_end),
        dt: None,
        ..SimulateOptions::default()
    };
    sim.stride.exact_affine_phases = exact;
    sim.stride.ode = saltation_ode::SolverOptions::with_tol(1e-10);
    let x0 = [0.0, v0];
    let trace = simulate(model, &x0, &sim).unwrap();
    assert!(trace.failure.is_none());
    check_trace(model, &trace, 0.0, &x0, &sim.stride, CONDITION_TOL).unwrap()
}

#[test]
fn first_crossing_of_the_ceiling_is_located_at_the_closed_form_time() {
    // Apex v0²/2g = 1.2742 above a ceiling at 1: first contact at t* = (v0 − √(v0² −
    // 2gH))/g, on both integrators (the exact one takes one step per flight).
    let (g, v0, h) = (9.81f64, 5.0f64, 1.0);
    let t_star = (v0 - (v0 * v0 - 2.0 * g * h).sqrt()) / g;
    for exact in [false, true] {
        let a = check(&ball(h), v0, 3.0, exact);
        let v = a.violation.expect("the ball hits the ceiling");
        assert!(!a.admissible);
        assert!((v.t - t_star).abs() < 1e-9, "{} vs {t_star}", v.t);
        assert!((v.state[0] - h).abs() < 1e-9, "{:?}", v.state);
        assert!((v.state[1] - (v0 - g * t_star)).abs() < 1e-8);
        assert_eq!(
            (v.condition.as_str(), v.mode.as_str()),
            ("below ceiling", "flight")
        );
        assert_eq!(v.kind, ViolationKind::Negative);
        // The lowest value seen is at most 0 and at least the apex's `H − v0²/2g`.
        assert!(v.value <= 0.0 && v.value >= h - v0 * v0 / (2.0 * g) - 1e-9);
    }
}

#[test]
fn a_dip_inside_one_step_is_found() {
    const DIP: f64 = 1e-2;
    // Apex 1e-2 above the ceiling: the exact stepper crosses the apex inside one step of
    // 0.6 s (the dip lasts 0.09 s), and the interior samples see it.
    let (g, h) = (9.81f64, 1.0);
    let v0 = (2.0 * g * (h + DIP)).sqrt();
    let t_star = (v0 - (v0 * v0 - 2.0 * g * h).sqrt()) / g;
    let v = check(&ball(h), v0, 1.0, true).violation.unwrap();
    assert!((v.t - t_star).abs() < 1e-8, "{} vs {t_star}", v.t);
}

#[test]
fn below_the_ceiling_the_bounces_are_admissible() {
    // Apex 1.2742 under a ceiling at 1.3, through several impacts.
    let a = check(&ball(1.3), 5.0, 3.0, false);
    assert!(a.admissible && a.violation.is_none(), "{a:?}");
    let a = check(&ball(1.3), 5.0, 3.0, true);
    assert!(a.admissible, "{a:?}");
}

#[test]
fn an_orbit_reports_the_violation_through_the_evaluated_face() {
    let a = ball(1.0).admissibility(&[0.0, 5.0], &Default::default());
    let a = a.expect("the model declares conditions").unwrap();
    assert!(!a.admissible);
    assert!(
        ball(1.3)
            .admissibility(&[0.0, 5.0], &Default::default())
            .unwrap()
            .unwrap()
            .admissible
    );
}

/// The ceiling's clearance `H − y` over the first flight from `(0, v0)` is least at the
/// apex, `H − v0²/2g` (an interior minimum located on the dense output, on both
/// integrators, to far below the step samples' resolution); the floor's own phase is the
/// flight itself, so phase 1 (the second flight, after the bounce with `e = 0.5`) has its
/// minimum at the apex `H − (e v0)²/2g`. The ground mode's condition does not exist in
/// flight: a phase past the trace is `None`.
#[test]
fn a_phase_minimum_is_located_inside_the_phase() {
    let (g, v0, h) = (9.81f64, 5.0f64, 1.3);
    let m = Bound::with_values(Ceiling, vec![g, 0.5, h]).unwrap();
    for exact in [false, true] {
        let mut sim = SimulateOptions {
            strides: 2,
            dt: None,
            ..SimulateOptions::default()
        };
        sim.stride.exact_affine_phases = exact;
        sim.stride.ode = saltation_ode::SolverOptions::with_tol(1e-10);
        let x0 = [0.0, v0];
        let trace = simulate(&m, &x0, &sim).unwrap();
        let min0 = phase_minima(&m, &trace, 0.0, &x0, &sim.stride, 0, 0)
            .unwrap()
            .unwrap();
        let apex = h - v0 * v0 / (2.0 * g);
        let (least, at) = min0.least();
        assert_eq!(at, MinimumAt::Interior);
        assert_eq!(min0.interior.len(), 1);
        assert!((least - apex).abs() < 1e-11, "{least} vs {apex}");
        assert!(
            (min0.interior[0].0 - v0 / g).abs() < 1e-6,
            "{:?}",
            min0.interior
        );
        // Start and end on the floor: the clearance is H there.
        assert!((min0.start.1 - h).abs() < 1e-12 && (min0.end.1 - h).abs() < 1e-9);
        assert!((min0.end.0 - 2.0 * v0 / g).abs() < 1e-9, "{:?}", min0.end);
        let min1 = phase_minima(&m, &trace, 0.0, &x0, &sim.stride, 1, 0)
            .unwrap()
            .unwrap();
        let apex1 = h - (0.5 * v0).powi(2) / (2.0 * g);
        let v1 = min1.value(MinimumAt::Interior).unwrap();
        assert!((v1 - apex1).abs() < 1e-11, "{v1} vs {apex1}");
        assert!(phase_minima(&m, &trace, 0.0, &x0, &sim.stride, 9, 0)
            .unwrap()
            .is_none());
    }
}

#[test]
fn initial_states_are_checked_against_conditions_and_equalities() {
    let m = ball(1.0);
    assert!(check_initial_state(&m, 0, &[0.5, 1.0]).is_ok());
    assert!(check_initial_state(&m, 1, &[0.0, 0.0]).is_ok());
    match check_initial_state(&m, 0, &[1.5, 0.0]) {
        Err(HybridError::Inadmissible(f)) => {
            assert_eq!((f.what.as_str(), f.equality), ("below ceiling", false));
            assert!((f.value + 0.5).abs() < 1e-15 && f.t.is_none());
        }
        other => panic!("{other:?}"),
    }
    match check_initial_state(&m, 1, &[0.25, 0.0]) {
        Err(e @ HybridError::Inadmissible(_)) => {
            let text = e.to_string();
            assert!(text.contains("height at rest = 0.25"), "{text}");
            assert!(text.contains("mode `rest`"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        check_initial_state(&m, 2, &[0.0, 0.0]),
        Err(HybridError::BadMode { .. })
    ));
}

#[test]
fn a_state_is_checked_against_its_conditions_alone() {
    let m = ball(1.0);
    // At rest 0.25 above the floor: the equality fails, the conditions hold.
    assert!(check_initial_state(&m, 1, &[0.25, 0.0]).is_err());
    assert!(check_state_conditions(&m, 1, &[0.25, 0.0]).is_ok());
    // Above the ceiling by 0.5, and within the tolerance 1e-9·max(1, |x|∞) of it.
    match check_state_conditions(&m, 0, &[1.5, -2.0]) {
        Err(HybridError::Inadmissible(f)) => {
            assert_eq!(
                (f.what.as_str(), f.mode.as_str()),
                ("below ceiling", "flight")
            );
            assert!((f.value + 0.5).abs() < 1e-15 && !f.equality);
            assert_eq!(f.state, [1.5, -2.0]);
        }
        other => panic!("{other:?}"),
    }
    assert!(check_state_conditions(&m, 0, &[1.0 + 1e-10, 0.0]).is_ok());
    assert!(check_state_conditions(&m, 0, &[1.0 + 1e-8, 0.0]).is_err());
    assert!(matches!(
        check_state_conditions(&m, 0, &[0.0]),
        Err(HybridError::DimensionMismatch { .. })
    ));
}
