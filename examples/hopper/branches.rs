//! (Zana et al. 2018, §4.3): the branch of periodic hopping orbits in the ground damping, from
//! `D_G = 0⁻` down to where the flight time grows without bound, by pseudo-arclength
//! continuation; every point evaluated for the figures and checked against the closed form.

use crate::Res;
use saltation::continuation::{
    continue_branch, Bifurcation, BifurcationKind, Branch, ContinuationOptions, Predictor, Start,
};
use saltation::hybrid::{simulate, Bound, EvalModel, ParamError, SimulateOptions, StrideOptions};
use saltation::mechanics::ContactReports;
use saltation::models::hopper::{
    closed_form, stride_options, Hopper, HopperParams, HopperParticles, FLIGHT,
};
use saltation::orbit::{Multiplier, OrbitOptions};
use std::time::{Duration, Instant};

/// `D_G` of the first orbit (`d_G ≈ −0.21` N s/m): as close to `0⁻` as the orbit (whose hop
/// vanishes at `D_G = 0`) is comfortably resolved.
pub const START: f64 = -1e-4;
/// Longest stride (s): the branch ends where the period exceeds it.
pub const T_MAX: f64 = 2.5;
/// Integration tolerance of the continuation.
pub const TOL: f64 = 1e-10;
/// Samples of the flight phase for the apex heights.
const FLIGHT_SAMPLES: f64 = 2000.0;

/// The continuation settings. The parameter is `D_G` itself (the figures' abscissa): in the
/// arclength `‖(Δu, ΔD_G)‖` the lift-off velocity `ż_U`, which grows monotonically along the
/// branch, then sets the steps, each hyperplane of the corrector cuts the branch once, and
/// `max_step` (see [`stages`]) keeps the steps below the distance in `ż_U` between the two
/// folds of each S-shaped stretch. (In `d_G`, whose range is ~100× that of `ż_U`, or in
/// `d_G / 10` N s/m, steps of this size jump across the S-shaped stretches.)
pub fn options() -> ContinuationOptions {
    ContinuationOptions {
        predictor: Predictor::Arclength,
        step: 0.02,
        min_step: 1e-4,
        max_step: 0.25,
        direction: -1.0,
        p_min: -0.1,
        p_max: 0.0,
        max_points: 400,
        corrector_tol: 1e-9,
        locate_tol: 1e-7,
        ..ContinuationOptions::default()
    }
}

/// The orbit settings of the branch points: the stride (phases stepped exactly, strides up to
/// `T_MAX`) and Newton for the starting orbits.
pub fn orbit_options() -> OrbitOptions {
    let mut o = OrbitOptions {
        stride: stride_options(TOL, T_MAX),
        ..OrbitOptions::default()
    };
    o.newton.ftol = 1e-10;
    o.newton.xtol = 1e-12;
    o
}

/// Stages of the continuation as `(p_min, max_step)`, each started on the last point of the
/// previous one. The arclength is dominated by `ż_U` (see [`options`]), so stretches where
/// `D_G` moves much and `ż_U` little get few points: the stretch from `D_G = 0⁻` through the
/// folds (for `μ = 0.8` all of them lie above `D_G = −0.051`; `μ = 0.95` has none, and its
/// first stretch ends at `−0.01`) gets short steps, the tail beyond it, where the flight time
/// grows without bound, long ones.
pub fn stages(mu: f64) -> &'static [(f64, f64)] {
    if mu < 0.9 {
        &[(-0.051, 0.04), (-0.1, 0.25)]
    } else {
        &[(-0.01, 0.05), (-0.1, 0.25)]
    }
}

/// What a row of the tables and figures is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Point,
    Fold,
    Grazing,
}

/// One orbit on the branch with everything the figures show.
#[derive(Debug, Clone)]
pub struct Row {
    pub kind: Kind,
    /// `D_G` and `d_G` (N s/m).
    pub dg_ratio: f64,
    pub d_g: f64,
    /// Flight time, ground time, period (s).
    pub t_f: f64,
    pub t_g: f64,
    pub period: f64,
    /// The nontrivial multiplier.
    pub mult: Multiplier,
    /// Apex heights of the upper and lower block in flight (m).
    pub apex_u: f64,
    pub apex_l: f64,
    /// `T_a / T` and `T_c / T` at touchdown.
    pub kept: f64,
    pub lost: f64,
    pub admissible: bool,
    pub stable: bool,
}

/// Largest deviations from the closed form over the admissible branch points.
#[derive(Debug, Clone, Default)]
pub struct Check {
    pub points: usize,
    pub missed: usize,
    /// `t_F`, `T`, `μ₁`, apex `z_U`, apex `z_L`, `T_c/T`.
    pub max: [f64; 6],
}

/// A continued branch with its rows (branch points with the located folds and grazing points
/// inserted in order).
pub struct Run {
    pub mu: f64,
    pub base: HopperParams,
    pub branch: Branch,
    pub rows: Vec<Row>,
    pub check: Check,
    pub continuation: Duration,
    pub evaluation: Duration,
}

/// The constrained hopper at `D_G` (the family continued).
fn model_at(base: &HopperParams, dg_ratio: f64) -> Result<Bound<Hopper>, ParamError> {
    let p = HopperParams {
        d_g: base.d_g_for(dg_ratio),
        ..*base
    };
    HopperParticles::bound(&p, 0.5, 0.5)
}

/// Continues the branches of all `mus` in parallel.
pub fn continue_both(mus: &[f64]) -> Res<Vec<Run>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = mus.iter().map(|&mu| s.spawn(move || run_one(mu))).collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| "a continuation thread panicked")?)
            .collect()
    })
}

fn run_one(mu: f64) -> Res<Run> {
    let base = HopperParams {
        mu,
        ..HopperParams::default()
    };
    let p0 = HopperParams {
        d_g: base.d_g_for(START),
        ..base
    };
    let t_guess = closed_form::flight_time_guesses(&p0)?;
    let first = t_guess
        .first()
        .ok_or("the closed form finds no orbit at the start")?;
    let cf = closed_form::periodic_orbit(&p0, *first)?;
    let family = |dg_ratio: f64| model_at(&base, dg_ratio);
    let t0 = Instant::now();
    let mut branch: Option<Branch> = None;
    let mut u = vec![cf.liftoff[0], cf.liftoff[2]];
    let mut param = START;
    let orbit = orbit_options();
    for &(p_min, max_step) in stages(mu) {
        let opts = ContinuationOptions {
            p_min,
            max_step,
            ..options()
        };
        let start = Start {
            param,
            u: u.clone(),
            label: format!("μ = {mu}"),
            period_k: 1,
        };
        let next = continue_branch(&family, &start, &orbit, &opts)
            .map_err(|e| format!("μ = {mu}: continuation from D_G = {param} failed: {e}"))?;
        let last = next.points.last().ok_or("an empty branch")?;
        (param, u) = (last.param, last.u.clone());
        branch = Some(match branch {
            None => next,
            Some(mut b) => {
                // The stage starts on the previous stage's last point.
                b.points.extend(next.points.into_iter().skip(1));
                b.bifurcations.extend(next.bifurcations);
                b.end = next.end;
                b
            }
        });
    }
    let branch = branch.ok_or("no continuation stage")?;
    let continuation = t0.elapsed();

    let t1 = Instant::now();
    let mut rows = Vec::with_capacity(branch.points.len() + branch.bifurcations.len());
    for pt in &branch.points {
        let o = Orbit {
            dg_ratio: pt.param,
            x0: &pt.x0,
            period: pt.period,
            multipliers: &pt.multipliers,
        };
        rows.push(evaluate(
            &base,
            &orbit.stride,
            o,
            Kind::Point,
            pt.admissible,
        )?);
    }
    let check = check(&base, &rows);
    let mut special = Vec::new();
    for b in &branch.bifurcations {
        let kind = match b.kind {
            BifurcationKind::Fold => Kind::Fold,
            BifurcationKind::Grazing => Kind::Grazing,
            _ => continue,
        };
        let o = Orbit {
            dg_ratio: b.param,
            x0: &b.x0,
            period: b.period,
            multipliers: &b.multipliers,
        };
        let row = evaluate(&base, &orbit.stride, o, kind, None)?;
        special.push((position(&branch, b), row));
    }
    // Insert after their branch point, in order along the segment.
    special.sort_by(|a, b| a.0 .0.cmp(&b.0 .0).then(a.0 .1.total_cmp(&b.0 .1)));
    for (k, ((after, _), row)) in special.into_iter().enumerate() {
        rows.insert(after + 1 + k, row);
    }
    Ok(Run {
        mu,
        base,
        branch,
        rows,
        check,
        continuation,
        evaluation: t1.elapsed(),
    })
}

/// The branch segment `(k, k + 1)` that holds `b` (least detour through it, in the
/// continuation's `(p, u)` metric), and the distance from point `k`.
fn position(branch: &Branch, b: &Bifurcation) -> (usize, f64) {
    let z = |p: f64, u: &[f64]| [p, u[0], u[1]];
    let zb = z(b.param, &b.u);
    let dist = |a: [f64; 3], c: [f64; 3]| {
        a.iter()
            .zip(&c)
            .map(|(x, y)| (x - y).powi(2))
            .sum::<f64>()
            .sqrt()
    };
    let pts: Vec<[f64; 3]> = branch.points.iter().map(|p| z(p.param, &p.u)).collect();
    (0..pts.len().saturating_sub(1))
        .map(|k| {
            let detour = dist(pts[k], zb) + dist(zb, pts[k + 1]) - dist(pts[k], pts[k + 1]);
            (k, detour, dist(pts[k], zb))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or((0, 0.0), |(k, _, d)| (k, d))
}

/// A branch point or located bifurcation: `D_G`, fixed point at lift-off, period, multipliers.
struct Orbit<'a> {
    dg_ratio: f64,
    x0: &'a [f64],
    period: f64,
    multipliers: &'a [Multiplier],
}

/// Evaluates the orbit `o`: one flight phase sampled densely (apex heights, touchdown time and
/// state), the energy split at touchdown and, if not known, admissibility.
fn evaluate(
    base: &HopperParams,
    stride: &StrideOptions,
    o: Orbit<'_>,
    kind: Kind,
    admissible: Option<bool>,
) -> Res<Row> {
    let model = model_at(base, o.dg_ratio)?;
    let admissible = match admissible {
        Some(a) => a,
        None => matches!(model.admissibility(o.x0, stride), Some(Ok(a)) if a.admissible),
    };
    let mut flight = stride.clone();
    flight.events_per_stride = 1;
    let sim = SimulateOptions {
        stride: flight,
        strides: 1,
        dt: Some(o.period / FLIGHT_SAMPLES),
        ..SimulateOptions::default()
    };
    let tr = simulate(&model, o.x0, &sim)?;
    if let Some(e) = tr.failure {
        return Err(format!("flight phase at D_G = {}: {e}", o.dg_ratio).into());
    }
    let td = tr
        .events
        .first()
        .ok_or("no touchdown in the flight phase")?;
    let split = model
        .impact_energy(FLIGHT, 0, &td.x_minus)
        .ok_or("singular impact matrix at touchdown")?;
    let t: Vec<f64> = tr.t.iter().copied().chain([td.t]).collect();
    let heights =
        |i: usize| -> Vec<f64> { tr.x.iter().map(|x| x[i]).chain([td.x_minus[i]]).collect() };
    let nan = Multiplier::new(f64::NAN, 0.0);
    Ok(Row {
        kind,
        dg_ratio: o.dg_ratio,
        d_g: base.d_g_for(o.dg_ratio),
        t_f: td.t,
        t_g: o.period - td.t,
        period: o.period,
        mult: o.multipliers.first().copied().unwrap_or(nan),
        apex_u: apex(&t, &heights(0)),
        apex_l: apex(&t, &heights(2)),
        kept: split.admissible / split.total,
        lost: split.lost / split.total,
        admissible,
        stable: o.multipliers.iter().all(|m| m.modulus() < 1.0),
    })
}

/// Maximum of sampled `y(t)`, refined by the parabola through the largest sample and its
/// neighbours when they are equally spaced.
fn apex(t: &[f64], y: &[f64]) -> f64 {
    let Some(k) = (0..y.len()).max_by(|&a, &b| y[a].total_cmp(&y[b])) else {
        return f64::NAN;
    };
    if k == 0 || k + 1 >= y.len() {
        return y[k];
    }
    let (h0, h1) = (t[k] - t[k - 1], t[k + 1] - t[k]);
    let curv = y[k + 1] - 2.0 * y[k] + y[k - 1];
    if (h0 - h1).abs() > 1e-9 * h0 || curv.is_nan() || curv >= 0.0 {
        return y[k];
    }
    y[k] - (y[k + 1] - y[k - 1]).powi(2) / (8.0 * curv)
}

/// The admissible branch points against the closed form (the same orbit: flight times within
/// 1e-6 s; the closed form has no inadmissible orbits).
fn check(base: &HopperParams, rows: &[Row]) -> Check {
    let mut c = Check::default();
    for r in rows.iter().filter(|r| r.admissible) {
        let p = HopperParams {
            d_g: r.d_g,
            ..*base
        };
        match closed_form::periodic_orbit(&p, r.t_f) {
            Ok(cf) if (cf.t_flight - r.t_f).abs() < 1e-6 => {
                let d = [
                    r.t_f - cf.t_flight,
                    r.period - cf.period,
                    r.mult.re - cf.multiplier,
                    r.apex_u - cf.apex_upper.height,
                    r.apex_l - cf.apex_lower.height,
                    r.lost - cf.energy.lost / cf.energy.total,
                ];
                for (m, x) in c.max.iter_mut().zip(d) {
                    *m = m.max(x.abs());
                }
                c.points += 1;
            }
            _ => c.missed += 1,
        }
    }
    c
}
