//! The study's points system: for each parameter set, strategy, tolerance and criterion, the
//! best solver gets 10 points, the worst 1, the others linearly in between (the study's
//! Tables 3 and 4 add them over the sets); a failed run gets 0. Table 5 weighs the three
//! criteria, `p = w_SD p_SD + w_DT p_DT + w_IAE p_IAE` (eq. 36).

use super::runner::RunRecord;
use super::spec::StudySpec;
use saltation_models::monopod::Strategy;
use saltation_ode::Method;

/// A criterion of the study.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// Solution duration (smaller is better).
    Sd,
    /// Divergence time (larger is better).
    Dt,
    /// Integral of the absolute error (smaller is better).
    Iae,
}

impl Criterion {
    /// The three criteria.
    pub const ALL: [Criterion; 3] = [Criterion::Sd, Criterion::Dt, Criterion::Iae];

    /// `"SD"`, `"DT"` or `"IAE"`.
    pub fn name(self) -> &'static str {
        match self {
            Criterion::Sd => "SD",
            Criterion::Dt => "DT",
            Criterion::Iae => "IAE",
        }
    }

    /// The run's value of this criterion (`None` for a failed run).
    pub fn value(self, r: &RunRecord) -> Option<f64> {
        match self {
            Criterion::Sd => r.sd_s,
            Criterion::Dt => r.dt,
            Criterion::Iae => r.iae,
        }
    }

    fn larger_is_better(self) -> bool {
        self == Criterion::Dt
    }
}

/// Points of a list of values: 10 for the best, 1 for the worst, linear in between (all 10 if
/// they are equal); `None` (a failed run) gets 0.
pub fn score(values: &[Option<f64>], larger_is_better: bool) -> Vec<f64> {
    let ok = values.iter().flatten().copied();
    let (lo, hi) = ok.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    values
        .iter()
        .map(|v| match v {
            None => 0.0,
            Some(_) if hi <= lo => 10.0,
            Some(v) => {
                let good = if larger_is_better { v - lo } else { hi - v };
                1.0 + 9.0 * good / (hi - lo)
            }
        })
        .collect()
}

/// Total points of one method for one strategy, tolerance and criterion.
#[derive(Debug, Clone, PartialEq)]
pub struct Points {
    /// Strategy.
    pub strategy: Strategy,
    /// Tolerance.
    pub tol: f64,
    /// Criterion.
    pub criterion: Criterion,
    /// Method.
    pub method: Method,
    /// Points summed over the sets.
    pub points: f64,
}

/// The points of every method for every strategy, tolerance and criterion.
pub fn points(spec: &StudySpec, runs: &[RunRecord]) -> Vec<Points> {
    let mut out = Vec::new();
    for &strategy in &spec.strategies {
        for &tol in &spec.tolerances {
            for criterion in Criterion::ALL {
                let mut total = vec![0.0; spec.methods.len()];
                for set in 1..=spec.sets.len() {
                    let values: Vec<Option<f64>> = spec
                        .methods
                        .iter()
                        .map(|&m| {
                            runs.iter()
                                .find(|r| {
                                    r.set == set
                                        && r.method == m
                                        && r.tol == tol
                                        && r.strategy == strategy
                                })
                                .and_then(|r| criterion.value(r))
                        })
                        .collect();
                    for (t, p) in total
                        .iter_mut()
                        .zip(score(&values, criterion.larger_is_better()))
                    {
                        *t += p;
                    }
                }
                out.extend(
                    spec.methods
                        .iter()
                        .zip(total)
                        .map(|(&method, points)| Points {
                            strategy,
                            tol,
                            criterion,
                            method,
                            points,
                        }),
                );
            }
        }
    }
    out
}

/// The points of one method, strategy, tolerance and criterion (0 if absent).
pub fn lookup(
    points: &[Points],
    strategy: Strategy,
    tol: f64,
    criterion: Criterion,
    method: Method,
) -> f64 {
    points
        .iter()
        .find(|p| {
            p.strategy == strategy && p.tol == tol && p.criterion == criterion && p.method == method
        })
        .map_or(0.0, |p| p.points)
}

/// One row of the weighted ranking (Table 5).
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    /// Method.
    pub method: Method,
    /// Points per criterion (SD, DT, IAE).
    pub by_criterion: [f64; 3],
    /// Weighted total.
    pub total: f64,
}

/// The weighted ranking of `spec.ranking`, best first.
pub fn ranking(spec: &StudySpec, points: &[Points]) -> Vec<Ranked> {
    let k = &spec.ranking;
    let mut rows: Vec<Ranked> = spec
        .methods
        .iter()
        .map(|&method| {
            let p = Criterion::ALL.map(|c| lookup(points, k.strategy, k.tol, c, method));
            Ranked {
                method,
                by_criterion: p,
                total: k.w_sd * p[0] + k.w_dt * p[1] + k.w_iae * p[2],
            }
        })
        .collect();
    rows.sort_by(|a, b| b.total.total_cmp(&a.total));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_gets_ten_worst_one_linear_between() {
        let p = score(&[Some(1.0), Some(3.0), Some(2.0), None], false);
        assert_eq!(p, vec![10.0, 1.0, 5.5, 0.0]);
        let p = score(&[Some(1.0), Some(3.0), Some(2.0)], true);
        assert_eq!(p, vec![1.0, 10.0, 5.5]);
        assert_eq!(score(&[Some(2.0), Some(2.0)], true), vec![10.0, 10.0]);
    }
}
