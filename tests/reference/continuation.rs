//! Continuation checked against independent references: the rimless wheel's closed-form branch,
//! a direct solve of `det(J + I) = 0` for the walker's period doubling, the period-2 orbit's
//! two states mapping onto each other, and the small-slope law θ* ∝ γ^(1/3) of the simplest
//! walker (Garcia et al. 1998).

use nalgebra::DMatrix;
use saltation::continuation::{
    continue_branch, switch_period_doubling, BifurcationKind, ContinuationOptions, EndReason,
    ModelFamily, ParamFamily, Predictor, Start,
};
use saltation::hybrid::{
    Bound, EvalModel, GuardSpec, HybridModel, JacobianKind, Param, ParamError, Scalar, StrideMap,
};
use saltation::models::{RimlessWheel, SimplestWalker};
use saltation::ode::SolverOptions;
use saltation::orbit::{find_periodic_orbit, OrbitOptions};

fn walker(g: f64) -> Result<Bound<SimplestWalker>, ParamError> {
    Bound::with_named(SimplestWalker, [("gamma", g)])
}

/// The rimless wheel at `λ²`, `α` and six spokes.
fn wheel_at(lambda2: f64, alpha: f64) -> Result<Bound<RimlessWheel>, ParamError> {
    Bound::with_named(RimlessWheel, [("lambda2", lambda2), ("alpha", alpha)])
}

/// Orbit settings with DOP853 at `rtol = atol = tol`.
fn orbit_at(tol: f64) -> OrbitOptions {
    let mut o = OrbitOptions::default();
    o.stride.ode = SolverOptions::with_tol(tol);
    o
}

/// Slope below which the rimless wheel cannot roll steadily: at `α_c` the closed-form speed
/// after impact just reaches the top, `θ̇₀² = 2λ²(1 − cos(π/n − α))` (bisection).
fn rimless_threshold(lambda2: f64) -> f64 {
    let g = |alpha: f64| {
        let w = wheel_at(lambda2, alpha).unwrap();
        let mu = RimlessWheel::mu(w.values());
        let h = RimlessWheel::half_angle(w.values());
        let w2 = 4.0 * lambda2 * mu * mu * h.sin() * alpha.sin() / (1.0 - mu * mu);
        w2 - 2.0 * lambda2 * (1.0 - (h - alpha).cos())
    };
    let (mut lo, mut hi) = (1e-6, 0.5);
    while hi - lo > 1e-14 {
        let m = 0.5 * (lo + hi);
        if g(m) > 0.0 {
            hi = m;
        } else {
            lo = m;
        }
    }
    hi
}

#[test]
fn rimless_wheel_branch_matches_the_closed_form() {
    let lambda2 = Bound::<RimlessWheel>::default().get("lambda2").unwrap();
    let family = |alpha: f64| wheel_at(lambda2, alpha);
    let alpha_c = rimless_threshold(lambda2);
    for (to, predictor) in [
        (0.45f64, Predictor::Arclength),
        (0.12, Predictor::Natural),
        (0.02, Predictor::Arclength),
    ] {
        let orbit = orbit_at(1e-13);
        let o = ContinuationOptions {
            // The corrector's tolerance bounds the error of every point (times 1/(1 − μ²) ≈
            // 1.8).
            corrector_tol: 1e-12,
            predictor,
            direction: if to > 0.2 { 1.0 } else { -1.0 },
            p_min: to.min(0.2),
            p_max: to.max(0.2),
            step: 0.01,
            max_step: 0.01,
            ..ContinuationOptions::default()
        };
        let start = Start {
            param: 0.2,
            u: vec![0.5],
            label: "rolling".into(),
            period_k: 1,
        };
        let b = continue_branch(&family, &start, &orbit, &o).unwrap();
        let last = b.points.last().unwrap();
        if to > alpha_c {
            assert_eq!(b.end, EndReason::ParameterBound, "{predictor:?}");
            assert!(
                (last.param - to).abs() < 1e-12,
                "ends on the bound: {}",
                last.param
            );
        } else {
            // Below α_c the wheel rocks back before the next impact: the branch ends there.
            assert!(matches!(b.end, EndReason::StrideFailed(_)), "{}", b.end);
            assert!(
                last.param > alpha_c && last.param < alpha_c + 2e-3,
                "ends at α = {}, threshold {alpha_c}",
                last.param
            );
        }
        assert!(b.points.len() > 5);
        for p in &b.points {
            let wheel = family(p.param).unwrap();
            let exact = RimlessWheel::analytic_fixed_point(wheel.values()).unwrap();
            assert!((p.x0[0] - exact[0]).abs() < 1e-14);
            assert!(
                (p.x0[1] - exact[1]).abs() < 1e-11,
                "α = {}: {} vs {}",
                p.param,
                p.x0[1],
                exact[1]
            );
            let mu2 = RimlessWheel::analytic_multipliers(wheel.values())[0];
            // Within 1e-3 of α_c the wheel creeps over the top (the stride time grows like
            // log(1/(α − α_c))), and the variational equations along that near-stop lose a few
            // digits: measured 1.4e-10 at α_c + 1e-5. The closed-form check of μ² is made where
            // the passage is well conditioned.
            if p.param < alpha_c + 1e-3 {
                continue;
            }
            assert!(
                (p.multipliers[0].re - mu2).abs() < 1e-10,
                "α = {} (threshold {alpha_c}): {} vs {mu2}",
                p.param,
                p.multipliers[0].re
            );
            assert!(p.multipliers[1].modulus() < 1e-10);
        }
        assert!(
            b.bifurcations.is_empty(),
            "μ² = 4/9 throughout: no bifurcation"
        );
    }
}

/// `det(J_r + I)` at the walker's stable-gait fixed point, `J_r` the reduced stride Jacobian.
fn pd_test(gamma: f64, guess: &[f64], o: &OrbitOptions) -> (f64, Vec<f64>) {
    let w = walker(gamma).unwrap();
    let orbit = find_periodic_orbit(&w, guess, o).unwrap();
    // J_r = Dπ P_x Dχ (the walker's chart is (θ, θ̇) ↦ x; its projection takes x[0..2]).
    let mut dchi = vec![0.0; 8];
    w.chart_jacobian(&orbit.u0, &mut dchi);
    let dchi = DMatrix::from_row_slice(4, 2, &dchi);
    let jr = orbit.jacobian.rows(0, 2) * dchi;
    ((jr + DMatrix::identity(2, 2)).determinant(), orbit.u0)
}

/// The period doubling located with `∂F/∂p` exact (the walker's slope as a named parameter:
/// the state augmented with γ) and by central differences (a closure family): both agree with
/// the direct solve, and with each other to 1e-10.
#[test]
fn walker_period_doubling_agrees_with_a_direct_solve() {
    let exact = ParamFamily::new(Bound::<SimplestWalker>::default(), "gamma").unwrap();
    let a = walker_period_doubling(&exact);
    let b = walker_period_doubling(&walker);
    assert!(
        (a - b).abs() < 1e-10,
        "exact F_p {a} vs central differences {b}"
    );
}

/// Continues the stable gait of `family` through its period doubling, checks it against a direct
/// solve and the period-2 branch born there; returns the slope of the period doubling.
fn walker_period_doubling<F: ModelFamily<Model = Bound<SimplestWalker>>>(walker: &F) -> f64 {
    let orbit = orbit_at(1e-12);
    let o = ContinuationOptions::default();
    let mut c = o.clone();
    (c.p_max, c.step, c.max_step) = (0.0165, 1e-3, 2e-3);
    let start = Start {
        param: 0.009,
        u: vec![0.2, -0.2],
        label: "stable gait".into(),
        period_k: 1,
    };
    let b = continue_branch(walker, &start, &orbit, &c).unwrap();
    let pd: Vec<_> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::PeriodDoubling)
        .collect();
    assert_eq!(pd.len(), 1, "{:?}", b.bifurcations);
    let pd = pd[0];
    // Direct solve of det(J + I) = 0 in γ by the secant method, orbits by plain Newton.
    let orbit_opts = OrbitOptions {
        stride: orbit.stride.clone(),
        ..OrbitOptions::default()
    };
    let (mut g0, mut g1) = (pd.param - 1e-4, pd.param + 1e-4);
    let (mut f0, mut u) = pd_test(g0, &pd.u, &orbit_opts);
    let (mut f1, u1) = pd_test(g1, &u, &orbit_opts);
    u = u1;
    for _ in 0..30 {
        let g2 = g1 - f1 * (g1 - g0) / (f1 - f0);
        (g0, f0) = (g1, f1);
        g1 = g2;
        let (f, u2) = pd_test(g1, &u, &orbit_opts);
        (f1, u) = (f, u2);
        if (g1 - g0).abs() < 1e-13 {
            break;
        }
    }
    assert!(
        (pd.param - g1).abs() < 1e-8,
        "continuation {} vs direct {} (diff {:e})",
        pd.param,
        g1,
        pd.param - g1
    );
    // A multiplier sits on −1 there.
    assert!(pd
        .multipliers
        .iter()
        .any(|m| (m.re + 1.0).abs() < 1e-6 && m.im.abs() < 1e-9));

    // Period-2 branch: its two states map onto each other under the single stride map.
    let sw = switch_period_doubling(walker, pd, 1, &orbit, &c).unwrap();
    let start2 = sw.start;
    assert_eq!(start2.period_k, 2);
    let mut c2 = c.clone();
    (c2.direction, c2.step, c2.max_step, c2.max_points) = (sw.direction, 1e-5, 2e-4, 15);
    (c2.p_min, c2.p_max) = (0.0, 0.0175);
    let b2 = continue_branch(walker, &start2, &orbit, &c2).unwrap();
    assert!(b2.points.len() >= 10, "{:?}", b2.end);
    let w = walker.model_at(b2.points[5].param).unwrap();
    let mut map = StrideMap::new(&w, orbit.stride.clone()).unwrap();
    let xa = b2.points[5].x0.clone();
    let xb = map.eval(&xa, JacobianKind::None).unwrap().x;
    let xa2 = map.eval(&xb, JacobianKind::None).unwrap().x;
    let moved = (0..4).map(|i| (xb[i] - xa[i]).abs()).fold(0.0, f64::max);
    let back = (0..4).map(|i| (xa2[i] - xa[i]).abs()).fold(0.0, f64::max);
    assert!(
        moved > 1e-4,
        "a genuine period-2 orbit: P moves x by {moved:e}"
    );
    assert!(back < 1e-9, "P(P(x_a)) = x_a: off by {back:e}");
    pd.param
}

#[test]
fn small_slope_gait_follows_the_cube_root_law() {
    // Continue the stable gait down to γ = 1e-3, then follow it on a logarithmic grid down to
    // 1e-5 (each solve starting from the previous orbit).
    let orbit = orbit_at(1e-12);
    let mut c = ContinuationOptions::default();
    (c.direction, c.p_min, c.p_max) = (-1.0, 1e-3, 0.009);
    (c.step, c.max_step) = (5e-4, 1e-3);
    c.predictor = Predictor::Natural;
    let start = Start {
        param: 0.009,
        u: vec![0.2, -0.2],
        label: "stable gait".into(),
        period_k: 1,
    };
    let b = continue_branch(&walker, &start, &orbit, &c).unwrap();
    assert_eq!(b.end, EndReason::ParameterBound, "{}", b.end);
    let last = b.points.last().unwrap();
    assert!(last.stable);
    let orbit_opts = OrbitOptions {
        stride: orbit.stride.clone(),
        ..OrbitOptions::default()
    };
    let mut u = last.u.clone();
    let mut pts = Vec::new();
    for k in 0..=20 {
        let gamma = 1e-3 * 10f64.powf(-2.0 * k as f64 / 20.0);
        let orbit = find_periodic_orbit(&walker(gamma).unwrap(), &u, &orbit_opts).unwrap();
        assert!(orbit.stable, "γ = {gamma}");
        u = orbit.u0.clone();
        pts.push((gamma.ln(), orbit.x0[0].ln()));
    }
    // Least-squares slope of log θ* against log γ on [1e-5, 1e-3].
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0, a.1 + p.1));
    let (sxx, sxy) = pts
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0 * p.0, a.1 + p.0 * p.1));
    let slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    assert!((slope - 1.0 / 3.0).abs() < 0.01, "fitted exponent {slope}");
}

#[test]
fn parallel_sweeps_match_the_closed_form() {
    use saltation::continuation::{sweep_1d, sweep_2d};
    let orbit_opts = OrbitOptions {
        stride: orbit_at(1e-12).stride,
        ..OrbitOptions::default()
    };
    let alphas: Vec<f64> = (0..12).map(|i| 0.15 + 0.025 * i as f64).collect();
    let at = |lambda2: f64, alpha: f64| wheel_at(lambda2, alpha).unwrap();
    let family = |alpha: f64| wheel_at(2.0 / 3.0, alpha);
    let results = sweep_1d(&family, &alphas, &[0.5], &orbit_opts);
    assert_eq!(results.len(), alphas.len());
    for (alpha, r) in alphas.iter().zip(&results) {
        let orbit = r.as_ref().unwrap();
        let exact = RimlessWheel::analytic_fixed_point(at(2.0 / 3.0, *alpha).values()).unwrap();
        assert!((orbit.x0[1] - exact[1]).abs() < 1e-11, "α = {alpha}");
    }
    // Rows in λ², columns in α: a stability map. Rows are continued left to right.
    let lambdas = [0.5, 0.6, 2.0 / 3.0, 0.75];
    let grid = sweep_2d(
        |l2: f64| move |alpha: f64| wheel_at(l2, alpha),
        &lambdas,
        &alphas,
        &[0.5],
        &orbit_opts,
    );
    assert_eq!(grid.len(), lambdas.len());
    for row in &grid {
        assert_eq!(row.len(), alphas.len());
        for cell in row {
            let wheel = at(cell.row, cell.col);
            match (
                cell.orbit.as_ref(),
                RimlessWheel::analytic_fixed_point(wheel.values()),
            ) {
                (Some(o), Some(exact)) => {
                    assert!(
                        (o.x0[1] - exact[1]).abs() < 1e-10,
                        "{} {}",
                        cell.row,
                        cell.col
                    );
                    let mu2 = RimlessWheel::analytic_multipliers(wheel.values())[0];
                    assert!((o.multipliers[0].re - mu2).abs() < 1e-9);
                }
                (None, None) => {}
                (o, e) => panic!(
                    "λ² = {}, α = {}: solver {:?} vs closed form {:?}",
                    cell.row,
                    cell.col,
                    o.map(|o| o.x0.clone()),
                    e
                ),
            }
        }
    }
}

/// A ball whose bounce speed is a quadratic function of its impact speed,
/// `v⁺ = a (v⁻)² + p`: on the section `x = 0` the stride map is `u ↦ a u² + p`, whose fixed
/// points `u = (1 ± sqrt(1 − 4ap)) / 2a` meet in a fold at `p = 1/(4a)` (multiplier `2au = +1`).
struct QuadraticBounce;

/// The bounce's parameters: the gain `a` and the offset `p`.
const BOUNCE_PARAMS: &[Param] = &[Param::new("a", 1.0), Param::new("p", 0.0)];
/// Index of `a`.
const A: usize = 0;
/// Index of `p`.
const P: usize = 1;

/// The ball's one guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ground {
    /// Landing: `x = 0` falling.
    Landing,
}

impl HybridModel for QuadraticBounce {
    type Guard = Ground;
    fn name(&self) -> &str {
        "quadratic_bounce"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        BOUNCE_PARAMS
    }
    fn flow<D: Scalar>(&self, _p: &[D], _m: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = D::from(-1.0);
    }
    fn guards(&self, _m: usize) -> &[Ground] {
        &[Ground::Landing]
    }
    fn describe(&self, _m: usize, g: Ground) -> GuardSpec {
        match g {
            Ground::Landing => GuardSpec::to(0).falling(),
        }
    }
    fn guard<D: Scalar>(&self, _p: &[D], _m: usize, g: Ground, x: &[D]) -> D {
        match g {
            Ground::Landing => x[0],
        }
    }
    fn reset<D: Scalar>(&self, p: &[D], _m: usize, g: Ground, x: &[D], out: &mut [D]) {
        match g {
            Ground::Landing => {
                out[0] = D::from(0.0);
                out[1] = x[1] * x[1] * p[A] + p[P];
            }
        }
    }
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, _p: &[D], u: &[D], x: &mut [D]) {
        x.copy_from_slice(&[D::from(0.0), u[0]]);
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
}

#[test]
fn arclength_passes_a_fold_and_locates_it() {
    let a = 1.0;
    let family = |p: f64| -> Result<Bound<QuadraticBounce>, ParamError> {
        Bound::with_values(QuadraticBounce, vec![a, p])
    };
    let orbit = orbit_at(1e-12);
    let mut o = ContinuationOptions::default();
    (o.p_min, o.p_max) = (0.05, 0.3);
    (o.step, o.max_step, o.max_points) = (0.02, 0.02, 80);
    let start = Start {
        param: 0.1,
        u: vec![0.1],
        label: "bouncing".into(),
        period_k: 1,
    };
    let b = continue_branch(&family, &start, &orbit, &o).unwrap();
    // Past the fold the branch turns back to smaller p on the upper sheet and ends at p_min.
    assert_eq!(b.end, EndReason::ParameterBound, "{}", b.end);
    let last = b.points.last().unwrap();
    assert!(
        (last.param - 0.05).abs() < 1e-12 && last.u[0] > 0.5,
        "{:?}",
        last.u
    );
    for p in &b.points {
        let d = (1.0 - 4.0 * a * p.param).sqrt();
        let (lower, upper) = ((1.0 - d) / (2.0 * a), (1.0 + d) / (2.0 * a));
        let err = (p.u[0] - lower).abs().min((p.u[0] - upper).abs());
        assert!(
            err < 1e-9,
            "p = {}: u = {} (sheets {lower}, {upper})",
            p.param,
            p.u[0]
        );
        // Stable exactly on the lower sheet (multiplier 2au < 1).
        assert_eq!(p.stable, p.u[0] < 0.5, "p = {}", p.param);
    }
    let folds: Vec<_> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Fold)
        .collect();
    assert_eq!(folds.len(), 1, "{:?}", b.bifurcations);
    assert!(
        (folds[0].param - 0.25 / a).abs() < 1e-8,
        "fold at {}",
        folds[0].param
    );
    assert!((folds[0].multipliers[0].re - 1.0).abs() < 1e-4);
    // The natural-parameter predictor cannot pass it: that branch ends at the fold.
    o.predictor = Predictor::Natural;
    o.step = 0.01;
    let b = continue_branch(&family, &start, &orbit, &o).unwrap();
    assert!(matches!(
        b.end,
        EndReason::CorrectorFailed(_) | EndReason::StrideFailed(_)
    ));
    // Beyond the fold, min_u |P(u) − u| = p − 1/4: a point within the corrector's tolerance of
    // the fold is a solution to that tolerance, and rounding decides whether the shrinking
    // natural steps land on one. Nothing further can be reached.
    let last = b.points.last().unwrap();
    assert!(
        last.param < 0.25 + o.corrector_tol,
        "{} {:?}",
        last.param,
        last.u
    );
}
