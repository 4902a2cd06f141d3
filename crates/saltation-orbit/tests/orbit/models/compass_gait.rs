//! The compass-gait biped (Goswami, Thuilot & Espiau 1998, "A study of the passive gait of a
//! compass-like biped robot: symmetry and chaos", Int. J. Robotics Research 17(12):1282–1301).
//!
//! Two rigid legs of length `l = a + b` with point masses `m` (at distance `a` from the foot)
//! and a hip mass `m_H`, on a slope `φ`. State `x = [θ_ns, θ_s, θ̇_ns, θ̇_s]` (swing and stance
//! leg angles from the vertical, positive counter-clockwise, walking towards decreasing `θ_s`).
//! Swing phase `M(θ) θ̈ + N(θ, θ̇) θ̇ + G(θ) = 0` with, `c = cos(θ_s − θ_ns)`,
//! `s = sin(θ_s − θ_ns)`:
//!
//! ```text
//! M = [ m b²        −m l b c              ]   N = [ 0               m l b s θ̇_s ]
//!     [ −m l b c    (m_H + m) l² + m a²   ]       [ −m l b s θ̇_ns   0           ]
//! G = g [ m b sin θ_ns,  −(m_H l + m a + m l) sin θ_s ]
//! ```
//!
//! Heel strike when the swing foot touches the slope, `θ_ns + θ_s + 2φ = 0`: with the swing leg
//! in front (`θ_ns > θ_s`, the enabling condition) the guard is positive while the swing foot is
//! above the slope, so it fires falling; the mid-stance crossing (legs side by side, swing leg
//! behind) is disabled. The impact conserves the angular momentum of the whole
//! biped about the impact point and of the trailing leg about the hip:
//! `Q⁺(α) θ̇⁺ = Q⁻(α) θ̇⁻`, `α = (θ_ns − θ_s)/2` the half inter-leg angle, and the legs swap,
//! `θ⁺ = (θ_s⁻, θ_ns⁻)`:
//!
//! ```text
//! Q⁻ = [ −m a b   −m a b + (m_H l² + 2 m a l) cos 2α ]
//!      [ 0        −m a b                             ]
//! Q⁺ = [ m b (b − l cos 2α)   m l (l − b cos 2α) + m a² + m_H l² ]
//!      [ m b²                 −m b l cos 2α                      ]
//! ```
//!
//! A second guard, `θ_s² − (π/2)²` rising, means the walker fell (the stance leg passed
//! horizontal): a stride that meets it fails. Section: post-impact states, with reduced
//! coordinates `u = [θ_s, θ̇_ns, θ̇_s]` and chart `θ_ns = −2φ − θ_s`.

#![allow(dead_code)]

use saltation_hybrid::{Bound, GuardSpec, HybridModel, Param, Scalar};
use std::f64::consts::FRAC_PI_2;

/// Index of the leg mass `m` (kg) in the parameter vector.
pub const M: usize = 0;
/// Index of the hip mass `m_H` (kg).
pub const M_H: usize = 1;
/// Index of the foot-to-leg-mass distance `a` (m).
pub const A: usize = 2;
/// Index of the leg-mass-to-hip distance `b` (m).
pub const B: usize = 3;
/// Index of gravity `g` (m/s²).
pub const G: usize = 4;
/// Index of the slope `φ` (rad).
pub const PHI: usize = 5;

/// The parameters, at Goswami et al.'s standard biped: `m = 5`, `m_H = 10`, `a = b = 0.5`,
/// `g = 9.81`, `φ = 3°`.
pub const PARAMS: &[Param] = &[
    Param::new("m", 5.0),
    Param::new("m_h", 10.0),
    Param::new("a", 0.5),
    Param::new("b", 0.5),
    Param::new("g", 9.81),
    Param::new("phi", 3f64.to_radians()),
];

/// The biped's guards, in the order events are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contact {
    /// The swing foot strikes the slope, `θ_ns + θ_s + 2φ = 0` falling, swing leg in front.
    HeelStrike,
    /// The stance leg passes horizontal, `θ_s² − (π/2)²` rising: the walker fell.
    Fall,
}

/// The guards of the (one) mode; a stride failure's `guard` indexes this list.
pub const GUARDS: &[Contact] = &[Contact::HeelStrike, Contact::Fall];

/// The compass-gait biped (its equations; the numbers are [`PARAMS`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CompassGait;

/// The standard biped at its default parameters.
pub fn biped() -> Bound<CompassGait> {
    Bound::default()
}

/// Leg length `l = a + b`.
fn leg<D: Scalar>(p: &[D]) -> D {
    p[A] + p[B]
}

/// Total mechanical energy (kinetic + potential, potential zero at the stance foot's height,
/// measured along the vertical), conserved during the swing phase.
pub fn energy(model: &Bound<CompassGait>, x: &[f64]) -> f64 {
    let p = model.values();
    let (m, mh, a, b, l, g) = (p[M], p[M_H], p[A], p[B], leg(p), p[G]);
    let (tn, ts, wn, ws) = (x[0], x[1], x[2], x[3]);
    let kinetic = 0.5 * m * b * b * wn * wn - m * l * b * (ts - tn).cos() * wn * ws
        + 0.5 * ((mh + m) * l * l + m * a * a) * ws * ws;
    let potential = g * ((m * a + mh * l + m * l) * ts.cos() - m * b * tn.cos());
    kinetic + potential
}

/// Point masses `(mass, position, velocity)` of the biped in the frame with the stance foot
/// at the origin (x horizontal, y up).
pub fn masses(model: &Bound<CompassGait>, x: &[f64]) -> [(f64, [f64; 2], [f64; 2]); 3] {
    let p = model.values();
    let (a, b, l) = (p[A], p[B], leg(p));
    let (tn, ts, wn, ws) = (x[0], x[1], x[2], x[3]);
    let along_s = [ts.sin(), ts.cos()];
    let dalong_s = [ts.cos() * ws, -ts.sin() * ws];
    let along_n = [tn.sin(), tn.cos()];
    let dalong_n = [tn.cos() * wn, -tn.sin() * wn];
    let hip = [l * along_s[0], l * along_s[1]];
    let vhip = [l * dalong_s[0], l * dalong_s[1]];
    [
        (
            p[M],
            [a * along_s[0], a * along_s[1]],
            [a * dalong_s[0], a * dalong_s[1]],
        ),
        (p[M_H], hip, vhip),
        (
            p[M],
            [hip[0] - b * along_n[0], hip[1] - b * along_n[1]],
            [vhip[0] - b * dalong_n[0], vhip[1] - b * dalong_n[1]],
        ),
    ]
}

/// Swing-foot position (stance foot at the origin).
pub fn swing_foot(model: &Bound<CompassGait>, x: &[f64]) -> [f64; 2] {
    let l = leg(model.values());
    [l * (x[1].sin() - x[0].sin()), l * (x[1].cos() - x[0].cos())]
}

impl HybridModel for CompassGait {
    type Guard = Contact;
    fn name(&self) -> &str {
        "compass_gait"
    }
    fn dim(&self) -> usize {
        4
    }
    fn params(&self) -> &[Param] {
        PARAMS
    }
    fn mode_name(&self, _mode: usize) -> String {
        "single support".into()
    }
    /// `θ̈ = M⁻¹ (−N θ̇ − G)` by Cramer's rule.
    fn flow<D: Scalar>(&self, p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let (m, mh, a, b, l, g) = (p[M], p[M_H], p[A], p[B], leg(p), p[G]);
        let (tn, ts, wn, ws) = (x[0], x[1], x[2], x[3]);
        let d = ts - tn;
        let (s, c) = (d.sin(), d.cos());
        // M θ̈ = r := −N θ̇ − G.
        let m11 = m * b * b;
        let m12 = c * (-m * l * b);
        let m22 = (mh + m) * l * l + m * a * a;
        let r1 = -(s * ws * ws * (m * l * b)) - tn.sin() * (m * b * g);
        let r2 = s * wn * wn * (m * l * b) + ts.sin() * ((mh * l + m * a + m * l) * g);
        let det = m11 * m22 - m12 * m12;
        dx[0] = wn;
        dx[1] = ws;
        dx[2] = (m22 * r1 - m12 * r2) / det;
        dx[3] = (m11 * r2 - m12 * r1) / det;
    }
    fn guards(&self, _mode: usize) -> &[Contact] {
        GUARDS
    }
    fn describe(&self, _mode: usize, g: Contact) -> GuardSpec {
        match g {
            Contact::HeelStrike => GuardSpec::to(0).falling().enabled_when(|_, x| x[0] > x[1]),
            Contact::Fall => {
                GuardSpec::failure("the compass gait fell (stance leg past horizontal)").rising()
            }
        }
    }
    fn guard<D: Scalar>(&self, p: &[D], _mode: usize, g: Contact, x: &[D]) -> D {
        match g {
            Contact::HeelStrike => x[0] + x[1] + p[PHI] * 2.0,
            Contact::Fall => x[1] * x[1] - FRAC_PI_2 * FRAC_PI_2,
        }
    }
    /// The legs swap and `θ̇⁺ = Q⁺⁻¹ Q⁻ θ̇⁻` (Cramer's rule); the fall guard ends the stride, so
    /// its reset is never applied (the same map).
    fn reset<D: Scalar>(&self, p: &[D], _mode: usize, g: Contact, x: &[D], out: &mut [D]) {
        match g {
            Contact::HeelStrike | Contact::Fall => {
                let (m, mh, a, b, l) = (p[M], p[M_H], p[A], p[B], leg(p));
                let c2a = (x[0] - x[1]).cos();
                // Q⁻ θ̇⁻
                let q1 =
                    x[2] * (-m * a * b) + x[3] * (c2a * (mh * l * l + m * 2.0 * a * l) - m * a * b);
                let q2 = x[3] * (-m * a * b);
                // Q⁺ θ̇⁺ = (q1, q2)
                let p11 = (-c2a * l + b) * (m * b);
                let p12 = (-c2a * b + l) * (m * l) + (m * a * a + mh * l * l);
                let p21 = m * b * b;
                let p22 = c2a * (-m * b * l);
                let det = p11 * p22 - p12 * p21;
                out[0] = x[1];
                out[1] = x[0];
                out[2] = (p22 * q1 - p12 * q2) / det;
                out[3] = (p11 * q2 - p21 * q1) / det;
            }
        }
    }
    fn reduced_dim(&self) -> usize {
        3
    }
    /// `χ(u) = (−2φ − θ_s, θ_s, θ̇_ns, θ̇_s)`.
    fn chart<D: Scalar>(&self, p: &[D], u: &[D], x: &mut [D]) {
        x[0] = -u[0] - p[PHI] * 2.0;
        x[1] = u[0];
        x[2] = u[1];
        x[3] = u[2];
    }
    fn project<D: Scalar>(&self, _p: &[D], x: &[D], u: &mut [D]) {
        u.copy_from_slice(&x[1..4]);
    }
    fn state_names(&self) -> Vec<String> {
        vec![
            "θ_ns".into(),
            "θ_s".into(),
            "dθ_ns/dt".into(),
            "dθ_s/dt".into(),
        ]
    }
}
