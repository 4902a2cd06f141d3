//! Continuation of the simplest walker's gaits in the slope γ (Garcia, Chatterjee, Ruina &
//! Coleman 1998): runs the continuation script of `models/simplest_walker_continuation.ron`
//! through the library (both period-one gaits up and down in γ, the period-2 branch born at the
//! stable gait's period doubling, and the brute-force orbit diagram), prints the bifurcations,
//! why each branch ends and the slope where walking fails, and writes the same data files and
//! figures as `saltation continue` (the figure code is shared with the CLI).
//!
//! ```text
//! cargo run --release --example walker_continuation              # summary, data and figures
//! cargo run --release --example walker_continuation -- --json    # the CLI's JSON object only
//! cargo run --release --example walker_continuation -- my.ron    # another continuation file
//! ```

mod common;

// The figure, CSV and JSON code of `saltation continue`, shared with the CLI.
use saltation_report as report;

use common::Res;
use saltation::continuation::{
    run_script, BifurcationKind, ContinuationSpec, ParamFamily, ScriptProgress, ScriptResult,
};
use saltation::models::Model;
use saltation::orbit::OrbitOptions;
use saltation::plot::RenderOptions;
use saltation::scenario::ModelFile;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: walker_continuation [--json] [MODEL.ron]
  Runs the continuation script of a model file (default
  models/simplest_walker_continuation.ron): branches, bifurcations, period-doubling
  switches, orbit diagram; prints a summary and writes data and figures to figures/.
  --json prints the JSON object of `saltation continue --json` and writes nothing.";

/// Garcia et al. (1998) for the simplest walker: the stable gait period-doubles near
/// γ ≈ 0.0151, period 4 appears near 0.0177, and the walker falls for γ ≳ 0.019 (read from
/// their figures; a plausibility note, not test references).
const GARCIA_PD: f64 = 0.0151;
const GARCIA_PERIOD4: f64 = 0.0177;
const GARCIA_FALL: f64 = 0.019;

fn main() -> ExitCode {
    common::main_with(run)
}

/// The script's result and its timing: the whole script, and the orbit diagram within it.
struct Run {
    result: ScriptResult,
    total: Duration,
    diagram: Option<Duration>,
}

fn run() -> Res<()> {
    let args = common::parse_args("models/simplest_walker_continuation.ron", USAGE)?;
    let file = common::load(&args.file)?;
    let Some(spec) = file.script() else {
        return Err(format!("{} has no `continuation` section", args.file.display()).into());
    };
    let run = run_spec(&file.model, &file.orbit, &spec)?;
    if args.json {
        println!("{}", report::continuation_json(&file.model, &run.result));
        return Ok(());
    }
    print_preamble(&args.file, &file, &spec, &run);
    println!("\n{}", report::summary(&run.result));
    if let Some(cols) = &run.result.orbit_diagram {
        print_diagram(cols, &spec);
    }
    if matches!(file.model, Model::SimplestWalker(_)) && spec.param == "gamma" {
        print_literature(&run.result);
    }
    println!("\nfigures and data");
    let ctx = report::FigureContext::for_script(&file.model, &file.orbit.stride, &spec);
    let out = report::Outputs {
        dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("figures"),
        stem: report::stem_of(&args.file),
        render: RenderOptions::default(),
    };
    common::print_written(&report::write_continuation(&run.result, &ctx, &out)?);
    Ok(())
}

/// Runs the script with the model family of the named parameter (exact `∂F/∂p`) and the file's
/// orbit settings, timing it.
fn run_spec(model: &Model, orbit: &OrbitOptions, spec: &ContinuationSpec) -> Res<Run> {
    let family = ParamFamily::new(model.clone(), &spec.param)?;
    let start = Instant::now();
    let mut diagram_start = None;
    let result = run_script(&family, orbit, spec, &mut |e| {
        if let ScriptProgress::Diagram(_) = e {
            diagram_start = Some(Instant::now());
        }
    })?;
    Ok(Run {
        result,
        total: start.elapsed(),
        diagram: diagram_start.map(|t| t.elapsed()),
    })
}

fn print_preamble(path: &Path, file: &ModelFile, spec: &ContinuationSpec, run: &Run) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = &spec.settings;
    let sym = report::param_symbol(&spec.param);
    println!("Simplest walker (Garcia et al. 1998): continuation in the slope {sym}");
    println!(
        "model file   {}",
        path.strip_prefix(root).unwrap_or(path).display()
    );
    let predictor = s.predictor.name();
    println!(
        "settings     {predictor}, step {:e} (from {:e} to {:e}), corrector ‖G‖ ≤ {:e}, \
         bifurcations located to {:e} in {sym}",
        s.step, s.min_step, s.max_step, s.corrector_tol, s.locate_tol
    );
    let (integration, _) = common::settings(file);
    println!("integration  {integration}");
    let ms = |d: Duration| format!("{:.0} ms", d.as_secs_f64() * 1e3);
    let timing = match run.diagram {
        Some(d) => format!(
            "{} in all: continuation {}, orbit diagram {} (parallel)",
            ms(run.total),
            ms(run.total.saturating_sub(d)),
            ms(d)
        ),
        None => ms(run.total),
    };
    println!("wall time    {timing}");
}

fn print_diagram(cols: &[saltation::continuation::DiagramColumn], spec: &ContinuationSpec) {
    let sym = report::param_symbol(&spec.param);
    let failed = cols.iter().filter(|c| c.failed_at.is_some()).count();
    let d = spec.orbit_diagram.as_ref();
    let (transient, keep) = d.map_or((0, 0), |d| (d.settings.transient, d.settings.keep));
    println!(
        "orbit diagram: {} slopes, {transient} transient + {keep} recorded strides each; \
         {failed} run(s) fell",
        cols.len()
    );
    match (report::first_failure(cols), report::final_failure(cols)) {
        (Some(first), Some(last)) if first == last => {
            println!("  walking fails from {sym} = {first:.10} on (every larger slope falls)")
        }
        (Some(first), last) => {
            println!("  first slope that falls: {sym} = {first:.10}");
            match last {
                Some(l) => println!("  every slope from {sym} = {l:.10} on falls"),
                None => println!("  (the largest slope walks: the falls are isolated)"),
            }
        }
        (None, _) => println!("  no run fell"),
    }
    if let Some(spacing) = d.map(|d| (d.to - d.from).abs() / (d.count.max(2) - 1) as f64) {
        println!("  (resolution: slopes {spacing:.2e} apart)");
    }
}

/// Ours next to Garcia et al.'s values.
fn print_literature(r: &ScriptResult) {
    let pd_on = |k: usize| {
        r.branches
            .iter()
            .filter(|b| b.period_k == k)
            .flat_map(|b| &b.bifurcations)
            .filter(|x| x.kind == BifurcationKind::PeriodDoubling)
            .map(|x| x.param)
            .min_by(f64::total_cmp)
    };
    let fall = r.orbit_diagram.as_deref().and_then(report::first_failure);
    let show = |v: Option<f64>| v.map_or("not found".to_string(), |v| format!("{v:.10}"));
    println!(
        "\nplausibility: Garcia, Chatterjee, Ruina & Coleman (1998), values read from the paper \
         (not test references)"
    );
    println!("  {:<44} {:>14}  {:>10}", "", "ours", "literature");
    for (what, ours, lit) in [
        ("period doubling of the stable gait, γ", pd_on(1), GARCIA_PD),
        (
            "period 4 (period doubling of period 2), γ",
            pd_on(2),
            GARCIA_PERIOD4,
        ),
        ("walker falls (orbit diagram), γ", fall, GARCIA_FALL),
    ] {
        println!(
            "  {what:<44} {:>14}  {:>10}",
            show(ours),
            format!("≈ {lit}")
        );
    }
}
