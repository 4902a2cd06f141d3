//! Definitions: order, sharing, cycles and shadowing.

use super::*;

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
        ("bad", "log(-y - 1)"),
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
