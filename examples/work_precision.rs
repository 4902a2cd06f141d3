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
//!
//! ## Peers
//! When `figures/work_precision_scipy_<problem>.csv` (from `scripts/scipy_work_precision.py`)
//! or `figures/work_precision_diffsol_<problem>.csv` (from `cd bench/peers && cargo bench`)
//! exist, `figures/work_precision_<problem>_peers.{png,svg}` draw their curves (dashed) beside
//! `radau5` and `ndf`, and the example prints the speed-up of `radau5` and `ndf` over each of
//! them at equal achieved error.

use saltation::hybrid::{Bound, EvalModel, ModeFlow};
use saltation::models::reference::{hires, rober, vdpol};
use saltation::models::{Hires, Robertson, VanDerPolStiff};
use saltation::ode::{Atol, Ivp, Method, SolverOptions, Stats};
use saltation::plot::{LineStyle, RenderOptions, Series, WorkPrecision};
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

impl<M: EvalModel> DynModel for M {
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
    let mut ours = Vec::new();
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
            figure = figure.with_method(method.name(), errs.clone(), times.clone());
            ours.push((method.name().to_string(), errs, times));
        }
    }
    println!(
        "({} measured in {:.1} s)",
        p.title,
        started.elapsed().as_secs_f64()
    );
    let mut peers = Vec::new();
    for peer in ["scipy", "diffsol"] {
        peers.extend(peer_curves(
            peer,
            &dir.join(format!("work_precision_{peer}_{}.csv", p.tag)),
        ));
    }
    print_speedups(&ours, &peers);
    let csv_path = dir.join(format!("work_precision_{}.csv", p.tag));
    std::fs::write(&csv_path, csv)?;
    println!("  wrote {}", csv_path.display());
    render(&figure, &dir.join(format!("work_precision_{}", p.tag)));
    if !peers.is_empty() {
        // radau5 and ndf beside the peers (dashed), in a figure of their own.
        let mut vs = WorkPrecision::new(format!("{}: saltation and its peers", p.title));
        vs.x_label = figure.x_label.clone();
        vs.y_label = figure.y_label.clone();
        for (label, errs, times) in ours.iter().filter(|c| c.0 == "radau5" || c.0 == "ndf") {
            vs.methods
                .push(Series::new(label.clone(), errs.clone(), times.clone()));
        }
        for (label, errs, times) in &peers {
            vs.methods.push(
                Series::new(label.clone(), errs.clone(), times.clone())
                    .with_line(LineStyle::Dashed),
            );
        }
        render(&vs, &dir.join(format!("work_precision_{}_peers", p.tag)));
    }
    Ok(())
}

/// Draws `figure` to `stem.{png,svg}`, saying what was written (or why not).
fn render(figure: &WorkPrecision, stem: &Path) {
    match figure.render(stem, &RenderOptions::default()) {
        Ok(files) => files
            .iter()
            .for_each(|f| println!("  wrote {}", f.display())),
        Err(e) => eprintln!("  no figure {}: {e}", stem.display()),
    }
}

/// A curve: label, errors, median times (seconds).
type Curve = (String, Vec<f64>, Vec<f64>);

/// Splits one CSV line into fields (double-quoted fields may hold commas and `""`).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// The curves of a peer's CSV file (written by `scripts/scipy_work_precision.py` or the
/// diffsol bench in `bench/peers`), one per method, from its runs with status `ok` and at least
/// one correct digit, labelled `"<peer> <method>"`; none when the file is absent.
fn peer_curves(peer: &str, path: &Path) -> Vec<Curve> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut curves: Vec<Curve> = Vec::new();
    for line in text.lines().skip(1) {
        let f = csv_fields(line);
        if f.len() < 8 || f[4] != "ok" {
            continue;
        }
        let (Ok(err), Ok(time)) = (f[5].parse::<f64>(), f[7].parse::<f64>()) else {
            continue;
        };
        if !(err > 0.0 && err < 1.0 && time > 0.0) {
            continue;
        }
        let label = if f[1].starts_with(peer) {
            f[1].clone()
        } else {
            format!("{peer} {}", f[1])
        };
        match curves.iter_mut().find(|c| c.0 == label) {
            Some(c) => {
                c.1.push(err);
                c.2.push(time);
            }
            None => curves.push((label, vec![err], vec![time])),
        }
    }
    if !curves.is_empty() {
        println!("  read {} ({} methods)", path.display(), curves.len());
    }
    curves
}

/// `log t` of a curve at error `e`, interpolated linearly in `log e` between its points;
/// `None` outside the curve's error range.
fn log_time_at(curve: &Curve, e: f64) -> Option<f64> {
    let mut pts: Vec<(f64, f64)> = curve
        .1
        .iter()
        .zip(&curve.2)
        .map(|(e, t)| (e.ln(), t.ln()))
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let x = e.ln();
    pts.windows(2).find_map(|w| {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x0 <= x && x <= x1 {
            let s = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
            Some(y0 + s * (y1 - y0))
        } else {
            None
        }
    })
}

/// Speed-up of radau5 and ndf over each peer method at equal achieved error: at every point
/// of the peer's curve inside our curve's error range, the peer's time over ours interpolated
/// (log–log) at that error; median and range.
fn print_speedups(ours: &[Curve], peers: &[Curve]) {
    if peers.is_empty() {
        return;
    }
    println!("  speed-up at equal error (peer's time / ours): median [min – max] (points)");
    for o in ours.iter().filter(|c| c.0 == "radau5" || c.0 == "ndf") {
        for p in peers {
            let mut r: Vec<f64> =
                p.1.iter()
                    .zip(&p.2)
                    .filter_map(|(&e, &t)| log_time_at(o, e).map(|lt| t / lt.exp()))
                    .collect();
            if r.is_empty() {
                println!("  {:<8} vs {:<18} no common error range", o.0, p.0);
                continue;
            }
            let n = r.len();
            let med = median(&mut r);
            println!(
                "  {:<8} vs {:<18} {:>7.1} [{:.1} – {:.1}] ({n})",
                o.0,
                p.0,
                med,
                r[0],
                r[n - 1]
            );
        }
    }
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
        Bound::new(Robertson),
        Bound::new(VanDerPolStiff),
        Bound::new(Hires),
    );
    assert_eq!(vdp.get("eps"), Ok(vdpol::EPS));
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
