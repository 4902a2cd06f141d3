//! A curve of codimension-one bifurcations in two parameters (`saltation curve`): its JSON
//! object, its CSV tables and its text summary.

use crate::files::Batch;
use crate::{multipliers_json, params_json, shortest, Outputs, ReportError};
use saltation_continuation::{Curve, CurveKind, CurvePoint};
use saltation_hybrid::EvalModel;
use saltation_orbit::Multiplier;
use saltation_plot::{CurveKind as PlotKind, LabelledPoint, TwoParamCurve, TwoParamDiagram};
use serde_json::{json, Value};
use std::fmt::Write as _;
use std::path::PathBuf;

/// One point as JSON: `{"params": [p, p2], "x0", "period", "multipliers", "angle"?,
/// "admissible"?}`.
fn point_json(p: &CurvePoint) -> Value {
    let mut v = json!({
        "params": p.params,
        "x0": p.x0,
        "period": p.period,
        "multipliers": multipliers_json(&p.multipliers),
    });
    if let Some(a) = p.angle {
        v["angle"] = json!(a);
    }
    if let Some(a) = p.admissible {
        v["admissible"] = Value::Bool(a);
    }
    v
}

/// The object printed by `saltation curve --json` (a public interface: these keys):
///
/// ```text
/// {"kind": "fold" | "period_doubling" | "neimark_sacker" | "grazing",
///  "params": ["<P>", "<P2>"],
///  "param_values": {"<name>": value, ..} (the model's values the curve started from),
///  "period_k": 1,
///  "points": [{"params": [p, p2], "x0": [..], "period": ..,
///              "multipliers": [{"re": .., "im": ..}],
///              "angle": θ (Neimark–Sacker only), "admissible": bool (models with contact
///              conditions only)}],
///  "codim2": [{"kind": "cusp" | "fold_flip" | "resonance_1_1" | "resonance_1_2"
///                      | "fold_neimark_sacker" | "flip_neimark_sacker" | "grazing"
///                      | "grazing_fold" | "grazing_flip" | "grazing_neimark_sacker",
///              "name": "<in words>", "params": [p, p2], "x0": [..], "period": ..,
///              "multipliers": [..]}],
///  "grazing": {"condition": "<name>", "mode": "<name>", "phase": k,
///              "at": "start" | "interior" | "end"} (grazing curves only: the condition kept
///              at zero, the phase of the stride, where in the phase it is least),
///  "end": "<why the curve ended, in words>", "end_reason": "reached" | "max_points" | ..}
/// ```
pub fn curve_json(model: &dyn EvalModel, c: &Curve) -> Value {
    let points: Vec<Value> = c.points.iter().map(point_json).collect();
    let codim2: Vec<Value> = c
        .codim2
        .iter()
        .map(|x| {
            let mut v = point_json(&x.point);
            v["kind"] = json!(x.kind.key());
            v["name"] = json!(x.kind.name(c.kind));
            v
        })
        .collect();
    let mut v = json!({
        "kind": c.kind.key(),
        "params": c.params,
        "param_values": params_json(model),
        "period_k": c.period_k,
        "points": points,
        "codim2": codim2,
        "end": c.end.to_string(),
        "end_reason": c.end.key(),
    });
    if let Some(g) = &c.grazing {
        v["grazing"] = json!({
            "condition": g.condition,
            "mode": g.mode,
            "phase": g.phase,
            "at": g.at.key(),
        });
    }
    v
}

/// The rows of `points` with the header `<first>,P,P2,x0_0 … ,period,mu<i>_re,mu<i>_im`
/// (`first` and each label may hold several comma-separated columns).
pub(crate) fn rows(first: &str, names: &[String; 2], points: &[(String, &CurvePoint)]) -> String {
    let n = points.iter().map(|(_, p)| p.x0.len()).max().unwrap_or(0);
    let m = points
        .iter()
        .map(|(_, p)| p.multipliers.len())
        .max()
        .unwrap_or(0);
    let mut out = format!(
        "{first},{},{}",
        crate::csv_field(&names[0]),
        crate::csv_field(&names[1])
    );
    for i in 0..n {
        let _ = write!(out, ",x0_{i}");
    }
    out.push_str(",period,angle");
    for i in 0..m {
        let _ = write!(out, ",mu{i}_re,mu{i}_im");
    }
    out.push('\n');
    for (label, p) in points {
        let _ = write!(
            out,
            "{label},{},{}",
            shortest(p.params[0]),
            shortest(p.params[1])
        );
        for i in 0..n {
            out.push(',');
            if let Some(x) = p.x0.get(i) {
                out.push_str(&shortest(*x));
            }
        }
        let _ = write!(out, ",{},", shortest(p.period));
        if let Some(a) = p.angle {
            out.push_str(&shortest(a));
        }
        for i in 0..m {
            match p.multipliers.get(i) {
                Some(mu) => {
                    let _ = write!(out, ",{},{}", shortest(mu.re), shortest(mu.im));
                }
                None => out.push_str(",,"),
            }
        }
        out.push('\n');
    }
    out
}

/// The curve's points as CSV: `index, P, P2, x0_…, period, angle, mu<i>_re, mu<i>_im`.
pub fn curve_csv(c: &Curve) -> String {
    let pts: Vec<(String, &CurvePoint)> = c
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| (i.to_string(), p))
        .collect();
    rows("index", &c.params, &pts)
}

/// The codimension-two points as CSV: `kind, P, P2, x0_…, period, angle, mu…`.
pub fn codim2_csv(c: &Curve) -> String {
    let pts: Vec<(String, &CurvePoint)> = c
        .codim2
        .iter()
        .map(|x| (x.kind.key().to_string(), &x.point))
        .collect();
    rows("kind", &c.params, &pts)
}

/// Whether the orbit is stable apart from the critical multiplier(s) of the curve's kind (the
/// one nearest +1 or −1, the pair nearest the unit circle for Neimark–Sacker).
pub fn stable_besides_critical(kind: CurveKind, mu: &[Multiplier]) -> bool {
    let mut rest: Vec<&Multiplier> = mu.iter().collect();
    let mut drop_nearest = |target: (f64, f64)| {
        let dist = |m: &Multiplier| (m.re - target.0).hypot(m.im - target.1);
        if let Some(i) = (0..rest.len()).min_by(|&i, &j| dist(rest[i]).total_cmp(&dist(rest[j]))) {
            rest.remove(i);
        }
    };
    match kind {
        CurveKind::Fold => drop_nearest((1.0, 0.0)),
        CurveKind::PeriodDoubling => drop_nearest((-1.0, 0.0)),
        CurveKind::NeimarkSacker => {
            if let Some(m) = mu.iter().filter(|m| m.im > 0.0).min_by(|a, b| {
                (a.modulus() - 1.0)
                    .abs()
                    .total_cmp(&(b.modulus() - 1.0).abs())
            }) {
                let (re, im) = (m.re, m.im);
                drop_nearest((re, im));
                drop_nearest((re, -im));
            }
        }
        _ => {}
    }
    rest.iter().all(|m| m.modulus() < 1.0)
}

/// The drawn line of a curve: its stability flags, and its admissibility flags when its points
/// carry them (inadmissible stretches faded; a point without the flag counts as admissible).
fn curve_line(
    c: &Curve,
    kind: PlotKind,
    label: String,
    xs: Vec<f64>,
    ys: Vec<f64>,
    stable: Vec<bool>,
) -> TwoParamCurve {
    let line = TwoParamCurve::new(kind, label, xs, ys).with_stability(stable);
    if c.points.iter().any(|p| p.admissible.is_some()) {
        let admissible = c
            .points
            .iter()
            .map(|p| p.admissible != Some(false))
            .collect();
        line.with_admissibility(admissible)
    } else {
        line
    }
}

/// The two-parameter diagram of a curve: `P` across, `P2` up, unstable stretches (apart from
/// the critical multipliers) thin, inadmissible ones faded, the codimension-two points marked
/// and labelled.
pub fn curve_figure(c: &Curve) -> TwoParamDiagram {
    let kind = match c.kind {
        CurveKind::Fold => PlotKind::Fold,
        CurveKind::PeriodDoubling => PlotKind::PeriodDoubling,
        CurveKind::NeimarkSacker => PlotKind::NeimarkSacker,
        CurveKind::Grazing => PlotKind::Grazing,
    };
    let label = if c.period_k > 1 {
        format!("{}, period {}", c.kind, c.period_k)
    } else {
        c.kind.to_string()
    };
    let xs = c.points.iter().map(|p| p.params[0]).collect();
    let ys = c.points.iter().map(|p| p.params[1]).collect();
    let stable = c
        .points
        .iter()
        .map(|p| stable_besides_critical(c.kind, &p.multipliers))
        .collect();
    let mut fig = TwoParamDiagram::new(
        format!("{} curve", c.kind),
        crate::param_symbol(&c.params[0]),
        crate::param_symbol(&c.params[1]),
    )
    .with_curve(curve_line(c, kind, label, xs, ys, stable));
    for x in &c.codim2 {
        fig = fig.with_point(LabelledPoint::new(
            x.kind.name(c.kind),
            x.point.params[0],
            x.point.params[1],
        ));
    }
    fig
}

/// Writes `<stem>_curve.csv`, `<stem>_codim2.csv`, `<stem>_curve.json` and the figure
/// `<stem>_two_param` (as one batch: all or none); the paths written.
pub fn write_curve(
    model: &dyn EvalModel,
    c: &Curve,
    out: &Outputs,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    batch.text("curve.csv", &curve_csv(c))?;
    batch.text("codim2.csv", &codim2_csv(c))?;
    batch.json("curve.json", &curve_json(model, c))?;
    batch.figure("two_param", &curve_figure(c))?;
    batch.finish()
}

/// The text summary: the start, the points and range, each codimension-two point, the end.
pub fn curve_summary(c: &Curve) -> String {
    let [p, p2] = &c.params;
    let mut s = format!(
        "{} curve in ({p}, {p2}): starts at the {} {p} = {} ({p2} = {}); {} point(s)\n",
        c.kind,
        c.start.kind.name(),
        crate::fixed(c.start.param, 12),
        c.points
            .first()
            .map_or("?".into(), |q| crate::fixed(q.params[1], 12)),
        c.points.len()
    );
    if let Some(g) = &c.grazing {
        let where_ = match g.at {
            saltation_continuation::GrazingAt::Start => "at the start of",
            saltation_continuation::GrazingAt::Interior => "inside",
            saltation_continuation::GrazingAt::End => "at the end of",
        };
        let _ = writeln!(
            s,
            "  grazing condition: `{}` = 0 {where_} phase {} (mode `{}`)",
            g.condition, g.phase, g.mode
        );
    }
    if let Some(last) = c.points.last() {
        let _ = writeln!(
            s,
            "  last point: {p} = {}, {p2} = {}",
            crate::fixed(last.params[0], 12),
            crate::fixed(last.params[1], 12)
        );
    }
    if c.codim2.is_empty() {
        s.push_str("  no codimension-two point\n");
    }
    for x in &c.codim2 {
        let _ = writeln!(
            s,
            "  {} at {p} = {}, {p2} = {}",
            x.kind.name(c.kind),
            crate::fixed(x.point.params[0], 12),
            crate::fixed(x.point.params[1], 12)
        );
    }
    let _ = writeln!(s, "  end: {}", c.end);
    s
}
