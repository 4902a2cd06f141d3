// TEMPORARY scratch (helper investigation); will be deleted.
use saltation::continuation::OrbitDiagramOptions;
use saltation::hybrid::{simulate, HybridModel, JacobianKind, SimulateOptions, StrideMap};
use saltation::models::{SimplestWalker, SimplestWalkerParams};

fn main() {
    let g: f64 = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(0.015075187969924813);
    let w = SimplestWalker {
        params: SimplestWalkerParams { gamma: g },
    };
    let opts = OrbitDiagramOptions::default();
    let mut map = StrideMap::new(&w, opts.stride.clone()).unwrap();
    let mut x: Vec<f64> = std::env::args()
        .nth(2)
        .map(|s| s.split(",").map(|v| v.trim().parse().unwrap()).collect())
        .unwrap_or(vec![0.2469, -0.2400, 0.4938, -0.0287]);
    let mut k = 0;
    loop {
        match map.eval(&x, JacobianKind::None) {
            Ok(r) => {
                x = r.x;
                k += 1;
                if k > 400 {
                    println!("no failure");
                    return;
                }
            }
            Err(e) => {
                println!("stride {k} failed: {e}; start x = {x:?}");
                break;
            }
        }
    }
    let sim = SimulateOptions {
        stride: opts.stride.clone(),
        strides: 1,
        dt: None,
    };
    let tr = simulate(&w, &x, &sim).unwrap();
    println!("failure {:?}", tr.failure);
    let mut prev = f64::NAN;
    for (t, s) in tr.t.iter().zip(&tr.x) {
        let h = s[2] - 2.0 * s[0];
        let mark = if prev.signum() != h.signum() {
            " <-- h sign change"
        } else {
            ""
        };
        println!(
            "t={t:.6} theta={:+.6} phi={:+.6} h={:+.3e}{mark}",
            s[0], s[2], h
        );
        prev = h;
    }
    let _ = w.dim();
}
