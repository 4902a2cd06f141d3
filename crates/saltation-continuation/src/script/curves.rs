//! Two-parameter curves asked for by a continuation script: from the bifurcations of one kind
//! found on one of its branches, each continued in the script's parameter `P` and a second
//! parameter `P2` ([`crate::continue_curve_from`]) until `P2` reaches `to2` or a limit.

use super::{ContinuationSpec, ScriptResult};
use crate::branch::Bifurcation;
use crate::curve::{
    continue_curve_from, Curve, CurveDirection, CurveKind, CurveOptions, CurveProgress, PlaneFamily,
};
use crate::error::ContinuationError;
use crate::options::{ContinuationOptions, Predictor, MAX_POINTS};
use saltation_hybrid::{param_index, EvalModel};
use saltation_ode::Num;
use saltation_orbit::OrbitOptions;
use serde::{Deserialize, Serialize};

/// Largest number of curve requests in one script ([`ContinuationSpec::curves`]).
pub const MAX_CURVES: usize = 100;

/// Largest number of curves one request may start (one per bifurcation of its kind on its
/// branch).
pub const MAX_CURVES_PER_REQUEST: usize = 20;

/// A request for two-parameter curves: the bifurcations of `kind` on the branch `branch` (all
/// of them, or the one `index`), each continued in the script's parameter and `param2` until
/// `param2` reaches `to2`. Checked by [`CurveSpec::validate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveSpec {
    /// Which bifurcation the curves follow: fold, period doubling or Neimark–Sacker (grazing
    /// curves are not implemented).
    pub kind: CurveKind,
    /// The label of the script's branch (one of [`ContinuationSpec::branches`]) whose
    /// bifurcations of `kind` the curves start from.
    pub branch: String,
    /// Which of them, counted from 0 in the order the branch found them; `None`: every one
    /// (at most [`MAX_CURVES_PER_REQUEST`]).
    pub index: Option<usize>,
    /// The second parameter: a real-valued parameter of the model other than the script's.
    pub param2: String,
    /// Where each curve ends: this value of `param2` (finite, not the model's value).
    pub to2: f64,
    /// Which way the curves leave their start (towards `to2` by default).
    pub direction: CurveDirection,
    /// Largest number of points per curve (default: the script's `settings.max_points`), in
    /// `1..=100 000`.
    pub max_points: Option<usize>,
}

/// One curve a script computed, or why a requested one could not start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptCurve {
    /// Index of the request in [`ContinuationSpec::curves`].
    pub request: usize,
    /// The branch it starts from.
    pub branch: String,
    /// Which bifurcation of the branch (0-based, among those of the kind).
    pub index: usize,
    /// The curve, or `None` when it could not start.
    pub curve: Option<Curve>,
    /// Why it could not start (`None` when it did).
    pub not_started: Option<String>,
}

impl CurveSpec {
    /// Checks the request for a script in `param` with branch labels `labels`, on `model` (a
    /// model of the script, for the parameter names and `param2`'s value). Errors name the
    /// field relative to the request (`kind`, `branch`, `param2`, `to2`, `max_points`);
    /// [`ContinuationSpec::validate`] prefixes `curves[i].`.
    pub fn validate(
        &self,
        param: &str,
        labels: &[&str],
        model: &dyn EvalModel,
    ) -> Result<(), ContinuationError> {
        if self.kind == CurveKind::Grazing {
            return Err(ContinuationError::invalid(
                "kind",
                "a script's curves follow fold, period_doubling or neimark_sacker points of \
                 its branches; a grazing curve is continued by `saltation curve --kind grazing`",
            ));
        }
        if !labels.contains(&self.branch.as_str()) {
            return Err(ContinuationError::invalid(
                "branch",
                format!(
                    "\"{}\" is not the label of a branch of the script (they are: {})",
                    self.branch,
                    labels
                        .iter()
                        .map(|l| format!("\"{l}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        let k2 = param_index(model, &self.param2)
            .map_err(|e| ContinuationError::invalid("param2", e.to_string()))?;
        if param_index(model, param).is_ok_and(|k| k == k2) {
            return Err(ContinuationError::invalid(
                "param2",
                format!(
                    "`{}` is the script's parameter: a curve needs a second one",
                    self.param2
                ),
            ));
        }
        if !self.to2.is_finite() {
            return Err(ContinuationError::invalid(
                "to2",
                format!("{} must be finite", Num(self.to2)),
            ));
        }
        let value = model.param_value(k2).unwrap_or(f64::NAN);
        if self.to2 == value {
            return Err(ContinuationError::invalid(
                "to2",
                format!(
                    "{} is the model's value of `{}`: the curve would have no length",
                    Num(self.to2),
                    self.param2
                ),
            ));
        }
        if let Some(m) = self.max_points {
            if !(1..=MAX_POINTS).contains(&m) {
                return Err(ContinuationError::invalid(
                    "max_points",
                    format!("{m} must be in 1..={MAX_POINTS}"),
                ));
            }
        }
        Ok(())
    }

    /// The curve options of this request with the script's settings.
    fn options(&self, settings: &ContinuationOptions) -> CurveOptions {
        let mut opts = CurveOptions::to(self.to2);
        opts.direction = self.direction;
        opts.settings = settings.clone();
        if let Some(m) = self.max_points {
            opts.settings.max_points = m;
        }
        opts
    }
}

/// Checks the script's curve requests (after its branches): at most [`MAX_CURVES`], each
/// [`CurveSpec::validate`] on `model`.
pub(crate) fn validate_curves(
    spec: &ContinuationSpec,
    model: Option<&dyn EvalModel>,
) -> Result<(), ContinuationError> {
    if spec.curves.is_empty() {
        return Ok(());
    }
    if spec.curves.len() > MAX_CURVES {
        return Err(ContinuationError::invalid(
            "curves",
            format!("{} curves: at most {MAX_CURVES}", spec.curves.len()),
        ));
    }
    let Some(model) = model else {
        return Err(ContinuationError::invalid(
            "curves",
            "curves start from the bifurcations of the script's branches, and it has none",
        ));
    };
    if matches!(spec.settings.predictor, Predictor::EventTime { .. }) {
        return Err(ContinuationError::invalid(
            "curves",
            "curves are continued in arclength in the parameter plane: the section's \
             `settings.predictor` must be Arclength or Natural, not EventTime",
        ));
    }
    let labels: Vec<&str> = spec.branches.iter().map(|b| b.label.as_str()).collect();
    for (i, c) in spec.curves.iter().enumerate() {
        c.validate(&spec.param, &labels, model)
            .map_err(|e| e.within(&format!("curves[{i}].")))?;
    }
    Ok(())
}

/// Runs the curves `spec` asks for from the branches of its `result`, on `model` (the model
/// the script ran on: the second parameter's value is its value) with the orbit options
/// `orbit`. The request is checked first ([`ContinuationSpec::validate_curves_on`]): bad input
/// is an error naming the field. A curve that cannot start — no such bifurcation on the
/// branch, a singular defining system there, a kind refused — is recorded with why; a
/// computed curve may still end early ([`crate::CurveEnd`]). `progress` sees the index of the
/// curve (in the returned order) and its progress.
pub fn run_script_curves<M: EvalModel + Clone + Sync>(
    model: &M,
    orbit: &OrbitOptions,
    spec: &ContinuationSpec,
    result: &ScriptResult,
    progress: &mut dyn FnMut(usize, CurveProgress),
) -> Result<Vec<ScriptCurve>, ContinuationError> {
    spec.validate_curves_on(model)?;
    let mut out = Vec::new();
    for (request, c) in spec.curves.iter().enumerate() {
        let family = PlaneFamily::new(model.clone(), &spec.param, &c.param2)
            .map_err(|e| e.within(&format!("curves[{request}].")))?;
        let p2 = family.base_values()[1];
        let opts = c.options(&spec.settings);
        // The section's branch itself (the first of that label: branches switched onto at
        // period doublings have labels of their own).
        let branch = result.branches.iter().find(|b| b.label == c.branch);
        let found: Vec<&Bifurcation> = branch
            .map(|b| {
                b.bifurcations
                    .iter()
                    .filter(|x| x.kind == c.kind.bifurcation())
                    .collect()
            })
            .unwrap_or_default();
        let wanted: Vec<usize> = match c.index {
            Some(i) => vec![i],
            None => (0..found.len().min(MAX_CURVES_PER_REQUEST)).collect(),
        };
        let skipped =
            (c.index.is_none() && found.len() > MAX_CURVES_PER_REQUEST).then(|| ScriptCurve {
                request,
                branch: c.branch.clone(),
                index: MAX_CURVES_PER_REQUEST,
                curve: None,
                not_started: Some(format!(
                    "branch \"{}\" has {} {}s: only the first {MAX_CURVES_PER_REQUEST} are \
                     continued (ask for the others with `index`)",
                    c.branch,
                    found.len(),
                    c.kind.bifurcation().name()
                )),
            });
        if wanted.is_empty() || branch.is_none() {
            out.push(ScriptCurve {
                request,
                branch: c.branch.clone(),
                index: 0,
                curve: None,
                not_started: Some(format!(
                    "no {} on branch \"{}\"",
                    c.kind.bifurcation().name(),
                    c.branch
                )),
            });
            continue;
        }
        for index in wanted {
            let Some(bif) = found.get(index) else {
                out.push(ScriptCurve {
                    request,
                    branch: c.branch.clone(),
                    index,
                    curve: None,
                    not_started: Some(format!(
                        "branch \"{}\" has {} {}(s); index {index} asks for one more",
                        c.branch,
                        found.len(),
                        c.kind.bifurcation().name()
                    )),
                });
                continue;
            };
            let k = branch.map_or(1, |b| b.period_k);
            let n = out.len();
            let curve = continue_curve_from(&family, c.kind, bif, p2, k, orbit, &opts, &mut |p| {
                progress(n, p)
            });
            let (curve, not_started) = match curve {
                Ok(cv) => (Some(cv), None),
                Err(e) if e.is_input_error() => {
                    return Err(e.within(&format!("curves[{request}].")))
                }
                Err(e) => (None, Some(e.to_string())),
            };
            out.push(ScriptCurve {
                request,
                branch: c.branch.clone(),
                index,
                curve,
                not_started,
            });
        }
        out.extend(skipped);
    }
    Ok(out)
}

impl ContinuationSpec {
    /// Checks the curve requests on `model` (a model of the script): as
    /// [`ContinuationSpec::validate`] does for them.
    pub fn validate_curves_on(&self, model: &dyn EvalModel) -> Result<(), ContinuationError> {
        validate_curves(self, (!self.branches.is_empty()).then_some(model))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::{Codim2Kind, CurveEnd};
    use crate::family::ParamFamily;
    use crate::script::{run_script, BranchSpec};
    use crate::test_models::CuspBounce;
    use saltation_hybrid::Bound;

    /// The cusp map `x ↦ x + a + b x − x³` at `a = −0.016`.
    fn model() -> Bound<CuspBounce> {
        PlaneFamily::new(Bound::new(CuspBounce), "b", "a")
            .unwrap()
            .model_at(0.3, -0.016)
            .unwrap()
    }

    /// A script in `b` from 0.3 down (its fold at `b = 3 (a/2)^{2/3} = 0.12`, where it turns),
    /// asking for the fold curve in `a` up to 0.016.
    fn spec() -> ContinuationSpec {
        let settings = ContinuationOptions {
            step: 0.01,
            ..ContinuationOptions::default()
        };
        ContinuationSpec {
            param: "b".into(),
            branches: vec![BranchSpec {
                label: "down".into(),
                from: 0.3,
                to: -0.3,
                guess: vec![1.52],
                period_doublings: 0,
                max_points: None,
            }],
            settings,
            orbit_diagram: None,
            curves: vec![CurveSpec {
                kind: CurveKind::Fold,
                branch: "down".into(),
                index: None,
                param2: "a".into(),
                to2: 0.016,
                direction: CurveDirection::Forward,
                max_points: None,
            }],
        }
    }

    /// The script's fold, continued in `(b, a)`: the closed-form fold curve
    /// `b = 3 (a/2)^{2/3}` through its cusp at the origin, ending exactly at `a = 0.016`.
    #[test]
    fn a_script_continues_the_fold_of_its_branch_in_a_second_parameter() {
        let m = model();
        let family = ParamFamily::new(m.clone(), "b").unwrap();
        let orbit = OrbitOptions::default();
        let s = spec();
        let r = run_script(&family, &orbit, &s, &mut |_| {}).unwrap();
        let curves = run_script_curves(&m, &orbit, &s, &r, &mut |_, _| {}).unwrap();
        assert_eq!(curves.len(), 1, "{curves:?}");
        let c = curves[0].curve.as_ref().expect("started");
        assert_eq!((curves[0].request, curves[0].index), (0, 0));
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        assert!((c.start.param - 0.12).abs() < 1e-9, "{}", c.start.param);
        for p in &c.points {
            let [b, a] = p.params;
            assert!(
                (b - 3.0 * (a / 2.0).cbrt().powi(2)).abs() < 1e-9,
                "({b}, {a})"
            );
        }
        assert_eq!(c.points.last().unwrap().params[1], 0.016);
        assert!(c.codim2.iter().any(|x| x.kind == Codim2Kind::Cusp));
        // The section's `settings.shooting` applies to its curves: by multiple shooting (the
        // flight in two pieces) the same closed form, to the same end.
        let mut ms = spec();
        ms.settings.shooting = saltation_orbit::Shooting::Multiple {
            segments: saltation_orbit::Segments::PerMode(2),
        };
        let curves = run_script_curves(&m, &orbit, &ms, &r, &mut |_, _| {}).unwrap();
        let c = curves[0].curve.as_ref().expect("started");
        assert_eq!(c.end, CurveEnd::Reached, "{}", c.end);
        for p in &c.points {
            let [b, a] = p.params;
            assert!(
                (b - 3.0 * (a / 2.0).cbrt().powi(2)).abs() < 1e-9,
                "({b}, {a})"
            );
        }
        assert_eq!(c.points.last().unwrap().params[1], 0.016);
        // Backward: away from a = 0.016, towards more negative a.
        let mut back = spec();
        back.curves[0].direction = CurveDirection::Backward;
        back.curves[0].max_points = Some(5);
        let curves = run_script_curves(&m, &orbit, &back, &r, &mut |_, _| {}).unwrap();
        let c = curves[0].curve.as_ref().expect("started");
        assert_eq!(c.points.len(), 5);
        assert!(c.points.iter().skip(1).all(|p| p.params[1] < -0.016));
        // A fold the branch does not have: recorded as not started, saying why.
        let mut second = spec();
        second.curves[0].index = Some(1);
        let curves = run_script_curves(&m, &orbit, &second, &r, &mut |_, _| {}).unwrap();
        assert!(curves[0].curve.is_none());
        let why = curves[0].not_started.as_deref().unwrap();
        assert!(
            why.contains("has 1 fold") && why.contains("index 1"),
            "{why}"
        );
        let mut pd = spec();
        pd.curves[0].kind = CurveKind::PeriodDoubling;
        let curves = run_script_curves(&m, &orbit, &pd, &r, &mut |_, _| {}).unwrap();
        assert_eq!(
            curves[0].not_started.as_deref(),
            Some("no period doubling on branch \"down\"")
        );
    }

    /// Every field of a request is checked, and named.
    #[test]
    fn curve_requests_are_checked_and_named() {
        let m = model();
        let field = |edit: &dyn Fn(&mut ContinuationSpec)| {
            let mut s = spec();
            edit(&mut s);
            let family = ParamFamily::new(m.clone(), "b").unwrap();
            match s.validate(&family, &OrbitOptions::default()) {
                Err(e) => {
                    assert!(e.is_input_error(), "{e}");
                    e.field().map(str::to_string)
                }
                Ok(()) => None,
            }
        };
        assert_eq!(field(&|_| {}), None);
        type Edit<'a> = &'a dyn Fn(&mut ContinuationSpec);
        let cases: [(&str, Edit<'_>); 10] = [
            ("curves[0].kind", &|s| s.curves[0].kind = CurveKind::Grazing),
            ("curves[0].branch", &|s| s.curves[0].branch = "up".into()),
            ("curves[0].param2", &|s| s.curves[0].param2 = "nope".into()),
            ("curves[0].param2", &|s| s.curves[0].param2 = "b".into()),
            ("curves[0].to2", &|s| s.curves[0].to2 = f64::NAN),
            ("curves[0].to2", &|s| s.curves[0].to2 = -0.016),
            ("curves[0].max_points", &|s| {
                s.curves[0].max_points = Some(0)
            }),
            ("curves", &|s| {
                s.settings.predictor = Predictor::EventTime { event: 0 };
            }),
            ("curves", &|s| {
                s.curves = vec![s.curves[0].clone(); MAX_CURVES + 1];
            }),
            ("curves", &|s| {
                s.branches.clear();
                s.orbit_diagram = Some(crate::script::DiagramSpec {
                    from: 0.1,
                    to: 0.2,
                    count: 2,
                    start: vec![0.0, 1.0],
                    settings: Default::default(),
                });
            }),
        ];
        for (want, edit) in cases {
            assert_eq!(field(edit).as_deref(), Some(want));
        }
    }
}
