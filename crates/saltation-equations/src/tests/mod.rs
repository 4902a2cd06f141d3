//! Semantics of the language end to end: values, derivatives, definitions, errors, limits,
//! diagnosis.

use crate::*;
use nalgebra::{Const, U1};
use num_dual::{Dual2_64, Dual64, DualSVec64};

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// A model's names for the tests: states `x, y, z`, parameters `a, b`.
struct Model {
    states: Vec<String>,
    params: Vec<String>,
}

impl Model {
    fn new(states: &[&str], params: &[&str]) -> Self {
        Model {
            states: strings(states),
            params: strings(params),
        }
    }

    fn xyz() -> Self {
        Model::new(&["x", "y", "z"], &["a", "b"])
    }

    fn names(&self) -> Names<'_> {
        Names {
            states: &self.states,
            params: &self.params,
        }
    }

    fn defs(&self, defs: &[(&str, &str)]) -> Result<Definitions, ExprError> {
        let d: Vec<(String, String)> = defs
            .iter()
            .map(|(n, e)| (n.to_string(), e.to_string()))
            .collect();
        Definitions::new(&d, &self.names())
    }

    fn compile_with(&self, exprs: &[&str], defs: &[(&str, &str)]) -> Result<Program, ExprError> {
        let d = self.defs(defs)?;
        compile(exprs, &d, &self.names())
    }

    fn compile(&self, exprs: &[&str]) -> Program {
        self.compile_with(exprs, &[])
            .unwrap_or_else(|e| panic!("{exprs:?}: {e}"))
    }

    fn error(&self, src: &str) -> ExprError {
        match self.compile_with(&[src], &[]) {
            Ok(_) => panic!("`{src}` compiled"),
            Err(e) => e,
        }
    }
}

/// The single output of `src` at states `x` (x, y, z) and parameters `p` (a, b).
fn value(src: &str, x: &[f64], p: &[f64]) -> f64 {
    let prog = Model::xyz().compile(&[src]);
    let mut out = [0.0];
    prog.eval(0.0, x, p, &mut out);
    out[0]
}

fn value_at(src: &str, x: f64) -> f64 {
    value(src, &[x, 0.0, 0.0], &[0.0, 0.0])
}

/// Value and derivative with respect to `x` by `Dual64`.
fn dual_at(src: &str, x: f64) -> Dual64 {
    let prog = Model::xyz().compile(&[src]);
    let xs = [Dual64::new(x, 1.0), Dual64::from(0.0), Dual64::from(0.0)];
    let ps = [Dual64::from(0.0); 2];
    let mut out = [Dual64::from(0.0)];
    prog.eval(Dual64::from(0.0), &xs, &ps, &mut out);
    out[0]
}

/// Value, first and second derivative with respect to `x` by `Dual2_64`.
fn dual2_at(src: &str, x: f64) -> Dual2_64 {
    let prog = Model::xyz().compile(&[src]);
    let xs = [
        Dual2_64::new(x, 1.0, 0.0),
        Dual2_64::from(0.0),
        Dual2_64::from(0.0),
    ];
    let ps = [Dual2_64::from(0.0); 2];
    let mut out = [Dual2_64::from(0.0)];
    prog.eval(Dual2_64::from(0.0), &xs, &ps, &mut out);
    out[0]
}

fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

mod definitions;
mod derivatives;
mod diagnosis;
mod errors;
mod values;
