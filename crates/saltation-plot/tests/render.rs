//! Renders every figure kind to a temporary directory and checks the files; checks the errors.

use std::path::{Path, PathBuf};

use saltation_plot::*;

/// A fresh directory under the system temp dir, unique per process and test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "saltation-plot-test-{}-{}",
        std::process::id(),
        name
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Renders `fig` at `opts` into a new subdirectory and checks both files; returns the SVG text.
fn check(fig: &dyn Figure, name: &str, title: &str, opts: &RenderOptions) -> String {
    let dir = temp_dir(name);
    let stem = dir.join("nested").join(name);
    let files = fig.render(&stem, opts).expect("render");
    assert_eq!(files, vec![with_ext(&stem, "png"), with_ext(&stem, "svg")]);
    let img = image::open(&files[0]).expect("PNG decodes").to_rgb8();
    assert_eq!(img.dimensions(), (opts.width, opts.height));
    // Not blank: a good share of non-white pixels, and some dark ones (text, axes).
    let ink = img.pixels().filter(|p| p.0 != [255, 255, 255]).count();
    let dark = img.pixels().filter(|p| p.0.iter().all(|c| *c < 80)).count();
    let total = (opts.width * opts.height) as usize;
    assert!(ink > total / 100, "{name}: only {ink} non-white pixels");
    assert!(dark > total / 1000, "{name}: only {dark} dark pixels");
    assert!(std::fs::metadata(&files[0]).unwrap().len() > 3_000);
    let svg = std::fs::read_to_string(&files[1]).expect("SVG readable");
    assert!(svg.starts_with("<svg"), "{name}: not an SVG");
    assert!(svg.contains(title), "{name}: SVG lacks the title");
    assert!(svg.len() > 3_000);
    // SALTATION_PLOT_KEEP=1 keeps the files for looking at.
    if std::env::var_os("SALTATION_PLOT_KEEP").is_none() {
        std::fs::remove_dir_all(&dir).unwrap();
    } else {
        eprintln!("kept {}", files[0].display());
    }
    svg
}

fn with_ext(stem: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}.{ext}", stem.display()))
}

fn line(n: usize, f: impl Fn(f64) -> f64) -> (Vec<f64>, Vec<f64>) {
    let x: Vec<f64> = (0..n).map(|i| i as f64 / (n - 1) as f64).collect();
    let y = x.iter().map(|&x| f(x)).collect();
    (x, y)
}

#[test]
fn time_series_and_phase_portrait() {
    let (t, th) = line(300, |t| (-t).exp() * (12.0 * t).cos());
    let (_, om) = line(300, |t| (-t).exp() * (12.0 * t).sin());
    let mut with_gap = th.clone();
    with_gap[100] = f64::NAN;
    with_gap[101] = f64::INFINITY;
    let ts = TimeSeries::new("Stride angles", "t / s", "θ / rad")
        .with_series(Series::new("stance θ", t.clone(), with_gap))
        .with_series(Series::new("swing φ", t.clone(), om.clone()).dashed())
        .with_events("impact", [0.3, 0.7]);
    let svg = check(
        &ts,
        "time_series",
        "Stride angles",
        &RenderOptions::default(),
    );
    assert!(svg.contains("impact") && svg.contains("stance θ"));
    let phase = TimeSeries::new("Phase portrait", "θ", "dθ/dt")
        .with_series(Series::new("", th, om).with_marker(Marker::Circle));
    check(
        &phase,
        "phase",
        "Phase portrait",
        &RenderOptions::new(640, 480),
    );
}

#[test]
fn complex_plane() {
    let fig = ComplexPlanePlot::new("Multipliers")
        .with_group(PointGroup::new(
            "stable gait",
            vec![(-0.19, 0.56), (-0.19, -0.56)],
        ))
        .with_group(PointGroup::new(
            "unstable gait",
            vec![(0.46, 0.0), (4.0, 0.0)],
        ))
        .with_group(
            PointGroup::new("finite differences", vec![(-0.19, 0.56), (4.0, 0.0)])
                .with_marker(Marker::Diamond)
                .hollow(),
        );
    let svg = check(&fig, "complex", "Multipliers", &RenderOptions::default());
    assert!(svg.contains("Re μ") && svg.contains("finite differences"));

    let pts: Vec<(f64, f64)> = (0..50).map(|i| (0.02 * i as f64, 0.5)).collect();
    let par: Vec<f64> = (0..50).map(|i| i as f64).collect();
    let mut branch = ComplexPlanePlot::new("Along a branch")
        .with_group(PointGroup::new("μ", pts).with_parameter(par));
    branch.parameter_label = "slope γ".into();
    let svg = check(
        &branch,
        "complex_branch",
        "Along a branch",
        &RenderOptions::default(),
    );
    assert!(svg.contains("slope γ"), "colour bar label");
}

fn floquet_plot(log_y: bool) -> FloquetPlot {
    let (g, _) = line(60, |x| x);
    let multipliers: Vec<Vec<(f64, f64)>> = g
        .iter()
        .map(|g| vec![(-0.3 - 1.5 * g, 0.0), (0.2, 0.1), (0.2, -0.1), (0.0, 0.0)])
        .collect();
    let mut plot = FloquetPlot::new("Floquet multipliers", "slope γ")
        .with_branch(FloquetBranch::from_multipliers("period 1", g, &multipliers))
        .with_bifurcation(BifurcationPoint::new(
            BifurcationKind::PeriodDoubling,
            0.7 / 1.5,
            1.0,
        ));
    plot.log_y = log_y;
    plot
}

#[test]
fn floquet() {
    for log_y in [true, false] {
        let svg = check(
            &floquet_plot(log_y),
            "floquet",
            "Floquet multipliers",
            &RenderOptions::default(),
        );
        assert!(svg.contains("PD") && svg.contains("unstable"));
    }
}

#[test]
fn bifurcation_diagram() {
    let (g, v) = line(50, |g| 0.2 + g);
    let stable: Vec<bool> = g.iter().map(|g| *g < 0.5).collect();
    let g2: Vec<f64> = g.iter().copied().filter(|g| *g >= 0.5).collect();
    let v2 = g2
        .iter()
        .map(|g| vec![0.7 + (g - 0.5).sqrt(), 0.7 - (g - 0.5).sqrt()])
        .collect();
    let n2 = g2.len();
    let fig = BifurcationDiagram::new("Bifurcations", "γ", "θ*")
        .with_branch(Branch::new("period 1", g, v, stable))
        .with_branch(Branch::period_k("period 2", g2, v2, vec![true; n2]))
        .with_bifurcation(BifurcationPoint::new(
            BifurcationKind::PeriodDoubling,
            0.5,
            0.7,
        ))
        .with_bifurcation(
            BifurcationPoint::new(BifurcationKind::NeimarkSacker, 0.9, 1.1).with_label("NS₁"),
        );
    let svg = check(
        &fig,
        "bifurcation",
        "Bifurcations",
        &RenderOptions::default(),
    );
    assert!(svg.contains("NS₁") && svg.contains("Neimark–Sacker"));
}

#[test]
fn orbit_diagram_many_points() {
    let (mut p, mut v) = (Vec::new(), Vec::new());
    for i in 0..400 {
        let r = 2.9 + 1.0 * i as f64 / 399.0;
        let mut x = 0.5;
        for k in 0..200 {
            x = r * x * (1.0 - x);
            if k >= 100 {
                p.push(r);
                v.push(x);
            }
        }
    }
    assert_eq!(p.len(), 40_000);
    let fig = OrbitDiagram::new("Orbit diagram", "r", "x", p, v).with_failure(FailureRegion::new(
        3.8,
        f64::INFINITY,
        "walker falls",
    ));
    let t0 = std::time::Instant::now();
    let svg = check(&fig, "orbit", "Orbit diagram", &RenderOptions::default());
    assert!(
        t0.elapsed().as_secs_f64() < 20.0,
        "too slow: {:?}",
        t0.elapsed()
    );
    assert!(svg.contains("walker falls"));
}

#[test]
fn work_precision() {
    let tol: Vec<f64> = (3..=10).map(|k| 10f64.powi(-k)).collect();
    let cost = |p: f64| tol.iter().map(|t| 1e-6 * t.powf(-1.0 / p)).collect();
    let fig = WorkPrecision::new("Work–precision")
        .with_method("DP5", tol.clone(), cost(5.0))
        .with_method("DOP853", tol.clone(), cost(8.0));
    check(
        &fig,
        "work_precision",
        "Work–precision",
        &RenderOptions::default(),
    );
}

/// A two-parameter diagram with every curve kind, a gap, unstable stretches and labelled
/// points, as PNG and SVG, small and large.
#[test]
fn two_parameter_diagram() {
    let e: Vec<f64> = (0..=60).map(|i| 0.5 + 0.006 * f64::from(i)).collect();
    let along = |f: &dyn Fn(f64) -> f64| e.iter().map(|e| f(*e)).collect::<Vec<f64>>();
    let mut flip = along(&|e| 2.2 - 1.2 * e);
    flip[30] = f64::NAN;
    let stable: Vec<bool> = (0..e.len()).map(|i| i > 20).collect();
    let fig = TwoParamDiagram::new("Two parameters", "restitution e", "Γ")
        .with_curve(TwoParamCurve::new(
            CurveKind::Fold,
            "",
            e.clone(),
            along(&|e| 1.0 + 4.0 * (1.0 - e).powi(2)),
        ))
        .with_curve(
            TwoParamCurve::new(CurveKind::PeriodDoubling, "PD, period 1", e.clone(), flip)
                .with_stability(stable),
        )
        .with_curve(TwoParamCurve::new(
            CurveKind::NeimarkSacker,
            "",
            e.clone(),
            along(&|e| 1.3 + 0.8 * (e - 0.7).powi(2)),
        ))
        .with_curve(TwoParamCurve::new(
            CurveKind::Grazing,
            "",
            e.clone(),
            along(&|e| 1.05 + 0.3 * e),
        ))
        .with_point(LabelledPoint::new("fold–flip", 0.8, 1.24))
        .with_point(LabelledPoint::new("flip–NS", 0.748, 1.302));
    for opts in [RenderOptions::new(640, 480), RenderOptions::default()] {
        let svg = check(&fig, "two_param", "Two parameters", &opts);
        for text in [
            "fold–flip",
            "flip–NS",
            "Neimark–Sacker",
            "grazing",
            "PD, period 1",
        ] {
            assert!(svg.contains(text), "{text}");
        }
    }
}

#[test]
fn svg_string_and_single_format() {
    let (x, y) = line(10, |x| x * x);
    let ts = TimeSeries::new("In memory", "x", "y").with_series(Series::new("x²", x, y));
    let svg = ts.to_svg_string(&RenderOptions::default()).unwrap();
    assert!(svg.contains("In memory") && svg.contains("x²"));
    let dir = temp_dir("single");
    let opts = RenderOptions::new(500, 400).with_formats(&[ImageFormat::Svg]);
    let files = ts.render(&dir.join("only.svg.fig"), &opts).unwrap();
    assert_eq!(files, vec![dir.join("only.svg.fig.svg")]);
    assert!(!dir.join("only.svg.fig.png").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_are_typed_and_write_nothing() {
    let dir = temp_dir("errors");
    let opts = RenderOptions::default();
    let stem = dir.join("fig");

    let empty = TimeSeries::new("Empty", "x", "y");
    assert!(matches!(
        empty.render(&stem, &opts),
        Err(PlotError::EmptyData {
            figure: "TimeSeries"
        })
    ));
    let nan = TimeSeries::new("NaN", "x", "y").with_series(Series::new(
        "s",
        vec![f64::NAN, 1.0],
        vec![0.0, f64::INFINITY],
    ));
    assert!(matches!(
        nan.render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    let mismatch = TimeSeries::new("Mismatch", "x", "y").with_series(Series::new(
        "s",
        vec![0.0, 1.0],
        vec![0.0],
    ));
    match mismatch.render(&stem, &opts) {
        Err(PlotError::LengthMismatch {
            item,
            expected: 2,
            found: 1,
            ..
        }) => assert_eq!(item, "s"),
        other => panic!("unexpected {other:?}"),
    }
    let mut log = TimeSeries::new("Log", "x", "y").with_series(Series::new(
        "s",
        vec![0.0, 1.0],
        vec![-1.0, 0.0],
    ));
    log.log_y = true;
    assert!(matches!(
        log.render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));

    assert!(matches!(
        ComplexPlanePlot::new("c").render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    assert!(matches!(
        FloquetPlot::new("f", "p").render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    let bad_branch = FloquetPlot::new("f", "p").with_branch(FloquetBranch::new(
        "b",
        vec![0.0, 1.0],
        vec![vec![0.5]],
    ));
    assert!(matches!(
        bad_branch.render(&stem, &opts),
        Err(PlotError::LengthMismatch { .. })
    ));
    assert!(matches!(
        BifurcationDiagram::new("b", "p", "v").render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    assert!(matches!(
        OrbitDiagram::new("o", "p", "v", vec![], vec![]).render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    assert!(matches!(
        WorkPrecision::new("w").render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    assert!(matches!(
        TwoParamDiagram::new("t", "p", "q").render(&stem, &opts),
        Err(PlotError::EmptyData { .. })
    ));
    let infinite = TwoParamDiagram::new("t", "p", "q").with_curve(TwoParamCurve::new(
        CurveKind::Fold,
        "fold",
        vec![0.0, f64::INFINITY],
        vec![0.0, 1.0],
    ));
    assert!(matches!(
        infinite.render(&stem, &opts),
        Err(PlotError::NonFinite {
            what: "xs",
            index: 1,
            ..
        })
    ));

    let huge = TimeSeries::new("Huge", "x", "y").with_series(Series::new(
        "s",
        vec![0.0, 1.0],
        vec![-1e308, 1e308],
    ));
    assert!(matches!(
        huge.render(&stem, &opts),
        Err(PlotError::InvalidRange { .. })
    ));

    let ok = TimeSeries::new("ok", "x", "y").with_series(Series::new(
        "s",
        vec![0.0, 1.0],
        vec![0.0, 1.0],
    ));
    let mut bad_range = ok.clone();
    bad_range.y_range = Some((1.0, 1.0));
    assert!(matches!(
        bad_range.render(&stem, &opts),
        Err(PlotError::InvalidRange { axis: "y", .. })
    ));
    for bad in [
        RenderOptions::new(10, 700),
        RenderOptions::new(1000, 100_000),
        RenderOptions::default().with_formats(&[]),
        RenderOptions::default().with_formats(&[ImageFormat::Png, ImageFormat::Png]),
    ] {
        assert!(matches!(
            ok.render(&stem, &bad),
            Err(PlotError::InvalidOptions { .. })
        ));
    }
    assert!(!dir.exists(), "an error must not create files");
}

#[test]
fn degenerate_data_still_renders() {
    // A single point, a constant series, huge and tiny magnitudes: no panic, valid files.
    let figs: Vec<(&str, Box<dyn Figure>)> = vec![
        (
            "single",
            Box::new(TimeSeries::new("single", "x", "y").with_series(Series::new(
                "p",
                vec![1.0],
                vec![2.0],
            ))),
        ),
        (
            "const",
            Box::new(TimeSeries::new("const", "x", "y").with_series(Series::new(
                "c",
                vec![0.0, 1.0, 2.0],
                vec![0.0; 3],
            ))),
        ),
        (
            "huge",
            Box::new(TimeSeries::new("huge", "x", "y").with_series(Series::new(
                "h",
                vec![1e-9, 2e-9],
                vec![1e12, 3e12],
            ))),
        ),
    ];
    for (name, fig) in figs {
        check(fig.as_ref(), name, name, &RenderOptions::new(400, 300));
    }
}
