//! No allocation per step.

use super::*;

#[test]
fn steps_do_not_allocate() {
    let mut opts = SolverOptions {
        rtol: 1e-6,
        atol: Atol::Vector(vec![1e-12, 1e-16, 1e-12]),
        ..Default::default()
    };
    // Keep J while the iteration contracts (MATLAB's rule): the failure path is exercised too.
    opts.newton.jacobian_reuse = Some(0.5);
    for (method, dae) in [
        (Method::Trapezoid, false),
        (Method::Trapezoid, true),
        (Method::Trbdf2, false),
    ] {
        let sys = Robertson {
            dae,
            jacobian: true,
        };
        let mut stepper = method.stepper();
        let mut stats = Stats::default();
        stepper
            .start(&sys, 0.0, &[1.0, 0.0, 0.0], &opts, &mut stats)
            .unwrap();
        let mut out = [0.0; 3];
        let before = allocations();
        while stepper.t() < 40.0 {
            stepper.step(&sys, 40.0, &opts, &mut stats).unwrap();
            let e = stepper.ends();
            let tm = 0.5 * (e.t0 + e.t1);
            stepper.dense(&sys, tm, &mut out, &mut stats);
        }
        assert_eq!(allocations(), before, "{method:?}: {stats:?}");
        assert!(stats.steps > 50 && stats.newton_failures > 0, "{stats:?}");
    }
}
