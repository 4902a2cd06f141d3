//! # saltation-cli
//!
//! The `saltation` command: periodic orbits and Floquet stability of the built-in hybrid models,
//! driven by RON model files (`models/*.ron`, see [`saltation_scenario::ModelFile`]).
//!
//! | I want to … | run |
//! |---|---|
//! | find a periodic orbit (fixed point of the stride map) and its Floquet multipliers | `saltation orbit models/simplest_walker.ron` |
//! | … at another parameter value | `saltation orbit models/simplest_walker.ron --set gamma=0.012` |
//! | … from my own initial guess (reduced coordinates of the section) | `saltation orbit models/simplest_walker.ron --guess 0.19,-0.2` |
//! | … for every guess in the file | `saltation orbit models/simplest_walker.ron --all` |
//! | … of a very unstable orbit, by multiple shooting (one segment per phase, or N pieces per phase) | `saltation orbit models/hopper_unconstrained.ron --shooting phases` |
//! | … as machine-readable output | add `--json` (one JSON object, or an array with `--all`) |
//! | continue branches in a parameter, detect bifurcations, switch at period doublings (the file's `continuation` section); data and figures to `figures/` | `saltation continue models/simplest_walker_continuation.ron` |
//! | … in another parameter, or to another end value | `saltation continue FILE --param NAME --to VALUE` |
//! | … with multiple shooting in the correctors (branches of very unstable orbits) | `saltation continue FILE --shooting phases` (or `--shooting N`) |
//! | run a model forward in time from the file's `initial` section (any method, MATLAB names too) | `saltation simulate models/robertson.ron --method ode15s --at 40,4e5,4e10 --json` |
//! | continue a fold / period doubling / Neimark–Sacker in two parameters | `saltation curve models/equations/vibrating_table.ron --kind period_doubling --param Gamma --param2 e --to2 0.85` |
//! | basins of attraction on the section, with the attractors and their multipliers | `saltation basin models/simplest_walker.ron --axes u0=0.15:0.25:50,u1=-0.25:-0.15:50 --json` |
//! | … as shards of a job array, then joined | `saltation basin FILE --axes … --shard $I/$N --out shards`, then `saltation merge shards --json` |
//! | Lyapunov exponents across the impacts | `saltation lyapunov models/simplest_walker.ron --strides 2000 --json` |
//! | the gait sensitivity norm for a one-stride change of a parameter | `saltation sensitivity models/rimless_wheel.ron --disturbance alpha --json` |
//! | brute-force orbit diagram and where the runs start failing | `saltation orbit-diagram models/simplest_walker_continuation.ron --from 0.014 --to 0.0195 --count 200` |
//!
//! A user's own Rust model reaches every subcommand through a [`Registry`]: a program of
//! one line, `saltation_cli::main_with(&Registry::builtin().with("MyModel", model)?)`, is
//! the `saltation` command with `MyModel(param: value, …)` known to model files
//! (`examples/slip_runner/main.rs` does this).
//!
//! The binary is a thin wrapper around [`run`]: every subcommand lives in its own module
//! ([`orbit`], [`continuation`], [`curve`], [`diagram`], [`simulate`], [`study`]), parses its arguments with
//! clap ([`Cli`], [`Command`]), computes everything first and only then writes to the output, so
//! a failing command prints nothing on stdout. Failures are [`CliError`]s: one line on stderr,
//! starting with `error: `, and an exit code saying whose fault it was ([`EXIT_INPUT`] for bad
//! input, [`EXIT_COMPUTATION`] for a computation that failed).
//!
//! What the commands write — JSON objects, CSV tables, text summaries, figures, the solver
//! study — comes from the output layer, the `saltation-report` crate (re-exported here as
//! [`report`]), which the examples use too; this crate adds the arguments, the progress line
//! ([`progress`]) and the human-readable tables ([`mod@format`]).
#![warn(missing_docs)]

mod entry;
pub use entry::main_with;
pub use saltation_models::Registry;

pub mod basin;
pub mod basin_json;
pub mod continuation;
pub mod curve;
pub mod diagram;
mod error;
pub mod format;
pub mod input;
pub mod lyapunov;
pub mod merge;
pub mod mfpt;
pub mod mfpt_plan;
pub mod mfpt_shard;
pub mod orbit;
pub mod progress;
pub mod sensitivity;
pub mod simulate;
mod stdout_check;
pub mod study;

/// The output layer the commands write with (the `saltation-report` crate).
pub use saltation_report as report;

use clap::{Parser, Subcommand};
use std::io::Write;

pub use error::{explain, CliError, EXIT_COMPUTATION, EXIT_INPUT};

/// Command-line arguments of `saltation`.
#[derive(Debug, Parser)]
#[command(
    name = "saltation",
    version,
    about = "Periodic orbits and Floquet stability of hybrid dynamical systems",
    long_about = "Periodic orbits and Floquet stability of hybrid dynamical systems.\n\n\
        Model files (RON) name a built-in model with its parameters, initial guesses and solver \
        settings; see models/*.ron.\n\n\
        Exit codes: 0 success, 1 computation failed (no convergence, integration failure), \
        2 bad input (usage, unreadable or invalid file, unknown parameter, bad guess)."
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands, one module each.
#[derive(Debug, Subcommand)]
#[non_exhaustive]
pub enum Command {
    /// Find a periodic orbit (fixed point of the stride map) by Newton shooting, with its
    /// Floquet multipliers.
    Orbit(orbit::OrbitArgs),
    /// Continue branches of periodic orbits in a parameter (the file's `continuation`
    /// section): bifurcations, period-doubling switches; writes CSV, JSON and figures.
    Continue(continuation::ContinueArgs),
    /// Continue a fold, period doubling or Neimark–Sacker bifurcation of an orbit in two
    /// parameters: locate it in --param at the model's values, follow it until --param2
    /// reaches --to2; codimension-two points (cusp, fold–flip, resonances); writes CSV and JSON.
    Curve(curve::CurveArgs),
    /// Brute-force orbit diagram over a parameter range (parallel), with the parameter value
    /// where runs start failing; writes CSV and a figure.
    OrbitDiagram(diagram::DiagramArgs),
    /// Integrate a model forward in time from the file's `initial` section through its events
    /// and resets, with any method (also by MATLAB name); samples, events and work as a table,
    /// JSON, or CSV with a figure.
    Simulate(simulate::SimulateArgs),
    /// Basins of attraction on the section: a grid of starts over one or two reduced
    /// coordinates iterated by the stride map, the attractors found by Newton; `--shard i/N`
    /// for job arrays.
    Basin(basin::BasinArgs),
    /// Lyapunov exponents on the section, tangent vectors carried across the impacts by the
    /// stride map's exact Jacobian and re-orthonormalised each stride.
    Lyapunov(lyapunov::LyapunovArgs),
    /// Join the shard files of `saltation basin --shard` into exactly the unsharded result.
    Merge(merge::MergeArgs),
    /// The monopod solver study: every solver at every tolerance with both phase-switch
    /// strategies on every parameter set, scored against a near-exact reference; writes the
    /// runs, the tables and figures.
    Study(study::StudyArgs),
    /// The gait sensitivity norm of a periodic orbit (Hobbelen & Wisse 2007): the step time's
    /// response to a one-stride change of a parameter, summed over strides (H2 norm).
    Sensitivity(sensitivity::SensitivityArgs),
    /// The mean first-passage time on rough terrain: a parameter drawn at every stride; Byl &
    /// Tedrake's mesh Markov chain and Monte Carlo side by side.
    Mfpt(mfpt::MfptArgs),
}

/// Runs a parsed command line, writing its result to `out`.
///
/// Nothing is written when an error is returned, except by `orbit --all`, which prints every
/// guess's result or error and then returns [`CliError::GuessesFailed`] if any failed.
pub fn run(cli: &Cli, out: &mut dyn Write) -> Result<(), CliError> {
    run_with(cli, &Registry::builtin(), out)
}

/// [`run`] with the models of `registry` known to model files besides the built-in ones, so a
/// user's own Rust model runs through every subcommand.
pub fn run_with(cli: &Cli, registry: &Registry, out: &mut dyn Write) -> Result<(), CliError> {
    let _installed = registry.install();
    match &cli.command {
        Command::Orbit(args) => orbit::run(args, out),
        Command::Continue(args) => continuation::run(args, out),
        Command::Curve(args) => curve::run(args, out),
        Command::OrbitDiagram(args) => diagram::run(args, out),
        Command::Simulate(args) => simulate::run(args, out),
        Command::Study(args) => study::run(args, out),
        Command::Basin(args) => basin::run(args, out),
        Command::Merge(args) => merge::run(args, out),
        Command::Lyapunov(args) => lyapunov::run(args, out),
        Command::Sensitivity(args) => sensitivity::run(args, out),
        Command::Mfpt(args) => mfpt::run(args, out),
    }
}
