//! The simplest walker (Garcia, Chatterjee, Ruina & Coleman 1998) at slope γ = 0.009:
//! reproduces Table 1 of Bhounsule (2014).
//!
//! Reads `models/simplest_walker.ron`, finds both gaits from the file's rough guesses by Newton
//! shooting, and compares fixed points and Floquet multipliers (variational equations and
//! central differences with step 1e-5) with the paper, digit by digit. Writes figures to
//! `figures/`.
//!
//! ```text
//! cargo run --release --example simplest_walker              # tables and figures
//! cargo run --release --example simplest_walker -- --json    # one JSON object, no figures
//! cargo run --release --example simplest_walker -- my.ron    # another model file
//! ```

#[macro_use]
mod common;

use common::{header, multiplier_rows, num, row, sub, trace_series, Res, Timed};
use saltation::hybrid::Bound;
use saltation::models::{reference::walker_table1 as paper, Model, SimplestWalker};
use saltation::orbit::{Multiplier, OrbitOptions, PeriodicOrbit};
use saltation::plot::{Color, ComplexPlanePlot, Marker, PointGroup, RenderOptions, TimeSeries};
use saltation::scenario::ModelFile;
use std::path::Path;
use std::process::ExitCode;

const USAGE: &str = "usage: simplest_walker [--json] [MODEL.ron]
  Finds both gaits of the simplest walker and compares them with Table 1 of
  Bhounsule (2014). --json prints one JSON object and writes no figures.";

/// Central-difference step of the paper's finite-difference row.
const FD_STEP: f64 = 1e-5;
/// Repeated solves for the median solve time.
const REPEATS: usize = 20;

/// One gait of Table 1 (nontrivial multipliers from `reference.rs`; the two trivial ones, which
/// that module leaves out, as printed in the table).
struct Published {
    x0: [f64; 4],
    var: Vec<Multiplier>,
    fd: Vec<Multiplier>,
    /// The slip: the printed value of a multiplier whose corrected value is in `var`.
    printed: Option<(usize, f64)>,
}

fn m(re: f64, im: f64) -> Multiplier {
    Multiplier::new(re, im)
}

fn published() -> [Published; 2] {
    let (p, pf) = (paper::STABLE_PAIR, paper::STABLE_PAIR_FD);
    let (u, uf) = (paper::UNSTABLE, paper::UNSTABLE_FD);
    let real = |v: [f64; 4]| v.iter().map(|&re| m(re, 0.0)).collect::<Vec<_>>();
    [
        Published {
            x0: paper::STABLE_X0,
            var: vec![m(p.0, p.1), m(p.0, -p.1), m(-2.11e-13, 0.0), m(0.0, 0.0)],
            fd: vec![
                m(pf.0, pf.1),
                m(pf.0, -pf.1),
                m(1.586465e-9, 0.0),
                m(0.0, 0.0),
            ],
            printed: None,
        },
        Published {
            x0: paper::UNSTABLE_X0,
            var: real([u[0], u[1], -2.3e-14, 0.0]),
            fd: real([uf[0], uf[1], -5.231481e-9, -2e-15]),
            printed: Some((1, paper::UNSTABLE_PRINTED[1])),
        },
    ]
}

/// A gait found from one guess of the file.
struct Gait {
    label: String,
    guess: Vec<f64>,
    solved: Timed<PeriodicOrbit>,
    fd: Timed<Vec<Multiplier>>,
}

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> Res<()> {
    let args = common::parse_args("models/simplest_walker.ron", USAGE)?;
    let file = common::load(&args.file)?;
    let Model::SimplestWalker(walker) = file.model.clone() else {
        return Err(format!("{}: expected a SimplestWalker model", args.file.display()).into());
    };
    if file.guesses.is_empty() {
        return Err(format!("{}: no initial guesses", args.file.display()).into());
    }
    let opts = file.orbit.clone();
    let mut gaits = Vec::new();
    for g in &file.guesses {
        let solved = common::solve_timed(&walker, &g.label, &g.u, &opts, REPEATS)?;
        let fd = common::fd_multipliers(&walker, &solved.value.x0, FD_STEP, &opts, REPEATS)?;
        let (label, guess) = (g.label.clone(), g.u.clone());
        gaits.push(Gait {
            label,
            guess,
            solved,
            fd,
        });
    }
    gaits.sort_by_key(|g| !g.solved.value.stable); // stable first (stable sort keeps file order)
    for (i, a) in gaits.iter().enumerate() {
        for b in gaits[i + 1..]
            .iter()
            .filter(|b| max_diff(&a.solved.value.x0, &b.solved.value.x0) < 1e-8)
        {
            eprintln!(
                "warning: '{}' and '{}' converged to the same gait",
                a.label, b.label
            );
        }
    }
    if args.json {
        println!("{}", json(walker.get("gamma")?, &gaits));
        return Ok(());
    }
    print_tables(&args.file, &file, walker.get("gamma")?, &gaits);
    figures(&walker, &opts, &gaits)
}

fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

fn json(gamma: f64, gaits: &[Gait]) -> String {
    let gaits: Vec<String> = gaits
        .iter()
        .map(|g| {
            let o = &g.solved.value;
            common::json_object(&[
                ("x0", js!(o.x0)),
                ("period", js!(o.period)),
                ("multipliers", common::json_multipliers(&o.multipliers)),
                ("multipliers_fd", common::json_multipliers(&g.fd.value)),
                ("stable", js!(o.stable)),
                ("newton_iterations", js!(o.newton_iterations)),
                ("residual", js!(o.residual)),
                ("solve_seconds", js!(g.solved.median_s)),
            ])
        })
        .collect();
    let gaits = format!("[{}]", gaits.join(","));
    common::json_object(&[("gamma", js!(gamma)), ("gaits", gaits)])
}

fn print_tables(path: &Path, file: &ModelFile, gamma: f64, gaits: &[Gait]) {
    common::print_preamble(
        &format!("Simplest walker (Garcia et al. 1998), slope γ = {gamma}"),
        path,
        file,
        "Bhounsule 2014, Table 1; digits = -log10 |ours - paper|",
    );
    let table = published();
    let slope_matches = gamma == paper::GAMMA;
    if !slope_matches {
        println!(
            "            (Table 1 is for γ = {}: no comparison)",
            paper::GAMMA
        );
    }
    let (mut slip, mut stable_pair) = (false, false);
    for g in gaits {
        let o = &g.solved.value;
        // The published gait with the nearest fixed point, if it is this one.
        let dist = |p: &&Published| max_diff(&p.x0, &o.x0);
        let pub_gait = table
            .iter()
            .filter(|p| slope_matches && dist(p) < 1e-6)
            .min_by(|a, b| dist(a).total_cmp(&dist(b)));
        let guess = format!("(θ, dθ/dt) = ({}, {})", g.guess[0], g.guess[1]);
        common::print_heading(&g.label, o, &guess);
        header("", "ours", "paper");
        println!("  fixed point (just after heel-strike)");
        for (i, name) in ["θ", "dθ/dt", "φ", "dφ/dt"].iter().enumerate() {
            row(
                &format!("  {name}"),
                o.x0[i],
                pub_gait.map_or(f64::NAN, |p| p.x0[i]),
            );
        }
        println!("  multipliers, variational equations");
        stable_pair |= pub_gait.is_some_and(|p| p.x0 == paper::STABLE_X0);
        let rv = pub_gait.map_or_else(|| common::unknown(&o.multipliers), |p| p.var.clone());
        multiplier_rows(&o.multipliers, &rv);
        if let Some((k, printed)) = pub_gait.and_then(|p| p.printed) {
            row(
                &format!("  μ{} as printed †", sub(k + 1)),
                o.multipliers[k].re,
                printed,
            );
            slip = true;
        }
        println!("  multipliers, central differences (step {FD_STEP:e})");
        let rf = pub_gait.map_or_else(|| common::unknown(&g.fd.value), |p| p.fd.clone());
        multiplier_rows(&g.fd.value, &rf);
    }
    if slip {
        println!(
            "\n† Table 1 prints {} for μ₂ of the unstable gait, a slip in the 9th decimal: an\n  \
             independent 40-digit computation gives {} (used in the 'paper' column).",
            num(paper::UNSTABLE_PRINTED[1]),
            num(paper::UNSTABLE[1])
        );
    }
    if stable_pair {
        println!(
            "Table 1's stable pair μ₁,₂ is itself ~3e-12 from an independent 40-digit\n\
             computation, which bounds the agreement possible there."
        );
    }
    println!(
        "\nwall time of each solve alone: first call, and median of {REPEATS} repeats; FD = the \
         central-difference\nJacobian (8 extra strides) with its eigenvalues, median of {REPEATS}"
    );
    let w = gaits
        .iter()
        .map(|g| g.label.chars().count())
        .fold(4, usize::max);
    println!(
        "  {:<w$}  {:>8}  {:>6}  {:>8}  {:>9}  {:>9}  {:>9}",
        "gait", "period", "Newton", "residual", "solve", "median", "FD"
    );
    for g in gaits {
        let (o, ms) = (&g.solved.value, |s: f64| format!("{:.2} ms", s * 1e3));
        println!(
            "  {:<w$}  {:>8.5}  {:>6}  {:>8.1e}  {:>9}  {:>9}  {:>9}",
            g.label,
            o.period,
            o.newton_iterations,
            o.residual,
            ms(g.solved.first_s),
            ms(g.solved.median_s),
            ms(g.fd.median_s)
        );
    }
}

fn figures(walker: &Bound<SimplestWalker>, opts: &OrbitOptions, gaits: &[Gait]) -> Res<()> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("figures");
    let (ro, gamma, color) = (
        RenderOptions::default(),
        walker.get("gamma")?,
        Color::palette,
    );
    println!("\nfigures");
    // (a) Two strides of the stable gait (the first gait if none is stable).
    let g = &gaits[0];
    let tr = common::trace(walker, &g.solved.value.x0, opts, 2, 0.01)?;
    let ts = TimeSeries::new(
        format!("Simplest walker, {}: two strides (γ = {gamma})", g.label),
        "time t / √(l/g)",
        "angle / rad, rate / (rad per unit time)",
    )
    .with_series(trace_series(&tr, "stance angle θ", 0, None).with_color(color(0)))
    .with_series(
        trace_series(&tr, "dθ/dt", 1, None)
            .with_color(color(0))
            .dashed(),
    )
    .with_series(trace_series(&tr, "inter-leg angle φ", 2, None).with_color(color(1)))
    .with_series(
        trace_series(&tr, "dφ/dt", 3, None)
            .with_color(color(1))
            .dashed(),
    )
    .with_events("heel-strike", tr.events.iter().map(|e| e.t));
    common::print_written(&ts.render(&dir.join("simplest_walker_stride"), &ro)?);

    // (b) Multipliers of every gait: variational filled, central differences hollow.
    let mut cp =
        ComplexPlanePlot::new(format!("Simplest walker, γ = {gamma}: Floquet multipliers"));
    let shapes = [Marker::Circle, Marker::Square, Marker::Triangle];
    for (i, g) in gaits.iter().enumerate() {
        let var = PointGroup::new(
            format!("{}, variational", g.label),
            common::points(&g.solved.value.multipliers),
        );
        let fd = PointGroup::new(
            format!("{}, central differences", g.label),
            common::points(&g.fd.value),
        );
        cp = cp
            .with_group(
                var.with_marker(shapes[i % shapes.len()])
                    .with_color(color(i)),
            )
            .with_group(
                fd.with_marker(Marker::Diamond)
                    .with_color(color(i))
                    .hollow(),
            );
    }
    common::print_written(&cp.render(&dir.join("simplest_walker_multipliers"), &ro)?);

    // (c) Phase portrait dθ/dt against θ over one stride of every gait.
    let mut pp = TimeSeries::new(
        format!("Simplest walker: stance leg over one stride (γ = {gamma})"),
        "stance angle θ / rad",
        "dθ/dt / (rad per unit time)",
    );
    let mut events = Vec::new();
    for (i, g) in gaits.iter().enumerate() {
        let tr = common::trace(walker, &g.solved.value.x0, opts, 1, 0.01)?;
        let s = trace_series(&tr, &g.label, 1, Some(0)).with_color(color(i));
        pp = pp.with_series(if i == 0 { s } else { s.dashed() });
        events.extend(tr.events);
    }
    pp = pp.with_series(common::reset_segments("heel-strike (reset)", &events, 0, 1));
    common::print_written(&pp.render(&dir.join("simplest_walker_phase"), &ro)?);
    Ok(())
}
