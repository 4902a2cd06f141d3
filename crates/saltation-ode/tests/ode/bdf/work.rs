//! Work counters and allocation.

use saltation_ode::{Ivp, SolverOptions, Stepper};

use super::stiff::VectorProtheroRobinson;
use super::{robertson_opts, FAMILIES};
use crate::common::{allocations, Robertson};

/// With the system's own Jacobian every evaluation of `f` is accounted for: one at the start,
/// one in the initial-step estimate, one per Newton iteration and one at the end of every
/// accepted step (`f(t₁, y₁)` of [`Stepper::ends`]); with finite differences `n` more per
/// Jacobian. The Jacobian is re-evaluated only after a Newton failure with an old one.
#[test]
fn work_counters_account_for_every_evaluation() {
    for method in FAMILIES {
        let sol = Ivp::new(
            &VectorProtheroRobinson,
            0.0,
            &VectorProtheroRobinson::exact(0.0),
        )
        .solve(method, 2.0, &SolverOptions::with_tol(1e-8))
        .unwrap();
        let s = sol.stats;
        assert_eq!(s.rhs_evals, 2 + s.newton_iters + s.steps, "{s:?}");
        assert_eq!(s.jacobian_evals, 1);
        assert!(
            s.lu_decompositions >= 2 && s.lu_decompositions < s.steps,
            "{s:?}"
        );
        assert!(s.newton_iters >= s.steps);
        let sol = Ivp::new(&Robertson::ODE, 0.0, &[1.0, 0.0, 0.0])
            .solve(method, 40.0, &robertson_opts(1e-7))
            .unwrap();
        let s = sol.stats;
        assert_eq!(
            s.rhs_evals,
            2 + s.newton_iters + s.steps + 3 * s.jacobian_evals,
            "{s:?}"
        );
        assert!(s.jacobian_evals <= s.newton_failures + 1, "{s:?}");
        assert!(s.rejected_steps >= s.newton_failures);
        println!("{} Robertson counters: {s:?}", method.name());
    }
}

/// `Stepper::step` allocates nothing: over a stiff run with rejections, order changes,
/// Jacobian refreshes, dense output and a restart after a truncation.
#[test]
fn steps_do_not_allocate() {
    for method in FAMILIES {
        let opts = robertson_opts(1e-8);
        let mut s = method.stepper();
        let mut stats = Default::default();
        let y0 = [1.0, 0.0, 0.0];
        s.start(&Robertson::ODE, 0.0, &y0, &opts, &mut stats)
            .unwrap();
        let mut out = [0.0; 3];
        let before = allocations();
        let mut cut = false;
        while s.t() < 40.0 {
            s.step(&Robertson::ODE, 40.0, &opts, &mut stats).unwrap();
            let e = s.ends();
            let tm = 0.5 * (e.t0 + e.t1);
            s.dense(&Robertson::ODE, tm, &mut out, &mut stats);
            if !cut && s.t() > 1.0 {
                s.truncate(&Robertson::ODE, tm, &out, &mut stats);
                cut = true;
            }
        }
        let after = allocations();
        assert_eq!(
            after - before,
            0,
            "{} allocated in {} steps",
            method.name(),
            stats.steps
        );
        assert!(
            stats.rejected_steps > 0 && stats.jacobian_evals > 1,
            "{stats:?}"
        );
    }
}
