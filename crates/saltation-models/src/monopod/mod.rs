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

mod stiffness;

use saltation_hybrid::{check_range, EvalModel, Guard, ParamError, Scalar};
use serde::{Deserialize, Serialize};
use std::f64::consts::PI;

pub use stiffness::{stiffness_ratio, CharacteristicPolynomial, Stiffness};

/// `4π²`, the squared angular frequency of the free two-mass oscillation in dimensionless time.
pub const FOUR_PI_SQ: f64 = 4.0 * PI * PI;

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

/// The monopod: its four dimensionless parameters and the phase-switch strategy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monopod {
    /// Ground damping `b* ∈ [550, 38000]` (nominal 1951), eq. (20).
    pub b: f64,
    /// Toe mass `m1* = 4π² m1/(m1 + m2) ∈ [0.8, 20]` (nominal 1.88), eq. (21).
    pub m1: f64,
    /// Ground stiffness `k* ∈ [1, 480]` (nominal 22.8), eq. (22).
    pub k: f64,
    /// Weight `f* ∈ [0.01, 0.3]` (nominal 0.051), eq. (23).
    pub f: f64,
    /// Phase switch (default [`Strategy::Events`]).
    #[serde(default)]
    pub strategy: Strategy,
}

impl Default for Monopod {
    fn default() -> Self {
        Self::NOMINAL
    }
}

/// Index of the flight mode (strategy events).
pub const FLIGHT: usize = 0;
/// Index of the stance mode (strategy events).
pub const STANCE: usize = 1;

impl Monopod {
    /// The nominal set `b* = 1951, m1* = 1.88, k* = 22.8, f* = 0.051`, events strategy.
    pub const NOMINAL: Monopod = Monopod::new(1951.0, 1.88, 22.8, 0.051);

    /// The 13 parameter sets of the study's Table 2 (set 5 is the nominal one): each varies one
    /// parameter of the nominal set over its range.
    pub const TABLE2: [Monopod; 13] = [
        Monopod::new(1951.0, 20.0, 22.8, 0.051),
        Monopod::new(1951.0, 10.4, 22.8, 0.051),
        Monopod::new(1951.0, 1.88, 22.8, 0.010),
        Monopod::new(550.0, 1.88, 22.8, 0.051),
        Monopod::new(1951.0, 1.88, 22.8, 0.051),
        Monopod::new(1951.0, 1.88, 22.8, 0.155),
        Monopod::new(1951.0, 0.80, 22.8, 0.051),
        Monopod::new(1951.0, 1.88, 22.8, 0.300),
        Monopod::new(19275.0, 1.88, 22.8, 0.051),
        Monopod::new(1951.0, 1.88, 240.5, 0.051),
        Monopod::new(38000.0, 1.88, 22.8, 0.051),
        Monopod::new(1951.0, 1.88, 480.0, 0.051),
        Monopod::new(1951.0, 1.88, 1.0, 0.051),
    ];

    /// The study's initial state `q0 = [0.5, 0, 1.5, 0]` (eq. 35): toe at half, body at one and
    /// a half spring lengths, at rest; it starts in flight.
    pub const Q0: [f64; 4] = [0.5, 0.0, 1.5, 0.0];

    /// The study's horizon, `t ∈ [0, 50]`.
    pub const T_END: f64 = 50.0;

    /// A monopod with these parameters and the events strategy.
    pub const fn new(b: f64, m1: f64, k: f64, f: f64) -> Monopod {
        Monopod {
            b,
            m1,
            k,
            f,
            strategy: Strategy::Events,
        }
    }

    /// The same monopod with another phase-switch strategy.
    pub fn with_strategy(self, strategy: Strategy) -> Monopod {
        Monopod { strategy, ..self }
    }

    /// Whether the ground force acts in `mode` at toe height `y1`.
    fn in_stance(&self, mode: usize, y1: f64) -> bool {
        match self.strategy {
            Strategy::Events => mode == STANCE,
            Strategy::IfElse => y1 <= 0.0,
        }
    }

    /// Accelerations (18)–(19) with the ground term on or off.
    fn accelerations<D: Scalar>(&self, stance: bool, x: &[D]) -> (D, D) {
        let c = FOUR_PI_SQ - self.m1;
        let (y1, v1, y2) = (x[0], x[1], x[2]);
        let mut a1 = y2 * c - y1 * c - (self.f + c);
        if stance {
            // |y1|^0.5 y1 and |y1|^1.5, with their (finite) derivatives also at y1 = 0, where
            // d|y1|^0.5 is infinite and would give 0·∞ in the chain rule.
            let a = y1.abs();
            if a.re() > 0.0 {
                let s = a.sqrt();
                a1 -= v1 * (s * a) * self.b + (s * y1) * (c * self.k);
            }
        }
        let a2 = (y1 - y2) * self.m1 + (self.m1 - self.f);
        (a1, a2)
    }

    /// The Jacobian `∂f/∂q` (row-major 4×4) with the ground term on (`stance`) or off:
    /// rows `[0 1 0 0]`, `[∂ÿ1/∂y1, −b*|y1|^1.5, c, 0]`, `[0 0 0 1]`, `[m1*, 0, −m1*, 0]` with
    /// `∂ÿ1/∂y1 = −1.5 b* |y1|^0.5 sign(y1) ẏ1 − c (1 + 1.5 k* |y1|^0.5)` in stance, `−c` in
    /// flight.
    pub fn jacobian(&self, stance: bool, x: &[f64], jac: &mut [f64]) {
        let c = FOUR_PI_SQ - self.m1;
        let (y1, v1) = (x[0], x[1]);
        let (mut d_y1, mut d_v1) = (-c, 0.0);
        if stance {
            let s = y1.abs().sqrt();
            d_y1 -=
                1.5 * self.b * s * y1.signum() * v1 * f64::from(y1 != 0.0) + 1.5 * c * self.k * s;
            d_v1 = -self.b * s * s * s;
        }
        jac.copy_from_slice(&[
            0.0, 1.0, 0.0, 0.0, //
            d_y1, d_v1, c, 0.0, //
            0.0, 0.0, 0.0, 1.0, //
            self.m1, 0.0, -self.m1, 0.0,
        ]);
    }
}

impl EvalModel for Monopod {
    saltation_hybrid::named_params!("b" => b, "m1" => m1, "k" => k, "f" => f);
    autonomous!();
    fn name(&self) -> &str {
        "monopod"
    }
    fn dim(&self) -> usize {
        4
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
    fn flow<D: Scalar>(&self, mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let (a1, a2) = self.accelerations(self.in_stance(mode, x[0].re()), x);
        dx[0] = x[1];
        dx[1] = a1;
        dx[2] = x[3];
        dx[3] = a2;
    }
    fn guards(&self, _mode: usize) -> usize {
        match self.strategy {
            Strategy::Events => 1,
            Strategy::IfElse => 0,
        }
    }
    fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
        x[0]
    }
    fn describe_guard(&self, mode: usize, _j: usize) -> Guard<Self> {
        if mode == FLIGHT {
            Guard::to(STANCE).falling()
        } else {
            Guard::to(FLIGHT).rising()
        }
    }
    fn flow_jacobian(&self, mode: usize, _t: f64, x: &[f64], jac: &mut [f64]) -> bool {
        self.jacobian(self.in_stance(mode, x[0]), x, jac);
        true
    }
    /// Flight (with events) is linear: two masses on the leg spring, no ground force.
    fn flow_jacobian_is_constant(&self, mode: usize) -> bool {
        self.strategy == Strategy::Events && mode == FLIGHT
    }
    fn flow_is_autonomous(&self, _mode: usize) -> bool {
        true
    }
    fn guard_gradient(&self, _mode: usize, _j: usize, _x: &[f64], grad: &mut [f64]) -> bool {
        grad.copy_from_slice(&[1.0, 0.0, 0.0, 0.0]);
        true
    }
    fn reset_jacobian(&self, _mode: usize, _j: usize, _x: &[f64], jac: &mut [f64]) -> bool {
        saltation_hybrid::identity(jac, 4);
        true
    }
    fn state_names(&self) -> Vec<String> {
        vec!["y1".into(), "dy1/dt".into(), "y2".into(), "dy2/dt".into()]
    }
    fn check_params(&self) -> Result<(), ParamError> {
        check_range(
            "b",
            self.b,
            self.b >= 0.0,
            "b >= 0 (the study uses 550..38000)",
        )?;
        check_range(
            "m1",
            self.m1,
            self.m1 > 0.0 && self.m1 < FOUR_PI_SQ,
            "0 < m1 < 4 pi^2 (m1* = 4 pi^2 m1/(m1 + m2); the study uses 0.8..20)",
        )?;
        check_range("k", self.k, self.k >= 0.0, "k >= 0 (the study uses 1..480)")?;
        check_range(
            "f",
            self.f,
            self.f > 0.0,
            "f > 0 (the study uses 0.01..0.3)",
        )
    }
}
