//! Property tests of the library's entry points under random options and inputs: stride maps,
//! `find_periodic_orbit` and continuation scripts either succeed or return a typed error —
//! they never panic. The random options include invalid ones (NaN, zero, negative, huge);
//! the valid ones are kept cheap (few steps, few iterations) so that every case ends quickly.

use proptest::prelude::*;
use saltation_continuation::{run_script, BranchSpec, ContinuationOptions, ContinuationSpec};
use saltation_hybrid::{EvalModel, JacobianKind, StrideMap, StrideOptions};
use saltation_models::Model;
use saltation_ode::{Atol, Method, SolverOptions};
use saltation_orbit::{find_periodic_orbit, NewtonOptions, OrbitOptions};

/// A float that is usually reasonable and sometimes hostile.
fn float(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
    prop_oneof![
        30 => lo..hi,
        1 => prop::sample::select(vec![
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -1.0,
            1e300,
            -1e-300,
            f64::MIN_POSITIVE,
        ]),
    ]
}

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        4 => Just(Method::Dop853),
        1 => prop::sample::select(Method::ALL.to_vec()),
    ]
}

fn solver_options() -> impl Strategy<Value = SolverOptions> {
    (
        float(1e-12, 1e-3),
        prop_oneof![
            8 => float(1e-12, 1e-3).prop_map(Atol::Scalar),
            1 => prop::collection::vec(float(1e-12, 1e-3), 0..6).prop_map(Atol::Vector),
        ],
        prop::option::weighted(0.2, float(1e-4, 1e-1)),
        prop::option::weighted(0.1, 0usize..4),
        0usize..6,
        1usize..5000,
    )
        .prop_map(
            |(rtol, atol, h_fixed, error_dims, event_samples, max_steps)| SolverOptions {
                rtol,
                atol,
                h_fixed,
                error_dims,
                event_samples,
                max_steps,
                ..SolverOptions::default()
            },
        )
}

fn stride_options() -> impl Strategy<Value = StrideOptions> {
    (
        method(),
        solver_options(),
        prop_oneof![8 => Just(0usize), 1 => 1usize..3],
        prop_oneof![8 => Just(1usize), 1 => 0usize..4],
        float(0.1, 20.0),
        any::<bool>(),
        float(0.0, 1e-6),
        any::<bool>(),
    )
        .prop_map(
            |(method, ode, start_mode, events_per_stride, t_max, var, grazing_tol, exact)| {
                StrideOptions {
                    method,
                    ode,
                    start_mode,
                    events_per_stride,
                    t_max,
                    variational_error_control: var,
                    grazing_tol,
                    exact_affine_phases: exact,
                }
            },
        )
}

fn newton_options() -> impl Strategy<Value = NewtonOptions> {
    (
        float(1e-14, 1e-6),
        float(1e-16, 1e-8),
        0u64..6,
        float(1e-4, 1.0),
    )
        .prop_map(|(ftol, xtol, max_iters, min_damping)| NewtonOptions {
            ftol,
            xtol,
            max_iters,
            min_damping,
            ..NewtonOptions::default()
        })
}

fn model() -> impl Strategy<Value = Model> {
    prop::sample::select(vec![
        "SimplestWalker",
        "RimlessWheel",
        "VanDerPol",
        "BouncingBall",
    ])
    .prop_map(|n| Model::with_defaults(n).expect("a built-in model"))
}

/// A model with a guess near one of its orbits (sometimes of the wrong length).
fn model_and_guess() -> impl Strategy<Value = (Model, Vec<f64>)> {
    let near = |base: Vec<f64>| {
        prop_oneof![
            8 => prop::collection::vec(float(-0.05, 0.05), base.len()).prop_map(move |d| {
                base.iter().zip(&d).map(|(b, d)| b + d).collect::<Vec<f64>>()
            }),
            1 => prop::collection::vec(float(-1.0, 1.0), 0..4),
        ]
    };
    prop_oneof![
        (Just("SimplestWalker"), near(vec![0.2, -0.2])),
        (Just("RimlessWheel"), near(vec![0.5])),
        (Just("VanDerPol"), near(vec![2.0])),
        (Just("BouncingBall"), near(vec![1.0])),
    ]
    .prop_map(|(name, u)| (Model::with_defaults(name).expect("a built-in model"), u))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn stride_maps_never_panic(
        m in model(),
        opts in stride_options(),
        x in prop::collection::vec(float(-1.0, 1.0), 0..6),
        kind in prop::sample::select(vec![
            JacobianKind::None, JacobianKind::StrideMap, JacobianKind::Monodromy,
        ]),
    ) {
        if let Ok(mut map) = StrideMap::new(&m, opts) {
            let _ = map.eval(&x, kind);
        }
    }

    #[test]
    fn orbit_solves_never_panic(
        (m, u) in model_and_guess(),
        stride in stride_options(),
        newton in newton_options(),
    ) {
        let opts = OrbitOptions { stride, newton, ..OrbitOptions::default() };
        if let Ok(o) = find_periodic_orbit(&m, &u, &opts) {
            // A reported orbit is a real one: finite, with a positive period.
            prop_assert!(o.period > 0.0 && o.x0.iter().all(|v| v.is_finite()));
            prop_assert!(o.residual.is_finite());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Continuation of the walker in its slope with random settings and branch specs.
    #[test]
    fn continuation_never_panics(
        from in float(0.005, 0.015),
        to in float(0.0, 0.03),
        guess in prop_oneof![
            8 => (float(-0.02, 0.02), float(-0.02, 0.02)).prop_map(|(a, b)| vec![0.2 + a, -0.2 + b]),
            1 => prop::collection::vec(float(-0.3, 0.3), 0..4),
        ],
        step in float(1e-5, 1e-2),
        max_points in prop_oneof![8 => 1usize..4, 1 => Just(0usize)],
        corrector_tol in float(1e-10, 1e-6),
        rtol in float(1e-10, 1e-6),
    ) {
        let walker = Model::with_defaults("SimplestWalker").expect("built in");
        let family = |p: f64| walker.with_param("gamma", p);
        let settings = ContinuationOptions {
            step,
            min_step: 1e-9,
            max_step: 0.01,
            corrector_tol,
            ..ContinuationOptions::default()
        };
        let mut orbit = OrbitOptions::default();
        orbit.stride.ode = SolverOptions::with_tol(rtol);
        orbit.stride.t_max = 20.0;
        let spec = ContinuationSpec {
            param: "gamma".into(),
            branches: vec![BranchSpec {
                label: "random".into(),
                from,
                to,
                guess,
                period_doublings: 0,
                max_points: Some(max_points),
            }],
            settings,
            orbit_diagram: None,
            curves: Vec::new(),
        };
        if let Ok(r) = run_script(&family, &orbit, &spec, &mut |_| {}) {
            for b in &r.branches {
                for p in &b.points {
                    prop_assert!(p.param.is_finite());
                }
            }
        }
        let _ = walker.reduced_dim();
    }
}
