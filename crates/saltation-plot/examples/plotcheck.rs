//! Renders every figure kind with sample data to a directory (default `/tmp/plotcheck`), for
//! looking at: `cargo run -p saltation-plot --example plotcheck [DIR]`.

use std::path::PathBuf;

use saltation_plot::*;

fn main() -> Result<(), PlotError> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or("/tmp/plotcheck".into()));
    let opts = RenderOptions::default();

    // A damped oscillation with "impacts" at its zero crossings.
    let t: Vec<f64> = (0..=600).map(|i| i as f64 * 0.01).collect();
    let theta: Vec<f64> = t.iter().map(|t| (-0.3 * t).exp() * (3.0 * t).cos()).collect();
    let omega: Vec<f64> = t
        .iter()
        .map(|t| (-0.3 * t).exp() * (-0.3 * (3.0 * t).cos() - 3.0 * (3.0 * t).sin()))
        .collect();
    let ts = TimeSeries::new("One stride of the compass walker", "t / s", "angle / rad")
        .with_series(Series::new("stance angle θ", t.clone(), theta.clone()))
        .with_series(Series::new("swing rate θ\u{307}", t.clone(), omega.clone()).dashed())
        .with_events("impact", [1.5 * std::f64::consts::PI / 3.0, 2.5 * std::f64::consts::PI / 3.0]);
    for p in ts.render(&dir.join("time_series"), &opts)? {
        println!("{}", p.display());
    }
    let phase = TimeSeries::new("Phase portrait", "θ / rad", "θ\u{307} / (rad/s)")
        .with_series(Series::new("", theta, omega));
    for p in phase.render(&dir.join("phase_portrait"), &opts)? {
        println!("{}", p.display());
    }
    Ok(())
}
