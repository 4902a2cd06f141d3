//! Event times in closed form: a grid scan for the first crossing (fine relative to the
//! phase's characteristic time, with a check for crossing pairs narrower than the grid), a
//! safeguarded Newton refinement in f64, and Newton steps in dual numbers for the exact
//! derivatives (implicit differentiation).

use super::{flight_c, ground_deviation, ClosedFormError, Coeffs};
use crate::hopper::HopperParams;
use num_dual::DualNum;

/// Grid points per characteristic time `2π/(ω₀ + 2|σ|)` of a phase in the event scans.
pub(crate) const GRID_PER_PERIOD: f64 = 256.0;
/// Most grid points of one scan (bounds every scan loop).
pub(crate) const MAX_GRID: usize = 2_000_000;
/// Ground-phase horizon in undamped periods `2π √(m_U/k)`.
const GROUND_PERIODS: f64 = 64.0;
/// Cap of the safeguarded Newton refinement of an event time.
const MAX_REFINE: usize = 200;
/// Newton steps in dual numbers after the f64 root: each step doubles (plus one) the order to
/// which the derivatives are exact, so two steps make first to third derivatives exact.
const POLISH_STEPS: usize = 2;
/// Direction of a guard crossing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Crossing {
    /// From `> 0` to `≤ 0`.
    Down,
    /// From `< 0` to `≥ 0`.
    Up,
}

impl Crossing {
    fn between(self, prev: f64, cur: f64) -> bool {
        match self {
            Crossing::Down => prev > 0.0 && cur <= 0.0,
            Crossing::Up => prev < 0.0 && cur >= 0.0,
        }
    }
}

/// Grid brackets of the crossings of `h` (value, rate) on `[0, horizon]` (step `step`), at
/// most `limit` of them, first first: `[t_{i−1}, t_i]` where the value changes sign, and
/// `[t_{i−1}, t_m]` where it does not but the rate does and the extremum at `t_m` reaches the
/// other side (a crossing pair narrower than the grid, near grazing).
pub(crate) fn brackets(
    h: impl Fn(f64) -> (f64, f64),
    horizon: f64,
    step: f64,
    dir: Crossing,
    limit: usize,
) -> Result<Vec<[f64; 2]>, ClosedFormError> {
    let n = (horizon / step).ceil();
    if !n.is_finite() || n > MAX_GRID as f64 || step <= 0.0 {
        return Err(ClosedFormError::GridTooLarge {
            horizon,
            max: MAX_GRID,
        });
    }
    let n = (n as usize).max(1);
    let (mut out, mut t_prev, mut prev) = (Vec::new(), 0.0, h(0.0));
    for i in 1..=n {
        let t = (i as f64 * step).min(horizon);
        let cur = h(t);
        if !(cur.0.is_finite() && cur.1.is_finite()) {
            return Err(ClosedFormError::NonFinite { t });
        }
        if dir.between(prev.0, cur.0) {
            out.push([t_prev, t]);
        } else if let Some(t_m) = hidden_crossing(&h, dir, [t_prev, t], prev, cur) {
            out.push([t_prev, t_m]);
        }
        if out.len() >= limit {
            break;
        }
        (t_prev, prev) = (t, cur);
    }
    Ok(out)
}

/// A pair of crossings inside one grid step: the value stays on the starting side at both
/// ends, the rate turns back (`+ → −` for [`Crossing::Up`], `− → +` for [`Crossing::Down`]),
/// and the extremum, located by bisection on the rate, reaches the other side. Returns it.
fn hidden_crossing(
    h: &impl Fn(f64) -> (f64, f64),
    dir: Crossing,
    [a, b]: [f64; 2],
    fa: (f64, f64),
    fb: (f64, f64),
) -> Option<f64> {
    let s = if dir == Crossing::Up { 1.0 } else { -1.0 };
    let before = s * fa.0 < 0.0 && s * fb.0 < 0.0;
    if !(before && s * fa.1 > 0.0 && s * fb.1 < 0.0) {
        return None;
    }
    let (mut lo, mut hi) = (a, b);
    for _ in 0..MAX_REFINE {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if s * h(mid).1 > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t_m = if s * h(lo).0 >= s * h(hi).0 { lo } else { hi };
    (s * h(t_m).0 >= 0.0).then_some(t_m)
}

/// Root of `h` (value, rate) in a sign-change bracket by Newton's method safeguarded with
/// bisection, to a few ulps.
pub(crate) fn refine(
    h: impl Fn(f64) -> (f64, f64),
    bracket: [f64; 2],
) -> Result<f64, ClosedFormError> {
    let [a, b] = bracket;
    let fa = h(a).0;
    let (mut lo, mut hi) = (a, b);
    let mut t = 0.5 * (a + b);
    let mut f = f64::NAN;
    for _ in 0..MAX_REFINE {
        let (ft, df) = h(t);
        f = ft;
        if f == 0.0 {
            return Ok(t);
        }
        if (f > 0.0) == (fa > 0.0) {
            lo = t;
        } else {
            hi = t;
        }
        let newton = t - f / df;
        let inside = newton > lo.min(hi) && newton < lo.max(hi);
        let next = if inside { newton } else { 0.5 * (lo + hi) };
        let tol = 4.0 * f64::EPSILON * t.abs().max(f64::MIN_POSITIVE);
        if (next - t).abs() <= tol || (hi - lo).abs() <= tol {
            return Ok(next);
        }
        t = next;
    }
    Err(ClosedFormError::NotConverged {
        what: "event refinement",
        iterations: MAX_REFINE,
        residual: f,
    })
}

/// Implicit differentiation of an event time: from the f64 root `t`, [`POLISH_STEPS`] Newton
/// steps `t ← t − h(x₀, t)/ḣ(x₀, t)` evaluated in `D` give `t*(x₀)` with exact derivatives.
pub(crate) fn polish<D: DualNum<f64> + Copy>(
    t: f64,
    h: impl Fn(D) -> (D, D),
) -> Result<D, ClosedFormError> {
    let mut td = D::from(t);
    for _ in 0..POLISH_STEPS {
        let (v, dv) = h(td);
        if !(dv.re().abs() > 0.0 && dv.re().is_finite()) {
            return Err(ClosedFormError::Grazing { t, rate: dv.re() });
        }
        td -= v / dv;
    }
    Ok(td)
}

fn re4<D: DualNum<f64> + Copy>(x: &[D; 4]) -> [f64; 4] {
    [x[0].re(), x[1].re(), x[2].re(), x[3].re()]
}

fn check_state(x: &[f64; 4]) -> Result<(), ClosedFormError> {
    if x.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(ClosedFormError::Input("the state must be finite"))
    }
}

/// Horizon within which `z_L` must have fallen through 0: with `A` the envelope bound of the
/// deflection, `z_L ≤ ζ₁(t) − (m_U/m)(L0 − A)`, negative once `ζ₁(t) < (m_U/m)(L0 − A)`.
fn touchdown_horizon(c: &Coeffs<f64>, x0: &[f64; 4]) -> f64 {
    let m = c.m_u + c.m_l;
    let osc = c.flight_oscillator();
    let a = osc.amplitude_bound(x0[0] - x0[1] - c.l0, x0[2] - x0[3]);
    let level = c.m_u / m * (c.l0 - a);
    let zeta0 = (c.m_u * x0[0] + c.m_l * x0[1]) / m;
    let w = (c.m_u * x0[2] + c.m_l * x0[3]) / m;
    let disc = w * w + 2.0 * c.g * (zeta0 - level);
    (w.max(0.0) + disc.max(0.0).sqrt()) / c.g + osc.time_scale()
}

/// Touchdown time: the first time after 0 that `z_L` falls through 0 in flight.
pub(crate) fn touchdown_time_c<D: DualNum<f64> + Copy>(
    c: &Coeffs<D>,
    x0: &[D; 4],
) -> Result<D, ClosedFormError> {
    let (cf, xr) = (c.re(), re4(x0));
    check_state(&xr)?;
    let step = cf.flight_oscillator().time_scale() / GRID_PER_PERIOD;
    let h = |t: f64| {
        let x = flight_c(&cf, &xr, t);
        (x[1], x[3])
    };
    if xr[1] >= 0.0 && h(step).0 < 0.0 {
        return Err(ClosedFormError::NoFlight { t: step });
    }
    let horizon = touchdown_horizon(&cf, &xr);
    let found = brackets(h, horizon, step, Crossing::Down, 1)?;
    let bracket = found
        .first()
        .ok_or(ClosedFormError::NoTouchdown { horizon })?;
    let t = refine(h, *bracket)?;
    polish(t, |td: D| {
        let x = flight_c(c, x0, td);
        (x[1], x[3])
    })
}

/// Lift-off time: the first time after 0 that `λ` rises through 0 in the ground phase.
pub(crate) fn liftoff_time_c<D: DualNum<f64> + Copy>(
    c: &Coeffs<D>,
    x0: &[D; 4],
) -> Result<D, ClosedFormError> {
    let (cf, xr) = (c.re(), re4(x0));
    check_state(&xr)?;
    let lambda = cf.multiplier(&xr);
    if lambda >= 0.0 {
        return Err(ClosedFormError::NoStance { lambda });
    }
    let osc = cf.ground_oscillator();
    let step = osc.time_scale() / GRID_PER_PERIOD;
    let horizon = GROUND_PERIODS * 2.0 * std::f64::consts::PI / osc.omega2.sqrt();
    let h = |t: f64| ground_multiplier_at(&cf, &xr, t);
    let found = brackets(h, horizon, step, Crossing::Up, 1)?;
    let bracket = found
        .first()
        .ok_or(ClosedFormError::NoLiftoff { horizon })?;
    let t = refine(h, *bracket)?;
    polish(t, |td: D| ground_multiplier_at(c, x0, td))
}

/// `(λ, λ̇)` at time `t` of the ground phase from `x0`.
fn ground_multiplier_at<D: DualNum<f64> + Copy>(c: &Coeffs<D>, x0: &[D; 4], t: D) -> (D, D) {
    let (y0, v0) = ground_deviation(c, x0);
    let (y, v) = c.ground_oscillator().eval(y0, v0, t);
    c.ground_multiplier(y, v)
}

/// Touchdown time from `x0` (flight), with exact derivatives.
pub fn touchdown_time<D: DualNum<f64> + Copy>(
    p: &HopperParams,
    x0: [D; 4],
) -> Result<D, ClosedFormError> {
    p.check()?;
    touchdown_time_c(&Coeffs::new(p), &x0)
}

/// Lift-off time from `x0` (ground), with exact derivatives.
pub fn liftoff_time<D: DualNum<f64> + Copy>(
    p: &HopperParams,
    x0: [D; 4],
) -> Result<D, ClosedFormError> {
    p.check()?;
    liftoff_time_c(&Coeffs::new(p), &x0)
}
