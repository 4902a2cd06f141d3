//! `Program::eval` allocates nothing for programs of up to 256 registers, for `f64` and for
//! static dual numbers; a counting global allocator (counting only on the test's own thread)
//! checks it, and checks that it does see the heap vector of a larger program.

use num_dual::{Dual64, DualSVec64};
use saltation_equations::{compile, Definitions, Names, Program};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A program whose output sums `n` definitions (all live at once: about `n` registers).
fn wide(n: usize) -> Program {
    let params: Vec<String> = (0..n).map(|k| format!("p{k}")).collect();
    let names = Names {
        states: &[],
        params: &params,
    };
    let defs: Vec<(String, String)> = (0..n)
        .map(|k| (format!("d{k}"), format!("3 * p{k}")))
        .collect();
    let defs = Definitions::new(&defs, &names).unwrap();
    let sum: Vec<String> = (0..n).map(|k| format!("d{k}")).collect();
    compile(&[&sum.join(" + ")], &defs, &names).unwrap()
}

#[test]
fn eval_does_not_allocate() {
    let states = strings(&["th", "dth", "ph", "dph"]);
    let params = strings(&["gamma"]);
    let names = Names {
        states: &states,
        params: &params,
    };
    let walker = compile(
        &[
            "dth",
            "sin(th - gamma)",
            "dph",
            "if(abs(ph) < 10, sin(ph)*(dth^2 - cos(th - gamma)) + sin(th - gamma), 0/0)",
        ],
        &Definitions::default(),
        &names,
    )
    .unwrap();
    assert!(walker.slots() <= 16);
    let x = [0.2, -0.2, 0.4, 0.0];
    let mut out = [0.0; 4];
    assert_eq!(
        allocations_during(|| {
            for _ in 0..100 {
                walker.eval(0.0, &x, &[0.01], &mut out);
            }
        }),
        0
    );
    assert_eq!(out[1], (0.2f64 - 0.01).sin());

    let xd = x.map(Dual64::from);
    let mut outd = [Dual64::from(0.0); 4];
    let xs: [DualSVec64<5>; 4] = std::array::from_fn(|i| DualSVec64::from_re(x[i]).derivative(i));
    let ps = [DualSVec64::from_re(0.01).derivative(4)];
    let mut outs = [DualSVec64::<5>::from_re(0.0); 4];
    assert_eq!(
        allocations_during(|| {
            walker.eval(Dual64::from(0.0), &xd, &[Dual64::new(0.01, 1.0)], &mut outd);
            walker.eval(DualSVec64::from_re(0.0), &xs, &ps, &mut outs);
        }),
        0
    );
    assert_eq!(outd[1].eps, -(0.2f64 - 0.01).cos());

    // The 64- and 256-register tiers.
    for n in [40, 200] {
        let prog = wide(n);
        assert!(prog.slots() > 16 && prog.slots() <= 256, "{}", prog.slots());
        let p: Vec<f64> = (0..n).map(|k| k as f64).collect();
        let mut o = [0.0];
        assert_eq!(allocations_during(|| prog.eval(0.0, &[], &p, &mut o)), 0);
        assert_eq!(o[0], 3.0 * (n * (n - 1) / 2) as f64);
    }

    // Beyond 256 registers one vector per call: the counter sees it.
    let big = wide(300);
    assert!(big.slots() > 256);
    let p = vec![1.0; 300];
    let mut o = [0.0];
    assert_eq!(allocations_during(|| big.eval(0.0, &[], &p, &mut o)), 1);
    assert_eq!(o[0], 900.0);
}
