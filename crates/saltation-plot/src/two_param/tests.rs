//! Layout and error tests of the two-parameter diagram.

use plotters::prelude::{IntoDrawingArea, SVGBackend};

use super::*;
use crate::axis::ticks;
use crate::frame::draw_figure;
use crate::labels::leader_points;
use crate::{font, RenderOptions};

/// The period-1 fold and flip curves of a made-up model crossing at a fold–flip point, and a
/// period-2 fold curve with a cusp.
fn diagram() -> TwoParamDiagram {
    let e: Vec<f64> = (0..=70).map(|i| 0.5 + 0.005 * f64::from(i)).collect();
    let fold: Vec<f64> = e.iter().map(|e| 1.0 + 0.5 * e * e).collect();
    let flip: Vec<f64> = e.iter().map(|e| 2.0 - e).collect();
    let n = e.len();
    let stable: Vec<bool> = (0..n).map(|i| i < n / 2).collect();
    TwoParamDiagram::new("t", "e", "Γ")
        .with_curve(TwoParamCurve::new(CurveKind::Fold, "", e.clone(), fold))
        .with_curve(
            TwoParamCurve::new(CurveKind::PeriodDoubling, "", e.clone(), flip)
                .with_stability(stable),
        )
        .with_point(LabelledPoint::new("fold–flip", 0.732, 1.268))
}

/// Lays `d` out on a `w × h` SVG as `render` would: the drawing context and the labels.
fn layout(d: &TwoParamDiagram, (w, h): (u32, u32)) -> (Prepared, Ctx, Vec<PlacedLabel>) {
    font::ensure_registered().expect("font");
    let prepared = d.prepare().expect("valid diagram");
    let mut svg = String::new();
    let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
    let ctx = draw_figure(&root, &prepared, 1).expect("drawn");
    let font = ctx.font();
    let labels = prepared
        .labels(&ctx, |t| Ok(root.estimate_text_size(t, &font)?))
        .expect("labels");
    drop(root);
    (prepared, ctx, labels)
}

fn inside([lo, hi]: [(f64, f64); 2], p: (f64, f64)) -> bool {
    (lo.0..=hi.0).contains(&p.0) && (lo.1..=hi.1).contains(&p.1)
}

#[test]
fn ranges_are_padded_by_five_percent_and_ticks_are_nice() {
    let p = diagram().prepare().expect("valid");
    // x: data 0.5 … 0.85, y: fold 1.125 … 1.36125, flip 1.15 … 1.5.
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(p.frame.x.lo, 0.5 - 0.05 * 0.35), "{:?}", p.frame.x);
    assert!(close(p.frame.x.hi, 0.85 + 0.05 * 0.35), "{:?}", p.frame.x);
    assert!(close(p.frame.y.lo, 1.125 - 0.05 * 0.375), "{:?}", p.frame.y);
    assert!(close(p.frame.y.hi, 1.5 + 0.05 * 0.375), "{:?}", p.frame.y);
    assert_eq!(
        ticks(&p.frame.x, 10).labels,
        ["0.5", "0.55", "0.6", "0.65", "0.7", "0.75", "0.8", "0.85"]
    );
    // A fixed range is used as given.
    let mut fixed = diagram();
    fixed.x_range = Some((0.0, 1.0));
    let p = fixed.prepare().expect("valid");
    assert_eq!((p.frame.x.lo, p.frame.x.hi), (0.0, 1.0));
    // One legend entry per curve (named by kind), and one for the thin unstable stretch.
    let names: Vec<&str> = p.frame.entries.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names, ["fold", "period doubling", "thin: orbit unstable"]);
}

/// Curves through three corners of the plot, then through all four: the legend box never
/// covers a sample of a drawn curve (16 per segment) or a marked point.
#[test]
fn the_legend_keeps_off_the_curves() {
    let t: Vec<f64> = (0..=40).map(|i| f64::from(i) / 40.0).collect();
    let three = TwoParamDiagram::new("", "p", "q")
        .with_curve(TwoParamCurve::new(
            CurveKind::Fold,
            "fold",
            t.clone(),
            t.clone(),
        ))
        .with_curve(TwoParamCurve::new(
            CurveKind::Grazing,
            "grazing",
            t.iter().map(|t| 1.0 - t).collect(),
            t.iter().map(|t| 0.2 * t).collect(),
        ))
        .with_point(LabelledPoint::new("cusp", 0.5, 0.5));
    let mut four = three.clone();
    four.curves.push(TwoParamCurve::new(
        CurveKind::NeimarkSacker,
        "NS",
        t.clone(),
        t.iter().map(|t| 1.0 - t).collect(),
    ));
    for (name, d) in [("three corners", three), ("four corners", four)] {
        let (p, ctx, _) = layout(&d, (1000, 700));
        let rect = ctx.legend.expect("a legend");
        for c in &d.curves {
            let pts: Vec<(f64, f64)> = c.xs.iter().copied().zip(c.ys.clone()).collect();
            for s in trace(&pts).into_iter().chain(pts) {
                assert!(!inside(rect, s), "{name}: legend {rect:?} covers {s:?}");
            }
        }
        for pt in &p.points {
            assert!(!inside(rect, (pt.x, pt.y)), "{name}: covers {pt:?}");
        }
    }
}

/// The legend box the layout keeps free (an estimate made before drawing) contains the box
/// plotters draws: read back from the SVG, the white rectangle after the plot's frame.
#[test]
fn the_estimated_legend_box_holds_the_drawn_one() {
    let d = diagram();
    let (_, ctx, _) = layout(&d, (1000, 700));
    let svg = d.to_svg_string(&RenderOptions::default()).expect("svg");
    let num = |l: &str, key: &str| -> f64 {
        let start = l.find(&format!(" {key}=\"")).expect(key) + key.len() + 3;
        let len = l[start..].find('"').expect("closing quote");
        l[start..start + len].parse().expect("a number")
    };
    let rects: Vec<&str> = svg.lines().filter(|l| l.starts_with("<rect")).collect();
    let (w, h) = (f64::from(ctx.plot_px.0), f64::from(ctx.plot_px.1));
    let frame = rects
        .iter()
        .position(|l| {
            l.contains(r#"fill="none""#)
                && (num(l, "width") - w).abs() <= 1.0
                && (num(l, "height") - h).abs() <= 1.0
        })
        .expect("the plot's frame");
    let (ox, oy) = (num(rects[frame], "x"), num(rects[frame], "y"));
    let drawn = rects[frame + 1..]
        .iter()
        .find(|l| l.contains(r##"fill="#FFFFFF""##))
        .expect("the legend's background");
    let [lo, hi] = ctx.legend.expect("a legend");
    let (a, b) = (to_px(&ctx, lo), to_px(&ctx, hi));
    let (x0, y0) = (num(drawn, "x") - ox, num(drawn, "y") - oy);
    let (x1, y1) = (x0 + num(drawn, "width"), y0 + num(drawn, "height"));
    assert!(
        a.0 <= x0 + 1.0 && b.1 <= y0 + 1.0 && b.0 >= x1 - 1.0 && a.1 >= y1 - 1.0,
        "estimate {a:?}–{b:?} vs drawn ({x0}, {y0})–({x1}, {y1})"
    );
}

/// Five codimension-two points within a few pixels of each other: one marker each (in the
/// SVG), and the five labels overlap neither one another, nor a marker, nor the legend, and
/// stay inside the plot.
#[test]
fn crowded_points_get_one_marker_each_and_labels_apart() {
    let mut d = diagram();
    d.points = ["cusp", "1:1", "1:2", "flip–NS", "fold–grazing"]
        .iter()
        .enumerate()
        .map(|(i, l)| {
            LabelledPoint::new(*l, 0.70 + 0.004 * i as f64, 1.25 + 0.003 * i as f64)
                .with_marker(Marker::Circle)
        })
        .collect();
    let (p, ctx, labels) = layout(&d, (1000, 700));
    assert_eq!(labels.len(), 5);
    // Too dense for every label to sit next to its marker: some need leader lines.
    assert!(labels.iter().any(|l| l.leader));
    let r = 1.3 * f64::from(Prepared::marker_r(&ctx));
    let (w, h) = (f64::from(ctx.plot_px.0), f64::from(ctx.plot_px.1));
    let legend = ctx.legend.map(|[lo, hi]| {
        let (a, b) = (to_px(&ctx, lo), to_px(&ctx, hi));
        Rect {
            x0: a.0,
            y0: b.1,
            x1: b.0,
            y1: a.1,
        }
    });
    for (i, l) in labels.iter().enumerate() {
        assert_eq!(l.point, i);
        for o in &labels[..i] {
            assert_eq!(l.rect.overlap(&o.rect), 0.0, "{:?} / {:?}", l.rect, o.rect);
        }
        for q in &p.points {
            let (x, y) = to_px(&ctx, (q.x, q.y));
            let m = Rect {
                x0: x - r,
                y0: y - r,
                x1: x + r,
                y1: y + r,
            };
            assert_eq!(l.rect.overlap(&m), 0.0, "label {i} covers a marker");
        }
        if let Some(g) = legend {
            assert_eq!(l.rect.overlap(&g), 0.0, "label {i} covers the legend");
        }
        assert!(l.rect.x0 >= 0.0 && l.rect.y0 >= 0.0 && l.rect.x1 <= w && l.rect.y1 <= h);
        // No leader line runs through another label.
        if l.leader {
            let q = &p.points[l.point];
            let path = leader_points(to_px(&ctx, (q.x, q.y)), &l.rect, r);
            for o in labels.iter().filter(|o| o.point != l.point) {
                assert!(path.iter().all(|s| !o.rect.contains(*s)), "leader {i}");
            }
        }
    }
    // One white disc and one black ring per point, each label drawn once.
    let svg = d.to_svg_string(&RenderOptions::default()).expect("svg");
    let circles: Vec<&str> = svg.lines().filter(|l| l.starts_with("<circle")).collect();
    let discs = circles.iter().filter(|l| l.contains(r##"fill="#FFFFFF""##));
    let rings = circles
        .iter()
        .filter(|l| l.contains(r##"stroke="#000000""##));
    assert_eq!(circles.len(), 2 * d.points.len(), "circles in the SVG");
    assert_eq!((discs.count(), rings.count()), (5, 5));
    for l in ["cusp", "1:1", "1:2", "flip–NS", "fold–grazing"] {
        assert_eq!(svg.matches(&format!("\n{l}\n</text>")).count(), 1, "{l}");
    }
}

/// Bad input is a typed error naming the curve or point, never a panic or a silently
/// missing curve; a NaN gap is accepted and splits the curve.
#[test]
fn bad_input_is_a_typed_error() {
    let ok = || TwoParamCurve::new(CurveKind::Fold, "f", vec![0.0, 1.0], vec![0.0, 1.0]);
    let err = |d: TwoParamDiagram| d.prepare().err().expect("an error");
    let with = |c: TwoParamCurve| TwoParamDiagram::new("", "p", "q").with_curve(c);

    assert!(matches!(
        err(TwoParamDiagram::new("", "p", "q")),
        PlotError::EmptyData { figure: FIGURE }
    ));
    match err(with(TwoParamCurve::new(
        CurveKind::Fold,
        "",
        vec![],
        vec![],
    ))) {
        PlotError::EmptyItem { item, .. } => assert_eq!(item, "curve 0 (fold)"),
        e => panic!("{e:?}"),
    }
    let all_nan = TwoParamCurve::new(CurveKind::Grazing, "g", vec![f64::NAN; 3], vec![0.0; 3]);
    assert!(matches!(err(with(all_nan)), PlotError::EmptyItem { .. }));
    let isolated = TwoParamCurve::new(
        CurveKind::Fold,
        "iso",
        vec![0.0, f64::NAN, 1.0],
        vec![0.0, 0.5, 1.0],
    );
    assert!(matches!(err(with(isolated)), PlotError::EmptyItem { .. }));
    let short = TwoParamCurve::new(CurveKind::Fold, "s", vec![0.0, 1.0], vec![0.0]);
    assert!(matches!(
        err(with(short)),
        PlotError::LengthMismatch {
            what: "ys",
            expected: 2,
            found: 1,
            ..
        }
    ));
    assert!(matches!(
        err(with(ok().with_stability(vec![true]))),
        PlotError::LengthMismatch { what: "stable", .. }
    ));
    let inf = TwoParamCurve::new(
        CurveKind::PeriodDoubling,
        "pd",
        vec![0.0, 1.0, 2.0],
        vec![0.0, f64::NEG_INFINITY, 1.0],
    );
    match err(with(inf)) {
        PlotError::NonFinite {
            item, what, index, ..
        } => assert_eq!((item.as_str(), what, index), ("pd", "ys", 1)),
        e => panic!("{e:?}"),
    }
    let nan_point = with(ok()).with_point(LabelledPoint::new("cusp", f64::NAN, 0.5));
    match err(nan_point) {
        PlotError::NonFinite { item, what, .. } => {
            assert_eq!((item.as_str(), what), ("cusp", "x"))
        }
        e => panic!("{e:?}"),
    }
    let mut bad_range = with(ok());
    bad_range.y_range = Some((1.0, f64::NAN));
    assert!(matches!(
        err(bad_range),
        PlotError::InvalidRange { axis: "y", .. }
    ));
    // Through the public entry points too: an error, and no file written.
    let dir = std::env::temp_dir().join(format!("saltation-two-param-{}", std::process::id()));
    let stem = dir.join("fig");
    assert!(TwoParamDiagram::new("", "p", "q")
        .render(&stem, &RenderOptions::default())
        .is_err());
    assert!(!dir.exists());

    // A NaN gap: two drawn pieces.
    let gap = TwoParamCurve::new(
        CurveKind::Fold,
        "gap",
        vec![0.0, 0.3, f64::NAN, 0.6, 1.0],
        vec![0.0, 0.3, f64::NAN, 0.6, 1.0],
    );
    let p = with(gap).prepare().expect("a gap is fine");
    let pieces = crate::draw::clipped_runs(&p.curves[0].pts, &p.frame.x, &p.frame.y);
    assert_eq!(pieces.len(), 2);
}

#[test]
fn kinds_have_distinct_colours_and_dashes() {
    use CurveKind::*;
    let kinds = [Fold, PeriodDoubling, NeimarkSacker, Grazing, Other];
    for (i, a) in kinds.iter().enumerate() {
        for b in &kinds[..i] {
            assert_ne!(a.color(), b.color(), "{a:?} / {b:?}");
        }
    }
    // The four named kinds also differ in dash pattern (readable in greyscale).
    for (i, a) in kinds[..4].iter().enumerate() {
        for b in &kinds[..i] {
            assert_ne!(a.line_style(), b.line_style(), "{a:?} / {b:?}");
        }
    }
    assert_eq!(
        LabelledPoint::new("Fold - Flip", 0.0, 0.0).marker,
        Marker::Square
    );
    assert_eq!(LabelledPoint::new("cusp", 0.0, 0.0).marker, Marker::Diamond);
    assert_eq!(LabelledPoint::new("1:2", 0.0, 0.0).marker, Marker::Triangle);
    assert_eq!(
        LabelledPoint::new("PD–grazing", 0.0, 0.0).marker,
        Marker::Cross
    );
    assert_eq!(
        LabelledPoint::new("flip–NS", 0.0, 0.0).marker,
        Marker::Circle
    );
}

/// Inadmissible stretches are drawn faded (and unstable ones thin, independently): a curve
/// whose points are (stable, admissible) = (✓✓, ✗✓, ✗✗, ✓✗) is drawn as four pieces meeting at
/// the midpoints, the last two in the faded colour, with a legend entry saying so; a flag
/// vector of the wrong length is an error naming it.
#[test]
fn inadmissible_stretches_are_faded() {
    let xs = vec![0.0, 1.0, 2.0, 3.0];
    let c = TwoParamCurve::new(CurveKind::Fold, "f", xs.clone(), xs.clone())
        .with_stability(vec![true, false, false, true])
        .with_admissibility(vec![true, true, false, false]);
    let p = TwoParamDiagram::new("", "p", "q")
        .with_curve(c.clone())
        .prepare()
        .expect("valid");
    let blue = CurveKind::Fold.color();
    let light = faded(blue);
    assert!(light.r > blue.r && light.g > blue.g && light.b > blue.b);
    let drawn: Vec<(Color, bool, usize)> = p
        .curves
        .iter()
        .map(|l| (l.color, l.thin, l.pts.len()))
        .collect();
    assert_eq!(
        drawn,
        [
            (blue, false, 2),
            (blue, true, 3),
            (light, true, 3),
            (light, false, 2)
        ]
    );
    assert_eq!(p.curves[2].pts, [(1.5, 1.5), (2.0, 2.0), (2.5, 2.5)]);
    assert!(p
        .frame
        .entries
        .iter()
        .any(|(t, _)| t == "faded: orbit not admissible"));
    // All admissible: no faded piece, no legend entry.
    let plain = TwoParamDiagram::new("", "p", "q")
        .with_curve(
            TwoParamCurve::new(CurveKind::Fold, "f", xs.clone(), xs.clone())
                .with_admissibility(vec![true; 4]),
        )
        .prepare()
        .expect("valid");
    assert_eq!(plain.curves.len(), 1);
    assert!(plain
        .frame
        .entries
        .iter()
        .all(|(t, _)| !t.starts_with("faded")));
    let short = TwoParamDiagram::new("", "p", "q")
        .with_curve(c.with_admissibility(vec![true]))
        .prepare()
        .err()
        .expect("an error");
    assert!(matches!(
        short,
        PlotError::LengthMismatch {
            what: "admissible",
            ..
        }
    ));
}
