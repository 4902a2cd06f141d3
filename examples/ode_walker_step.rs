//! Integrates one stance phase of the simplest walker to heel-strike with each adaptive method
//! and prints a table: RHS evaluations, steps, event-time error against the 40-digit reference,
//! and the median wall time per integration (release build; criterion has the careful figures:
//! `cargo bench --bench ode_walker_step`).
//!
//! Run: `cargo run --release --example ode_walker_step`.

use saltation::ode::problems::{
    walker_extended_start, HeelStrike, WalkerStance, WalkerStanceVariational, WALKER_GAMMA,
    WALKER_HEELSTRIKE_TIME, WALKER_X0,
};
use saltation::ode::{Ivp, IvpSolution, Method, OdeError, SolverOptions, Stop};
use std::time::Instant;

fn median_micros(mut run: impl FnMut() -> Result<IvpSolution, OdeError>) -> (f64, IvpSolution) {
    let sol = run().expect("integration failed");
    let mut times: Vec<f64> = (0..301)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(run().expect("integration failed"));
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], sol)
}

fn main() {
    println!(
        "{:<8} {:>6} {:<12} {:>9} {:>6} {:>6} {:>12} {:>10}",
        "method", "tol", "state", "rhs_evals", "steps", "rej", "event_err", "median_us"
    );
    let plain = WalkerStance {
        gamma: WALKER_GAMMA,
    };
    let ext = WalkerStanceVariational {
        gamma: WALKER_GAMMA,
    };
    let y_ext = walker_extended_start();
    for method in [Method::Bs23, Method::Dp5, Method::Dop853] {
        for tol in [1e-6, 1e-9, 1e-12] {
            for variational in [false, true] {
                let opts = SolverOptions {
                    error_dims: Some(4),
                    ..SolverOptions::with_tol(tol)
                };
                let (us, sol) = if variational {
                    median_micros(|| {
                        Ivp::new(&ext, 0.0, &y_ext)
                            .events(&HeelStrike)
                            .solve(method, 10.0, &opts)
                    })
                } else {
                    median_micros(|| {
                        Ivp::new(&plain, 0.0, &WALKER_X0)
                            .events(&HeelStrike)
                            .solve(method, 10.0, &opts)
                    })
                };
                let t_event = match sol.stop {
                    Stop::Event(h) => h.t,
                    Stop::TimeReached => f64::NAN,
                };
                println!(
                    "{:<8} {:>6.0e} {:<12} {:>9} {:>6} {:>6} {:>12.2e} {:>10.2}",
                    method.name(),
                    tol,
                    if variational { "x + Phi (20)" } else { "x (4)" },
                    sol.stats.rhs_evals,
                    sol.stats.steps,
                    sol.stats.rejected_steps,
                    t_event - WALKER_HEELSTRIKE_TIME,
                    us
                );
            }
        }
    }
}
