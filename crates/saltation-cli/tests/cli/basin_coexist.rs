//! `saltation basin` with two coexisting attractors: the forced impact oscillator
//! `x'' + 2ζx' + x = cos ωt` against a stop at `x = σ` beyond the linear response's amplitude
//! (ω = 1.2 above resonance, σ = 2.5), where the non-impacting harmonic response and an
//! impacting period-1 orbit are both stable. Both are found and identified automatically; the
//! harmonic one is checked against its closed form, the impacting one against `orbit` from its
//! own guess (Newton, a second method), and cells of each basin against direct simulation.

use crate::support::{floats, json, model, multipliers, temp_dir, write};

const SET: [&str; 4] = ["--set", "omega=1.2", "--set", "sigma=2.5"];
const ZETA: f64 = 0.05;
const OMEGA: f64 = 1.2;

/// `|μ|` of a multiplier.
fn modulus(m: (f64, f64)) -> f64 {
    m.0.hypot(m.1)
}

#[test]
fn impact_oscillator_has_a_harmonic_and_an_impacting_attractor() {
    let file = model("equations/impact_oscillator_forced.ron");
    let dir = temp_dir("basin_coexist", "oscillator");
    let out = dir.display().to_string();
    let mut args = vec![
        "basin",
        &file,
        "--axes",
        "x=-3:2.4:10,v=-3:3:7",
        "--strides",
        "200",
        "--json",
        "--out",
        &out,
    ];
    args.extend_from_slice(&SET);
    let v = json(&args);
    let attractors = v["attractors"].as_array().unwrap();
    assert_eq!(attractors.len(), 2, "{attractors:?}");
    // The harmonic response x = a cos ωt + b sin ωt with a = (1 − ω²)/D, b = 2ζω/D,
    // D = (1 − ω²)² + (2ζω)²: at phase 0, (x, v) = (a, bω); multipliers e^{(−ζ ± i ω_d)T},
    // |μ| = e^{−2πζ/ω}.
    let d = (1.0 - OMEGA * OMEGA).powi(2) + (2.0 * ZETA * OMEGA).powi(2);
    let (a, b) = ((1.0 - OMEGA * OMEGA) / d, 2.0 * ZETA * OMEGA / d);
    let harmonic_mu = (-2.0 * std::f64::consts::PI * ZETA / OMEGA).exp();
    let is_harmonic = |x0: &[f64]| (x0[0] - a).abs() < 1e-7 && (x0[1] - b * OMEGA).abs() < 1e-7;
    let (mut harmonic, mut impacting) = (None, None);
    for att in attractors {
        assert_eq!(att["period_k"], 1);
        let x0 = floats(&att["x0"]);
        let mu = multipliers(&att["multipliers"]);
        let id = att["id"].as_i64().unwrap();
        if is_harmonic(&x0) {
            for m in &mu[..2] {
                assert!((modulus(*m) - harmonic_mu).abs() < 1e-7, "{mu:?}");
            }
            harmonic = Some(id);
        } else {
            // The impacting orbit reaches the stop: its amplitude exceeds the harmonic's.
            assert!(x0[0].hypot(x0[1] / OMEGA) > a.hypot(b) + 0.1, "{x0:?}");
            // `orbit` from its own guess, rounded to three digits: the same orbit and
            // multipliers.
            let guess = format!("{:.3},{:.3}", x0[0], x0[1]);
            let mut o = vec!["orbit", &file, "--guess", &guess, "--json"];
            o.extend_from_slice(&SET);
            let orbit = json(&o);
            let y0 = floats(&orbit["x0"]);
            for (p, q) in x0.iter().zip(&y0).take(2) {
                assert!((p - q).abs() < 1e-8, "{x0:?} vs {y0:?}");
            }
            let nu = multipliers(&orbit["multipliers"]);
            for (m, n) in mu.iter().zip(&nu).take(2) {
                assert!(
                    (m.0 - n.0).abs() < 1e-7 && (m.1.abs() - n.1.abs()).abs() < 1e-7,
                    "{mu:?} vs {nu:?}"
                );
            }
            assert!(modulus(mu[0]) < 1.0);
            impacting = Some((id, x0));
        }
    }
    let (Some(h), Some((i, impact_x0))) = (harmonic, impacting) else {
        panic!("both attractors expected: {attractors:?}");
    };
    let cells: Vec<i64> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_i64().unwrap())
        .collect();
    assert_eq!(cells.len(), 70);
    let (nh, ni) = (
        cells.iter().filter(|&&c| c == h).count(),
        cells.iter().filter(|&&c| c == i).count(),
    );
    assert_eq!(nh + ni, 70, "{cells:?}");
    assert!(nh > 0 && ni > 0, "{cells:?}");
    // Spot checks by direct simulation over 80 forcing periods (|μ|⁸⁰ < 1e-9) from the first,
    // middle and last cell of each basin: the state at phase 0 is that attractor's.
    let text = std::fs::read_to_string(&file).unwrap();
    let period = 2.0 * std::f64::consts::PI / OMEGA;
    let t_end = format!("{:e}", 80.0 * period);
    for (id, target) in [(h, vec![a, b * OMEGA]), (i, impact_x0[..2].to_vec())] {
        let members: Vec<usize> = (0..70).filter(|&c| cells[c] == id).collect();
        for c in [
            members[0],
            members[members.len() / 2],
            members[members.len() - 1],
        ] {
            // Cell (i, j) = i·7 + j: x the i-th of 10 values in [−3, 2.4], v the j-th of 7.
            let x = -3.0 + 5.4 * (c / 7) as f64 / 9.0;
            let vel = -3.0 + 6.0 * (c % 7) as f64 / 6.0;
            let start = text.replace(
                "initial: (t: 0.0, x: [-0.5, 0.3, 0.0], mode: 0)",
                &format!("initial: (t: 0.0, x: [{x:e}, {vel:e}, 0.0], mode: 0)"),
            );
            assert_ne!(start, text);
            let f = write(&dir, &format!("cell{c}.ron"), &start);
            let mut s = vec!["simulate", &f, "--at", &t_end, "--json"];
            s.extend_from_slice(&SET);
            let sim = json(&s);
            let end = floats(&sim["x_end"]);
            for (p, q) in end.iter().zip(&target) {
                assert!(
                    (p - q).abs() < 1e-5,
                    "cell {c} ({x}, {vel}) → {end:?}, attractor {id} at {target:?}"
                );
            }
        }
    }
}
