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

use saltation_hybrid::{EvalModel, Guard, Scalar};
use std::f64::consts::FRAC_PI_2;

/// Index of the heel-strike guard.
pub const HEEL_STRIKE: usize = 0;
/// Index of the fall guard.
pub const FALL: usize = 1;

/// The compass-gait biped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompassGait {
    /// Leg mass `m` (kg).
    pub m: f64,
    /// Hip mass `m_H` (kg).
    pub m_h: f64,
    /// Foot-to-leg-mass distance `a` (m).
    pub a: f64,
    /// Leg-mass-to-hip distance `b` (m).
    pub b: f64,
    /// Gravity `g` (m/s²).
    pub g: f64,
    /// Slope `φ` (rad).
    pub phi: f64,
}

impl Default for CompassGait {
    /// Goswami et al.'s standard biped: `m = 5`, `m_H = 10`, `a = b = 0.5`, `g = 9.81`, `φ = 3°`.
    fn default() -> Self {
        Self {
            m: 5.0,
            m_h: 10.0,
            a: 0.5,
            b: 0.5,
            g: 9.81,
            phi: 3f64.to_radians(),
        }
    }
}

impl CompassGait {
    /// Leg length `l = a + b`.
    pub fn l(&self) -> f64 {
        self.a + self.b
    }

    /// Total mechanical energy (kinetic + potential, potential zero at the stance foot's
    /// height, measured along the vertical), conserved during the swing phase.
    pub fn energy(&self, x: &[f64]) -> f64 {
        let (m, mh, a, b, l, g) = (self.m, self.m_h, self.a, self.b, self.l(), self.g);
        let (tn, ts, wn, ws) = (x[0], x[1], x[2], x[3]);
        let kinetic = 0.5 * m * b * b * wn * wn - m * l * b * (ts - tn).cos() * wn * ws
            + 0.5 * ((mh + m) * l * l + m * a * a) * ws * ws;
        let potential = g * ((m * a + mh * l + m * l) * ts.cos() - m * b * tn.cos());
        kinetic + potential
    }

    /// Point masses `(mass, position, velocity)` of the biped in the frame with the stance foot
    /// at the origin (x horizontal, y up).
    pub fn masses(&self, x: &[f64]) -> [(f64, [f64; 2], [f64; 2]); 3] {
        let (a, b, l) = (self.a, self.b, self.l());
        let (tn, ts, wn, ws) = (x[0], x[1], x[2], x[3]);
        let along_s = [ts.sin(), ts.cos()];
        let dalong_s = [ts.cos() * ws, -ts.sin() * ws];
        let along_n = [tn.sin(), tn.cos()];
        let dalong_n = [tn.cos() * wn, -tn.sin() * wn];
        let hip = [l * along_s[0], l * along_s[1]];
        let vhip = [l * dalong_s[0], l * dalong_s[1]];
        [
            (
                self.m,
                [a * along_s[0], a * along_s[1]],
                [a * dalong_s[0], a * dalong_s[1]],
            ),
            (self.m_h, hip, vhip),
            (
                self.m,
                [hip[0] - b * along_n[0], hip[1] - b * along_n[1]],
                [vhip[0] - b * dalong_n[0], vhip[1] - b * dalong_n[1]],
            ),
        ]
    }

    /// Swing-foot position (stance foot at the origin).
    pub fn swing_foot(&self, x: &[f64]) -> [f64; 2] {
        let l = self.l();
        [l * (x[1].sin() - x[0].sin()), l * (x[1].cos() - x[0].cos())]
    }
}

impl EvalModel for CompassGait {
    fn name(&self) -> &str {
        "compass_gait"
    }
    fn dim(&self) -> usize {
        4
    }
    fn mode_name(&self, _mode: usize) -> String {
        "single support".into()
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        let (m, mh, a, b, l, g) = (self.m, self.m_h, self.a, self.b, self.l(), self.g);
        let (tn, ts, wn, ws) = (x[0], x[1], x[2], x[3]);
        let d = ts - tn;
        let (s, c) = (d.sin(), d.cos());
        // M θ̈ = r := −N θ̇ − G.
        let m11 = D::from(m * b * b);
        let m12 = c * (-m * l * b);
        let m22 = D::from((mh + m) * l * l + m * a * a);
        let r1 = -(s * ws * ws * (m * l * b)) - tn.sin() * (m * b * g);
        let r2 = s * wn * wn * (m * l * b) + ts.sin() * ((mh * l + m * a + m * l) * g);
        let det = m11 * m22 - m12 * m12;
        dx[0] = wn;
        dx[1] = ws;
        dx[2] = (m22 * r1 - m12 * r2) / det;
        dx[3] = (m11 * r2 - m12 * r1) / det;
    }
    fn guards(&self, _mode: usize) -> usize {
        2
    }
    fn guard<D: Scalar>(&self, _mode: usize, j: usize, x: &[D]) -> D {
        if j == HEEL_STRIKE {
            x[0] + x[1] + 2.0 * self.phi
        } else {
            x[1] * x[1] - FRAC_PI_2 * FRAC_PI_2
        }
    }
    fn describe_guard(&self, _mode: usize, j: usize) -> Guard<Self> {
        if j == HEEL_STRIKE {
            Guard::to(0).falling().enabled_when(|_, x| x[0] > x[1])
        } else {
            Guard::failure("the compass gait fell (stance leg past horizontal)").rising()
        }
    }
    fn reset<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D], out: &mut [D]) {
        let (m, mh, a, b, l) = (self.m, self.m_h, self.a, self.b, self.l());
        let c2a = (x[0] - x[1]).cos();
        // Q⁻ θ̇⁻
        let q1 = x[2] * (-m * a * b) + x[3] * (c2a * (mh * l * l + 2.0 * m * a * l) - m * a * b);
        let q2 = x[3] * (-m * a * b);
        // Q⁺ θ̇⁺ = (q1, q2)
        let p11 = (-c2a * l + b) * (m * b);
        let p12 = (-c2a * b + l) * (m * l) + (m * a * a + mh * l * l);
        let p21 = D::from(m * b * b);
        let p22 = c2a * (-m * b * l);
        let det = p11 * p22 - p12 * p21;
        out[0] = x[1];
        out[1] = x[0];
        out[2] = (p22 * q1 - p12 * q2) / det;
        out[3] = (p11 * q2 - p21 * q1) / det;
    }
    fn reduced_dim(&self) -> usize {
        3
    }
    fn chart<D: Scalar>(&self, u: &[D], x: &mut [D]) {
        x[0] = -u[0] - 2.0 * self.phi;
        x[1] = u[0];
        x[2] = u[1];
        x[3] = u[2];
    }
    fn project<D: Scalar>(&self, x: &[D], u: &mut [D]) {
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
