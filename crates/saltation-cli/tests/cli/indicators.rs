//! `saltation sensitivity --indicators`: expressions of the model as gait indicators. Written
//! as the default's expression in another form, the norm is the default's; a custom indicator
//! (the stance angle after the stride, and the equation model's output `hip_height`) has the
//! impulse response of a simulated one-stride change of the slope (central differences of
//! shrinking amplitude converging to it: a second method).

use crate::support::{floats, json, model};
use saltation_hybrid::{with_param, JacobianKind, StrideMap};
use saltation_scenario::load_model_file;

const WALKER: &str = "equations/simplest_walker.ron";

fn sensitivity(indicators: Option<&str>) -> serde_json::Value {
    let file = model(WALKER);
    let mut args = vec!["sensitivity", &file, "--disturbance", "gamma", "--json"];
    if let Some(i) = indicators {
        args.extend_from_slice(&["--indicators", i]);
    }
    json(&args)
}

#[test]
fn the_defaults_expression_gives_the_defaults_norm() {
    let default = sensitivity(None);
    assert_eq!(default["indicators"], serde_json::json!(["step_time"]));
    let same = sensitivity(Some("2*step_time - step_time"));
    let (a, b) = (
        default["norm"].as_f64().unwrap(),
        same["norm"].as_f64().unwrap(),
    );
    assert!((a - b).abs() < 1e-13 * a, "{a} vs {b}");
    assert_eq!(
        default["impulse_response"].as_array().unwrap().len(),
        same["strides"]
    );
}

#[test]
fn custom_indicators_match_a_simulated_one_stride_disturbance() {
    let v = sensitivity(Some("th, hip_height"));
    assert_eq!(v["indicators"], serde_json::json!(["th", "hip_height"]));
    let response: Vec<Vec<f64>> = v["impulse_response"]
        .as_array()
        .unwrap()
        .iter()
        .map(floats)
        .collect();
    let x0 = floats(&v["orbit"]["x0"]);
    let gamma = v["params"]["gamma"].as_f64().unwrap();
    let file = load_model_file(std::path::Path::new(&model(WALKER))).unwrap();
    let m = &file.model;
    let stride = &file.orbit.stride;
    // y_k(ε): the indicators after stride k when stride 0 runs at γ + ε.
    let run = |eps: f64, strides: usize| -> Vec<[f64; 2]> {
        let disturbed = with_param(m, "gamma", gamma + eps).unwrap();
        let mut first = StrideMap::new(&disturbed, stride.clone()).unwrap();
        let mut rest = StrideMap::new(m, stride.clone()).unwrap();
        let mut x = first.eval(&x0, JacobianKind::None).unwrap().x;
        let mut ys = vec![[x[0], x[0].cos()]];
        for _ in 1..strides {
            x = rest.eval(&x, JacobianKind::None).unwrap().x;
            ys.push([x[0], x[0].cos()]);
        }
        ys
    };
    let k = 8;
    let mut errors = Vec::new();
    for eps in [1e-4, 1e-5] {
        let (plus, minus) = (run(eps, k), run(-eps, k));
        let mut err = 0.0f64;
        for s in 0..k {
            for i in 0..2 {
                let fd = (plus[s][i] - minus[s][i]) / (2.0 * eps);
                err = err.max((fd - response[s][i]).abs());
            }
        }
        errors.push(err);
    }
    let scale = response
        .iter()
        .flatten()
        .fold(0.0f64, |a, v| a.max(v.abs()));
    // Central differences: the error falls as ε² (100× per decade; 0.26 at ε = 1e-3 and
    // 2.3e-3 at 1e-4 measured), down to the integration's.
    assert!(errors[1] < 1e-5 * scale, "{errors:?} (scale {scale})");
    assert!(errors[1] < errors[0] / 20.0, "{errors:?}");
    // The stance angle after the stride is a state: its D is ∂θ⁺/∂γ, C its row of ∂x⁺/∂u.
    assert!(response[0][0].abs() > 1e-3 * scale);
}
