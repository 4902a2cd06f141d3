//! Solvers for the periodic orbit: damped Newton iterations on the closed-form return map
//! (exact derivatives by dual numbers), the scan for sign changes of the periodicity residual,
//! and the paper's flight-time formulation (Zana et al. 2018, §4.1.3).

use super::events::touchdown_time_c;
use super::orbit::{build_orbit, liftoff_c, LiftoffGuess};
use super::{stride_c, ClosedFormError, ClosedFormOrbit, Coeffs, StrideClosed};
use crate::hopper::HopperParams;
use num_dual::{Dual64, DualNum};

/// Cap of every Newton iteration on the orbit.
const MAX_NEWTON: usize = 100;
/// A Newton step this small (relative) is the last one: after it the error is at the
/// rounding level of the residual (quadratic convergence).
const FINAL_STEP: f64 = 1e-11;
/// Cap of the step halvings of one damped Newton step.
const MAX_HALVINGS: usize = 40;
/// Lift-off velocities scanned by [`flight_time_guess`] (m/s) and the number of grid points.
const SCAN_V: (f64, f64, usize) = (0.01, 30.0, 240);
/// Bisection steps on the scanned bracket before Newton takes over.
const SCAN_BISECTIONS: usize = 30;

pub(crate) fn seeded(x: f64) -> Dual64 {
    Dual64::new(x, 1.0)
}

pub(crate) fn constant(x: f64) -> Dual64 {
    Dual64::new(x, 0.0)
}

/// Damped Newton for a scalar equation `f(x) = 0` (`f` returns value and derivative): halves
/// the step until `|f|` decreases; stops after a step below [`FINAL_STEP`] relative.
fn newton_1d(
    what: &'static str,
    f: impl Fn(f64) -> Result<(f64, f64), ClosedFormError>,
    x0: f64,
) -> Result<f64, ClosedFormError> {
    let mut x = x0;
    let (mut r, mut dr) = f(x)?;
    for _ in 0..MAX_NEWTON {
        if !(dr.abs() > 0.0 && dr.is_finite()) {
            return Err(ClosedFormError::Singular(what));
        }
        let dx = -r / dr;
        if dx.abs() <= FINAL_STEP * x.abs() {
            return Ok(x + dx);
        }
        let mut lam = 1.0;
        let mut accepted = None;
        for _ in 0..MAX_HALVINGS {
            if let Ok((rn, drn)) = f(x + lam * dx) {
                if rn.abs() < r.abs() {
                    accepted = Some((x + lam * dx, rn, drn));
                    break;
                }
            }
            lam *= 0.5;
        }
        match accepted {
            Some((xn, rn, drn)) => (x, r, dr) = (xn, rn, drn),
            // No decrease from a residual at rounding level: converged.
            None if r.abs() <= 64.0 * f64::EPSILON * (x.abs() + 1.0) => return Ok(x),
            None => break,
        }
    }
    Err(ClosedFormError::NotConverged {
        what,
        iterations: MAX_NEWTON,
        residual: r,
    })
}

/// Return map on the lift-off section, `P(v) = ż_U` at the end of the stride from
/// `liftoff(v)` (Zana et al. 2018, eq. 62), with its stride.
pub(crate) fn return_map<D: DualNum<f64> + Copy>(
    c: &Coeffs<D>,
    v: D,
) -> Result<(D, StrideClosed<D>), ClosedFormError> {
    let s = stride_c(c, &liftoff_c(c, v))?;
    Ok((s.end[2], s))
}

/// Periodicity residual `r(v) = P(v) − v` and `r'(v)` (exact, dual numbers).
fn periodicity(c: &Coeffs<Dual64>, v: f64) -> Result<(f64, f64), ClosedFormError> {
    let (pv, _) = return_map(c, seeded(v))?;
    Ok((pv.re - v, pv.eps - 1.0))
}

/// Lift-off velocity whose flight lasts `t_flight`: Newton on `t_F(v) = t_flight` from the
/// ballistic estimate `v = g t_F m / (2 m_U)` (the centre of mass leaves at `m_U v / m`).
fn velocity_for_flight_time(c: &Coeffs<Dual64>, t_flight: f64) -> Result<f64, ClosedFormError> {
    let cf = c.re();
    let v0 = cf.g * t_flight * (cf.m_u + cf.m_l) / (2.0 * cf.m_u);
    let f = |v: f64| {
        let t = touchdown_time_c(c, &liftoff_c(c, seeded(v)))?;
        Ok((t.re - t_flight, t.eps))
    };
    newton_1d("flight time inversion", f, v0)
}

/// Lift-off velocities `[v_lo, v_hi]` (geometric grid of `n` points on `[v_min, v_max]`)
/// between which the periodicity residual `P(v) − v` changes sign (strides that fail are
/// skipped).
pub fn liftoff_velocity_brackets(
    p: &HopperParams,
    v_min: f64,
    v_max: f64,
    n: usize,
) -> Result<Vec<[f64; 2]>, ClosedFormError> {
    p.check()?;
    if !(v_min > 0.0 && v_max > v_min && v_max.is_finite() && (2..=100_000).contains(&n)) {
        return Err(ClosedFormError::Input(
            "need 0 < v_min < v_max and 2 ≤ n ≤ 100000",
        ));
    }
    let c = Coeffs::<f64>::new(p);
    let r = |v: f64| return_map(&c, v).ok().map(|(pv, _)| pv - v);
    let ratio = (v_max / v_min).powf(1.0 / (n - 1) as f64);
    let mut out = Vec::new();
    let (mut v_prev, mut r_prev) = (v_min, r(v_min));
    for i in 1..n {
        let v = v_min * ratio.powi(i as i32);
        let r_cur = r(v);
        if let (Some(a), Some(b)) = (r_prev, r_cur) {
            if (a > 0.0) != (b > 0.0) {
                out.push([v_prev, v]);
            }
        }
        (v_prev, r_prev) = (v, r_cur);
    }
    Ok(out)
}

/// Flight-time guesses for [`periodic_orbit`], one per periodic orbit found: every sign
/// change of `P(v) − v` on a geometric grid of lift-off velocities `ż_U ∈ [0.01, 30]` m/s,
/// narrowed by bisection, and the flight time there (slowest lift-off first).
pub fn flight_time_guesses(p: &HopperParams) -> Result<Vec<f64>, ClosedFormError> {
    let (lo, hi, n) = SCAN_V;
    let found = liftoff_velocity_brackets(p, lo, hi, n)?;
    if found.is_empty() {
        return Err(ClosedFormError::NoBracket { lo, hi });
    }
    let c = Coeffs::<f64>::new(p);
    let r = |v: f64| return_map(&c, v).map(|(pv, _)| pv - v);
    let mut guesses = Vec::with_capacity(found.len());
    for [mut a, mut b] in found {
        let ra = r(a)?;
        for _ in 0..SCAN_BISECTIONS {
            let mid = 0.5 * (a + b);
            match r(mid) {
                Ok(rm) if (rm > 0.0) == (ra > 0.0) => a = mid,
                Ok(_) => b = mid,
                Err(_) => break,
            }
        }
        guesses.push(return_map(&c, 0.5 * (a + b))?.1.t_flight);
    }
    Ok(guesses)
}

/// The lift-off fixed point (Zana et al. 2018, §4.1.2): Newton on `P(v) − v = 0` in the
/// section coordinate `v = ż_U` (well conditioned also at `d_G = 0`, where `z_U` is fixed on
/// the section), from the lift-off velocity whose flight lasts `t_flight_guess`; then every
/// orbit quantity (see [`ClosedFormOrbit`]). If Newton fails from there (e.g. the guess lies
/// where the foot cannot stay down at touchdown), the orbit found by
/// [`flight_time_guesses`] whose flight time is closest to the guess is returned.
pub fn periodic_orbit(
    p: &HopperParams,
    t_flight_guess: f64,
) -> Result<ClosedFormOrbit, ClosedFormError> {
    p.check()?;
    if !(t_flight_guess > 0.0 && t_flight_guess.is_finite()) {
        return Err(ClosedFormError::Input(
            "the flight-time guess must be positive",
        ));
    }
    let c = Coeffs::<Dual64>::new(p);
    let from_guess = |t: f64| {
        let v0 = velocity_for_flight_time(&c, t)?;
        newton_1d("lift-off fixed point", |v| periodicity(&c, v), v0)
    };
    match from_guess(t_flight_guess) {
        Ok(v) => build_orbit(p, v),
        Err(err) => {
            let mut best: Option<ClosedFormOrbit> = None;
            for t in flight_time_guesses(p).map_err(|_| err.clone())? {
                if let Ok(o) = from_guess(t).and_then(|v| build_orbit(p, v)) {
                    let closer = |b: &ClosedFormOrbit| {
                        (o.t_flight - t_flight_guess).abs() < (b.t_flight - t_flight_guess).abs()
                    };
                    if best.as_ref().is_none_or(closer) {
                        best = Some(o);
                    }
                }
            }
            best.ok_or(err)
        }
    }
}

/// `F(v, d_G) = [t_F − t_flight, P(v) − v]` with `v` and `d_G` as dual numbers.
fn flight_time_system(
    p: &HopperParams,
    t_flight: f64,
    v: Dual64,
    d_g: Dual64,
) -> Result<[Dual64; 2], ClosedFormError> {
    let c = Coeffs::with_d_g(p, d_g);
    let (pv, s) = return_map(&c, v)?;
    Ok([s.t_flight - t_flight, pv - v])
}

/// Value and Jacobian (row-major) of [`flight_time_system`] at `u = (v, d_G)`.
fn flight_time_newton_data(
    p: &HopperParams,
    t_flight: f64,
    u: [f64; 2],
) -> Result<([f64; 2], [[f64; 2]; 2]), ClosedFormError> {
    let a = flight_time_system(p, t_flight, seeded(u[0]), constant(u[1]))?;
    let b = flight_time_system(p, t_flight, constant(u[0]), seeded(u[1]))?;
    Ok((
        [a[0].re, a[1].re],
        [[a[0].eps, b[0].eps], [a[1].eps, b[1].eps]],
    ))
}

/// The paper's formulation (Zana et al. 2018, §4.1.3): the flight time `t_flight` is given
/// and `d_G` is solved for together with the lift-off velocity (Newton in `(ż_U, d_G)` with
/// an exact Jacobian). Returns `d_G` and the orbit. Without a guess, `d_G` of `p_base` and the
/// lift-off velocity whose flight lasts `t_flight` are used.
pub fn periodic_orbit_at_flight_time(
    p_base: &HopperParams,
    t_flight: f64,
    guess: Option<LiftoffGuess>,
) -> Result<(f64, ClosedFormOrbit), ClosedFormError> {
    p_base.check()?;
    if !(t_flight > 0.0 && t_flight.is_finite()) {
        return Err(ClosedFormError::Input("the flight time must be positive"));
    }
    let mut u = match guess {
        Some(g) if g.d_g.is_finite() && g.zu_dot.is_finite() => [g.zu_dot, g.d_g],
        Some(_) => return Err(ClosedFormError::Input("the guess must be finite")),
        None => {
            let v = velocity_for_flight_time(&Coeffs::new(p_base), t_flight)?;
            [v, p_base.d_g]
        }
    };
    let d_scale = 2.0 * (p_base.k * p_base.m).sqrt();
    let norm = |r: &[f64; 2], u: &[f64; 2]| (r[0] / t_flight).hypot(r[1] / u[0].abs().max(1e-3));
    let (mut r, mut j) = flight_time_newton_data(p_base, t_flight, u)?;
    for _ in 0..MAX_NEWTON {
        let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
        if !(det.abs() > 0.0 && det.is_finite()) {
            return Err(ClosedFormError::Singular("flight-time formulation"));
        }
        let du = [
            -(j[1][1] * r[0] - j[0][1] * r[1]) / det,
            -(-j[1][0] * r[0] + j[0][0] * r[1]) / det,
        ];
        if du[0].abs() <= FINAL_STEP * u[0].abs()
            && du[1].abs() <= FINAL_STEP * (u[1].abs() + d_scale)
        {
            let (v, d_g) = (u[0] + du[0], u[1] + du[1]);
            let p = HopperParams { d_g, ..*p_base };
            return Ok((d_g, build_orbit(&p, v)?));
        }
        let n0 = norm(&r, &u);
        let mut lam = 1.0;
        let mut accepted = None;
        for _ in 0..MAX_HALVINGS {
            let un = [u[0] + lam * du[0], u[1] + lam * du[1]];
            if let Ok((rn, jn)) = flight_time_newton_data(p_base, t_flight, un) {
                if norm(&rn, &un) < n0 {
                    accepted = Some((un, rn, jn));
                    break;
                }
            }
            lam *= 0.5;
        }
        match accepted {
            Some((un, rn, jn)) => (u, r, j) = (un, rn, jn),
            None if n0 <= 64.0 * f64::EPSILON => {
                let p = HopperParams {
                    d_g: u[1],
                    ..*p_base
                };
                return Ok((u[1], build_orbit(&p, u[0])?));
            }
            None => break,
        }
    }
    Err(ClosedFormError::NotConverged {
        what: "flight-time formulation",
        iterations: MAX_NEWTON,
        residual: norm(&r, &u),
    })
}
