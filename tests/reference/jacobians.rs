//! The fixed-time monodromy (`JacobianKind::Monodromy`, saltation matrices) checked as what it
//! claims to be: the derivative of the flow map *at a fixed time* across an event.
//!
//! - Bouncing ball: closed form. From `[h, v₀]` the impact is at `t_i = (v₀ + s)/g`,
//!   `s = sqrt(v₀² + 2gh)`, and at a later time `τ` the state is
//!   `F_τ = [e s σ − g σ²/2, e s − g σ]`, `σ = τ − t_i`. Its derivative (by hand below) must
//!   equal `Φ_σ · M` with `Φ_σ = [[1, σ], [0, 1]]` and `M` the monodromy up to the impact; and `M`
//!   itself must be the textbook `S Φ_{t_i}` with `S = [[−e, 0], [(1 + e) g / s, −e]]`
//!   (`S = g_x + (f⁺ − g_x f⁻) h_x / (h_x f⁻)` at `v⁻ = −s`).
//! - Every periodic model file in `models/` (rimless wheel, simplest walker, van der Pol): central
//!   differences of the fixed-time map `F(x) = φ_{T*+δ−t_e(x)}(P(x))` (one stride, then the flow for
//!   the remaining time) against `Φ_δ · M` at the fixed point, to ~1e-6 (the truncation error of central
//!   differences).
//!
//! The hand-written Jacobians of each model are compared with automatic differentiation next to
//! the models (`saltation-models`' unit tests).

use nalgebra::{DMatrix, DVector};
use saltation::hybrid::{
    identity, Bound, EvalModel, JacobianKind, ModeFlow, StrideMap, StrideOptions, VariationalFlow,
};
use saltation::models::BouncingBall;
use saltation::ode::{Ivp, SolverOptions};
use saltation::orbit::{central_difference, find_periodic_orbit};
use saltation::scenario::load_model_file;

#[test]
fn bouncing_ball_monodromy_is_the_fixed_time_derivative() {
    let (g, e) = (9.81, 0.7);
    let ball = Bound::with_named(BouncingBall, [("g", g), ("e", e)]).unwrap();
    let opts = StrideOptions {
        ode: SolverOptions::with_tol(1e-13),
        ..StrideOptions::default()
    };
    let mut map = StrideMap::new(&ball, opts).unwrap();
    for (h, v0) in [(1.0, 0.0), (0.3, 2.0), (2.0, -1.5)] {
        let s = (v0 * v0 + 2.0 * g * h).sqrt();
        let ti = (v0 + s) / g;
        let r = map.eval(&[h, v0], JacobianKind::Monodromy).unwrap();
        assert!((r.period - ti).abs() < 1e-13 * ti);
        let m = r.jacobian.unwrap();
        // Textbook saltation matrix times the free-flight Jacobian.
        let sal = DMatrix::from_row_slice(2, 2, &[-e, 0.0, (1.0 + e) * g / s, -e]);
        let phi = DMatrix::from_row_slice(2, 2, &[1.0, ti, 0.0, 1.0]);
        let err = (&m - &sal * &phi).amax();
        assert!(err < 1e-12, "[{h}, {v0}]: M = {m} vs S Φ = {}", &sal * &phi);
        // Derivative of the closed-form fixed-time map at τ = t_i + σ.
        for sigma in [0.05, 0.2] {
            let (ds_dh, ds_dv) = (g / s, v0 / s);
            let (dsig_dh, dsig_dv) = (-1.0 / s, -(1.0 + v0 / s) / g);
            let dfdx = DMatrix::from_row_slice(
                2,
                2,
                &[
                    e * sigma * ds_dh + (e * s - g * sigma) * dsig_dh,
                    e * sigma * ds_dv + (e * s - g * sigma) * dsig_dv,
                    e * ds_dh - g * dsig_dh,
                    e * ds_dv - g * dsig_dv,
                ],
            );
            let phi_sigma = DMatrix::from_row_slice(2, 2, &[1.0, sigma, 0.0, 1.0]);
            let err = (&phi_sigma * &m - &dfdx).amax();
            eprintln!("ball [{h}, {v0}], σ = {sigma}: |Φ_σ M − DF_τ| = {err:.1e}");
            assert!(
                err < 1e-12 * dfdx.amax().max(1.0),
                "Φ_σ M = {} vs DF = {dfdx}",
                &phi_sigma * &m
            );
        }
    }
}

/// `φ_dt(x)` in `mode`, no events (plain flow), with `opts`' method and tolerances.
fn flow_for<M: EvalModel>(
    model: &M,
    mode: usize,
    x: &[f64],
    dt: f64,
    opts: &StrideOptions,
) -> Vec<f64> {
    let sys = ModeFlow { model, mode };
    Ivp::new(&sys, 0.0, x)
        .solve(opts.method, dt, &opts.ode)
        .unwrap()
        .y
}

#[test]
fn monodromy_is_the_fixed_time_derivative_on_every_periodic_model() {
    const DELTA: f64 = 0.3;
    const STEP: f64 = 1e-6;
    let dir = crate::common::models_dir();
    let mut checked = 0;
    // Every model file, also those written as equations (study files are not model files).
    let mut paths: Vec<_> = [dir.clone(), dir.join("equations")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    for path in paths.into_iter().filter(|p| {
        p.extension().is_some_and(|e| e == "ron")
            && !p
                .file_stem()
                .is_some_and(|s| s.to_string_lossy().ends_with("_study"))
    }) {
        let mf = load_model_file(&path).unwrap();
        let opts = mf.orbit.clone();
        let model = &mf.model;
        let (n, mode) = (model.dim(), opts.stride.start_mode);
        for guess in &mf.guesses {
            let what = format!("{} ({})", path.display(), guess.label);
            let orbit = find_periodic_orbit(model, &guess.u, &opts)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let mut map = StrideMap::new(model, opts.stride.clone()).unwrap();
            let m = map
                .eval(&orbit.x0, JacobianKind::Monodromy)
                .unwrap()
                .jacobian
                .unwrap();
            // Φ_δ at the fixed point from the variational equations.
            let var = VariationalFlow::new(model, mode);
            let mut y0 = orbit.x0.clone();
            y0.resize(n + n * n, 0.0);
            identity(&mut y0[n..], n);
            let y = Ivp::new(&var, 0.0, &y0)
                .solve(opts.stride.method, DELTA, &opts.stride.ode)
                .unwrap()
                .y;
            let phi = DMatrix::from_row_slice(n, n, &y[n..]);
            let tau = orbit.period + DELTA;
            // Fixed-time map: one stride, then the flow for the time left.
            let fd = central_difference(
                |x: &DVector<f64>| {
                    map.eval(x.as_slice(), JacobianKind::None).map(|r| {
                        DVector::from_vec(flow_for(
                            model,
                            r.mode,
                            &r.x,
                            tau - r.period,
                            &opts.stride,
                        ))
                    })
                },
                &DVector::from_column_slice(&orbit.x0),
                STEP,
            )
            .unwrap();
            let want = &phi * &m;
            let err = (&fd - &want).amax();
            eprintln!(
                "{what}: |FD(F_τ) − Φ_δ M| = {err:.1e} (scale {:.1})",
                want.amax()
            );
            assert!(
                err < 1e-6 * want.amax().max(1.0),
                "{what}: FD {fd} vs Φ_δ M {want}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} orbits checked");
}
