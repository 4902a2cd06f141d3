//! The vertical hopper of Zana, Bodor, Bencsik & Zelei (2018) at the §4.2 defaults, DOP853 at
//! rtol = atol = 1e-12, in both forms: the constrained four-particle model built by the
//! constrained-mechanics layer and the hand-written minimal-coordinate one. The full Newton
//! solve (fixed point and multipliers) from the guess (1.02, 1.7) and from the converged fixed
//! point (one warm solve); one stride map with its full Jacobian, with `P_x Dχ` (the variational
//! equations seeded with the section chart's Jacobian, as Newton's strides are) and without;
//! single flow and flow-Jacobian evaluations at the lift-off state. `constrained_generic` is the
//! constrained form without its constant-structure hints (constant mass matrix, affine
//! constraints, affine forces): the path of a system with a configuration-dependent mass matrix,
//! nonlinear constraints and nonlinear forces.
//!
//! Run: `cargo bench --bench hopper_orbit`.

use criterion::{criterion_group, criterion_main, Criterion};
use saltation::hybrid::{Bound, EvalModel, JacobianKind, Param, Scalar, StrideMap};
use saltation::mechanics::{Constrained, ContactSet, MechanicalSystem, Section};
use saltation::models::hopper::{
    stride_options, Hopper, HopperParams, HopperParticles, HopperUnconstrained, FLIGHT, GROUND,
};
use saltation::orbit::{find_periodic_orbit, OrbitOptions};
use std::hint::black_box;

/// Lift-off guess `(z_U, ż_U)` near the §4.2 gait.
const GUESS: [f64; 2] = [1.02, 1.7];

fn options() -> OrbitOptions {
    OrbitOptions {
        stride: stride_options(1e-12, 20.0),
        ..OrbitOptions::default()
    }
}

fn constrained() -> Bound<Hopper> {
    HopperParticles::bound(&HopperParams::default(), 0.5, 0.5).unwrap()
}

/// A system with its constant-structure hints hidden (they default to `false`).
#[derive(Clone)]
struct NoHints<S>(S);

impl<S: MechanicalSystem> MechanicalSystem for NoHints<S> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn dofs(&self) -> usize {
        self.0.dofs()
    }
    fn params(&self) -> &[Param] {
        self.0.params()
    }
    fn mass_matrix<D: Scalar>(&self, p: &[D], q: &[D], h: &mut [D]) {
        self.0.mass_matrix(p, q, h)
    }
    fn forces<D: Scalar>(&self, p: &[D], closed: ContactSet, q: &[D], qd: &[D], c: &mut [D]) {
        self.0.forces(p, closed, q, qd, c)
    }
    fn bilateral_count(&self) -> usize {
        self.0.bilateral_count()
    }
    fn bilateral<D: Scalar>(&self, p: &[D], q: &[D], gamma: &mut [D]) {
        self.0.bilateral(p, q, gamma)
    }
    fn contact_count(&self) -> usize {
        self.0.contact_count()
    }
    fn gap<D: Scalar>(&self, p: &[D], i: usize, q: &[D]) -> D {
        self.0.gap(p, i, q)
    }
    fn section(&self) -> Option<Section> {
        self.0.section()
    }
}

fn constrained_generic() -> Bound<Constrained<NoHints<HopperParticles>>> {
    Bound::new(Constrained::from_system(NoHints(HopperParticles)).unwrap())
}

fn unconstrained() -> Bound<HopperUnconstrained> {
    Bound::default()
}

/// Newton solves from the guess and from the fixed point.
fn orbit<M: EvalModel>(c: &mut Criterion, name: &str, model: &M) {
    let opts = options();
    let u_star = find_periodic_orbit(model, &GUESS, &opts).unwrap().u0;
    let mut g = c.benchmark_group(format!("hopper_orbit/{name}"));
    g.bench_function("from_guess", |b| {
        b.iter(|| find_periodic_orbit(model, black_box(&GUESS), &opts).unwrap())
    });
    g.bench_function("warm", |b| {
        b.iter(|| find_periodic_orbit(model, black_box(&u_star), &opts).unwrap())
    });
    g.finish();
}

/// One stride from the fixed point, with its full Jacobian, with the Jacobian times the chart's
/// (`P_x Dχ`, what Newton's strides carry) and without; one flow and one flow Jacobian in each
/// mode at the lift-off state.
fn pieces<M: EvalModel>(c: &mut Criterion, name: &str, model: &M) {
    let opts = options();
    let orbit = find_periodic_orbit(model, &GUESS, &opts).unwrap();
    let x0 = orbit.x0;
    let (n, r) = (model.dim(), model.reduced_dim());
    let mut dchi = vec![0.0; n * r];
    model.chart_jacobian(&orbit.u0, &mut dchi);
    let mut map = StrideMap::new(model, opts.stride.clone()).unwrap();
    let mut g = c.benchmark_group(format!("hopper_stride/{name}"));
    g.bench_function("with_jacobian", |b| {
        b.iter(|| map.eval(black_box(&x0), JacobianKind::StrideMap).unwrap())
    });
    g.bench_function("with_chart_jacobian", |b| {
        b.iter(|| {
            map.eval_seeded(black_box(&x0), JacobianKind::StrideMap, &dchi, r)
                .unwrap()
        })
    });
    g.bench_function("state_only", |b| {
        b.iter(|| map.eval(black_box(&x0), JacobianKind::None).unwrap())
    });
    g.finish();
    let n = model.dim();
    let mut g = c.benchmark_group(format!("hopper_flow/{name}"));
    for (mode, label) in [(FLIGHT, "flight"), (GROUND, "ground")] {
        let mut dx = vec![0.0; n];
        let mut jac = vec![0.0; n * n];
        g.bench_function(format!("{label}/f"), |b| {
            b.iter(|| model.flow(mode, 0.0, black_box(&x0), &mut dx))
        });
        g.bench_function(format!("{label}/f_x"), |b| {
            b.iter(|| model.flow_jacobian(mode, 0.0, black_box(&x0), &mut jac))
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    orbit(c, "constrained", &constrained());
    orbit(c, "constrained_generic", &constrained_generic());
    orbit(c, "unconstrained", &unconstrained());
    pieces(c, "constrained", &constrained());
    pieces(c, "constrained_generic", &constrained_generic());
    pieces(c, "unconstrained", &unconstrained());
}

criterion_group!(hopper, benches);
criterion_main!(hopper);
