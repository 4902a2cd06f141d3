//! Time-forced models (`forcing: (period: …)`): the forced stride map against the same system
//! written autonomously and against closed forms.
//!
//! - The vibrating table (a ball bouncing on a table at height `A sin ωt`) with time forcing
//!   and with the phase `φ = ωt` as a state of its own (`φ' = ω`, wrapped into `(−π, π]` by
//!   the impact's reset): the same orbits and multipliers to 1e-12 at several `(e, Γ)`, the
//!   period-1 fixed point against its closed form `cos φ = π(1 − e)/((1 + e)Γ)`, and the
//!   event section against the stroboscopic section (the same nontrivial multipliers: both
//!   are Poincaré maps of one flow), and the product of the multipliers against `e²`.
//! - A harmonically forced impact oscillator `x'' + 2ζx' + x = cos ωt` with a rigid stop at
//!   `x = σ` and restitution `r`, against an independent computation: the closed-form linear
//!   response between impacts, its first impact found by a scan and bisection, the fixed point
//!   by iterating that map, the multipliers by central differences of it; and the product of
//!   the multipliers against its closed form `r² e^{−2ζT}`.

use saltation_hybrid::{Bound, EvalModel, HybridError, JacobianKind, StrideMap, StrideOptions};
use saltation_models::{EquationModel, EquationSpec};
use saltation_orbit::{find_periodic_orbit, OrbitOptions, PeriodicOrbit};
use std::f64::consts::PI;

fn model(text: &str, values: &[(&str, f64)]) -> Bound<EquationModel> {
    let spec: EquationSpec = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut m = Bound::new(EquationModel::new(spec).unwrap_or_else(|e| panic!("{e}")));
    for (name, v) in values {
        m.set(name, *v).unwrap();
    }
    m
}

fn options(events: usize) -> OrbitOptions {
    let mut o = OrbitOptions::default();
    o.stride.events_per_stride = events;
    o.stride.t_max = 50.0;
    o
}

fn orbit(m: &Bound<EquationModel>, u: &[f64], o: &OrbitOptions) -> PeriodicOrbit {
    find_periodic_orbit(m, u, o).unwrap_or_else(|e| panic!("{}: {e}", m.name()))
}

fn close(a: f64, b: f64, tol: f64, what: &str) {
    assert!(
        (a - b).abs() <= tol * a.abs().max(1.0),
        "{what}: {a} vs {b} (difference {:.1e})",
        (a - b).abs()
    );
}

/// Multipliers of two orbits equal to `tol`, in the order of decreasing modulus (pairs of a
/// complex pair by their imaginary part's modulus).
fn same_multipliers(a: &PeriodicOrbit, b: &PeriodicOrbit, tol: f64) {
    assert_eq!(a.multipliers.len(), b.multipliers.len());
    for (x, y) in a.multipliers.iter().zip(&b.multipliers) {
        close(x.re, y.re, tol, "multiplier (re)");
        close(x.im.abs(), y.im.abs(), tol, "multiplier (im)");
    }
}

const TABLE_PARAMS: &str = r#"
    parameters: [
        (name: "g", value: 9.81, min: 0.0),
        (name: "e", value: 0.5, min: 0.0, max: 1.0),
        (name: "omega", value: 6.283185307179586, min: 0.1),
        (name: "Gamma", value: 1.5, min: 0.0),
    ],
    let: [("A", "Gamma*g/omega^2")],
"#;

/// The vibrating table with time forcing: the table at `A sin ωt`, the forcing period `2π/ω`.
fn table_forced(section: &str) -> String {
    format!(
        r#"(
    name: "table_forced",
    states: ["y", "v"],
    {TABLE_PARAMS}
    forcing: (period: "2*pi/omega"),
    modes: [(name: "flight", flow: ["v", "-g"])],
    guards: [(name: "impact", from: "flight", when: "y - A*sin(omega*t)", direction: Falling,
              enabled: "v < A*omega*cos(omega*t)",
              reset: [("v", "A*omega*cos(omega*t) - e*(v - A*omega*cos(omega*t))")])],
    section: {section},
)"#
    )
}

/// The vibrating table with the phase `φ = ωt` as a state, wrapped at every impact.
fn table_phase() -> String {
    format!(
        r#"(
    name: "table_phase",
    states: ["y", "v", "phi"],
    {TABLE_PARAMS}
    modes: [(name: "flight", flow: ["v", "-g", "omega"])],
    guards: [(name: "impact", from: "flight", when: "y - A*sin(phi)", direction: Falling,
              enabled: "v < A*omega*cos(phi)",
              reset: [("v", "A*omega*cos(phi) - e*(v - A*omega*cos(phi))"),
                      ("phi", "wrap(phi)")])],
    section: (after: "impact", free: ["v", "phi"],
              chart: [("y", "Gamma*g/omega^2*sin(phi)")]),
)"#
    )
}

const EVENT_SECTION: &str =
    r#"(after: "impact", free: ["v", "t"], chart: [("y", "Gamma*g/omega^2*sin(omega*t)")])"#;
const STROBOSCOPIC: &str = r#"(stroboscopic: (phase: "0"), free: ["y", "v"])"#;

/// The period-1 orbit's closed form: one impact per period `T = 2π/ω` at phase `φ` with
/// `v⁺ = gT/2` and `cos φ = π(1 − e)/((1 + e)Γ)` (the sign of `φ` picks one of two orbits).
fn table_closed_form(e: f64, gamma: f64, omega: f64, sign: f64) -> (f64, f64) {
    let g = 9.81;
    let t = 2.0 * PI / omega;
    let phi = sign * (PI * (1.0 - e) / ((1.0 + e) * gamma)).acos();
    (g * t / 2.0, phi)
}

#[test]
fn vibrating_table_forced_and_with_phase_state_agree() {
    let omega = 2.0 * PI;
    for (e, gamma, sign) in [
        (0.5, 1.2, 1.0),
        (0.5, 1.5, 1.0),
        (0.5, 1.5, -1.0),
        (0.7, 1.0, 1.0),
        (0.3, 2.5, 1.0),
    ] {
        let values = [("e", e), ("Gamma", gamma)];
        let forced = model(&table_forced(EVENT_SECTION), &values);
        let phase = model(&table_phase(), &values);
        let (v, phi) = table_closed_form(e, gamma, omega, sign);
        let o = options(1);
        let a = orbit(&forced, &[v * 1.01, phi / omega + 0.01], &o);
        let b = orbit(&phase, &[v * 1.01, phi + 0.05], &o);
        let what = format!("e = {e}, Gamma = {gamma}");
        // The closed form.
        close(a.u0[0], v, 1e-10, &format!("{what}: v+"));
        close(a.u0[1] * omega, phi, 1e-10, &format!("{what}: phase"));
        close(a.period, 1.0, 1e-12, &format!("{what}: period = T"));
        // Both forms: the same orbit and multipliers.
        close(
            a.u0[0],
            b.u0[0],
            1e-12,
            &format!("{what}: v+ of both forms"),
        );
        close(
            a.u0[1] * omega,
            b.u0[1],
            1e-12,
            &format!("{what}: phase of both forms"),
        );
        close(
            a.period,
            b.period,
            1e-12,
            &format!("{what}: period of both forms"),
        );
        same_multipliers(&a, &b, 1e-12);
        assert_eq!(a.stable, b.stable, "{what}");
        // Three full-state multipliers: two of the period map and the zero of the section.
        assert_eq!(a.multipliers.len(), 3);
        assert!(a.multipliers[2].re.abs() < 1e-10 && a.multipliers[1].modulus() > 1e-6);
        // Closed form of their product: the flight keeps the phase-space volume and an impact
        // scales the relative velocity's flux by e, so `μ₁μ₂ = e²` on a period-1 orbit.
        let (m1, m2) = (a.multipliers[0].to_complex(), a.multipliers[1].to_complex());
        close((m1 * m2).re, e * e, 1e-12, &format!("{what}: μ1 μ2 = e²"));
    }
}

#[test]
fn vibrating_table_stroboscopic_section_has_the_event_sections_multipliers() {
    let omega = 2.0 * PI;
    for (e, gamma) in [(0.5, 1.5), (0.7, 1.0)] {
        let values = [("e", e), ("Gamma", gamma)];
        let event = model(&table_forced(EVENT_SECTION), &values);
        let strobe = model(&table_forced(STROBOSCOPIC), &values);
        let (v, phi) = table_closed_form(e, gamma, omega, 1.0);
        let o = options(1);
        let a = orbit(&event, &[v, phi / omega], &o);
        // On the stroboscopic section at t = 0 the ball is in flight, `τ = −φ/ω` after its
        // impact (or `T − φ/ω` for φ > 0).
        let g = 9.81;
        let a_table = gamma * g / (omega * omega);
        let tau = 1.0 - phi / omega;
        let y0 = a_table * phi.sin() + v * tau - g * tau * tau / 2.0;
        let v0 = v - g * tau;
        let b = orbit(&strobe, &[y0, v0], &o);
        close(b.u0[0], y0, 1e-9, "stroboscopic y");
        close(b.u0[1], v0, 1e-9, "stroboscopic v");
        close(b.period, 1.0, 1e-12, "stroboscopic period = T");
        // One impact and one strobe per period.
        assert_eq!(b.events.len(), 2);
        same_multipliers(&a, &b, 1e-10);
    }
}

/// The phase advances with the time and the stride returns it modulo the period; a stride of
/// a forced model at phase `t₀` is the stride of the autonomous form at `φ₀ = ω t₀`.
#[test]
fn forced_stride_carries_the_phase_modulo_the_period() {
    let forced = model(&table_forced(EVENT_SECTION), &[]);
    let mut map = StrideMap::new(&forced, StrideOptions::default()).unwrap();
    let t0 = 0.13;
    let a_table = 1.5 * 9.81 / (4.0 * PI * PI);
    let x0 = [a_table * (2.0 * PI * t0).sin(), 4.0, t0];
    let r = map.eval(&x0, JacobianKind::StrideMap).unwrap();
    // The flight lasts about 0.8 s (one period or less): the phase is `t₀ + τ − kT`.
    let k = ((t0 + r.period - r.x[2]) / 1.0).round();
    close(r.x[2], t0 + r.period - k, 1e-14, "phase");
    assert!((r.x[2] - t0).abs() <= 0.5 + 1e-12);
}

/// A model whose vector field reads `t` without `forcing` is refused where orbits are sought,
/// with a message that says how to declare it.
#[test]
fn undeclared_forcing_is_refused() {
    let text = r#"(
        name: "forced_spring",
        states: ["x", "v"],
        parameters: [(name: "omega", value: 1.3)],
        modes: [(name: "free", flow: ["v", "-x + cos(omega*t)"])],
        guards: [(name: "stop", from: "free", when: "x", direction: Rising,
                  reset: [("v", "-0.8*v")])],
    )"#;
    let m = model(text, &[]);
    let err = saltation_hybrid::require_declared_forcing(&m).unwrap_err();
    assert!(matches!(err, HybridError::UndeclaredForcing { .. }));
    let msg = err.to_string();
    assert!(
        msg.contains("forcing: (period:") && msg.contains("free"),
        "{msg}"
    );
}

// ---------------------------------------------------------------------------------------
// The harmonically forced impact oscillator.

const OSC: (f64, f64, f64, f64) = (0.05, 1.5, 0.0, 0.8); // ζ, ω, σ, r

fn oscillator() -> Bound<EquationModel> {
    let (z, w, s, r) = OSC;
    let text = format!(
        r#"(
        name: "impact_oscillator",
        states: ["x", "v"],
        parameters: [(name: "zeta", value: {z:?}), (name: "omega", value: {w:?}),
                     (name: "sigma", value: {s:?}), (name: "r", value: {r:?}, min: 0.0, max: 1.0)],
        forcing: (period: "2*pi/omega"),
        modes: [(name: "free", flow: ["v", "-2*zeta*v - x + cos(omega*t)"])],
        guards: [(name: "stop", from: "free", when: "x - sigma", direction: Rising,
                  reset: [("v", "-r*v")])],
        section: (after: "stop", free: ["v", "t"], chart: [("x", "sigma")]),
    )"#
    );
    model(&text, &[])
}

/// The closed-form response from `x(t₀) = σ`, `x'(t₀) = v₀` after a time `τ`.
fn response(v0: f64, t0: f64, tau: f64) -> (f64, f64) {
    let (z, w, s, _) = OSC;
    let d = (1.0 - w * w).powi(2) + (2.0 * z * w).powi(2);
    let (a, b) = ((1.0 - w * w) / d, 2.0 * z * w / d);
    let xp = |t: f64| a * (w * t).cos() + b * (w * t).sin();
    let vp = |t: f64| -a * w * (w * t).sin() + b * w * (w * t).cos();
    let wd = (1.0 - z * z).sqrt();
    let c1 = s - xp(t0);
    let c2 = (v0 - vp(t0) + z * c1) / wd;
    let (ex, c, sn) = ((-z * tau).exp(), (wd * tau).cos(), (wd * tau).sin());
    let xh = ex * (c1 * c + c2 * sn);
    let vh = ex * (-z * (c1 * c + c2 * sn) + wd * (-c1 * sn + c2 * c));
    (xh + xp(t0 + tau), vh + vp(t0 + tau))
}

/// The impact map on `(v⁺, t mod T)`: the first rising crossing of `x = σ` by a scan of the
/// closed form and bisection to the last bit.
fn impact_map(v0: f64, t0: f64) -> (f64, f64) {
    let (_, w, s, r) = OSC;
    let period = 2.0 * PI / w;
    let h = 1e-3;
    let mut tau = h;
    while response(v0, t0, tau).0 - s <= 0.0 {
        tau += h;
        assert!(tau < 100.0, "no impact");
    }
    let (mut lo, mut hi) = (tau - h, tau);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if response(v0, t0, mid).0 - s <= 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let (_, v) = response(v0, t0, hi);
    let t1 = t0 + hi;
    (-r * v, t1 - period * ((t1 - t0) / period).round())
}

#[test]
fn forced_impact_oscillator_against_the_closed_form_response() {
    // The attracting period-1 orbit by iterating the closed-form impact map.
    let (mut v, mut t) = (-0.5, 0.0);
    for _ in 0..3000 {
        let next = impact_map(v, t);
        v = next.0;
        let period = 2.0 * PI / OSC.1;
        t = next.1 - period * (next.1 / period).floor();
    }
    let fixed = impact_map(v, t);
    assert!((fixed.0 - v).abs() < 1e-12 && (fixed.1 - t).abs() < 1e-12);
    // Its multipliers: eigenvalues of the central-difference Jacobian of the map.
    let h = 1e-6;
    let mut j = [[0.0; 2]; 2];
    for (col, (dv, dt)) in [(h, 0.0), (0.0, h)].into_iter().enumerate() {
        let p = impact_map(v + dv, t + dt);
        let m = impact_map(v - dv, t - dt);
        j[0][col] = (p.0 - m.0) / (2.0 * h);
        j[1][col] = (p.1 - m.1) / (2.0 * h);
    }
    let (tr, det) = (j[0][0] + j[1][1], j[0][0] * j[1][1] - j[0][1] * j[1][0]);
    let disc = tr * tr / 4.0 - det;
    let m = oscillator();
    let o = options(1);
    let orb = orbit(&m, &[v + 0.01, t + 0.01], &o);
    close(orb.u0[0], v, 1e-10, "v+");
    close(orb.u0[1], t, 1e-10, "impact phase");
    close(orb.period, 2.0 * PI / OSC.1, 1e-12, "period = T");
    // Nontrivial multipliers (the third is the section's zero).
    let mu = &orb.multipliers;
    if disc < 0.0 {
        close(mu[0].re, tr / 2.0, 1e-6, "Re μ");
        close(mu[0].im.abs(), (-disc).sqrt(), 1e-6, "|Im μ|");
        close(mu[0].modulus(), det.sqrt(), 1e-6, "|μ|");
    } else {
        let (a, b) = (tr / 2.0 + disc.sqrt(), tr / 2.0 - disc.sqrt());
        let (big, small) = if a.abs() >= b.abs() { (a, b) } else { (b, a) };
        close(mu[0].re, big, 1e-6, "μ1");
        close(mu[1].re, small, 1e-6, "μ2");
    }
    assert!(mu[2].modulus() < 1e-10);
    // Closed form of their product: the flow contracts volume by `e^{−2ζT}` over a period, the
    // impact scales the flux through the stop by `r²`.
    let (m1, m2) = (mu[0].to_complex(), mu[1].to_complex());
    let (z, w, _, r) = OSC;
    close(
        (m1 * m2).re,
        r * r * (-2.0 * z * 2.0 * PI / w).exp(),
        1e-10,
        "μ1 μ2 = r² e^(−2ζT)",
    );
    assert!(orb.stable);
}
