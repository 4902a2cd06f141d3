//! Errors and limits: syntax, names, arity, nesting, sizes, registers.

use super::*;

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
    // depth the nesting limit bounds. At the limit this takes under 512 KiB of stack in every
    // profile (measured: under 384 KiB unoptimised, as the test profile builds it; under
    // 128 KiB at opt-level 1), a quarter of the 2 MiB a thread gets by default.
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
        .stack_size(512 * 1024)
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

#[test]
fn constant_parts_that_are_not_finite_are_refused_where_they_stand() {
    let m = Model::xyz();
    // (source, offset and length of the innermost non-finite constant, its value)
    let cases: &[(&str, usize, usize, f64)] = &[
        ("log(-1) + x", 0, 7, f64::NAN),
        ("x + 1/0", 4, 3, f64::INFINITY),
        ("y * (0/0)", 4, 5, f64::NAN),
        ("sqrt(-1)", 0, 8, f64::NAN),
        ("x - asin(2)", 4, 7, f64::NAN),
        ("pow(10, 400) * x", 0, 12, f64::INFINITY),
        ("x + -exp(1000)", 5, 9, f64::INFINITY),
        ("10^400", 0, 6, f64::INFINITY),
    ];
    for &(src, offset, len, value) in cases {
        let e = m.error(src);
        match e.kind {
            ExprErrorKind::NotFinite { value: v } => assert!(same(v, value), "{src}: {v}"),
            _ => panic!("{src}: {e:?}"),
        }
        assert_eq!((e.offset, e.len), (offset, len), "{src}: {e}");
        assert!(e.message.contains("numbers alone"), "{e}");
        let part: String = src.chars().skip(offset).take(len).collect();
        assert!(e.message.starts_with(&format!("`{part}` ")), "{e}");
    }
    // A definition is refused in its own text; a branch not taken is not evaluated, and a
    // state makes the value depend on the state (NaN at run time is diagnosed there).
    let e = m
        .compile_with(&["x + k"], &[("k", "2*log(0)")])
        .unwrap_err();
    assert_eq!(e.site, Site::Definition("k".into()));
    assert_eq!((e.offset, e.len), (2, 6));
    let prog = m.compile(&["if(1, x, 0/0) + log(-x)"]);
    let mut out = [0.0];
    prog.eval(0.0, &[-2.0, 0.0, 0.0], &[0.0; 2], &mut out);
    assert!(same(out[0], -2.0 + 2f64.ln()), "{}", out[0]);
    // A branch on the state may mark a region as undefined on purpose.
    let prog = m.compile(&["if(x < 1, x, 0/0)"]);
    prog.eval(0.0, &[2.0, 0.0, 0.0], &[0.0; 2], &mut out);
    assert!(out[0].is_nan());
    let e = m.error("if(0/0 < x, x, 1)");
    assert!(matches!(e.kind, ExprErrorKind::NotFinite { .. }), "{e:?}");
}
