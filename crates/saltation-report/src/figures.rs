//! The figures of a continuation report: Floquet plot, multipliers in the complex plane,
//! bifurcation diagram with period-`k` branches, orbit diagram; and writing them with the data.

use super::files::Batch;
use super::*;

/// How a branch is drawn: branches that start from the same orbit (e.g. one gait continued up
/// and down in the parameter) share colour, marker and legend entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Look {
    /// Line and marker colour.
    pub color: Color,
    /// Marker in the complex plane.
    pub marker: Marker,
    /// Legend text; empty for the second and later branches of a group.
    pub legend: String,
}

const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::Cross,
    Marker::Plus,
];

fn same_start(a: &Branch, b: &Branch) -> bool {
    let (Some(p), Some(q)) = (a.points.first(), b.points.first()) else {
        return false;
    };
    let dp = (p.param - q.param).abs() <= 1e-12 * p.param.abs().max(1.0);
    let dx = p.x0.len() == q.x0.len()
        && p.x0
            .iter()
            .zip(&q.x0)
            .all(|(x, y)| (x - y).abs() <= 1e-8 * x.abs().max(1.0));
    a.period_k == b.period_k && dp && dx
}

/// The longest common prefix of the labels, cut back to a word and without trailing
/// punctuation; the first label if that leaves too little (empty for no labels).
fn common_label(labels: &[&str]) -> String {
    let Some((&first, rest)) = labels.split_first() else {
        return String::new();
    };
    let mut end = first.len();
    for l in rest {
        end = end.min(
            first
                .char_indices()
                .zip(l.chars())
                .find(|((_, a), b)| a != b)
                .map_or(first.len().min(l.len()), |((i, _), _)| i),
        );
    }
    // `end` is a character boundary of `first` (a mismatch position, or the length of a label
    // that is a prefix of it); `get` keeps that from being a panic if it ever were not.
    let prefix = first
        .get(..end)
        .unwrap_or(first)
        .trim_end_matches(|c: char| !c.is_alphanumeric());
    if prefix.chars().count() < 3 {
        first.to_string()
    } else {
        prefix.to_string()
    }
}

/// The [`Look`] of every branch of `r`, in order.
pub fn looks(r: &ScriptResult) -> Vec<Look> {
    let n = r.branches.len();
    let mut group = vec![usize::MAX; n];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let found = (0..i).find(|&j| same_start(&r.branches[j], &r.branches[i]));
        match found {
            Some(j) => {
                group[i] = group[j];
                groups[group[j]].push(i);
            }
            None => {
                group[i] = groups.len();
                groups.push(vec![i]);
            }
        }
    }
    (0..n)
        .map(|i| {
            let g = group[i];
            let members = &groups[g];
            let legend = if members.first() == Some(&i) {
                let labels: Vec<&str> = members
                    .iter()
                    .map(|&k| r.branches[k].label.as_str())
                    .collect();
                common_label(&labels)
            } else {
                String::new()
            };
            Look {
                color: Color::palette(g),
                marker: MARKERS[g % MARKERS.len()],
                legend,
            }
        })
        .collect()
}

/// (a) |μ| of the nontrivial multipliers against the parameter for every branch, with |μ| = 1,
/// stable stretches solid and unstable ones dashed, bifurcations marked.
pub fn floquet_plot(r: &ScriptResult, title: &str) -> FloquetPlot {
    let sym = param_symbol(&r.param);
    let mut fig = FloquetPlot::new(title, sym);
    fig.y_label = "|μ| (nontrivial multipliers)".into();
    for (b, look) in r.branches.iter().zip(looks(r)) {
        if b.points.is_empty() {
            continue;
        }
        let params = b.points.iter().map(|p| p.param).collect();
        let moduli = b
            .points
            .iter()
            .map(|p| {
                p.multipliers
                    .iter()
                    .map(Multiplier::modulus)
                    .filter(|m| *m >= TRIVIAL_MODULUS)
                    .collect()
            })
            .collect();
        let stable = b.points.iter().map(|p| p.stable).collect();
        fig = fig.with_branch(
            FloquetBranch::new(look.legend, params, moduli)
                .with_stability(stable)
                .with_color(look.color),
        );
    }
    for x in &r.bifurcations {
        fig = fig.with_bifurcation(BifurcationPoint::new(plot_kind(x.kind), x.param, 1.0));
    }
    fig
}

/// (b) The nontrivial multipliers of every branch point in the complex plane, coloured by the
/// parameter (one marker shape per branch), with the unit circle. Multipliers far outside the
/// circle (|μ| > `zoom`) are left outside the view, so that the circle stays readable.
pub fn multiplier_plot(r: &ScriptResult, title: &str, zoom: f64) -> ComplexPlanePlot {
    let mut fig = ComplexPlanePlot::new(title);
    fig.parameter_label = param_symbol(&r.param);
    let mut rmax: f64 = 1.0;
    for (b, look) in r.branches.iter().zip(looks(r)) {
        let (mut pts, mut par) = (Vec::new(), Vec::new());
        for p in &b.points {
            for m in p
                .multipliers
                .iter()
                .filter(|m| m.modulus() >= TRIVIAL_MODULUS)
            {
                pts.push((m.re, m.im));
                par.push(p.param);
                if m.re.is_finite() && m.im.is_finite() {
                    rmax = rmax.max(m.re.abs()).max(m.im.abs());
                }
            }
        }
        if pts.is_empty() {
            continue;
        }
        // Outlined markers: successive points overlap, outlines keep them apart.
        fig = fig.with_group(
            PointGroup::new(look.legend, pts)
                .with_marker(look.marker)
                .with_parameter(par)
                .hollow(),
        );
    }
    if rmax > zoom {
        fig.range = Some(zoom);
        fig.title = format!("{title} (view |Re μ|, |Im μ| ≤ {})", shortest(zoom));
    }
    fig
}

/// At most this many states of a period-`k` orbit are computed per point ([`orbit_states`]): a
/// period that large (from many period doublings) would otherwise cost `k` strides per point.
pub const MAX_ORBIT_STATES: usize = 1024;

/// Component `component` of the `k` states of a period-`k` orbit: the fixed point `x0` of `P^k`
/// and its images under the single stride map `P` (computed with `stride`, one stride each),
/// at most [`MAX_ORBIT_STATES`] of them. A stride that fails gives NaN for the remaining states;
/// a missing component gives NaN.
pub fn orbit_states(
    model: &Model,
    param: &str,
    stride: &StrideOptions,
    b: &Branch,
    component: usize,
) -> Vec<Vec<f64>> {
    b.points
        .iter()
        .map(|p| {
            let get = |x: &[f64]| x.get(component).copied().unwrap_or(f64::NAN);
            let k = b.period_k.min(MAX_ORBIT_STATES);
            let mut values = vec![get(&p.x0)];
            if k <= 1 {
                return values;
            }
            let mut x = p.x0.clone();
            let model = model.with_param(param, p.param).ok();
            let mut map = model
                .as_ref()
                .and_then(|m| StrideMap::new(m, stride.clone()).ok());
            for _ in 1..k {
                let next = map
                    .as_mut()
                    .and_then(|m| m.eval(&x, JacobianKind::None).ok());
                match next {
                    Some(r) => {
                        x = r.x;
                        values.push(get(&x));
                    }
                    None => {
                        map = None;
                        values.push(f64::NAN);
                    }
                }
            }
            values
        })
        .collect()
}

/// (c) State component `component` of the orbits against the parameter: a period-`k` branch
/// shows its `k` states; stable solid, unstable dashed, bifurcations marked.
pub fn bifurcation_diagram(
    r: &ScriptResult,
    model: &Model,
    stride: &StrideOptions,
    component: usize,
    title: &str,
) -> BifurcationDiagram {
    let y_label = format!("{} of the fixed point(s)", state_name(model, component));
    let mut fig = BifurcationDiagram::new(title, param_symbol(&r.param), y_label);
    for (b, look) in r.branches.iter().zip(looks(r)) {
        if b.points.is_empty() {
            continue;
        }
        let params = b.points.iter().map(|p| p.param).collect();
        let values = orbit_states(model, &r.param, stride, b, component);
        let stable = b.points.iter().map(|p| p.stable).collect();
        fig = fig.with_branch(
            plot::Branch::period_k(look.legend, params, values, stable).with_color(look.color),
        );
    }
    for x in &r.bifurcations {
        let v = x.x0.get(component).copied().unwrap_or(f64::NAN);
        fig = fig.with_bifurcation(BifurcationPoint::new(plot_kind(x.kind), x.param, v));
    }
    fig
}

/// Shaded failure regions of an orbit diagram: each run of failing parameter values (in
/// increasing parameter) from its first failing value to the next value that did not fail (or
/// the right edge).
pub fn failure_regions(columns: &[DiagramColumn], label: &str) -> Vec<FailureRegion> {
    let mut cols: Vec<(f64, bool)> = columns
        .iter()
        .map(|c| (c.param, c.failed_at.is_some()))
        .collect();
    cols.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out = Vec::new();
    let mut start: Option<f64> = None;
    for &(p, failed) in &cols {
        match (failed, start) {
            (true, None) => start = Some(p),
            (false, Some(s)) => {
                out.push(FailureRegion::new(s, p, label));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(FailureRegion::new(s, f64::INFINITY, label));
    }
    out
}

/// The failure label of an orbit diagram, in the model's own words: the cause shared by every
/// failed column ([`DiagramColumn::cause`]: a failure guard's text, a guard never reached, …),
/// or "run fails" when the causes differ or are unknown.
pub fn failure_label(columns: &[DiagramColumn]) -> String {
    let mut causes = columns
        .iter()
        .filter(|c| c.failed_at.is_some())
        .map(|c| c.cause.as_deref());
    match causes.next() {
        Some(Some(first)) if causes.all(|c| c == Some(first)) => first.to_string(),
        _ => "run fails".to_string(),
    }
}

/// (d) The orbit diagram: every recorded value against its parameter, failure regions shaded.
pub fn orbit_diagram_figure(
    columns: &[DiagramColumn],
    model: &Model,
    param: &str,
    component: usize,
    title: &str,
) -> OrbitDiagram {
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for c in columns {
        for v in &c.values {
            xs.push(c.param);
            ys.push(*v);
        }
    }
    let y_label = format!("{} after each stride", state_name(model, component));
    let mut fig = OrbitDiagram::new(title, param_symbol(param), y_label, xs, ys);
    let lo = columns.iter().map(|c| c.param).min_by(f64::total_cmp);
    let hi = columns.iter().map(|c| c.param).max_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (lo, hi) {
        if lo < hi {
            fig.x_range = Some((lo, hi));
        }
    }
    for region in failure_regions(columns, &failure_label(columns)) {
        fig = fig.with_failure(region);
    }
    fig
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

/// What the figures need besides the result.
#[derive(Debug, Clone, Copy)]
pub struct FigureContext<'a> {
    /// The model (at any parameter value; the continuation parameter is set per point).
    pub model: &'a Model,
    /// Single-stride settings (for the states of period-`k` orbits).
    pub stride: &'a StrideOptions,
    /// State component of the bifurcation diagram.
    pub component: usize,
    /// State component recorded in the orbit diagram.
    pub diagram_component: usize,
}

impl<'a> FigureContext<'a> {
    /// The context of a continuation script run with the stride settings `stride`: the
    /// bifurcation diagram of component 0, and the orbit diagram's own component (0 without an
    /// orbit diagram).
    pub fn for_script(
        model: &'a Model,
        stride: &'a StrideOptions,
        spec: &'a saltation_continuation::ContinuationSpec,
    ) -> Self {
        Self {
            model,
            stride,
            component: 0,
            diagram_component: spec
                .orbit_diagram
                .as_ref()
                .map_or(0, |d| d.settings.component),
        }
    }
}

/// Zoom of the complex-plane figure when multipliers lie far outside the unit circle.
const COMPLEX_ZOOM: f64 = 1.6;

/// Writes the branch data (`_branches.csv`, `_branches.json`), the figures (`_floquet`,
/// `_multipliers`, `_bifurcation`, and `_orbit_diagram` with its `_orbit_diagram.csv` if the
/// result has one) and returns the paths written.
///
/// Each file is written atomically ([`write_atomic`]) and the set together (renamed into place
/// at the end); a failure writes none of them ([`ReportError::Partial`]). Call
/// [`check_destination`] before computing the result, so that an unusable `out.dir` is found
/// first.
pub fn write_continuation(
    r: &ScriptResult,
    ctx: &FigureContext<'_>,
    out: &Outputs,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    continuation_files(r, ctx, &mut batch)?;
    batch.finish()
}

fn continuation_files(
    r: &ScriptResult,
    ctx: &FigureContext<'_>,
    batch: &mut Batch<'_>,
) -> Result<(), ReportError> {
    let name = ctx.model.name().replace('_', " ");
    let sym = param_symbol(&r.param);
    batch.text("branches.csv", &branches_csv(r))?;
    batch.json("branches.json", &continuation_json(ctx.model, r))?;
    let has_points = r.branches.iter().any(|b| !b.points.is_empty());
    if has_points {
        let fig = floquet_plot(r, &format!("{name}: Floquet multipliers along {sym}"));
        batch.figure("floquet", &fig)?;
        let fig = multiplier_plot(r, &format!("{name}: multipliers along {sym}"), COMPLEX_ZOOM);
        batch.figure("multipliers", &fig)?;
        let fig = bifurcation_diagram(
            r,
            ctx.model,
            ctx.stride,
            ctx.component,
            &format!("{name}: bifurcation diagram in {sym}"),
        );
        batch.figure("bifurcation", &fig)?;
    }
    if let Some(cols) = &r.orbit_diagram {
        orbit_diagram_files(cols, ctx.model, &r.param, ctx.diagram_component, batch)?;
    }
    crate::script_curves::script_curve_files(&name, &r.curves, batch)?;
    Ok(())
}

/// Writes `_orbit_diagram.csv` and the `_orbit_diagram` figure (unless no run recorded a
/// value); returns the paths. Atomic files and errors as in [`write_continuation`].
pub fn write_orbit_diagram(
    columns: &[DiagramColumn],
    model: &Model,
    param: &str,
    component: usize,
    out: &Outputs,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut batch = Batch::new(out);
    orbit_diagram_files(columns, model, param, component, &mut batch)?;
    batch.finish()
}

fn orbit_diagram_files(
    columns: &[DiagramColumn],
    model: &Model,
    param: &str,
    component: usize,
    batch: &mut Batch<'_>,
) -> Result<(), ReportError> {
    batch.text("orbit_diagram.csv", &diagram_csv(columns))?;
    // Without a single recorded value there is nothing to draw (the CSV says why).
    if columns
        .iter()
        .any(|c| c.values.iter().any(|v| v.is_finite()))
    {
        let name = model.name().replace('_', " ");
        let title = format!("{name}: orbit diagram in {}", param_symbol(param));
        let fig = orbit_diagram_figure(columns, model, param, component, &title);
        batch.figure("orbit_diagram", &fig)?;
    }
    Ok(())
}

/// The file-name stem of a model file (`models/x.ron` → `x`).
pub fn stem_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "continuation".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(param: f64, failed: bool) -> DiagramColumn {
        DiagramColumn {
            param,
            values: if failed { vec![] } else { vec![0.1, 0.2] },
            failed_at: failed.then_some(3),
            failure: failed.then(|| "fell at t = 1".to_string()),
            cause: failed.then(|| "fell".to_string()),
        }
    }

    #[test]
    fn failures_first_final_and_regions() {
        // Unsorted on purpose: regions and failures are by increasing parameter.
        let cols = [
            col(0.5, true),
            col(0.1, false),
            col(0.2, true),
            col(0.3, false),
            col(0.4, true),
        ];
        assert_eq!(first_failure(&cols), Some(0.2));
        assert_eq!(final_failure(&cols), Some(0.4));
        assert_eq!(failure_label(&cols), "fell");
        let mut other = cols.clone();
        other[0].cause = Some("slipped".into());
        assert_eq!(failure_label(&other), "run fails");
        let ranges = failure_ranges(&other);
        let got: Vec<_> = ranges
            .iter()
            .map(|r| (r.from, r.to, r.count, r.cause.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (0.2, 0.2, 1, "fell"),
                (0.4, 0.4, 1, "fell"),
                (0.5, 0.5, 1, "slipped")
            ]
        );
        assert_eq!(
            failure_ranges(&cols)
                .iter()
                .map(|r| (r.from, r.to, r.count))
                .collect::<Vec<_>>(),
            [(0.2, 0.2, 1), (0.4, 0.5, 2)]
        );
        let r = failure_regions(&cols, "walker falls");
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].from, r[0].to), (0.2, 0.3));
        assert_eq!((r[1].from, r[1].to), (0.4, f64::INFINITY));
        assert_eq!(final_failure(&cols[1..4]), None);
        assert_eq!(first_failure(&cols[1..2]), None);
        let csv = diagram_csv(&cols[..2]);
        assert_eq!(
            csv,
            "param,sample,value,failed_at\n0.5,,,3\n0.1,0,0.1,\n0.1,1,0.2,\n"
        );
    }

    #[test]
    fn labels_text_and_fields() {
        assert_eq!(
            common_label(&["stable gait, up", "stable gait, down"]),
            "stable gait"
        );
        assert_eq!(common_label(&["a, up", "b, down"]), "a, up");
        assert_eq!(csv_field("a,b \"c\""), "\"a,b \"\"c\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
        let ms = [
            Multiplier::new(0.5, 0.25),
            Multiplier::new(0.5, -0.25),
            Multiplier::new(-1e-13, 0.0),
        ];
        assert_eq!(multipliers_text(&ms, 3), "0.500 ± 0.250i, 0.000");
        assert_eq!(param_symbol("gamma"), "γ");
        assert_eq!(param_symbol("lambda2"), "lambda2");
        assert_eq!(kind_key(BifurcationKind::PeriodDoubling), "period_doubling");
    }
}
