//! Reference tests of the modified Rosenbrock 2(3) W-method (MATLAB `ode23s`, Shampine &
//! Reichelt 1997) against closed forms and published values.
//!
//! What is measured:
//! - order 2 of the solution and of the free interpolant with constant steps (±0.3), also with a
//!   wrong Jacobian and a wrong `∂f/∂t` (a W-method keeps order 2 for any matrix);
//! - the one-step amplification on `y' = λy` is `R(z) = 1 + 2az − a²z + a²z²/2`,
//!   `a = 1/(1 − dz)`: `R(−∞) = 0`, `|R(iy)| ≤ 1`;
//! - a stiff linear problem with closed form at rtol = atol = 1e-4, 1e-7, 1e-10: the error
//!   estimate is of the second-order result, and on this stiff forced problem the measured error
//!   stays within a factor 10 of the tolerance (≈ 0.7, 1.2 and 5.7 times it) at a cost that grows
//!   faster than `tol^(−1/3)` (81, 1 734, 25 412 steps);
//! - Robertson's problem to t = 40 against the published reference;
//! - a constant nonsingular mass matrix; a singular one is refused;
//! - a variational system against its closed-form `Φ`;
//! - the falling ball through [`Solver`] (event time to 1e-10) and a bouncing one;
//! - the bad cases, and that steps do not allocate.

use saltation_ode::{
    Atol, FnSystem, Ivp, Method, OdeError, OdeSystem, SolverOptions, Stats, Stepper,
};
use std::f64::consts::SQRT_2;

use crate::common::{
    allocations, assert_bouncing_ball_restarts, assert_falling_balls_land_on_time,
    assert_fixed_step_order_two, assert_mass_matrix_matches_plain, assert_variational_closed_form,
    decay_then_nan, robertson, smooth_exact, Massive, Oscillator, Robertson, Scalar, StiffLinear,
    T_END,
};

const M: Method = Method::Rosenbrock23;
const D: f64 = 1.0 / (2.0 + SQRT_2);

// ---------------------------------------------------------------------------------------------
// Smooth problem with a closed form, optionally with a wrong Jacobian or ∂f/∂t.

/// `y₁' = y₁ cos t` and a harmonic pair; `jac_error` is added to every entry of the Jacobian
/// given, `dfdt` says whether the exact `∂f/∂t` (else 0) is given.
struct Smooth {
    jacobian: bool,
    jac_error: f64,
    dfdt: Option<bool>,
}

impl OdeSystem for Smooth {
    fn dim(&self) -> usize {
        3
    }
    fn rhs(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[0] * t.cos();
        dy[1] = y[2];
        dy[2] = -y[1];
    }
    fn jacobian(&self, t: f64, _y: &[f64], j: &mut [f64]) -> bool {
        j.copy_from_slice(&[t.cos(), 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0]);
        j.iter_mut().for_each(|v| *v += self.jac_error);
        self.jacobian
    }
    fn time_derivative(&self, t: f64, y: &[f64], d: &mut [f64]) -> bool {
        match self.dfdt {
            None => false,
            Some(exact) => {
                d.copy_from_slice(&[if exact { -y[0] * t.sin() } else { 0.0 }, 0.0, 0.0]);
                true
            }
        }
    }
}

const PLAIN: Smooth = Smooth {
    jacobian: false,
    jac_error: 0.0,
    dfdt: None,
};

#[test]
fn constant_steps_converge_at_order_two_with_dense_output() {
    let cases = [
        ("finite differences", PLAIN),
        (
            "exact J and T",
            Smooth {
                jacobian: true,
                jac_error: 0.0,
                dfdt: Some(true),
            },
        ),
        // A W-method: order 2 whatever matrix W is built from.
        (
            "J off by 0.5, T = 0",
            Smooth {
                jacobian: true,
                jac_error: 0.5,
                dfdt: Some(false),
            },
        ),
    ];
    for (what, sys) in cases {
        assert_fixed_step_order_two(what, M, &sys);
    }
}

#[test]
fn adaptive_error_falls_with_the_tolerance() {
    let mut errs = Vec::new();
    for tol in [1e-4, 1e-7, 1e-10] {
        let s = Ivp::new(&PLAIN, 0.0, &smooth_exact(0.0))
            .solve(M, T_END, &SolverOptions::with_tol(tol))
            .unwrap();
        let ex = smooth_exact(T_END);
        let e = (0..3).map(|i| (s.y[i] - ex[i]).abs()).fold(0.0, f64::max);
        println!(
            "smooth tol {tol:e}: error {e:.3e}, error/tol^(2/3) {:.3}, {} steps, {} f",
            e / tol.powf(2.0 / 3.0),
            s.stats.steps,
            s.stats.rhs_evals
        );
        errs.push((tol, e, s.stats.steps));
    }
    // Error per step control of a second-order result: the global error goes like tol^(2/3)
    // (a factor 100 per three decades) and the steps like tol^(−1/3) (a factor 10).
    for w in errs.windows(2) {
        let (fall, work) = (w[0].1 / w[1].1, w[1].2 as f64 / w[0].2 as f64);
        assert!(fall > 50.0 && fall < 200.0, "{errs:?}");
        assert!(work > 5.0 && work < 20.0, "{errs:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Linear stability.

/// `R(z) = (1 + (√2 − 1) z) / (1 − d z)²` (the closed form above, brought to one fraction).
fn published_r(z: (f64, f64)) -> (f64, f64) {
    let q = (1.0 - D * z.0, -D * z.1);
    let den = (q.0 * q.0 - q.1 * q.1, 2.0 * q.0 * q.1);
    let num = (1.0 + (SQRT_2 - 1.0) * z.0, (SQRT_2 - 1.0) * z.1);
    let d = den.0 * den.0 + den.1 * den.1;
    (
        (num.0 * den.0 + num.1 * den.1) / d,
        (num.1 * den.0 - num.0 * den.1) / d,
    )
}

fn one_step<S: OdeSystem>(sys: &S, y0: &[f64], h: f64) -> Vec<f64> {
    let opts = SolverOptions {
        h_fixed: Some(h),
        ..Default::default()
    };
    Ivp::new(sys, 0.0, y0).solve(M, h, &opts).unwrap().y
}

#[test]
fn one_step_amplification_is_the_stability_function() {
    for z in [-0.3, -3.7, -50.0, -1e4, -1e8] {
        let r = one_step(&Scalar(z), &[1.0], 1.0)[0];
        let a = 1.0 / (1.0 - D * z);
        let closed = 1.0 + 2.0 * a * z - a * a * z + 0.5 * a * a * z * z;
        assert!(
            (r - closed).abs() < 1e-12,
            "R({z}) = {r}, closed form {closed}"
        );
        assert!((r - published_r((z, 0.0)).0).abs() < 1e-12);
    }
    // R(−∞) = 0: L-stable.
    assert!(one_step(&Scalar(-1e8), &[1.0], 1.0)[0].abs() < 1e-7);
    // |R(iy)| ≤ 1: A-stable.
    for wh in [0.1, 1.0, 2.0, 10.0, 1e3] {
        let y = one_step(&Oscillator(wh), &[1.0, 0.0], 1.0);
        let gain = y[0].hypot(y[1]);
        let r = published_r((0.0, wh));
        assert!((gain - r.0.hypot(r.1)).abs() < 1e-12, "{wh}: {gain}");
        assert!(gain <= 1.0 + 1e-12, "|R({wh}i)| = {gain}");
    }
}

// ---------------------------------------------------------------------------------------------
// A stiff linear problem with closed form.

#[test]
fn stiff_linear_errors_track_the_tolerance() {
    let y0 = [1.0, 0.5];
    let mut errs = Vec::new();
    for tol in [1e-4, 1e-7, 1e-10] {
        let s = Ivp::new(&StiffLinear, 0.0, &y0)
            .solve(M, 2.0, &SolverOptions::with_tol(tol))
            .unwrap();
        let e = StiffLinear::exact(2.0, y0);
        let err = (0..2).map(|i| (s.y[i] - e[i]).abs()).fold(0.0, f64::max);
        println!(
            "stiff tol {tol:e}: error {err:.3e} = {:.2} tol, {} steps, {} rejected, {} f, {} LU",
            err / tol,
            s.stats.steps,
            s.stats.rejected_steps,
            s.stats.rhs_evals,
            s.stats.lu_decompositions
        );
        errs.push(err / tol);
    }
    assert!(errs.iter().all(|&r| r < 10.0), "error / tol: {errs:?}");
}

// ---------------------------------------------------------------------------------------------
// Robertson's problem.

#[test]
fn robertson_to_40_matches_the_published_values() {
    for rtol in [1e-4, 1e-7] {
        let (rel, st) = robertson(M, false, rtol);
        println!(
            "Robertson rtol {rtol:e}: relative errors {:.2e} {:.2e} {:.2e}, {} steps, {} \
             rejected, {} f, {} J, {} LU",
            rel[0],
            rel[1],
            rel[2],
            st.steps,
            st.rejected_steps,
            st.rhs_evals,
            st.jacobian_evals,
            st.lu_decompositions
        );
        assert!(rel.iter().all(|&e| e < rtol.powf(2.0 / 3.0)), "{rel:?}");
        assert_eq!(st.jacobian_evals, st.steps, "one Jacobian per step");
        assert_eq!(
            st.lu_decompositions,
            st.steps + st.rejected_steps,
            "one LU per attempt"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Mass matrices.

#[test]
fn mass_matrices_nonsingular_supported_singular_refused() {
    assert_mass_matrix_matches_plain(M);
    let r = Ivp::new(&Massive { singular: true }, 0.0, &smooth_exact(0.0)).solve(
        M,
        T_END,
        &SolverOptions::default(),
    );
    assert!(
        matches!(
            r,
            Err(OdeError::MassMatrixUnsupported {
                method: "rosenbrock23",
                ..
            })
        ),
        "{:?}",
        r.map(|s| s.t)
    );
}

// ---------------------------------------------------------------------------------------------
// Variational equations.

#[test]
fn variational_matrix_follows_the_closed_form() {
    assert_variational_closed_form(M);
}

// ---------------------------------------------------------------------------------------------
// Events.

#[test]
fn falling_ball_hits_the_ground_at_the_closed_form_time() {
    assert_falling_balls_land_on_time(M);
}

#[test]
fn bouncing_ball_restarts_after_every_impact() {
    assert_bouncing_ball_restarts(M);
}

// ---------------------------------------------------------------------------------------------
// Bad cases.

#[test]
fn bad_input_ends_with_typed_errors() {
    let o = SolverOptions::default();
    let nan_at_start = FnSystem::new(1, |_t, _y: &[f64], dy: &mut [f64]| dy[0] = f64::NAN);
    let r = Ivp::new(&nan_at_start, 0.0, &[1.0]).solve(M, 1.0, &o);
    assert!(matches!(r, Err(OdeError::NonFiniteRhs { t: 0.0 })));
    let nan_later = decay_then_nan(0.5);
    let r = Ivp::new(&nan_later, 0.0, &[1.0]).solve(M, 1.0, &o);
    assert!(
        matches!(r, Err(OdeError::NonFinite { t, .. }) if t <= 0.5 && t > 0.4),
        "{:?}",
        r.map(|s| s.t)
    );
    let fixed = SolverOptions {
        h_fixed: Some(0.1),
        ..Default::default()
    };
    let r = Ivp::new(&nan_later, 0.0, &[1.0]).solve(M, 1.0, &fixed);
    assert!(
        matches!(r, Err(OdeError::NonFinite { t, .. }) if t <= 0.5 && t > 0.35),
        "{:?}",
        r.map(|s| s.t)
    );
    let r = Ivp::new(&PLAIN, 0.0, &[1.0, 2.0]).solve(M, 1.0, &o);
    assert!(matches!(r, Err(OdeError::DimensionMismatch { .. })));
    let r = Ivp::new(&PLAIN, f64::INFINITY, &[1.0, 2.0, 3.0]).solve(M, 1.0, &o);
    assert!(matches!(r, Err(OdeError::NonFiniteInitial { .. })));
    // y' = λ y with λ = 1/d and h = 1: W = 1 − h d λ is exactly 0 in floating point.
    let lambda = 1.0 / D;
    assert_eq!(1.0 - D * lambda, 0.0);
    let fixed = SolverOptions {
        h_fixed: Some(1.0),
        ..Default::default()
    };
    let r = Ivp::new(&Scalar(lambda), 0.0, &[1.0]).solve(M, 2.0, &fixed);
    assert!(
        matches!(r, Err(OdeError::SingularMatrix { t: 0.0, h: 1.0 })),
        "{:?}",
        r.map(|s| s.t)
    );
    // Adaptive: the step is halved away from the singular one (a rejected attempt).
    let o = SolverOptions {
        h_init: Some(1.0),
        ..Default::default()
    };
    let s = Ivp::new(&Scalar(lambda), 0.0, &[1.0])
        .solve(M, 1.0, &o)
        .unwrap();
    let exact = lambda.exp();
    assert!(((s.y[0] - exact) / exact).abs() < 1e-4, "{}", s.y[0]);
    assert!(s.stats.rejected_steps >= 1 && s.stats.lu_decompositions > s.stats.steps);
}

// ---------------------------------------------------------------------------------------------
// No allocation per step.

#[test]
fn steps_do_not_allocate() {
    let opts = SolverOptions {
        rtol: 1e-6,
        atol: Atol::Vector(vec![1e-12, 1e-16, 1e-12]),
        ..Default::default()
    };
    let mut stepper = M.stepper();
    let mut stats = Stats::default();
    stepper
        .start(&Robertson::ODE, 0.0, &[1.0, 0.0, 0.0], &opts, &mut stats)
        .unwrap();
    let mut out = [0.0; 3];
    let before = allocations();
    while stepper.t() < 40.0 {
        stepper
            .step(&Robertson::ODE, 40.0, &opts, &mut stats)
            .unwrap();
        let e = stepper.ends();
        let tm = 0.5 * (e.t0 + e.t1);
        stepper.dense(&Robertson::ODE, tm, &mut out, &mut stats);
    }
    assert_eq!(allocations(), before, "{stats:?}");
    assert!(stats.steps > 50, "{stats:?}");
}
