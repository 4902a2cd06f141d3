//! The two-parameter curves a continuation script asked for (`curves` in its section): their
//! JSON (the `"curves"` array of [`crate::continuation_json`]), their CSV tables and one
//! two-parameter diagram per second parameter, written beside the branch figures.

use crate::curve::{curve_figure, curve_json, rows};
use crate::files::Batch;
use crate::ReportError;
use saltation_continuation::{Curve, ScriptCurve};
use saltation_hybrid::EvalModel;
use saltation_plot::{Color, TwoParamDiagram};
use serde_json::{json, Value};

/// `[{"request", "branch", "index", "not_started"?, …the keys of `curve --json` when it
/// started}]`, in the order computed.
pub fn script_curves_json(model: &dyn EvalModel, curves: &[ScriptCurve]) -> Value {
    Value::Array(
        curves
            .iter()
            .map(|s| {
                let mut v = match &s.curve {
                    Some(c) => curve_json(model, c),
                    None => json!({}),
                };
                v["request"] = json!(s.request);
                v["branch"] = json!(s.branch);
                v["index"] = json!(s.index);
                if let Some(why) = &s.not_started {
                    v["not_started"] = json!(why);
                }
                v
            })
            .collect(),
    )
}

/// The started curves grouped by their second parameter, in order of first appearance: each
/// group with the curves' positions in `curves`.
fn groups(curves: &[ScriptCurve]) -> Vec<(String, Vec<(usize, &Curve)>)> {
    let mut out: Vec<(String, Vec<(usize, &Curve)>)> = Vec::new();
    for (i, s) in curves.iter().enumerate() {
        let Some(c) = &s.curve else { continue };
        match out.iter_mut().find(|(p2, _)| *p2 == c.params[1]) {
            Some((_, g)) => g.push((i, c)),
            None => out.push((c.params[1].clone(), vec![(i, c)])),
        }
    }
    out
}

/// One diagram with every curve of a group (each with at least two points): the curves in the
/// colours of the palette by order (a kind keeps its dash pattern), labelled by kind, branch
/// which bifurcation and where the curve ended, their codimension-two points marked.
pub fn script_curves_figure(
    title: &str,
    curves: &[ScriptCurve],
    group: &[(usize, &Curve)],
) -> Option<TwoParamDiagram> {
    let drawable: Vec<&(usize, &Curve)> =
        group.iter().filter(|(_, c)| c.points.len() >= 2).collect();
    let (_, first) = drawable.first()?;
    let mut fig = TwoParamDiagram::new(
        title,
        crate::param_symbol(&first.params[0]),
        crate::param_symbol(&first.params[1]),
    );
    for (n, (i, c)) in drawable.iter().enumerate() {
        let one = curve_figure(c);
        let s = &curves[*i];
        for mut line in one.curves {
            let end = c.points.last().map_or(f64::NAN, |p| p.params[1]);
            line.label = format!(
                "{} from \"{}\" #{}, to {} = {}",
                c.kind,
                s.branch,
                s.index,
                crate::param_symbol(&c.params[1]),
                crate::shortest(end)
            );
            fig = fig.with_curve(line.with_color(Color::palette(n)));
        }
        for p in one.points {
            fig = fig.with_point(p);
        }
    }
    Some(fig)
}

/// Writes, per second parameter `P2` (the suffix `_<P2>` only when there are several):
/// `curves.csv` (`curve, P, P2, …` as `curve.csv`, `curve` the position in the JSON's
/// `"curves"`), `curves_codim2.csv` (`curve, kind, …`) and the figure `two_param`.
pub(crate) fn script_curve_files(
    name: &str,
    curves: &[ScriptCurve],
    batch: &mut Batch<'_>,
) -> Result<(), ReportError> {
    let groups = groups(curves);
    let several = groups.len() > 1;
    for (p2, group) in &groups {
        let suffix = if several {
            format!("_{}", file_safe(p2))
        } else {
            String::new()
        };
        let names = &group[0].1.params;
        let points: Vec<(String, &saltation_continuation::CurvePoint)> = group
            .iter()
            .flat_map(|(i, c)| c.points.iter().map(move |p| (i.to_string(), p)))
            .collect();
        batch.text(
            &format!("curves{suffix}.csv"),
            &rows("curve", names, &points),
        )?;
        let codim2: Vec<(String, &saltation_continuation::CurvePoint)> = group
            .iter()
            .flat_map(|(i, c)| {
                c.codim2
                    .iter()
                    .map(move |x| (format!("{i},{}", x.kind.key()), &x.point))
            })
            .collect();
        batch.text(
            &format!("curves{suffix}_codim2.csv"),
            &rows("curve,kind", names, &codim2),
        )?;
        let title = format!(
            "{name}: two-parameter diagram in ({}, {})",
            crate::param_symbol(&names[0]),
            crate::param_symbol(&names[1])
        );
        if let Some(fig) = script_curves_figure(&title, curves, group) {
            batch.figure(&format!("two_param{suffix}"), &fig)?;
        }
    }
    Ok(())
}

/// `name` with every character other than an ASCII letter, digit, `-` or `_` replaced by `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
