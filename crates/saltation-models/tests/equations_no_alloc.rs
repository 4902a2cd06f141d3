//! An equation model evaluated through its parameter vector (`Bound<EquationModel>`, as a model
//! file holds it) allocates nothing per call: vector field, guards, enabling conditions, resets
//! and chart, for `f64` and for dual numbers in the state or in a parameter (the evaluations of
//! every integration stage, event search and Jacobian). A counting global allocator (counting
//! only on the test's own thread) checks it.

use saltation_hybrid::EvalModel;
use saltation_models::Model;
use saltation_scenario::load_model_file;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn walker_as_equations_evaluates_without_allocating() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/equations/simplest_walker.ron");
    let model = load_model_file(&path).unwrap().model;
    let Model::Equations(walker) = &model else {
        panic!("an equation model")
    };
    let gamma = walker.get("gamma").unwrap();
    let x = [0.2, -0.2, 0.4, -0.02];
    let u = [0.2, -0.2];
    let mut dx = [0.0; 4];
    let mut out = [0.0; 4];
    let mut chart = [0.0; 4];
    let mut h = [0.0; 2];
    let mut on = false;
    let info = walker.guard_info(0, 0);
    assert_eq!(
        allocations_during(|| {
            for _ in 0..100 {
                walker.flow(0, 0.0, &x, &mut dx);
                model.flow(0, 0.0, &x, &mut dx);
                h = [walker.guard(0, 0, &x), walker.guard(0, 1, &x)];
                on = walker.guard_enabled(0, 0, &x);
                assert_eq!(walker.guard_info(0, 0), info);
                walker.reset(0, 0, &x, &mut out);
                walker.chart(&u, &mut chart);
            }
        }),
        0
    );
    assert_eq!(dx[1], (x[0] - gamma).sin());
    assert_eq!(h[0], x[2] - 2.0 * x[0]);
    assert!(!on, "θ > 0: the mid-stance crossing is not a heel strike");
    assert_eq!(out[0], -x[0]);
    assert_eq!(chart[2], 2.0 * u[0]);

    // Jacobians by dual numbers in the state, and derivatives in the parameter by a dual in
    // p[0] (γ), through `Bound`: no allocation either.
    let mut jac = [0.0; 16];
    let mut jp = [0.0; 20];
    let mut gp = [0.0; 5];
    let mut hg = 0.0;
    assert_eq!(
        allocations_during(|| {
            walker.flow_and_jacobian(0, 0.0, &x, &mut dx, &mut jac);
            walker.flow_in_param(0, gamma, 0, 0.0, &x, &mut dx, &mut jp);
            hg = walker.guard_in_param(0, gamma, 0, 1, &x, &mut gp);
            walker.reset_in_param(0, gamma, 0, 0, &x, &mut out, &mut jp[..20]);
        }),
        0
    );
    assert_eq!(dx[1], (x[0] - gamma).sin());
    assert_eq!(jac[4], (x[0] - gamma).cos());
    // ∂f₁/∂γ = −cos(θ − γ): the last column of [f_x | f_p] (row 1 of the 4 × 5 matrix) — from
    // the flow_in_param call before the reset overwrote jp; recompute it to check.
    walker.flow_in_param(0, gamma, 0, 0.0, &x, &mut dx, &mut jp);
    assert_eq!(jp[5 + 4], -(x[0] - gamma).cos());
    assert_eq!(gp[4], 0.0);
    assert_eq!(hg, walker.guard(0, 1, &x));
}
