//! Shared by the `simplest_walker` and `rimless_wheel` examples: command line, model-file
//! loading, timing, comparison tables with digits of agreement, JSON values and trace plotting.
#![allow(dead_code)] // each example uses a different subset

use saltation::hybrid::{simulate, EvalModel, EventRecord, SimulateOptions, Trace};
use saltation::orbit::{
    find_periodic_orbit, multipliers_of, stride_jacobian_fd, EigenBackend, Multiplier, OrbitError,
    OrbitOptions, PeriodicOrbit,
};
use saltation::plot::{Color, LineStyle, Series};
use saltation::scenario::{load_model_file, ModelFile};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Result type of the examples' `run` functions.
pub type Res<T> = Result<T, Box<dyn Error>>;

/// Command line: `[--json] [MODEL.ron]`.
pub struct Args {
    /// Print one JSON object instead of the tables (and write no figures).
    pub json: bool,
    /// The model file.
    pub file: PathBuf,
}

/// Parses the command line; `default_file` is relative to the crate root.
pub fn parse_args(default_file: &str, usage: &str) -> Res<Args> {
    let mut args = Args {
        json: false,
        file: Path::new(env!("CARGO_MANIFEST_DIR")).join(default_file),
    };
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--json" => args.json = true,
            "-h" | "--help" => {
                println!("{usage}");
                std::process::exit(0);
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{usage}").into()),
            s => args.file = PathBuf::from(s),
        }
    }
    Ok(args)
}

/// Runs `run`, turning an error into a message on stderr and exit status 1.
pub fn main_with(run: impl FnOnce() -> Res<()>) -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Loads a model file (errors name the file, line and column).
pub fn load(path: &Path) -> Res<ModelFile> {
    Ok(load_model_file(path)?)
}

/// A result with its timings.
pub struct Timed<T> {
    /// The result.
    pub value: T,
    /// Wall time of the first call, seconds.
    pub first_s: f64,
    /// Median wall time over the repeated calls, seconds.
    pub median_s: f64,
}

/// Calls `f` once and then `repeats` more times, timing each call alone (the median is a
/// stable figure; the first call may pay for cold caches).
pub fn timed<T>(repeats: usize, mut f: impl FnMut() -> Res<T>) -> Res<Timed<T>> {
    let t0 = Instant::now();
    let value = f()?;
    let first_s = t0.elapsed().as_secs_f64();
    let mut times = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let t0 = Instant::now();
        std::hint::black_box(f()?);
        times.push(t0.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let median_s = times.get(times.len() / 2).copied().unwrap_or(first_s);
    Ok(Timed {
        value,
        first_s,
        median_s,
    })
}

/// Finds the periodic orbit from `guess`, timed by [`timed`].
pub fn solve_timed<M: EvalModel + ?Sized>(
    model: &M,
    label: &str,
    guess: &[f64],
    opts: &OrbitOptions,
    repeats: usize,
) -> Res<Timed<PeriodicOrbit>> {
    timed(repeats, || {
        find_periodic_orbit(model, guess, opts).map_err(|e: OrbitError| {
            format!("{label}: no periodic orbit from the guess {guess:?}: {e}").into()
        })
    })
}

/// Multipliers from the central-difference stride Jacobian at `x0` with step `h`, timed.
pub fn fd_multipliers<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    h: f64,
    opts: &OrbitOptions,
    repeats: usize,
) -> Res<Timed<Vec<Multiplier>>> {
    timed(repeats, || {
        let jac = stride_jacobian_fd(model, x0, h, &opts.stride)?;
        Ok(multipliers_of(&jac, opts.eigen)?)
    })
}

/// The solver settings of a model file, as `(integration, Newton and eigenvalues)`.
pub fn settings(file: &ModelFile) -> (String, String) {
    let s = &file.orbit.stride;
    let atol = match &s.ode.atol {
        saltation::ode::Atol::Scalar(a) => format!("{a:e}"),
        saltation::ode::Atol::Vector(v) => format!("{v:?}"),
    };
    let control = if s.variational_error_control {
        ", variational equations under step-size control"
    } else {
        ", state only under step-size control"
    };
    let eigen = if file.orbit.eigen == EigenBackend::Lapack {
        "LAPACK dgeev"
    } else {
        "Francis QR (pure Rust)"
    };
    (
        format!(
            "{}, rtol = {:e}, atol = {atol}{control}",
            s.method.name().to_uppercase(),
            s.ode.rtol
        ),
        format!(
            "Newton shooting, ftol = {:e}, xtol = {:e}; eigenvalues by {eigen}",
            file.orbit.newton.ftol, file.orbit.newton.xtol
        ),
    )
}

/// Prints the title and the lines saying where the model, the settings and the reference
/// come from.
pub fn print_preamble(title: &str, path: &Path, file: &ModelFile, reference: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (integration, newton) = settings(file);
    println!("{title}");
    println!(
        "model file  {}",
        path.strip_prefix(root).unwrap_or(path).display()
    );
    println!("integration {integration}");
    println!("solver      {newton}");
    println!("reference   {reference}");
}

/// Prints the heading of an orbit's table: label, stability, spectral radius, the guess.
pub fn print_heading(label: &str, o: &PeriodicOrbit, guess: &str) {
    let rho = o
        .multipliers
        .iter()
        .map(Multiplier::modulus)
        .fold(0.0, f64::max);
    let stability = if o.stable { "stable" } else { "unstable" };
    println!("\n== {label} ==  {stability} (max |μ| = {rho:.4}); Newton from {guess}");
}

/// Decimal places of agreement, `−log10 |a − b|`, as text (`"exact"` if equal).
pub fn digits(a: f64, b: f64) -> String {
    let d = (a - b).abs();
    if d == 0.0 {
        "exact".into()
    } else if d.is_finite() {
        format!("{:.1}", -d.log10())
    } else {
        "-".into()
    }
}

/// Column layout of the comparison tables.
pub const LABEL_W: usize = 22;
/// Width of a number column.
pub const NUM_W: usize = 20;

/// Formats a number for the tables: fixed 15 decimals, or scientific notation when tiny.
pub fn num(v: f64) -> String {
    if v.is_nan() {
        "-".into()
    } else if v == 0.0 {
        "0".into()
    } else if v != 0.0 && v.abs() < 1e-6 {
        format!("{v:.3e}")
    } else {
        format!("{v:.15}")
    }
}

/// Prints a table row `label  ours  reference  digits`.
pub fn row(label: &str, ours: f64, reference: f64) {
    println!(
        "  {label:<LABEL_W$}{:>NUM_W$}  {:>NUM_W$}  {:>6}",
        num(ours),
        num(reference),
        digits(ours, reference)
    )
}

/// Prints a table header with the two column titles.
pub fn header(title: &str, ours: &str, reference: &str) {
    println!(
        "  {title:<LABEL_W$}{ours:>NUM_W$}  {reference:>NUM_W$}  {:>6}",
        "digits"
    )
}

/// Prints rows comparing multipliers, both lists by decreasing modulus. A complex pair
/// (reference `im ≠ 0`, followed by its conjugate) gives one `Re` and one `±Im` row.
pub fn multiplier_rows(ours: &[Multiplier], reference: &[Multiplier]) {
    let mut i = 0;
    while i < reference.len().min(ours.len()) {
        let (o, r) = (ours[i], reference[i]);
        if r.im != 0.0 {
            let name = format!("μ{},{}", sub(i + 1), sub(i + 2));
            row(&format!("  Re {name}"), o.re, r.re);
            row(&format!("  Im {name} (±)"), o.im.abs(), r.im.abs());
            i += 2;
        } else {
            row(&format!("  μ{}", sub(i + 1)), o.re, r.re);
            i += 1;
        }
    }
}

/// Unknown reference values shaped like `ms` (NaN, with `im = 0` where `ms` is real).
pub fn unknown(ms: &[Multiplier]) -> Vec<Multiplier> {
    let nan = f64::NAN;
    ms.iter()
        .map(|m| Multiplier::new(nan, if m.im == 0.0 { 0.0 } else { nan }))
        .collect()
}

/// `k` in subscript digits.
pub fn sub(k: usize) -> String {
    k.to_string()
        .chars()
        .map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c))
        .collect()
}

/// A JSON object with its keys in the given order (serde_json's `Value` would sort them);
/// the values are JSON text.
pub fn json_object(fields: &[(&str, String)]) -> String {
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", serde_json::Value::from(*k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// JSON text of any serialisable value (non-finite numbers become `null`).
macro_rules! js {
    ($v:expr) => {
        serde_json::json!($v).to_string()
    };
}

/// `[{"re": .., "im": ..}, ..]` for the multipliers.
pub fn json_multipliers(ms: &[Multiplier]) -> String {
    let items: Vec<String> = ms
        .iter()
        .map(|m| json_object(&[("re", js!(m.re)), ("im", js!(m.im))]))
        .collect();
    format!("[{}]", items.join(","))
}

/// Simulates `strides` strides from `x0`, sampled every `dt`.
pub fn trace<M: EvalModel + ?Sized>(
    model: &M,
    x0: &[f64],
    opts: &OrbitOptions,
    strides: usize,
    dt: f64,
) -> Res<Trace> {
    let sim = SimulateOptions {
        stride: opts.stride.clone(),
        strides,
        dt: Some(dt),
        ..Default::default()
    };
    let tr = simulate(model, x0, &sim)?;
    match tr.failure {
        Some(e) => Err(format!("simulation failed: {e}").into()),
        None => Ok(tr),
    }
}

/// Component `i` of a trace against component `j` (`None`: time), with a NaN at each reset so
/// the line breaks at the jump instead of drawing it.
pub fn trace_series(tr: &Trace, label: &str, i: usize, j: Option<usize>) -> Series {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for k in 0..tr.t.len() {
        if k > 0 && tr.t[k] == tr.t[k - 1] {
            if tr.x[k] == tr.x[k - 1] {
                continue; // a segment's first sample repeats the state after the reset
            }
            xs.push(f64::NAN);
            ys.push(f64::NAN);
        }
        xs.push(j.map_or(tr.t[k], |j| tr.x[k][j]));
        ys.push(tr.x[k][i]);
    }
    Series::new(label, xs, ys)
}

/// The jumps `x⁻ → x⁺` of the events in components `(i, j)` as dotted grey segments.
pub fn reset_segments<'a>(
    label: &str,
    events: impl IntoIterator<Item = &'a EventRecord>,
    i: usize,
    j: usize,
) -> Series {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for e in events {
        xs.extend([e.x_minus[i], e.x_plus[i], f64::NAN]);
        ys.extend([e.x_minus[j], e.x_plus[j], f64::NAN]);
    }
    Series::new(label, xs, ys)
        .with_line(LineStyle::Dotted)
        .with_color(Color::GREY)
}

/// Multipliers as `(re, im)` points.
pub fn points(ms: &[Multiplier]) -> Vec<(f64, f64)> {
    ms.iter().map(|m| (m.re, m.im)).collect()
}

/// Prints the files a figure wrote.
pub fn print_written(files: &[PathBuf]) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    for f in files {
        println!("  wrote {}", f.strip_prefix(base).unwrap_or(f).display());
    }
}
