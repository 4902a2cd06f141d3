//! The spring-loaded inverted pendulum (SLIP) runner (Blickhan 1989; Seyfarth, Geyer, Günther &
//! Blickhan 2002), written as a user of Saltation would write a new model: two modes, several
//! guards with an enabling condition and failure guards, a reduced section with a chart that
//! depends on a parameter, named parameters, and exact parameter derivatives.
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

use saltation::hybrid::{check_range, EvalModel, Guard, ParamError, Scalar, StrideOptions};
use saltation::ode::{Method, SolverOptions};
use std::f64::consts::FRAC_PI_2;

/// Flight.
pub const FLIGHT: usize = 0;
/// Stance.
pub const STANCE: usize = 1;
/// Flight guard: the apex (a stride starts and ends here).
pub const APEX: usize = 0;

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

/// The SLIP runner's parameters (SI units; `alpha` in radians from the horizontal).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slip {
    /// Body mass `m` (kg).
    pub m: f64,
    /// Leg stiffness `k` (N/m).
    pub k: f64,
    /// Leg rest length `l₀` (m).
    pub l0: f64,
    /// Gravity `g` (m/s²).
    pub g: f64,
    /// Angle of attack `α` (rad, from the horizontal).
    pub alpha: f64,
    /// Total energy `E = m g y + m |v|²/2` (J).
    pub energy: f64,
}

impl Default for Slip {
    /// 80 kg, 20 kN/m, 1 m, α = 68°, and the energy of a 1 m apex at 5 m/s.
    fn default() -> Self {
        let (m, g) = (80.0, 9.81);
        Self {
            m,
            k: 20_000.0,
            l0: 1.0,
            g,
            alpha: 68f64.to_radians(),
            energy: m * g * 1.0 + 0.5 * m * 5.0 * 5.0,
        }
    }
}

impl Slip {
    /// Forward speed at an apex of height `y` (`NaN` if the energy does not reach it).
    pub fn apex_speed(&self, y: f64) -> f64 {
        apex_speed(&self.scalars(None), y)
    }

    /// The parameters as scalars of type `D`, parameter `k` replaced by `p` when given (so a
    /// dual number there carries `∂/∂p_k` through every formula).
    fn scalars<D: Scalar>(&self, over: Option<(usize, D)>) -> [D; 6] {
        let mut p = [self.m, self.k, self.l0, self.g, self.alpha, self.energy].map(D::from);
        if let Some((k, v)) = over {
            p[k] = v;
        }
        p
    }
}

/// `ẋ = √(2(E/m − g y))` at an apex of height `y`.
fn apex_speed<D: Scalar>(p: &[D; 6], y: D) -> D {
    ((p[ENERGY] / p[M] - p[G] * y) * 2.0).sqrt()
}

/// Indices into [`Slip::scalars`].
const M: usize = 0;
const K: usize = 1;
const L0: usize = 2;
const G: usize = 3;
const ALPHA: usize = 4;
const ENERGY: usize = 5;

fn field<D: Scalar>(p: &[D; 6], mode: usize, x: &[D], dx: &mut [D]) {
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

fn guard_fn<D: Scalar>(p: &[D; 6], mode: usize, j: usize, x: &[D]) -> D {
    match (mode, j) {
        (FLIGHT, APEX) => x[3],
        (FLIGHT, 1) => x[1] - p[L0] * p[ALPHA].sin(),
        (STANCE, 0) => {
            let lx = x[0] - x[4];
            lx * lx + x[1] * x[1] - p[L0] * p[L0]
        }
        _ => x[1],
    }
}

fn reset_fn<D: Scalar>(p: &[D; 6], mode: usize, j: usize, x: &[D], out: &mut [D]) {
    out.copy_from_slice(x);
    if (mode, j) == (FLIGHT, 1) {
        // Touchdown: the foot lands one leg length ahead at the angle of attack.
        out[4] = x[0] + p[L0] * p[ALPHA].cos();
    }
}

impl EvalModel for Slip {
    saltation::hybrid::named_params!(
        "m" => m, "k" => k, "l0" => l0, "g" => g, "alpha" => alpha, "energy" => energy,
    );
    fn name(&self) -> &str {
        "slip_runner"
    }
    fn dim(&self) -> usize {
        5
    }
    fn modes(&self) -> usize {
        2
    }
    fn mode_name(&self, mode: usize) -> String {
        ["flight", "stance"][mode].into()
    }
    fn flow<D: Scalar>(&self, mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        field(&self.scalars(None), mode, x, dx);
    }
    fn guards(&self, mode: usize) -> usize {
        if mode == FLIGHT {
            3
        } else {
            2
        }
    }
    fn guard<D: Scalar>(&self, mode: usize, j: usize, x: &[D]) -> D {
        guard_fn(&self.scalars(None), mode, j, x)
    }
    fn describe_guard(&self, mode: usize, j: usize) -> Guard<Self> {
        match (mode, j) {
            (FLIGHT, APEX) => Guard::to(FLIGHT)
                .falling()
                .enabled_when(|s, x| x[1] > s.l0 * s.alpha.sin()),
            (FLIGHT, 1) => Guard::to(STANCE).falling(),
            (FLIGHT, _) => Guard::failure("the body hit the ground in flight").falling(),
            (_, 0) => Guard::to(FLIGHT).rising(),
            _ => Guard::failure("the leg collapsed: the body hit the ground in stance").falling(),
        }
    }
    fn reset<D: Scalar>(&self, mode: usize, j: usize, x: &[D], out: &mut [D]) {
        reset_fn(&self.scalars(None), mode, j, x, out);
    }

    // The section: an apex, u = [y].
    fn reduced_dim(&self) -> usize {
        1
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        self.chart_with_param(ENERGY, D::from(self.energy), u, x);
    }
    // Hand-written (automatic differentiation would give it too); the example's test checks
    // it with `saltation::hybrid::ad::check_hand_written`.
    fn chart_jacobian(&self, u: &[f64], jac: &mut [f64]) {
        // ∂ẋ/∂y = −g / ẋ.
        jac.copy_from_slice(&[0.0, 1.0, -self.g / self.apex_speed(u[0]), 0.0, 0.0]);
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
        u[0] = x[1];
    }
    fn project_jacobian(&self, _x: &[f64], jac: &mut [f64]) {
        jac.copy_from_slice(&[0.0, 1.0, 0.0, 0.0, 0.0]);
    }
    /// The full-state stride map also has the multiplier 1 of a shift in `x` (and of the
    /// foot), which says nothing about stability: multipliers are taken on the section.
    fn multipliers_on_section(&self) -> bool {
        true
    }
    fn state_names(&self) -> Vec<String> {
        ["x", "y", "dx/dt", "dy/dt", "x_foot"]
            .map(String::from)
            .to_vec()
    }
    fn check_params(&self) -> Result<(), ParamError> {
        check_range("m", self.m, self.m > 0.0, "m > 0 (kg)")?;
        check_range("k", self.k, self.k > 0.0, "k > 0 (N/m)")?;
        check_range("l0", self.l0, self.l0 > 0.0, "l0 > 0 (m)")?;
        check_range("g", self.g, self.g > 0.0, "g > 0 (m/s^2)")?;
        let a = self.alpha;
        check_range(
            "alpha",
            a,
            a > 0.0 && a < FRAC_PI_2,
            "0 < alpha < pi/2 (rad)",
        )?;
        let e = self.energy;
        let ok = e > self.m * self.g * self.l0 * self.alpha.sin();
        check_range(
            "energy",
            e,
            ok,
            "energy above m g l0 sin(alpha) (an apex above touchdown)",
        )
    }

    // Exact derivatives in every parameter: the equations above, the chart included, take the
    // parameters as scalars.
    fn param_derivatives(&self, k: usize) -> bool {
        k < 6
    }
    fn flow_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        mode: usize,
        _t: f64,
        x: &[D],
        dx: &mut [D],
    ) {
        field(&self.scalars(Some((k, p))), mode, x, dx);
    }
    fn guard_with_param<D: Scalar>(&self, k: usize, p: D, mode: usize, j: usize, x: &[D]) -> D {
        guard_fn(&self.scalars(Some((k, p))), mode, j, x)
    }
    fn reset_with_param<D: Scalar>(
        &self,
        k: usize,
        p: D,
        mode: usize,
        j: usize,
        x: &[D],
        out: &mut [D],
    ) {
        reset_fn(&self.scalars(Some((k, p))), mode, j, x, out);
    }
    fn chart_with_param<D: Scalar>(&self, k: usize, p: D, u: &[D], x: &mut [D]) {
        let p = self.scalars(Some((k, p)));
        let zero = D::from(0.0);
        x.copy_from_slice(&[zero, u[0], apex_speed(&p, u[0]), zero, zero]);
    }
}
