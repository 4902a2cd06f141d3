//! `simulate --out`'s figure: one panel per variable that `--plot` names (states, outputs,
//! `mode`; every state by default), read back from the SVG's text (the panels' axis labels),
//! not its pixels; and the dense default sampling against the closed form of the bouncing
//! ball between impacts.

use crate::support::{model, saltation, temp_dir};
use std::path::Path;

/// Runs `simulate FILE --t-end T --out DIR [extra]` and returns the figure's SVG.
fn figure(file: &str, t_end: &str, dir: &Path, extra: &[&str]) -> String {
    let out = dir.join("out");
    let mut args = vec![
        "simulate",
        file,
        "--t-end",
        t_end,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let run = saltation(&args);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let svg = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("_simulation.svg"))
        .expect("an SVG figure");
    std::fs::read_to_string(svg).unwrap()
}

/// The labels of the figure's y axes, top to bottom: the rotated text elements.
fn panel_labels(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .filter(|t| t.split('>').next().unwrap_or("").contains("rotate(270"))
        .map(|t| {
            let body = t.split_once('>').unwrap().1;
            body.split("</text>").next().unwrap().trim().to_string()
        })
        .collect()
}

/// The figure's height in the SVG header.
fn height(svg: &str) -> u32 {
    let at = svg.find("height=\"").unwrap() + 8;
    svg[at..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn one_panel_per_chosen_variable_in_the_order_given() {
    let dir = temp_dir("simulate-figure", "chosen");
    let gait = model("equations/compass_gait.ron");
    let svg = figure(
        &gait,
        "1.5",
        &dir,
        &["--plot", "th_s,energy,mode,hip_height"],
    );
    assert_eq!(
        panel_labels(&svg),
        ["th_s", "energy", "mode", "hip_height"],
        "{svg:.300}"
    );
    // About 250 pixels a panel: 120 + 4·250.
    assert_eq!(height(&svg), 1120);
    // The heel strikes within 1.5 s are marked in every panel, named once in a legend.
    assert_eq!(svg.matches(">\nevents\n</text>").count(), 1);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_state_by_default() {
    let dir = temp_dir("simulate-figure", "default");
    let gait = model("equations/compass_gait.ron");
    let svg = figure(&gait, "0.5", &dir, &[]);
    assert_eq!(panel_labels(&svg), ["th_ns", "th_s", "dth_ns", "dth_s"]);
    let ball = model("equations/bouncing_ball.ron");
    let svg = figure(&ball, "1", &dir.join("ball"), &[]);
    assert_eq!(panel_labels(&svg), ["x", "v"]);
    // Two panels fit the default 700 pixels.
    assert_eq!(height(&svg), 700);
    let _ = std::fs::remove_dir_all(dir);
}

/// Without `--at` the samples are every step, every event and 2000 evenly spaced times, and
/// each lies on the ball's parabola from the impact before it (x = x₀ + v₀ s − g s²/2).
#[test]
fn dense_samples_by_default_lie_on_the_closed_form() {
    let ball = model("equations/bouncing_ball.ron");
    let run = saltation(&["simulate", &ball, "--t-end", "3", "--json"]);
    assert!(run.status.success());
    let j: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let g = j["params"]["g"].as_f64().unwrap();
    let samples = j["samples"].as_array().unwrap();
    let steps = j["stats"]["steps"].as_u64().unwrap() as usize;
    let events = j["events"].as_array().unwrap().len();
    let t: Vec<f64> = samples.iter().map(|s| s["t"].as_f64().unwrap()).collect();
    // Every grid time k·3/2000 is there (to rounding of k·dt).
    for k in 0..=2000 {
        let tk = 3.0 * k as f64 / 2000.0;
        assert!(
            t.iter().any(|&s| (s - tk).abs() <= 1e-12),
            "grid time {tk} missing"
        );
    }
    // No more than the grid, the steps' ends and both sides of each event.
    assert!(t.len() <= 2001 + steps + 2 * events, "{} samples", t.len());
    assert!(t.windows(2).all(|w| w[1] >= w[0]));
    assert_eq!(events, 6);
    // From each start (t = 0, then each post-impact sample) the parabola.
    let mut origin = (0.0, 1.0, 0.0);
    let mut worst = 0.0f64;
    for (k, s) in samples.iter().enumerate() {
        let (x, v) = (s["x"][0].as_f64().unwrap(), s["x"][1].as_f64().unwrap());
        if k > 0 && t[k] == t[k - 1] {
            origin = (t[k], x, v);
            continue;
        }
        let (t0, x0, v0) = origin;
        let h = t[k] - t0;
        worst = worst.max((x - (x0 + v0 * h - 0.5 * g * h * h)).abs());
    }
    assert!(worst < 1e-10, "largest deviation {worst:e}");
}
