//! One stance phase of the simplest walker (MODELS.md §2) from the stable fixed point of Table 1
//! to heel-strike, with BS23, DP5 and DOP853 at rtol = atol = 1e-6, 1e-9, 1e-12, with and without
//! the 4×4 variational equations; and the `ode_solvers` crate's Dop853/Dopri5 integrating to the
//! known event time (they have no event location). Also the cost of the RHS evaluations alone.
//!
//! Run: `cargo bench --bench ode_walker_step`.

use criterion::{criterion_group, criterion_main, Criterion};
use ode_solvers::{Dop853, Dopri5, System, Vector4};
use saltation::ode::problems::{
    walker_extended_start, HeelStrike, WalkerStance, WalkerStanceVariational, WALKER_GAMMA,
    WALKER_HEELSTRIKE_TIME, WALKER_X0,
};
use saltation::ode::{Ivp, Method, OdeSystem, SolverOptions};
use std::hint::black_box;

struct PeerWalker;

impl System<f64, Vector4<f64>> for PeerWalker {
    fn system(&self, _t: f64, x: &Vector4<f64>, dx: &mut Vector4<f64>) {
        let (s, c) = (x[0] - WALKER_GAMMA).sin_cos();
        let sp = x[2].sin();
        dx[0] = x[1];
        dx[1] = s;
        dx[2] = x[3];
        dx[3] = s + x[1] * x[1] * sp - c * sp;
    }
}

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

/// The RHS alone, as many evaluations as our DOP853 spends at 1e-12 (with and without the
/// variational equations), to measure the integrator's overhead.
fn rhs_only(c: &mut Criterion) {
    let plain = WalkerStance {
        gamma: WALKER_GAMMA,
    };
    let ext = WalkerStanceVariational {
        gamma: WALKER_GAMMA,
    };
    let opts = SolverOptions::with_tol(1e-12);
    let n_plain = Ivp::new(&plain, 0.0, &WALKER_X0)
        .events(&HeelStrike)
        .solve(Method::Dop853, 10.0, &opts)
        .unwrap()
        .stats
        .rhs_evals;
    let y0 = walker_extended_start();
    let opts_ext = SolverOptions {
        error_dims: Some(4),
        ..opts
    };
    let n_ext = Ivp::new(&ext, 0.0, &y0)
        .events(&HeelStrike)
        .solve(Method::Dop853, 10.0, &opts_ext)
        .unwrap()
        .stats
        .rhs_evals;
    let mut g = c.benchmark_group("rhs_only");
    g.bench_function(format!("state/{n_plain}_evals"), |b| {
        let mut dx = [0.0; 4];
        b.iter(|| {
            let mut x = WALKER_X0;
            for k in 0..n_plain {
                x[0] = WALKER_X0[0] + 1e-6 * k as f64;
                plain.rhs(0.0, black_box(&x), &mut dx);
                black_box(&dx);
            }
        })
    });
    g.bench_function(format!("variational/{n_ext}_evals"), |b| {
        let mut dx = [0.0; 20];
        b.iter(|| {
            let mut x = y0;
            for k in 0..n_ext {
                x[0] = WALKER_X0[0] + 1e-6 * k as f64;
                ext.rhs(0.0, black_box(&x), &mut dx);
                black_box(&dx);
            }
        })
    });
    g.finish();
}

criterion_group!(benches, ours, peers, rhs_only);
criterion_main!(benches);
