//! Renders every figure kind with sample data to a directory (default `/tmp/plotcheck`), to look
//! at: `cargo run -p saltation-plot --example plotcheck [DIR]`.

use std::f64::consts::PI;
use std::path::{Path, PathBuf};

use saltation_plot::*;

fn main() -> Result<(), PlotError> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or("/tmp/plotcheck".into()));
    let opts = RenderOptions::default();
    let figures: Vec<(&str, Box<dyn Figure>)> = vec![
        ("time_series", Box::new(time_series())),
        ("phase_portrait", Box::new(phase_portrait())),
        ("crowded", Box::new(crowded())),
        ("multipliers", Box::new(multipliers())),
        ("multipliers_branch", Box::new(multipliers_branch())),
        ("floquet", Box::new(floquet(true))),
        ("floquet_linear", Box::new(floquet(false))),
        ("bifurcation", Box::new(bifurcation())),
        ("orbit_diagram", Box::new(orbit_diagram())),
        ("work_precision", Box::new(work_precision())),
        ("two_param", Box::new(two_param())),
    ];
    for (name, fig) in figures {
        let t0 = std::time::Instant::now();
        let files = fig.render(&dir.join(name), &opts)?;
        let shown: Vec<_> = files.iter().map(|p| p.display().to_string()).collect();
        println!("{:>20}: {:?} in {:.2?}", name, shown, t0.elapsed());
    }
    let _ = Path::new(".");
    Ok(())
}

/// A damped oscillation, "impacts" at two zero crossings.
fn damped() -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let t: Vec<f64> = (0..=600).map(|i| f64::from(i) * 0.01).collect();
    let x = t
        .iter()
        .map(|t| (-0.3 * t).exp() * (3.0 * t).cos())
        .collect();
    let v = t
        .iter()
        .map(|t| (-0.3 * t).exp() * (-0.3 * (3.0 * t).cos() - 3.0 * (3.0 * t).sin()))
        .collect();
    (t, x, v)
}

fn time_series() -> TimeSeries {
    let (t, x, v) = damped();
    TimeSeries::new("One stride of the compass walker", "t / s", "angle / rad")
        .with_series(Series::new("stance angle θ", t.clone(), x))
        .with_series(Series::new("swing rate dθ/dt", t, v).dashed())
        .with_events("impact", [1.5 * PI / 3.0, 2.5 * PI / 3.0])
}

fn phase_portrait() -> TimeSeries {
    let (_, x, v) = damped();
    TimeSeries::new("Phase portrait", "θ / rad", "dθ/dt / (rad/s)")
        .with_series(Series::new("", x, v))
}

/// Data in every corner: the legend must make room above it.
fn crowded() -> TimeSeries {
    let t: Vec<f64> = (0..=2000).map(|i| f64::from(i) * 0.005).collect();
    let a = t.iter().map(|t| (7.0 * t).sin()).collect();
    let b = t.iter().map(|t| (5.0 * t).cos()).collect();
    TimeSeries::new("Legend above crowded data", "t", "x")
        .with_series(Series::new("sin 7t", t.clone(), a))
        .with_series(Series::new("cos 5t", t, b).dashed())
}

fn multipliers() -> ComplexPlanePlot {
    ComplexPlanePlot::new("Floquet multipliers of two gaits")
        .with_group(PointGroup::new(
            "stable gait",
            vec![(-0.19, 0.56), (-0.19, -0.56)],
        ))
        .with_group(
            PointGroup::new("unstable gait", vec![(0.46, 0.0), (4.0, 0.0)])
                .with_marker(Marker::Square),
        )
        .with_group(
            PointGroup::new(
                "finite differences",
                vec![(-0.192, 0.561), (-0.192, -0.561), (0.461, 0.0), (3.99, 0.0)],
            )
            .with_marker(Marker::Diamond)
            .with_color(Color::BLACK)
            .hollow(),
        )
}

fn multipliers_branch() -> ComplexPlanePlot {
    let n = 60;
    let gamma: Vec<f64> = (0..n)
        .map(|i| 0.02 * f64::from(i) / f64::from(n - 1))
        .collect();
    let mut pts = Vec::new();
    let mut par = Vec::new();
    for &g in &gamma {
        let r = 0.4 + 25.0 * g;
        let a = 2.0 - 40.0 * g;
        pts.extend([(r * a.cos(), r * a.sin()), (r * a.cos(), -r * a.sin())]);
        par.extend([g, g]);
        pts.push((-0.3 - 50.0 * g, 0.0));
        par.push(g);
    }
    let mut plot = ComplexPlanePlot::new("Multipliers along the period-1 branch")
        .with_group(PointGroup::new("multipliers", pts).with_parameter(par));
    plot.parameter_label = "slope γ / rad".into();
    plot
}

fn floquet(log_y: bool) -> FloquetPlot {
    let n = 81;
    let g1: Vec<f64> = (0..n)
        .map(|i| 0.02 * f64::from(i) / f64::from(n - 1))
        .collect();
    let m1: Vec<Vec<f64>> = g1
        .iter()
        .map(|g| vec![(-0.3 - 50.0 * g).abs(), 0.2 + 10.0 * g, 0.0])
        .collect();
    let g2: Vec<f64> = g1.iter().copied().filter(|g| *g >= 0.014).collect();
    let m2: Vec<Vec<f64>> = g2
        .iter()
        .map(|g| vec![1.0 - 30.0 * (g - 0.014), 0.05 + 2.0 * (g - 0.014)])
        .collect();
    let mut plot = FloquetPlot::new(
        "Floquet multipliers along the gait branches",
        "slope γ / rad",
    )
    .with_branch(FloquetBranch::new("period 1", g1, m1))
    .with_branch(FloquetBranch::new("period 2", g2, m2))
    .with_bifurcation(BifurcationPoint::new(
        BifurcationKind::PeriodDoubling,
        0.014,
        1.0,
    ));
    plot.log_y = log_y;
    plot
}

fn bifurcation() -> BifurcationDiagram {
    let n = 101;
    let g: Vec<f64> = (0..n)
        .map(|i| 0.02 * f64::from(i) / f64::from(n - 1))
        .collect();
    let th: Vec<f64> = g.iter().map(|g| 0.2 + 5.0 * g).collect();
    let st: Vec<bool> = g.iter().map(|g| *g < 0.014).collect();
    let g2: Vec<f64> = g.iter().copied().filter(|g| *g >= 0.014).collect();
    let v2: Vec<Vec<f64>> = g2
        .iter()
        .map(|g| {
            let c = 0.2 + 5.0 * g;
            let d = 2.0 * (g - 0.014).sqrt();
            vec![c + d, c - d]
        })
        .collect();
    let st2 = vec![true; g2.len()];
    BifurcationDiagram::new(
        "Period doubling of the compass gait",
        "slope γ / rad",
        "θ at heel strike / rad",
    )
    .with_branch(Branch::new("period 1", g, th, st))
    .with_branch(Branch::period_k("period 2", g2, v2, st2))
    .with_bifurcation(BifurcationPoint::new(
        BifurcationKind::PeriodDoubling,
        0.014,
        0.27,
    ))
    .with_bifurcation(BifurcationPoint::new(BifurcationKind::Fold, 0.02, 0.3).with_label("LP₁"))
}

fn orbit_diagram() -> OrbitDiagram {
    let (mut p, mut v) = (Vec::new(), Vec::new());
    for i in 0..1200 {
        let r = 2.8 + 1.1 * f64::from(i) / 1199.0;
        let mut x = 0.5;
        for k in 0..500 {
            x = r * x * (1.0 - x);
            if k >= 300 {
                p.push(r);
                v.push(x);
            }
        }
    }
    OrbitDiagram::new(
        "Orbit diagram (240 000 points)",
        "parameter r",
        "x after transients",
        p,
        v,
    )
    .with_failure(FailureRegion::new(3.9, 4.0, "walker falls"))
}

fn work_precision() -> WorkPrecision {
    let tol: Vec<f64> = (3..=12).map(|k| 10f64.powi(-k)).collect();
    let err = |f: f64| tol.iter().map(|t| t * f).collect::<Vec<_>>();
    let cost = |c: f64, p: f64| tol.iter().map(|t| c * t.powf(-1.0 / p)).collect::<Vec<_>>();
    WorkPrecision::new("Work–precision, one walker step")
        .with_method("Dormand–Prince 5(4)", err(3.0), cost(2e-6, 5.0))
        .with_method("DOP853", err(0.5), cost(6e-6, 8.0))
        .with_method("RK4 (fixed step)", err(20.0), cost(1e-6, 4.0))
}

/// Made-up fold, period-doubling, Neimark–Sacker and grazing curves in a parameter plane, with
/// a gap, unstable stretches and a cluster of codimension-two points.
fn two_param() -> TwoParamDiagram {
    let e: Vec<f64> = (0..=120).map(|i| 0.5 + 0.0035 * f64::from(i)).collect();
    let fold_up: Vec<f64> = e
        .iter()
        .map(|e| 1.0 + (1.0 - e) * (1.0 - e) * 4.0)
        .collect();
    let mut fold_e = e.clone();
    fold_e.extend(e.iter().rev());
    let mut fold_g = fold_up.clone();
    fold_g.extend(e.iter().rev().map(|e| 1.0 + 1.5 * (1.0 - e)));
    let flip: Vec<f64> = e.iter().map(|e| 2.2 - 1.2 * e).collect();
    let mut flip_gap = flip.clone();
    flip_gap[60] = f64::NAN;
    let stable: Vec<bool> = (0..e.len()).map(|i| i > 40).collect();
    let ns: Vec<f64> = e.iter().map(|e| 1.3 + 0.8 * (e - 0.7).powi(2)).collect();
    let graze: Vec<f64> = e.iter().map(|e| 1.05 + 0.3 * e).collect();
    let mut fig = TwoParamDiagram::new("Two-parameter diagram", "restitution e", "Γ = Aω²/g")
        .with_curve(TwoParamCurve::new(
            CurveKind::Fold,
            "fold, period 1",
            fold_e,
            fold_g,
        ))
        .with_curve(
            TwoParamCurve::new(
                CurveKind::PeriodDoubling,
                "period doubling",
                e.clone(),
                flip_gap,
            )
            .with_stability(stable),
        )
        .with_curve(TwoParamCurve::new(
            CurveKind::NeimarkSacker,
            "",
            e.clone(),
            ns,
        ))
        .with_curve(TwoParamCurve::new(CurveKind::Grazing, "", e.clone(), graze));
    for (label, x, y) in [
        ("cusp", 0.5, 2.0),
        ("fold–flip", 0.8, 1.24),
        ("1:2", 0.81, 1.25),
        ("1:1", 0.79, 1.26),
        ("flip–NS", 0.748, 1.302),
        ("fold–grazing", 0.93, 1.329),
    ] {
        fig = fig.with_point(LabelledPoint::new(label, x, y));
    }
    fig
}
