//! Reference harness of the implicit methods on the stiff test problems: every implicit method
//! ([`Method::is_implicit`]) on ROBER (to `t = 40` and to `t = 10¹¹`), VDPOL (`ε = 10⁻⁶`),
//! HIRES and OREGO, at `rtol = 1e-4, 1e-7, 1e-10`, against the published reference solutions
//! of [`saltation_models::reference`]; and the index-1 DAE form of ROBER against the ODE form
//! with every method that accepts a singular mass matrix.
//!
//! The systems are the built-in models through [`ModeFlow`], which hands the integrator the
//! model's exact Jacobian and its mass matrix.
//!
//! ## Error measure
//! With the tolerances of the run (`rtol`, `atol_i`) and the reference `ref`, the end-point
//! error is measured in units of the tolerance, in the max norm:
//!
//! ```text
//! factor = max_i |y_i − ref_i| / (rtol |ref_i| + atol_i)
//! ```
//!
//! i.e. the error relative to `|ref_i|`, with `atol_i / rtol` as the floor below which a
//! component counts absolutely. This is the error weight of the integrators' own control
//! (`w_i = rtol |y_i| + atol_i`) taken at the reference, and the measure behind the test set's
//! "mixed error significant correct digits" (`mescd = −log10 max_i |err_i| / (atol_i/rtol +
//! |ref_i|)`, so `factor = 10^(−mescd) / rtol`). A case passes when `factor` is at most the
//! problem's bound: [`MAX_FACTOR`] (100), or [`MAX_FACTOR_OREGO`] (1000) for OREGO, whose end
//! point is sensitive to the errors made in its spikes.
//!
//! ## Tolerances
//! `atol = atol_scale · rtol`, chosen per problem from the size of its solution components:
//! ROBER `1e-6 rtol` (its `y2` peaks at `3.6e-5` and ends near `8e-14`, `y1` ends near `2e-8`),
//! HIRES `1e-4 rtol` (components of order `1e-4 … 1e-2`), VDPOL and OREGO `atol = rtol`
//! (components of order one and above; `atol = 1e-4 rtol` changes their factors by less than
//! a factor of 2). The second-order methods (rosenbrock23, trapezoid, trbdf2) are not run at
//! `rtol = 1e-10` (see [`skip_reason`]).
//!
//! ## Output
//! `cargo test -p saltation-models --test models stiff_reference -- --nocapture` prints a table of
//! method, problem, rtol, error/tol factor, steps, rejected steps, RHS evaluations, Jacobian
//! evaluations, LU decompositions and wall time (ms). A failing case is named by method,
//! problem and rtol; all failures are listed together at the end.

// Bounds are written `!(f <= bound)` on purpose: a NaN error fails them too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use saltation_hybrid::{EvalModel, ModeFlow};
use saltation_models::reference::{hires, orego, rober, vdpol};
use saltation_models::Model;
use saltation_ode::{Atol, Ivp, Method, OdeError, SolverOptions, Stats};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

/// Largest accepted end-point error, in units of the tolerance (see the module docs), on ROBER,
/// HIRES and VDPOL. The methods control the local error per step, so the global error is a
/// multiple of the tolerance that grows with the number of steps and with how much the problem
/// amplifies the errors made along the way; a factor of 100 is two decimal digits of slack.
const MAX_FACTOR: f64 = 100.0;

/// The same for OREGO, ten times larger. Its end point is far more sensitive to the local
/// errors made along the way than to the initial data (a relative change of `y(0)` changes
/// `y(360)` only about 6 times as much, measured with radau5 at 1e-13): the errors made in the
/// two spikes, where most steps are taken, shift their timing, and at `t = 360` `y3` decays at
/// the relative rate `|y3'/y3| ≈ 0.16`, so a phase error `δt` alone gives
/// `factor ≈ 0.16 δt / rtol`. The variable-order BDF codes, within the bound of 100 on every
/// other problem, reach factors of 150–300 here at `rtol ≤ 1e-7`.
const MAX_FACTOR_OREGO: f64 = 1000.0;

/// Step limit of one run: far above what any case needs (the most, trapezoid and trbdf2 on
/// VDPOL and OREGO at `rtol = 1e-7`, take about 4·10⁴ steps), so a method that stalls fails
/// fast.
const MAX_STEPS: usize = 200_000;

/// The relative tolerances of the harness.
const RTOLS: [f64; 3] = [1e-4, 1e-7, 1e-10];

/// One test problem: a built-in model from its initial state to a published end point.
struct Problem {
    /// Name in the table (`ROBER t=1e11`).
    name: &'static str,
    /// The model (default parameters are the published ones).
    model: Model,
    /// Initial state at `t = 0`.
    y0: &'static [f64],
    /// End time.
    t_end: f64,
    /// Reference solution at `t_end`.
    reference: &'static [f64],
    /// `atol = atol_scale · rtol`.
    atol_scale: f64,
    /// Largest accepted error factor.
    max_factor: f64,
}

fn model(name: &str) -> Model {
    Model::with_defaults(name).unwrap_or_else(|| panic!("no built-in model {name}"))
}

fn problems() -> Vec<Problem> {
    vec![
        Problem {
            name: "ROBER t=40",
            model: model("Robertson"),
            y0: &rober::Y0,
            t_end: rober::T_SHORT,
            reference: &rober::Y_SHORT,
            atol_scale: 1e-6,
            max_factor: MAX_FACTOR,
        },
        Problem {
            name: "ROBER t=1e11",
            model: model("Robertson"),
            y0: &rober::Y0,
            t_end: rober::T_END,
            reference: &rober::Y_END,
            atol_scale: 1e-6,
            max_factor: MAX_FACTOR,
        },
        Problem {
            name: "VDPOL",
            model: model("VanDerPolStiff"),
            y0: &vdpol::Y0,
            t_end: vdpol::T_END,
            reference: &vdpol::Y_END,
            atol_scale: 1.0,
            max_factor: MAX_FACTOR,
        },
        Problem {
            name: "HIRES",
            model: model("Hires"),
            y0: &hires::Y0,
            t_end: hires::T_END,
            reference: &hires::Y_END,
            atol_scale: 1e-4,
            max_factor: MAX_FACTOR,
        },
        Problem {
            name: "OREGO",
            model: model("Orego"),
            y0: &orego::Y0,
            t_end: orego::T_END,
            reference: &orego::Y_END,
            atol_scale: 1.0,
            max_factor: MAX_FACTOR_OREGO,
        },
    ]
}

/// The implicit methods, in [`Method::ALL`] order.
fn implicit_methods() -> Vec<Method> {
    Method::ALL
        .iter()
        .copied()
        .filter(|m| m.is_implicit())
        .collect()
}

/// Why `method` is not run at `rtol`, if it is not.
fn skip_reason(method: Method, rtol: f64) -> Option<&'static str> {
    // The second-order methods (rosenbrock23, trapezoid, trbdf2; MATLAB's ode23s, ode23t,
    // ode23tb) are meant for crude tolerances: at rtol = 1e-10 they need ~(1e-10)^(-1/3) ≈ 2000
    // times the steps of rtol = 1e-1, which is neither their use nor affordable in a debug
    // test run.
    (method.order() <= 2 && rtol < 1e-8).then_some("order 2: not meant for rtol 1e-10")
}

/// Solver options of a run.
fn options(rtol: f64, atol_scale: f64) -> SolverOptions {
    SolverOptions {
        rtol,
        atol: Atol::Scalar(atol_scale * rtol),
        max_steps: MAX_STEPS,
        ..SolverOptions::default()
    }
}

/// `max_i |y_i − ref_i| / (rtol |ref_i| + atol_i)` (the module docs' error measure).
fn error_factor(y: &[f64], reference: &[f64], rtol: f64, atol: f64) -> f64 {
    y.iter()
        .zip(reference)
        .map(|(y, r)| (y - r).abs() / (rtol * r.abs() + atol))
        .fold(0.0, f64::max)
}

/// Why a case produced no end state.
#[derive(Debug)]
enum Failure {
    /// The integrator returned an error.
    Ode(OdeError),
    /// It returned before the end time.
    Stopped(f64),
    /// It panicked (caught so that the other cases still run).
    Panic(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Ode(e) => write!(f, "integrator error: {e}"),
            Failure::Stopped(t) => write!(f, "stopped at t = {t} before the end time"),
            Failure::Panic(msg) => write!(f, "panicked: {msg}"),
        }
    }
}

/// Work counters and wall time of a run.
#[derive(Debug)]
struct Run {
    stats: Stats,
    ms: f64,
}

/// End state and work of one integration, or why there are none.
fn integrate(
    model: &Model,
    y0: &[f64],
    t_end: f64,
    method: Method,
    opts: &SolverOptions,
) -> Result<(Vec<f64>, Run), Failure> {
    let sys = ModeFlow { model, mode: 0 };
    let start = Instant::now();
    let run = catch_unwind(AssertUnwindSafe(|| {
        Ivp::new(&sys, 0.0, y0).solve(method, t_end, opts)
    }));
    let ms = start.elapsed().as_secs_f64() * 1e3;
    match run {
        Ok(Ok(sol)) if sol.t == t_end => Ok((
            sol.y,
            Run {
                stats: sol.stats,
                ms,
            },
        )),
        Ok(Ok(sol)) => Err(Failure::Stopped(sol.t)),
        Ok(Err(e)) => Err(Failure::Ode(e)),
        Err(panic) => Err(Failure::Panic(
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "?".into()),
        )),
    }
}

/// The table's header and rows.
fn header() {
    println!(
        "{:<13} {:<14} {:>7} {:>10} {:>8} {:>8} {:>9} {:>8} {:>8} {:>8}",
        "method", "problem", "rtol", "err/tol", "steps", "rejected", "rhs", "jac", "lu", "ms"
    );
}

fn row(method: Method, problem: &str, rtol: f64, outcome: &str, run: Option<&Run>) {
    let counts = run.map_or_else(String::new, |r| {
        let s = &r.stats;
        format!(
            "{:>8} {:>8} {:>9} {:>8} {:>8} {:>8.1}",
            s.steps, s.rejected_steps, s.rhs_evals, s.jacobian_evals, s.lu_decompositions, r.ms
        )
    });
    println!(
        "{:<13} {:<14} {:>7.0e} {:>10} {counts}",
        method.name(),
        problem,
        rtol,
        outcome
    );
}

/// Every implicit method on every problem at every tolerance reaches the published reference
/// within the problem's bound (`MAX_FACTOR`, `MAX_FACTOR_OREGO`) times the tolerance.
#[test]
fn implicit_methods_reach_the_published_reference_solutions() {
    let mut failures = Vec::new();
    header();
    for method in implicit_methods() {
        let misses = &mut failures;
        for p in problems() {
            for rtol in RTOLS {
                if let Some(why) = skip_reason(method, rtol) {
                    row(method, p.name, rtol, "skipped", None);
                    println!("    ({why})");
                    continue;
                }
                let opts = options(rtol, p.atol_scale);
                let case = format!("{} on {} at rtol {rtol:.0e}", method.name(), p.name);
                match integrate(&p.model, p.y0, p.t_end, method, &opts) {
                    Ok((y, run)) => {
                        let f = error_factor(&y, p.reference, rtol, p.atol_scale * rtol);
                        row(method, p.name, rtol, &format!("{f:.3}"), Some(&run));
                        if !(f <= p.max_factor) {
                            misses.push(format!(
                                "{case}: error {f:.3e} × tol > {} (y = {y:?}, reference {:?})",
                                p.max_factor, p.reference
                            ));
                        }
                    }
                    Err(why) => {
                        row(method, p.name, rtol, "FAILED", None);
                        misses.push(format!("{case}: {why}"));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the stiff reference cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The index-1 DAE form of ROBER (`M = diag(1, 1, 0)`, `0 = y1 + y2 + y3 − 1`) gives the ODE
/// form's answer with every method that accepts a singular mass matrix: within `MAX_FACTOR`
/// tolerances of the ODE form's end point from the same method and tolerance, and of the
/// reference; the other implicit methods refuse it with a typed error instead of an answer.
#[test]
fn dae_robertson_gives_the_ode_answer() {
    let (ode, dae) = (model("Robertson"), model("RobertsonDae"));
    assert!(dae.mass_matrix(0).is_some() && ode.mass_matrix(0).is_none());
    let atol_scale = 1e-6;
    let mut failures = Vec::new();
    header();
    for method in implicit_methods() {
        let misses = &mut failures;
        for (t_end, reference, name) in [
            (rober::T_SHORT, &rober::Y_SHORT, "ROBER-DAE t=40"),
            (rober::T_END, &rober::Y_END, "ROBER-DAE 1e11"),
        ] {
            for rtol in RTOLS {
                if let Some(why) = skip_reason(method, rtol) {
                    row(method, name, rtol, "skipped", None);
                    println!("    ({why})");
                    continue;
                }
                let opts = options(rtol, atol_scale);
                let atol = atol_scale * rtol;
                let case = format!("{} on {name} at rtol {rtol:.0e}", method.name());
                let got = integrate(&dae, &rober::Y0, t_end, method, &opts);
                if !method.accepts_singular_mass() {
                    row(method, name, rtol, "refused", None);
                    match got {
                        Err(Failure::Ode(OdeError::MassMatrixUnsupported { .. })) => {}
                        other => misses.push(format!(
                            "{case}: a method without singular-mass support should refuse the \
                             DAE (OdeError::MassMatrixUnsupported), got {other:?}"
                        )),
                    }
                    continue;
                }
                let (y, run) = match got {
                    Ok(r) => r,
                    Err(why) => {
                        row(method, name, rtol, "FAILED", None);
                        misses.push(format!("{case}: {why}"));
                        continue;
                    }
                };
                let f = error_factor(&y, reference, rtol, atol);
                row(method, name, rtol, &format!("{f:.3}"), Some(&run));
                if !(f <= MAX_FACTOR) {
                    misses.push(format!(
                        "{case}: error {f:.3e} × tol > {MAX_FACTOR} (y = {y:?}, reference \
                         {reference:?})"
                    ));
                }
                // The algebraic equation holds at the end point.
                let sum = y.iter().sum::<f64>() - 1.0;
                if !(sum.abs() <= 1e-12) {
                    misses.push(format!("{case}: y1 + y2 + y3 − 1 = {sum:e} at the end"));
                }
                match integrate(&ode, &rober::Y0, t_end, method, &opts) {
                    Ok((y_ode, _)) => {
                        let g = error_factor(&y, &y_ode, rtol, atol);
                        if !(g <= MAX_FACTOR) {
                            misses.push(format!(
                                "{case}: DAE and ODE forms differ by {g:.3e} × tol (DAE {y:?}, \
                                 ODE {y_ode:?})"
                            ));
                        }
                    }
                    Err(why) => misses.push(format!("{case}, ODE form: {why}")),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the DAE cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
