//! The Lyapunov exponents across a parameter range, for the panel under an orbit diagram: at
//! each parameter value `p_i`, [`saltation_orbit::lyapunov_exponents`] of the model at `p_i`
//! from the same start on the section, after the same transient — the largest exponent
//! `λ_1(p)` is positive where the diagram is chaotic and negative on its period-`2^k` windows
//! (at a period-`k` orbit of duration `T_k`, `λ_1 = ln|μ_1| / T_k`). Parameter values run in
//! parallel (rayon, one value per task); a value where a stride fails or the model cannot be
//! built is a column with its cause, not an error of the sweep.

use crate::diagram::{check_params, check_start, diagram_dim, failure_cause};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::stride_error;
use rayon::prelude::*;
use saltation_hybrid::{EvalModel, StrideOptions};
use saltation_orbit::{lyapunov_exponents, LyapunovError, MAX_LYAPUNOV_STRIDES};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The exponents at one parameter value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LyapunovColumn {
    /// Parameter value.
    pub param: f64,
    /// Exponents per unit time, descending (empty when the run failed).
    pub exponents: Vec<f64>,
    /// Why the run failed, in the model's words ([`failure_cause`]), with the stride index
    /// (transient included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
}

impl LyapunovColumn {
    /// The largest exponent, if the run succeeded.
    pub fn largest(&self) -> Option<f64> {
        self.exponents.first().copied()
    }
}

/// Runs every parameter value in parallel from `u_start` (reduced coordinates), dropping
/// `transient` strides and accumulating `strides`; `on_column(done, total)` is called from the
/// workers after each value (`done` counts up, possibly out of order between threads).
///
/// Checks first ([`ContinuationError::InvalidOption`] naming the field): the parameter
/// values as an orbit diagram's (at most `MAX_DIAGRAM_COUNT`, each finite), `stride` (named
/// `stride.*`), `strides` in `1..=MAX_LYAPUNOV_STRIDES`, `transient` at most that, `u_start`
/// of the section's dimension and finite; the model must be buildable at one of the values at
/// least.
pub fn lyapunov_sweep<F: ModelFamily>(
    family: &F,
    params: &[f64],
    u_start: &[f64],
    stride: &StrideOptions,
    transient: usize,
    strides: usize,
    on_column: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<LyapunovColumn>, ContinuationError> {
    check_params(params)?;
    if !(1..=MAX_LYAPUNOV_STRIDES).contains(&strides) {
        return Err(ContinuationError::invalid(
            "strides",
            format!("{strides} must be in 1..={MAX_LYAPUNOV_STRIDES}"),
        ));
    }
    if transient > MAX_LYAPUNOV_STRIDES {
        return Err(ContinuationError::invalid(
            "transient",
            format!("{transient} must be at most {MAX_LYAPUNOV_STRIDES}"),
        ));
    }
    stride.validate().map_err(|e| stride_error(e, "stride"))?;
    let Some(first) = params.first() else {
        return Ok(Vec::new());
    };
    let reduced = params
        .iter()
        .find_map(|&p| family.model_at(p).ok().map(|m| m.reduced_dim()));
    let Some(reduced) = reduced else {
        let (value, source) = match diagram_dim(family, params.iter().copied()) {
            Err(e) => e,
            Ok(_) => {
                return Err(ContinuationError::invalid(
                    "params",
                    format!("the model cannot be built at any of them (first {first})"),
                ))
            }
        };
        return Err(ContinuationError::InvalidParameter {
            field: "params[0]".into(),
            value,
            source,
        });
    };
    check_start(u_start, reduced, "u_start")?;
    let done = AtomicUsize::new(0);
    Ok(params
        .par_iter()
        .with_max_len(1)
        .map(|&p| {
            let c = column(family, p, u_start, stride, transient, strides);
            on_column(done.fetch_add(1, Ordering::Relaxed) + 1, params.len());
            c
        })
        .collect())
}

fn column<F: ModelFamily>(
    family: &F,
    p: f64,
    u_start: &[f64],
    stride: &StrideOptions,
    transient: usize,
    strides: usize,
) -> LyapunovColumn {
    let failed = |failure: String| LyapunovColumn {
        param: p,
        exponents: Vec::new(),
        failure: Some(failure),
    };
    let model = match family.model_at(p) {
        Ok(m) => m,
        Err(e) => return failed(e.to_string()),
    };
    match lyapunov_exponents(&model, stride, u_start, transient, strides) {
        Ok(s) => LyapunovColumn {
            param: p,
            exponents: s.exponents,
            failure: None,
        },
        Err(LyapunovError::Stride { stride, source }) => failed(format!(
            "stride {stride}: {}",
            failure_cause(&model, &source)
        )),
        Err(e) => failed(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_models::{bounce, QuadraticBounce};

    fn stride() -> StrideOptions {
        let mut stride = StrideOptions::default();
        stride.ode.rtol = 1e-10;
        stride.ode.atol = saltation_ode::Atol::Scalar(1e-10);
        stride
    }

    #[test]
    fn at_a_stable_fixed_point_the_exponent_is_ln_mu_over_the_period() {
        // u ↦ u² + p: after the transient the start sits at u* (multiplier 2u*), and a stride
        // from speed u* lasts 2u* (up and down at unit gravity).
        let params = [0.05, 0.1, 0.2];
        let cols = lyapunov_sweep(&bounce, &params, &[0.2], &stride(), 80, 20, &|_, _| {}).unwrap();
        for (c, p) in cols.iter().zip(params) {
            assert_eq!(c.failure, None);
            let u = QuadraticBounce::fixed_point(p);
            let exact = (2.0 * u).ln() / (2.0 * u);
            let l = c.largest().unwrap();
            assert!((l - exact).abs() < 1e-6, "p = {p}: {l} vs {exact}");
        }
    }

    #[test]
    fn bad_settings_name_their_field_and_failed_runs_say_why() {
        let field = |r: Result<Vec<LyapunovColumn>, ContinuationError>| match r {
            Err(ContinuationError::InvalidOption { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        let run = |params: &[f64], u: &[f64], transient, strides| {
            lyapunov_sweep(
                &bounce,
                params,
                u,
                &stride(),
                transient,
                strides,
                &|_, _| {},
            )
        };
        assert_eq!(field(run(&[0.1, f64::NAN], &[0.2], 0, 5)), "params[1]");
        assert_eq!(field(run(&[0.1], &[0.2], 0, 0)), "strides");
        assert_eq!(
            field(run(&[0.1], &[0.2], MAX_LYAPUNOV_STRIDES + 1, 5)),
            "transient"
        );
        assert_eq!(field(run(&[0.1], &[0.2, 0.1], 0, 5)), "u_start");
        assert_eq!(field(run(&[0.1], &[f64::INFINITY], 0, 5)), "u_start[0]");
        // p = 0.3 > 1/4: the speed grows without bound until a stride cannot land in t_max.
        let cols = run(&[0.3], &[0.2], 0, 200).unwrap();
        let f = cols[0].failure.as_deref().unwrap();
        assert!(f.starts_with("stride ") && f.contains("t_max"), "{f}");
        assert_eq!(cols[0].largest(), None);
    }
}
