//! Repeats one walker stance phase many times in one process, for whole-process timing and for
//! profilers (`valgrind --tool=callgrind`, `perf record`). Pair two runs of it — e.g. `ours`
//! against `ode_solvers` — alternately to compare them on a drifting machine.
//!
//! ```text
//! cargo run --release --example ode_walker_repeat -- MODE [TOL] [RUNS]
//! ```
//! MODE:
//! - `ours`: `Ivp::solve` with DOP853 to the located heel-strike (a new solver per integration);
//! - `reused`: one `Solver` restarted for each integration (as stride maps use it);
//! - `ode_solvers`: the `ode_solvers` crate's Dop853 to the known event time;
//! - `rhs`, `rhs_chained`: the RHS alone at exactly the states our DOP853 visits, as independent
//!   calls or as a dependent chain (each argument waits for the previous result, as stage
//!   arguments do inside a Runge–Kutta step);
//! - `share`: alternating batches of 200 `reused` integrations and 200 `rhs_chained` replays;
//!   prints the share of time spent outside the RHS (median over batch pairs, with quartiles).
//!
//! TOL is `rtol = atol` (default 1e-12), RUNS the number of integrations (default 100000).

use ode_solvers::{Dop853, Vector4};
use saltation::ode::problems::{
    HeelStrike, WalkerStance, WALKER_GAMMA, WALKER_HEELSTRIKE_TIME, WALKER_X0,
};
use saltation::ode::{Ivp, Method, OdeSystem, Solver, SolverOptions};
use std::hint::black_box;
use std::time::Instant;

#[path = "../benches/support/walker_peers.rs"]
mod walker_peers;
use walker_peers::{recorded_states, PeerWalker};

fn rhs_chained(sys: &WalkerStance, states: &[[f64; 4]]) {
    let mut dx = [0.0; 4];
    for x in states {
        // `+ 0·dx` ties each argument to the previous result; the compiler cannot drop it.
        let d = dx[3] * 0.0;
        let y = [x[0] + d, x[1] + d, x[2] + d, x[3] + d];
        sys.rhs(0.0, &y, &mut dx);
    }
    black_box(&dx);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "ours".into());
    let tol: f64 = args
        .next()
        .map_or(1e-12, |a| a.parse().expect("TOL: a number"));
    let runs: usize = args
        .next()
        .map_or(100_000, |a| a.parse().expect("RUNS: a count"));
    let sys = WalkerStance {
        gamma: WALKER_GAMMA,
    };
    let opts = SolverOptions::with_tol(tol);
    // Fixed-size copies, so that the replay's loads cost no more than the integrator's.
    let states: Vec<[f64; 4]> = recorded_states(sys, &WALKER_X0, &opts)
        .iter()
        .map(|y| [y[0], y[1], y[2], y[3]])
        .collect();
    let mut solver = Solver::new(Method::Dop853.stepper(), opts.clone()).expect("valid options");
    let mut reused = || {
        solver
            .start(&sys, &HeelStrike, 0.0, black_box(&WALKER_X0))
            .and_then(|_| solver.integrate(&sys, &HeelStrike, 10.0, None))
            .expect("integration failed")
    };
    if mode == "share" {
        // Alternating short batches; each pair gives one share, so a drifting clock moves both
        // halves of a pair alike. The median over pairs is reported, with its quartiles.
        const BATCH: usize = 200;
        let (mut t_int, mut t_rhs, mut shares) = (0.0, 0.0, Vec::new());
        for _ in 0..runs.div_ceil(BATCH) {
            let t = Instant::now();
            for _ in 0..BATCH {
                black_box(reused());
            }
            let ti = t.elapsed().as_secs_f64();
            let t = Instant::now();
            for _ in 0..BATCH {
                rhs_chained(&sys, &states);
            }
            let tr = t.elapsed().as_secs_f64();
            t_int += ti;
            t_rhs += tr;
            shares.push(100.0 * (1.0 - tr / ti));
        }
        shares.sort_by(f64::total_cmp);
        let q = |f: f64| shares[((shares.len() - 1) as f64 * f).round() as usize];
        let per = |t: f64| t * 1e6 / (shares.len() * BATCH) as f64;
        println!(
            "tol {tol:e}: integration {:.3} µs, RHS chain ({} evaluations) {:.3} µs, outside the RHS: median {:.1} % (quartiles {:.1}-{:.1} %, {} batch pairs)",
            per(t_int),
            states.len(),
            per(t_rhs),
            q(0.5),
            q(0.25),
            q(0.75),
            shares.len()
        );
        return;
    }
    let start = Instant::now();
    let mut evals = 0;
    for _ in 0..runs {
        evals += match mode.as_str() {
            "ours" => {
                Ivp::new(&sys, 0.0, black_box(&WALKER_X0))
                    .events(&HeelStrike)
                    .solve(Method::Dop853, 10.0, &opts)
                    .expect("integration failed")
                    .stats
                    .rhs_evals
            }
            "reused" => {
                black_box(reused());
                states.len()
            }
            "ode_solvers" => {
                let y0 = Vector4::from_row_slice(black_box(&WALKER_X0));
                let t1 = WALKER_HEELSTRIKE_TIME;
                let mut s = Dop853::new(PeerWalker, 0.0, t1, t1, y0, tol, tol);
                s.integrate().expect("integration failed").num_eval as usize
            }
            "rhs" => {
                let mut dx = [0.0; 4];
                for x in &states {
                    sys.rhs(0.0, black_box(x), &mut dx);
                    black_box(&dx);
                }
                states.len()
            }
            "rhs_chained" => {
                rhs_chained(&sys, &states);
                states.len()
            }
            other => {
                panic!("unknown MODE {other}: ours, reused, ode_solvers, rhs, rhs_chained, share")
            }
        };
    }
    println!(
        "{mode} tol {tol:e}: {:.3} µs per integration, {} RHS evaluations each",
        start.elapsed().as_secs_f64() * 1e6 / runs as f64,
        evals / runs
    );
}
