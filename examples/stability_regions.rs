//! Stability regions of every integrator of the suite, for the lectures on stiff problems:
//! where one step of the method applied to `y' = λ y` does not amplify (`|R(hλ)| ≤ 1` for the
//! one-step methods, every root of the characteristic polynomial in the unit disc for the
//! multistep ones), drawn from each method's own coefficients into `figures/`:
//!
//! - explicit Runge–Kutta (Euler … DOP853): bounded regions, stable inside the curve;
//! - implicit one-step (radau5, trapezoid, TR-BDF2, Rosenbrock 2(3)): stable outside the curve
//!   (the trapezoidal rule's boundary is the imaginary axis; TR-BDF2 with γ = 2 − √2 and the
//!   Rosenbrock W-method with d = 1/(2 + √2) have the same `R(z) = (1 + (√2 − 1) z)/(1 − d z)²`,
//!   so their curves coincide: TR-BDF2 is drawn dashed);
//! - BDF and NDF of orders 1–5: stable outside; orders 3–5 only A(α)-stable (angles printed);
//! - Adams–Bashforth–Moulton PECE of orders 1–12: small regions that shrink with the order.
//!
//! `cargo run --release --example stability_regions` (a few seconds).

use saltation::ode::{amplification, bdf, Method};
use saltation::plot::{Color, RenderOptions, Series, TimeSeries};
use std::path::Path;

/// Grid cells per axis.
const CELLS: usize = 320;

/// The boundary of `{z : amplification(z) ≤ 1}` in the square `|Re z|, |Im z| ≤ r` as
/// polylines: marching squares on `g = amplification − 1` (crossings interpolated linearly on
/// each grid edge), the cell segments chained end to end.
fn boundary(method: Method, order: usize, r: f64) -> Vec<Vec<(f64, f64)>> {
    let h = 2.0 * r / CELLS as f64;
    let at = |i: usize, j: usize| (-r + i as f64 * h, -r + j as f64 * h);
    let g: Vec<Vec<f64>> = (0..=CELLS)
        .map(|i| {
            (0..=CELLS)
                .map(|j| {
                    let a = amplification(method, order, at(i, j)) - 1.0;
                    if a.is_finite() {
                        a
                    } else {
                        1.0
                    }
                })
                .collect()
        })
        .collect();
    // Edge keys: (0, i, j) from grid point (i, j) to (i+1, j); (1, i, j) to (i, j+1).
    type Edge = (u8, usize, usize);
    let crossing = |e: Edge| -> Option<(f64, f64)> {
        let (i2, j2) = if e.0 == 0 {
            (e.1 + 1, e.2)
        } else {
            (e.1, e.2 + 1)
        };
        let (a, b) = (g[e.1][e.2], g[i2][j2]);
        if (a <= 0.0) == (b <= 0.0) {
            return None;
        }
        let s = a / (a - b);
        let (p, q) = (at(e.1, e.2), at(i2, j2));
        Some((p.0 + s * (q.0 - p.0), p.1 + s * (q.1 - p.1)))
    };
    let mut links: std::collections::HashMap<Edge, Vec<Edge>> = Default::default();
    for i in 0..CELLS {
        for j in 0..CELLS {
            let edges = [(0, i, j), (1, i + 1, j), (0, i, j + 1), (1, i, j)];
            let cut: Vec<Edge> = edges
                .into_iter()
                .filter(|&e| crossing(e).is_some())
                .collect();
            for pair in cut.chunks(2).filter(|p| p.len() == 2) {
                links.entry(pair[0]).or_default().push(pair[1]);
                links.entry(pair[1]).or_default().push(pair[0]);
            }
        }
    }
    let mut lines = Vec::new();
    // Start open chains at their ends (one link), then the closed ones anywhere.
    let mut starts: Vec<Edge> = links.keys().copied().collect();
    starts.sort_by_key(|e| (links[e].len(), *e));
    let mut seen = std::collections::HashSet::new();
    for start in starts {
        if seen.contains(&start) {
            continue;
        }
        let mut line = Vec::new();
        let mut cur = start;
        loop {
            seen.insert(cur);
            line.extend(crossing(cur));
            match links[&cur].iter().find(|e| !seen.contains(*e)) {
                Some(&next) => cur = next,
                None => break,
            }
        }
        // Close a cycle.
        if links[&start].contains(&cur) && line.len() > 2 {
            line.extend(crossing(start));
        }
        if line.len() > 1 {
            lines.push(line);
        }
    }
    lines
}

/// Left end of the real stability interval `(−x, 0]` (0 if unstable just left of 0; capped at
/// `cap`), by bisection after a scan.
fn real_interval(method: Method, order: usize, cap: f64) -> f64 {
    let ok = |x: f64| amplification(method, order, (-x, 0.0)) <= 1.0 + 1e-12;
    let mut lo = 0.0;
    let mut x = 1e-3;
    while x <= cap {
        if !ok(x) {
            let mut hi = x;
            for _ in 0..60 {
                let m = 0.5 * (lo + hi);
                if ok(m) {
                    lo = m;
                } else {
                    hi = m;
                }
            }
            return lo;
        }
        lo = x;
        x += 1e-3 * x.max(1.0);
    }
    f64::INFINITY
}

struct Figure {
    stem: &'static str,
    title: &'static str,
    range: f64,
    curves: Vec<(String, Method, usize)>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let explicit = [
        Method::Euler,
        Method::Heun,
        Method::Rk4,
        Method::Bs23,
        Method::Rkf45,
        Method::Dp5,
        Method::Dop853,
    ];
    let implicit = [
        Method::Radau5,
        Method::Trapezoid,
        Method::Trbdf2,
        Method::Rosenbrock23,
    ];
    let figures = [
        Figure {
            stem: "stability_explicit_rk",
            title: "Explicit Runge–Kutta: stable inside each curve",
            range: 6.0,
            curves: explicit
                .iter()
                .map(|&m| (m.name().to_string(), m, 0))
                .collect(),
        },
        Figure {
            stem: "stability_implicit_one_step",
            title: "Implicit one-step methods: stable outside each curve",
            range: 12.0,
            curves: implicit
                .iter()
                .map(|&m| (m.name().to_string(), m, 0))
                .collect(),
        },
        Figure {
            stem: "stability_bdf",
            title: "BDF 1–5: stable outside each curve",
            range: 14.0,
            curves: (1..=5)
                .map(|k| (format!("BDF{k}"), Method::Bdf, k))
                .collect(),
        },
        Figure {
            stem: "stability_ndf",
            title: "NDF 1–5 (ode15s): stable outside each curve",
            range: 14.0,
            curves: (1..=5)
                .map(|k| (format!("NDF{k}"), Method::Ndf, k))
                .collect(),
        },
        Figure {
            stem: "stability_abm",
            title: "ABM PECE 1–12 (ode113): stable inside each curve",
            range: 2.5,
            curves: [1, 2, 3, 4, 6, 8, 10, 12]
                .iter()
                .map(|&k| (format!("ABM{k}"), Method::Abm, k))
                .collect(),
        },
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("figures");
    let ro = RenderOptions::default();
    println!(
        "{:<14} {:>22}  A(α) angle",
        "method", "real interval (−x, 0]"
    );
    for fig in &figures {
        let mut plot = TimeSeries::new(fig.title, "Re hλ", "Im hλ");
        plot.x_range = Some((-fig.range, fig.range));
        plot.y_range = Some((-fig.range, fig.range));
        for (i, (label, method, order)) in fig.curves.iter().enumerate() {
            let x = real_interval(*method, *order, 1e6);
            let angle = match method {
                Method::Bdf | Method::Ndf => format!(
                    "{:.2}°",
                    bdf::stability_angle(*order, *method == Method::Ndf)
                        .0
                        .to_degrees()
                ),
                _ => String::new(),
            };
            let interval = if x.is_finite() {
                format!("{x:.4}")
            } else {
                "∞".to_string()
            };
            println!("{label:<14} {interval:>22}  {angle}");
            for (k, line) in boundary(*method, *order, fig.range).into_iter().enumerate() {
                let (x, y) = line.into_iter().unzip();
                // One legend entry per method.
                let name = if k == 0 { label.clone() } else { String::new() };
                let series = Series::new(name, x, y).with_color(Color::palette(i));
                plot = plot.with_series(if *method == Method::Trbdf2 {
                    series.dashed()
                } else {
                    series
                });
            }
        }
        for f in plot.render(&dir.join(fig.stem), &ro)? {
            println!("  wrote {}", f.display());
        }
    }
    Ok(())
}
