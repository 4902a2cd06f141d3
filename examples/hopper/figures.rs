//! Figures 6–9 of the branch study (Zana et al. 2018, §4.3): times, multiplier, apex heights,
//! energy split against `D_G`, both mass ratios on each figure. Admissible stable stretches are
//! solid, admissible unstable ones dashed, inadmissible ones (the foot would be pulled at
//! touchdown) dotted and paler; folds and grazing points are marked.

use crate::branches::{Kind, Row, Run};
use crate::Res;
use saltation::plot::{
    Color, LegendPosition, LineStyle, Marker, RenderOptions, Series, TimeSeries,
};
use std::path::{Path, PathBuf};

const X_LABEL: &str = "D_G = d_G / (2√(k m))  (dimensionless; d_G in N s/m)";
const INADMISSIBLE: &str = "inadmissible: foot pulled at touchdown (dotted, pale)";

/// Shades (dark, mid, light) of the colour of branch `i`: blues for μ = 0.8, oranges for 0.95.
fn shades(i: usize) -> [Color; 3] {
    if i == 0 {
        [
            Color::rgb(8, 48, 107),
            Color::rgb(31, 119, 180),
            Color::rgb(107, 174, 214),
        ]
    } else {
        [
            Color::rgb(166, 54, 3),
            Color::rgb(241, 105, 19),
            Color::rgb(253, 174, 107),
        ]
    }
}

/// `c` mixed halfway with white.
fn pale(c: Color) -> Color {
    let mix = |v: u8| ((u16::from(v) + 255) / 2) as u8;
    Color::rgb(mix(c.r), mix(c.g), mix(c.b))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Stable,
    Unstable,
    Inadmissible,
}

fn class_of(admissible: bool, stable: bool) -> Class {
    match (admissible, stable) {
        (false, _) => Class::Inadmissible,
        (true, true) => Class::Stable,
        (true, false) => Class::Unstable,
    }
}

fn class(r: &Row) -> Class {
    class_of(r.admissible, r.stable)
}

/// The class of the segment from `a` to `b`. A located grazing point is the boundary of
/// admissibility and a fold that of stability (its own flag, with |μ₁| = 1 up to the location
/// tolerance, says nothing), so where the ends disagree the other end decides.
fn segment_class(a: &Row, b: &Row) -> Class {
    let pick = |x: bool, y: bool, boundary: Kind| match (x == y, a.kind == boundary) {
        (true, _) => x,
        (false, true) => y,
        (false, false) if b.kind == boundary => x,
        (false, false) => y,
    };
    class_of(
        pick(a.admissible, b.admissible, Kind::Grazing),
        pick(a.stable, b.stable, Kind::Fold),
    )
}

/// A series that only makes a legend entry.
fn legend(label: &str, color: Color, line: LineStyle) -> Series {
    Series::new(label, vec![f64::NAN], vec![f64::NAN])
        .with_line(line)
        .with_color(color)
}

/// Quantity `f` along `run`, one series per class (segments joined, NaN between stretches),
/// plus its legend entry.
fn curves(run: &Run, label: &str, color: Color, f: &dyn Fn(&Row) -> f64) -> Vec<Series> {
    let rows = &run.rows;
    let mut out = vec![legend(
        &format!("{label}, μ = {}", run.mu),
        color,
        LineStyle::Solid,
    )];
    for c in [Class::Stable, Class::Unstable, Class::Inadmissible] {
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        let mut last = None;
        for (i, w) in rows.windows(2).enumerate() {
            if segment_class(&w[0], &w[1]) != c {
                continue;
            }
            if last != Some(i) {
                if !xs.is_empty() {
                    xs.push(f64::NAN);
                    ys.push(f64::NAN);
                }
                xs.push(w[0].dg_ratio);
                ys.push(f(&w[0]));
            }
            xs.push(w[1].dg_ratio);
            ys.push(f(&w[1]));
            last = Some(i + 1);
        }
        let (line, col) = match c {
            Class::Stable => (LineStyle::Solid, color),
            Class::Unstable => (LineStyle::Dashed, color),
            Class::Inadmissible => (LineStyle::Dotted, pale(color)),
        };
        out.push(Series::new("", xs, ys).with_line(line).with_color(col));
    }
    out
}

/// Markers of `kind` on every curve of `quantities` for every run.
fn markers(runs: &[Run], kind: Kind, quantities: &[&dyn Fn(&Row) -> f64]) -> (Vec<f64>, Vec<f64>) {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for r in runs
        .iter()
        .flat_map(|run| &run.rows)
        .filter(|r| r.kind == kind)
    {
        for f in quantities {
            xs.extend([r.dg_ratio, f64::NAN]);
            ys.extend([f(r), f64::NAN]);
        }
    }
    (xs, ys)
}

/// A plotted quantity: legend label, shade index (see [`shades`]), value of a row.
type Quantity<'a> = (&'a str, usize, &'a dyn Fn(&Row) -> f64);

/// One figure: `quantities` of every run.
fn figure(
    runs: &[Run],
    title: &str,
    y_label: &str,
    quantities: &[Quantity<'_>],
    log_y: bool,
) -> TimeSeries {
    let mut fig = TimeSeries::new(title, X_LABEL, y_label);
    fig.log_y = log_y;
    for (i, run) in runs.iter().enumerate() {
        for (label, shade, f) in quantities {
            fig.series.extend(curves(run, label, shades(i)[*shade], *f));
        }
    }
    let fs: Vec<&dyn Fn(&Row) -> f64> = quantities.iter().map(|q| q.2).collect();
    let (fx, fy) = markers(runs, Kind::Fold, &fs);
    let (gx, gy) = markers(runs, Kind::Grazing, &fs);
    let any_unstable = runs
        .iter()
        .flat_map(|r| &r.rows)
        .any(|r| class(r) == Class::Unstable);
    if any_unstable {
        fig.series.push(legend(
            "unstable, |μ₁| > 1 (dashed)",
            Color::BLACK,
            LineStyle::Dashed,
        ));
    }
    fig.series
        .push(legend(INADMISSIBLE, Color::GREY, LineStyle::Dotted));
    fig.series.push(
        Series::new("fold (multiplier +1)", fx, fy)
            .with_marker(Marker::Square)
            .with_color(Color::BLACK),
    );
    fig.series.push(
        Series::new("grazing: admissibility boundary", gx, gy)
            .with_marker(Marker::Diamond)
            .with_color(Color::rgb(200, 0, 0)),
    );
    fig
}

/// Writes figures 6–9 (PNG and SVG) to `dir`.
pub fn write_all(runs: &[Run], dir: &Path) -> Res<Vec<PathBuf>> {
    let t_f = |r: &Row| r.t_f;
    let t_g = |r: &Row| r.t_g;
    let period = |r: &Row| r.period;
    let mult = |r: &Row| r.mult.modulus();
    let apex_l = |r: &Row| r.apex_l;
    let kept = |r: &Row| r.kept;
    let lost = |r: &Row| r.lost;
    let l0 = runs.first().map_or(0.0, |r| r.base.l0);
    let apex_u = move |r: &Row| r.apex_u - l0;
    let title = |what: &str| format!("Hopper (Zana et al. 2018, §4.3): {what}");

    let mut fig6 = figure(
        runs,
        &title("times of the orbit"),
        "time (s, log scale)",
        &[
            ("period T", 0, &period),
            ("flight t_F", 1, &t_f),
            ("ground t_G", 2, &t_g),
        ],
        true,
    );
    fig6.y_range = Some((0.005, 4.0));
    fig6.legend = LegendPosition::LowerLeft;
    let mut fig7 = figure(
        runs,
        &title("nontrivial multiplier"),
        "|μ₁| on the lift-off section (dimensionless)",
        &[("|μ₁|", 1, &mult)],
        false,
    );
    let xs: Vec<f64> = runs
        .iter()
        .flat_map(|r| &r.rows)
        .map(|r| r.dg_ratio)
        .collect();
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    fig7.series
        .push(Series::new("|μ| = 1", vec![lo, hi], vec![1.0, 1.0]).with_color(Color::GREY));
    let mut fig8 = figure(
        runs,
        &title("apex heights in flight"),
        "apex height (m, log scale)",
        &[
            (&format!("upper block z_U − L0 (L0 = {l0} m)"), 0, &apex_u),
            ("lower block z_L", 2, &apex_l),
        ],
        true,
    );
    fig8.legend = LegendPosition::LowerLeft;
    let fig9 = figure(
        runs,
        &title("energy split at touchdown"),
        "share of the kinetic energy T before impact (–)",
        &[("T_a/T (kept)", 0, &kept), ("T_c/T (lost)", 2, &lost)],
        false,
    );
    // A taller canvas at the default scale: more room for the curves next to the legend.
    let opts = RenderOptions::new(1000, 900);
    let mut written = Vec::new();
    for (fig, stem) in [
        (fig6, "hopper_fig6_times"),
        (fig7, "hopper_fig7_multiplier"),
        (fig8, "hopper_fig8_apex"),
        (fig9, "hopper_fig9_energy"),
    ] {
        written.extend(fig.render(&dir.join(stem), &opts)?);
    }
    Ok(written)
}
