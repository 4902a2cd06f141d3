//! Bad input ends an integration with a typed error that says where, and never hangs: a vector
//! field that is NaN from the start or only after it, a per-component `atol` of the wrong
//! length, sizes beyond their documented limits. Run over every built-in method.

use saltation_ode::{
    Atol, FnSystem, Ivp, Method, OdeError, SolverOptions, ZenoLimit, MAX_EVENT_SAMPLES,
    MAX_ZENO_WINDOW,
};

fn every_method() -> Vec<(Method, SolverOptions)> {
    Method::ALL
        .iter()
        .map(|&m| {
            let mut o = SolverOptions::with_tol(1e-8);
            if !m.is_adaptive() {
                o.h_fixed = Some(1e-2);
            }
            (m, o)
        })
        .collect()
}

/// A NaN parameter makes the field NaN at the initial point: reported at once, naming t0.
#[test]
fn nan_field_at_the_start_is_an_error_at_t0() {
    let gamma = f64::NAN;
    let sys = FnSystem::new(2, move |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = gamma - y[0];
    });
    for (m, o) in every_method() {
        let r = Ivp::new(&sys, 0.0, &[0.1, 0.0]).solve(m, 1.0, &o);
        assert_eq!(
            r.as_ref().map(|s| s.t).unwrap_err(),
            &OdeError::NonFiniteRhs { t: 0.0 },
            "{m:?}"
        );
    }
}

/// The field is finite at t = 0 but NaN everywhere after it: every step's error is NaN, the
/// step shrinks towards zero, and at t = 0 the relative floor `16 ε |t|` is zero too. The
/// integration must end (this looped forever when the floor could be 0) with the time named.
#[test]
fn nan_error_estimate_at_t_zero_ends_with_the_time() {
    let sys = FnSystem::new(1, |t: f64, _y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > 0.0 { f64::NAN } else { 1.0 };
    });
    for (m, o) in every_method() {
        let r = Ivp::new(&sys, 0.0, &[0.0]).solve(m, 1.0, &o);
        match r {
            Err(OdeError::NonFinite { t, .. }) => assert_eq!(t, 0.0, "{m:?}"),
            other => panic!("{m:?}: {:?}", other.map(|s| s.t)),
        }
    }
}

/// An error estimate that does not shrink with the step (`f = 1/(t − t0)`: every stage's
/// `h k_i` is a constant) is never accepted: the integration ends with `StepTooSmall` at the
/// start time, also when that is t = 0 (floor 0 before) where the step may instead overflow the
/// field to infinity first.
#[test]
fn unresolvable_field_ends_at_its_floor() {
    for t0 in [1.0, 0.0] {
        let sys = FnSystem::new(1, move |t: f64, _y: &[f64], dy: &mut [f64]| {
            dy[0] = if t > t0 { 1.0 / (t - t0) } else { 0.0 };
        });
        for (m, o) in every_method().into_iter().filter(|(m, _)| m.is_adaptive()) {
            let r = Ivp::new(&sys, t0, &[0.0]).solve(m, t0 + 1.0, &o);
            match r {
                Err(OdeError::StepTooSmall { t, h }) => assert!(t == t0 && h > 0.0, "{m:?}"),
                Err(OdeError::NonFinite { t, .. }) if t0 == 0.0 => assert_eq!(t, t0, "{m:?}"),
                other => panic!("{m:?} from {t0}: {:?}", other.map(|s| s.t)),
            }
        }
    }
}

/// A vector `atol` has one entry per error-controlled component: the state's length, or
/// `error_dims` when that is set. Any other length is a typed error, not an index panic.
#[test]
fn atol_vector_length_is_checked() {
    let sys = FnSystem::new(3, |_t, y: &[f64], dy: &mut [f64]| {
        dy.copy_from_slice(y);
    });
    let mut o = SolverOptions::with_tol(1e-8);
    for len in [0, 2, 4] {
        o.atol = Atol::Vector(vec![1e-8; len]);
        let r = Ivp::new(&sys, 0.0, &[1.0, 1.0, 1.0]).solve(Method::Dop853, 1.0, &o);
        assert!(
            matches!(
                r,
                Err(OdeError::DimensionMismatch { expected: 3, got, .. }) if got == len
            ),
            "{len}: {:?}",
            r.map(|s| s.t)
        );
    }
    o.atol = Atol::Vector(vec![1e-10; 3]);
    let s = Ivp::new(&sys, 0.0, &[1.0, 1.0, 1.0])
        .solve(Method::Dop853, 1.0, &o)
        .unwrap();
    assert!((s.y[0] - 1f64.exp()).abs() < 1e-8, "{}", s.y[0]);
    // With error_dims = 2, the vector has two entries.
    o.error_dims = Some(2);
    let r = Ivp::new(&sys, 0.0, &[1.0, 1.0, 1.0]).solve(Method::Dop853, 1.0, &o);
    assert!(
        matches!(
            r,
            Err(OdeError::DimensionMismatch {
                expected: 2,
                got: 3,
                ..
            })
        ),
        "{:?}",
        r.map(|s| s.t)
    );
    o.atol = Atol::Vector(vec![1e-10; 2]);
    assert!(Ivp::new(&sys, 0.0, &[1.0, 1.0, 1.0])
        .solve(Method::Dop853, 1.0, &o)
        .is_ok());
}

/// Sizes from input have documented upper bounds, checked before anything is allocated.
#[test]
fn sizes_have_limits() {
    let d = SolverOptions::default;
    let valid = [
        SolverOptions {
            event_samples: MAX_EVENT_SAMPLES,
            ..d()
        },
        SolverOptions {
            zeno: ZenoLimit {
                window: MAX_ZENO_WINDOW,
                ..ZenoLimit::default()
            },
            ..d()
        },
    ];
    for o in valid {
        assert!(o.validate().is_ok(), "{o:?}");
    }
    let zeno = |window| SolverOptions {
        zeno: ZenoLimit {
            window,
            ..ZenoLimit::default()
        },
        ..d()
    };
    let invalid = [
        (
            SolverOptions {
                event_samples: 1_000_000_000,
                ..d()
            },
            "event_samples",
        ),
        (zeno(MAX_ZENO_WINDOW + 1), "zeno"),
        (zeno(usize::MAX), "zeno"),
        (zeno(1), "zeno"),
        (
            SolverOptions {
                max_steps: usize::MAX,
                ..d()
            },
            "max_steps",
        ),
        (
            SolverOptions {
                error_dims: Some(0),
                ..d()
            },
            "error_dims",
        ),
        (
            SolverOptions {
                max_growth: f64::INFINITY,
                ..d()
            },
            "max_growth",
        ),
    ];
    for (o, name) in invalid {
        assert!(
            matches!(o.validate(), Err(OdeError::InvalidOption { field, .. }) if field == name),
            "{name}: {:?}",
            o.validate()
        );
    }
}

/// Tolerances below the rounding level (`rtol = atol = 1e-300`, on Van der Pol with ε = 1):
/// the relative tolerance in use is raised to `RTOL_FLOOR` = 4ε, so each method either meets
/// it (the answer then agrees with a dop853 solve at rtol = 1e-13 to 1e-9) or stops at its step
/// budget or step-size floor: never a NaN field from a step of size zero or at `t = inf`.
#[test]
fn tolerances_below_rounding_use_the_floor() {
    assert_eq!(saltation_ode::RTOL_FLOOR, 4.0 * f64::EPSILON);
    let vdp = FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = (1.0 - y[0] * y[0]) * y[1] - y[0];
    });
    let reference = Ivp::new(&vdp, 0.0, &[2.0, 0.0])
        .solve(Method::Dop853, 1.0, &SolverOptions::with_tol(1e-13))
        .unwrap()
        .y;
    for (m, mut o) in every_method() {
        o.rtol = 1e-300;
        o.atol = Atol::Scalar(1e-300);
        o.max_steps = 20_000;
        match Ivp::new(&vdp, 0.0, &[2.0, 0.0]).solve(m, 1.0, &o) {
            Ok(s) if m.is_adaptive() => {
                let err = (s.y[0] - reference[0])
                    .abs()
                    .max((s.y[1] - reference[1]).abs());
                assert!(err < 1e-9, "{m:?}: {:?} vs {reference:?}", s.y);
            }
            Ok(_) => {}
            Err(
                e @ (OdeError::MaxSteps { .. }
                | OdeError::StepTooSmall { .. }
                | OdeError::NewtonFailed { .. }),
            ) => {
                let text = e.to_string();
                assert!(
                    !text.contains("inf") && !text.contains("0e0"),
                    "{m:?}: {text}"
                );
            }
            Err(e) => panic!("{m:?}: {e}"),
        }
    }
}
