//! The Arenstorf orbit (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.0, eq. (0.1)): a periodic
//! orbit of the restricted three-body problem with period
//! `T = 17.0652165601579625588917206249`, the classic test for high-order pairs.

use saltation::ode::{FnSystem, Ivp, Method, SolverOptions};

const MU: f64 = 0.012277471;
// Published to 30 digits; only the first 17 are representable.
#[allow(clippy::excessive_precision)]
const PERIOD: f64 = 17.065_216_560_157_962_558_891_720_624_9;
#[allow(clippy::excessive_precision)]
const Y0: [f64; 4] = [0.994, 0.0, 0.0, -2.001_585_106_379_082_522_405_378_622_24];

fn arenstorf() -> FnSystem<impl Fn(f64, &[f64], &mut [f64])> {
    FnSystem::new(4, |_t: f64, y: &[f64], dy: &mut [f64]| {
        let mu1 = 1.0 - MU;
        let d1 = ((y[0] + MU).powi(2) + y[1].powi(2)).powf(1.5);
        let d2 = ((y[0] - mu1).powi(2) + y[1].powi(2)).powf(1.5);
        dy[0] = y[2];
        dy[1] = y[3];
        dy[2] = y[0] + 2.0 * y[3] - mu1 * (y[0] + MU) / d1 - MU * (y[0] - mu1) / d2;
        dy[3] = y[1] - 2.0 * y[2] - mu1 * y[1] / d1 - MU * y[1] / d2;
    })
}

#[test]
fn dop853_returns_to_the_start_after_one_period() {
    let sys = arenstorf();
    let sol = Ivp::new(&sys, 0.0, &Y0)
        .solve(Method::Dop853, PERIOD, &SolverOptions::with_tol(1e-12))
        .unwrap();
    let dist = (0..4).map(|i| (sol.y[i] - Y0[i]).abs()).fold(0.0, f64::max);
    assert!(
        dist < 1e-7,
        "distance from the start after one period: {dist:e}"
    );
    assert!(
        sol.stats.rejected_steps > 0,
        "the close approaches force rejections"
    );
}

#[test]
fn dp5_is_less_accurate_than_dop853_at_equal_tolerance() {
    let sys = arenstorf();
    let err = |m: Method| {
        let s = Ivp::new(&sys, 0.0, &Y0)
            .solve(m, PERIOD, &SolverOptions::with_tol(1e-8))
            .unwrap();
        (
            (0..4).map(|i| (s.y[i] - Y0[i]).abs()).fold(0.0, f64::max),
            s.stats.rhs_evals,
        )
    };
    let (e8, n8) = err(Method::Dop853);
    let (e5, n5) = err(Method::Dp5);
    assert!(e8 < 1e-4 && e5 < 1e-1, "dop853 {e8:e}, dp5 {e5:e}");
    assert!(
        n8 < n5,
        "dop853 should need fewer evaluations: {n8} vs {n5}"
    );
}
