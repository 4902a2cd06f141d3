//! An equation model evaluated through its parameter vector (`Bound<EquationModel>`, as a model
//! file holds it) allocates nothing per call: vector field, guards, enabling conditions, resets
//! and chart, for `f64` and for dual numbers in the state or in a parameter (the evaluations of
//! every integration stage, event search and Jacobian). A counting global allocator (counting
//! only on the test's own thread) checks it.

use num_dual::{Dual64, DualSVec64};
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
                walker.flow::<f64>(0, 0.0, &x, &mut dx);
                model.flow::<f64>(0, 0.0, &x, &mut dx);
                h = [walker.guard::<f64>(0, 0, &x), walker.guard::<f64>(0, 1, &x)];
                on = walker.guard_enabled(0, 0, &x);
                assert_eq!(walker.guard_info(0, 0), info);
                walker.reset::<f64>(0, 0, &x, &mut out);
                walker.chart::<f64>(&u, &mut chart);
            }
        }),
        0
    );
    assert_eq!(dx[1], (x[0] - gamma).sin());
    assert_eq!(h[0], x[2] - 2.0 * x[0]);
    assert!(!on, "θ > 0: the mid-stance crossing is not a heel strike");
    assert_eq!(out[0], -x[0]);
    assert_eq!(chart[2], 2.0 * u[0]);

    // Dual numbers in the state (Jacobians) and in the parameter (∂/∂γ through `Bound`).
    let xd = x.map(Dual64::from);
    let mut dxd = [Dual64::from(0.0); 4];
    let xs: [DualSVec64<4>; 4] = std::array::from_fn(|i| DualSVec64::from_re(x[i]).derivative(i));
    let mut dxs = [DualSVec64::<4>::from_re(0.0); 4];
    let mut hd = Dual64::from(0.0);
    let mut outd = [Dual64::from(0.0); 4];
    assert_eq!(
        allocations_during(|| {
            walker.flow(0, 0.0, &xs, &mut dxs);
            walker.flow_with_param(0, Dual64::new(gamma, 1.0), 0, 0.0, &xd, &mut dxd);
            hd = walker.guard_with_param(0, Dual64::new(gamma, 1.0), 0, 1, &xd);
            walker.reset_with_param(0, Dual64::new(gamma, 1.0), 0, 0, &xd, &mut outd);
        }),
        0
    );
    assert_eq!(dxs[1].re, (x[0] - gamma).sin());
    assert_eq!(dxd[1].eps, -(x[0] - gamma).cos());
    assert_eq!(hd.eps, 0.0);
}
