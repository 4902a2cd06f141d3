//! The dimensionless monopod hopping on Hunt–Crossley ground (Papadopoulos and co-authors'
//! solver-comparison study, eqs. 18–19): a toe `y1` and a body `y2` joined by a spring, the toe
//! pressed into compliant ground whenever `y1 ≤ 0`.
//!
//! State `q = [y1, ẏ1, y2, ẏ2]` (dimensionless heights and velocities; time in periods of the
//! free two-mass oscillation), `c = 4π² − m1*`, `i = 1` in stance (`y1 ≤ 0`), else 0:
//!
//! ```text
//! ÿ1 = −i b* |y1|^1.5 ẏ1 − c (1 + i k* |y1|^0.5) y1 + c y2 − f* − c        (18)
//! ÿ2 = m1* y1 − m1* y2 − f* + m1*                                           (19)
//! ```
//!
//! The ground force `i (b* |y1|^1.5 ẏ1 + c k* |y1|^0.5 y1)` is zero at `y1 = 0` (Hunt & Crossley
//! 1975), so the vector field is continuous across the ground; its Jacobian is too, and only
//! higher derivatives jump there.
//!
//! Two ways to switch phases, both offered ([`Strategy`]):
//! - **events**: two modes, flight (0) and stance (1), and the event `y1 = 0` — falling in
//!   flight (touchdown), rising in stance (lift-off) — with identity resets;
//! - **if-else**: one mode whose vector field tests `y1 ≤ 0` itself, no events (what a MATLAB
//!   right-hand side with an `if … else … end` does).
//!
//! The flight system has eigenvalues `0, 0, ±2πi` for every parameter set. Stiffness is the
//! stance system's: [`stiffness_ratio`] of its eigenvalues at the paper's equilibrium (eq. 29,
//! [`Monopod::equilibrium_eq29`]) or at the true one ([`Monopod::equilibrium`]), both from
//! [`Monopod::stiffness`].
//!
//! The parameters `b*`, `m1*`, `k*`, `f*` are the model's values (`Bound<Monopod>`); the
//! strategy is part of its equations ([`Monopod::strategy`]). In a model file both are written
//! together, `Monopod(b: 1951.0, m1: 1.88, k: 22.8, f: 0.051, strategy: Events)` ([`file_form`]).

mod stiffness;

use saltation_hybrid::{
    AffineModes, Bound, FlowJacobian, GuardGradient, GuardSpec, HybridModel, Limit, Param,
    ResetJacobian, Scalar,
};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

pub use stiffness::{stiffness_ratio, CharacteristicPolynomial, Stiffness};

/// `4π²`, the squared angular frequency of the free two-mass oscillation in dimensionless time.
pub const FOUR_PI_SQ: f64 = 4.0 * PI * PI;

/// Index of the ground damping `b*` in the parameter vector.
pub const B: usize = 0;
/// Index of the toe mass `m1*`.
pub const M1: usize = 1;
/// Index of the ground stiffness `k*`.
pub const K: usize = 2;
/// Index of the weight `f*`.
pub const F: usize = 3;

/// The monopod's parameters, by default the nominal set of the study's Table 2: ground damping
/// `b* ∈ [550, 38000]` (nominal 1951), eq. (20); toe mass `m1* = 4π² m1/(m1 + m2) ∈ [0.8, 20]`
/// (nominal 1.88), eq. (21); ground stiffness `k* ∈ [1, 480]` (nominal 22.8), eq. (22); weight
/// `f* ∈ [0.01, 0.3]` (nominal 0.051), eq. (23).
pub const PARAMS: &[Param] = &[
    Param::new("b", 1951.0)
        .above(Limit::Closed(0.0))
        .described("b >= 0 (the study uses 550..38000)"),
    Param::new("m1", 1.88)
        .open_range(0.0, FOUR_PI_SQ)
        .described("0 < m1 < 4 pi^2 (m1* = 4 pi^2 m1/(m1 + m2); the study uses 0.8..20)"),
    Param::new("k", 22.8)
        .above(Limit::Closed(0.0))
        .described("k >= 0 (the study uses 1..480)"),
    Param::new("f", 0.051)
        .above(Limit::Open(0.0))
        .described("f > 0 (the study uses 0.01..0.3)"),
];

/// How the phase switch is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Strategy {
    /// Two modes (flight, stance) and an event at `y1 = 0` that restarts the integration.
    #[default]
    #[serde(alias = "events")]
    Events,
    /// One vector field with the test `y1 ≤ 0` inside it; no events.
    #[serde(alias = "if-else", alias = "if_else")]
    IfElse,
}

impl Strategy {
    /// Both strategies.
    pub const ALL: [Strategy; 2] = [Strategy::IfElse, Strategy::Events];

    /// Short name: `"if-else"` or `"events"`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Events => "events",
            Strategy::IfElse => "if-else",
        }
    }
}

/// The monopod's guards (strategy events; the if-else strategy has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MonopodGuard {
    /// In flight, the toe reaches the ground (`y1` falling through 0).
    Touchdown,
    /// In stance, the toe leaves the ground (`y1` rising through 0).
    LiftOff,
}

/// The monopod's equations: eqs. (18)–(19) with the phase switch of [`Monopod::strategy`]; the
/// parameters are `b`, `m1`, `k` and `f` ([`PARAMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Monopod {
    /// Phase switch (default [`Strategy::Events`]).
    pub strategy: Strategy,
}

/// Index of the flight mode (strategy events).
pub const FLIGHT: usize = 0;
/// Index of the stance mode (strategy events).
pub const STANCE: usize = 1;

impl Monopod {
    /// The nominal set `[b*, m1*, k*, f*] = [1951, 1.88, 22.8, 0.051]` (the declared defaults).
    pub const NOMINAL: [f64; 4] = [
        PARAMS[B].default,
        PARAMS[M1].default,
        PARAMS[K].default,
        PARAMS[F].default,
    ];

    /// The 13 parameter sets `[b*, m1*, k*, f*]` of the study's Table 2 (set 5 is the nominal
    /// one): each varies one parameter of the nominal set over its range.
    pub const TABLE2: [[f64; 4]; 13] = [
        [1951.0, 20.0, 22.8, 0.051],
        [1951.0, 10.4, 22.8, 0.051],
        [1951.0, 1.88, 22.8, 0.010],
        [550.0, 1.88, 22.8, 0.051],
        [1951.0, 1.88, 22.8, 0.051],
        [1951.0, 1.88, 22.8, 0.155],
        [1951.0, 0.80, 22.8, 0.051],
        [1951.0, 1.88, 22.8, 0.300],
        [19275.0, 1.88, 22.8, 0.051],
        [1951.0, 1.88, 240.5, 0.051],
        [38000.0, 1.88, 22.8, 0.051],
        [1951.0, 1.88, 480.0, 0.051],
        [1951.0, 1.88, 1.0, 0.051],
    ];

    /// The study's initial state `q0 = [0.5, 0, 1.5, 0]` (eq. 35): toe at half, body at one and
    /// a half spring lengths, at rest; it starts in flight.
    pub const Q0: [f64; 4] = [0.5, 0.0, 1.5, 0.0];

    /// The study's horizon, `t ∈ [0, 50]`.
    pub const T_END: f64 = 50.0;

    /// The equations with the phase-switch strategy `strategy`.
    pub const fn new(strategy: Strategy) -> Monopod {
        Monopod { strategy }
    }

    /// These equations at the parameter values `[b*, m1*, k*, f*]` (a set of [`Monopod::TABLE2`]
    /// or of a study file), not checked: the values are checked by
    /// `EvalModel::check_params`, as a study file's sets are when the file is read.
    pub fn at(self, p: [f64; 4]) -> Bound<Monopod> {
        Bound::with_values_unchecked(self, p.to_vec())
    }

    /// Whether the ground force acts in `mode` at toe height `y1`.
    fn in_stance(&self, mode: usize, y1: f64) -> bool {
        match self.strategy {
            Strategy::Events => mode == STANCE,
            Strategy::IfElse => y1 <= 0.0,
        }
    }

    /// Accelerations (18)–(19) at the parameter values `p` with the ground term on or off.
    fn accelerations<D: Scalar>(p: &[D], stance: bool, x: &[D]) -> (D, D) {
        let c = -p[M1] + FOUR_PI_SQ;
        let (y1, v1, y2) = (x[0], x[1], x[2]);
        let mut a1 = y2 * c - y1 * c - (p[F] + c);
        if stance {
            // |y1|^0.5 y1 and |y1|^1.5, with their (finite) derivatives also at y1 = 0, where
            // d|y1|^0.5 is infinite and would give 0·∞ in the chain rule.
            let a = y1.abs();
            if a.re() > 0.0 {
                let s = a.sqrt();
                a1 -= v1 * (s * a) * p[B] + (s * y1) * (c * p[K]);
            }
        }
        let a2 = (y1 - y2) * p[M1] + (p[M1] - p[F]);
        (a1, a2)
    }

    /// The Jacobian `∂f/∂q` (row-major 4×4) at the parameter values `p` with the ground term on
    /// (`stance`) or off: rows `[0 1 0 0]`, `[∂ÿ1/∂y1, −b*|y1|^1.5, c, 0]`, `[0 0 0 1]`,
    /// `[m1*, 0, −m1*, 0]` with `∂ÿ1/∂y1 = −1.5 b* |y1|^0.5 sign(y1) ẏ1 − c (1 + 1.5 k* |y1|^0.5)`
    /// in stance, `−c` in flight.
    pub fn jacobian(p: &[f64], stance: bool, x: &[f64], jac: &mut [f64]) {
        let (b, m1, k) = (p[B], p[M1], p[K]);
        let c = FOUR_PI_SQ - m1;
        let (y1, v1) = (x[0], x[1]);
        let (mut d_y1, mut d_v1) = (-c, 0.0);
        if stance {
            let s = y1.abs().sqrt();
            d_y1 -= 1.5 * b * s * y1.signum() * v1 * f64::from(y1 != 0.0) + 1.5 * c * k * s;
            d_v1 = -b * s * s * s;
        }
        jac.copy_from_slice(&[
            0.0, 1.0, 0.0, 0.0, //
            d_y1, d_v1, c, 0.0, //
            0.0, 0.0, 0.0, 1.0, //
            m1, 0.0, -m1, 0.0,
        ]);
    }
}

impl HybridModel for Monopod {
    type Guard = MonopodGuard;
    fn name(&self) -> &str {
        "monopod"
    }
    fn dim(&self) -> usize {
        4
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn modes(&self) -> usize {
        match self.strategy {
            Strategy::Events => 2,
            Strategy::IfElse => 1,
        }
    }
    fn mode_name(&self, mode: usize) -> String {
        match (self.strategy, mode) {
            (Strategy::IfElse, _) => "flight/stance (if-else)".into(),
            (Strategy::Events, FLIGHT) => "flight".into(),
            (Strategy::Events, _) => "stance".into(),
        }
    }
    fn state_names(&self) -> Vec<String> {
        vec!["y1".into(), "dy1/dt".into(), "y2".into(), "dy2/dt".into()]
    }
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let (a1, a2) = Self::accelerations(p, self.in_stance(mode, x[0].re()), x);
        dx[0] = x[1];
        dx[1] = a1;
        dx[2] = x[3];
        dx[3] = a2;
    }
    fn guards(&self, mode: usize) -> &[MonopodGuard] {
        match (self.strategy, mode) {
            (Strategy::IfElse, _) => &[],
            (Strategy::Events, FLIGHT) => &[MonopodGuard::Touchdown],
            (Strategy::Events, _) => &[MonopodGuard::LiftOff],
        }
    }
    fn describe(&self, _mode: usize, g: MonopodGuard) -> GuardSpec {
        match g {
            MonopodGuard::Touchdown => GuardSpec::to(STANCE).falling(),
            MonopodGuard::LiftOff => GuardSpec::to(FLIGHT).rising(),
        }
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: MonopodGuard, x: &[D]) -> D {
        match g {
            MonopodGuard::Touchdown | MonopodGuard::LiftOff => x[0],
        }
    }
    /// The identity: the phase changes, the state does not.
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, g: MonopodGuard, x: &[D], out: &mut [D]) {
        match g {
            MonopodGuard::Touchdown | MonopodGuard::LiftOff => out.copy_from_slice(x),
        }
    }
    fn hand_flow_jacobian(&self) -> Option<&dyn FlowJacobian> {
        Some(self)
    }
    fn hand_guard_gradient(&self) -> Option<&dyn GuardGradient<MonopodGuard>> {
        Some(self)
    }
    fn hand_reset_jacobian(&self) -> Option<&dyn ResetJacobian<MonopodGuard>> {
        Some(self)
    }
    fn affine_modes(&self) -> Option<&dyn AffineModes> {
        Some(self)
    }
}

impl FlowJacobian for Monopod {
    fn flow_and_jacobian(
        &self,
        p: &[f64],
        mode: usize,
        t: f64,
        x: &[f64],
        dx: &mut [f64],
        jac: &mut [f64],
    ) {
        self.flow(p, mode, t, x, dx);
        Self::jacobian(p, self.in_stance(mode, x[0]), x, jac);
    }
}

impl AffineModes for Monopod {
    /// Flight (with events) is linear: two masses on the leg spring, no ground force.
    fn jacobian_is_constant(&self, mode: usize) -> bool {
        self.strategy == Strategy::Events && mode == FLIGHT
    }
}

impl GuardGradient<MonopodGuard> for Monopod {
    fn guard_gradient(
        &self,
        _p: &[f64],
        _mode: usize,
        g: MonopodGuard,
        _x: &[f64],
        grad: &mut [f64],
    ) {
        match g {
            MonopodGuard::Touchdown | MonopodGuard::LiftOff => {
                grad.copy_from_slice(&[1.0, 0.0, 0.0, 0.0])
            }
        }
    }
}

impl ResetJacobian<MonopodGuard> for Monopod {
    fn reset_jacobian(
        &self,
        _p: &[f64],
        _mode: usize,
        g: MonopodGuard,
        _x: &[f64],
        jac: &mut [f64],
    ) {
        match g {
            MonopodGuard::Touchdown | MonopodGuard::LiftOff => saltation_hybrid::identity(jac, 4),
        }
    }
}

/// The monopod in a model file: its parameters and strategy side by side,
/// `Monopod(b: 1951.0, m1: 1.88, k: 22.8, f: 0.051, strategy: Events)`, any of them left out
/// taking its default. For `#[serde(with = "…")]` on a field or variant of type
/// `Bound<Monopod>` (the generic deserializer of `Bound` knows only the parameters). The values
/// are not checked here but where the file is validated, so that an error names its place.
pub mod file_form {
    use super::{Monopod, Strategy, B, F, K, M1};
    use saltation_hybrid::Bound;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// The fields as written.
    #[derive(Serialize, Deserialize)]
    #[serde(rename = "Monopod", deny_unknown_fields)]
    struct Fields {
        #[serde(default = "b")]
        b: f64,
        #[serde(default = "m1")]
        m1: f64,
        #[serde(default = "k")]
        k: f64,
        #[serde(default = "f")]
        f: f64,
        #[serde(default)]
        strategy: Strategy,
    }

    fn b() -> f64 {
        Monopod::NOMINAL[B]
    }
    fn m1() -> f64 {
        Monopod::NOMINAL[M1]
    }
    fn k() -> f64 {
        Monopod::NOMINAL[K]
    }
    fn f() -> f64 {
        Monopod::NOMINAL[F]
    }

    /// Reads the fields (unknown ones are errors listing the known ones).
    pub fn deserialize<'de, De: Deserializer<'de>>(de: De) -> Result<Bound<Monopod>, De::Error> {
        let Fields {
            b,
            m1,
            k,
            f,
            strategy,
        } = Fields::deserialize(de)?;
        Ok(Monopod::new(strategy).at([b, m1, k, f]))
    }

    /// Writes every field.
    pub fn serialize<S: Serializer>(m: &Bound<Monopod>, s: S) -> Result<S::Ok, S::Error> {
        let p = m.values();
        Fields {
            b: p[B],
            m1: p[M1],
            k: p[K],
            f: p[F],
            strategy: m.model().strategy,
        }
        .serialize(s)
    }
}
