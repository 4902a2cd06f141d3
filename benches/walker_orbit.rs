//! The simplest walker at γ = 0.009, DOP853 at rtol = atol = 1e-12: one stride map with its
//! exact Jacobian (variational equations + saltation), one without, and the full Newton solve
//! of each gait from the rough guesses of models/simplest_walker.ron, multipliers included.
//!
//! Run: `cargo bench --bench walker_orbit`.

use criterion::{criterion_group, criterion_main, Criterion};
use saltation::hybrid::{Bound, JacobianKind, StrideMap};
use saltation::models::reference::walker_table1::STABLE_X0;
use saltation::models::SimplestWalker;
use saltation::ode::SolverOptions;
use saltation::orbit::{find_periodic_orbit, OrbitOptions};
use std::hint::black_box;

fn options(tol: f64) -> OrbitOptions {
    let mut o = OrbitOptions::default();
    o.stride.ode = SolverOptions::with_tol(tol);
    o.newton.ftol = 1e-11;
    o
}

fn stride(c: &mut Criterion) {
    let walker = Bound::<SimplestWalker>::default();
    let opts = options(1e-12);
    let mut map = StrideMap::new(&walker, opts.stride.clone()).unwrap();
    let mut g = c.benchmark_group("walker_stride_1e-12");
    g.bench_function("with_jacobian", |b| {
        b.iter(|| {
            map.eval(black_box(&STABLE_X0), JacobianKind::StrideMap)
                .unwrap()
        })
    });
    g.bench_function("state_only", |b| {
        b.iter(|| map.eval(black_box(&STABLE_X0), JacobianKind::None).unwrap())
    });
    g.finish();
}

fn newton(c: &mut Criterion) {
    let walker = Bound::<SimplestWalker>::default();
    let mut g = c.benchmark_group("walker_fixed_point");
    for tol in [1e-12, 1e-14] {
        let opts = options(tol);
        g.bench_function(format!("stable_gait/{tol:e}"), |b| {
            b.iter(|| find_periodic_orbit(&walker, black_box(&[0.2, -0.2]), &opts).unwrap())
        });
        g.bench_function(format!("unstable_gait/{tol:e}"), |b| {
            b.iter(|| find_periodic_orbit(&walker, black_box(&[0.19, -0.2]), &opts).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, stride, newton);
criterion_main!(benches);
