//! Gait indicators written as expressions: what `saltation sensitivity --indicators` measures
//! on each stride.
//!
//! An indicator is an expression (the language of [`saltation_equations`]) in
//!
//! - the model's states at the end of the stride (just after its last reset) — named as the
//!   model names them where that is a valid name, else `x0`, `x1`, …; a time-forced equation
//!   model's phase is `t`, as everywhere in its file;
//! - `step_time`, the stride's duration (the time of its last event);
//! - the parameters, and for an equation model its definitions (`let`) and its outputs by name.
//!
//! Each is compiled once into one program, and its value and exact gradient
//! `∂y/∂(x, T, p)` come from forward-mode automatic differentiation through the evaluator
//! (dual numbers, one seed per variable). `step_time` alone is the default indicator.

use crate::Model;
use num_dual::Dual64;
use saltation_equations::{compile, is_valid_name, Definitions, Names, Program};
use saltation_hybrid::EvalModel;
use thiserror::Error;

/// The name of the stride's duration in an indicator.
pub const STEP_TIME: &str = "step_time";

/// Most indicators in one list.
pub const MAX_INDICATORS: usize = 64;

/// Why an indicator list was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum IndicatorError {
    /// No indicator in the list (or an empty item between commas).
    #[error("{0}")]
    Empty(String),
    /// More than [`MAX_INDICATORS`].
    #[error("{0} indicators: at most {MAX_INDICATORS}")]
    TooMany(usize),
    /// An expression that does not compile: which, where (characters from the start of the
    /// whole list) and why.
    #[error("indicator `{expr}`, character {position} of the list: {message}")]
    Expression {
        /// The indicator's text.
        expr: String,
        /// Character offset in the whole list (0 for the first).
        position: usize,
        /// The compiler's message (an unknown name with its suggestion, a syntax error).
        message: String,
    },
    /// `t` in an autonomous model, where it has no meaning on the section.
    #[error(
        "indicator `{0}` uses `t`, which is not defined for an autonomous model's stride \
         (the stride's duration is `step_time`)"
    )]
    Time(String),
    /// The model itself names a state, parameter, definition or output `step_time`, so the
    /// name would mean two things.
    #[error(
        "the model has a {0} named `step_time`, the name indicators use for the stride's \
         duration: rename it in the model to use --indicators"
    )]
    StepTimeTaken(&'static str),
}

/// Compiled indicators (module documentation).
#[derive(Debug, Clone)]
pub struct Indicators {
    names: Vec<String>,
    program: Program,
    /// Declared states (the expression's states; the model's state may have the phase after).
    states: usize,
    /// Whether `t` is the phase `x[states]`.
    forced: bool,
}

/// One indicator's value and exact gradient at a stride's end.
#[derive(Debug, Clone, PartialEq)]
pub struct IndicatorGradient {
    /// The value `y`.
    pub value: f64,
    /// `∂y/∂x` over the model's whole state (the phase of a forced model included).
    pub x: Vec<f64>,
    /// `∂y/∂T`, the derivative in `step_time`.
    pub step_time: f64,
    /// `∂y/∂p` per parameter.
    pub p: Vec<f64>,
}

/// Splits `list` at the commas outside parentheses: each item with its character offset.
fn split_top_level(list: &str) -> Vec<(usize, String)> {
    let mut items = Vec::new();
    let (mut depth, mut start, mut cur) = (0i64, 0usize, String::new());
    for (i, c) in list.chars().enumerate() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => {
                items.push((start, std::mem::take(&mut cur)));
                start = i + 1;
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    items.push((start, cur));
    items
}

/// What the model names `step_time`, if anything (a state, parameter, definition or output).
fn step_time_taken(model: &Model) -> Option<&'static str> {
    if model.param_names().iter().any(|n| n == STEP_TIME) {
        return Some("parameter");
    }
    match model {
        Model::Equations(m) => {
            let spec = m.model().spec();
            if spec.states.iter().any(|n| n == STEP_TIME) {
                Some("state")
            } else if spec.definitions.iter().any(|(n, _)| n == STEP_TIME) {
                Some("definition")
            } else if spec.outputs.iter().any(|(n, _)| n == STEP_TIME) {
                Some("output")
            } else {
                None
            }
        }
        _ => model
            .state_names()
            .iter()
            .any(|n| n == STEP_TIME)
            .then_some("state"),
    }
}

impl Indicators {
    /// Compiles the comma-separated `list` (commas inside parentheses belong to the
    /// expression) for `model`.
    pub fn compile(model: &Model, list: &str) -> Result<Self, IndicatorError> {
        let items = split_top_level(list);
        if items.len() > MAX_INDICATORS {
            return Err(IndicatorError::TooMany(items.len()));
        }
        let mut exprs = Vec::with_capacity(items.len());
        for (k, (at, text)) in items.iter().enumerate() {
            let trimmed = text.trim();
            if trimmed.is_empty() {
                return Err(IndicatorError::Empty(if items.len() == 1 {
                    "the list of indicators is empty".into()
                } else {
                    format!("indicator {} (character {at} of the list) is empty", k + 1)
                }));
            }
            let lead = text.chars().take_while(|c| c.is_whitespace()).count();
            exprs.push((at + lead, trimmed.to_string()));
        }
        if let Some(what) = step_time_taken(model) {
            return Err(IndicatorError::StepTimeTaken(what));
        }
        let (mut states, mut defs, forced) = match model {
            Model::Equations(m) => {
                let spec = m.model().spec();
                let mut defs = spec.definitions.clone();
                let taken = |n: &str| {
                    spec.states.iter().any(|s| s == n)
                        || spec.parameters.iter().any(|p| p.name == n)
                        || defs.iter().any(|(d, _)| d == n)
                };
                let outputs: Vec<(String, String)> = spec
                    .outputs
                    .iter()
                    .filter(|(n, _)| !taken(n) && n != STEP_TIME)
                    .cloned()
                    .collect();
                defs.extend(outputs);
                (spec.states.clone(), defs, m.model().is_forced())
            }
            _ => {
                let states = model
                    .state_names()
                    .into_iter()
                    .enumerate()
                    .map(|(i, s)| {
                        if is_valid_name(&s) {
                            s
                        } else {
                            format!("x{i}")
                        }
                    })
                    .collect();
                (states, Vec::new(), false)
            }
        };
        let declared = states.len();
        states.push(STEP_TIME.into());
        defs.retain(|(n, _)| n != STEP_TIME);
        let params = model.param_names();
        let names = Names {
            states: &states,
            params: &params,
        };
        let at_list = |k: usize, offset: usize, message: String| IndicatorError::Expression {
            expr: exprs[k].1.clone(),
            position: exprs[k].0 + offset,
            message,
        };
        let definitions =
            Definitions::new(&defs, &names).map_err(|e| IndicatorError::Expression {
                expr: "(the model's definitions)".into(),
                position: 0,
                message: e.message,
            })?;
        let texts: Vec<&str> = exprs.iter().map(|(_, e)| e.as_str()).collect();
        // Each alone first, for the position of a mistake in its own text.
        for (k, text) in texts.iter().enumerate() {
            let p = compile(&[text], &definitions, &names).map_err(|e| match e.site {
                saltation_equations::Site::Output(_) => at_list(k, e.offset, e.message),
                saltation_equations::Site::Definition(_) => at_list(k, 0, e.message),
            })?;
            if p.uses_time() && !forced {
                return Err(IndicatorError::Time(text.to_string()));
            }
        }
        let program =
            compile(&texts, &definitions, &names).map_err(|e| at_list(0, 0, e.message))?;
        Ok(Self {
            names: texts.iter().map(|s| s.to_string()).collect(),
            program,
            states: declared,
            forced,
        })
    }

    /// The indicators' texts, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Each indicator's value and gradient at the end state `x` (the model's whole state),
    /// the stride's duration `step_time` and the parameter values `p`.
    pub fn gradients(&self, x: &[f64], step_time: f64, p: &[f64]) -> Vec<IndicatorGradient> {
        let n = self.states;
        let q = self.names.len();
        // Variables: the declared states, step_time, the phase (forced), the parameters.
        let phase = if self.forced {
            x.get(n).copied().unwrap_or(0.0)
        } else {
            0.0
        };
        let vars = n + 1 + usize::from(self.forced) + p.len();
        let mut out: Vec<IndicatorGradient> = (0..q)
            .map(|_| IndicatorGradient {
                value: f64::NAN,
                x: vec![0.0; x.len()],
                step_time: 0.0,
                p: vec![0.0; p.len()],
            })
            .collect();
        let mut y = vec![Dual64::from(0.0); q];
        for v in 0..vars {
            let seed = |i: usize, value: f64| Dual64::new(value, if i == v { 1.0 } else { 0.0 });
            let mut xs: Vec<Dual64> = (0..n)
                .map(|i| seed(i, x.get(i).copied().unwrap_or(f64::NAN)))
                .collect();
            xs.push(seed(n, step_time));
            let t = if self.forced {
                seed(n + 1, phase)
            } else {
                Dual64::from(phase)
            };
            let off = n + 1 + usize::from(self.forced);
            let ps: Vec<Dual64> = p
                .iter()
                .enumerate()
                .map(|(j, &pj)| seed(off + j, pj))
                .collect();
            self.program.eval(t, &xs, &ps, &mut y);
            for (o, yi) in out.iter_mut().zip(&y) {
                o.value = yi.re;
                if v < n {
                    o.x[v] = yi.eps;
                } else if v == n {
                    o.step_time = yi.eps;
                } else if self.forced && v == n + 1 {
                    if let Some(g) = o.x.get_mut(n) {
                        *g = yi.eps;
                    }
                } else if let Some(g) = o.p.get_mut(v - off) {
                    *g = yi.eps;
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walker() -> Model {
        crate::tests::shipped("equations/simplest_walker").model
    }

    fn values(m: &Model) -> Vec<f64> {
        (0..m.param_names().len())
            .map(|k| m.param_value(k).unwrap())
            .collect()
    }

    #[test]
    fn values_and_gradients_are_exact() {
        let m = walker();
        let ind =
            Indicators::compile(&m, "step_time, 2*sin(th)*step_time ,atan2(th, dth)").unwrap();
        assert_eq!(
            ind.names(),
            ["step_time", "2*sin(th)*step_time", "atan2(th, dth)"]
        );
        let x = [0.2, -0.2, 0.4, -0.01];
        let g = ind.gradients(&x, 3.0, &values(&m));
        assert_eq!(g[0].value, 3.0);
        assert_eq!((g[0].step_time, g[0].x.clone()), (1.0, vec![0.0; 4]));
        assert_eq!(g[1].value, 2.0 * 0.2f64.sin() * 3.0);
        assert_eq!(g[1].x[0], 2.0 * 0.2f64.cos() * 3.0);
        assert_eq!(g[1].step_time, 2.0 * 0.2f64.sin());
        let r2 = 0.2f64.powi(2) + 0.2f64.powi(2);
        assert!((g[2].x[0] - (-0.2) / r2).abs() < 1e-15);
        assert!((g[2].x[1] - (-0.2) / r2).abs() < 1e-15);
    }

    #[test]
    fn mistakes_say_where_and_what() {
        let m = walker();
        let e = Indicators::compile(&m, "step_time, th +").unwrap_err();
        assert!(
            matches!(&e, IndicatorError::Expression { expr, position, .. } if expr == "th +" && *position == 15),
            "{e}"
        );
        let e = Indicators::compile(&m, "thh").unwrap_err().to_string();
        assert!(e.contains("`thh`") && e.contains("character 0"), "{e}");
        assert!(matches!(
            Indicators::compile(&m, " "),
            Err(IndicatorError::Empty(_))
        ));
        assert!(matches!(
            Indicators::compile(&m, "th,,dth"),
            Err(IndicatorError::Empty(_))
        ));
        assert!(matches!(
            Indicators::compile(&m, "t + th"),
            Err(IndicatorError::Time(_))
        ));
        let many = vec!["th"; MAX_INDICATORS + 1].join(",");
        assert!(matches!(
            Indicators::compile(&m, &many),
            Err(IndicatorError::TooMany(_))
        ));
    }

    /// The walker's equation file with `edit` applied to its text.
    fn walker_edited(from: &str, to: &str) -> Model {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../models/equations/simplest_walker.ron");
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains(from));
        let shipped: crate::tests::Shipped = ron::Options::default()
            .with_default_extension(
                ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES
                    | ron::extensions::Extensions::IMPLICIT_SOME,
            )
            .from_str(&text.replacen(from, to, 1))
            .unwrap();
        shipped.model
    }

    #[test]
    fn a_model_that_names_something_step_time_is_refused() {
        for (from, to, what) in [
            (
                "outputs: [",
                "outputs: [(\"step_time\", \"th\"), ",
                "output",
            ),
            (
                "(name: \"gamma\"",
                "(name: \"step_time\", value: 1.0), (name: \"gamma\"",
                "parameter",
            ),
        ] {
            let m = walker_edited(from, to);
            let e = Indicators::compile(&m, "step_time").unwrap_err();
            assert_eq!(e, IndicatorError::StepTimeTaken(what), "{e}");
            assert!(e.to_string().contains("rename it"), "{e}");
        }
    }
}
