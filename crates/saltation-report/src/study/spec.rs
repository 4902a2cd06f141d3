//! The study file (`models/monopod_study.ron`): which parameter sets, solvers, tolerances and
//! phase-switch strategies to run, how the reference is made and how the runs are scored.
//! Every field has the study's default, so `()` is the whole study.

use saltation_hybrid::Bound;
use saltation_models::monopod::{Monopod, Strategy};
use saltation_ode::Method;
use saltation_scenario::{field_offset, line_column, read_text_file, ron_options, FileError};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One parameter set of the monopod (the phase-switch strategy is chosen per run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamSet {
    /// Ground damping `b*`.
    pub b: f64,
    /// Toe mass `m1*`.
    pub m1: f64,
    /// Ground stiffness `k*`.
    pub k: f64,
    /// Weight `f*`.
    pub f: f64,
}

impl ParamSet {
    /// The parameter values `[b*, m1*, k*, f*]`.
    pub fn values(&self) -> [f64; 4] {
        [self.b, self.m1, self.k, self.f]
    }

    /// The monopod with these parameters (not checked: [`StudySpec::validate`] does) and a
    /// strategy.
    pub fn model(&self, strategy: Strategy) -> Bound<Monopod> {
        Monopod::new(strategy).at(self.values())
    }
}

/// How the reference solution is made: `method` at `tol` (rtol = atol) with events, checked
/// against `check_method` at `check_tol`; the largest difference in `y1` on the grid is the
/// stated error estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReferenceSpec {
    /// Reference method (default DOP853).
    pub method: Method,
    /// Its tolerance (default 1e-15).
    pub tol: f64,
    /// The independent cross-check (default Radau IIA 5).
    pub check_method: Method,
    /// Its tolerance (default 1e-13).
    pub check_tol: f64,
    /// Accepted steps allowed per segment for the reference runs (default 10 000 000; the
    /// runs' own limit is `max_steps`).
    pub max_steps: usize,
}

impl Default for ReferenceSpec {
    fn default() -> Self {
        Self {
            method: Method::Dop853,
            tol: 1e-15,
            check_method: Method::Radau5,
            check_tol: 1e-13,
            max_steps: 10_000_000,
        }
    }
}

/// The weighted ranking of the study's Table 5: `p = w_sd p_SD + w_dt p_DT + w_iae p_IAE` for
/// one strategy and tolerance.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RankingSpec {
    /// Strategy (default if-else).
    pub strategy: Strategy,
    /// Tolerance (default 1e-6; must be one of the study's).
    pub tol: f64,
    /// Weight of the solution-duration points (default 2).
    pub w_sd: f64,
    /// Weight of the divergence-time points (default 0).
    pub w_dt: f64,
    /// Weight of the integrated-error points (default 1).
    pub w_iae: f64,
}

impl Default for RankingSpec {
    fn default() -> Self {
        Self {
            strategy: Strategy::IfElse,
            tol: 1e-6,
            w_sd: 2.0,
            w_dt: 0.0,
            w_iae: 1.0,
        }
    }
}

/// Which runs the response and error figures (the study's Figures 2 and 3) show.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FigureSpec {
    /// 1-based index into `sets` (default 5, the nominal set of Table 2).
    pub set: usize,
    /// Tolerance (default 1e-3; must be one of the study's).
    pub tol: f64,
    /// Strategy (default if-else).
    pub strategy: Strategy,
}

impl Default for FigureSpec {
    fn default() -> Self {
        Self {
            set: 5,
            tol: 1e-3,
            strategy: Strategy::IfElse,
        }
    }
}

/// The whole study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StudySpec {
    /// Parameter sets (default: the 13 of Table 2).
    pub sets: Vec<ParamSet>,
    /// Solvers (default: the seven MATLAB analogs, DOP853 and Radau IIA 5).
    pub methods: Vec<Method>,
    /// Tolerances, each used as rtol = atol (default 1e-3, 1e-6, 1e-9).
    pub tolerances: Vec<f64>,
    /// Divergence threshold ε of eq. (32) for each tolerance (default 0.05, 0.01, 0.01).
    pub epsilon: Vec<f64>,
    /// Phase-switch strategies (default both).
    pub strategies: Vec<Strategy>,
    /// Initial state (default `[0.5, 0, 1.5, 0]`).
    pub initial: [f64; 4],
    /// End time (default 50).
    pub t_end: f64,
    /// Step of the uniform grid on which DT and IAE are evaluated (default 0.001).
    pub grid_step: f64,
    /// DT is evaluated only where `|y1_ref| ≥ dt_floor` (default 0.05).
    pub dt_floor: f64,
    /// The reference solution.
    pub reference: ReferenceSpec,
    /// Timed repeats per run; SD is their median (default 5; fewer when a run is slow, see
    /// `repeat_budget_s`).
    pub repeats: usize,
    /// No further timed repeat of a run starts after this much time spent timing it (default
    /// 0.2 s: a run slower than that is timed once).
    pub repeat_budget_s: f64,
    /// Accepted steps allowed per integration segment before a run counts as failed
    /// (default 1 000 000).
    pub max_steps: usize,
    /// The weighted ranking (Table 5).
    pub ranking: RankingSpec,
    /// The response and error figures.
    pub figures: FigureSpec,
}

impl Default for StudySpec {
    fn default() -> Self {
        Self {
            sets: Monopod::TABLE2
                .iter()
                .map(|&[b, m1, k, f]| ParamSet { b, m1, k, f })
                .collect(),
            methods: vec![
                Method::Dp5,
                Method::Bs23,
                Method::Abm,
                Method::Ndf,
                Method::Rosenbrock23,
                Method::Trapezoid,
                Method::Trbdf2,
                Method::Dop853,
                Method::Radau5,
            ],
            tolerances: vec![1e-3, 1e-6, 1e-9],
            epsilon: vec![0.05, 0.01, 0.01],
            strategies: vec![Strategy::IfElse, Strategy::Events],
            initial: Monopod::Q0,
            t_end: Monopod::T_END,
            grid_step: 1e-3,
            dt_floor: 0.05,
            reference: ReferenceSpec::default(),
            repeats: 5,
            repeat_budget_s: 0.2,
            max_steps: 1_000_000,
            ranking: RankingSpec::default(),
            figures: FigureSpec::default(),
        }
    }
}

/// Largest number of parameter sets.
pub const MAX_SETS: usize = 1000;
/// Largest number of tolerances.
pub const MAX_TOLERANCES: usize = 20;
/// Largest number of grid points (`round(t_end / grid_step) + 1`, [`StudySpec::grid`]).
pub const MAX_GRID: f64 = 10_000_000.0;
/// Largest number of timed repeats.
pub const MAX_REPEATS: usize = 100;
/// Largest `max_steps`.
pub const MAX_STEPS: usize = 100_000_000;

/// A failed check: the field's path and why.
type Check = Result<(), (String, String)>;

fn fail(field: impl Into<String>, reason: impl Into<String>) -> Check {
    Err((field.into(), reason.into()))
}

fn tol_ok(t: f64) -> bool {
    t.is_finite() && (1e-16..=0.1).contains(&t)
}

impl StudySpec {
    /// Grid times `0, h, 2h, …, t_end` (the last one exactly `t_end`).
    pub fn grid(&self) -> Vec<f64> {
        let n = (self.t_end / self.grid_step).round() as usize;
        (0..=n)
            .map(|i| (i as f64 * self.grid_step).min(self.t_end))
            .collect()
    }

    /// Runs per parameter set (solvers × tolerances × strategies).
    pub fn runs_per_set(&self) -> usize {
        self.strategies.len() * self.tolerances.len() * self.methods.len()
    }

    /// Progress steps of the whole study: every run, and each set's reference.
    pub fn progress_steps(&self) -> usize {
        self.sets.len() * (self.runs_per_set() + 1)
    }

    /// Checks every field; on failure, the field's path and the reason.
    pub fn validate(&self) -> Result<(), (String, String)> {
        if self.sets.is_empty() || self.sets.len() > MAX_SETS {
            return fail("sets", format!("give 1 to {MAX_SETS} parameter sets"));
        }
        for (i, s) in self.sets.iter().enumerate() {
            use saltation_hybrid::EvalModel;
            if let Err(e) = s.model(Strategy::Events).check_params() {
                return fail(format!("sets[{i}]"), e.to_string());
            }
        }
        if self.methods.is_empty() {
            return fail("methods", "give at least one method");
        }
        for (i, m) in self.methods.iter().enumerate() {
            if !m.is_adaptive() {
                return fail(
                    format!("methods[{i}]"),
                    format!(
                        "{} has a fixed step; the study needs error control",
                        m.name()
                    ),
                );
            }
            if self.methods[..i].contains(m) {
                return fail(
                    format!("methods[{i}]"),
                    format!("{} is listed twice", m.name()),
                );
            }
        }
        if self.tolerances.is_empty() || self.tolerances.len() > MAX_TOLERANCES {
            return fail(
                "tolerances",
                format!("give 1 to {MAX_TOLERANCES} tolerances"),
            );
        }
        for (i, &t) in self.tolerances.iter().enumerate() {
            if !tol_ok(t) {
                return fail(format!("tolerances[{i}]"), "must be in [1e-16, 0.1]");
            }
            if self.tolerances[..i].contains(&t) {
                return fail(format!("tolerances[{i}]"), "is listed twice");
            }
        }
        if self.epsilon.len() != self.tolerances.len() {
            return fail(
                "epsilon",
                format!(
                    "{} value(s) for {} tolerance(s): give one threshold per tolerance",
                    self.epsilon.len(),
                    self.tolerances.len()
                ),
            );
        }
        if let Some(i) = self
            .epsilon
            .iter()
            .position(|e| !(e.is_finite() && *e > 0.0))
        {
            return fail(format!("epsilon[{i}]"), "must be finite and > 0");
        }
        if self.strategies.is_empty()
            || (self.strategies.len() == 2 && self.strategies[0] == self.strategies[1])
            || self.strategies.len() > 2
        {
            return fail("strategies", "give IfElse, Events or both, each once");
        }
        if self.initial.iter().any(|v| !v.is_finite()) {
            return fail("initial", "every value must be finite");
        }
        if !(self.t_end.is_finite() && self.t_end > 0.0 && self.t_end <= 1e4) {
            return fail("t_end", "must be in (0, 1e4]");
        }
        if !(self.grid_step.is_finite() && self.grid_step > 0.0) {
            return fail("grid_step", "must be finite and > 0");
        }
        if self.grid_step > self.t_end {
            return fail(
                "grid_step",
                "must not exceed t_end (the grid would be the single point t = 0: nothing to \
                 compare)",
            );
        }
        // The grid has round(t_end / grid_step) + 1 points (`StudySpec::grid`).
        if (self.t_end / self.grid_step).round() + 1.0 > MAX_GRID {
            return fail("grid_step", "gives more than 1e7 grid points");
        }
        if !(self.dt_floor.is_finite() && self.dt_floor >= 0.0) {
            return fail("dt_floor", "must be finite and >= 0");
        }
        let r = &self.reference;
        if !tol_ok(r.tol) {
            return fail("reference.tol", "must be in [1e-16, 0.1]");
        }
        if !tol_ok(r.check_tol) {
            return fail("reference.check_tol", "must be in [1e-16, 0.1]");
        }
        if !r.method.is_adaptive() {
            return fail("reference.method", "must have error control");
        }
        if !r.check_method.is_adaptive() {
            return fail("reference.check_method", "must have error control");
        }
        if r.max_steps == 0 || r.max_steps > MAX_STEPS {
            return fail("reference.max_steps", format!("must be 1 to {MAX_STEPS}"));
        }
        if self.repeats == 0 || self.repeats > MAX_REPEATS {
            return fail("repeats", format!("must be 1 to {MAX_REPEATS}"));
        }
        if !(self.repeat_budget_s.is_finite() && self.repeat_budget_s >= 0.0) {
            return fail("repeat_budget_s", "must be finite and >= 0");
        }
        if self.max_steps == 0 || self.max_steps > MAX_STEPS {
            return fail("max_steps", format!("must be 1 to {MAX_STEPS}"));
        }
        let k = &self.ranking;
        if !self.tolerances.contains(&k.tol) {
            return fail("ranking.tol", "must be one of `tolerances`");
        }
        if !self.strategies.contains(&k.strategy) {
            return fail("ranking.strategy", "must be one of `strategies`");
        }
        for (name, w) in [("w_sd", k.w_sd), ("w_dt", k.w_dt), ("w_iae", k.w_iae)] {
            if !(w.is_finite() && w >= 0.0) {
                return fail(format!("ranking.{name}"), "must be finite and >= 0");
            }
        }
        let g = &self.figures;
        if g.set == 0 || g.set > self.sets.len() {
            return fail(
                "figures.set",
                format!(
                    "must be 1 to {} (a 1-based index into sets)",
                    self.sets.len()
                ),
            );
        }
        if !self.tolerances.contains(&g.tol) {
            return fail("figures.tol", "must be one of `tolerances`");
        }
        if !self.strategies.contains(&g.strategy) {
            return fail("figures.strategy", "must be one of `strategies`");
        }
        Ok(())
    }

    /// Parses study-file text (`origin` names it in errors) and validates it; a failed check
    /// points at its field in the text.
    pub fn parse(text: &str, origin: &str) -> Result<StudySpec, FileError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let spec = ron_options()
            .from_str::<StudySpec>(text)
            .map_err(|e| FileError::Parse {
                origin: origin.to_string(),
                line: e.span.start.line,
                column: e.span.start.col,
                message: e.code.to_string(),
            })?;
        if let Err((field, reason)) = spec.validate() {
            let (line, column) = line_column(text, field_offset(text, &field));
            return Err(FileError::Parse {
                origin: origin.to_string(),
                line,
                column,
                message: format!("{field}: {reason}"),
            });
        }
        Ok(spec)
    }

    /// Reads and parses a study file.
    pub fn load(path: &Path) -> Result<StudySpec, FileError> {
        let text = read_text_file(path)?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The divergence threshold ε for tolerance index `i`.
    pub fn epsilon_for(&self, i: usize) -> f64 {
        self.epsilon[i]
    }
}
