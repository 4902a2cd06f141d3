//! The study's tables as Markdown: stiffness (Table 2's analog), points per strategy (Tables 3
//! and 4), the weighted ranking (Table 5), and the reference.

use super::points::{lookup, ranking, Criterion, Points};
use super::runner::{study_name, StudyResult};
use super::spec::StudySpec;
use crate::shortest;
use saltation_models::monopod::Strategy;
use std::fmt::Write as _;

/// Table 2's analog: the sets with SR at the study's equilibrium (29) and at the true one, the
/// toe depth at both, the number of touchdowns and the reference's estimated error.
pub fn stiffness_table(spec: &StudySpec, r: &StudyResult) -> String {
    let mut s = String::from(
        "| # | b* | m1* | k* | f* | SR at eq. (29) | SR at the true equilibrium | y1 at (29) | \
         y1 true | touchdowns | reference vs cross-check | reference vs 10× its tol |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (i, ((p, st), rf)) in spec
        .sets
        .iter()
        .zip(&r.stiffness)
        .zip(&r.references)
        .enumerate()
    {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.4e} | {:.4e} | {:.5} | {:.5} | {} | {:.1e} | {:.1e} |",
            i + 1,
            shortest(p.b),
            shortest(p.m1),
            shortest(p.k),
            shortest(p.f),
            st.sr_eq29,
            st.sr_true,
            st.eq29[0],
            st.eq_true[0],
            rf.touchdowns.len(),
            rf.error_estimate,
            rf.tol_step_difference,
        );
    }
    s
}

/// Superscript rank marks for the best three of a column.
fn rank_marks(values: &[f64]) -> Vec<&'static str> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
    let mut marks = vec![""; values.len()];
    for (rank, &i) in order.iter().take(3).enumerate() {
        marks[i] = ["¹", "²", "³"][rank];
    }
    marks
}

/// Tables 3 and 4: points per method (rows) for each tolerance and criterion (columns), summed
/// over the sets; the best three of each column are marked ¹ ² ³.
pub fn points_table(spec: &StudySpec, points: &[Points], strategy: Strategy) -> String {
    let mut s = String::from("| solver |");
    let mut rule = String::from("|---|");
    for &tol in &spec.tolerances {
        for c in Criterion::ALL {
            let _ = write!(s, " {} ({tol:e}) |", c.name());
            rule.push_str("---|");
        }
    }
    s.push('\n');
    s.push_str(&rule);
    s.push('\n');
    let columns: Vec<Vec<f64>> = spec
        .tolerances
        .iter()
        .flat_map(|&tol| {
            Criterion::ALL.map(|c| {
                spec.methods
                    .iter()
                    .map(|&m| lookup(points, strategy, tol, c, m))
                    .collect()
            })
        })
        .collect();
    let marks: Vec<Vec<&str>> = columns.iter().map(|c| rank_marks(c)).collect();
    for (i, &m) in spec.methods.iter().enumerate() {
        let _ = write!(s, "| {} |", study_name(m));
        for (col, mark) in columns.iter().zip(&marks) {
            let _ = write!(s, " {:.2}{} |", col[i], mark[i]);
        }
        s.push('\n');
    }
    s
}

/// Table 5: the weighted ranking.
pub fn ranking_table(spec: &StudySpec, points: &[Points]) -> String {
    let k = &spec.ranking;
    let mut s = format!(
        "Strategy {}, tolerance {:e}, weights w_SD = {}, w_DT = {}, w_IAE = {}.\n\n\
         | rank | solver | p_SD | p_DT | p_IAE | weighted total |\n|---|---|---|---|---|---|\n",
        k.strategy.name(),
        k.tol,
        shortest(k.w_sd),
        shortest(k.w_dt),
        shortest(k.w_iae)
    );
    for (i, r) in ranking(spec, points).iter().enumerate() {
        let _ = writeln!(
            s,
            "| {} | {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            i + 1,
            study_name(r.method),
            r.by_criterion[0],
            r.by_criterion[1],
            r.by_criterion[2],
            r.total
        );
    }
    s
}

/// Every table in one Markdown document.
pub fn tables_markdown(spec: &StudySpec, r: &StudyResult, points: &[Points]) -> String {
    let rf = &spec.reference;
    let mut s = String::from("# Monopod solver study\n\n");
    let _ = writeln!(
        s,
        "Reference: {} with events at rtol = atol = {:e}, cross-checked by {} at {:e}; largest \
         difference in y1 on the grid (the stated reference error): {:.2e}. Runs use rtol = \
         atol = tol. DT (eq. 32) and IAE (eq. 33) on the uniform grid of step {} over [0, {}]; \
         DT only where |y1_ref| >= {}. SD is the median wall time of up to {} timed repeats, run \
         one at a time. Whole study: {:.1} s.\n",
        study_name(rf.method),
        rf.tol,
        study_name(rf.check_method),
        rf.check_tol,
        r.error_estimate(),
        shortest(spec.grid_step),
        shortest(spec.t_end),
        shortest(spec.dt_floor),
        spec.repeats,
        r.wall_s,
    );
    s.push_str("## Stiffness of the stance phase (Table 2)\n\n");
    s.push_str(&stiffness_table(spec, r));
    for &strategy in &spec.strategies {
        let _ = writeln!(
            s,
            "\n## Points, strategy {} (Table {})\n",
            strategy.name(),
            match strategy {
                Strategy::IfElse => 3,
                Strategy::Events => 4,
            }
        );
        s.push_str(&points_table(spec, points, strategy));
    }
    s.push_str("\n## Weighted ranking (Table 5)\n\n");
    s.push_str(&ranking_table(spec, points));
    let failed: Vec<_> = r.runs.iter().filter(|x| x.status != "ok").collect();
    if !failed.is_empty() {
        s.push_str("\n## Failed runs (0 points)\n\n| set | solver | tol | strategy | status |\n|---|---|---|---|---|\n");
        for x in failed {
            let _ = writeln!(
                s,
                "| {} | {} | {:e} | {} | {} |",
                x.set,
                study_name(x.method),
                x.tol,
                x.strategy.name(),
                x.status.replace('|', "/")
            );
        }
    }
    let skipped = super::figures::not_drawn(spec, r);
    if !skipped.is_empty() {
        s.push_str("\n## Figures not drawn\n\n");
        for line in skipped {
            let _ = writeln!(s, "- {line}");
        }
    }
    s
}

/// `runs.csv`: one line per run.
pub fn runs_csv(r: &StudyResult) -> String {
    let mut s =
        String::from("set,method,tol,strategy,sd_s,dt,iae,rhs_evals,steps,contacts,status\n");
    let opt = |v: Option<f64>| v.map_or(String::new(), shortest);
    for x in &r.runs {
        let _ = writeln!(
            s,
            "{},{},{:e},{},{},{},{},{},{},{},\"{}\"",
            x.set,
            study_name(x.method),
            x.tol,
            x.strategy.name(),
            opt(x.sd_s),
            opt(x.dt),
            opt(x.iae),
            x.rhs_evals,
            x.steps,
            x.contacts,
            x.status.replace('"', "'")
        );
    }
    s
}
