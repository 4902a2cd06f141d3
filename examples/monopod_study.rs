//! A reduced monopod solver study (three of the 13 parameter sets of the study of Papadopoulos
//! and co-authors): every solver — the seven MATLAB analogs, DOP853 and Radau IIA 5 — at
//! tolerances 1e-3, 1e-6 and 1e-9 with both phase-switch strategies, scored against a reference
//! accurate to about 1e-11. Prints the tables; writes the figures to `figures/`.
//!
//! ```text
//! cargo run --release --example monopod_study          # sets 1, 5 (nominal) and 13
//! cargo run --release --example monopod_study -- --all # all 13 sets (the whole study)
//! ```
//!
//! The same study from a file: `saltation study models/monopod_study.ron --out DIR`.

use saltation::plot::{Figure, RenderOptions};
use saltation_report::study::{figures, points, run_study, tables, StudySpec};
use saltation_report::{check_destination, Outputs};
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let all = std::env::args().any(|a| a == "--all");
    let mut spec = StudySpec::default();
    if !all {
        // Heavy toe, nominal, soft ground: the cheapest sets that still differ in stiffness.
        spec.sets = vec![spec.sets[0], spec.sets[4], spec.sets[12]];
        spec.figures.set = 2;
        spec.repeats = 3;
    }
    if let Err((field, reason)) = spec.validate() {
        eprintln!("error: {field}: {reason}");
        return ExitCode::FAILURE;
    }
    let total = spec.progress_steps();
    eprintln!(
        "monopod study: {} set(s), {} solvers, {} tolerances, {} strategies ({total} runs)",
        spec.sets.len(),
        spec.methods.len(),
        spec.tolerances.len(),
        spec.strategies.len()
    );
    let result = match run_study(&spec, &mut |done, total| {
        eprint!("\r  {done}/{total} runs");
        let _ = std::io::stderr().flush();
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("\nerror: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!();
    let pts = points::points(&spec, &result.runs);
    print!("{}", tables::tables_markdown(&spec, &result, &pts));
    let out = Outputs {
        dir: "figures".into(),
        stem: "monopod_study".into(),
        render: RenderOptions::default(),
    };
    if let Err(e) = check_destination(&out.dir) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let mut figs: Vec<(String, Box<dyn Figure>)> = Vec::new();
    for &strategy in &spec.strategies {
        figs.push((
            format!("work_precision_{}", strategy.name()),
            Box::new(figures::work_precision(&spec, &result, strategy)),
        ));
    }
    figs.push((
        "response".into(),
        Box::new(figures::response(&spec, &result)),
    ));
    figs.push(("error".into(), Box::new(figures::error(&spec, &result))));
    for (what, fig) in figs {
        match fig.render(&out.path(&what), &out.render) {
            Ok(paths) => paths.iter().for_each(|p| println!("wrote {}", p.display())),
            Err(e) => {
                eprintln!("error: {what}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
