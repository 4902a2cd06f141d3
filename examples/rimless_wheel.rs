//! The rimless wheel (Coleman 2009; Bhounsule 2014, §3) against its
//! closed form: fixed point `[−π/n, θ̇₀]` and stride-Jacobian eigenvalues `{μ², 0}`.
//!
//! Reads `models/rimless_wheel.ron`, finds the steady rolling gait by Newton shooting from the
//! file's guess, and compares it with the closed form digit by digit, for multipliers from
//! variational equations and from central differences (step 1e-5). Writes figures to `figures/`.
//!
//! ```text
//! cargo run --release --example rimless_wheel              # tables and figures
//! cargo run --release --example rimless_wheel -- --json    # one JSON object, no figures
//! ```

#[macro_use]
mod common;

use common::{header, multiplier_rows, points, row, trace_series, Res, Timed};
use saltation::hybrid::Bound;
use saltation::models::{reference::rimless_benchmark as paper, Model, RimlessWheel};
use saltation::orbit::{Multiplier, OrbitOptions, PeriodicOrbit};
use saltation::plot::{
    Color, ComplexPlanePlot, LegendPosition, LineStyle, Marker, PointGroup, RenderOptions, Series,
    TimeSeries,
};
use saltation::scenario::ModelFile;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: rimless_wheel [--json] [MODEL.ron]
  Finds the rimless wheel's steady gait and compares it with the closed form.
  --json prints one JSON object and writes no figures.";

/// Central-difference step (as in the paper).
const FD_STEP: f64 = 1e-5;
/// Repeated solves for the median solve time.
const REPEATS: usize = 20;
/// The paper's results (§3), as printed: the fixed point's rate (`reference::rimless_benchmark::X0`
/// holds the closed-form value instead), and the multiplier 4/9 from variational equations and
/// from central differences.
const PAPER_RATE: f64 = 0.460_341_126_609_455;
const PAPER_VAR: f64 = 0.444_444_444_444_440;
const PAPER_FD: f64 = 0.444_444_444_604_858;

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> Res<()> {
    let args = common::parse_args("models/rimless_wheel.ron", USAGE)?;
    let file = common::load(&args.file)?;
    let Model::RimlessWheel(wheel) = file.model.clone() else {
        return Err(format!("{}: expected a RimlessWheel model", args.file.display()).into());
    };
    let guess = file
        .guesses
        .first()
        .ok_or_else(|| format!("{}: no initial guess", args.file.display()))?;
    let x_exact = RimlessWheel::analytic_fixed_point(wheel.values()).ok_or(
        "no steady gait exists for these parameters (closed form needs sin α > 0 and |μ| < 1)",
    )?;
    let m_exact: Vec<Multiplier> = RimlessWheel::analytic_multipliers(wheel.values())
        .iter()
        .map(|&re| Multiplier::new(re, 0.0))
        .collect();
    let opts = file.orbit.clone();
    let solved = common::solve_timed(&wheel, &guess.label, &guess.u, &opts, REPEATS)?;
    let o = &solved.value;
    let fd = common::fd_multipliers(&wheel, &o.x0, FD_STEP, &opts, REPEATS)?;
    if args.json {
        let json = common::json_object(&[
            ("x0", js!(o.x0)),
            ("multipliers", common::json_multipliers(&o.multipliers)),
            ("analytic_x0", js!(x_exact)),
            ("analytic_multipliers", common::json_multipliers(&m_exact)),
        ]);
        println!("{json}");
        return Ok(());
    }
    print_tables(&args.file, &file, &wheel, &solved, &fd, x_exact, &m_exact);
    figures(&wheel, &opts, o, &fd.value, x_exact, &m_exact)
}

fn print_tables(
    path: &Path,
    file: &ModelFile,
    wheel: &Bound<RimlessWheel>,
    solved: &Timed<PeriodicOrbit>,
    fd: &Timed<Vec<Multiplier>>,
    x_exact: [f64; 2],
    m_exact: &[Multiplier],
) {
    let (o, mu) = (&solved.value, RimlessWheel::mu(wheel.values()));
    // λ², α, n in the order of the declarations.
    let &[lambda2, alpha, spokes] = wheel.values() else {
        unreachable!("the rimless wheel has three parameters")
    };
    let title = format!(
        "Rimless wheel (Coleman 2009), λ² = {lambda2:.6}, slope α = {alpha}, {spokes} spokes: \
         μ = {mu:.6}, μ² = {:.6}",
        mu * mu
    );
    let reference = "closed form (Bhounsule 2014, §3.2); digits = -log10 |ours - closed form|";
    common::print_preamble(&title, path, file, reference);
    let guess = format!("dθ/dt = {}", file.guesses[0].u[0]);
    common::print_heading(&file.guesses[0].label, o, &guess);
    header("", "ours", "closed form");
    println!("  fixed point (just after impact)");
    row("  θ", o.x0[0], x_exact[0]);
    row("  dθ/dt", o.x0[1], x_exact[1]);
    println!("  multipliers, variational equations");
    multiplier_rows(&o.multipliers, m_exact);
    println!("  multipliers, central differences (step {FD_STEP:e})");
    multiplier_rows(&fd.value, m_exact);
    if lambda2 == paper::LAMBDA2 && alpha == paper::ALPHA && spokes == f64::from(paper::SPOKES) {
        header("the paper (§3), printed", "paper", "closed form");
        row("  dθ/dt", PAPER_RATE, x_exact[1]);
        row("  μ₁ variational", PAPER_VAR, m_exact[0].re);
        row("  μ₁ central diff.", PAPER_FD, m_exact[0].re);
    }
    println!(
        "\nperiod {:.12}, {} Newton iterations, residual {:.1e}",
        o.period, o.newton_iterations, o.residual
    );
    println!(
        "wall time of the solve alone: {:.3} ms first, {:.3} ms median of {REPEATS}\n\
         central-difference Jacobian and its eigenvalues: {:.3} ms (median of {REPEATS})",
        solved.first_s * 1e3,
        solved.median_s * 1e3,
        fd.median_s * 1e3
    );
}

fn figures(
    wheel: &Bound<RimlessWheel>,
    opts: &OrbitOptions,
    o: &PeriodicOrbit,
    fd: &[Multiplier],
    x_exact: [f64; 2],
    m_exact: &[Multiplier],
) -> Res<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("figures");
    let ro = RenderOptions::default();
    println!("\nfigures");
    // Multipliers: variational (filled), central differences (hollow), closed form (+).
    let mut cp = ComplexPlanePlot::new("Rimless wheel: Floquet multipliers {μ², 0}")
        .with_group(PointGroup::new(
            "variational equations",
            points(&o.multipliers),
        ))
        .with_group(
            PointGroup::new("central differences (h = 1e-5)", points(fd))
                .with_marker(Marker::Diamond)
                .hollow(),
        )
        .with_group(
            PointGroup::new("closed form", points(m_exact))
                .with_marker(Marker::Plus)
                .with_color(Color::BLACK),
        );
    cp.range = Some(1.15);
    cp.legend = LegendPosition::UpperLeft; // Auto ignores the unit circle
    common::print_written(&cp.render(&dir.join("rimless_wheel_multipliers"), &ro)?);

    // A few strides from a faster start: the post-impact rate approaches θ̇₀ by μ² per stride.
    let strides = 6;
    let mut start = o.x0.clone();
    start[1] *= 1.5;
    let tr = common::trace(wheel, &start, opts, strides, 0.005)?;
    let t_end = tr.t.last().copied().unwrap_or(1.0);
    let impacts: Vec<f64> = tr.events.iter().map(|e| e.t).collect();
    let ts = TimeSeries::new(
        format!("Rimless wheel: {strides} strides from dθ/dt = 1.5 × steady value"),
        "time t / √(l/g)",
        "θ / rad, dθ/dt / (rad per unit time)",
    )
    .with_series(trace_series(&tr, "spoke angle θ", 0, None))
    .with_series(trace_series(&tr, "dθ/dt", 1, None))
    .with_series(
        Series::new(
            "steady dθ/dt after impact",
            vec![0.0, t_end],
            vec![x_exact[1]; 2],
        )
        .with_line(LineStyle::Dotted)
        .with_color(Color::BLACK),
    )
    .with_events("impact", impacts);
    common::print_written(&ts.render(&dir.join("rimless_wheel_strides"), &ro)?);

    // Phase portrait: the steady gait's closed orbit and the approach to it.
    let gait = common::trace(wheel, &o.x0, opts, 1, 0.005)?;
    let transient = trace_series(&tr, "from dθ/dt = 1.5 × steady", 1, Some(0));
    let pp = TimeSeries::new(
        "Rimless wheel: phase portrait, approach to the steady gait",
        "spoke angle θ / rad",
        "dθ/dt / (rad per unit time)",
    )
    .with_series(transient.with_color(Color::palette(1)).dashed())
    .with_series(trace_series(&gait, "steady gait", 1, Some(0)).with_color(Color::palette(0)))
    .with_series(common::reset_segments(
        "impact of the steady gait (reset)",
        &gait.events,
        0,
        1,
    ));
    common::print_written(&pp.render(&dir.join("rimless_wheel_phase"), &ro)?);
    Ok(())
}
