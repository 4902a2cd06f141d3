//! The vertical hopper of Zana, Bodor, Bencsik & Zelei, "A Tutorial for the Analysis of the
//! Piecewise-Smooth Dynamics of a Constrained Multibody Model of Vertical Hopping", Math.
//! Comput. Appl. 23 (2018) 74: two blocks above rigid ground, a spring-damper between them that
//! dissipates in flight and injects energy on the ground (`d_G < 0`), inelastic touchdown,
//! lift-off when the ground would have to pull.
//!
//! ```text
//! cargo run --release --example hopper          # tables, branch summaries, figures
//! cargo run --release --example hopper -- --all # the same, every branch point in the tables
//! ```
//!
//! What it prints:
//! 1. The gait of (Zana et al. 2018, §4.2) (`μ = 0.8`, `d_G = −80` N s/m) in both forms — the
//!    hand-written two-block model (4 states) and the paper's constrained four-particle model
//!    (8 states) — next to the closed-form reference of §4.1, with digits of agreement: the
//!    lift-off fixed point, flight time `t_F`, ground time `t_G`, period, the saltation
//!    matrices and the monodromy `Φ̃ = S_G2F Φ_G S_F2G Φ_F` with its eigenvalues, the nontrivial
//!    multiplier, the Jacobian `M` of the reduced shooting map and its eigenvalues, the energy
//!    split `T_a/T`, `T_c/T` at touchdown, admissibility, and the time of one orbit solve.
//! 2. (Zana et al. 2018, §4.3) For `μ ∈ {0.8, 0.95}` the branch of periodic orbits continued by
//!    pseudo-arclength in the ground damping from `D_G = 0⁻` down to where the flight time
//!    grows without bound: the folds and grazing points (admissibility boundaries) in `D_G` and
//!    `d_G`, the stretches of admissible orbits, and a table of `D_G`, `t_F`, `t_G`, `T`, the
//!    nontrivial multiplier, the apex heights of both blocks in flight, `T_a/T`, `T_c/T` and
//!    admissibility; then a check of every admissible point against the closed form.
//! 3. Wall times of the two continuations (run in parallel) and of the figures.
//!
//! It writes `figures/hopper_fig6_times`, `…_fig7_multiplier`, `…_fig8_apex` and
//! `…_fig9_energy` (`.png` and `.svg`), both `μ` on each figure.

mod branches;
mod figures;
mod report;
mod section42;

use std::error::Error;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Error type of the example: every failure becomes a message and exit status 1.
pub type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Res<()> {
    let mut all = false;
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--all" => all = true,
            "-h" | "--help" => {
                println!("usage: hopper [--all]   (--all: every branch point in the tables)");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}` (try --help)").into()),
        }
    }
    let t0 = Instant::now();
    section42::run()?;

    let started = Instant::now();
    let mus = [0.8, 0.95];
    let runs = branches::continue_both(&mus)?;
    let both = started.elapsed();
    report::print_settings(&mus);
    for r in &runs {
        report::print(r, all);
    }
    let t_fig = Instant::now();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("figures");
    let written = figures::write_all(&runs, &dir)?;
    let fig_time = t_fig.elapsed();

    println!("\nfigures");
    for f in &written {
        let shown = f.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(f);
        println!("  wrote {}", shown.display());
    }
    println!("\nwall times");
    for r in &runs {
        println!(
            "  continuation μ = {:<4}  {:>7.0} ms  ({} points; then {:.0} ms for apex heights, \
             energy split and the closed-form check)",
            r.mu,
            r.continuation.as_secs_f64() * 1e3,
            r.branch.points.len(),
            r.evaluation.as_secs_f64() * 1e3
        );
    }
    println!(
        "  both continuations     {:>7.0} ms  (in parallel, with the per-point evaluation)",
        both.as_secs_f64() * 1e3
    );
    println!(
        "  figures                {:>7.0} ms  ({} files)",
        fig_time.as_secs_f64() * 1e3,
        written.len()
    );
    println!(
        "  whole run              {:>7.0} ms",
        t0.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
