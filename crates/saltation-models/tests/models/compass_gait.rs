//! The compass-gait biped of Goswami, Thuilot & Espiau (INRIA RR-2996, 1996; IJRR 17(12),
//! 1998) written as an equation model (`models/equations/compass_gait.ron`): its gait on the
//! 3° slope against an independent computation, the state quoted for it in the literature, and
//! the first period doubling in the slope.
//!
//! The reference numbers below come from `python3 scripts/compass_gait_reference.py
//! --cascade`, which shares no code with Saltation: SciPy's `solve_ivp` (DOP853, rtol = atol =
//! 1e-13) with the heel strike as an event, the impact from a floating-base impulse computation
//! (checked against the closed-form Q⁺/Q⁻ matrices of Goswami et al. to 3e-15), Newton on the
//! stride map with a central-difference Jacobian. Re-running it at rtol = atol = 2.5e-14 moves
//! the fixed point and the period by ≤ 1.3e-13; the multipliers come from central differences
//! with one Richardson step (h = 1e-4, 5e-5) and agree with plain central differences of the
//! 4×4 map (h = 1e-5) to 4e-9: good to better than 1e-8.

use saltation_continuation::{continue_branch, BifurcationKind, ContinuationOptions, Start};
use saltation_models::Model;
use saltation_orbit::{find_periodic_orbit, PeriodicOrbit};
use saltation_scenario::{load_model_file, ModelFile};
use std::path::Path;

/// Fixed point just after heel strike, `(θ_ns, θ_s, θ̇_ns, θ̇_s)`, nominal parameters
/// (m = 5, m_H = 10, a = b = 0.5, g = 9.81, φ = 3°). Independent reference (module docs).
const X_PLUS: [f64; 4] = [
    -0.323388558058672,
    0.218668802939013,
    -0.377373948907075,
    -1.092383589883662,
];

/// The state just before that heel strike. Independent reference.
const X_MINUS: [f64; 4] = [
    0.218668802939013,
    -0.323388558058672,
    -1.805678868988173,
    -1.494204897100535,
];

/// Step time (s). Independent reference.
const PERIOD: f64 = 0.734346391158739;

/// Distance between the feet at heel strike, 2 l sin(α) (m). Independent reference.
const STEP_LENGTH: f64 = 0.535445415430052;

/// Multipliers: a complex pair `re ± i im` and a real one. Independent reference
/// (central differences, good to better than 1e-8).
const MU_PAIR: (f64, f64) = (-0.199726126837, 0.544476062105);
const MU_REAL: f64 = 0.131572624041;

/// Slope (rad) where a multiplier of the period-1 gait crosses −1 (4.39089825°). Independent
/// reference (secant on the central-difference multiplier; good to ~1e-11).
const PHI_PERIOD_DOUBLING: f64 = 0.076635631576;

fn file(name: &str) -> ModelFile {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../models")
        .join(name);
    load_model_file(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn orbit(model: &Model, f: &ModelFile) -> PeriodicOrbit {
    find_periodic_orbit(model, &f.guesses[0].u, &f.orbit)
        .unwrap_or_else(|e| panic!("compass gait: {e}"))
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(
        (a - b).abs() <= tol,
        "{what}: {a} vs {b} (difference {:.1e}, tolerance {tol:.0e})",
        (a - b).abs()
    );
}

#[test]
fn nominal_gait_against_the_independent_reference() {
    let f = file("equations/compass_gait.ron");
    assert!(matches!(f.model, Model::Equations(_)));
    let o = orbit(&f.model, &f);

    // Fixed point and step time to 1e-11 (the reference is good to ~1e-13; both integrate
    // at 1e-13).
    for (k, (a, b)) in o.x0.iter().zip(X_PLUS).enumerate() {
        close(*a, b, 1e-11, &format!("x⁺[{k}]"));
    }
    // Section coordinates u = (θ_s, θ̇_ns, θ̇_s), and the chart θ_ns = −θ_s − 2φ.
    assert_eq!(o.u0.len(), 3);
    for (a, b) in o.u0.iter().zip([X_PLUS[1], X_PLUS[2], X_PLUS[3]]) {
        close(*a, b, 1e-11, "u");
    }
    close(PERIOD, o.period, 1e-11, "step time");

    // One event per step: the heel strike after the swing leg has passed the stance leg (the
    // scuff at mid-stance, where the swing foot also touches the slope, is skipped), on the
    // slope, and the state before it.
    assert_eq!(o.events.len(), 1);
    let xm = &o.events[0].x_minus;
    for (k, (a, b)) in xm.iter().zip(X_MINUS).enumerate() {
        close(*a, b, 1e-11, &format!("x⁻[{k}]"));
    }
    let phi = f.model.param("phi").unwrap();
    assert!(xm[0] > xm[1], "swing leg ahead at heel strike");
    close(
        xm[0] + xm[1] + 2.0 * phi,
        0.0,
        1e-13,
        "swing foot on the slope",
    );

    // The named outputs: the step length at heel strike, and the mechanical energy (heights
    // from the stance foot), which the flow conserves between heel strikes.
    let Model::Equations(eq) = &f.model else {
        unreachable!()
    };
    let output = |x: &[f64], name: &str| {
        eq.model()
            .outputs(eq.values(), 0.0, x)
            .into_iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no output `{name}`"))
            .1
    };
    close(
        output(xm, "foot_distance"),
        STEP_LENGTH,
        1e-11,
        "step length",
    );
    let (e_start, e_end) = (output(&o.x0, "energy"), output(xm, "energy"));
    close(e_end, e_start, 1e-9, "energy along the step");

    // Multipliers: the complex pair and the real one to 1e-8 (the finite-difference reference
    // is good to better than that); any further multiplier (the direction off the section in a full-state
    // Jacobian) is zero.
    assert!(o.stable);
    assert!(o.multipliers.len() >= 3);
    let (pair, rest) = o.multipliers.split_at(2);
    for m in pair {
        close(m.re, MU_PAIR.0, 1e-8, "complex multiplier (re)");
        close(m.im.abs(), MU_PAIR.1, 1e-8, "complex multiplier (im)");
    }
    close(rest[0].re, MU_REAL, 1e-8, "real multiplier");
    close(rest[0].im, 0.0, 1e-12, "real multiplier (im)");
    for m in &rest[1..] {
        assert!(m.modulus() < 1e-10, "extra multiplier {m:?}");
    }
}

/// The state quoted for this gait in the literature and in many reproductions,
/// `(0.2187, −0.3234, −0.3772, −1.0918)`, attributed to Goswami et al. (its primary source
/// could not be checked here). It is this gait just after heel strike, with the angles listed
/// stance leg first — `(θ_s, θ_ns, θ̇_ns, θ̇_s)` — and g = 9.8 m/s² rather than 9.81 (the
/// angles do not depend on g; the rates scale with √g and at 9.81 differ from the quoted ones by
/// up to 5.6e-4). Quoted to 4 decimals: tolerance 5e-5, half a unit of the last digit.
#[test]
fn quoted_state_is_this_gait_at_g_9_8() {
    let f = file("equations/compass_gait.ron");
    let quoted = [0.2187, -0.3234, -0.3772, -1.0918];
    let o = orbit(&f.model.with_param("g", 9.8).unwrap(), &f);
    let x = &o.x0;
    for (k, (a, b)) in [x[1], x[0], x[2], x[3]].iter().zip(quoted).enumerate() {
        close(*a, b, 5e-5, &format!("quoted state [{k}] at g = 9.8"));
    }
    // At g = 9.81 the angles still match to 4 decimals.
    let o = orbit(&f.model, &f);
    close(o.x0[1], quoted[0], 5e-5, "θ_s at g = 9.81");
    close(o.x0[0], quoted[1], 5e-5, "θ_ns at g = 9.81");
}

/// Continuation in the slope from 4.2°: the period-1 gait loses stability by period doubling
/// (a real multiplier through −1) at the slope of the independent reference, to 1e-9 rad.
#[test]
fn period_doubling_in_the_slope() {
    let f = file("equations/compass_gait.ron");
    let family = |phi: f64| f.model.with_param("phi", phi);
    let opts = ContinuationOptions {
        step: 0.001,
        max_step: 0.002,
        min_step: 1e-9,
        p_min: 0.07,
        p_max: 0.08,
        max_points: 100,
        corrector_tol: 1e-10,
        locate_tol: 1e-11,
        ..ContinuationOptions::default()
    };
    let start = Start {
        param: 0.0733,
        u: vec![0.2306, -0.1831, -1.1469],
        label: "period-1 gait".into(),
        period_k: 1,
    };
    let orbit = saltation_orbit::OrbitOptions {
        stride: f.orbit.stride.clone(),
        ..Default::default()
    };
    let branch = continue_branch(&family, &start, &orbit, &opts).unwrap();
    let pd: Vec<_> = branch
        .bifurcations
        .iter()
        .filter(|b| b.kind == BifurcationKind::PeriodDoubling)
        .collect();
    assert_eq!(pd.len(), 1, "{:?}", branch.bifurcations);
    close(
        pd[0].param,
        PHI_PERIOD_DOUBLING,
        1e-9,
        "period-doubling slope",
    );
    let flip = pd[0]
        .multipliers
        .iter()
        .map(|m| (m.re + 1.0).abs() + m.im.abs())
        .fold(f64::INFINITY, f64::min);
    assert!(
        flip < 1e-6,
        "a multiplier at −1 there (closest: {flip:.1e})"
    );
}
