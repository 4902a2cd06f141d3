//! Orbit diagrams by brute force (as in Garcia et al.'s figure of the simplest walker): for each
//! parameter value, iterate the stride map from a start state, drop a transient, and record one
//! state component at every stride. Each stride starts where the last ended, in the mode it
//! ended in (a model with a sticking mode goes on sticking; only the first stride starts in
//! the stride options' `start_mode`). A stride that fails (no heel-strike: the walker falls)
//! ends that parameter's run and is reported with its cause in the model's own words (the
//! failure guard's text, the mode and guard names). Parameters run in parallel. The strides are
//! those of the stride settings the caller passes beside the diagram's own settings (a model
//! file's `orbit.stride`).

use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::stride_error;
use rayon::prelude::*;
use saltation_hybrid::{EvalModel, HybridError, JacobianKind, ModeStrides, StrideOptions};
use serde::{Deserialize, Serialize};
use std::sync::{Mutex, PoisonError};

/// Largest number of parameter values of one orbit diagram.
pub const MAX_DIAGRAM_COUNT: usize = 100_000;

/// Largest transient of an orbit diagram, in strides per parameter value.
pub const MAX_TRANSIENT: usize = 1_000_000;

/// Largest number of strides recorded per parameter value.
pub const MAX_KEEP: usize = 100_000;

/// Largest number of recorded values of one orbit diagram (parameter values × `keep`):
/// 10⁷ values, 80 MB.
pub const MAX_DIAGRAM_VALUES: usize = 10_000_000;

/// Settings of an orbit diagram (the stride settings are passed beside them).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OrbitDiagramOptions {
    /// Strides dropped before recording, in `0..=1 000 000` ([`MAX_TRANSIENT`]; default 200).
    pub transient: usize,
    /// Strides recorded, in `1..=100 000` ([`MAX_KEEP`]; default 100); with the number of
    /// parameter values, at most [`MAX_DIAGRAM_VALUES`] values in all.
    pub keep: usize,
    /// State component recorded: an index below the model's state dimension (default 0).
    pub component: usize,
}

impl Default for OrbitDiagramOptions {
    fn default() -> Self {
        Self {
            transient: 200,
            keep: 100,
            component: 0,
        }
    }
}

impl OrbitDiagramOptions {
    /// Checks every field against its documented range for a model with `dim` state
    /// components; the error names the field (`transient`, `keep`, `component`).
    pub fn validate(&self, dim: usize) -> Result<(), ContinuationError> {
        if self.transient > MAX_TRANSIENT {
            return Err(ContinuationError::invalid(
                "transient",
                format!("{} must be at most {MAX_TRANSIENT}", self.transient),
            ));
        }
        if !(1..=MAX_KEEP).contains(&self.keep) {
            return Err(ContinuationError::invalid(
                "keep",
                format!("{} must be in 1..={MAX_KEEP}", self.keep),
            ));
        }
        if self.component >= dim {
            return Err(ContinuationError::invalid(
                "component",
                format!(
                    "{} must be below the model's {dim} state component(s)",
                    self.component
                ),
            ));
        }
        Ok(())
    }
}

/// Checks that `params.len() × keep` recorded values stay within [`MAX_DIAGRAM_VALUES`];
/// `field` names the count.
pub(crate) fn check_total(count: usize, keep: usize, field: &str) -> Result<(), ContinuationError> {
    match count.checked_mul(keep) {
        Some(n) if n <= MAX_DIAGRAM_VALUES => Ok(()),
        _ => Err(ContinuationError::invalid(
            field,
            format!(
                "{count} parameter value(s) × keep = {keep} recorded stride(s) exceeds \
                 {MAX_DIAGRAM_VALUES} values"
            ),
        )),
    }
}

/// Checks a start state: `dim` finite values; `field` names it.
pub(crate) fn check_start(x: &[f64], dim: usize, field: &str) -> Result<(), ContinuationError> {
    if x.len() != dim {
        return Err(ContinuationError::invalid(
            field,
            format!(
                "has {} value(s), but the model has {dim} state component(s)",
                x.len()
            ),
        ));
    }
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(ContinuationError::invalid(
            format!("{field}[{i}]"),
            "is not finite",
        ));
    }
    Ok(())
}

/// The attractor at one parameter value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiagramColumn {
    /// Parameter value.
    pub param: f64,
    /// Recorded values of the chosen component (after the transient).
    pub values: Vec<f64>,
    /// Stride index (counting the transient) at which the run failed, if it did.
    pub failed_at: Option<usize>,
    /// Why it failed: the full message (with the time and state where it happened).
    pub failure: Option<String>,
    /// The cause of the failure in the model's own words, the same for every column that
    /// failed the same way (no times or states): the failure guard's text ("the walker fell
    /// (stance leg past horizontal)"), a mode none of whose guards was reached, a grazing
    /// guard, … ([`failure_cause`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
}

/// The cause of a failed stride in the model's own words, without the time or state of the
/// failure: what a range of failed columns has in common.
pub fn failure_cause<M: EvalModel + ?Sized>(model: &M, e: &HybridError) -> String {
    let mode = |m: usize| format!("`{}`", model.mode_name(m));
    // A guard's name where the model gives one (not just its index).
    let guard = |m: usize, g: usize| {
        let name = model.guard_name(m, g);
        if name.parse::<usize>().is_ok() {
            format!("{g}")
        } else {
            format!("`{name}`")
        }
    };
    match e {
        // The failure guard's own text.
        HybridError::Failure { what, .. } => what.clone(),
        HybridError::GuardNotReached { mode: m, .. } => {
            format!("no guard of mode {} reached within t_max", mode(*m))
        }
        HybridError::Grazing {
            mode: m, guard: g, ..
        } => {
            format!("grazing of guard {} in mode {}", guard(*m, *g), mode(*m))
        }
        HybridError::TooManyEvents { limit, .. } => {
            format!("more than {limit} events in one stride (Zeno?)")
        }
        HybridError::Ode { mode: m, .. } => format!("integration failed in mode {}", mode(*m)),
        HybridError::NoGuards { mode: m } => {
            format!("the stride ended in mode {}, which has no guards", mode(*m))
        }
        other => other.to_string(),
    }
}

/// Runs every parameter value in parallel from `x_start` (full state).
///
/// Checks first ([`ContinuationError::InvalidOption`] naming the field): at most
/// [`MAX_DIAGRAM_COUNT`] finite parameter values (`params[i]`), `stride`
/// ([`StrideOptions::validate`], named `stride.*`; its `start_mode` is the first stride's), `opts`
/// ([`OrbitDiagramOptions::validate`]), `x_start` of the model's dimension and finite, at most
/// [`MAX_DIAGRAM_VALUES`] recorded values; the model must be buildable at one of the values
/// at least (else [`ContinuationError::InvalidParameter`]). A value where it is not is a failed
/// column (`failed_at: Some(0)`).
pub fn orbit_diagram<F: ModelFamily>(
    family: &F,
    params: &[f64],
    x_start: &[f64],
    stride: &StrideOptions,
    opts: &OrbitDiagramOptions,
) -> Result<Vec<DiagramColumn>, ContinuationError> {
    orbit_diagram_with_progress(family, params, x_start, stride, opts, &|_, _| {})
}

/// The parameter values of a sweep: at most [`MAX_DIAGRAM_COUNT`], each finite (named
/// `params` / `params[i]`).
pub(crate) fn check_params(params: &[f64]) -> Result<(), ContinuationError> {
    if params.len() > MAX_DIAGRAM_COUNT {
        return Err(ContinuationError::invalid(
            "params",
            format!(
                "{} parameter values: at most {MAX_DIAGRAM_COUNT}",
                params.len()
            ),
        ));
    }
    if let Some(i) = params.iter().position(|p| !p.is_finite()) {
        return Err(ContinuationError::invalid(
            format!("params[{i}]"),
            "is not finite",
        ));
    }
    Ok(())
}

/// [`orbit_diagram`], calling `on_column(done, total)` from the worker threads each time a
/// parameter value is finished: the calls are serialised, with `done` = 1, 2, …, `total` in
/// order (keep `on_column` short: the next finished value waits for it).
pub fn orbit_diagram_with_progress<F: ModelFamily>(
    family: &F,
    params: &[f64],
    x_start: &[f64],
    stride: &StrideOptions,
    opts: &OrbitDiagramOptions,
    on_column: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<DiagramColumn>, ContinuationError> {
    check_params(params)?;
    check_total(params.len(), opts.keep, "params")?;
    let Some(first) = params.first() else {
        return Ok(Vec::new());
    };
    let dim = diagram_dim(family, params.iter().copied())
        .map_err(|(value, source)| ContinuationError::InvalidParameter {
            field: "params[0]".into(),
            value,
            source,
        })?
        .ok_or_else(|| {
            ContinuationError::invalid(
                "params",
                format!("the model cannot be built at any of them (first {first})"),
            )
        })?;
    stride.validate().map_err(|e| stride_error(e, "stride"))?;
    opts.validate(dim)?;
    check_start(x_start, dim, "x_start")?;
    let done = Mutex::new(0usize);
    let total = params.len();
    Ok(params
        .par_iter()
        .map(|&p| {
            let c = column(family, p, x_start, stride, opts);
            // A callback that panicked leaves the count as it was: carry on with it.
            let mut n = done.lock().unwrap_or_else(PoisonError::into_inner);
            *n += 1;
            on_column(*n, total);
            c
        })
        .collect())
}

/// The state dimension of the family's models: that of the first parameter value where the model
/// can be built (`Ok(None)` for no values; the first value's error if it cannot be built at
/// any).
pub(crate) fn diagram_dim<F: ModelFamily>(
    family: &F,
    params: impl Iterator<Item = f64>,
) -> Result<Option<usize>, (f64, saltation_hybrid::ParamError)> {
    let mut first_err = None;
    for p in params {
        match family.model_at(p) {
            Ok(m) => return Ok(Some(m.dim())),
            Err(e) => {
                first_err.get_or_insert((p, e));
            }
        }
    }
    match first_err {
        Some(e) => Err(e),
        None => Ok(None),
    }
}

fn column<F: ModelFamily>(
    family: &F,
    p: f64,
    x_start: &[f64],
    stride: &StrideOptions,
    opts: &OrbitDiagramOptions,
) -> DiagramColumn {
    // Grows as values are recorded (`keep` is bounded, but a run may fail early).
    let mut col = DiagramColumn {
        param: p,
        values: Vec::new(),
        failed_at: None,
        failure: None,
        cause: None,
    };
    let model = match family.model_at(p) {
        Ok(m) => m,
        Err(e) => {
            col.failed_at = Some(0);
            col.failure = Some(e.to_string());
            col.cause = col.failure.clone();
            return col;
        }
    };
    let fail = |col: &mut DiagramColumn, k: usize, e: &HybridError| {
        col.failed_at = Some(k);
        col.failure = Some(e.to_string());
        col.cause = Some(failure_cause(&model, e));
    };
    // Each stride starts in the mode the last one ended in.
    let mut maps = ModeStrides::new(&model, stride);
    let mut x = x_start.to_vec();
    // Both are bounded (`validate`), so the sum does not saturate in practice.
    let strides = opts.transient.saturating_add(opts.keep);
    for k in 0..strides {
        match maps.step(&x, JacobianKind::None) {
            Ok(r) => x = r.x,
            Err(e) => {
                fail(&mut col, k, &e);
                break;
            }
        }
        if k >= opts.transient {
            col.values
                .push(x.get(opts.component).copied().unwrap_or(f64::NAN));
        }
    }
    col
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::{alternating, bounce, broken_family, QuadraticBounce};
    use std::sync::Mutex;

    fn field_of<T: std::fmt::Debug>(r: Result<T, ContinuationError>) -> String {
        match r {
            Err(ContinuationError::InvalidOption { field, .. }) => field,
            other => panic!("expected InvalidOption, got {other:?}"),
        }
    }

    #[test]
    fn options_name_each_field() {
        let ok = OrbitDiagramOptions::default();
        assert_eq!(ok.validate(2), Ok(()));
        type Edit = fn(&mut OrbitDiagramOptions);
        let cases: &[(&str, Edit)] = &[
            ("transient", |o| o.transient = MAX_TRANSIENT + 1),
            ("transient", |o| o.transient = usize::MAX),
            ("keep", |o| o.keep = 0),
            ("keep", |o| o.keep = MAX_KEEP + 1),
            ("keep", |o| o.keep = usize::MAX),
            ("component", |o| o.component = 2),
            ("component", |o| o.component = 99),
        ];
        for (field, edit) in cases {
            let mut o = OrbitDiagramOptions::default();
            edit(&mut o);
            assert_eq!(field_of(o.validate(2)), *field, "{o:?}");
        }
        let o = OrbitDiagramOptions {
            transient: MAX_TRANSIENT,
            keep: MAX_KEEP,
            component: 1,
        };
        assert_eq!(o.validate(2), Ok(()));
    }

    /// The stride settings of these tests (DOP853 at 1e-10).
    fn stride() -> StrideOptions {
        let mut stride = StrideOptions::default();
        stride.ode.rtol = 1e-10;
        stride.ode.atol = saltation_ode::Atol::Scalar(1e-10);
        stride
    }

    #[test]
    fn orbit_diagram_checks_before_computing() {
        let opts = OrbitDiagramOptions {
            transient: 5,
            keep: 3,
            ..OrbitDiagramOptions::default()
        };
        let start = [0.0, 0.2];
        let f = |params: &[f64], start: &[f64], opts: &OrbitDiagramOptions| {
            field_of(orbit_diagram(&bounce, params, start, &stride(), opts))
        };
        assert_eq!(f(&[0.1, f64::NAN], &start, &opts), "params[1]");
        assert_eq!(f(&[0.1, f64::INFINITY], &start, &opts), "params[1]");
        let many = vec![0.1; MAX_DIAGRAM_COUNT + 1];
        assert_eq!(f(&many, &start, &opts), "params");
        assert_eq!(f(&[0.1], &[0.0], &opts), "x_start");
        assert_eq!(f(&[0.1], &[0.0, f64::NAN], &opts), "x_start[1]");
        let wide = OrbitDiagramOptions {
            keep: MAX_KEEP,
            ..opts.clone()
        };
        let values = vec![0.1; MAX_DIAGRAM_VALUES / MAX_KEEP + 1];
        assert_eq!(f(&values, &start, &wide), "params");
        let bad = OrbitDiagramOptions {
            component: 2,
            ..opts.clone()
        };
        assert_eq!(f(&[0.1], &start, &bad), "component");
        // The stride settings beside the diagram's are checked and named as such.
        let mut short = stride();
        short.t_max = -1.0;
        assert_eq!(
            field_of(orbit_diagram(&bounce, &[0.1], &start, &short, &opts)),
            "stride.t_max"
        );
        // A model that cannot be built anywhere is bad input, not a diagram of failures.
        assert!(matches!(
            orbit_diagram(&broken_family, &[0.1, 0.2], &start, &stride(), &opts),
            Err(ContinuationError::InvalidParameter { ref field, .. }) if field == "params[0]"
        ));
        assert_eq!(
            orbit_diagram(&bounce, &[], &start, &stride(), &opts),
            Ok(Vec::new())
        );
    }

    #[test]
    fn columns_converge_to_the_closed_form_and_report_progress() {
        // u ↦ u² + p from u = 0.2 converges to u* (multiplier 2u* < 0.53): after 60 strides the
        // error is below 0.53⁶⁰ ≈ 3e-17, so every recorded speed is u* to the integration
        // tolerance. Component 1 is the speed just after the bounce.
        let opts = OrbitDiagramOptions {
            transient: 60,
            keep: 4,
            component: 1,
        };
        let params = [0.05, 0.1, 0.15, 0.2];
        let seen = Mutex::new(Vec::new());
        let cols = orbit_diagram_with_progress(
            &bounce,
            &params,
            &[0.0, 0.2],
            &stride(),
            &opts,
            &|d, t| seen.lock().unwrap().push((d, t)),
        )
        .unwrap();
        assert_eq!(cols.len(), 4);
        for (c, p) in cols.iter().zip(params) {
            assert_eq!(c.param, p);
            assert_eq!(c.failed_at, None, "{:?}", c.failure);
            assert_eq!(c.values.len(), 4);
            let exact = QuadraticBounce::fixed_point(p);
            for v in &c.values {
                assert!((v - exact).abs() < 1e-8, "p = {p}: {v} vs {exact}");
            }
        }
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen, [(1, 4), (2, 4), (3, 4), (4, 4)], "in order");
    }

    #[test]
    fn each_stride_starts_in_the_mode_the_last_ended_in() {
        // Mode 0 lands into mode 1 with speed u² + p, mode 1 into mode 0 with speed p: carried
        // over, the speeds alternate p² + p, p (restarting in mode 0 every stride would iterate
        // u ↦ u² + p towards its fixed point instead).
        let p = 0.1;
        let opts = OrbitDiagramOptions {
            transient: 3,
            keep: 6,
            component: 1,
        };
        let cols = orbit_diagram(&alternating, &[p], &[0.0, 0.3], &stride(), &opts).unwrap();
        let c = &cols[0];
        assert_eq!(c.failed_at, None, "{:?}", c.failure);
        // Stride 0 gives 0.3² + p in mode 1, stride 1 gives p in mode 0, …: strides 0..3 are
        // the transient, stride 3 (the first recorded) ends in mode 0 with speed p.
        let expected = [p, p * p + p, p, p * p + p, p, p * p + p];
        assert_eq!(c.values.len(), expected.len());
        for (v, e) in c.values.iter().zip(expected) {
            assert!((v - e).abs() < 1e-9, "{:?} vs {expected:?}", c.values);
        }
    }

    #[test]
    fn a_failed_column_says_why_in_the_models_words() {
        // A stride time limit shorter than the flight: no landing within t_max.
        let opts = OrbitDiagramOptions {
            transient: 0,
            keep: 2,
            ..OrbitDiagramOptions::default()
        };
        let mut short = stride();
        short.t_max = 0.1;
        let cols = orbit_diagram(&bounce, &[0.1, 0.2], &[0.0, 0.3], &short, &opts).unwrap();
        for c in &cols {
            assert_eq!(c.failed_at, Some(0));
            assert!(c.failure.as_deref().is_some_and(|f| f.contains("t = 0.1")));
            assert_eq!(
                c.cause.as_deref(),
                Some("no guard of mode `mode 0` reached within t_max")
            );
        }
    }
}
