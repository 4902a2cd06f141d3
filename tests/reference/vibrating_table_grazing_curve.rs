//! The ball on the vibrating table (models/equations/vibrating_table.ron) under a ceiling at
//! height `H`: the admissibility condition `H − y ≥ 0` in flight. Its grazing curve in the
//! plane (Γ, e) — the period-1 orbit whose apex just touches the ceiling, an INTERIOR minimum
//! of the condition over the flight — against its closed form and two second methods.
//!
//! With g = ω = 1 the period-1 orbit takes off from the table at `y* = Γ sin φ*` with
//! `v⁺ = π` (`Γ cos φ* = a = π(1 − e)/(1 + e)`), so its apex is `y* + π²/2`; with
//! `H = π²/2 + d` it grazes the ceiling where `Γ sin φ* = d`:
//! `Γ_G(e)² = a² + d²`. Its period doubling is at `Γ sin φ* = 2(1 + e²)/(1 + e)²`
//! (tests/reference/vibrating_table_curves.rs), so the grazing curve meets the
//! period-doubling curve (a multiplier −1 on the grazing curve: grazing–flip) where
//! `2(1 + e²)/(1 + e)² = d`: `e = (d − √(4d − 4))/(2 − d)` for `1 < d < 2`.
//!
//! Second methods: at the e of several curve points, a one-parameter continuation in Γ (e
//! FIXED) locates its grazing point by bisection on the admissibility checker's verdict; and
//! the period-doubling curve's flip–grazing point (located on the PD curve by the same
//! bisection) is the grazing curve's grazing–flip point.

use crate::common::models_dir;
use saltation::continuation::{
    continue_branch, continue_curve, BifurcationKind, Codim2Kind, ContinuationOptions, Curve,
    CurveEnd, CurveKind, CurveOptions, CurveStart, GrazingAt, ParamFamily, PlaneFamily, Predictor,
    Start,
};
use saltation::scenario::{parse_model_file, ModelFile};
use std::f64::consts::PI;

/// The ceiling's height above the apex `π²/2` of a take-off from `y = 0`.
const D: f64 = 1.05;

/// `a = π(1 − e)/(1 + e)`.
fn a(e: f64) -> f64 {
    PI * (1.0 - e) / (1.0 + e)
}

/// The shipped table with the parameter `H = π²/2 + D` and the condition `H − y ≥ 0`.
fn table_under_ceiling() -> (ModelFile, f64) {
    let path = models_dir().join("equations/vibrating_table.ron");
    let text = std::fs::read_to_string(path).unwrap();
    let h = PI * PI / 2.0 + D;
    let g_param = r#"(name: "g", value: 1.0, min: 0.0),"#;
    let section = "        section: (after:";
    assert!(text.contains(g_param) && text.contains(section));
    let text = text
        .replacen(
            g_param,
            &format!("{g_param}\n            (name: \"H\", value: {h:?}),"),
            1,
        )
        .replacen(
            section,
            &format!(
                "        admissible: [(name: \"below ceiling\", mode: \"flight\", when: \"H - y\")],\n{section}"
            ),
            1,
        );
    let file = parse_model_file(&text, "vibrating_table_ceiling.ron").unwrap();
    // The closed form's `d`, from the value as parsed.
    (file, h - PI * PI / 2.0)
}

/// The curve of `kind` from the stable period-1 orbit at `(Γ, e) = (1.2, 0.5)` to `e = to2`.
fn curve(file: &ModelFile, kind: CurveKind, to2: f64) -> Curve {
    let family = PlaneFamily::new(file.model.clone(), "Gamma", "e").unwrap();
    let mut opts = CurveOptions::to(to2);
    opts.search = Some(1.0);
    opts.settings.step = 0.01;
    opts.settings.max_step = 0.05;
    opts.settings.corrector_tol = 1e-11;
    let start = CurveStart::new(1.2, 0.5, vec![(a(0.5) / 1.2).acos(), PI]);
    let c = continue_curve(&family, kind, &start, &file.orbit, &opts).unwrap();
    assert_eq!(c.end, CurveEnd::Reached, "{kind}: {}", c.end);
    c
}

/// The grazing point in Γ of the one-parameter branch at `e` FIXED, from `gamma0` upwards.
fn one_parameter_grazing(file: &ModelFile, e: f64, gamma0: f64) -> f64 {
    let plane = PlaneFamily::new(file.model.clone(), "Gamma", "e").unwrap();
    let family = ParamFamily::new(plane.model_at(gamma0, e).unwrap(), "Gamma").unwrap();
    let o = ContinuationOptions {
        predictor: Predictor::Arclength,
        step: 0.01,
        min_step: 1e-9,
        max_step: 0.02,
        max_points: 100,
        corrector_tol: 1e-11,
        p_max: gamma0 + 0.2,
        direction: 1.0,
        ..ContinuationOptions::default()
    };
    let guess = vec![(a(e) / gamma0).acos(), PI];
    let b = continue_branch(&family, &Start::new(gamma0, guess), &file.orbit, &o).unwrap();
    let g: Vec<_> = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Grazing)
        .collect();
    assert_eq!(g.len(), 1, "e = {e}: {:?}", b.bifurcations);
    g[0].param
}

#[test]
fn grazing_curve_follows_the_closed_form_and_one_parameter_grazing_points() {
    let (file, d) = table_under_ceiling();
    let t = std::time::Instant::now();
    let c = curve(&file, CurveKind::Grazing, 0.8);
    eprintln!(
        "table grazing curve e = 0.5 → 0.8: {} points in {:?}",
        c.points.len(),
        t.elapsed()
    );
    let g = c.grazing.as_ref().unwrap();
    assert_eq!(
        (g.condition.as_str(), g.mode.as_str(), g.phase, g.at),
        ("below ceiling", "flight", 0, GrazingAt::Interior),
        "{g:?}"
    );
    assert!(c.points.len() >= 5, "{}", c.points.len());
    assert_eq!(c.points.last().unwrap().params[1], 0.8);
    let mut worst = 0.0f64;
    for p in &c.points {
        let [gamma, e] = p.params;
        let err = (gamma - a(e).hypot(d)).abs();
        worst = worst.max(err);
        assert!(err < 1e-9, "Γ = {gamma} at e = {e}: {err:e}");
    }
    eprintln!("worst |Γ − Γ_G(e)| = {worst:e}");
    // The grazing–flip point, where the PD curve crosses.
    let e_gf = (d - (4.0 * d - 4.0).sqrt()) / (2.0 - d);
    assert_eq!(c.codim2.len(), 1, "{:?}", c.codim2);
    let gf = &c.codim2[0];
    assert_eq!(gf.kind, Codim2Kind::GrazingFlip);
    let [gamma, e] = gf.point.params;
    eprintln!("grazing–flip at ({gamma}, {e}), closed form e = {e_gf}");
    assert!((e - e_gf).abs() < 1e-8, "{e} vs {e_gf}");
    assert!((gamma - a(e).hypot(d)).abs() < 1e-9);
    // Second method: one-parameter grazing points at fixed e.
    let mut worst = 0.0f64;
    for p in c.points.iter().step_by(c.points.len() / 4) {
        let [gamma, e] = p.params;
        let one = one_parameter_grazing(&file, e, gamma - 0.05);
        worst = worst.max((one - gamma).abs());
        assert!(
            (one - gamma).abs() < 1e-8,
            "e = {e}: curve {gamma}, one-parameter {one}"
        );
    }
    eprintln!("worst |Γ_curve − Γ_one-parameter| = {worst:e}");
    // Second method: the PD curve's flip–grazing point (bisection on admissibility along the
    // PD curve) is the grazing curve's grazing–flip point.
    let pd = curve(&file, CurveKind::PeriodDoubling, 0.8);
    let fg: Vec<_> = pd
        .codim2
        .iter()
        .filter(|x| x.kind == Codim2Kind::Grazing)
        .collect();
    assert_eq!(fg.len(), 1, "{:?}", pd.codim2);
    let [gamma_pd, e_pd] = fg[0].point.params;
    eprintln!("flip–grazing on the PD curve at ({gamma_pd}, {e_pd})");
    assert!(
        (gamma_pd - gamma).hypot(e_pd - e) < 1e-8,
        "PD curve's ({gamma_pd}, {e_pd}) vs grazing curve's ({gamma}, {e})"
    );
}
