//! The ball on a vibrating table (issue 25), written as an equation model with the table's
//! phase as a state: in its chattering regime every impact is found (the ball never ends up
//! below the table), the impacts accumulate and the run goes on into the sticking mode the
//! model declares, and without that declaration the accumulation is a Zeno error naming the
//! guard and the accumulation time. Also the bouncing ball's accumulation against its closed
//! form.

use crate::support::{json, model, saltation, temp_dir, write};
use serde_json::Value;

/// `y − A sin(φ)` at every sample of a simulation of the table model (the ball's height above
/// the table), with `A = Γ g/ω²`.
fn gaps(j: &Value, (g, omega, gamma): (f64, f64, f64)) -> Vec<(f64, f64, u64)> {
    let a = gamma * g / (omega * omega);
    j["samples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let x = s["x"].as_array().unwrap();
            let (y, phi) = (x[0].as_f64().unwrap(), x[2].as_f64().unwrap());
            (
                s["t"].as_f64().unwrap(),
                y - a * phi.sin(),
                s["mode"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The user's regimes (e = 0.8, Γ = 0.4 and e = 0.5, Γ = 1.9, 5 s): before the fix the ball
/// ended 85 m and 550 m below the table. Now no sample is below the table by more than the
/// tolerance, the impacts accumulate into the sticking mode, and (Γ > 1) the ball leaves the
/// table again.
#[test]
fn the_chattering_ball_never_goes_through_the_table() {
    let file = model("equations/vibrating_table_sticking.ron");
    for (e, gamma, releases) in [("0.8", 0.4, false), ("0.5", 1.9, true)] {
        let set_e = format!("e={e}");
        let set_g = format!("Gamma={gamma}");
        let j = json(&[
            "simulate", &file, "--set", &set_e, "--set", &set_g, "--t-end", "5", "--json",
        ]);
        let omega = 62.83185307179586;
        let worst = gaps(&j, (9.81, omega, gamma))
            .into_iter()
            .fold(0.0f64, |m, (_, gap, _)| m.min(gap));
        assert!(worst > -1e-9, "e = {e}, Γ = {gamma}: {worst}");
        let events = j["events"].as_array().unwrap();
        let guards: Vec<u64> = events
            .iter()
            .map(|e| e["guard"].as_u64().unwrap())
            .collect();
        // Impacts (guard 0 of flight), then the accumulation into `stuck` (guard 1).
        assert!(guards.contains(&1), "e = {e}: never stuck: {guards:?}");
        // Γ < 1: once stuck the ball stays; Γ > 1: it is released (guard 0 of `stuck`) in
        // every table period it sticks.
        let released = events
            .iter()
            .any(|e| e["from"].as_u64() == Some(1) && e["to"].as_u64() == Some(0));
        assert_eq!(released, releases, "e = {e}, Γ = {gamma}");
        if !releases {
            assert_eq!(j["mode_end"].as_u64(), Some(1));
        }
        assert_eq!(j["exact_affine_modes"], serde_json::json!(["flight"]));
    }
}

/// Release from the table where its downward acceleration reaches g: `g − A ω² sin φ = 0`,
/// i.e. `sin φ = 1/Γ` with `φ = ω t`, on the falling side of the guard.
#[test]
fn the_ball_leaves_the_table_where_its_acceleration_reaches_g() {
    let file = model("equations/vibrating_table_sticking.ron");
    let j = json(&["simulate", &file, "--t-end", "2", "--json"]);
    let (omega, gamma): (f64, f64) = (62.83185307179586, 1.9);
    let releases: Vec<f64> = j["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["from"].as_u64() == Some(1))
        .map(|e| e["t"].as_f64().unwrap())
        .collect();
    assert!(!releases.is_empty());
    let period = 2.0 * std::f64::consts::PI / omega;
    let phase0 = (1.0 / gamma).asin();
    for t in releases {
        let k = ((omega * t - phase0) / (2.0 * std::f64::consts::PI)).round();
        let want = (phase0 + 2.0 * std::f64::consts::PI * k) / omega;
        assert!((t - want).abs() < 1e-9 * period.max(1.0), "{t} vs {want}");
    }
}

/// Without `on_accumulation` the same chattering ends in a Zeno error naming the impact guard
/// and the accumulation time, after the impacts the sticking run takes.
#[test]
fn without_a_sticking_mode_chattering_is_a_zeno_error_with_its_accumulation_time() {
    let dir = temp_dir("chattering", "zeno");
    let text = std::fs::read_to_string(model("equations/vibrating_table_sticking.ron"))
        .unwrap()
        .replace("                on_accumulation: \"stick\",\n", "");
    let file = write(&dir, "table.ron", &text);
    let out = saltation(&["simulate", &file, "--t-end", "5"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("event accumulation (Zeno)"), "{err}");
    assert!(err.contains("they accumulate at t ≈ 1.30"), "{err}");
    // The sticking run enters `stuck` at the same accumulation.
    let j = json(&[
        "simulate",
        &model("equations/vibrating_table_sticking.ron"),
        "--t-end",
        "1.4",
        "--json",
    ]);
    let stick = j["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["guard"].as_u64() == Some(1) && e["from"].as_u64() == Some(0))
        .map(|e| e["t"].as_f64().unwrap())
        .unwrap();
    assert!((stick - 1.30295).abs() < 1e-4, "{stick}");
}

/// The bouncing ball dropped from rest at height 1: impacts accumulate at
/// `t∞ = t₁ (1 + e)/(1 − e)`, `t₁ = √(2/g)`; a span past it ends with that Zeno time (the
/// geometric fit of the flight times is exact for the ball).
#[test]
fn the_bouncing_ball_accumulates_at_its_closed_form_zeno_time() {
    let (g, e) = (9.81f64, 0.8);
    let t1 = (2.0 / g).sqrt();
    let t_inf = t1 * (1.0 + e) / (1.0 - e);
    for file in ["bouncing_ball.ron", "equations/bouncing_ball.ron"] {
        let out = saltation(&["simulate", &model(file), "--t-end", "10"]);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        let at = err
            .split("accumulate at t ≈ ")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse::<f64>().ok())
            .unwrap_or_else(|| panic!("{err}"));
        assert!((at - t_inf).abs() < 1e-9, "{file}: {at} vs {t_inf}");
        // Before the accumulation the span is simply simulated.
        let j = json(&["simulate", &model(file), "--t-end", "4", "--json"]);
        assert_eq!(j["t_end"].as_f64(), Some(4.0));
    }
}
