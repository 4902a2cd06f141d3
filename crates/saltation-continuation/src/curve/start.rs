//! The curve's start: the one-parameter branch in `P` from the guess, run until its first
//! bifurcation of the curve's kind, and what it found when it found none.

use super::family2::Line;
use super::kind::CurveKind;
use super::options::CurveOptions;
use super::run::CurveStart;
use crate::branch::{Bifurcation, Branch};
use crate::error::ContinuationError;
use crate::options::ContinuationOptions;
use crate::run::{continue_until, Start};
use nalgebra::Complex;
use saltation_hybrid::EvalModel;
use saltation_ode::Num;
use saltation_orbit::OrbitOptions;

/// The cosine `κ` of the complex pair among the multipliers `mu` nearest the unit circle.
pub(super) fn critical_cosine(mu: &[Complex<f64>]) -> Result<f64, ContinuationError> {
    mu.iter()
        .filter(|m| m.im > 0.0)
        .min_by(|a, b| (a.norm() - 1.0).abs().total_cmp(&(b.norm() - 1.0).abs()))
        .map(|m| m.re / m.norm())
        .ok_or_else(|| {
            ContinuationError::invalid(
                "kind",
                "the located Neimark–Sacker point has no complex pair of multipliers",
            )
        })
}

/// Runs the one-parameter branch in `P` from the guess (in the search direction(s)) until its
/// first bifurcation of the curve's kind.
pub(super) fn find_start<M: EvalModel + Clone + Sync>(
    line: &Line<M>,
    kind: CurveKind,
    start: &CurveStart,
    orbit: &OrbitOptions,
    opts: &CurveOptions,
    names: &[String; 2],
) -> Result<Bifurcation, ContinuationError> {
    let dirs = match opts.search {
        Some(d) => vec![d],
        None => vec![1.0, -1.0],
    };
    let mut found = Vec::new();
    for dir in dirs {
        let settings = ContinuationOptions {
            direction: dir,
            detect: true,
            ..opts.settings.clone()
        };
        let from = Start::new(start.p, start.u.clone()).with_period(start.period_k);
        let branch = continue_until(
            line,
            &from,
            orbit,
            &settings,
            Some(kind.bifurcation()),
            &mut |_| {},
        )?;
        if let Some(b) = branch
            .bifurcations
            .iter()
            .find(|b| b.kind == kind.bifurcation())
        {
            return Ok(b.clone());
        }
        found.push(describe(dir, &names[0], &branch));
    }
    Err(ContinuationError::NoBifurcation {
        kind: kind.bifurcation().name().to_string(),
        param: names[0].clone(),
        param2: names[1].clone(),
        from: start.p,
        at: start.p2,
        found: found.join("; "),
    })
}

/// What a searched branch found: its range, its bifurcations, its end.
fn describe(dir: f64, param: &str, branch: &Branch) -> String {
    let (lo, hi) = branch
        .points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.param), b.max(p.param))
        });
    let bifs: Vec<String> = branch
        .bifurcations
        .iter()
        .map(|b| format!("{} at {}", b.kind.name(), Num(b.param)))
        .collect();
    format!(
        "towards {} {param}: {} point(s) over [{}, {}], {}, ended: {}",
        if dir > 0.0 { "larger" } else { "smaller" },
        branch.points.len(),
        Num(lo),
        Num(hi),
        if bifs.is_empty() {
            "no bifurcation".to_string()
        } else {
            bifs.join(", ")
        },
        branch.end
    )
}
