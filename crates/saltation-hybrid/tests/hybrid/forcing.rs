//! A time-forced Rust model (`HybridModel::forcing`): a ball on a table vibrating at height
//! `A sin ωθ`, the forcing phase `θ` a state (`θ' = 1`) and the period `T = 2π/ω` declared. Its
//! period-1 orbit has the closed form `v⁺ = gT/2`, `cos ωθ = π(1 − e)/((1 + e)Γ)` with
//! `A = Γg/ω²`: the stride from it returns it, the phase brought back by one period. The
//! parameter column of the stride augmented with `ω` (whose period depends on it: the phase's
//! derivative carries `−k T'(ω)`) against Richardson-extrapolated central differences of the
//! stride map, and a model reading time without a declared forcing refused.

use saltation_hybrid::{
    require_declared_forcing, Bound, EvalModel, Forcing, GuardSpec, HybridError, HybridModel,
    JacobianKind, Param, ParamAugmented, Scalar, StrideMap, StrideOptions,
};
use std::f64::consts::{PI, TAU};

#[derive(Clone)]
struct Table {
    /// Whether the forcing is declared.
    forced: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Impact;

const G: usize = 0;
const E: usize = 1;
const OMEGA: usize = 2;
const GAMMA: usize = 3;
const PARAMS: &[Param] = &[
    Param::new("g", 9.81).range(0.0, 100.0),
    Param::new("e", 0.5).range(0.0, 1.0),
    Param::new("omega", TAU).range(0.1, 100.0),
    Param::new("Gamma", 1.5).range(0.0, 100.0),
];

impl Table {
    /// `(s, ṡ)`: the table's height and velocity at the phase `θ`.
    fn table<D: Scalar>(p: &[D], theta: D) -> (D, D) {
        let a = p[GAMMA] * p[G] / (p[OMEGA] * p[OMEGA]);
        let (s, c) = (p[OMEGA] * theta).sin_cos();
        (a * s, a * p[OMEGA] * c)
    }
}

impl HybridModel for Table {
    type Guard = Impact;
    fn name(&self) -> &str {
        "table"
    }
    fn dim(&self) -> usize {
        3
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    /// Autonomous in `(y, v, θ)` when forced; "reads the time" otherwise.
    fn autonomous(&self, _: usize) -> bool {
        self.forced
    }
    fn forcing<D: Scalar>(&self, p: &[D]) -> Option<Forcing<D>> {
        self.forced.then(|| Forcing {
            phase: 2,
            period: p[OMEGA].recip() * TAU,
        })
    }
    fn flow<D: Scalar>(&self, p: &[D], _: usize, _: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[1];
        dx[1] = -p[G];
        dx[2] = D::from(1.0);
    }
    fn guards(&self, _: usize) -> &[Impact] {
        &[Impact]
    }
    fn describe(&self, _: usize, _: Impact) -> GuardSpec {
        GuardSpec::to(0).falling()
    }
    fn guard<D: Scalar>(&self, p: &[D], _: usize, _: Impact, x: &[D]) -> D {
        x[0] - Self::table(p, x[2]).0
    }
    fn reset<D: Scalar>(&self, p: &[D], _: usize, _: Impact, x: &[D], out: &mut [D]) {
        let sdot = Self::table(p, x[2]).1;
        out[0] = x[0];
        out[1] = sdot - p[E] * (x[1] - sdot);
        out[2] = x[2];
    }
}

/// The closed-form period-1 fixed point `(y, v⁺, θ)` at the default parameters.
fn fixed_point() -> [f64; 3] {
    let (g, e, w, gamma) = (9.81, 0.5, TAU, 1.5);
    let phi = (PI * (1.0 - e) / ((1.0 + e) * gamma)).acos();
    let a = gamma * g / (w * w);
    [a * phi.sin(), g * (TAU / w) / 2.0, phi / w]
}

#[test]
fn forced_stride_returns_the_closed_form_orbit() {
    let m = Bound::new(Table { forced: true });
    require_declared_forcing(&m).unwrap();
    let x = fixed_point();
    let mut map = StrideMap::new(&m, StrideOptions::default()).unwrap();
    let r = map.eval(&x, JacobianKind::StrideMap).unwrap();
    assert!((r.period - 1.0).abs() < 1e-12, "period {}", r.period);
    for (a, b) in r.x.iter().zip(&x) {
        assert!((a - b).abs() < 1e-11, "{:?} vs {x:?}", r.x);
    }
    // The section's zero, and the two multipliers' product e² (det of the 2×2 block in (v, θ)
    // after eliminating y = s(θ), which the impact map keeps).
    let j = r.jacobian.unwrap();
    let eig = j.complex_eigenvalues();
    let nonzero: Vec<_> = eig.iter().filter(|z| z.norm() > 1e-8).collect();
    assert_eq!(nonzero.len(), 2, "{eig}");
    let product: f64 = nonzero.iter().map(|z| z.norm()).product();
    assert!((product - 0.25).abs() < 1e-10, "{eig}");
}

#[test]
fn parameter_column_of_a_forced_stride_in_the_period_parameter() {
    let m = Bound::new(Table { forced: true });
    let x = fixed_point();
    let o = StrideOptions::default();
    let aug = ParamAugmented::new(&m, OMEGA).unwrap();
    let mut map = StrideMap::new(&aug, ParamAugmented::<Bound<Table>>::stride_options(&o)).unwrap();
    let y: Vec<f64> = x.iter().copied().chain([TAU]).collect();
    let r = map.eval(&y, JacobianKind::StrideMap).unwrap();
    let j = r.jacobian.unwrap();
    let column: Vec<f64> = (0..3).map(|i| j[(i, 3)]).collect();
    let stride = |w: f64| {
        let mut mw = m.clone();
        mw.set("omega", w).unwrap();
        let mut map = StrideMap::new(&mw, o.clone()).unwrap();
        map.eval(&x, JacobianKind::None).unwrap().x
    };
    let d = |h: f64| -> Vec<f64> {
        let (p, q) = (stride(TAU + h), stride(TAU - h));
        p.iter().zip(&q).map(|(a, b)| (a - b) / (2.0 * h)).collect()
    };
    let (d1, d2) = (d(1e-3), d(5e-4));
    for i in 0..3 {
        let reference = (4.0 * d2[i] - d1[i]) / 3.0;
        assert!(
            (column[i] - reference).abs() < 1e-7 * reference.abs().max(1.0),
            "∂P{i}/∂ω: {} vs {reference}",
            column[i]
        );
    }
    // The phase's derivative includes −T'(ω) = 2π/ω² = 1/(2π) (k = 1): without it the row
    // would be off by that much.
    let without = column[2] - TAU / (TAU * TAU);
    assert!((without - d2[2]).abs() > 0.1);
}

#[test]
fn time_dependent_model_without_forcing_is_refused() {
    let m = Bound::new(Table { forced: false });
    let err = require_declared_forcing(&m).unwrap_err();
    assert!(
        matches!(err, HybridError::UndeclaredForcing { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("HybridModel::forcing"), "{err}");
    assert!(m.forcing().is_none());
}
