//! Basins of the bounce maps, against their closed forms.

use super::*;
use crate::test_models::{bounce, flip, FlipBounce, QuadraticBounce};
use saltation_hybrid::StrideOptions;
use saltation_orbit::OrbitOptions;

fn orbit_options() -> OrbitOptions {
    let mut o = OrbitOptions::default();
    o.stride.ode.rtol = 1e-11;
    o.stride.ode.atol = saltation_ode::Atol::Scalar(1e-11);
    o
}

fn grid(from: f64, to: f64, count: usize) -> BasinGrid {
    BasinGrid {
        axes: vec![BasinAxis {
            name: "u0".into(),
            index: 0,
            from,
            to,
            count,
        }],
        base: vec![0.0],
    }
}

fn run<M: saltation_hybrid::EvalModel + Sync>(
    model: &M,
    g: &BasinGrid,
    opts: &BasinOptions,
    stride: &StrideOptions,
    cells: &[usize],
) -> Vec<StartOutcome> {
    basin_cells(model, stride, g, opts, cells, &|_, _| {}).unwrap()
}

/// `u ↦ u² + p` at `p = 0.16`: the fixed point `0.2` (multiplier 0.4) attracts `|u| < 0.8`;
/// above the unstable fixed point 0.8 the speed grows until the flight outlasts `t_max`.
#[test]
fn quadratic_map_basin_is_below_the_unstable_fixed_point() {
    let model = bounce(0.16).unwrap();
    let o = orbit_options();
    let g = grid(0.02, 0.98, 25);
    let opts = BasinOptions {
        strides: 200,
        ..BasinOptions::default()
    };
    let all: Vec<usize> = (0..g.cells()).collect();
    let outcomes = run(&model, &g, &opts, &o.stride, &all);
    let r = identify(&model, &o, &opts, &g, &outcomes).unwrap();
    assert_eq!(r.attractors.len(), 1, "{:?}", r.attractors);
    let a = &r.attractors[0];
    assert_eq!(a.period_k, 1);
    assert!((a.u0[0] - QuadraticBounce::fixed_point(0.16)).abs() < 1e-9);
    assert!(
        (a.multipliers[0].re - 0.4).abs() < 1e-8,
        "{:?}",
        a.multipliers
    );
    assert!(a.stable);
    for (c, &v) in r.cells.iter().enumerate() {
        let u = g.axes[0].value(c);
        // 0.8 itself is not on the grid (0.02 + 0.04 k).
        let expected = if u < 0.8 { 0 } else { CELL_FAILED };
        assert_eq!(v, expected, "cell {c} at u = {u}");
    }
    let (per, failed, undecided) = r.fractions();
    assert_eq!((per[0], failed, undecided), (20.0 / 25.0, 5.0 / 25.0, 0.0));
    assert_eq!(r.failure_causes.len(), 1, "{:?}", r.failure_causes);
    assert_eq!(r.failure_causes[0].1, 5);
    // A start on the unstable fixed point stays there: an orbit reached, marked unstable.
    let on = grid(0.8, 0.8, 1);
    let outcomes = run(&model, &on, &opts, &o.stride, &[0]);
    let r = identify(&model, &o, &opts, &on, &outcomes).unwrap();
    assert_eq!(r.cells, vec![0]);
    assert!(!r.attractors[0].stable);
    assert_eq!(r.attractors[0].label, "A0 (period 1, unstable)");
    assert!((r.attractors[0].multipliers[0].re - 1.6).abs() < 1e-8);
}

/// `u ↦ p − u²` at `p = 0.85`: the period-2 orbit `(1 ± sqrt(4p − 3))/2` with multiplier
/// `4 − 4p = 0.6` attracts; found from starts that detect it as period 2 (or a multiple).
#[test]
fn flip_map_attractor_is_period_two_with_its_multiplier() {
    let p = 0.85;
    let model = flip(p).unwrap();
    let o = orbit_options();
    let g = grid(0.3, 0.7, 5);
    let opts = BasinOptions {
        strides: 400,
        ..BasinOptions::default()
    };
    let all: Vec<usize> = (0..g.cells()).collect();
    let outcomes = run(&model, &g, &opts, &o.stride, &all);
    let r = identify(&model, &o, &opts, &g, &outcomes).unwrap();
    assert_eq!(r.attractors.len(), 1, "{:?} {:?}", r.attractors, r.cells);
    let a = &r.attractors[0];
    assert_eq!(a.period_k, 2);
    let (lo, hi) = FlipBounce::period_two(p).unwrap();
    let mut pts: Vec<f64> = a.cycle.iter().map(|(u, _)| u[0]).collect();
    pts.sort_by(f64::total_cmp);
    assert!(
        (pts[0] - lo).abs() < 1e-8 && (pts[1] - hi).abs() < 1e-8,
        "{pts:?}"
    );
    assert!(
        (a.multipliers[0].re - (4.0 - 4.0 * p)).abs() < 1e-7,
        "{:?}",
        a.multipliers
    );
    // The start on the (unstable) fixed point (sqrt(1 + 4p) − 1)/2 ≈ 0.5 is not on the grid.
    assert!(r.cells.iter().all(|&v| v == 0), "{:?}", r.cells);
}

/// The cells computed in any split give the same outcomes, so the same result.
#[test]
fn split_cells_give_the_same_outcomes() {
    let model = bounce(0.16).unwrap();
    let o = orbit_options();
    let g = grid(0.05, 1.0, 7);
    let opts = BasinOptions::default();
    let all: Vec<usize> = (0..g.cells()).collect();
    let whole = run(&model, &g, &opts, &o.stride, &all);
    let odd: Vec<usize> = all.iter().copied().filter(|c| c % 2 == 1).collect();
    let even: Vec<usize> = all.iter().copied().filter(|c| c % 2 == 0).collect();
    let (a, b) = (
        run(&model, &g, &opts, &o.stride, &odd),
        run(&model, &g, &opts, &o.stride, &even),
    );
    for (k, c) in odd.iter().enumerate() {
        assert_eq!(a[k], whole[*c]);
    }
    for (k, c) in even.iter().enumerate() {
        assert_eq!(b[k], whole[*c]);
    }
}

#[test]
fn options_and_cells_are_checked() {
    let model = bounce(0.16).unwrap();
    let o = orbit_options();
    let g = grid(0.05, 1.0, 7);
    let field = |r: Result<Vec<StartOutcome>, ContinuationError>| match r {
        Err(ContinuationError::InvalidOption { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    let bad = |edit: fn(&mut BasinOptions)| {
        let mut opts = BasinOptions::default();
        edit(&mut opts);
        field(basin_cells(&model, &o.stride, &g, &opts, &[0], &|_, _| {}))
    };
    assert_eq!(bad(|o| o.strides = 0), "strides");
    assert_eq!(bad(|o| o.max_period = 0), "max_period");
    assert_eq!(bad(|o| o.max_period = MAX_BASIN_PERIOD + 1), "max_period");
    assert_eq!(bad(|o| o.tol = 0.0), "tol");
    assert_eq!(bad(|o| o.dedup_tol = 1e-9), "dedup_tol");
    let opts = BasinOptions::default();
    assert_eq!(
        field(basin_cells(&model, &o.stride, &g, &opts, &[7], &|_, _| {})),
        "cells"
    );
    assert!(matches!(
        identify(&model, &o, &opts, &g, &[]),
        Err(ContinuationError::InvalidOption { .. })
    ));
}
