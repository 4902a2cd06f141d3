//! The stride map of the rimless wheel (Coleman; McGeer 1990) against its closed form, from
//! arbitrary start states: energy conservation in stance gives
//! `θ̇⁻² = θ̇₀² + 2λ²(cos(θ₀ + α) − cos(π/n + α))` at the spoke strike `θ = π/n`, and the reset
//! `(θ, θ̇) ↦ (−θ, μ θ̇)` with `μ = 1 − λ²(1 − cos 2π/n)`, so
//!
//! `P(θ₀, θ̇₀) = (−π/n, μ θ̇⁻)`, `∂P₂/∂θ₀ = −μ λ² sin(θ₀ + α)/θ̇⁻`, `∂P₂/∂θ̇₀ = μ θ̇₀/θ̇⁻`,
//! `∂P₂/∂α = μ λ² (sin(π/n + α) − sin(θ₀ + α))/θ̇⁻`, first row zero.
//!
//! The stride's Jacobian comes from variational equations and the saltation matrix, its
//! parameter column from the state augmented with `α` (a dual number seeded in `p[α]`): both are
//! checked against these formulas, and the fixed-time monodromy at the closed-form fixed point
//! against the flow direction it must keep.

use saltation_hybrid::{
    Bound, EvalModel, GuardSpec, HybridModel, JacobianKind, Param, ParamAugmented, Scalar,
    StrideMap, StrideOptions,
};
use saltation_ode::SolverOptions;
use std::f64::consts::{PI, TAU};

#[derive(Clone)]
struct Wheel;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strike {
    Spoke,
}

const LAMBDA2: usize = 0;
const ALPHA: usize = 1;
const SPOKES: usize = 2;
const PARAMS: &[Param] = &[
    Param::new("lambda2", 2.0 / 3.0).range(0.0, 1.0),
    Param::new("alpha", 0.2).open_range(0.0, 1.5),
    Param::new("spokes", 6.0).range(3.0, 1000.0).integer(),
];

impl HybridModel for Wheel {
    type Guard = Strike;
    fn name(&self) -> &str {
        "wheel"
    }
    fn dim(&self) -> usize {
        2
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn autonomous(&self, _: usize) -> bool {
        true
    }
    fn flow<D: Scalar>(&self, p: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = p[LAMBDA2] * (x[0] + p[ALPHA]).sin();
    }
    fn guards(&self, _: usize) -> &[Strike] {
        &[Strike::Spoke]
    }
    fn describe(&self, _: usize, g: Strike) -> GuardSpec {
        match g {
            Strike::Spoke => GuardSpec::to(0).rising(),
        }
    }
    fn guard<D: Scalar>(&self, p: &[D], _: usize, g: Strike, x: &[D]) -> D {
        match g {
            Strike::Spoke => x[0] - p[SPOKES].recip() * PI,
        }
    }
    fn reset<D: Scalar>(&self, p: &[D], _: usize, g: Strike, x: &[D], out: &mut [D]) {
        match g {
            Strike::Spoke => {
                let mu = -(p[LAMBDA2] * (-(p[SPOKES].recip() * TAU).cos() + 1.0)) + 1.0;
                out[0] = -x[0];
                out[1] = mu * x[1];
            }
        }
    }
}

/// `(θ̇⁻, P₂, ∂P₂/∂θ₀, ∂P₂/∂θ̇₀, ∂P₂/∂α)` in closed form.
fn closed_form(p: &[f64], x0: [f64; 2]) -> [f64; 5] {
    let (l2, a, n) = (p[LAMBDA2], p[ALPHA], p[SPOKES]);
    let mu = 1.0 - l2 * (1.0 - (TAU / n).cos());
    let rate = (x0[1] * x0[1] + 2.0 * l2 * ((x0[0] + a).cos() - (PI / n + a).cos())).sqrt();
    [
        rate,
        mu * rate,
        -mu * l2 * (x0[0] + a).sin() / rate,
        mu * x0[1] / rate,
        mu * l2 * ((PI / n + a).sin() - (x0[0] + a).sin()) / rate,
    ]
}

fn options() -> StrideOptions {
    StrideOptions {
        ode: SolverOptions::with_tol(1e-13),
        ..StrideOptions::default()
    }
}

#[test]
fn stride_and_its_jacobian_equal_the_closed_form() {
    for (values, x0) in [
        (vec![2.0 / 3.0, 0.2, 6.0], [-0.5, 0.5]),
        (vec![0.9, 0.1, 8.0], [-0.3, 0.4]),
        (vec![0.5, 0.35, 4.0], [0.1, -0.2]),
    ] {
        let wheel = Bound::with_values(Wheel, values.clone()).unwrap();
        let mut map = StrideMap::new(&wheel, options()).unwrap();
        let s = map.eval(&x0, JacobianKind::StrideMap).unwrap();
        let [_, p2, d_theta, d_rate, _] = closed_form(&values, x0);
        let jac = s.jacobian.unwrap();
        assert!((s.x[0] + PI / values[SPOKES]).abs() < 1e-14, "{:?}", s.x);
        assert!((s.x[1] - p2).abs() < 1e-11, "{} vs {p2}", s.x[1]);
        let want = [0.0, 0.0, d_theta, d_rate];
        for (k, w) in want.iter().enumerate() {
            let got = jac[(k / 2, k % 2)];
            assert!((got - w).abs() < 1e-10, "P_x[{k}] = {got}, closed form {w}");
        }
    }
}

#[test]
fn the_parameter_column_of_the_augmented_stride_is_exact() {
    let values = vec![2.0 / 3.0, 0.2, 6.0];
    let wheel = Bound::with_values(Wheel, values.clone()).unwrap();
    let aug = ParamAugmented::new(&wheel, ALPHA).expect("every parameter of a Bound");
    let mut map = StrideMap::new(
        &aug,
        ParamAugmented::<Bound<Wheel>>::stride_options(&options()),
    )
    .unwrap();
    let x0 = [-0.45, 0.55];
    let s = map
        .eval(&[x0[0], x0[1], values[ALPHA]], JacobianKind::StrideMap)
        .unwrap();
    let jac = s.jacobian.unwrap();
    let [_, p2, d_theta, d_rate, d_alpha] = closed_form(&values, x0);
    assert!((s.x[1] - p2).abs() < 1e-11);
    assert!((jac[(1, 0)] - d_theta).abs() < 1e-10);
    assert!((jac[(1, 1)] - d_rate).abs() < 1e-10);
    assert!(
        (jac[(1, 2)] - d_alpha).abs() < 1e-10,
        "∂P/∂α = {}, closed form {d_alpha}",
        jac[(1, 2)]
    );
    // The parameter stays itself: the last row is (0, 0, 1).
    assert_eq!((jac[(2, 0)], jac[(2, 1)], jac[(2, 2)]), (0.0, 0.0, 1.0));
}

#[test]
fn the_monodromy_at_the_fixed_point_keeps_the_flow_direction() {
    let values = [2.0 / 3.0, 0.2, 6.0];
    let wheel = Bound::new(Wheel);
    // The closed-form fixed point: θ₀ = −π/n, θ̇₀² = 4λ²μ² sin(π/n) sin α / (1 − μ²).
    let mu: f64 = 2.0 / 3.0;
    let rate =
        (4.0 * values[0] * mu * mu * (PI / 6.0).sin() * 0.2f64.sin() / (1.0 - mu * mu)).sqrt();
    let x0 = [-PI / 6.0, rate];
    let mut map = StrideMap::new(&wheel, options()).unwrap();
    let s = map.eval(&x0, JacobianKind::Monodromy).unwrap();
    assert!((s.x[1] - rate).abs() < 1e-11, "not periodic: {:?}", s.x);
    let phi = s.jacobian.unwrap();
    let mut f = [0.0; 2];
    wheel.flow(0, 0.0, &x0, &mut f);
    let f = nalgebra::DVector::from_column_slice(&f);
    let back = &phi * &f;
    assert!((back - &f).amax() < 1e-9 * f.amax(), "Φ f(x0) ≠ f(x0)");
}

/// The phase maps compose to the stride map (state and Jacobian, `P_x = E₃Φ₃ · E₂Φ₂ · E₁Φ₁`),
/// a phase is a fixed-time piece followed by the rest of the phase, and a piece that runs into
/// an event is a typed error.
#[test]
fn phases_and_pieces_compose_to_the_stride() {
    let values = vec![2.0 / 3.0, 0.2, 6.0];
    let wheel = Bound::with_values(Wheel, values).unwrap();
    let opts = StrideOptions {
        events_per_stride: 3,
        ..options()
    };
    let mut map = StrideMap::new(&wheel, opts).unwrap();
    let x0 = [-0.4, 0.6];
    let stride = map.eval(&x0, JacobianKind::StrideMap).unwrap();
    let mut x = x0.to_vec();
    let mut product = nalgebra::DMatrix::<f64>::identity(2, 2);
    let mut period = 0.0;
    for _ in 0..3 {
        let phase = map.eval_phase(&x, 0, JacobianKind::StrideMap).unwrap();
        assert_eq!(phase.events.len(), 1);
        product = phase.jacobian.unwrap() * product;
        period += phase.period;
        x = phase.x;
    }
    assert!((period - stride.period).abs() < 1e-12);
    for k in 0..2 {
        assert!((x[k] - stride.x[k]).abs() < 1e-12, "{x:?} {:?}", stride.x);
    }
    let p_x = stride.jacobian.unwrap();
    assert!((&product - &p_x).amax() < 1e-10, "{product} {p_x}");

    // The first phase as a piece of 40% of its duration and the rest.
    let whole = map.eval_phase(&x0, 0, JacobianKind::StrideMap).unwrap();
    let tau = 0.4 * whole.period;
    let piece = map.eval_flow(&x0, 0, tau, JacobianKind::StrideMap).unwrap();
    assert!(piece.events.is_empty());
    assert_eq!(piece.period, tau);
    let rest = map
        .eval_phase(&piece.x, 0, JacobianKind::StrideMap)
        .unwrap();
    assert!((piece.period + rest.period - whole.period).abs() < 1e-12);
    let composed = rest.jacobian.unwrap() * piece.jacobian.unwrap();
    assert!((&composed - whole.jacobian.as_ref().unwrap()).amax() < 1e-10);
    for k in 0..2 {
        assert!((rest.x[k] - whole.x[k]).abs() < 1e-12);
    }
    // A piece longer than the phase meets the strike.
    match map.eval_flow(&x0, 0, 2.0 * whole.period, JacobianKind::None) {
        Err(saltation_hybrid::HybridError::EventInPiece { mode: 0, t, .. }) => {
            assert!((t - whole.period).abs() < 1e-10)
        }
        other => panic!("{other:?}"),
    }
    assert!(map.eval_phase(&x0, 1, JacobianKind::None).is_err());
    assert!(map.eval_flow(&x0, 0, 0.0, JacobianKind::None).is_err());
}

/// `simulate` with `keep_steps`: every step, every event (both sides) and the `dt` grid, in
/// time order, on the closed-form energy of the stance; a grid too fine for times far from 0
/// is refused instead of repeating its times.
#[test]
fn simulate_keeps_steps_and_grid_and_refuses_unrepresentable_grids() {
    use saltation_hybrid::{simulate, HybridError, SimulateOptions};
    let wheel = Bound::new(Wheel);
    let stride = StrideOptions {
        ode: SolverOptions::with_tol(1e-12),
        ..options()
    };
    let run = |keep_steps| {
        let opts = SimulateOptions {
            stride: stride.clone(),
            dt: Some(0.01),
            keep_steps,
            t_end: Some(3.0),
            ..SimulateOptions::default()
        };
        simulate(&wheel, &[-PI / 6.0, 1.2], &opts).unwrap()
    };
    let (both, grid) = (run(true), run(false));
    assert!(both.failure.is_none() && grid.failure.is_none());
    assert!(!both.events.is_empty());
    assert!(both.t.windows(2).all(|w| w[1] >= w[0]));
    for t in &grid.t {
        assert!(both.t.contains(t), "grid time {t} missing");
    }
    assert!(both.t.len() > grid.t.len() + both.stats.steps / 2);
    // Energy of the stance, θ̇²/2 + λ² cos(θ + α), is constant between strikes.
    let p = wheel.values();
    let energy = |x: &[f64]| 0.5 * x[1] * x[1] + p[LAMBDA2] * (x[0] + p[ALPHA]).cos();
    let mut start = energy(&both.x[0]);
    for k in 1..both.t.len() {
        if both.t[k] == both.t[k - 1] {
            start = energy(&both.x[k]);
            continue;
        }
        assert!(
            (energy(&both.x[k]) - start).abs() < 1e-9,
            "t = {}",
            both.t[k]
        );
    }
    let far = SimulateOptions {
        stride,
        dt: Some(1e-3),
        keep_steps: true,
        t0: 1e15,
        t_end: Some(1e15 + 1.0),
        ..SimulateOptions::default()
    };
    assert!(matches!(
        simulate(&wheel, &[-PI / 6.0, 1.2], &far),
        Err(HybridError::InvalidOption { field: "dt", .. })
    ));
}
