//! Pseudo-arclength continuation of the simplest walker's stable gait over 200 points
//! (γ from 0.009 up, steps of 5e-5, multipliers and bifurcation detection at every point,
//! DOP853 at rtol = atol = 1e-10), with `∂F/∂γ` by central differences (a closure family) and
//! exact (`ParamFamily`: the state augmented with γ).
//!
//! Run: `cargo bench --bench walker_continuation`.

use criterion::{criterion_group, criterion_main, Criterion};
use saltation::continuation::{continue_branch, ContinuationOptions, ParamFamily, Start};
use saltation::hybrid::{Bound, ParamError};
use saltation::models::SimplestWalker;
use saltation::ode::SolverOptions;
use saltation::orbit::OrbitOptions;

fn walker(g: f64) -> Result<Bound<SimplestWalker>, ParamError> {
    Bound::with_named(SimplestWalker, [("gamma", g)])
}

fn continuation(c: &mut Criterion) {
    let mut orbit = OrbitOptions::default();
    orbit.stride.ode = SolverOptions::with_tol(1e-10);
    let mut o = ContinuationOptions::default();
    (o.step, o.max_step, o.growth, o.max_points) = (5e-5, 5e-5, 1.0, 200);
    let start = Start::new(0.009, vec![0.2, -0.2]).labelled("stable gait");
    let b = continue_branch(&walker, &start, &orbit, &o).unwrap();
    assert_eq!(b.points.len(), 200);
    let exact = ParamFamily::new(Bound::<SimplestWalker>::default(), "gamma").unwrap();
    let e = continue_branch(&exact, &start, &orbit, &o).unwrap();
    assert_eq!(e.points.len(), 200);
    let mut g = c.benchmark_group("walker_continuation");
    g.sample_size(10);
    g.bench_function("stable_gait_200_points_1e-10", |bch| {
        bch.iter(|| continue_branch(&walker, &start, &orbit, &o).unwrap())
    });
    g.bench_function("stable_gait_200_points_1e-10_exact_fp", |bch| {
        bch.iter(|| continue_branch(&exact, &start, &orbit, &o).unwrap())
    });
    g.finish();
}

criterion_group!(benches, continuation);
criterion_main!(benches);
