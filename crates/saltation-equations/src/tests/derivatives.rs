//! Derivatives: every function and operator in dual numbers, against closed forms and differences.

use super::*;

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
