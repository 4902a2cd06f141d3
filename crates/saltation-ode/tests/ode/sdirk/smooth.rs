//! Smooth problem with a closed form: y₁' = y₁ cos t, and a harmonic pair.

use super::*;

#[test]
fn constant_steps_converge_at_order_two_with_dense_output() {
    for method in METHODS {
        let counts = [40, 80, 160, 320];
        let errs: Vec<(f64, f64, f64)> = counts
            .iter()
            .map(|&n| {
                let (e, d) = fixed_step_errors(method, &smooth(), n);
                (T_END / n as f64, e, d)
            })
            .collect();
        let p = slope(&errs.iter().map(|e| (e.0, e.1)).collect::<Vec<_>>());
        let q = slope(&errs.iter().map(|e| (e.0, e.2)).collect::<Vec<_>>());
        let table: Vec<String> = errs
            .iter()
            .map(|(h, e, d)| format!("h {h:.3e}: {e:.3e}, dense {d:.3e}"))
            .collect();
        println!("{method:?}: order {p:.3}, dense order {q:.3}; {table:?}");
        assert!((p - 2.0).abs() <= 0.3, "{method:?} order {p}: {errs:?}");
        assert!(
            (q - 2.0).abs() <= 0.3,
            "{method:?} dense order {q}: {errs:?}"
        );
    }
}
