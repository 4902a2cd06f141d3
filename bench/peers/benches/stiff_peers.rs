//! Criterion comparison of saltation's implicit integrators with the `diffsol` crate
//! (Robinson et al., diffsol 0.18: variable-order BDF, and the SDIRK family with the TR-BDF2
//! and ESDIRK34 tableaus) on two stiff problems of the Test Set for IVP Solvers (Mazzia &
//! Magherini 2008; Hairer & Wanner 1996, §IV.1 and §IV.10):
//! - ROBER (Robertson 1966) on `[0, 10¹¹]`, `atol = 10⁻⁶ · rtol`;
//! - VDPOL, van der Pol in Hairer & Wanner's scaled form with `ε = 10⁻⁶`, on `[0, 2]`,
//!   `atol = rtol`.
//!
//! Both libraries get the same tolerances (error weight `rtol |y| + atol`, RMS norm in both)
//! and the exact derivative information: saltation the model's Jacobian through `ModeFlow`,
//! diffsol the exact Jacobian–vector product (from which it assembles its Jacobian). As equal
//! tolerances do not mean equal accuracy, the benchmark first prints every solver's achieved
//! end-point error, the mixed relative error `max_i |y_i − ref_i| / (|ref_i| + atol/rtol)`
//! whose `−log10` is the test set's "mixed error significant correct digits", with its step
//! and linear-solver-setup counts; compare times at equal error, not at equal tolerance.
//!
//! ```text
//! cd bench/peers && cargo bench
//! ```
//!
//! Before the criterion groups it also times every diffsol solver over the work–precision
//! example's tolerance sweep (median of up to 7 runs, as the example times saltation) and writes
//! `figures/work_precision_diffsol_{rober,vdpol}.csv`, which `cargo run --release --example
//! work_precision` then draws beside saltation's curves.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use diffsol::{
    NalgebraLU, NalgebraMat, OdeBuilder, OdeEquationsImplicit, OdeSolverMethod, OdeSolverProblem,
    OdeSolverStopReason, Vector,
};
use saltation::hybrid::{Bound, EvalModel, ModeFlow};
use saltation::models::reference::{rober, vdpol};
use saltation::models::{Robertson, VanDerPolStiff};
use saltation::ode::{Atol, Ivp, Method, SolverOptions};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

type M = NalgebraMat<f64>;
type LS = NalgebraLU<f64>;

/// The tolerances compared under criterion.
const RTOLS: [f64; 3] = [1e-4, 1e-6, 1e-8];
/// The tolerances of the CSV files (the work–precision example's sweep).
const CSV_RTOLS: [f64; 8] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];

/// saltation's methods in the comparison.
const SALTATION: [Method; 4] = [Method::Radau5, Method::Ndf, Method::Bdf, Method::Trbdf2];
/// diffsol's solvers in the comparison.
const DIFFSOL: [&str; 3] = ["bdf", "tr_bdf2", "esdirk34"];

/// `max_i |y_i − ref_i| / (|ref_i| + c)`.
fn mixed_error(y: &[f64], reference: &[f64], c: f64) -> f64 {
    y.iter()
        .zip(reference)
        .map(|(y, r)| (y - r).abs() / (r.abs() + c))
        .fold(0.0, f64::max)
}

/// End state and (steps, LU decompositions) of a saltation run.
fn saltation_solve<H: EvalModel>(
    model: &H,
    y0: &[f64],
    t_end: f64,
    method: Method,
    rtol: f64,
    c: f64,
) -> Result<(Vec<f64>, usize, usize), String> {
    let sys = ModeFlow { model, mode: 0 };
    let opts = SolverOptions {
        rtol,
        atol: Atol::Scalar(c * rtol),
        max_steps: 1_000_000,
        ..SolverOptions::default()
    };
    let sol = Ivp::new(&sys, 0.0, y0)
        .solve(method, t_end, &opts)
        .map_err(|e| e.to_string())?;
    Ok((sol.y, sol.stats.steps, sol.stats.lu_decompositions))
}

/// Integrates a diffsol solver to `t_end`; end state and (steps, linear-solver setups).
fn diffsol_run<'a, Eqn, S>(mut s: S, t_end: f64) -> Result<(Vec<f64>, usize, usize), String>
where
    Eqn: OdeEquationsImplicit<T = f64> + 'a,
    S: OdeSolverMethod<'a, Eqn>,
{
    s.set_stop_time(t_end).map_err(|e| e.to_string())?;
    loop {
        match s.step().map_err(|e| e.to_string())? {
            OdeSolverStopReason::TstopReached => break,
            OdeSolverStopReason::InternalTimestep => {}
            OdeSolverStopReason::RootFound(..) => return Err("unexpected root".into()),
        }
    }
    let st = s.get_statistics();
    Ok((
        s.state().y.clone_as_vec(),
        st.number_of_steps,
        st.number_of_linear_solver_setups,
    ))
}

fn diffsol_solve<Eqn>(
    problem: &OdeSolverProblem<Eqn>,
    solver: &str,
    t_end: f64,
) -> Result<(Vec<f64>, usize, usize), String>
where
    Eqn: OdeEquationsImplicit<
        M = M,
        T = f64,
        V = <M as diffsol::MatrixCommon>::V,
        C = <M as diffsol::MatrixCommon>::C,
    >,
{
    let e = |e: diffsol::DiffsolError| e.to_string();
    match solver {
        "bdf" => diffsol_run(problem.bdf::<LS>().map_err(e)?, t_end),
        "tr_bdf2" => diffsol_run(problem.tr_bdf2::<LS>().map_err(e)?, t_end),
        "esdirk34" => diffsol_run(problem.esdirk34::<LS>().map_err(e)?, t_end),
        _ => unreachable!(),
    }
}

fn rober_problem(
    rtol: f64,
) -> OdeSolverProblem<
    impl OdeEquationsImplicit<
        M = M,
        T = f64,
        V = <M as diffsol::MatrixCommon>::V,
        C = <M as diffsol::MatrixCommon>::C,
    >,
> {
    OdeBuilder::<M>::new()
        .rtol(rtol)
        .atol([1e-6 * rtol])
        .rhs_implicit(
            |x, _p, _t, y| {
                y[0] = -0.04 * x[0] + 1e4 * x[1] * x[2];
                y[1] = 0.04 * x[0] - 1e4 * x[1] * x[2] - 3e7 * x[1] * x[1];
                y[2] = 3e7 * x[1] * x[1];
            },
            |x, _p, _t, v, y| {
                y[0] = -0.04 * v[0] + 1e4 * x[2] * v[1] + 1e4 * x[1] * v[2];
                y[1] = 0.04 * v[0] - (1e4 * x[2] + 6e7 * x[1]) * v[1] - 1e4 * x[1] * v[2];
                y[2] = 6e7 * x[1] * v[1];
            },
        )
        .init(
            |_p, _t, y| {
                y[0] = 1.0;
                y[1] = 0.0;
                y[2] = 0.0;
            },
            3,
        )
        .build()
        .expect("ROBER builds")
}

fn vdpol_problem(
    rtol: f64,
) -> OdeSolverProblem<
    impl OdeEquationsImplicit<
        M = M,
        T = f64,
        V = <M as diffsol::MatrixCommon>::V,
        C = <M as diffsol::MatrixCommon>::C,
    >,
> {
    const EPS: f64 = vdpol::EPS;
    OdeBuilder::<M>::new()
        .rtol(rtol)
        .atol([rtol])
        .rhs_implicit(
            |x, _p, _t, y| {
                y[0] = x[1];
                y[1] = ((1.0 - x[0] * x[0]) * x[1] - x[0]) / EPS;
            },
            |x, _p, _t, v, y| {
                y[0] = v[1];
                y[1] = ((-2.0 * x[0] * x[1] - 1.0) * v[0] + (1.0 - x[0] * x[0]) * v[1]) / EPS;
            },
        )
        .init(
            |_p, _t, y| {
                y[0] = 2.0;
                y[1] = 0.0;
            },
            2,
        )
        .build()
        .expect("VDPOL builds")
}

fn report(
    problem: &str,
    rtol: f64,
    solver: &str,
    r: &Result<(Vec<f64>, usize, usize), String>,
    reference: &[f64],
    c: f64,
) {
    match r {
        Ok((y, steps, lu)) => {
            let err = mixed_error(y, reference, c);
            println!(
                "{problem:<6} {rtol:>7.0e} {solver:<20} {err:>10.3e} {:>6.2} {steps:>8} {lu:>7}",
                -err.log10()
            );
        }
        Err(e) => println!("{problem:<6} {rtol:>7.0e} {solver:<20} failed: {e}"),
    }
}

/// Median wall time of `run` (seconds): up to 7 runs while their total stays under 0.3 s, as
/// `examples/work_precision.rs` times saltation's runs.
fn median_time<T>(mut run: impl FnMut() -> T) -> f64 {
    let mut times = Vec::new();
    let mut total = 0.0;
    while times.len() < 7 && (times.is_empty() || total < 0.3) {
        let start = Instant::now();
        black_box(run());
        let t = start.elapsed().as_secs_f64();
        times.push(t);
        total += t;
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// Writes `figures/work_precision_diffsol_<problem>.csv` (the columns of
/// `examples/work_precision.rs`; diffsol reports no rejected steps, f or Jacobian counts or
/// Newton iterations, so those stay empty), which that example draws beside saltation's curves.
fn write_diffsol_csv(problem: &str, rows: &[String]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../figures");
    let mut text = String::from(
        "problem,method,rtol,atol,status,error,mescd,time_s,repeats,steps,rejected_steps,\
         rhs_evals,jacobian_evals,lu_decompositions,newton_iters\n",
    );
    for r in rows {
        text.push_str(r);
        text.push('\n');
    }
    let path = dir.join(format!("work_precision_diffsol_{problem}.csv"));
    match std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, text)) {
        Ok(()) => println!("wrote {}", path.display()),
        Err(e) => println!("could not write {}: {e}", path.display()),
    }
}

/// One CSV row of a diffsol run.
fn csv_row(
    problem: &str,
    solver: &str,
    rtol: f64,
    c: f64,
    r: &Result<(Vec<f64>, usize, usize), String>,
    reference: &[f64],
    time_s: f64,
) -> String {
    match r {
        Ok((y, steps, lu)) => {
            let err = mixed_error(y, reference, c);
            format!(
                "{problem},diffsol {solver},{rtol:e},{:e},ok,{err:e},{:e},{time_s:e},,{steps},,,,{lu},",
                c * rtol,
                -err.log10()
            )
        }
        Err(e) => format!(
            "{problem},diffsol {solver},{rtol:e},{:e},\"failed: {}\",,,,,,,,,,",
            c * rtol,
            e.replace('"', "'")
        ),
    }
}

fn bench(c: &mut Criterion) {
    let rob = Bound::new(Robertson);
    let vdp = Bound::new(VanDerPolStiff);
    let (mut rober_rows, mut vdpol_rows) = (Vec::new(), Vec::new());
    for &rtol in &CSV_RTOLS {
        let (pr, pv) = (rober_problem(rtol), vdpol_problem(rtol));
        for s in DIFFSOL {
            let r = diffsol_solve(&pr, s, rober::T_END);
            let t = if r.is_ok() {
                median_time(|| diffsol_solve(&pr, s, rober::T_END))
            } else {
                f64::NAN
            };
            rober_rows.push(csv_row("rober", s, rtol, 1e-6, &r, &rober::Y_END, t));
            let r = diffsol_solve(&pv, s, vdpol::T_END);
            let t = if r.is_ok() {
                median_time(|| diffsol_solve(&pv, s, vdpol::T_END))
            } else {
                f64::NAN
            };
            vdpol_rows.push(csv_row("vdpol", s, rtol, 1.0, &r, &vdpol::Y_END, t));
        }
    }
    write_diffsol_csv("rober", &rober_rows);
    write_diffsol_csv("vdpol", &vdpol_rows);
    println!(
        "{:<6} {:>7} {:<20} {:>10} {:>6} {:>8} {:>7}",
        "problem", "rtol", "solver", "error", "mescd", "steps", "lu"
    );
    for &rtol in &RTOLS {
        let pr = rober_problem(rtol);
        let pv = vdpol_problem(rtol);
        for m in SALTATION {
            let name = format!("saltation/{}", m.name());
            report(
                "ROBER",
                rtol,
                &name,
                &saltation_solve(&rob, &rober::Y0, rober::T_END, m, rtol, 1e-6),
                &rober::Y_END,
                1e-6,
            );
            report(
                "VDPOL",
                rtol,
                &name,
                &saltation_solve(&vdp, &vdpol::Y0, vdpol::T_END, m, rtol, 1.0),
                &vdpol::Y_END,
                1.0,
            );
        }
        for s in DIFFSOL {
            let name = format!("diffsol/{s}");
            report(
                "ROBER",
                rtol,
                &name,
                &diffsol_solve(&pr, s, rober::T_END),
                &rober::Y_END,
                1e-6,
            );
            report(
                "VDPOL",
                rtol,
                &name,
                &diffsol_solve(&pv, s, vdpol::T_END),
                &vdpol::Y_END,
                1.0,
            );
        }
    }

    for (tag, t_end) in [("rober", rober::T_END), ("vdpol", vdpol::T_END)] {
        let mut g = c.benchmark_group(tag);
        g.sample_size(10)
            .measurement_time(Duration::from_secs(2))
            .warm_up_time(Duration::from_millis(300));
        for &rtol in &RTOLS {
            let ok = |r: Result<(Vec<f64>, usize, usize), String>| r.is_ok();
            for m in SALTATION {
                let id = BenchmarkId::new(format!("saltation/{}", m.name()), format!("{rtol:e}"));
                let run = || {
                    if tag == "rober" {
                        saltation_solve(&rob, &rober::Y0, t_end, m, rtol, 1e-6)
                    } else {
                        saltation_solve(&vdp, &vdpol::Y0, t_end, m, rtol, 1.0)
                    }
                };
                if ok(run()) {
                    g.bench_function(id, |b| b.iter(|| black_box(run())));
                }
            }
            let (pr, pv) = (rober_problem(rtol), vdpol_problem(rtol));
            for s in DIFFSOL {
                let id = BenchmarkId::new(format!("diffsol/{s}"), format!("{rtol:e}"));
                if tag == "rober" {
                    if ok(diffsol_solve(&pr, s, t_end)) {
                        g.bench_function(id, |b| {
                            b.iter(|| black_box(diffsol_solve(&pr, s, t_end)))
                        });
                    }
                } else if ok(diffsol_solve(&pv, s, t_end)) {
                    g.bench_function(id, |b| b.iter(|| black_box(diffsol_solve(&pv, s, t_end))));
                }
            }
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    // No plots: criterion's plotting backend needs system fonts a bare machine lacks.
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
