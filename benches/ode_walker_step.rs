//! One stance phase of the simplest walker (Garcia, Chatterjee, Ruina & Coleman 1998) from the
//! stable fixed point of Table 1 of Bhounsule (2014)
//! to heel-strike, with BS23, DP5 and DOP853 at rtol = atol = 1e-6, 1e-9, 1e-12, with and without
//! the 4×4 variational equations; and the `ode_solvers` crate's Dop853/Dopri5 integrating to the
//! known event time (they have no event location). Also the cost of the RHS evaluations alone,
//! both as independent calls and as a dependent chain (each call's argument waits for the
//! previous result, as stage arguments do inside Runge–Kutta steps).
//!
//! Run: `cargo bench --bench ode_walker_step`.

use criterion::{criterion_group, criterion_main, Criterion};
use ode_solvers::{Dop853, Dopri5, Vector4};
use saltation::ode::problems::{
    walker_extended_start, HeelStrike, WalkerStance, WalkerStanceVariational, WALKER_GAMMA,
    WALKER_HEELSTRIKE_TIME, WALKER_X0,
};
use saltation::ode::{Ivp, Method, OdeSystem, Solver, SolverOptions};
use std::hint::black_box;

mod support {
    pub mod walker_peers;
}
use support::walker_peers::{recorded_states, PeerWalker};

fn ours(c: &mut Criterion) {
    let mut g = c.benchmark_group("walker_step");
    for method in [Method::Bs23, Method::Dp5, Method::Dop853] {
        for tol in [1e-6, 1e-9, 1e-12] {
            let opts = SolverOptions::with_tol(tol);
            let plain = WalkerStance {
                gamma: WALKER_GAMMA,
            };
            g.bench_function(format!("{}/{tol:e}/state", method.name()), |b| {
                b.iter(|| {
                    Ivp::new(&plain, 0.0, black_box(&WALKER_X0))
                        .events(&HeelStrike)
                        .solve(method, 10.0, &opts)
                        .unwrap()
                })
            });
            // A solver reused across integrations, as stride maps use it (no allocation).
            let mut solver = Solver::new(method.stepper(), opts.clone()).unwrap();
            g.bench_function(
                format!("{}/{tol:e}/state_reused_solver", method.name()),
                |b| {
                    b.iter(|| {
                        solver
                            .start(&plain, &HeelStrike, 0.0, black_box(&WALKER_X0))
                            .unwrap();
                        solver.integrate(&plain, &HeelStrike, 10.0, None).unwrap()
                    })
                },
            );
            let ext = WalkerStanceVariational {
                gamma: WALKER_GAMMA,
            };
            let y0 = walker_extended_start();
            let opts_ext = SolverOptions {
                error_dims: Some(4),
                ..opts.clone()
            };
            g.bench_function(format!("{}/{tol:e}/variational", method.name()), |b| {
                b.iter(|| {
                    Ivp::new(&ext, 0.0, black_box(&y0))
                        .events(&HeelStrike)
                        .solve(method, 10.0, &opts_ext)
                        .unwrap()
                })
            });
        }
    }
    g.finish();
}

fn peers(c: &mut Criterion) {
    let mut g = c.benchmark_group("ode_solvers_walker_step");
    let y0 = Vector4::from_row_slice(&WALKER_X0);
    for tol in [1e-6, 1e-9, 1e-12] {
        g.bench_function(format!("dop853/{tol:e}"), |b| {
            b.iter(|| {
                let mut s = Dop853::new(
                    PeerWalker,
                    0.0,
                    WALKER_HEELSTRIKE_TIME,
                    WALKER_HEELSTRIKE_TIME,
                    black_box(y0),
                    tol,
                    tol,
                );
                s.integrate().unwrap()
            })
        });
        g.bench_function(format!("dopri5/{tol:e}"), |b| {
            b.iter(|| {
                let mut s = Dopri5::new(
                    PeerWalker,
                    0.0,
                    WALKER_HEELSTRIKE_TIME,
                    WALKER_HEELSTRIKE_TIME,
                    black_box(y0),
                    tol,
                    tol,
                );
                s.integrate().unwrap()
            })
        });
    }
    g.finish();
}

/// The RHS alone at exactly the states our DOP853 visits at 1e-12 (with and without the
/// variational equations), to measure the integrator's overhead. "independent": the calls may
/// overlap in the processor; "chained": each argument depends on the previous result (through
/// `+ 0·dy`, which the compiler cannot drop), as inside a Runge–Kutta step, so each call's full
/// latency counts.
fn rhs_only(c: &mut Criterion) {
    let plain = WalkerStance {
        gamma: WALKER_GAMMA,
    };
    let ext = WalkerStanceVariational {
        gamma: WALKER_GAMMA,
    };
    let opts = SolverOptions::with_tol(1e-12);
    let opts_ext = SolverOptions {
        error_dims: Some(4),
        ..opts.clone()
    };
    let plain_states = recorded_states(plain, &WALKER_X0, &opts);
    let ext_states = recorded_states(ext, &walker_extended_start(), &opts_ext);
    let mut g = c.benchmark_group("rhs_only");
    bench_rhs(&mut g, "state", &plain, &plain_states);
    bench_rhs(&mut g, "variational", &ext, &ext_states);
    g.finish();
}

fn bench_rhs<S: OdeSystem>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    sys: &S,
    states: &[Vec<f64>],
) {
    let n = sys.dim();
    let count = states.len();
    g.bench_function(format!("{name}/{count}_evals/independent"), |b| {
        let mut dy = vec![0.0; n];
        b.iter(|| {
            for y in states {
                sys.rhs(0.0, black_box(y), &mut dy);
                black_box(&dy);
            }
        })
    });
    g.bench_function(format!("{name}/{count}_evals/chained"), |b| {
        let mut dy = vec![0.0; n];
        let mut arg = vec![0.0; n];
        b.iter(|| {
            for y in states {
                let d = dy[n - 1] * 0.0;
                for (a, v) in arg.iter_mut().zip(y) {
                    *a = v + d;
                }
                sys.rhs(0.0, &arg, &mut dy);
            }
            black_box(&dy);
        })
    });
}

criterion_group!(benches, ours, peers, rhs_only);
criterion_main!(benches);
