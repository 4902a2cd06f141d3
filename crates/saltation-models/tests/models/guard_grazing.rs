//! Grazing of a guard touched tangentially, without a declared condition: the harmonically
//! forced impact oscillator of `models/equations/impact_oscillator_forced.ron`,
//! `x'' + 2ζx' + x = cos ωt` against a stop at `x = σ`. Its non-impacting orbit is the
//! harmonic response `x = A cos(ωt − φ)` with `A(ω, ζ) = 1/√((1 − ω²)² + (2ζω)²)` and
//! `tan φ = 2ζω/(1 − ω²)`, which does not depend on `σ`; it grazes the stop where `σ = A`.
//! Continued in `σ` from far above `A` downwards, the branch's grazing is located there.

use saltation_continuation::{
    continue_branch, continue_curve, BifurcationKind, ContinuationOptions, CurveEnd, CurveKind,
    CurveOptions, CurveStart, GrazingAt, ParamFamily, PlaneFamily, Start,
};
use saltation_hybrid::{Bound, EvalModel};
use saltation_models::{EquationModel, EquationSpec};

/// The model of the file (its `Equations(…)`), with `values` set.
pub(crate) fn oscillator(values: &[(&str, f64)]) -> Bound<EquationModel> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/equations/impact_oscillator_forced.ron"
    );
    model_of(&std::fs::read_to_string(path).unwrap(), values)
}

/// The `Equations(…)` of a model file's text, with `values` set.
fn model_of(file: &str, values: &[(&str, f64)]) -> Bound<EquationModel> {
    let start = file.find("Equations(").unwrap() + "Equations".len();
    let mut depth = 0usize;
    let mut end = start;
    for (i, c) in file[start..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = start + i + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let text: String = file[start..end]
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let spec: EquationSpec = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(&text)
        .unwrap_or_else(|e| panic!("{e}"));
    let mut m = Bound::new(EquationModel::new(spec).unwrap_or_else(|e| panic!("{e}")));
    for (name, v) in values {
        m.set(name, *v).unwrap();
    }
    m
}

/// `A(ω, ζ)` and the harmonic orbit's state `(x, v)` at phase 0.
pub(crate) fn harmonic(omega: f64, zeta: f64) -> (f64, [f64; 2]) {
    let (c, s) = (1.0 - omega * omega, 2.0 * zeta * omega);
    let a = 1.0 / c.hypot(s);
    let phi = s.atan2(c);
    (a, [a * phi.cos(), a * omega * phi.sin()])
}

#[test]
fn continuation_in_sigma_locates_the_grazing_at_the_amplitude() {
    let (omega, zeta) = (1.5, 0.05);
    let (amp, u0) = harmonic(omega, zeta);
    let model = oscillator(&[("sigma", 1.2)]);
    let family = ParamFamily::new(model, "sigma").unwrap();
    let mut orbit = saltation_orbit::OrbitOptions::default();
    orbit.stride.ode = saltation_ode::SolverOptions::with_tol(1e-13);
    orbit.stride.t_max = 50.0;
    let opts = ContinuationOptions {
        p_min: 0.5,
        p_max: 2.0,
        direction: -1.0,
        step: 0.05,
        max_step: 0.1,
        corrector_tol: 1e-11,
        max_points: 100,
        ..ContinuationOptions::default()
    };
    let branch = continue_branch(&family, &Start::new(1.2, u0.to_vec()), &orbit, &opts).unwrap();
    let graze: Vec<_> = branch
        .bifurcations
        .iter()
        .filter(|b| b.kind == BifurcationKind::Grazing)
        .collect();
    assert_eq!(graze.len(), 1, "{:?}", branch.bifurcations);
    assert!(
        (graze[0].param - amp).abs() < 1e-9,
        "σ = {} vs A = {amp}",
        graze[0].param
    );
    // The located orbit is the harmonic one (σ does not change it), at the touch to within
    // what the stride resolves: the branch's last converged point, whose stride saw no impact,
    // lies at most a few 1e-12 past A (a penetration below the integration's resolution at
    // rtol 1e-13; the run again that measures the clearance fires the stop there).
    assert!(graze[0].param >= amp - 1e-11);
    assert!((graze[0].u[0] - u0[0]).abs() < 1e-9 && (graze[0].u[1] - u0[1]).abs() < 1e-9);
}

/// The grazing curve in `(σ, ω)` from the grazing located at `ω = 1.5`: every point on
/// `σ = A(ω, ζ)`, from `ω = 1.5` to `1.8`, with the grazed guard named `guard:stop`.
#[test]
fn grazing_curve_follows_the_amplitude() {
    let zeta = 0.05;
    let (_, u0) = harmonic(1.5, zeta);
    let model = oscillator(&[("sigma", 1.2)]);
    let family = PlaneFamily::new(model, "sigma", "omega").unwrap();
    let mut orbit = saltation_orbit::OrbitOptions::default();
    orbit.stride.ode = saltation_ode::SolverOptions::with_tol(1e-13);
    orbit.stride.t_max = 50.0;
    let opts = CurveOptions {
        search: Some(-1.0),
        settings: ContinuationOptions {
            step: 0.05,
            max_step: 0.1,
            corrector_tol: 1e-10,
            max_points: 60,
            ..ContinuationOptions::default()
        },
        ..CurveOptions::to(1.8)
    };
    let start = CurveStart::new(1.2, 1.5, u0.to_vec());
    let curve = continue_curve(&family, CurveKind::Grazing, &start, &orbit, &opts).unwrap();
    let g = curve.grazing.as_ref().unwrap();
    assert_eq!(
        (g.condition.as_str(), g.mode.as_str(), g.guard, g.at),
        ("guard:stop", "free", true, GrazingAt::Interior)
    );
    assert_eq!(curve.end, CurveEnd::Reached, "{:?}", curve.end);
    assert!(curve.points.len() >= 4, "{}", curve.points.len());
    for p in &curve.points {
        let [sigma, omega] = p.params;
        let (amp, _) = harmonic(omega, zeta);
        assert!(
            (sigma - amp).abs() < 1e-9,
            "σ = {sigma} at ω = {omega}: A = {amp}"
        );
    }
    assert_eq!(curve.points.last().unwrap().params[1], 1.8);
}

/// An impacting orbit whose free flight touches a second stop elsewhere: the oscillator (stop at
/// `x = σ = 0`, one impact per forcing period) with a stop on the left at `x = −s₂`
/// (`x + s2`, falling). Until that stop is reached the orbit does not depend on `s₂`: continued
/// in `s₂` downwards its grazing is where `−s₂` is the orbit's least `x` over the period, which
/// is taken independently from a simulation sampled every `10⁻⁴` (the sample's least `x`
/// refined by its Taylor step, `x − v²/2ẍ`).
#[test]
fn an_impacting_orbit_grazes_a_second_stop_in_its_free_flight() {
    let model = oscillator_with_left_stop();
    let mut orbit = saltation_orbit::OrbitOptions::default();
    orbit.stride.ode = saltation_ode::SolverOptions::with_tol(1e-13);
    orbit.stride.t_max = 50.0;
    let found = saltation_orbit::find_periodic_orbit(&model, &[-0.5, 0.3], &orbit).unwrap();
    // The least x of the impacting orbit, from samples.
    let sim = saltation_hybrid::SimulateOptions {
        stride: orbit.stride.clone(),
        strides: 1,
        dt: Some(1e-4),
        ..Default::default()
    };
    let mut x0 = vec![0.0; 3];
    model.chart(&found.u0, &mut x0);
    let trace = saltation_hybrid::simulate(&model, &x0, &sim).unwrap();
    // One impact on the right stop, then the strobe; the least x inside the period.
    assert_eq!(trace.events.iter().filter(|e| e.guard == 0).count(), 1);
    assert!(trace.t.last().unwrap() > &4.18);
    let k = (0..trace.t.len())
        .min_by(|&i, &j| trace.x[i][0].total_cmp(&trace.x[j][0]))
        .unwrap();
    let (x, v, t) = (trace.x[k][0], trace.x[k][1], trace.t[k]);
    let acc = -2.0 * 0.05 * v - x + (1.5 * t).cos();
    let least = x - v * v / (2.0 * acc);
    let family = ParamFamily::new(model, "s2").unwrap();
    let opts = ContinuationOptions {
        p_min: 0.0,
        p_max: 3.0,
        direction: -1.0,
        step: 0.05,
        max_step: 0.1,
        corrector_tol: 1e-11,
        max_points: 100,
        ..ContinuationOptions::default()
    };
    let branch =
        continue_branch(&family, &Start::new(2.0, found.u0.clone()), &orbit, &opts).unwrap();
    let graze: Vec<_> = branch
        .bifurcations
        .iter()
        .filter(|b| b.kind == BifurcationKind::Grazing)
        .collect();
    // The first grazing met (the branch comes down from s2 = 2) is the touch of the left stop.
    // Past it the branch goes on along orbits that also impact the left stop (the stride fires
    // it at the pair of crossings around the touch) and may meet further tangencies there.
    assert!(!graze.is_empty(), "{:?}", branch.bifurcations);
    assert!(graze.windows(2).all(|w| w[1].param < w[0].param));
    assert!(
        k > 0 && k + 1 < trace.t.len() && (graze[0].param + least).abs() < 1e-9,
        "s2 = {} vs −min x = {}",
        graze[0].param,
        -least
    );
}

/// The oscillator of the file with a second stop `x = −s2` on the left (`s2 = 2`).
fn oscillator_with_left_stop() -> Bound<EquationModel> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../models/equations/impact_oscillator_forced.ron"
    );
    let file = std::fs::read_to_string(path).unwrap();
    let stop = r#"reset: [("v", "-r*v")]),"#;
    let param = r#"(name: "r", value: 0.8, min: 0.0, max: 1.0),"#;
    assert!(file.contains(stop) && file.contains(param));
    let edited = file
        .replacen(
            stop,
            &format!(
                "{stop}\n(name: \"left\", from: \"free\", when: \"x + s2\", direction: Falling, \
                 reset: [(\"v\", \"-r*v\")]),"
            ),
            1,
        )
        .replacen(param, &format!("{param}\n(name: \"s2\", value: 2.0),"), 1);
    model_of(&edited, &[])
}
