//! [`Sampling::StepsAndGrid`]: every accepted step and a grid from the dense output, in
//! order, against the two samplings it combines and the closed form.

use saltation_ode::{FnSystem, Ivp, Method, Sampling, SolverOptions};

fn oscillator() -> FnSystem<impl Fn(f64, &[f64], &mut [f64])> {
    FnSystem::new(2, |_t, y: &[f64], dy: &mut [f64]| {
        dy[0] = y[1];
        dy[1] = -y[0];
    })
}

#[test]
fn steps_and_grid_is_the_union_of_the_steps_and_the_grid() {
    let osc = oscillator();
    let opts = SolverOptions::with_tol(1e-10);
    for method in [Method::Dp5, Method::Radau5, Method::Ndf] {
        let run = |sampling| {
            Ivp::new(&osc, 0.0, &[1.0, 0.0])
                .sampling(sampling)
                .solve(method, 10.0, &opts)
                .unwrap()
                .trajectory
        };
        let steps = run(Sampling::Steps);
        let grid = run(Sampling::Grid {
            start: 0.0,
            dt: 0.01,
            end: 10.0,
        });
        let both = run(Sampling::StepsAndGrid {
            start: 0.0,
            dt: 0.01,
            end: 10.0,
        });
        assert!(
            both.t.windows(2).all(|w| w[1] > w[0]),
            "{method:?}: not increasing"
        );
        let has = |t: f64| both.t.binary_search_by(|s| s.total_cmp(&t)).is_ok();
        assert!(
            steps.t.iter().all(|&t| has(t)),
            "{method:?}: a step is missing"
        );
        assert!(
            grid.t.iter().all(|&t| has(t)),
            "{method:?}: a grid time is missing"
        );
        // Nothing else: the union, each time once.
        let mut union: Vec<f64> = steps.t.iter().chain(&grid.t).copied().collect();
        union.sort_by(f64::total_cmp);
        union.dedup();
        assert_eq!(both.len(), union.len(), "{method:?}");
        assert_eq!(grid.len(), 1001, "{method:?}");
        for k in 0..both.len() {
            let t = both.t[k];
            let err = (both.state(k)[0] - t.cos()).abs();
            assert!(err < 1e-7, "{method:?}: x({t}) off by {err:e}");
        }
    }
}
