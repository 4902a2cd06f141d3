//! Basins of attraction ([`saltation::continuation::basin`]) against closed forms and
//! independent long simulations.
//!
//! - The rimless wheel on its section `θ = −π/n` (post-impact spoke rate `u = θ̇`): by energy
//!   conservation, `½θ̇² + λ² cos(θ + α)` is constant in the stance phase, so the wheel carries
//!   its hip over the top of the stance spoke (`θ = −α`) iff
//!   `u² > u_c² = 2λ²(1 − cos(π/n − α))`; once over, every later stride is too (the post-impact
//!   rate squared is `μ²(u² + 2λ²(cos(π/n − α) − cos(π/n + α))) > u_c²` at the benchmark), and
//!   the gait attracts with the multiplier `μ²`. Below `u_c` the wheel rocks back and never
//!   strikes the next spoke: the stride fails. Every cell must be right.
//! - The simplest walker at `γ = 0.009` (Schwab & Wisse 2001: the basin is "a small, thin
//!   area"): the stable gait of Bhounsule's Table 1 is among the attractors with its published
//!   multipliers; cells reported as reaching it do reach it in an independent simulation of 300
//!   strides ([`saltation::hybrid::simulate`]), and cells reported as falls do fall there.

use saltation::continuation::basin::{
    basin_cells, identify, BasinAxis, BasinGrid, BasinOptions, CELL_FAILED,
};
use saltation::hybrid::{simulate, EvalModel, HybridError, SimulateOptions};
use saltation::models::reference::{rimless_benchmark, walker_table1};
use saltation::models::{Model, RimlessWheel};

fn grid(axes: Vec<(&str, usize, f64, f64, usize)>, base: Vec<f64>) -> BasinGrid {
    BasinGrid {
        axes: axes
            .into_iter()
            .map(|(name, index, from, to, count)| BasinAxis {
                name: name.into(),
                index,
                from,
                to,
                count,
            })
            .collect(),
        base,
    }
}

#[test]
fn rimless_wheel_basin_boundary_is_the_energy_closed_form() {
    let mf = crate::common::model_file("rimless_wheel.ron");
    let Model::RimlessWheel(wheel) = mf.model.clone() else {
        panic!("rimless_wheel.ron holds {:?}", mf.model)
    };
    let p = wheel.values();
    let (l2, a, n) = (
        rimless_benchmark::LAMBDA2,
        rimless_benchmark::ALPHA,
        f64::from(rimless_benchmark::SPOKES),
    );
    let half = std::f64::consts::PI / n;
    let uc = (2.0 * l2 * (1.0 - (half - a).cos())).sqrt();
    let mu2 = RimlessWheel::analytic_multipliers(p)[0];
    // Once over the top, always over: the next post-impact rate clears u_c.
    let next = mu2 * (uc * uc + 2.0 * l2 * ((half - a).cos() - (half + a).cos()));
    assert!(next > uc * uc);
    let g = grid(vec![("θ̇", 0, -0.2, 1.0, 121)], vec![0.0]);
    let opts = BasinOptions::default();
    let all: Vec<usize> = (0..g.cells()).collect();
    let outcomes = basin_cells(&wheel, &mf.orbit.stride, &g, &opts, &all, &|_, _| {}).unwrap();
    let r = identify(&wheel, &mf.orbit, &opts, &g, &outcomes).unwrap();
    assert_eq!(r.attractors.len(), 1);
    let exact = RimlessWheel::analytic_fixed_point(p).unwrap();
    let att = &r.attractors[0];
    assert!(
        (att.x0[1] - exact[1]).abs() < 1e-10,
        "{:?} vs {exact:?}",
        att.x0
    );
    assert!((att.multipliers[0].re - mu2).abs() < 1e-10);
    let mut checked = 0;
    for (c, &v) in r.cells.iter().enumerate() {
        let u = g.axes[0].value(c);
        // The cell straddling the boundary (none on this grid: u_c ≈ 0.2635).
        if (u - uc).abs() < 1e-3 {
            continue;
        }
        let expected = if u > uc { 0 } else { CELL_FAILED };
        assert_eq!(v, expected, "cell {c}: u = {u}, u_c = {uc}");
        checked += 1;
    }
    assert_eq!(checked, 121);
}

#[test]
fn walker_basin_cells_do_what_they_say_in_a_long_simulation() {
    let mf = crate::common::model_file("simplest_walker_continuation.ron");
    let walker = &mf.model;
    let g = grid(
        vec![("θ", 0, 0.17, 0.23, 7), ("θ̇", 1, -0.24, -0.16, 7)],
        vec![0.0, 0.0],
    );
    let opts = BasinOptions::default();
    let all: Vec<usize> = (0..g.cells()).collect();
    let outcomes = basin_cells(walker, &mf.orbit.stride, &g, &opts, &all, &|_, _| {}).unwrap();
    let r = identify(walker, &mf.orbit, &opts, &g, &outcomes).unwrap();
    // The stable gait of Table 1 with its published multipliers.
    let gait = r
        .attractors
        .iter()
        .find(|a| {
            a.x0.iter()
                .zip(walker_table1::STABLE_X0)
                .all(|(x, e)| (x - e).abs() < 1e-7)
        })
        .unwrap_or_else(|| panic!("no gait among {:?}", r.attractors));
    let (re, im) = walker_table1::STABLE_PAIR;
    let m = gait.multipliers[0];
    assert!(
        (m.re - re).abs() < 1e-7 && (m.im.abs() - im).abs() < 1e-7,
        "{m:?}"
    );
    let mut sim = SimulateOptions {
        stride: mf.orbit.stride.clone(),
        strides: 300,
        ..SimulateOptions::default()
    };
    sim.stride.start_mode = 0;
    let (mut reached, mut fell) = (0, 0);
    for (c, &v) in r.cells.iter().enumerate() {
        let u = g.start(c);
        let mut x = vec![0.0; walker.dim()];
        walker.chart(&u, &mut x);
        let trace = simulate(walker, &x, &sim);
        if v == gait.id as i64 {
            let t = trace.unwrap();
            assert!(t.failure.is_none(), "cell {c} {u:?}: {:?}", t.failure);
            let end = &t.end.1;
            for (x, e) in end.iter().zip(walker_table1::STABLE_X0) {
                assert!((x - e).abs() < 1e-8, "cell {c} {u:?} ends at {end:?}");
            }
            reached += 1;
        } else if v == CELL_FAILED {
            let failure = match trace {
                Err(e) => Some(e),
                Ok(t) => t.failure,
            };
            assert!(
                matches!(failure, Some(HybridError::Failure { .. })),
                "cell {c} {u:?}: {failure:?}"
            );
            fell += 1;
        }
    }
    assert!(
        reached >= 3 && fell >= 3,
        "{reached} reached, {fell} fell: {:?}",
        r.cells
    );
    // A thin area: most of this small box around the gait falls.
    eprintln!("walker basin 7×7: {reached} reach the gait, {fell} fall");
}
