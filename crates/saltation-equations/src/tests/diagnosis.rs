//! Diagnosis of non-finite values, and the evaluation cost.

use super::*;

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
