//! Work–precision measurements of the implicit integrators on the stiff test problems ROBER,
//! VDPOL and HIRES: achieved end-point error against wall time, one curve per method.
//!
//! ```text
//! cargo run --release --example work_precision            # rtol = 1e-3, 1e-4, …, 1e-10
//! cargo run --release --example work_precision -- --quick # rtol = 1e-3, 1e-6, 1e-9, 1 run each
//! ```
//!
//! For each problem it prints a table, writes `figures/work_precision_<problem>.csv` and draws
//! `figures/work_precision_<problem>.{png,svg}` (time against error, log–log).
//!
//! ## Problems
//! The problems and reference end values are those of the Test Set for IVP Solvers (Mazzia &
//! Magherini 2008; the problems of Hairer & Wanner 1996, §IV.1 and §IV.10):
//! - **ROBER** (Robertson 1966) on `[0, 10¹¹]`, the test set's full interval;
//! - **VDPOL**, van der Pol in Hairer & Wanner's scaled form with `ε = 10⁻⁶` on `[0, 2]`;
//! - **HIRES** (Schäfer 1975) on `[0, 321.8122]`.
//!
//! The right-hand sides and their exact Jacobians are the built-in models, integrated through
//! [`ModeFlow`].
//!
//! ## Tolerances
//! `rtol = 10⁻³ … 10⁻¹⁰` (one per decade) and `atol = c · rtol` with a per-problem constant `c`,
//! chosen from the size of the solution components as in the test set's and Hairer & Wanner's
//! experiments, which tie `atol` to `rtol`: ROBER `c = 10⁻⁶` (`y2` peaks at `3.6·10⁻⁵` and ends
//! near `8·10⁻¹⁴`, `y1` ends near `2·10⁻⁸`), VDPOL `c = 1` (components of order one and above),
//! HIRES `c = 10⁻⁴` (components of order `10⁻⁴ … 10⁻²`). Error weight `rtol |y| + atol`, RMS
//! norm (the integrators' defaults).
//!
//! ## Error measure
//! The mixed relative error at the end point, in the max norm over the components,
//!
//! ```text
//! err = max_i |y_i − ref_i| / (|ref_i| + c)        (c = atol / rtol, fixed per problem)
//! ```
//!
//! is the error relative to `|ref_i|`, with `c` as the floor below which a component counts
//! absolutely. It is the measure behind the test set's "mixed error significant correct digits",
//! `mescd = −log10(err)` (Mazzia & Magherini 2008), which the tables also print. As `c` does not
//! depend on the tolerance, the errors of all runs of one problem are comparable.
//!
//! ## Timing
//! Each point is timed alone (one integration at a time, on one thread): the median wall time of
//! up to [`MAX_REPEATS`] runs, repeating only while the point's total stays under
//! [`POINT_BUDGET_S`]. A run slower than [`SLOW_RUN_S`] ends the method's sweep on that problem:
//! its tighter tolerances are recorded as skipped (so the whole example stays well under a
//! minute). A failed run (integrator error, early stop or panic) is recorded with its message.
//! The figures draw the runs with `err < 1` (at least one correct digit); the tables and CSV
//! files list every run, including a completed run with a useless answer.

use saltation::hybrid::{HybridModel, ModeFlow};
use saltation::models::reference::{hires, rober, vdpol};
use saltation::models::{Hires, Robertson, VanDerPolStiff};
use saltation::ode::{Atol, Ivp, Method, SolverOptions, Stats};
use saltation::plot::{RenderOptions, WorkPrecision};
use std::error::Error;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Instant;

/// Most timed runs per point.
const MAX_REPEATS: usize = 7;
/// Repeats stop once the point's runs together take this long (seconds).
const POINT_BUDGET_S: f64 = 0.3;
/// A single run slower than this (seconds) skips the method's tighter tolerances.
const SLOW_RUN_S: f64 = 0.5;
/// Step limit of one run.
const MAX_STEPS: usize = 1_000_000;

/// The full sweep.
const RTOLS: [f64; 8] = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10];
/// The `--quick` sweep.
const RTOLS_QUICK: [f64; 3] = [1e-3, 1e-6, 1e-9];

/// One test problem.
struct Problem<'a> {
    /// File-name tag (`rober`).
    tag: &'static str,
    /// Title of the table and figure.
    title: &'static str,
    /// The model (one mode, exact Jacobian).
    model: &'a dyn DynModel,
    y0: &'static [f64],
    t_end: f64,
    reference: &'static [f64],
    /// `atol = c · rtol`; also the floor of the mixed error.
    c: f64,
}

/// Object-safe view of the three models: a solve through [`ModeFlow`].
trait DynModel {
    fn solve(
        &self,
        y0: &[f64],
        t_end: f64,
        method: Method,
        opts: &SolverOptions,
    ) -> Result<(Vec<f64>, Stats), String>;
}

impl<M: HybridModel> DynModel for M {
    fn solve(
        &self,
        y0: &[f64],
        t_end: f64,
        method: Method,
        opts: &SolverOptions,
    ) -> Result<(Vec<f64>, Stats), String> {
        let sys = ModeFlow {
            model: self,
            mode: 0,
        };
        match Ivp::new(&sys, 0.0, y0).solve(method, t_end, opts) {
            Ok(sol) if sol.t == t_end => Ok((sol.y, sol.stats)),
            Ok(sol) => Err(format!("stopped at t = {} before the end", sol.t)),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// Outcome of one (method, rtol) point.
enum Status {
    Ok,
    Failed(String),
    Skipped(&'static str),
}

/// One measured point.
struct Point {
    rtol: f64,
    atol: f64,
    status: Status,
    error: f64,
    time_s: f64,
    repeats: usize,
    stats: Stats,
}

/// `max_i |y_i − ref_i| / (|ref_i| + c)` (the module docs' mixed relative error).
fn mixed_error(y: &[f64], reference: &[f64], c: f64) -> f64 {
    y.iter()
        .zip(reference)
        .map(|(y, r)| (y - r).abs() / (r.abs() + c))
        .fold(0.0, |m, e| {
            if e.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(e)
            }
        })
}

/// One integration, timed; a panic becomes an error message.
fn run_once(
    p: &Problem,
    method: Method,
    opts: &SolverOptions,
) -> (Result<(Vec<f64>, Stats), String>, f64) {
    let start = Instant::now();
    let out = catch_unwind(AssertUnwindSafe(|| {
        p.model.solve(p.y0, p.t_end, method, opts)
    }));
    let secs = start.elapsed().as_secs_f64();
    let out = out.unwrap_or_else(|panic| {
        Err(format!(
            "panicked: {}",
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "?".into())
        ))
    });
    (out, secs)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// Measures one point: error of the first run, median time over the repeats.
fn measure(p: &Problem, method: Method, rtol: f64, repeats: usize) -> Point {
    let atol = p.c * rtol;
    let opts = SolverOptions {
        rtol,
        atol: Atol::Scalar(atol),
        max_steps: MAX_STEPS,
        ..SolverOptions::default()
    };
    let (first, t0) = run_once(p, method, &opts);
    let mut point = Point {
        rtol,
        atol,
        status: Status::Ok,
        error: f64::NAN,
        time_s: t0,
        repeats: 1,
        stats: Stats::default(),
    };
    match first {
        Err(msg) => point.status = Status::Failed(msg),
        Ok((y, stats)) => {
            point.error = mixed_error(&y, p.reference, p.c);
            point.stats = stats;
            let mut times = vec![t0];
            let mut total = t0;
            while times.len() < repeats && total + t0 < POINT_BUDGET_S {
                let (_, t) = run_once(p, method, &opts);
                times.push(t);
                total += t;
            }
            point.repeats = times.len();
            point.time_s = median(&mut times);
        }
    }
    point
}

fn status_text(s: &Status) -> String {
    match s {
        Status::Ok => "ok".into(),
        Status::Failed(m) => format!("failed: {m}"),
        Status::Skipped(m) => format!("skipped: {m}"),
    }
}

/// CSV field, quoted when needed.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV header shared with `scripts/scipy_work_precision.py`.
const CSV_HEADER: &str = "problem,method,rtol,atol,status,error,mescd,time_s,repeats,steps,\
rejected_steps,rhs_evals,jacobian_evals,lu_decompositions,newton_iters";

fn run_problem(
    p: &Problem,
    rtols: &[f64],
    repeats: usize,
    dir: &Path,
) -> Result<(), Box<dyn Error>> {
    println!(
        "\n== {} (t_end = {:e}, atol = {:e}·rtol, error = max |y−ref|/(|ref| + {:e})) ==",
        p.title, p.t_end, p.c, p.c
    );
    println!(
        "{:<13} {:>7} {:>10} {:>6} {:>10} {:>3} {:>8} {:>6} {:>9} {:>7} {:>7}  status",
        "method", "rtol", "error", "mescd", "time/ms", "n", "steps", "rej", "rhs", "jac", "lu"
    );
    let mut csv = String::from(CSV_HEADER);
    csv.push('\n');
    let mut figure = WorkPrecision::new(format!("{}: wall time against end-point error", p.title));
    figure.x_label = "mixed relative error at t_end".into();
    figure.y_label = "wall time / s (median)".into();
    let started = Instant::now();
    for method in Method::ALL.iter().copied().filter(|m| m.is_implicit()) {
        let (mut errs, mut times) = (Vec::new(), Vec::new());
        let mut give_up = false;
        for &rtol in rtols {
            let point = if give_up {
                Point {
                    rtol,
                    atol: p.c * rtol,
                    status: Status::Skipped("a looser tolerance exceeded the time budget"),
                    error: f64::NAN,
                    time_s: f64::NAN,
                    repeats: 0,
                    stats: Stats::default(),
                }
            } else {
                measure(p, method, rtol, repeats)
            };
            if point.time_s > SLOW_RUN_S {
                give_up = true;
            }
            let s = &point.stats;
            let ran = matches!(point.status, Status::Ok);
            let num = |v: usize| if ran { v.to_string() } else { String::new() };
            let mescd = -point.error.log10();
            println!(
                "{:<13} {:>7.0e} {:>10.3e} {:>6.2} {:>10.3} {:>3} {:>8} {:>6} {:>9} {:>7} {:>7}  {}",
                method.name(),
                rtol,
                point.error,
                mescd,
                point.time_s * 1e3,
                point.repeats,
                num(s.steps),
                num(s.rejected_steps),
                num(s.rhs_evals),
                num(s.jacobian_evals),
                num(s.lu_decompositions),
                status_text(&point.status)
            );
            let f = |v: f64| {
                if v.is_finite() {
                    format!("{v:e}")
                } else {
                    String::new()
                }
            };
            writeln!(
                csv,
                "{},{},{:e},{:e},{},{},{},{},{},{},{},{},{},{},{}",
                p.tag,
                method.name(),
                point.rtol,
                point.atol,
                csv_field(&status_text(&point.status)),
                f(point.error),
                f(mescd),
                f(point.time_s),
                point.repeats,
                num(s.steps),
                num(s.rejected_steps),
                num(s.rhs_evals),
                num(s.jacobian_evals),
                num(s.lu_decompositions),
                num(s.newton_iters),
            )?;
            // Only runs with at least one correct digit are drawn (an error ≥ 1 would stretch
            // the axis over meaningless decades); the table and the CSV keep every run.
            if ran && point.error > 0.0 && point.error < 1.0 {
                errs.push(point.error);
                times.push(point.time_s);
            }
        }
        if !errs.is_empty() {
            figure = figure.with_method(method.name(), errs, times);
        }
    }
    println!(
        "({} measured in {:.1} s)",
        p.title,
        started.elapsed().as_secs_f64()
    );
    let csv_path = dir.join(format!("work_precision_{}.csv", p.tag));
    std::fs::write(&csv_path, csv)?;
    println!("  wrote {}", csv_path.display());
    match figure.render(
        &dir.join(format!("work_precision_{}", p.tag)),
        &RenderOptions::default(),
    ) {
        Ok(files) => files
            .iter()
            .for_each(|f| println!("  wrote {}", f.display())),
        Err(e) => eprintln!("  no figure for {}: {e}", p.title),
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut quick = false;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--quick" => quick = true,
            "-h" | "--help" => {
                println!("usage: work_precision [--quick]");
                return Ok(());
            }
            other => return Err(format!("unknown argument {other:?} (try --help)").into()),
        }
    }
    let (rtols, repeats): (&[f64], usize) = if quick {
        (&RTOLS_QUICK, 1)
    } else {
        (&RTOLS, MAX_REPEATS)
    };
    // Keep the panic messages of failing runs out of the tables (they are recorded as failures).
    std::panic::set_hook(Box::new(|_| {}));

    let (rob, vdp, hir) = (
        Robertson::default(),
        VanDerPolStiff::default(),
        Hires::default(),
    );
    assert_eq!(vdp.params.eps, vdpol::EPS);
    let problems = [
        Problem {
            tag: "rober",
            title: "ROBER on [0, 1e11]",
            model: &rob,
            y0: &rober::Y0,
            t_end: rober::T_END,
            reference: &rober::Y_END,
            c: 1e-6,
        },
        Problem {
            tag: "vdpol",
            title: "VDPOL (eps = 1e-6) on [0, 2]",
            model: &vdp,
            y0: &vdpol::Y0,
            t_end: vdpol::T_END,
            reference: &vdpol::Y_END,
            c: 1.0,
        },
        Problem {
            tag: "hires",
            title: "HIRES on [0, 321.8122]",
            model: &hir,
            y0: &hires::Y0,
            t_end: hires::T_END,
            reference: &hires::Y_END,
            c: 1e-4,
        },
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("figures");
    std::fs::create_dir_all(&dir)?;
    let started = Instant::now();
    for p in &problems {
        run_problem(p, rtols, repeats, &dir)?;
    }
    println!("\ntotal {:.1} s", started.elapsed().as_secs_f64());
    Ok(())
}
