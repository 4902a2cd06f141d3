//! The spring-loaded inverted pendulum (SLIP) runner (Blickhan 1989; Seyfarth, Geyer, Günther &
//! Blickhan 2002), written as a user of Saltation would write a new model: two modes, several
//! guards with an enabling condition and failure guards, a reduced section with a chart that
//! depends on a parameter, declared parameters, and exact parameter derivatives.
//!
//! State `x = [x, y, ẋ, ẏ, x_f]`: the point mass (horizontal, vertical position and velocity)
//! and the foot's contact point `x_f` (set at touchdown, constant otherwise).
//! - Flight (mode 0): `ẍ = 0`, `ÿ = −g`.
//! - Stance (mode 1): leg `(x − x_f, y)` of length `l`; the spring force `k (l₀ − l)` along it:
//!   `ẍ = k (l₀ − l)/(m l) · (x − x_f)`, `ÿ = k (l₀ − l)/(m l) · y − g`.
//!
//! Guards of flight: the apex (`ẏ = 0`, falling; counted only above the touchdown height
//! `l₀ sin α`, where the leg can be placed at its angle of attack `α`), touchdown
//! (`y − l₀ sin α = 0`, falling; the foot lands at `x_f = x + l₀ cos α`), and the body hitting
//! the ground (`y = 0`: a failure). Guards of stance: lift-off (`l² − l₀² = 0`, rising: the leg
//! back at rest length) and the leg collapsing (`y = 0`: a failure).
//!
//! A stride runs from one apex to the next. The system conserves its energy `E`, so the apex
//! state is one number: the section's reduced coordinate is the apex height `u = y`, and the
//! chart `χ(y) = (0, y, √(2(E/m − g y)), 0, 0)` depends on the parameter `E`.
//!
//! How it is written: the struct [`Slip`] is the equations; the numbers are the parameters,
//! declared once in [`PARAMS`] (name, default, valid range) and passed to every formula as the
//! slice `p` — `p[K]` is the stiffness. A [`Bound<Slip>`](saltation::hybrid::Bound) holds the
//! equations with one vector of values: that is what the solvers take, what `set("alpha", …)`
//! changes (checked against the declared range), and what gives exact `∂/∂p` for every
//! parameter, by seeding a dual number in `p[k]`. The guards are an enum ([`SlipGuard`]): every
//! `match` on it is exhaustive, so a guard left out of one of them does not compile.

use saltation::hybrid::{
    check_range, GuardSpec, HybridModel, Limit, Param, ParamError, Scalar, SectionJacobians,
    StrideOptions,
};
use saltation::ode::{Method, SolverOptions};
use std::f64::consts::FRAC_PI_2;

/// Flight.
pub const FLIGHT: usize = 0;
/// Stance.
pub const STANCE: usize = 1;

/// One stride, apex → touchdown → lift-off → apex (three events from flight), DOP853 at
/// `rtol = atol = tol`.
pub fn stride_options(tol: f64) -> StrideOptions {
    StrideOptions {
        method: Method::Dop853,
        ode: SolverOptions::with_tol(tol),
        start_mode: FLIGHT,
        events_per_stride: 3,
        t_max: 5.0,
        ..StrideOptions::default()
    }
}

/// Index of the body mass `m` in [`PARAMS`] (and in `p`).
pub const M: usize = 0;
/// Index of the leg stiffness `k`.
pub const K: usize = 1;
/// Index of the leg rest length `l₀`.
pub const L0: usize = 2;
/// Index of gravity `g`.
pub const G: usize = 3;
/// Index of the angle of attack `α`.
pub const ALPHA: usize = 4;
/// Index of the total energy `E`.
pub const ENERGY: usize = 5;

/// The SLIP runner's parameters (SI units; `alpha` in radians from the horizontal), in the
/// order of the indices above: 80 kg, 20 kN/m, 1 m, α = 68°, and the energy of a 1 m apex at
/// 5 m/s. The words of `described` are the valid range as error messages say it; the energy's
/// condition involves the other parameters and is checked by [`HybridModel::check_params`].
pub const PARAMS: &[Param] = &[
    Param::new("m", 80.0)
        .above(Limit::Open(0.0))
        .described("m > 0 (kg)"),
    Param::new("k", 20_000.0)
        .above(Limit::Open(0.0))
        .described("k > 0 (N/m)"),
    Param::new("l0", 1.0)
        .above(Limit::Open(0.0))
        .described("l0 > 0 (m)"),
    Param::new("g", 9.81)
        .above(Limit::Open(0.0))
        .described("g > 0 (m/s^2)"),
    Param::new("alpha", 68f64.to_radians())
        .open_range(0.0, FRAC_PI_2)
        .described("0 < alpha < pi/2 (rad)"),
    // E = m g y + m v²/2 at y = 1 m, v = 5 m/s.
    Param::new("energy", 80.0 * 9.81 * 1.0 + 0.5 * 80.0 * 5.0 * 5.0),
];

/// The runner's guards. Flight has [`SlipGuard::Apex`], [`SlipGuard::Touchdown`] and
/// [`SlipGuard::GroundInFlight`], stance [`SlipGuard::LiftOff`] and [`SlipGuard::Collapse`]
/// ([`HybridModel::guards`]; events are reported by their index in that list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlipGuard {
    /// The apex, `h = ẏ` falling, counted only above the touchdown height `y > l₀ sin α`; a
    /// stride starts and ends here.
    Apex,
    /// Touchdown, `h = y − l₀ sin α` falling: the foot lands at `x_f = x + l₀ cos α`.
    Touchdown,
    /// The body hits the ground in flight, `h = y` falling: a failure.
    GroundInFlight,
    /// Lift-off, `h = (x − x_f)² + y² − l₀²` rising: the leg is back at its rest length.
    LiftOff,
    /// The leg collapses and the body hits the ground in stance, `h = y` falling: a failure.
    Collapse,
}

/// The SLIP runner's equations (the numbers are [`PARAMS`]; a
/// [`Bound<Slip>`](saltation::hybrid::Bound) holds their values).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Slip;

/// Forward speed `ẋ = √(2(E/m − g y))` at an apex of height `y` with the parameter values `p`
/// (`NaN` if the energy does not reach it).
pub fn apex_speed<D: Scalar>(p: &[D], y: D) -> D {
    ((p[ENERGY] / p[M] - p[G] * y) * 2.0).sqrt()
}

/// Total energy `m g y + m (ẋ² + ẏ²)/2` of the state `x` with the parameter values `p`
/// (constant along a stride).
pub fn energy(p: &[f64], x: &[f64]) -> f64 {
    p[M] * p[G] * x[1] + 0.5 * p[M] * (x[2] * x[2] + x[3] * x[3])
}

impl HybridModel for Slip {
    type Guard = SlipGuard;

    fn name(&self) -> &str {
        "slip_runner"
    }
    fn dim(&self) -> usize {
        5
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    /// The energy must reach above the touchdown height, `E > m g l₀ sin α` (each parameter's
    /// own range is checked from [`PARAMS`] before this).
    fn check_params(&self, p: &[f64]) -> Result<(), ParamError> {
        let ok = p[ENERGY] > p[M] * p[G] * p[L0] * p[ALPHA].sin();
        check_range(
            "energy",
            p[ENERGY],
            ok,
            "energy above m g l0 sin(alpha) (an apex above touchdown)",
        )
    }
    fn modes(&self) -> usize {
        2
    }
    fn mode_name(&self, mode: usize) -> String {
        ["flight", "stance"][mode].into()
    }
    fn state_names(&self) -> Vec<String> {
        ["x", "y", "dx/dt", "dy/dt", "x_foot"]
            .map(String::from)
            .to_vec()
    }
    /// Neither mode depends on time.
    fn autonomous(&self, _mode: usize) -> bool {
        true
    }

    /// Flight: `ẍ = 0`, `ÿ = −g`. Stance: `ẍ = k (l₀ − l)/(m l) · (x − x_f)`,
    /// `ÿ = k (l₀ − l)/(m l) · y − g` with `l = |(x − x_f, y)|`. The foot does not move.
    fn flow<D: Scalar>(&self, p: &[D], mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        dx[0] = x[2];
        dx[1] = x[3];
        dx[4] = D::from(0.0);
        if mode == FLIGHT {
            dx[2] = D::from(0.0);
            dx[3] = -p[G];
        } else {
            let (lx, ly) = (x[0] - x[4], x[1]);
            let l = (lx * lx + ly * ly).sqrt();
            let a = p[K] * (p[L0] - l) / (p[M] * l);
            dx[2] = a * lx;
            dx[3] = a * ly - p[G];
        }
    }

    fn guards(&self, mode: usize) -> &[SlipGuard] {
        if mode == FLIGHT {
            &[
                SlipGuard::Apex,
                SlipGuard::Touchdown,
                SlipGuard::GroundInFlight,
            ]
        } else {
            &[SlipGuard::LiftOff, SlipGuard::Collapse]
        }
    }
    fn describe(&self, _mode: usize, g: SlipGuard) -> GuardSpec {
        match g {
            // Only above the touchdown height, where the leg can be placed.
            SlipGuard::Apex => GuardSpec::to(FLIGHT)
                .falling()
                .enabled_when(|p, x| x[1] > p[L0] * p[ALPHA].sin()),
            SlipGuard::Touchdown => GuardSpec::to(STANCE).falling(),
            SlipGuard::GroundInFlight => {
                GuardSpec::failure("the body hit the ground in flight").falling()
            }
            SlipGuard::LiftOff => GuardSpec::to(FLIGHT).rising(),
            SlipGuard::Collapse => {
                GuardSpec::failure("the leg collapsed: the body hit the ground in stance").falling()
            }
        }
    }
    fn guard<D: Scalar>(&self, p: &[D], _mode: usize, g: SlipGuard, x: &[D]) -> D {
        match g {
            SlipGuard::Apex => x[3],
            SlipGuard::Touchdown => x[1] - p[L0] * p[ALPHA].sin(),
            SlipGuard::LiftOff => {
                let lx = x[0] - x[4];
                lx * lx + x[1] * x[1] - p[L0] * p[L0]
            }
            SlipGuard::GroundInFlight | SlipGuard::Collapse => x[1],
        }
    }
    /// Touchdown places the foot one leg length ahead at the angle of attack,
    /// `x_f = x + l₀ cos α`; every other guard keeps the state.
    fn reset<D: Scalar>(&self, p: &[D], _mode: usize, g: SlipGuard, x: &[D], out: &mut [D]) {
        out.copy_from_slice(x);
        match g {
            SlipGuard::Touchdown => out[4] = x[0] + p[L0] * p[ALPHA].cos(),
            SlipGuard::Apex
            | SlipGuard::GroundInFlight
            | SlipGuard::LiftOff
            | SlipGuard::Collapse => {}
        }
    }

    // The section: an apex, u = [y].
    fn reduced_dim(&self) -> usize {
        1
    }
    /// `χ(y) = (0, y, √(2(E/m − g y)), 0, 0)`.
    fn chart<D: Scalar>(&self, p: &[D], u: &[D], x: &mut [D]) {
        let zero = D::from(0.0);
        x.copy_from_slice(&[zero, u[0], apex_speed(p, u[0]), zero, zero]);
    }
    /// `π(x) = y`.
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
    /// The full-state stride map also has the multiplier 1 of a shift in `x` (and of the
    /// foot), which says nothing about stability: multipliers are taken on the section.
    fn multipliers_on_section(&self) -> bool {
        true
    }
    fn hand_section_jacobians(&self) -> Option<&dyn SectionJacobians> {
        Some(self)
    }
}

/// Hand-written (automatic differentiation would give them too); the example's test checks
/// them with `saltation::hybrid::ad::check_hand_written`.
impl SectionJacobians for Slip {
    /// `Dχ(y) = (0, 1, ∂ẋ/∂y, 0, 0)` with `∂ẋ/∂y = −g / ẋ`.
    fn chart_jacobian(&self, p: &[f64], u: &[f64], jac: &mut [f64]) {
        jac.copy_from_slice(&[0.0, 1.0, -p[G] / apex_speed(p, u[0]), 0.0, 0.0]);
    }
    /// `Dπ = (0, 1, 0, 0, 0)`.
    fn project_jacobian(&self, _p: &[f64], _x: &[f64], jac: &mut [f64]) {
        jac.copy_from_slice(&[0.0, 1.0, 0.0, 0.0, 0.0]);
    }
}
