//! Branch switching at a period doubling by construction (Kuznetsov, *Elements of Applied
//! Bifurcation Theory*, §10.2 and §10.3.2).
//!
//! At a flip of the `k`-fold stride map at `(u*, p*)` the reduced Jacobian `J = F_u + I` has the
//! simple multiplier −1 with eigenvector `v`. For the doubled map `G(u, p) = P^{2k}(u) − u` the
//! flip is a pitchfork: `G_u = J² − I` has the null vector `v` (since `(−1)² = 1`), so the null
//! space of `[G_u, G_p]` at `(u*, p*)` is two-dimensional, spanned by
//! - the tangent `t` of the period-`k` branch (which is also a branch of fixed points of `G`),
//!   the unit solution of `[F_u, F_p] t = 0` (`F_u = J − I` is nonsingular at a flip, so
//!   `t_p ≠ 0`), and
//! - `(v, 0)`, along which the period-`2k` branch leaves: its points are
//!   `u = u* + s v + O(s²)`, `p = p* + O(s²)` (the parameter offset is quadratic in the
//!   amplitude: the normal form of the doubled map is `w ↦ w + a (p − p*) w + b w³`).
//!
//! One pseudo-arclength step of the doubled map starts the new branch: the predictor
//! `z_pred = z* + s (v, 0)` along the new branch's tangent, and the corrector
//! `G(u, p) = 0`, `dᵀ(z − z_pred) = 0` ([`Evaluator`]) on the hyperplane normal to
//! `d = (v, 0) − ((v, 0)·t) t` (normalised), the direction of that null space orthogonal to the
//! trivial branch's tangent. The prediction is `O(s²)` from the new branch, which crosses the
//! hyperplane transversally at `z_pred + O(s²)`; the trivial branch, tangent to it, meets it only
//! at a distance of order `√s`. The corrected point is accepted when it lies within `s/2` of
//! the prediction and is a genuine period-`2k` orbit (one application of `P^k` moves it by more
//! than a thousand times the corrector's tolerance); otherwise `s` is reduced tenfold, three
//! times at most. The sign of `p − p*` there tells on which side of the flip the branch
//! exists (supercritical or subcritical).

use crate::branch::{Bifurcation, BifurcationKind};
use crate::corrector::{tangent, Evaluator};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::{ContinuationOptions, Predictor};
use crate::run::Start;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::StrideMap;
use saltation_orbit::{real_eigenvector, reduced_map, OrbitOptions, Shooting};

/// Relative sizes `s / max(‖u*‖∞, 10⁻³)` of the switching step, tried in turn.
const SWITCH_STEPS: [f64; 4] = [1e-2, 1e-3, 1e-4, 1e-5];

/// The start of the period-`2k` branch born at a period doubling ([`switch_period_doubling`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Switched {
    /// The first point of the period-`2k` branch (already on it: a fixed point of `P^{2k}`).
    pub start: Start,
    /// +1 if the branch exists for `p > p*`, −1 for `p < p*`: the direction to continue it in.
    pub direction: f64,
    /// A first step for continuing from `start` away from the flip, in the units of the
    /// predictor of the options given (the distance from the flip in `(u, p)` for
    /// pseudo-arclength, `|p − p*|` for the natural parameter, the change of the continued
    /// event's time for event-time continuation), within `[min_step, max_step]`. Near the
    /// flip the branch's amplitude grows like `√|p − p*|`, so a natural-parameter step much
    /// larger than `|p − p*|` would fall back onto the period-`k` branch.
    pub step: f64,
}

/// The period-`2k` branch born at the period doubling `bif` of a `k`-branch, by one
/// pseudo-arclength step of the doubled map along the critical eigenvector (see the module
/// documentation). Errors: `bif` is not a period doubling
/// ([`ContinuationError::Switch`]); the multiplier −1's eigenvector or the branch's tangent
/// cannot be computed; no step size lands on a genuine period-`2k` orbit (the reason names the
/// last failure). `orbit` holds the settings of the `k`-branch's orbits (its stride is that of
/// `P`), `opts` the continuation's.
pub fn switch_period_doubling<F: ModelFamily>(
    family: &F,
    bif: &Bifurcation,
    period_k: usize,
    orbit: &OrbitOptions,
    opts: &ContinuationOptions,
) -> Result<Switched, ContinuationError> {
    let fail = |reason: String| ContinuationError::Switch {
        p: bif.param,
        reason,
    };
    if bif.kind != BifurcationKind::PeriodDoubling {
        return Err(fail("not a period doubling".into()));
    }
    let k = period_k.max(1);
    let k2 = k
        .checked_mul(2)
        .ok_or_else(|| fail("the period multiplicity overflows".into()))?;
    // The eigenvector at the flip and the step onto the doubled branch by single shooting
    // (they need the reduced Jacobian `F_u`); the doubled branch is then continued with
    // `opts.shooting`.
    let opts = &ContinuationOptions {
        shooting: Shooting::Single,
        ..opts.clone()
    };
    let single = Evaluator::new(family, orbit, opts, k)?;
    let e = single.eval(&bif.u, bif.param, true)?;
    let r = e.fu.nrows();
    let jr = &e.fu + DMatrix::identity(r, r);
    let v = real_eigenvector(&jr, -1.0)?.vector;
    let v = v.normalize();
    // Tangent of the period-k branch (its orientation does not matter here).
    let fp =
        e.fp.as_ref()
            .ok_or(ContinuationError::Singular { p: bif.param })?;
    let mut axis = DVector::zeros(r + 1);
    axis[r] = 1.0;
    let t = tangent(&e.fu, fp, &axis).ok_or(ContinuationError::Singular { p: bif.param })?;
    let mut along = DVector::zeros(r + 1);
    along.rows_mut(0, r).copy_from(&v);
    let d = &along - &t * t.dot(&along);
    let norm = d.norm();
    if !(norm > 1e-8) {
        return Err(fail(
            "the critical eigenvector is parallel to the branch's tangent".into(),
        ));
    }
    let d = d / norm;
    let mut z_star = DVector::zeros(r + 1);
    z_star.rows_mut(0, r).copy_from_slice(&bif.u);
    z_star[r] = bif.param;
    let scale = z_star.rows(0, r).amax().max(1e-3);
    let doubled = Evaluator::new(family, orbit, opts, k2)?;
    let mut last = String::from("no step tried");
    for rel in SWITCH_STEPS {
        let s = rel * scale;
        let z_pred = &z_star + &along * s;
        let (z, e2, _) = match doubled.correct_arclength(&z_pred, &d) {
            Ok(ok) => ok,
            Err(err) => {
                last = format!("step {s:.1e} along the critical eigenvector: {err}");
                continue;
            }
        };
        if (&z - &z_pred).norm() > 0.5 * s {
            last = format!("step {s:.1e}: the corrector went far from the prediction");
            continue;
        }
        let u = z.rows(0, r).clone_owned();
        let p = z[r];
        // Genuine period-2k: one application of P^k moves the point.
        let model = family.model_at(p)?;
        let mut map = StrideMap::new(&model, single.stride.clone())?;
        let pu = reduced_map(&mut map, u.as_slice())?;
        let moved = (pu - &u).norm();
        if !(moved > 1e3 * opts.corrector_tol) {
            last = format!(
                "step {s:.1e}: the corrected point is a period-{k} orbit (P^{k} moves it by \
                 {moved:.1e})"
            );
            continue;
        }
        let direction = if p >= bif.param { 1.0 } else { -1.0 };
        let step = match opts.predictor {
            Predictor::Natural => (p - bif.param).abs(),
            Predictor::Arclength => (&z - &z_star).norm(),
            Predictor::EventTime { event } => {
                let before = single
                    .eval(&bif.u, bif.param, false)
                    .ok()
                    .and_then(|x| x.event_time(event));
                match (before, e2.event_time(event)) {
                    (Some(a), Some(b)) => (b - a).abs(),
                    _ => opts.step,
                }
            }
        };
        let step = if step.is_finite() { step } else { opts.step };
        return Ok(Switched {
            start: Start {
                param: p,
                u: u.as_slice().to_vec(),
                label: format!("period-{k2} from PD at {:.10}", bif.param),
                period_k: k2,
            },
            direction,
            step: step.clamp(opts.min_step, opts.max_step),
        });
    }
    Err(fail(format!(
        "no period-{k2} orbit along the critical eigenvector: {last}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::ParamFamily;
    use crate::run::continue_branch;
    use saltation_hybrid::Bound;

    /// The stride map `u ↦ p − u²` (`test_models::FlipBounce`) flips at `(p*, u*) = (3/4, 1/2)`;
    /// its period-2 orbit `u = (1 ± sqrt(4p − 3)) / 2` exists for `p > 3/4`. The switch must land
    /// on it and the continuation from there stay on it.
    #[test]
    fn switch_lands_on_the_closed_form_period_two_orbit() {
        use crate::test_models::FlipBounce;
        let family = ParamFamily::new(Bound::new(FlipBounce), "p").unwrap();
        // The doubled map is nearly singular along the branch near the flip (its derivative there
        // is of order the squared amplitude, 1e-4 here): a tight corrector puts the start on
        // the branch to 1e-9.
        for predictor in [Predictor::Arclength, Predictor::Natural] {
            let opts = ContinuationOptions {
                corrector_tol: 1e-13,
                predictor,
                ..ContinuationOptions::default()
            };
            switch_and_follow(&family, &opts);
        }
    }

    fn switch_and_follow<F: ModelFamily>(family: &F, opts: &ContinuationOptions) {
        use crate::test_models::FlipBounce;
        let (p_star, u_star) = FlipBounce::flip();
        let model = family.model_at(p_star).unwrap();
        let mut x = vec![0.0; 2];
        saltation_hybrid::EvalModel::chart(&model, &[u_star], &mut x);
        let bif = Bifurcation {
            kind: BifurcationKind::PeriodDoubling,
            branch: "test".into(),
            param: p_star,
            x0: x,
            u: vec![u_star],
            period: 0.0,
            multipliers: Vec::new(),
        };
        let fold = Bifurcation {
            kind: BifurcationKind::Fold,
            ..bif.clone()
        };
        assert!(matches!(
            switch_period_doubling(family, &fold, 1, &OrbitOptions::default(), opts),
            Err(ContinuationError::Switch { ref reason, .. }) if reason == "not a period doubling"
        ));
        let sw = switch_period_doubling(family, &bif, 1, &OrbitOptions::default(), opts).unwrap();
        assert_eq!(sw.start.period_k, 2);
        let (p, u) = (sw.start.param, sw.start.u[0]);
        // On the closed-form period-2 orbit at p.
        let (a, b) = FlipBounce::period_two(p).unwrap_or_else(|| panic!("{sw:?}"));
        assert!(
            (u - a).abs() < 1e-9 || (u - b).abs() < 1e-9,
            "p = {p}: u = {u}, orbit {a}, {b}"
        );
        assert_eq!(sw.direction, FlipBounce::period_two_side());
        // The first step: the distance from the flip, |p − p*| for the natural parameter.
        let from_flip = match opts.predictor {
            Predictor::Natural => p - p_star,
            _ => (u - u_star).hypot(p - p_star),
        };
        assert!(
            (sw.step - from_flip).abs() < 1e-15,
            "{} {from_flip}",
            sw.step
        );
        // Continuing from it stays on the period-2 branch.
        let mut o = opts.clone();
        o.direction = sw.direction;
        o.step = sw.step;
        o.max_points = 20;
        let br = continue_branch(family, &sw.start, &OrbitOptions::default(), &o).unwrap();
        assert!(br.points.len() > 5, "{:?} {:?}", opts.predictor, br.end);
        assert!(
            br.points.last().unwrap().param > p + 1e-3,
            "{:?}",
            opts.predictor
        );
        for pt in &br.points {
            let (a, b) = FlipBounce::period_two(pt.param).unwrap();
            let u = pt.u[0];
            assert!(
                (u - a).abs() < 1e-8 || (u - b).abs() < 1e-8,
                "{} {u} {a} {b}",
                pt.param
            );
        }
    }
}
