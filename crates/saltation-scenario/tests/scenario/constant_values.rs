//! Parameter values written as constant expressions in model files (`gamma: "0.018/2"`), for
//! built-in and equation models: the value is the expression's, and a bad expression is refused
//! at its place in the file.

use saltation_hybrid::EvalModel;
use saltation_scenario::{parse_model_file, FileError};
use std::f64::consts::PI;

#[test]
fn a_built_in_models_parameter_may_be_a_constant_expression() {
    let file =
        parse_model_file("(model: SimplestWalker(gamma: \"0.018/2\"))", "w.ron").expect("loads");
    assert_eq!(file.model.param_value(0), Some(0.009));
}

#[test]
fn an_equation_models_parameter_may_be_a_constant_expression() {
    let text = r#"(model: Equations(name: "osc", states: ["x", "v"],
        parameters: [(name: "omega", value: "2*pi*10", min: 0.0)],
        modes: [(name: "m", flow: ["v", "-omega^2*x"])]))"#;
    let file = parse_model_file(text, "osc.ron").expect("loads");
    assert_eq!(file.model.param_value(0), Some(2.0 * PI * 10.0));
}

#[test]
fn a_bad_constant_expression_is_refused_at_its_place() {
    let text = "(\n  model: SimplestWalker(gamma: \"2*gama\"),\n)";
    match parse_model_file(text, "w.ron") {
        Err(FileError::Parse { line, message, .. }) => {
            assert_eq!(line, 2, "{message}");
            assert!(message.contains("unknown name `gama`"), "{message}");
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    let text = "(model: SimplestWalker(gamma: \"1/0\"))";
    let e = parse_model_file(text, "w.ron").unwrap_err().to_string();
    assert!(e.contains("not a finite number"), "{e}");
}
