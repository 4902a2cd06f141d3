mod common;
use common::*;
use nalgebra::DMatrix;
use saltation_orbit::{eigenvalues_with, EigenBackend};
#[test]
fn stress() {
    let mut rng = Rng::new(1);
    let mut fails = 0; let mut worst: f64 = 0.0; let mut count = 0;
    for t in 0..60000 {
        let n = 2 + (rng.next_u64() % 11) as usize;
        let kind = t % 4;
        let a = DMatrix::from_fn(n, n, |_, _| {
            let u = rng.next_u64() % 5;
            match kind { 0 => [0.0, 0.0, 1.0, -1.0, 0.0][u as usize], 1 => [0.0,0.0,0.0,1.0,2.0][u as usize], 2 => (u as f64 - 2.0) * 10f64.powi((rng.next_u64()%20) as i32 - 10), _ => if u == 0 {1.0} else {0.0} }
        });
        match eigenvalues_with(&a, EigenBackend::Native) {
            Ok(ev) => {
                for l in &ev { let be = relative_backward_error(&a, *l); if a.norm() > 0.0 { worst = worst.max(be); if be > 1e-13 { count += 1; if count < 5 { eprintln!("be {be:e} kind {kind} {a}"); } } } }
            }
            Err(e) => { fails += 1; eprintln!("{e} {a}"); }
        }
    }
    eprintln!("fails {fails} worst {worst:e} over1e-13 {count}");
}
