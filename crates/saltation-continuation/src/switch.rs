//! Branch switching at a period doubling (Kuznetsov, *Elements of Applied Bifurcation Theory*,
//! ch. 10): at a flip of the `k`-fold stride map the
//! reduced Jacobian has the multiplier −1 with eigenvector `v`; the period-`2k` orbit is born
//! there, with amplitude `~ sqrt(|p − p*|)` along `v`. We start Newton on `P^{2k}` from
//! `u* ± ε v` at `p* ± δ` and accept the first solution that is a genuine period-`2k` orbit
//! (`P^k` moves it by more than the Newton tolerance).

use crate::branch::{Bifurcation, BifurcationKind};
use crate::corrector::{composed_events, Evaluator};
use crate::error::ContinuationError;
use crate::family::ModelFamily;
use crate::options::ContinuationOptions;
use crate::run::Start;
use nalgebra::{DMatrix, DVector};
use saltation_hybrid::StrideMap;
use saltation_orbit::{find_periodic_orbit, real_eigenvector, reduced_map, OrbitOptions};

/// A [`Start`] on the period-`2k` branch born at the period doubling `bif` of a `k`-branch, and
/// the direction (+1/−1 in the parameter) in which that branch exists.
pub fn switch_period_doubling<F: ModelFamily>(
    family: &F,
    bif: &Bifurcation,
    period_k: usize,
    opts: &ContinuationOptions,
) -> Result<(Start, f64), ContinuationError> {
    let fail = |reason: &str| ContinuationError::Switch {
        p: bif.param,
        reason: reason.to_string(),
    };
    if bif.kind != BifurcationKind::PeriodDoubling {
        return Err(fail("not a period doubling"));
    }
    let ev = Evaluator::new(family, opts, period_k)?;
    let e = ev.eval(&bif.u, bif.param, false)?;
    let jr = &e.fu + DMatrix::identity(e.fu.nrows(), e.fu.ncols());
    let v = real_eigenvector(&jr, -1.0)?.vector;
    let u_star = DVector::from_column_slice(&bif.u);
    let scale = u_star.amax().max(1e-3);
    let k2 = period_k
        .max(1)
        .checked_mul(2)
        .ok_or_else(|| fail("the period multiplicity overflows"))?;
    let mut orbit_opts = OrbitOptions {
        stride: opts.stride.clone(),
        newton: opts.newton.clone(),
        eigen: opts.eigen,
    };
    orbit_opts.stride.events_per_stride = composed_events(opts.stride.events_per_stride, k2)?;
    let mut single = opts.stride.clone();
    single.events_per_stride = composed_events(opts.stride.events_per_stride, period_k)?;
    let delta = 1e-3 * bif.param.abs().max(1e-2);
    for side in [1.0, -1.0] {
        let p = bif.param + side * delta;
        let model = family.model_at(p)?;
        for eps in [3e-2, 1e-2, 3e-3, 1e-3] {
            for sign in [1.0, -1.0] {
                let guess = &u_star + &v * (sign * eps * scale);
                let Ok(orbit) = find_periodic_orbit(&model, guess.as_slice(), &orbit_opts) else {
                    continue;
                };
                // Genuine period-2k: one application of P^k moves the point.
                let mut map = StrideMap::new(&model, single.clone())?;
                let Ok(pu) = reduced_map(&mut map, &orbit.u0) else {
                    continue;
                };
                let moved = (pu - DVector::from_column_slice(&orbit.u0)).norm();
                if moved > 1e3 * opts.newton.ftol.max(1e-12) {
                    let start = Start {
                        param: p,
                        u: orbit.u0,
                        label: format!("period-{k2} from PD at {:.10}", bif.param),
                        period_k: k2,
                    };
                    return Ok((start, side));
                }
            }
        }
    }
    Err(fail("no period-2 orbit found near the flip on either side"))
}
