//! The correctors' fixed-point equation by multiple shooting
//! ([`ContinuationOptions::shooting`](crate::ContinuationOptions::shooting) `= Multiple`).
//!
//! The stride of the `k`-fold map is cut into `S` segments as the orbit solver cuts it
//! ([`SegmentPlan`]: at the events, or every phase in `N` pieces of fixed time), planned afresh
//! for every corrector from the stride of its predicted point. With `Φ_j(s; p)` the state at the
//! end of segment `j` from `s` at parameter `p`, the unknowns are `w = (u, s_1, …, s_{S−1})`
//! (`m = r + (S − 1) n` numbers, `s_0 = χ(u, p)`) and `p`, and the equations
//!
//! ```text
//! G_j(w, p) = Φ_j(s_j; p) − s_{j+1}        (j = 0, …, S − 2)
//! G_{S−1}(w, p) = π(Φ_{S−1}(s_{S−1}; p)) − u
//! ```
//!
//! closed by the corrector's equation on `(u, p)` alone (the pseudo-arclength plane
//! `τᵀ((u, p) − z_pred) = 0`, or `p` fixed): the branch, its steps and its tangent live in
//! `(u, p)` as with single shooting, and the segment starts are slave unknowns. `G_w` is the
//! orbit solver's cyclic block matrix ([`matching_conditions`]) with the exact segment
//! Jacobians `A_j = ∂Φ_j/∂s`; `G_p` stacks the exact `∂Φ_j/∂p` at fixed start (for `j = 0` plus
//! `A_0 ∂χ/∂p`; the last block through `Dπ`), from one integration of each segment on the
//! state augmented with `p` ([`ParamAugmented`]: its Jacobian is `[[A_j, ∂Φ_j/∂p], [0, 1]]`),
//! or by central differences of the segment ends where the model has no exact derivative in
//! `p`. Eliminating `s_1 … s_{S−1}` gives single shooting's `[F_u, F_p]`, so both formulations
//! have the same branch; the bordered matrix is never reduced to it.
//!
//! # Predicted segment starts
//! Integrating the stride from a predicted `(u, p)` to find its segment starts would bring back
//! what multiple shooting avoids (a prediction error amplified by the whole stride). The
//! evaluator keeps the last converged point of the branch ([`Anchor`]: its segments, its
//! unknowns `(w_a, p_a)` and the tangent `t = (t_w, t_p)` of the solution curve in `(w, p)`, from
//! `[[G_w, G_p], [cᵀ]] t = [0; 1]`); a corrector from `(u, p)` starts at
//!
//! ```text
//! w = w_a + α t_w  with u in place of its first r entries,   α = t_zᵀ((u, p) − z_a) / t_zᵀt_z
//! ```
//!
//! (`t_z` the `(u, p)` part of `t`): the segment starts moved along the branch by as much as
//! the prediction moves along it. Only the branch's first corrector integrates the stride from
//! its (converged) starting orbit. The segments keep the plan of the starting orbit along the
//! whole branch: with `N` pieces per phase, the fixed-time pieces keep their durations, and a
//! phase that shortens below them ends the branch ([`saltation_hybrid::HybridError::EventInPiece`]).
//!
//! # Multipliers
//! The multipliers of a point are the eigenvalues of `P_x = A_{S−1} ⋯ A_0`, and the test
//! functions' (reduced) ones those of `Dπ A_{S−1} ⋯ A_0 Dχ`: the nonzero eigenvalues of the
//! cyclic product `(Dχ Dπ) A_{S−1} ⋯ A_0` of `n × n` factors, whose other `n − r` eigenvalues
//! are zero (`Dχ Dπ` has rank `r`); both by the product QR iteration
//! ([`product_eigenvalues`]), never from the formed product, and the reduced ones are the `r`
//! largest in modulus of the cyclic product's.

use crate::corrector::{bordered, Eval, Evaluator};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use nalgebra::{Complex, DMatrix, DVector};
use saltation_hybrid::{EvalModel, JacobianKind, ParamAugmented, StrideResult};
use saltation_orbit::{
    joined_events, matching_conditions, product_eigenvalues, Multiplier, SegmentPlan, Segments,
    ShootingSetupError,
};

/// The segment Jacobians of a multiple-shooting evaluation, for the multipliers.
#[derive(Clone)]
pub(crate) struct SegmentJacobians {
    /// `A_0, …, A_{S−1}` (`n × n`), the first applied first.
    pub a: Vec<DMatrix<f64>>,
    /// `Dχ(u) Dπ(x₁)` (`n × n`, rank `r`): closes the cycle of the reduced map.
    pub join: DMatrix<f64>,
}

impl SegmentJacobians {
    /// The multipliers of the stride, eigenvalues of `A_{S−1} ⋯ A_0` by decreasing modulus.
    pub fn multipliers(&self) -> Result<Vec<Multiplier>, ContinuationError> {
        Ok(product_eigenvalues(&self.a)?
            .into_iter()
            .map(Multiplier::from)
            .collect())
    }

    /// The `r` multipliers of the reduced stride map `Dπ A_{S−1} ⋯ A_0 Dχ`: the `r` largest
    /// eigenvalues of the cyclic product `(Dχ Dπ) A_{S−1} ⋯ A_0` (module documentation).
    pub fn reduced(&self, r: usize) -> Result<Vec<Complex<f64>>, ContinuationError> {
        let mut factors = self.a.clone();
        factors.push(self.join.clone());
        let mut mu = product_eigenvalues(&factors)?;
        mu.truncate(r);
        Ok(mu)
    }
}

/// The last converged point of a multiple-shooting branch (module documentation).
pub(crate) struct Anchor {
    plan: SegmentPlan,
    /// `(u, p)`.
    z: DVector<f64>,
    /// `w = (u, s_1, …)`.
    w: DVector<f64>,
    /// The tangent in `(w, p)`, if known.
    t: Option<DVector<f64>>,
}

/// A failed plan as the continuation's error.
fn setup_error(e: ShootingSetupError) -> ContinuationError {
    match e {
        ShootingSetupError::Options(o) => crate::options::shooting_error(o),
        ShootingSetupError::Hybrid(h) => ContinuationError::Hybrid(h),
    }
}

impl<F: ModelFamily> Evaluator<'_, F> {
    /// The segments of the stride from `χ(u, p)` cut as `segments`, and the initial unknowns
    /// `w = (u, s_1, …, s_{S−1})` along that stride.
    pub(crate) fn plan(
        &self,
        segments: Segments,
        u: &[f64],
        p: f64,
    ) -> Result<(SegmentPlan, DVector<f64>), ContinuationError> {
        let model = self.family.model_at(p)?;
        let (n, r) = (model.dim(), model.reduced_dim());
        let mut x = vec![0.0; n];
        model.chart(u, &mut x);
        let (events, start_mode) = (self.stride.events_per_stride, self.stride.start_mode);
        let (plan, starts) = self.with_plain_map(&model, |map| {
            SegmentPlan::from_stride(map, events, start_mode, segments, &x, (n, r))
                .map_err(setup_error)
        })?;
        let mut w = u.to_vec();
        for s in starts.iter().skip(1) {
            w.extend_from_slice(s);
        }
        Ok((plan, DVector::from_vec(w)))
    }

    /// The segments and the initial unknowns `w` of a corrector from `(u, p)`: from the anchor
    /// (module documentation), or the stride from `χ(u, p)` for the branch's first.
    pub(crate) fn predict_segments(
        &self,
        segments: Segments,
        u: &[f64],
        p: f64,
    ) -> Result<(SegmentPlan, DVector<f64>), ContinuationError> {
        let anchor = self.anchor.borrow();
        let Some(a) = anchor.as_ref() else {
            drop(anchor);
            return self.plan(segments, u, p);
        };
        let (r, m) = (u.len(), a.w.len());
        let mut w = a.w.clone();
        if let Some(t) = &a.t {
            let mut tz = DVector::zeros(r + 1);
            tz.rows_mut(0, r).copy_from(&t.rows(0, r));
            tz[r] = t[m];
            let mut delta = DVector::zeros(r + 1);
            for i in 0..r {
                delta[i] = u[i] - a.z[i];
            }
            delta[r] = p - a.z[r];
            let alpha = tz.dot(&delta) / tz.dot(&tz);
            if alpha.is_finite() {
                w += t.rows(0, m) * alpha;
            }
        }
        w.rows_mut(0, r).copy_from_slice(u);
        Ok((a.plan.clone(), w))
    }

    /// Keeps the converged `(w, p)` (reduced dimension `r`) as the anchor, with the tangent of
    /// its evaluation `e` (oriented by the closure's `tau` on `(u, p)`, else by `p`) when it has
    /// `G_p`, else the previous anchor's tangent.
    pub(crate) fn set_anchor(
        &self,
        plan: SegmentPlan,
        w: DVector<f64>,
        p: f64,
        r: usize,
        e: &Eval,
        tau: Option<&DVector<f64>>,
    ) {
        let m = w.len();
        let t = e.fp.as_ref().and_then(|fp| {
            let c = tau.cloned().unwrap_or_else(|| {
                let mut c = DVector::zeros(r + 1);
                c[r] = 1.0;
                c
            });
            let mut rhs = DVector::zeros(m + 1);
            rhs[m] = 1.0;
            bordered(&e.fu, fp, &c).lu().solve(&rhs)
        });
        let mut anchor = self.anchor.borrow_mut();
        let t = t.or_else(|| anchor.as_mut().and_then(|a| a.t.take()));
        let mut z = DVector::zeros(r + 1);
        z.rows_mut(0, r).copy_from(&w.rows(0, r));
        z[r] = p;
        *anchor = Some(Anchor { plan, z, w, t });
    }

    /// `G`, `G_w`, `G_p` (if asked) and the joined stride at `(w, p)` (module documentation).
    pub(crate) fn eval_segments(
        &self,
        plan: &SegmentPlan,
        w: &[f64],
        p: f64,
        with_fp: bool,
    ) -> Result<Eval, ContinuationError> {
        let model = self.family.model_at(p)?;
        let (n, r, segs) = (model.dim(), model.reduced_dim(), plan.len());
        let m = r + segs.saturating_sub(1) * n;
        if w.len() != m || segs == 0 {
            return Err(ContinuationError::Hybrid(
                saltation_hybrid::HybridError::DimensionMismatch {
                    what: "multiple-shooting unknowns",
                    expected: m,
                    got: w.len(),
                },
            ));
        }
        let u = &w[..r];
        let mut x0 = vec![0.0; n];
        model.chart(u, &mut x0);
        let start = |j: usize| -> &[f64] { &w[r + (j - 1) * n..r + j * n] };
        let exact = self.family.param_index().filter(|_| with_fp);
        let aug = exact.and_then(|k| ParamAugmented::new(&model, k));
        // Per segment: the result (state part), A_j, and ∂Φ_j/∂p with the chart's for j = 0.
        let mut results: Vec<StrideResult> = Vec::with_capacity(segs);
        let mut a = Vec::with_capacity(segs);
        let mut d: Vec<DVector<f64>> = Vec::new();
        if let Some(aug) = &aug {
            let mut ua = u.to_vec();
            ua.push(p);
            let mut dchi = vec![0.0; (n + 1) * (r + 1)];
            aug.chart_jacobian(&ua, &mut dchi);
            let chi_p = DVector::from_iterator(n, (0..n).map(|i| dchi[i * (r + 1) + r]));
            let opts = || ParamAugmented::<F::Model>::stride_options(&self.stride);
            Self::with_map(&self.augmented, opts, aug, |map| {
                for j in 0..segs {
                    let mut xa = if j == 0 {
                        x0.clone()
                    } else {
                        start(j).to_vec()
                    };
                    xa.push(p);
                    let mut res = plan.segment(map, j, &xa, JacobianKind::StrideMap)?;
                    let ja = res
                        .jacobian
                        .take()
                        .filter(|ja| ja.shape() == (n + 1, n + 1))
                        .ok_or(ContinuationError::Singular { p })?;
                    let a_j = ja.view((0, 0), (n, n)).clone_owned();
                    let mut d_j = ja.view((0, n), (n, 1)).column(0).clone_owned();
                    if j == 0 {
                        d_j += &a_j * &chi_p;
                    }
                    // The segment as the model's own (the parameter component dropped).
                    res.x.truncate(n);
                    for e in &mut res.events {
                        e.x_minus.truncate(n);
                        e.x_plus.truncate(n);
                    }
                    a.push(a_j);
                    d.push(d_j);
                    results.push(res);
                }
                Ok(())
            })?;
        } else {
            self.with_plain_map(&model, |map| {
                for j in 0..segs {
                    let s = if j == 0 { &x0[..] } else { start(j) };
                    let mut res = plan.segment(map, j, s, JacobianKind::StrideMap)?;
                    let a_j = res
                        .jacobian
                        .take()
                        .filter(|a_j| a_j.shape() == (n, n))
                        .ok_or(ContinuationError::Singular { p })?;
                    a.push(a_j);
                    results.push(res);
                }
                Ok(())
            })?;
        }
        let ends: Vec<&[f64]> = results.iter().map(|s| s.x.as_slice()).collect();
        let (f, fu) = matching_conditions(&model, w, &ends, &a)?;
        let last = ends[segs - 1].to_vec();
        let mut dpi = vec![0.0; r * n];
        model.project_jacobian(&last, &mut dpi);
        let dpi = DMatrix::from_row_slice(r, n, &dpi);
        let fp = if !with_fp {
            None
        } else if aug.is_some() {
            let mut fp = DVector::zeros(m);
            for (j, d_j) in d.iter().enumerate() {
                if j + 1 < segs {
                    fp.rows_mut(j * n, n).copy_from(d_j);
                } else {
                    fp.rows_mut(j * n, r).copy_from(&(&dpi * d_j));
                }
            }
            Some(fp)
        } else {
            let h = self.opts.fd_param_step * p.abs().max(1.0);
            let plus = self.residual_at(plan, w, p + h)?;
            let minus = self.residual_at(plan, w, p - h)?;
            Some((plus - minus) / (2.0 * h))
        };
        let mut dchi = vec![0.0; n * r];
        model.chart_jacobian(u, &mut dchi);
        let join = DMatrix::from_row_slice(n, r, &dchi) * dpi;
        let (period, events) = joined_events(&results);
        let stats = results
            .iter()
            .fold(Default::default(), |acc, s| acc + s.stats);
        let stride = StrideResult {
            x: last,
            mode: results[segs - 1].mode,
            period,
            events,
            jacobian: None,
            event_time_gradients: Vec::new(),
            stats,
        };
        Ok(Eval {
            f,
            fu,
            fp,
            tu: Vec::new(),
            tp: None,
            stride,
            segments: Some(SegmentJacobians { a, join }),
        })
    }

    /// The matching conditions at `(w, q)` without Jacobians (central differences in `p`).
    fn residual_at(
        &self,
        plan: &SegmentPlan,
        w: &[f64],
        q: f64,
    ) -> Result<DVector<f64>, ContinuationError> {
        let model = self.family.model_at(q)?;
        let (n, r, segs) = (model.dim(), model.reduced_dim(), plan.len());
        let u = &w[..r];
        let mut x0 = vec![0.0; n];
        model.chart(u, &mut x0);
        let mut g = DVector::zeros(w.len());
        self.with_plain_map(&model, |map| {
            for j in 0..segs {
                let s = if j == 0 {
                    &x0[..]
                } else {
                    &w[r + (j - 1) * n..r + j * n]
                };
                let end = plan.segment(map, j, s, JacobianKind::None)?.x;
                if j + 1 < segs {
                    let next = &w[r + j * n..r + (j + 1) * n];
                    for i in 0..n {
                        g[j * n + i] = end[i] - next[i];
                    }
                } else {
                    let mut pu = vec![0.0; r];
                    model.project(&end, &mut pu);
                    for i in 0..r {
                        g[j * n + i] = pu[i] - u[i];
                    }
                }
            }
            Ok(())
        })?;
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use crate::family::ParamFamily;
    use crate::test_models::FlipBounce;
    use crate::{continue_branch, BifurcationKind, ContinuationOptions, EndReason, Start};
    use saltation_hybrid::{Bound, ParamError};
    use saltation_orbit::{OrbitOptions, Segments, Shooting};

    /// The stride map `u ↦ p − u²` by multiple shooting (three pieces of the flight, so three
    /// segments): every point is the closed-form fixed point `u* = (√(1 + 4p) − 1)/2` with the
    /// multipliers `{−2u*, 0}`, and the flip is located at `p = 3/4` — with exact `G_p` (the
    /// named parameter) and with central differences (a closure family).
    #[test]
    fn flip_bounce_branch_by_multiple_shooting_is_the_closed_form() {
        let opts = ContinuationOptions {
            step: 0.01,
            max_step: 0.05,
            p_min: 0.4,
            p_max: 0.9,
            shooting: Shooting::Multiple {
                segments: Segments::PerMode(3),
            },
            ..ContinuationOptions::default()
        };
        let exact = ParamFamily::new(Bound::new(FlipBounce), "p").unwrap();
        let closure = |p: f64| -> Result<Bound<FlipBounce>, ParamError> {
            saltation_hybrid::with_param(&Bound::new(FlipBounce), "p", p)
        };
        let start = Start::new(0.5, vec![0.35]);
        let branches = [
            continue_branch(&exact, &start, &OrbitOptions::default(), &opts).unwrap(),
            continue_branch(&closure, &start, &OrbitOptions::default(), &opts).unwrap(),
        ];
        for (k, b) in branches.iter().enumerate() {
            assert_eq!(b.end, EndReason::ParameterBound, "{k}");
            assert!(b.points.len() >= 5, "{k}");
            for pt in &b.points {
                let u = ((1.0 + 4.0 * pt.param).sqrt() - 1.0) / 2.0;
                assert!(
                    (pt.u[0] - u).abs() < 1e-9,
                    "{k}: {} {} {u}",
                    pt.param,
                    pt.u[0]
                );
                assert!((pt.multipliers[0].re + 2.0 * u).abs() < 1e-8, "{k}");
                assert!(pt.multipliers[1].modulus() < 1e-12, "{k}");
                assert!((pt.period - 2.0 * u).abs() < 1e-9, "{k}");
                // ψ_PD = μ + 1 of the one nontrivial multiplier.
                assert!((pt.tests[1] - (1.0 - 2.0 * u)).abs() < 1e-8, "{k}");
            }
            let pd: Vec<_> = b
                .bifurcations
                .iter()
                .filter(|x| x.kind == BifurcationKind::PeriodDoubling)
                .collect();
            assert_eq!(pd.len(), 1, "{k}: {:?}", b.bifurcations);
            assert!((pd[0].param - 0.75).abs() < 1e-9, "{k}: {}", pd[0].param);
        }
    }
}
