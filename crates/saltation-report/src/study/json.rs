//! The JSON output of `saltation study --json` (a public interface: exactly these keys).

use super::points::Points;
use super::runner::{study_name, StudyResult};
use super::spec::StudySpec;
use serde::{Deserialize, Serialize};

/// How the reference was made and its estimated error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReferenceJson {
    /// Reference method.
    pub method: String,
    /// Its tolerance (rtol = atol).
    pub rtol: f64,
    /// Largest difference in `y1` on the grid from the cross-check, over all sets.
    pub error_estimate: f64,
}

/// Stiffness of one set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StiffnessJson {
    /// 1-based set index.
    pub set: usize,
    /// SR at the study's equilibrium (29).
    pub sr_eq29: f64,
    /// SR at the true equilibrium.
    pub sr_true: f64,
}

/// One run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunJson {
    /// 1-based set index.
    pub set: usize,
    /// Solver (MATLAB name for the analogs).
    pub method: String,
    /// Tolerance.
    pub tol: f64,
    /// `"if-else"` or `"events"`.
    pub strategy: String,
    /// Solution duration (s); null for a failed run.
    pub sd_s: Option<f64>,
    /// Divergence time; null for a failed run.
    pub dt: Option<f64>,
    /// Integral of the absolute error; null for a failed run.
    pub iae: Option<f64>,
    /// Vector-field evaluations.
    pub rhs_evals: usize,
    /// Accepted steps.
    pub steps: usize,
    /// Touchdowns.
    pub contacts: usize,
    /// `"ok"` or why the run failed.
    pub status: String,
}

/// Points of one method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsJson {
    /// Strategy.
    pub strategy: String,
    /// Tolerance.
    pub tol: f64,
    /// `"SD"`, `"DT"` or `"IAE"`.
    pub criterion: String,
    /// Solver.
    pub method: String,
    /// Points summed over the sets.
    pub points: f64,
}

/// The whole study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StudyJson {
    /// The reference.
    pub reference: ReferenceJson,
    /// Stiffness per set.
    pub stiffness: Vec<StiffnessJson>,
    /// Every run.
    pub runs: Vec<RunJson>,
    /// Points.
    pub points: Vec<PointsJson>,
}

/// The JSON object of a finished study.
pub fn study_json(spec: &StudySpec, r: &StudyResult, points: &[Points]) -> StudyJson {
    StudyJson {
        reference: ReferenceJson {
            method: study_name(spec.reference.method).into(),
            rtol: spec.reference.tol,
            error_estimate: r.error_estimate(),
        },
        stiffness: r
            .stiffness
            .iter()
            .enumerate()
            .map(|(i, s)| StiffnessJson {
                set: i + 1,
                sr_eq29: s.sr_eq29,
                sr_true: s.sr_true,
            })
            .collect(),
        runs: r
            .runs
            .iter()
            .map(|x| RunJson {
                set: x.set,
                method: study_name(x.method).into(),
                tol: x.tol,
                strategy: x.strategy.name().into(),
                sd_s: x.sd_s,
                dt: x.dt,
                iae: x.iae,
                rhs_evals: x.rhs_evals,
                steps: x.steps,
                contacts: x.contacts,
                status: x.status.clone(),
            })
            .collect(),
        points: points
            .iter()
            .map(|p| PointsJson {
                strategy: p.strategy.name().into(),
                tol: p.tol,
                criterion: p.criterion.name().into(),
                method: study_name(p.method).into(),
                points: p.points,
            })
            .collect(),
    }
}
