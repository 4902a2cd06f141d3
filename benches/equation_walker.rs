//! The simplest walker written as equations (models/equations/simplest_walker.ron) against the
//! hand-written built-in model: the stable gait's fixed point and multipliers by Newton from the
//! file's guess, DOP853 at rtol = atol = 1e-12 and 1e-14, and one vector-field evaluation.
//!
//! Run: `cargo bench --bench equation_walker`.

use criterion::{criterion_group, criterion_main, Criterion};
use saltation::hybrid::{Bound, EvalModel};
use saltation::models::SimplestWalker;
use saltation::ode::SolverOptions;
use saltation::orbit::{find_periodic_orbit, OrbitOptions};
use saltation::scenario::load_model_file;
use std::hint::black_box;
use std::path::Path;

fn options(tol: f64) -> OrbitOptions {
    let mut o = OrbitOptions::default();
    o.stride.ode = SolverOptions::with_tol(tol);
    o.newton.ftol = 1e-11;
    o
}

fn solve(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/equations/simplest_walker.ron");
    let file = load_model_file(&path).expect("the shipped equation file loads");
    let equations = file.model;
    let builtin = Bound::<SimplestWalker>::default();
    let mut g = c.benchmark_group("walker_stable_gait");
    for tol in [1e-12, 1e-14] {
        let opts = options(tol);
        g.bench_function(format!("built_in/{tol:e}"), |b| {
            b.iter(|| find_periodic_orbit(&builtin, black_box(&[0.2, -0.2]), &opts).unwrap())
        });
        g.bench_function(format!("equations/{tol:e}"), |b| {
            b.iter(|| find_periodic_orbit(&equations, black_box(&[0.2, -0.2]), &opts).unwrap())
        });
    }
    g.finish();
    let x = [0.2, -0.2, 0.4, -0.02];
    let mut dx = [0.0; 4];
    let mut g = c.benchmark_group("walker_vector_field");
    g.bench_function("built_in", |b| {
        b.iter(|| builtin.flow(0, 0.0, black_box(&x), &mut dx))
    });
    g.bench_function("equations", |b| {
        b.iter(|| equations.flow(0, 0.0, black_box(&x), &mut dx))
    });
    g.finish();
}

criterion_group!(benches, solve);
criterion_main!(benches);
