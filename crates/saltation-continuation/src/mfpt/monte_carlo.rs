//! Monte Carlo first-passage times: walks from the nominal orbit with the parameter drawn
//! afresh at every stride, until a stride fails ([`super::step`]) or `max_steps` strides
//! (censored).
//!
//! Run `r` draws from [`SplitMix64::for_run`]`(seed, r)`: its strides depend on `seed` and
//! `r` only, so the runs are the same at any thread count and in any shard. A run's *steps*
//! count the strides taken, the failing one included (as the chain's times do).
//!
//! **Estimate.** With `d` runs that fell and `E` strides taken in all (a censored run counts
//! its `max_steps`), the mean is `E/d`: the maximum-likelihood estimate of a geometric time
//! (constant failure probability per stride, the metastable regime the MFPT describes) under
//! right censoring, and the plain sample mean when nothing is censored. Its 95 % interval:
//! without censoring the sample mean's `± 1.96 s/√R`; with censoring `(E/d)·e^{±1.96/√d}`
//! (the Wald interval of `log(d/E)`, whose standard error is `1/√d`). With fewer than
//! [`MIN_FALLS`] falls no mean is given: the estimate is refused with the reason.

use super::step::{Step, Stepper};
use super::terrain::{SplitMix64, Terrain};
use crate::error::ContinuationError;
use crate::options::stride_error;
use rayon::prelude::*;
use saltation_hybrid::{EvalModel, StrideOptions};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Largest number of runs.
pub const MAX_RUNS: usize = 100_000_000;
/// Largest number of strides per run.
pub const MAX_STEPS: usize = 1_000_000_000;
/// Fewest falls for which a mean is reported.
pub const MIN_FALLS: usize = 10;

/// One walk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct McRun {
    /// Strides taken (the failing one included; `max_steps` when censored).
    pub steps: usize,
    /// Why it fell; `None` when censored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<String>,
}

/// The estimate over the runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct McSummary {
    /// Runs.
    pub runs: usize,
    /// Runs that fell.
    pub fell: usize,
    /// Runs that reached `max_steps` standing.
    pub censored: usize,
    /// Strides taken in all.
    pub strides: u64,
    /// The mean first-passage time `E/d`; `None` when refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    /// Its 95 % confidence interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ci: Option<[f64; 2]>,
    /// `"sample_mean"` (nothing censored) or `"censored_geometric"`.
    pub estimator: String,
    /// Why no mean is given, where none is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The falls by cause.
    pub causes: BTreeMap<String, usize>,
}

/// The walks `runs` (indices) from `u0` with parameter `k` drawn from `terrain`, in parallel;
/// `on_run(done, total)` after each. A draw the model rejects is an error naming the
/// `distribution`.
#[allow(clippy::too_many_arguments)]
pub fn mc_runs<M: EvalModel + Clone + Send + Sync>(
    model: &M,
    k: usize,
    terrain: &Terrain,
    stride: &StrideOptions,
    u0: &[f64],
    max_steps: usize,
    seed: u64,
    runs: &[usize],
    on_run: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<McRun>, ContinuationError> {
    stride
        .validate_for(model)
        .map_err(|e| stride_error(e, "stride"))?;
    terrain.validate()?;
    if !(1..=MAX_STEPS).contains(&max_steps) {
        return Err(ContinuationError::invalid(
            "max_steps",
            format!("{max_steps} must be in 1..={MAX_STEPS}"),
        ));
    }
    if runs.len() > MAX_RUNS {
        return Err(ContinuationError::invalid(
            "runs",
            format!("{} must be at most {MAX_RUNS}", runs.len()),
        ));
    }
    if u0.len() != model.reduced_dim() || u0.iter().any(|v| !v.is_finite()) {
        return Err(ContinuationError::invalid(
            "u0",
            format!("{u0:?} is not {} finite value(s)", model.reduced_dim()),
        ));
    }
    let done = AtomicUsize::new(0);
    runs.par_iter()
        .with_max_len(1)
        .map_init(
            || Stepper::new(model, k, stride),
            |st, &r| -> Result<McRun, ContinuationError> {
                let mut rng = SplitMix64::for_run(seed, r as u64);
                let mut u = u0.to_vec();
                let mut next = vec![0.0; u.len()];
                let mut run = McRun {
                    steps: max_steps,
                    cause: None,
                };
                for j in 0..max_steps {
                    let p = terrain.sample(&mut rng);
                    match st.step(p, &u, &mut next, "distribution")? {
                        Step::Landed => std::mem::swap(&mut u, &mut next),
                        Step::Fell(cause) => {
                            run = McRun {
                                steps: j + 1,
                                cause: Some(cause),
                            };
                            break;
                        }
                    }
                }
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                on_run(n, runs.len());
                Ok(run)
            },
        )
        .collect()
}

/// The estimate of the module documentation over `runs`.
pub fn summarize(runs: &[McRun]) -> McSummary {
    let fell = runs.iter().filter(|r| r.cause.is_some()).count();
    let censored = runs.len() - fell;
    let strides: u64 = runs.iter().map(|r| r.steps as u64).sum();
    let mut causes = BTreeMap::new();
    for c in runs.iter().filter_map(|r| r.cause.as_ref()) {
        *causes.entry(c.clone()).or_insert(0) += 1;
    }
    let mut s = McSummary {
        runs: runs.len(),
        fell,
        censored,
        strides,
        mean: None,
        ci: None,
        estimator: if censored == 0 {
            "sample_mean".into()
        } else {
            "censored_geometric".into()
        },
        note: None,
        causes,
    };
    if fell < MIN_FALLS {
        s.note = Some(format!(
            "only {fell} of {} runs fell (at least {MIN_FALLS} needed for a mean): raise \
             --max-steps or --runs",
            runs.len()
        ));
        return s;
    }
    let mean = strides as f64 / fell as f64;
    s.mean = Some(mean);
    s.ci = Some(if censored == 0 {
        let n = runs.len() as f64;
        let var = runs
            .iter()
            .map(|r| (r.steps as f64 - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0);
        let h = 1.96 * (var / n).sqrt();
        [mean - h, mean + h]
    } else {
        let h = 1.96 / (fell as f64).sqrt();
        [mean * (-h).exp(), mean * h.exp()]
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(steps: usize, fell: bool) -> McRun {
        McRun {
            steps,
            cause: fell.then(|| "fell".to_string()),
        }
    }

    #[test]
    fn sample_mean_without_censoring() {
        let runs: Vec<McRun> = (1..=20).map(|s| run(s, true)).collect();
        let s = summarize(&runs);
        assert_eq!(s.mean, Some(10.5));
        assert_eq!(s.estimator, "sample_mean");
        // sd of 1..20 = sqrt(35), half-width 1.96·sqrt(35/20).
        let [lo, hi] = s.ci.unwrap();
        assert!((hi - 10.5 - 1.96 * (35.0f64 / 20.0).sqrt()).abs() < 1e-12);
        assert!((10.5 - lo - (hi - 10.5)).abs() < 1e-12);
    }

    #[test]
    fn censored_runs_use_the_geometric_estimate_or_are_refused() {
        let mut runs: Vec<McRun> = (0..16).map(|_| run(5, true)).collect();
        runs.extend((0..4).map(|_| run(100, false)));
        let s = summarize(&runs);
        // E = 16·5 + 4·100 = 480, d = 16.
        assert_eq!(s.mean, Some(30.0));
        assert_eq!((s.fell, s.censored, s.strides), (16, 4, 480));
        let [lo, hi] = s.ci.unwrap();
        assert!(
            (lo - 30.0 * (-0.49f64).exp()).abs() < 1e-12
                && (hi - 30.0 * 0.49f64.exp()).abs() < 1e-12
        );
        let few: Vec<McRun> = (0..30).map(|i| run(100, i < 3)).collect();
        let s = summarize(&few);
        assert_eq!(s.mean, None);
        assert!(s.note.unwrap().contains("only 3 of 30 runs fell"));
    }

    #[test]
    fn geometric_times_are_recovered() {
        // Draw geometric times with failure probability 0.02 (mean 50) by the generator,
        // censored at 60: the estimate's interval holds 50.
        let mut g = SplitMix64::new(3);
        let runs: Vec<McRun> = (0..4000)
            .map(|_| {
                let mut n = 1;
                while n < 60 && g.uniform() >= 0.02 {
                    n += 1;
                }
                if n == 60 && g.uniform() >= 0.02 {
                    run(60, false)
                } else {
                    run(n, true)
                }
            })
            .collect();
        let s = summarize(&runs);
        let [lo, hi] = s.ci.unwrap();
        assert!(lo < 50.0 && 50.0 < hi, "{s:?}");
        assert!(s.censored > 0);
    }
}
