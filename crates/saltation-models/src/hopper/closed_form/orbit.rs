//! The periodic hopping orbit in closed form: the lift-off section, the orbit's Floquet data
//! (Zana et al. 2018, §4.1.2–4.1.3, eqs. 62–67), apex heights and the impact energy split.

use super::solve::{constant, return_map, seeded};
use super::{
    brackets, flight_c, refine, stride_c, ClosedFormError, Coeffs, Crossing, GRID_PER_PERIOD,
    MAX_GRID,
};
use crate::hopper::HopperParams;
use num_dual::{Dual64, DualNum};

/// The maximum height of a block during flight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Apex {
    /// Time after lift-off (s).
    pub time: f64,
    /// Height (m).
    pub height: f64,
}

/// Kinetic energy just before touchdown (J): the impact `ż_L⁺ = 0` removes `lost`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TouchdownEnergy {
    /// `T = ½ (m_U ż_U² + m_L ż_L²)`.
    pub total: f64,
    /// `T_c = ½ m_L ż_L²`, lost in the perfectly inelastic impact.
    pub lost: f64,
    /// `T_a = ½ m_U ż_U²`, kept.
    pub kept: f64,
}

/// A guess for [`periodic_orbit_at_flight_time`](super::periodic_orbit_at_flight_time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LiftoffGuess {
    /// Ground damping `d_G` (N s/m).
    pub d_g: f64,
    /// Lift-off velocity of the upper block `ż_U` (m/s).
    pub zu_dot: f64,
}

/// The periodic orbit from the closed form.
#[derive(Debug, Clone, PartialEq)]
pub struct ClosedFormOrbit {
    /// The parameters (with the solved `d_G` for [`periodic_orbit_at_flight_time`](super::periodic_orbit_at_flight_time)).
    pub params: HopperParams,
    /// Lift-off state `[z_U, 0, ż_U, 0]` with `λ = 0`.
    pub liftoff: [f64; 4],
    /// Flight time `t_F` (s).
    pub t_flight: f64,
    /// Ground time `t_G` (s).
    pub t_ground: f64,
    /// Period `t_F + t_G` (s).
    pub period: f64,
    /// State just before touchdown.
    pub touchdown: [f64; 4],
    /// The nontrivial Floquet multiplier, `dP/dż_U` of the return map on the lift-off section.
    pub multiplier: f64,
    /// `M = ∂(z_U, ż_U)_end / ∂(z_U0, ż_U0)` with `z_L0 = ż_L0 = 0` (Zana et al. 2018,
    /// eq. 67), row-major.
    pub jacobian: [[f64; 2]; 2],
    /// Eigenvalues of `M` as `[re, im]`, largest magnitude first.
    pub jacobian_eigenvalues: [[f64; 2]; 2],
    /// Monodromy `∂x(T)/∂x₀` at the fixed time `T` = period (the paper's `Φ̃`), row-major.
    pub monodromy: [[f64; 4]; 4],
    /// Apex of the upper block in flight.
    pub apex_upper: Apex,
    /// Apex of the lower block in flight.
    pub apex_lower: Apex,
    /// Kinetic energy just before touchdown.
    pub energy: TouchdownEnergy,
    /// Periodicity residual `max(|Δz_U|, |Δż_U|)` over one stride.
    pub residual: f64,
}

/// The point of the lift-off section (`z_L = ż_L = 0`, `λ = 0`) with `ż_U = v`:
/// `z_U = L0 + (m_L g − d_G v)/k`.
pub fn liftoff_state<D: DualNum<f64> + Copy>(p: &HopperParams, v: D) -> [D; 4] {
    liftoff_c(&Coeffs::new(p), v)
}

pub(crate) fn liftoff_c<D: DualNum<f64> + Copy>(c: &Coeffs<D>, v: D) -> [D; 4] {
    let z_u = c.l0 + (c.m_l * c.g - c.d_g * v) / c.k;
    [z_u, D::from(0.0), v, D::from(0.0)]
}

/// State at the fixed time `t_end` after `x0`: one stride, then flight for the remaining
/// `t_end − t_F − t_G` (the side on which lift-off happened before `t_end`; its Jacobian is
/// the saltation composition `S_GF Φ_G S_FG Φ_F` at the nominal orbit).
fn state_at_fixed_time<D: DualNum<f64> + Copy>(
    c: &Coeffs<D>,
    x0: &[D; 4],
    t_end: f64,
) -> Result<[D; 4], ClosedFormError> {
    let s = stride_c(c, x0)?;
    let rest = D::from(t_end) - s.t_flight - s.t_ground;
    Ok(flight_c(c, &s.end, rest))
}

/// Column `j` of the Jacobian of `f` at `x` (one dual-number pass).
fn jacobian_column(
    f: impl Fn(&[Dual64; 4]) -> Result<[Dual64; 4], ClosedFormError>,
    x: &[f64; 4],
    j: usize,
) -> Result<[f64; 4], ClosedFormError> {
    let xd: [Dual64; 4] =
        std::array::from_fn(|i| if i == j { seeded(x[i]) } else { constant(x[i]) });
    let y = f(&xd)?;
    Ok(std::array::from_fn(|i| y[i].eps))
}

/// Eigenvalues `[re, im]` of a real 2×2 matrix, the larger in magnitude first (the smaller
/// as `det/λ₁` to avoid cancellation).
fn eigenvalues_2x2(a: &[[f64; 2]; 2]) -> [[f64; 2]; 2] {
    let half_tr = 0.5 * (a[0][0] + a[1][1]);
    let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    let disc = half_tr * half_tr - det;
    if disc >= 0.0 {
        let l1 = half_tr + half_tr.signum() * disc.sqrt();
        let l2 = if l1 != 0.0 { det / l1 } else { 0.0 };
        [[l1, 0.0], [l2, 0.0]]
    } else {
        let im = (-disc).sqrt();
        [[half_tr, im], [half_tr, -im]]
    }
}

/// Maximum of block `i` (0 upper, 1 lower) over the flight `[0, t_end]`: the end points and
/// every stationary point (velocity falling through 0, refined by Newton with the flight
/// acceleration).
fn apex(c: &Coeffs<f64>, x0: &[f64; 4], t_end: f64, i: usize) -> Result<Apex, ClosedFormError> {
    let step = c.flight_oscillator().time_scale() / GRID_PER_PERIOD;
    let height = |t: f64| flight_c(c, x0, t)[i];
    let rate = |t: f64| {
        let x = flight_c(c, x0, t);
        (x[2 + i], c.flight_accel(&x)[i])
    };
    let mut best = Apex {
        time: 0.0,
        height: x0[i],
    };
    let mut candidates = vec![t_end];
    for b in brackets(rate, t_end, step, Crossing::Down, MAX_GRID)? {
        candidates.push(refine(rate, b)?);
    }
    for t in candidates {
        if height(t) > best.height {
            best = Apex {
                time: t,
                height: height(t),
            };
        }
    }
    Ok(best)
}

/// Every orbit quantity at the converged lift-off velocity `v`.
pub(crate) fn build_orbit(p: &HopperParams, v: f64) -> Result<ClosedFormOrbit, ClosedFormError> {
    let (cf, cd) = (Coeffs::<f64>::new(p), Coeffs::<Dual64>::new(p));
    let liftoff = liftoff_c(&cf, v);
    let s = stride_c(&cf, &liftoff)?;
    let (pv, _) = return_map(&cd, seeded(v))?;
    let end_of_stride = |x: &[Dual64; 4]| stride_c(&cd, x).map(|s| s.end);
    let cols = [
        jacobian_column(end_of_stride, &liftoff, 0)?,
        jacobian_column(end_of_stride, &liftoff, 2)?,
    ];
    let jacobian = [[cols[0][0], cols[1][0]], [cols[0][2], cols[1][2]]];
    let period = s.t_flight + s.t_ground;
    let mut monodromy = [[0.0; 4]; 4];
    for j in 0..4 {
        let col = jacobian_column(|x| state_at_fixed_time(&cd, x, period), &liftoff, j)?;
        for (i, row) in monodromy.iter_mut().enumerate() {
            row[j] = col[i];
        }
    }
    let pre = s.pre_impact;
    let (kept, lost) = (
        0.5 * cf.m_u * pre[2] * pre[2],
        0.5 * cf.m_l * pre[3] * pre[3],
    );
    Ok(ClosedFormOrbit {
        params: *p,
        liftoff,
        t_flight: s.t_flight,
        t_ground: s.t_ground,
        period,
        touchdown: pre,
        multiplier: pv.eps,
        jacobian,
        jacobian_eigenvalues: eigenvalues_2x2(&jacobian),
        monodromy,
        apex_upper: apex(&cf, &liftoff, s.t_flight, 0)?,
        apex_lower: apex(&cf, &liftoff, s.t_flight, 1)?,
        energy: TouchdownEnergy {
            total: kept + lost,
            lost,
            kept,
        },
        residual: (s.end[0] - liftoff[0]).abs().max((s.end[2] - v).abs()),
    })
}
