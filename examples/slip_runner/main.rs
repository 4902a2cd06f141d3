//! A model written in Rust by its user, end to end: the SLIP runner ([`model`]) — two modes,
//! five guards (one with an enabling condition, two failure guards), a one-coordinate section
//! whose chart depends on a parameter — solved for its running gait, its multiplier checked
//! against central differences of the apex map, and continued in the angle of attack with exact
//! `∂F/∂α`, to the Floquet plot `figures/slip_runner_floquet.{png,svg}`.
//!
//! ```text
//! cargo run --release --example slip_runner
//! ```
//!
//! With arguments, this program is the `saltation` command with the SLIP runner registered as
//! `SlipRunner` ([`saltation_cli::main_with`]), so the model runs through every subcommand
//! and model file:
//!
//! ```text
//! cargo run --release --example slip_runner -- orbit examples/slip_runner/slip_runner.ron --json
//! cargo run --release --example slip_runner -- orbit examples/slip_runner/slip_runner.ron \
//!     --set alpha=1.17
//! ```

mod model;

use model::{apex_speed, energy, stride_options, Slip, ALPHA, ENERGY, K, L0, M};
use nalgebra::DVector;
use saltation::continuation::{
    continue_branch, BifurcationKind, ContinuationOptions, ParamFamily, Start,
};
use saltation::hybrid::{Bound, EvalModel, JacobianKind, StrideMap, StrideOptions};
use saltation::models::Registry;
use saltation::orbit::{central_difference, find_periodic_orbit, reduced_map, OrbitOptions};
use saltation::plot::{BifurcationPoint, FloquetBranch, FloquetPlot, RenderOptions};
use std::path::Path;
use std::process::ExitCode;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// One stride at 1e-12.
fn stride() -> StrideOptions {
    stride_options(1e-12)
}

fn main() -> ExitCode {
    if std::env::args_os().len() > 1 {
        // The `saltation` command, with this program's model known to model files.
        return match Registry::builtin().with("SlipRunner", Bound::new(Slip)) {
            Ok(registry) => saltation_cli::main_with(&registry),
            Err(e) => {
                eprintln!("slip_runner: {e}");
                ExitCode::FAILURE
            }
        };
    }
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("slip_runner: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Res<()> {
    // The equations with their parameter values: the declared defaults.
    let slip = Bound::new(Slip);
    let p = slip.values();
    let opts = OrbitOptions {
        stride: stride(),
        ..OrbitOptions::default()
    };
    let start = std::time::Instant::now();
    let orbit = find_periodic_orbit(&slip, &[1.0], &opts)?;
    let solve = start.elapsed();
    let y = orbit.u0[0];
    println!(
        "SLIP runner (m = {} kg, k = {} N/m, l0 = {} m, alpha = {:.1} deg, E = {} J)",
        p[M],
        p[K],
        p[L0],
        p[ALPHA].to_degrees(),
        p[ENERGY]
    );
    println!(
        "  running gait: apex height {y:.12} m at {:.12} m/s, stride {:.12} s",
        apex_speed(p, y),
        orbit.period
    );
    for (e, next) in orbit.events.iter().zip(1..) {
        println!(
            "    event {next}: {} -> {} at t = {:.9} s",
            slip.mode_name(e.mode),
            slip.mode_name(e.target),
            e.t
        );
    }
    let mu = orbit.multipliers[0];
    println!(
        "  multiplier of the apex map: {:.12} ({}), solved in {:.2} ms",
        mu.re,
        if orbit.stable { "stable" } else { "unstable" },
        solve.as_secs_f64() * 1e3
    );

    // An independent check: central differences of the apex return map y ↦ y'.
    let mut map = StrideMap::new(&slip, stride())?;
    let fd = central_difference(
        |u: &DVector<f64>| reduced_map(&mut map, u.as_slice()),
        &DVector::from_vec(vec![y]),
        1e-5,
    )?;
    println!(
        "  the same from central differences of the apex map: {:.12} (difference {:.1e})",
        fd[(0, 0)],
        (fd[(0, 0)] - mu.re).abs()
    );
    // Energy is conserved over the stride (a check on the integration and the resets).
    let x = map.eval(&orbit.x0, JacobianKind::None)?.x;
    let e_end = energy(p, &x);
    println!(
        "  energy after one stride: {e_end:.9} J (drift {:.1e})",
        e_end - p[ENERGY]
    );

    // Continuation in the angle of attack, both ways from 68°, with exact ∂F/∂α.
    let alpha = p[ALPHA];
    let family = ParamFamily::new(slip, "alpha")?;
    let mut plot = FloquetPlot::new(
        "SLIP runner: apex-map multiplier against the angle of attack",
        "angle of attack α / deg",
    );
    for (direction, label) in [(1.0, "increasing α"), (-1.0, "decreasing α")] {
        let c = ContinuationOptions {
            direction,
            p_min: 55f64.to_radians(),
            p_max: 80f64.to_radians(),
            step: 0.2f64.to_radians(),
            max_step: 0.5f64.to_radians(),
            max_points: 200,
            corrector_tol: 1e-9,
            ..ContinuationOptions::default()
        };
        let start = Start::new(alpha, orbit.u0.clone()).labelled(label);
        let branch = continue_branch(&family, &start, &opts, &c)?;
        println!(
            "  from 68°, {label}: {} points to α = {:.2}°, ended: {}",
            branch.points.len(),
            branch
                .points
                .last()
                .map_or(f64::NAN, |p| p.param.to_degrees()),
            branch.end
        );
        for b in &branch.bifurcations {
            println!("    {} at α = {:.4}°", b.kind.name(), b.param.to_degrees());
            if let Some(kind) = plot_kind(b.kind) {
                plot =
                    plot.with_bifurcation(BifurcationPoint::new(kind, b.param.to_degrees(), 1.0));
            }
        }
        let params = branch.points.iter().map(|p| p.param.to_degrees()).collect();
        let moduli = branch
            .points
            .iter()
            .map(|p| p.multipliers.iter().map(|m| m.modulus()).collect())
            .collect();
        let flags = branch.points.iter().map(|p| p.stable).collect();
        plot = plot.with_branch(
            FloquetBranch::new(format!("from 68°, {label}"), params, moduli).with_stability(flags),
        );
    }
    std::fs::create_dir_all("figures")?;
    let files = plot.render(
        Path::new("figures/slip_runner_floquet"),
        &RenderOptions::default(),
    )?;
    for f in files {
        println!("  wrote {}", f.display());
    }
    Ok(())
}

/// The plot's marker for a bifurcation of the branch.
fn plot_kind(k: BifurcationKind) -> Option<saltation::plot::BifurcationKind> {
    use saltation::plot::BifurcationKind as P;
    match k {
        BifurcationKind::Fold => Some(P::Fold),
        BifurcationKind::PeriodDoubling => Some(P::PeriodDoubling),
        BifurcationKind::NeimarkSacker => Some(P::NeimarkSacker),
        BifurcationKind::Grazing => Some(P::Other),
    }
}
