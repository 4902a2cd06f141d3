//! Bad cases.

use super::*;

#[test]
fn bad_input_ends_with_typed_errors() {
    let nan_at_start = FnSystem::new(1, |_t, _y: &[f64], dy: &mut [f64]| dy[0] = f64::NAN);
    let nan_later = FnSystem::new(1, |t: f64, y: &[f64], dy: &mut [f64]| {
        dy[0] = if t > 0.5 { f64::NAN } else { -y[0] };
    });
    // 0 = y₁ does not determine y₂: the iteration matrix is singular for every h (index > 1).
    struct NotIndexOne;
    impl OdeSystem for NotIndexOne {
        fn dim(&self) -> usize {
            2
        }
        fn rhs(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
            dy[0] = y[0];
            dy[1] = y[0];
        }
        fn mass_matrix(&self) -> Option<Vec<f64>> {
            Some(vec![1.0, 0.0, 0.0, 0.0])
        }
    }
    // A jump of f across y = 0: the implicit equation of a large fixed step has no solution.
    let jump = FnSystem::new(1, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = if y[0] > 0.0 { -1e3 } else { 1e3 };
    });
    for method in METHODS {
        let o = SolverOptions::default();
        let r = Ivp::new(&nan_at_start, 0.0, &[1.0]).solve(method, 1.0, &o);
        assert!(
            matches!(r, Err(OdeError::NonFiniteRhs { t: 0.0 })),
            "{method:?}"
        );
        let r = Ivp::new(&nan_later, 0.0, &[1.0]).solve(method, 1.0, &o);
        assert!(
            matches!(r, Err(OdeError::NonFinite { t, .. }) if t <= 0.5 && t > 0.4),
            "{method:?}: {:?}",
            r.map(|s| s.t)
        );
        let r = Ivp::new(&smooth(), 0.0, &[1.0, 2.0]).solve(method, 1.0, &o);
        assert!(
            matches!(r, Err(OdeError::DimensionMismatch { .. })),
            "{method:?}"
        );
        let r = Ivp::new(&smooth(), 0.0, &[1.0, f64::NAN, 0.0]).solve(method, 1.0, &o);
        assert!(
            matches!(r, Err(OdeError::NonFiniteInitial { .. })),
            "{method:?}"
        );
        let fixed = SolverOptions {
            h_fixed: Some(0.1),
            ..Default::default()
        };
        let r = Ivp::new(&jump, 0.0, &[0.01]).solve(method, 1.0, &fixed);
        assert!(
            matches!(r, Err(OdeError::NewtonFailed { t: 0.0, .. })),
            "{method:?}: {:?}",
            r.map(|s| s.t)
        );
    }
    let r = Ivp::new(&NotIndexOne, 0.0, &[1.0, 0.0]).solve(
        Method::Trapezoid,
        1.0,
        &SolverOptions::default(),
    );
    assert!(
        matches!(r, Err(OdeError::SingularMatrix { t: 0.0, .. })),
        "{:?}",
        r.map(|s| s.t)
    );
}
