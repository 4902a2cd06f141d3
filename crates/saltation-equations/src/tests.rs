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

// ---------------------------------------------------------------------------------------
// Values

#[test]
fn precedence_and_associativity() {
    let (x, y) = (3.0f64, 2.0f64);
    let cases: &[(&str, f64)] = &[
        ("1 + 2 * 3", 7.0),
        ("(1 + 2) * 3", 9.0),
        ("2 ^ 3 ^ 2", 512.0),
        ("(2 ^ 3) ^ 2", 64.0),
        ("-x^2", -9.0),
        ("(-x)^2", 9.0),
        ("-2^2", -4.0),
        ("2^-1", 0.5),
        ("2^-y", 0.25),
        ("-x^-y", -(3f64.powf(-2.0))),
        ("x^y^2", 81.0),
        ("10 - 4 - 3", 3.0),
        ("100 / 10 / 5", 2.0),
        ("x / y / 2", x / y / 2.0),
        ("2 * 3 / 4", 1.5),
        ("8 / 2 * 4", 16.0),
        ("1 - -1", 2.0),
        ("- - 2", 2.0),
        ("+3", 3.0),
        ("2 * -3", -6.0),
        ("-x * y", -6.0),
        ("x * y ^ 2", 12.0),
        ("1 + 2 * 3 ^ 2 / 3 - 1", 6.0),
        ("1 + 2 < 4", 1.0),
        ("1 < 2 + 3", 1.0),
        ("4 <= 2 * 2", 1.0),
        ("(3 > 2) == 1", 1.0),
        ("x - y > 0", 1.0),
        ("-(x - y) > 0", 0.0),
        (".5 + 1e-3 + 3E+2", 0.5 + 1e-3 + 300.0),
        ("2 ^ 0.5", 2f64.powf(0.5)),
        ("2*pi", 2.0 * std::f64::consts::PI),
        ("pi^2", std::f64::consts::PI * std::f64::consts::PI),
        ("((x))", x),
        ("x*(y+1)*(y-1)", x * (y + 1.0) * (y - 1.0)),
        ("x - y - 1", x - y - 1.0),
        ("x - (y - 1)", x - (y - 1.0)),
        ("1 / x * y", 1.0 / x * y),
        ("a + b * x", 0.5 + 0.25 * x),
    ];
    for &(src, want) in cases {
        let got = value(src, &[x, y, 0.0], &[0.5, 0.25]);
        assert!(same(got, want), "{src}: got {got}, want {want}");
    }
}

#[test]
fn every_function_matches_std() {
    type F = fn(f64) -> f64;
    let unary: &[(&str, F)] = &[
        ("sin", f64::sin),
        ("cos", f64::cos),
        ("tan", f64::tan),
        ("asin", f64::asin),
        ("acos", f64::acos),
        ("atan", f64::atan),
        ("sinh", f64::sinh),
        ("cosh", f64::cosh),
        ("tanh", f64::tanh),
        ("exp", f64::exp),
        ("log", f64::ln),
        ("sqrt", f64::sqrt),
        ("abs", f64::abs),
    ];
    let points = [-2.5, -0.7, -0.0, 0.0, 0.3, 0.9, 1.5, 4.0, 800.0];
    for &(name, f) in unary {
        for x in points {
            let got = value_at(&format!("{name}(x)"), x);
            assert!(same(got, f(x)), "{name}({x}): {got} vs {}", f(x));
            // Constant arguments are folded with the same kernels.
            let folded = value_at(&format!("{name}({x:?})"), 0.0);
            assert!(same(folded, f(x)), "{name}({x:?}) folded: {folded}");
        }
    }
    for (x, s) in [(-2.0, -1.0), (-0.0, 0.0), (0.0, 0.0), (3.0, 1.0)] {
        assert!(same(value_at("sign(x)", x), s), "sign({x})");
    }
    assert!(value_at("sign(x)", f64::NAN).is_nan());
    type G = fn(f64, f64) -> f64;
    let binary: &[(&str, G)] = &[
        ("atan2", f64::atan2),
        ("min", f64::min),
        ("max", f64::max),
        ("pow", f64::powf),
    ];
    let pairs = [
        (1.0, 2.0),
        (-1.0, 2.0),
        (1.0, -2.0),
        (-1.0, -2.0),
        (0.0, 1.0),
        (2.5, 0.5),
        (3.0, 3.0),
    ];
    for &(name, f) in binary {
        for (x, y) in pairs {
            let got = value(&format!("{name}(x, y)"), &[x, y, 0.0], &[0.0, 0.0]);
            assert!(same(got, f(x, y)), "{name}({x}, {y}): {got} vs {}", f(x, y));
        }
    }
    // `^` with a variable exponent is `pow`; with constant exponents `powi` / `powf`.
    assert!(same(value_at("x^3", 1.1), 1.1f64.powi(3)));
    assert!(same(value_at("x^-2", 1.1), 1.1f64.powi(-2)));
    assert!(same(value_at("x^2.5", 1.1), 1.1f64.powf(2.5)));
    assert!(same(value_at("x^(1/2)", 1.1), 1.1f64.powf(0.5)));
    assert!(same(value_at("x^y", 1.1), 1.1f64.powf(0.0)));
    assert!(same(value("x^y", &[-1.5, 3.0, 0.0], &[0.0; 2]), -3.375));
    assert!(value("x^y", &[-1.5, 0.5, 0.0], &[0.0; 2]).is_nan());
}

#[test]
fn comparisons_if_min_max() {
    let nan = f64::NAN;
    let cases: &[(&str, f64, f64, f64)] = &[
        ("x < y", 1.0, 2.0, 1.0),
        ("x < y", 2.0, 2.0, 0.0),
        ("x <= y", 2.0, 2.0, 1.0),
        ("x > y", 3.0, 2.0, 1.0),
        ("x >= y", 1.0, 2.0, 0.0),
        ("x == y", 2.0, 2.0, 1.0),
        ("x != y", 2.0, 2.0, 0.0),
        ("x != y", 1.0, 2.0, 1.0),
        ("x < y", nan, 2.0, 0.0),
        ("x == y", nan, nan, 0.0),
        ("x != y", nan, 2.0, 1.0),
        ("if(x > y, 10, 20)", 3.0, 2.0, 10.0),
        ("if(x > y, 10, 20)", 1.0, 2.0, 20.0),
        ("if(x - y, 10, 20)", 2.0, 2.0, 20.0),
        ("if(x, 10, 20)", -0.5, 0.0, 10.0),
        ("if(x, 10, 20)", nan, 0.0, nan),
        ("if(0, x, y)", 1.0, 2.0, 2.0),
        ("if(1, x, y)", 1.0, 2.0, 1.0),
        ("if(x < 0, -x, x) + if(y < 0, -y, y)", -3.0, 2.0, 5.0),
        ("min(x, y)", 1.0, 2.0, 1.0),
        ("min(x, y)", 3.0, 2.0, 2.0),
        ("max(x, y)", 1.0, 2.0, 2.0),
        ("max(x, y)", 3.0, -2.0, 3.0),
        ("min(x, y)", nan, 2.0, nan),
        ("max(x, y)", 2.0, nan, nan),
        ("min(x, 1) + max(y, 1)", 0.5, 3.0, 3.5),
    ];
    for &(src, x, y, want) in cases {
        let got = value(src, &[x, y, 0.0], &[0.0, 0.0]);
        assert!(
            same(got, want),
            "{src} at ({x}, {y}): got {got}, want {want}"
        );
    }
}

#[test]
fn only_the_taken_branch_is_evaluated() {
    let m = Model::xyz();
    let p = m.compile(&["if(x > 0, sqrt(x), -sqrt(-x))"]);
    let listing = p.to_string();
    assert!(listing.contains("goto"), "{listing}");
    for (x, want) in [(4.0, 2.0), (-9.0, -3.0)] {
        let mut out = [0.0];
        p.eval(0.0, &[x, 0.0, 0.0], &[0.0; 2], &mut out);
        assert_eq!(out[0], want);
        assert!(p.diagnose(0.0, &[x, 0.0, 0.0], &[0.0; 2]).is_none());
    }
    // A constant condition folds the `if` away.
    let q = m.compile(&["if(2 > 1, x, log(-1))"]);
    assert!(!q.to_string().contains("goto"));
    assert!(!q.to_string().contains("log"));
    // Nested ifs and a shared sub-expression inside and outside the branches.
    let r = m.compile(&[
        "sin(x) + if(x > 1, if(y > 1, sin(x) * y, 2), cos(x))",
        "sin(x)",
    ]);
    let f = |x: f64, y: f64| {
        x.sin()
            + if x > 1.0 {
                if y > 1.0 {
                    x.sin() * y
                } else {
                    2.0
                }
            } else {
                x.cos()
            }
    };
    for (x, y) in [(2.0, 3.0), (2.0, 0.0), (0.5, 3.0), (0.5, 0.0)] {
        let mut out = [0.0; 2];
        r.eval(0.0, &[x, y, 0.0], &[0.0; 2], &mut out);
        assert_eq!(out, [f(x, y), x.sin()], "at ({x}, {y})\n{r}");
    }
    assert_eq!(r.to_string().matches("sin").count(), 1, "{r}");
}

#[test]
fn sin_and_cos_of_one_argument_share_a_call() {
    let m = Model::xyz();
    let p = m.compile(&["cos(x - y) * 2", "sin(x - y) + sin(x)"]);
    let listing = p.to_string();
    assert_eq!(listing.matches("sincos").count(), 1, "{listing}");
    for (x, y) in [(0.3, -1.1), (2.0, 0.5), (1e5, 3.0), (-7.0, 0.0)] {
        let mut out = [0.0; 2];
        p.eval(0.0, &[x, y, 0.0], &[0.0; 2], &mut out);
        assert!(same(out[0], (x - y).cos() * 2.0) && same(out[1], (x - y).sin() + x.sin()));
        let mut d = [Dual64::from(0.0); 2];
        let xs = [Dual64::new(x, 1.0), Dual64::from(y), Dual64::from(0.0)];
        p.eval(Dual64::from(0.0), &xs, &[Dual64::from(0.0); 2], &mut d);
        assert!(same(d[0].re, out[0]) && same(d[1].re, out[1]));
        assert_eq!(d[0].eps, -(x - y).sin() * 2.0);
        assert_eq!(d[1].eps, (x - y).cos() + x.cos());
    }
    // Not across a branch: the `sin` inside may not run.
    let q = m.compile(&["if(y > 0, sin(x), 0) + cos(x)"]);
    assert!(!q.to_string().contains("sincos"), "{q}");
    let mut out = [0.0];
    q.eval(0.0, &[0.4, -1.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out[0], 0.4f64.cos());
}

#[test]
fn time_and_parameters() {
    let m = Model::xyz();
    let p = m.compile(&["a * t + b", "x"]);
    assert!(p.uses_time());
    assert!(p.uses_param(0) && p.uses_param(1));
    assert!(p.uses_state(0) && !p.uses_state(1));
    let mut out = [0.0; 2];
    p.eval(2.0, &[7.0, 0.0, 0.0], &[3.0, 1.0], &mut out);
    assert_eq!(out, [7.0, 7.0]);
    assert!(!m.compile(&["x + a"]).uses_time());
    assert_eq!(m.compile(&[]).outputs(), 0);
}

#[test]
fn simplest_walker_field() {
    let m = Model::new(&["th", "dth", "ph", "dph"], &["gamma"]);
    let prog = m.compile(&[
        "dth",
        "sin(th - gamma)",
        "dph",
        "sin(ph)*(dth^2 - cos(th - gamma)) + sin(th - gamma)",
    ]);
    assert!(prog.slots() <= 16, "{prog}");
    assert_eq!(prog.to_string().matches("sin").count(), 2, "{prog}");
    assert!(!prog.uses_time());
    for (i, x) in [
        [0.2, -0.2, 0.4, -0.05],
        [0.0, 0.0, 0.0, 0.0],
        [-0.3, 1.2, -0.6, 0.7],
        [1e-9, -3.0, 2.0, 0.1],
    ]
    .iter()
    .enumerate()
    {
        let g = 0.009 * i as f64;
        let [th, dth, ph, dph] = *x;
        let want = [
            dth,
            (th - g).sin(),
            dph,
            ph.sin() * (dth * dth - (th - g).cos()) + (th - g).sin(),
        ];
        let mut out = [0.0; 4];
        prog.eval(0.0, x, &[g], &mut out);
        assert_eq!(out, want, "at {x:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Derivatives

#[test]
fn derivatives_of_every_function_and_operator() {
    type F = fn(f64) -> f64;
    // (expression in x, hand-derived derivative, points)
    let cases: &[(&str, F, &[f64])] = &[
        ("sin(x)", |x| x.cos(), &[-1.0, 0.0, 0.4, 2.0]),
        ("cos(x)", |x| -x.sin(), &[-1.0, 0.0, 0.4, 2.0]),
        (
            "tan(x)",
            |x| 1.0 + x.tan() * x.tan(),
            &[-1.0, 0.0, 0.4, 1.5],
        ),
        ("asin(x)", |x| 1.0 / (1.0 - x * x).sqrt(), &[-0.9, 0.0, 0.4]),
        (
            "acos(x)",
            |x| -1.0 / (1.0 - x * x).sqrt(),
            &[-0.9, 0.0, 0.4],
        ),
        ("atan(x)", |x| 1.0 / (1.0 + x * x), &[-3.0, 0.0, 0.4]),
        ("sinh(x)", |x| x.cosh(), &[-2.0, 0.0, 0.4]),
        ("cosh(x)", |x| x.sinh(), &[-2.0, 0.0, 0.4]),
        (
            "tanh(x)",
            |x| 1.0 - x.tanh() * x.tanh(),
            &[-2.0, 0.0, 0.4, 30.0],
        ),
        ("exp(x)", |x| x.exp(), &[-2.0, 0.0, 0.4]),
        ("log(x)", |x| 1.0 / x, &[0.1, 1.0, 7.0]),
        ("sqrt(x)", |x| 0.5 / x.sqrt(), &[0.1, 1.0, 7.0]),
        ("abs(x)", |x| x.signum(), &[-2.0, 0.5]),
        ("sign(x)", |_| 0.0, &[-2.0, 0.0, 0.5]),
        ("-x", |_| -1.0, &[-2.0, 0.5]),
        ("x + 3", |_| 1.0, &[0.5]),
        ("3 - x", |_| -1.0, &[0.5]),
        ("x * 3", |_| 3.0, &[0.5]),
        ("x * x", |x| 2.0 * x, &[0.5, -1.5]),
        ("1 / x", |x| -1.0 / (x * x), &[0.5, -1.5]),
        ("x / 4", |_| 0.25, &[0.5]),
        ("x^2", |x| 2.0 * x, &[-1.5, 0.0, 0.5]),
        ("x^3", |x| 3.0 * x * x, &[-1.5, 0.0, 0.5]),
        ("x^1", |_| 1.0, &[-1.5, 0.0, 0.5]),
        ("x^0", |_| 0.0, &[-1.5, 0.0, 0.5]),
        ("x^-2", |x| -2.0 / (x * x * x), &[-1.5, 0.5]),
        ("x^0.5", |x| 0.5 / x.sqrt(), &[0.25, 2.0]),
        ("x^1.5", |x| 1.5 * x.sqrt(), &[0.0, 0.25, 2.0]),
        ("x^2.5", |x| 2.5 * x.powf(1.5), &[0.0, 0.25, 2.0]),
        ("pow(x, 3)", |x| 3.0 * x * x, &[-1.5, 0.5]),
        (
            "2^x",
            |x| 2f64.powf(x) * std::f64::consts::LN_2,
            &[-1.5, 0.0, 0.5],
        ),
        ("x^x", |x| x.powf(x) * (x.ln() + 1.0), &[0.3, 1.5]),
        ("atan2(x, 2)", |x| 2.0 / (4.0 + x * x), &[-3.0, 0.0, 1.0]),
        ("atan2(x, -2)", |x| -2.0 / (4.0 + x * x), &[-3.0, 1.0]),
        ("atan2(2, x)", |x| -2.0 / (4.0 + x * x), &[-3.0, 0.0, 1.0]),
        ("atan2(-2, x)", |x| 2.0 / (4.0 + x * x), &[-3.0, 0.0, 1.0]),
        (
            "min(x, 1)",
            |x| if x < 1.0 { 1.0 } else { 0.0 },
            &[0.5, 2.0],
        ),
        (
            "max(x, 1)",
            |x| if x > 1.0 { 1.0 } else { 0.0 },
            &[0.5, 2.0],
        ),
        (
            "min(x, x^2)",
            |x| if x * x < x { 2.0 * x } else { 1.0 },
            &[0.5, 2.0],
        ),
        ("x < 1", |_| 0.0, &[0.5, 2.0]),
        (
            "if(x > 0.5, x^2, 3*x)",
            |x| if x > 0.5 { 2.0 * x } else { 3.0 },
            &[0.0, 2.0],
        ),
        ("sin(x)^2 + cos(x)^2", |_| 0.0, &[0.3, 2.0]),
    ];
    for &(src, d, points) in cases {
        for &x in points {
            let v = dual_at(src, x);
            let f = value_at(src, x);
            assert!(same(v.re, f), "{src} at {x}: real part {} vs f64 {f}", v.re);
            assert!(
                close(v.eps, d(x), 1e-14) || (v.eps - d(x)).abs() < 1e-15,
                "d/dx {src} at {x}: {} vs {}",
                v.eps,
                d(x)
            );
        }
    }
}

#[test]
fn derivatives_at_kinks_and_zero() {
    // x^n at 0: exact, also the second derivative.
    for (src, d1, d2) in [
        ("x^2", 0.0, 2.0),
        ("x^3", 0.0, 0.0),
        ("x^1", 1.0, 0.0),
        ("x^4", 0.0, 0.0),
    ] {
        let v = dual2_at(src, 0.0);
        assert_eq!((v.re, v.v1, v.v2), (0.0, d1, d2), "{src} at 0");
    }
    // abs: derivative sign(x), 0 at 0; sign: 0 everywhere.
    assert_eq!(dual_at("abs(x)", 0.0).eps, 0.0);
    assert_eq!(dual_at("abs(x)", -0.0).eps, 0.0);
    assert_eq!(dual_at("abs(x)", -2.0).eps, -1.0);
    assert_eq!(dual_at("abs(x)", 2.0).eps, 1.0);
    assert_eq!(dual_at("sign(x)", 0.0).eps, 0.0);
    // min/max on a tie follow the first argument.
    assert_eq!(dual_at("min(x, 1)", 1.0).eps, 1.0);
    assert_eq!(dual_at("max(1, x)", 1.0).eps, 0.0);
    // A branch's derivative is the taken branch's.
    assert_eq!(dual_at("if(x >= 0, x^2, -x)", 0.0).eps, 0.0);
    assert_eq!(dual_at("if(x > 0, x^2, -x)", 0.0).eps, -1.0);
}

#[test]
fn second_derivatives_of_rebuilt_kernels() {
    // tan, tanh, atan2 and the powers are rebuilt from num-dual pieces; check order 2.
    type F = fn(f64) -> (f64, f64);
    let cases: &[(&str, F, f64)] = &[
        (
            "tan(x)",
            |x| {
                let t = x.tan();
                (1.0 + t * t, 2.0 * t * (1.0 + t * t))
            },
            0.7,
        ),
        (
            "tanh(x)",
            |x| {
                let t = x.tanh();
                (1.0 - t * t, -2.0 * t * (1.0 - t * t))
            },
            0.7,
        ),
        (
            "atan2(x, 2)",
            |x| (2.0 / (4.0 + x * x), -4.0 * x / (4.0 + x * x).powi(2)),
            0.7,
        ),
        (
            "atan2(2, x)",
            |x| (-2.0 / (4.0 + x * x), 4.0 * x / (4.0 + x * x).powi(2)),
            0.7,
        ),
        ("x^5", |x| (5.0 * x.powi(4), 20.0 * x.powi(3)), 0.7),
        ("x^-3", |x| (-3.0 * x.powi(-4), 12.0 * x.powi(-5)), 0.7),
        ("x^2.5", |x| (2.5 * x.powf(1.5), 3.75 * x.sqrt()), 0.7),
        (
            "x^x",
            |x| {
                let f = x.powf(x);
                let l = x.ln() + 1.0;
                (f * l, f * l * l + f / x)
            },
            0.7,
        ),
    ];
    for &(src, d, x) in cases {
        let v = dual2_at(src, x);
        let (d1, d2) = d(x);
        assert!(same(v.re, value_at(src, x)), "{src}: real part");
        assert!(close(v.v1, d1, 1e-14), "{src}': {} vs {d1}", v.v1);
        assert!(close(v.v2, d2, 1e-13), "{src}'': {} vs {d2}", v.v2);
    }
}

#[test]
fn rebuilt_kernels_avoid_num_dual_overflow() {
    // num-dual's tanh is sinh/cosh (NaN beyond ~710); num-dual's powf forms x^(n-3) first.
    let v = dual_at("tanh(x)", 800.0);
    assert_eq!((v.re, v.eps), (1.0, 0.0));
    let v = dual_at("x^0.5", 1e-200);
    assert!(
        close(v.re, 1e-100, 1e-15) && close(v.eps, 0.5e100, 1e-14),
        "{v:?}"
    );
    let v = dual_at("x^-3", 1e-100);
    assert!(close(v.re, 1e300, 1e-15), "{v:?}");
    assert_eq!(v.eps, f64::NEG_INFINITY);
    let v = dual_at("x^-2", 1e-100);
    assert!(close(v.eps, -2e300, 1e-14), "{v:?}");
}

#[test]
fn parameter_and_time_derivatives() {
    let m = Model::xyz();
    let prog = m.compile(&["a * sin(b * x) + t^2 * y", "exp(-a * t)"]);
    let (x, y, a, b, t) = (0.7, 1.3, 2.0, 0.5, 0.25);
    // Seed the two parameters with DualSVec64<2>.
    let xs = [x, y, 0.0].map(DualSVec64::<2>::from_re);
    let ps = [
        DualSVec64::from_re(a).derivative(0),
        DualSVec64::from_re(b).derivative(1),
    ];
    let mut out = [DualSVec64::<2>::from_re(0.0); 2];
    prog.eval(DualSVec64::from_re(t), &xs, &ps, &mut out);
    let g0 = out[0].eps.unwrap_generic(Const::<2>, U1);
    let g1 = out[1].eps.unwrap_generic(Const::<2>, U1);
    assert!(close(g0[0], (b * x).sin(), 1e-15));
    assert!(close(g0[1], a * x * (b * x).cos(), 1e-15));
    assert!(close(g1[0], -t * (-a * t).exp(), 1e-15));
    assert_eq!(g1[1], 0.0);
    // ∂/∂t with a Dual64 time.
    let xs = [x, y, 0.0].map(Dual64::from);
    let ps = [a, b].map(Dual64::from);
    let mut out = [Dual64::from(0.0); 2];
    prog.eval(Dual64::new(t, 1.0), &xs, &ps, &mut out);
    assert!(close(out[0].eps, 2.0 * t * y, 1e-15));
    assert!(close(out[1].eps, -a * (-a * t).exp(), 1e-15));
}

#[test]
fn walker_jacobian_by_static_duals() {
    let m = Model::new(&["th", "dth", "ph", "dph"], &["gamma"]);
    let prog = m.compile(&[
        "dth",
        "sin(th - gamma)",
        "dph",
        "sin(ph)*(dth^2 - cos(th - gamma)) + sin(th - gamma)",
    ]);
    let (th, dth, ph, g) = (0.2, -0.2, 0.4, 0.009);
    let x0 = [th, dth, ph, -0.05];
    // Five seeds: the four states and gamma.
    let xs: [DualSVec64<5>; 4] = std::array::from_fn(|i| DualSVec64::from_re(x0[i]).derivative(i));
    let ps = [DualSVec64::from_re(g).derivative(4)];
    let mut out = [DualSVec64::<5>::from_re(0.0); 4];
    prog.eval(DualSVec64::from_re(0.0), &xs, &ps, &mut out);
    let (s, c) = ((th - g).sin(), (th - g).cos());
    let want: [[f64; 5]; 4] = [
        [0.0, 1.0, 0.0, 0.0, 0.0],
        [c, 0.0, 0.0, 0.0, -c],
        [0.0, 0.0, 0.0, 1.0, 0.0],
        [
            ph.sin() * s + c,
            2.0 * dth * ph.sin(),
            ph.cos() * (dth * dth - c),
            0.0,
            -ph.sin() * s - c,
        ],
    ];
    for (r, o) in out.iter().enumerate() {
        let g = o.eps.unwrap_generic(Const::<5>, U1);
        for k in 0..5 {
            assert!(
                close(g[k], want[r][k], 1e-15),
                "J[{r}][{k}] = {} vs {}",
                g[k],
                want[r][k]
            );
        }
    }
}

#[test]
fn derivatives_agree_with_central_differences() {
    // A composite expression: the dual derivative against a central difference with
    // h = 1e-5. Truncation error h²/6·|f'''| and rounding error ~1e-16·|f|/h are both below
    // 1e-8 for these smooth functions of moderate size, so 1e-7 relative separates a wrong
    // derivative (off by O(1)) from numerical noise.
    let m = Model::xyz();
    let src = "atan2(sin(x*y), cos(y) + 2) * exp(-x^2/2) + sqrt(abs(y) + 1) * tanh(x - y) \
               + log(1 + x^2) / (2 + cos(x)) - pow(1 + x^2, y/3) + max(x, y)^2";
    let prog = m.compile(&[src]);
    let f = |x: f64, y: f64| {
        let mut o = [0.0];
        prog.eval(0.0, &[x, y, 0.0], &[0.0; 2], &mut o);
        o[0]
    };
    let h = 1e-5;
    for (x, y) in [(0.3, 0.7), (-1.2, 0.4), (0.9, -1.1), (2.0, 1.5)] {
        let xs = [
            DualSVec64::from_re(x).derivative(0),
            DualSVec64::from_re(y).derivative(1),
            DualSVec64::<2>::from_re(0.0),
        ];
        let mut o = [DualSVec64::<2>::from_re(0.0)];
        prog.eval(
            DualSVec64::from_re(0.0),
            &xs,
            &[DualSVec64::from_re(0.0); 2],
            &mut o,
        );
        let g = o[0].eps.unwrap_generic(Const::<2>, U1);
        let dx = (f(x + h, y) - f(x - h, y)) / (2.0 * h);
        let dy = (f(x, y + h) - f(x, y - h)) / (2.0 * h);
        assert!(close(g[0], dx, 1e-7), "∂x at ({x}, {y}): {} vs {dx}", g[0]);
        assert!(close(g[1], dy, 1e-7), "∂y at ({x}, {y}): {} vs {dy}", g[1]);
        assert!(same(o[0].re, f(x, y)));
    }
}

#[test]
fn dual_real_parts_equal_f64_evaluation() {
    let m = Model::xyz();
    let src = [
        "tan(x) + tanh(y) + atan2(y, x) + x^7 + abs(x)^2.5 + x^y + sqrt(y) * exp(-x)",
        "if(x < y, asin(x/4), acos(y/4)) + min(x, y) - max(sinh(x), cosh(y)) + log(y)",
    ];
    let prog = m.compile(&src);
    for (x, y) in [(0.3, 0.7), (-1.2, 0.4), (2.9, 3.1), (1e-3, 2.0)] {
        let mut f = [0.0; 2];
        prog.eval(0.0, &[x, y, 0.0], &[0.0; 2], &mut f);
        let mut d = [Dual64::from(0.0); 2];
        let xs = [Dual64::new(x, 1.0), Dual64::new(y, -0.5), Dual64::from(0.0)];
        prog.eval(Dual64::from(0.0), &xs, &[Dual64::from(0.0); 2], &mut d);
        for k in 0..2 {
            assert!(
                same(d[k].re, f[k]),
                "output {k} at ({x}, {y}): {} vs {}",
                d[k].re,
                f[k]
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// Definitions

#[test]
fn definitions_in_any_order() {
    let m = Model::xyz();
    let defs = m
        .defs(&[
            ("v", "a2 * 2"),
            ("a2", "x + 1"),
            ("c", "v + a2 + e"),
            ("e", "pi"),
        ])
        .unwrap();
    assert_eq!(defs.names(), ["v", "a2", "c", "e"]);
    let order: Vec<&str> = defs.evaluation_order().collect();
    let pos = |n: &str| order.iter().position(|o| *o == n).unwrap();
    assert!(pos("a2") < pos("v") && pos("v") < pos("c") && pos("e") < pos("c"));
    let prog = compile(&["c", "v - a2"], &defs, &m.names()).unwrap();
    let mut out = [0.0; 2];
    prog.eval(0.0, &[2.0, 0.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out, [6.0 + 3.0 + std::f64::consts::PI, 3.0]);
}

#[test]
fn a_definition_shared_by_outputs_is_computed_once() {
    let m = Model::xyz();
    let prog = m
        .compile_with(&["s + 1", "s * y", "2 * s"], &[("s", "sin(x) * cos(y)")])
        .unwrap();
    let listing = prog.to_string();
    assert_eq!(listing.matches("sin").count(), 1, "{listing}");
    assert_eq!(listing.matches("cos").count(), 1, "{listing}");
    // Loads x, y, 1, 2; sin, cos, *, +, *, *; three stores.
    assert_eq!(prog.len(), 13, "{listing}");
    let mut out = [0.0; 3];
    prog.eval(0.0, &[0.5, 0.25, 0.0], &[0.0; 2], &mut out);
    let s = 0.5f64.sin() * 0.25f64.cos();
    assert_eq!(out, [s + 1.0, s * 0.25, 2.0 * s]);
}

#[test]
fn unused_definitions_are_not_evaluated() {
    let m = Model::xyz();
    let defs = [
        ("bad", "log(-1)"),
        ("worse", "sqrt(x - 100) + bad"),
        ("used", "x + 1"),
        ("unused_but_fine", "used * 2"),
    ];
    let prog = m.compile_with(&["used * y"], &defs).unwrap();
    let listing = prog.to_string();
    assert!(
        !listing.contains("log") && !listing.contains("sqrt"),
        "{listing}"
    );
    let mut out = [0.0];
    prog.eval(0.0, &[1.0, 2.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out, [4.0]);
    assert!(prog.diagnose(0.0, &[1.0, 2.0, 0.0], &[0.0; 2]).is_none());
    // Used through another definition, it is computed.
    let prog = m.compile_with(&["worse"], &defs).unwrap();
    prog.eval(0.0, &[1.0, 2.0, 0.0], &[0.0; 2], &mut out);
    assert!(out[0].is_nan());
}

#[test]
fn long_chain_of_definitions() {
    // 10 000 definitions d0 = x, d_k = d_{k-1} + 1, in reverse order: no recursion, few
    // registers (each value dies at its only use).
    let m = Model::xyz();
    let n = limits::MAX_DEFINITIONS;
    let defs: Vec<(String, String)> = (0..n)
        .rev()
        .map(|k| {
            let e = if k == 0 {
                "x".to_string()
            } else {
                format!("d{} + 1", k - 1)
            };
            (format!("d{k}"), e)
        })
        .collect();
    let d = Definitions::new(&defs, &m.names()).unwrap();
    let last = format!("d{}", n - 1);
    let prog = compile(&[last.as_str()], &d, &m.names()).unwrap();
    assert!(prog.slots() <= 3, "{} slots", prog.slots());
    let mut out = [0.0];
    prog.eval(0.0, &[0.5, 0.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out[0], 0.5 + (n - 1) as f64);
    let mut more = defs.clone();
    more.push(("extra".into(), "1".into()));
    let e = Definitions::new(&more, &m.names()).unwrap_err();
    assert_eq!(e.kind, ExprErrorKind::TooLarge);
}

#[test]
fn cycles_are_named() {
    let m = Model::xyz();
    let e = m.defs(&[("u", "v + 1"), ("v", "2 * u")]).unwrap_err();
    assert_eq!(
        e.kind,
        ExprErrorKind::Cycle {
            path: strings(&["u", "v", "u"])
        }
    );
    assert_eq!(e.site, Site::Definition("u".into()));
    assert_eq!((e.offset, e.len), (0, 1));
    assert_eq!(e.message, "definitions form a cycle: u -> v -> u");

    let e = m.defs(&[("u", "x + u")]).unwrap_err();
    assert_eq!(
        e.kind,
        ExprErrorKind::Cycle {
            path: strings(&["u", "u"])
        }
    );
    assert_eq!(e.offset, 4);
    assert_eq!(e.message, "definition `u` refers to itself");

    let e = m
        .defs(&[("ok", "1"), ("p", "q * ok"), ("q", "r"), ("r", "ok + p")])
        .unwrap_err();
    assert_eq!(
        e.kind,
        ExprErrorKind::Cycle {
            path: strings(&["p", "q", "r", "p"])
        }
    );
}

#[test]
fn definitions_may_not_shadow() {
    let m = Model::xyz();
    for name in ["x", "a", "t", "pi", "sin", "if", "pow"] {
        let e = m.defs(&[(name, "1")]).unwrap_err();
        assert_eq!(
            e.kind,
            ExprErrorKind::Shadowing { name: name.into() },
            "{name}"
        );
        assert_eq!(e.site, Site::Definition(name.into()));
        assert!(e.message.contains("would hide"), "{}", e.message);
    }
    let e = m.defs(&[("u", "1"), ("u", "2")]).unwrap_err();
    assert_eq!(e.kind, ExprErrorKind::Duplicate { name: "u".into() });
    for bad in ["1u", "", "u-v", "λ"] {
        let e = m.defs(&[(bad, "1")]).unwrap_err();
        assert_eq!(e.kind, ExprErrorKind::Syntax, "{bad:?}");
    }
    // An error inside a definition names it.
    let e = m.defs(&[("u", "x + gama")]).unwrap_err();
    assert_eq!(e.site, Site::Definition("u".into()));
    assert_eq!(e.offset, 4);
    // Outputs may suggest definition names.
    let e = m
        .compile_with(&["enrgy"], &[("energy", "x^2")])
        .unwrap_err();
    assert_eq!(
        e.kind,
        ExprErrorKind::UnknownName {
            name: "enrgy".into(),
            suggestions: strings(&["energy"])
        }
    );
}

#[test]
#[should_panic(expected = "other state or parameter names")]
fn definitions_belong_to_their_names() {
    let m = Model::xyz();
    let other = Model::new(&["q"], &[]);
    let defs = m.defs(&[("u", "x")]).unwrap();
    let _ = compile(&["q"], &defs, &other.names());
}

// ---------------------------------------------------------------------------------------
// Errors

#[test]
fn syntax_errors_point_at_the_problem() {
    let m = Model::xyz();
    // (source, offset, length, part of the message)
    let cases: &[(&str, usize, usize, &str)] = &[
        ("x + * y", 4, 1, "expected an operand, found `*`"),
        ("(x + 1", 0, 1, "unclosed `(`"),
        ("x + 1)", 5, 1, "unmatched `)`"),
        ("x y", 2, 1, "expected an operator before name `y`"),
        ("2x", 1, 1, "write `2*x` for a product"),
        ("", 0, 0, "empty expression"),
        ("   ", 0, 3, "empty expression"),
        ("1 +", 3, 0, "operand is missing after `+`"),
        ("sin(x", 3, 1, "unclosed `(` of `sin(`"),
        ("sin(x,)", 6, 1, "expected an operand, found `)`"),
        ("sin(x y)", 6, 1, "expected an operator before name `y`"),
        ("(x, y)", 2, 1, "unexpected `,`"),
        ("x, y", 1, 1, "unexpected `,`"),
        ("1 < 2 < 3", 6, 1, "comparisons cannot be chained"),
        ("x + 1e999", 4, 5, "`1e999` is not a finite number"),
        ("x = 1", 2, 1, "`==`"),
        ("x ** 2", 2, 2, "x^2"),
        ("sin + 1", 0, 3, "`sin` is a function"),
        ("x + λ", 4, 1, "unexpected character `λ`"),
        ("λλ + λ", 0, 1, "unexpected character `λ`"),
        ("x + \u{2212}1", 4, 1, "ASCII minus"),
        ("x +\n\ty", 5, 0, "ok"),
    ];
    for &(src, offset, len, msg) in cases {
        if msg == "ok" {
            assert!(m.compile_with(&[src], &[]).is_ok());
            let _ = (offset, len);
            continue;
        }
        let e = m.error(src);
        assert_eq!(e.kind, ExprErrorKind::Syntax, "{src:?}: {e:?}");
        assert_eq!((e.offset, e.len), (offset, len), "{src:?}: {}", e.message);
        assert!(e.message.contains(msg), "{src:?}: {}", e.message);
        assert!(!e.message.contains('\n'));
        assert_eq!(e.site, Site::Output(0));
    }
    // The site is the index of the output.
    let e = m.compile_with(&["x", "y", "z +"], &[]).unwrap_err();
    assert_eq!(e.site, Site::Output(2));
}

#[test]
fn unknown_names_and_functions_with_suggestions() {
    let m = Model::new(&["theta", "omega"], &["gamma", "g"]);
    let e = m.error("sin(theta - gama)");
    assert_eq!(
        e.kind,
        ExprErrorKind::UnknownName {
            name: "gama".into(),
            suggestions: strings(&["gamma"])
        }
    );
    assert_eq!((e.offset, e.len), (12, 4));
    assert_eq!(e.message, "unknown name `gama` (did you mean `gamma`?)");
    assert_eq!(
        e.snippet("sin(theta - gama)"),
        "sin(theta - gama)\n            ^^^^"
    );

    let e = m.error("omgea * 2");
    assert!(e.message.contains("did you mean `omega`"), "{}", e.message);
    let e = m.error("q + 1");
    match &e.kind {
        ExprErrorKind::UnknownName { name, suggestions } => {
            assert_eq!(name, "q");
            assert!(suggestions.len() <= 3);
        }
        k => panic!("{k:?}"),
    }
    let e = m.error("totally_unknown_name");
    assert_eq!(e.message, "unknown name `totally_unknown_name`");

    let e = m.error("2 * sni(theta)");
    assert_eq!(
        e.kind,
        ExprErrorKind::UnknownFunction {
            name: "sni".into(),
            suggestions: strings(&["sin"])
        }
    );
    assert_eq!((e.offset, e.len), (4, 3));
    assert_eq!(e.message, "unknown function `sni` (did you mean `sin`?)");
    let e = m.error("theta(2)");
    assert!(
        e.message.starts_with("`theta` is not a function"),
        "{}",
        e.message
    );
    let e = m.error("ln(theta)");
    assert!(matches!(e.kind, ExprErrorKind::UnknownFunction { .. }));
}

#[test]
fn arity_errors() {
    let m = Model::xyz();
    for (src, f, expected, got) in [
        ("atan2(1)", "atan2", 2, 1),
        ("sin(1, 2)", "sin", 1, 2),
        ("if(x, 1)", "if", 3, 2),
        ("pow(x)", "pow", 2, 1),
        ("max()", "max", 2, 0),
        ("1 + exp()", "exp", 1, 0),
    ] {
        let e = m.error(src);
        assert_eq!(
            e.kind,
            ExprErrorKind::Arity {
                function: f.into(),
                expected,
                got
            },
            "{src}"
        );
        let plural = if expected == 1 { "" } else { "s" };
        assert_eq!(
            e.message,
            format!("`{f}` takes {expected} argument{plural}, got {got}")
        );
    }
    assert_eq!(m.error("1 + exp()").offset, 4);
}

#[test]
fn nesting_limits_without_stack_overflow() {
    let m = Model::xyz();
    let d = limits::MAX_DEPTH;
    let nest =
        |open: &str, close: &str, n: usize| format!("{}x{}", open.repeat(n), close.repeat(n));
    // Exactly the limit is fine, one more is refused cleanly.
    for (open, close) in [
        ("(", ")"),
        ("sin(", ")"),
        ("-", ""),
        ("2^", ""),
        ("if(1,", ",0)"),
    ] {
        let ok = nest(open, close, d);
        assert!(m.compile_with(&[&ok], &[]).is_ok(), "{open}… × {d}");
        let e = m.error(&nest(open, close, d + 1));
        assert_eq!(e.kind, ExprErrorKind::TooLarge, "{open}");
        assert!(e.message.contains("nested more than 200"), "{}", e.message);
        // Far deeper input never recurses deeper than the limit.
        let e = m.error(&nest(open, close, 10_000));
        assert_eq!(e.kind, ExprErrorKind::TooLarge);
    }
    // The refusal points at the first token beyond the limit.
    let e = m.error(&nest("(", ")", 300));
    assert_eq!(e.offset, d);
    // 200 nested levels evaluate correctly.
    let mut out = [0.0];
    m.compile(&[&nest("-", "", d)])
        .eval(0.0, &[1.5, 0.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out[0], 1.5);
}

#[test]
fn deepest_input_fits_a_small_stack() {
    // Parsing is iterative; compiling, diagnosing and dropping recurse over the tree, whose
    // depth the nesting limit bounds. At the limit this takes under 256 KiB of stack in the
    // test profile (measured: under 128 KiB; under 384 KiB at opt-level 0), threads get
    // 2 MiB by default.
    let run = || {
        let m = Model::xyz();
        let d = limits::MAX_DEPTH;
        for (open, close) in [
            ("(", ")"),
            ("log(", ")"),
            ("-", ""),
            ("x^", ""),
            ("if(x,", ",0)"),
        ] {
            let src = format!("{}x{}", open.repeat(d), close.repeat(d));
            let p = m.compile(&[&src]);
            let _ = p.diagnose(0.0, &[-1.0, 0.0, 0.0], &[0.0; 2]);
            let deeper = format!("{}x{}", open.repeat(10_000), close.repeat(10_000));
            let _ = m.compile_with(&[&deeper], &[]).unwrap_err();
        }
    };
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn size_limits() {
    let m = Model::xyz();
    // A long flat sum is fine (it is a loop, not a recursion).
    let sum = vec!["x"; 30_000].join("+");
    let prog = m.compile(&[&sum]);
    let mut out = [0.0];
    prog.eval(0.0, &[1.0, 0.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out[0], 30_000.0);
    // Too many characters.
    let long = format!("x{}", " ".repeat(limits::MAX_SOURCE_CHARS));
    let e = m.error(&long);
    assert_eq!(e.kind, ExprErrorKind::TooLarge);
    assert!(e.message.contains("100000"), "{}", e.message);
    // Too many instructions: four different sums of 30 000 terms.
    let sums: Vec<String> = ["x", "y", "z", "a"]
        .iter()
        .map(|v| vec![*v; 30_000].join("+"))
        .collect();
    let refs: Vec<&str> = sums.iter().map(String::as_str).collect();
    let e = m.compile_with(&refs, &[]).unwrap_err();
    assert_eq!(e.kind, ExprErrorKind::TooLarge);
    assert_eq!(e.site, Site::Output(3));
    // Hostile but small inputs are plain errors.
    for src in [
        "((((((",
        "))))",
        "(((1)",
        ",,,",
        "^^^",
        "\u{0}",
        "1e",
        "9".repeat(400).as_str(),
    ] {
        let r = m.compile_with(&[src], &[]);
        if src.starts_with('9') {
            // 400 nines: 1e400 is not finite.
            assert!(r.unwrap_err().message.contains("not a finite number"));
        } else {
            assert!(r.is_err(), "{src:?}");
        }
    }
}

#[test]
fn registers_stay_few_and_tiers_are_used() {
    let m = Model::xyz();
    // The nine inputs and constants are loaded first; temporaries reuse their registers as
    // soon as they are dead.
    let p = m.compile(&["((x + 1) * (y + 2) - (z + 3) / (a + 4)) ^ 2 + sin(b)"]);
    assert_eq!(p.slots(), 9, "{p}");
    // 100 definitions are all computed before the output that sums them: ~100 registers.
    let params: Vec<String> = (0..100).map(|k| format!("p{k}")).collect();
    let names = Names {
        states: &[],
        params: &params,
    };
    let defs: Vec<(String, String)> = (0..100)
        .map(|k| (format!("d{k}"), format!("2 * p{k}")))
        .collect();
    let defs = Definitions::new(&defs, &names).unwrap();
    let sum: Vec<String> = (0..100).map(|k| format!("d{k}")).collect();
    let prog = compile(&[&sum.join(" + ")], &defs, &names).unwrap();
    assert!((65..=256).contains(&prog.slots()), "{}", prog.slots());
    let p: Vec<f64> = (0..100).map(f64::from).collect();
    let mut out = [0.0];
    prog.eval(0.0, &[], &p, &mut out);
    assert_eq!(out[0], 9900.0);
    // Right-nested sums keep every left operand alive.
    let terms: String = (1..=40).map(|k| format!("x*{k} + (")).collect();
    let nested = format!("{terms}x{}", ")".repeat(40));
    let prog = m.compile(&[&nested]);
    assert!((17..=64).contains(&prog.slots()), "{}", prog.slots());
    prog.eval(0.0, &[1.0, 0.0, 0.0], &[0.0; 2], &mut out);
    assert_eq!(out[0], 821.0);
}

// ---------------------------------------------------------------------------------------
// Diagnosis

#[test]
fn diagnose_names_the_failing_sub_expression() {
    let m = Model::xyz();
    let p = m.compile(&["x", "2 * log(x) + 1"]);
    assert!(p.diagnose(0.0, &[1.0, 0.0, 0.0], &[0.0; 2]).is_none());
    let d = p.diagnose(0.0, &[-1.0, 0.0, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(d.output, 1);
    assert!(d.value.is_nan());
    assert_eq!(d.site, Site::Output(1));
    assert_eq!(d.expression, "log(x)");
    assert_eq!(d.offset, 4);
    assert!(d.expression_value.is_nan());

    let p = m.compile(&["y + 1/(x - y)"]);
    let d = p.diagnose(0.0, &[0.5, 0.5, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(
        (d.output, d.expression.as_str(), d.offset),
        (0, "1/(x - y)", 4)
    );
    assert_eq!(d.value, f64::INFINITY);
    assert_eq!(
        d.to_string(),
        "output 0 is inf: `1/(x - y)` in expression 0 is inf"
    );

    let p = m.compile(&["1/(x - y)"]);
    let d = p.diagnose(0.0, &[0.5, 0.5, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(d.expression, "1/(x - y)");
}

#[test]
fn diagnose_inside_definitions_branches_and_chains() {
    let m = Model::xyz();
    let p = m
        .compile_with(
            &["x", "v * 2 + w"],
            &[("w", "1"), ("v", "u + 1"), ("u", "sqrt(x - 2)")],
        )
        .unwrap();
    let d = p.diagnose(0.0, &[1.0, 0.0, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(d.output, 1);
    assert_eq!(d.site, Site::Definition("u".into()));
    assert_eq!((d.expression.as_str(), d.offset), ("sqrt(x - 2)", 0));

    let p = m.compile(&["if(x > 0, log(x - 5), 1)"]);
    assert!(p.diagnose(0.0, &[-1.0, 0.0, 0.0], &[0.0; 2]).is_none());
    let d = p.diagnose(0.0, &[1.0, 0.0, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(d.expression, "log(x - 5)");

    // A product that overflows part-way.
    let p = m.compile(&["x * 1e308 * 10 * 2 - 1"]);
    let d = p.diagnose(0.0, &[1.0, 0.0, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(d.expression, "x * 1e308 * 10");
    assert_eq!(d.expression_value, f64::INFINITY);

    // A non-finite input is named itself.
    let p = m.compile(&["sin(y) + z * 2"]);
    let d = p.diagnose(0.0, &[0.0, 1.0, f64::NAN], &[0.0; 2]).unwrap();
    assert_eq!((d.expression.as_str(), d.offset), ("z", 9));

    // A finite intermediate infinity (atan of ∞) is not blamed; the later failure is.
    let p = m.compile(&["atan(1/x) + log(y)"]);
    let d = p.diagnose(0.0, &[0.0, -1.0, 0.0], &[0.0; 2]).unwrap();
    assert_eq!(d.expression, "log(y)");
}

// ---------------------------------------------------------------------------------------
// Cost

/// Time per evaluation of the walker field, printed (not asserted: machines differ). Run with
/// `cargo test -p saltation-equations --release -- --ignored --nocapture walker_eval_cost`.
#[test]
#[ignore = "timing; run explicitly in release"]
fn walker_eval_cost() {
    use std::hint::black_box;
    use std::time::Instant;
    let m = Model::new(&["th", "dth", "ph", "dph"], &["gamma"]);
    let prog = m.compile(&[
        "dth",
        "sin(th - gamma)",
        "dph",
        "sin(ph)*(dth^2 - cos(th - gamma)) + sin(th - gamma)",
    ]);
    let hand = |x: &[f64; 4], g: f64, out: &mut [f64; 4]| {
        let [th, dth, ph, dph] = *x;
        let s = (th - g).sin();
        *out = [dth, s, dph, ph.sin() * (dth * dth - (th - g).cos()) + s];
    };
    let n = 400_000;
    let xs: Vec<[f64; 4]> = (0..64)
        .map(|k| {
            let k = k as f64;
            [0.2 + 1e-3 * k, -0.2, 0.4 - 1e-3 * k, 0.01 * k]
        })
        .collect();
    // Best of 7 runs: the machine may be busy with other work.
    let best = |f: &mut dyn FnMut(usize) -> f64| {
        let mut acc = 0.0;
        let mut t_min = f64::INFINITY;
        for _ in 0..7 {
            acc = 0.0;
            let t0 = Instant::now();
            for i in 0..n {
                acc += f(i);
            }
            t_min = t_min.min(t0.elapsed().as_nanos() as f64 / n as f64);
        }
        (t_min, acc)
    };
    let mut out = [0.0; 4];
    let (t_prog, a_prog) = best(&mut |i| {
        prog.eval(0.0, black_box(&xs[i % 64]), &[0.009], &mut out);
        black_box(out)[3]
    });
    let (t_hand, a_hand) = best(&mut |i| {
        hand(black_box(&xs[i % 64]), 0.009, &mut out);
        black_box(out)[3]
    });
    assert_eq!(a_prog, a_hand);
    let mut outd = [Dual64::from(0.0); 4];
    let (t_dual, _) = best(&mut |i| {
        let x = xs[i % 64].map(Dual64::from);
        prog.eval(
            Dual64::from(0.0),
            black_box(&x),
            &[Dual64::new(0.009, 1.0)],
            &mut outd,
        );
        black_box(outd)[3].eps
    });
    let mut outs = [DualSVec64::<5>::from_re(0.0); 4];
    let (t_svec, _) = best(&mut |i| {
        let x0 = xs[i % 64];
        let x: [DualSVec64<5>; 4] =
            std::array::from_fn(|k| DualSVec64::from_re(x0[k]).derivative(k));
        let p = [DualSVec64::from_re(0.009).derivative(4)];
        prog.eval(DualSVec64::from_re(0.0), black_box(&x), &p, &mut outs);
        black_box(&outs)[3].re
    });
    println!(
        "walker field, {} instructions, {} registers:\n  eval::<f64>            {t_prog:6.1} ns\n  hand-written f64       {t_hand:6.1} ns\n  eval::<Dual64>         {t_dual:6.1} ns\n  eval::<DualSVec64<5>>  {t_svec:6.1} ns (full Jacobian incl. ∂/∂γ)",
        prog.len(),
        prog.slots()
    );
}
