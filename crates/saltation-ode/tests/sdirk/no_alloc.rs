//! No allocation per step.

use super::*;

mod counting {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<usize> = const { Cell::new(0) };
    }

    pub struct Counting;
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            unsafe { System.alloc(layout) }
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            unsafe { System.alloc_zeroed(layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
            unsafe { System.realloc(ptr, layout, new_size) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    /// Allocations made by this thread so far.
    pub fn count() -> usize {
        COUNT.with(|c| c.get())
    }
}

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

#[test]
fn steps_do_not_allocate() {
    let mut opts = SolverOptions {
        rtol: 1e-6,
        atol: Atol::Vector(vec![1e-12, 1e-16, 1e-12]),
        ..Default::default()
    };
    // Keep J while the iteration contracts (MATLAB's rule): the failure path is exercised too.
    opts.newton.jacobian_reuse = Some(0.5);
    for (method, dae) in [
        (Method::Trapezoid, false),
        (Method::Trapezoid, true),
        (Method::Trbdf2, false),
    ] {
        let sys = Robertson { dae };
        let mut stepper = method.stepper();
        let mut stats = Stats::default();
        stepper
            .start(&sys, 0.0, &[1.0, 0.0, 0.0], &opts, &mut stats)
            .unwrap();
        let mut out = [0.0; 3];
        let before = counting::count();
        while stepper.t() < 40.0 {
            stepper.step(&sys, 40.0, &opts, &mut stats).unwrap();
            let e = stepper.ends();
            let tm = 0.5 * (e.t0 + e.t1);
            stepper.dense(&sys, tm, &mut out, &mut stats);
        }
        assert_eq!(counting::count(), before, "{method:?}: {stats:?}");
        assert!(stats.steps > 50 && stats.newton_failures > 0, "{stats:?}");
    }
}
