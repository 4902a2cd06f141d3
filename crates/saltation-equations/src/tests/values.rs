//! Values: every operator, function and branch against `std`.

use super::*;

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
            // Constant arguments are folded with the same kernels; a folded value that is not
            // finite is refused where it stands.
            let src = format!("{name}({x:?})");
            if f(x).is_finite() {
                let folded = value_at(&src, 0.0);
                assert!(same(folded, f(x)), "{src} folded: {folded}");
            } else {
                let e = Model::xyz().error(&src);
                assert!(
                    matches!(e.kind, ExprErrorKind::NotFinite { value } if same(value, f(x))),
                    "{src}: {e:?}"
                );
                assert_eq!((e.offset, e.len), (0, src.chars().count()), "{src}");
            }
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

#[test]
fn floor_mod_and_wrap_compiled_folded_and_differentiated() {
    use std::f64::consts::PI;
    // Compiled (a state argument) and folded (constant arguments) give the same values.
    let cases: &[(&str, f64, f64)] = &[
        ("floor(x)", 2.7, 2.0),
        ("floor(x)", -0.5, -1.0),
        ("mod(x, 2)", 7.5, 1.5),
        ("mod(x, 2)", -0.5, 1.5),
        ("mod(x, -2)", 0.5, -1.5),
        ("wrap(x)", 3.0 * PI + 0.25, -PI + 0.25),
        ("wrap(x)", PI, PI),
        ("wrap(x)", -7.0, -7.0 + 2.0 * PI),
    ];
    for &(src, x, want) in cases {
        let got = value_at(src, x);
        assert!(close(got, want, 1e-15), "{src} at {x}: {got} vs {want}");
        let folded = value_at(&src.replace('x', &format!("({x:?})")), 0.0);
        assert!(
            same(got, folded),
            "{src} at {x}: compiled {got}, folded {folded}"
        );
    }
    assert!(value_at("mod(x, 0)", 1.0).is_nan());
    // Derivatives: floor 0, mod 1 in its first argument and −⌊a/b⌋ in its second, wrap 1.
    assert_eq!(dual_at("floor(x)", 2.7).eps, 0.0);
    assert_eq!(dual_at("mod(x, 2)", 7.5).eps, 1.0);
    assert_eq!(dual_at("mod(7.5, x)", 2.0).eps, -3.0);
    assert_eq!(dual_at("wrap(3*x)", 4.0).eps, 3.0);
}
