//! Bad input gives typed errors, never panics: a walker that falls, a NaN state, a guard met
//! tangentially (grazing).

use super::shipped;
use saltation_hybrid::{
    GuardInfo, HybridError, HybridModel, JacobianKind, Scalar, StrideMap, StrideOptions,
};
use saltation_ode::{Direction, SolverOptions};
use saltation_orbit::{find_periodic_orbit, NewtonError, OrbitError};

/// The errors that say "the walker fell".
fn fell(e: &HybridError) -> bool {
    matches!(
        e,
        HybridError::Failure { mode: 0, .. } | HybridError::GuardNotReached { mode: 0, .. }
    )
}

#[test]
fn walker_that_falls_gives_typed_errors() {
    let mf = shipped("simplest_walker");
    let opts = mf.orbit_options();
    let mut map = StrideMap::new(&mf.model, opts.stride.clone()).unwrap();
    let mut x = vec![0.0; 4];
    // Rolling backwards (θ̇ > 0), much too fast forwards, leg far past horizontal: the walker
    // falls. With a fall guard in the model that is `Failure`; without one, no heel-strike
    // happens within t_max (`GuardNotReached`).
    for u in [[0.2, 0.5], [0.2, -5.0], [1.5, 0.0]] {
        mf.model.chart(&u, &mut x);
        for kind in [JacobianKind::None, JacobianKind::StrideMap] {
            let r = map.eval(&x, kind);
            assert!(
                matches!(&r, Err(e) if fell(e)),
                "stride from {u:?}: {:?}",
                r.map(|r| r.x)
            );
        }
        let o = find_periodic_orbit(&mf.model, &u, &opts);
        assert!(
            matches!(&o, Err(OrbitError::Hybrid(e)) if fell(e)),
            "orbit from {u:?}: {:?}",
            o.map(|o| o.u0)
        );
    }
    // A guess far from any gait: one stride exists, but Newton's iterates leave the region
    // where heel-strike happens; the failure is typed whichever way it ends.
    let o = find_periodic_orbit(&mf.model, &[-0.3, 0.1], &opts);
    assert!(
        matches!(o, Err(OrbitError::Hybrid(_) | OrbitError::Newton(_))),
        "{:?}",
        o.map(|o| o.u0)
    );
}

#[test]
fn nan_state_is_non_finite() {
    let mf = shipped("simplest_walker");
    let mut map = StrideMap::new(&mf.model, mf.stride.clone()).unwrap();
    for kind in [
        JacobianKind::None,
        JacobianKind::StrideMap,
        JacobianKind::Monodromy,
    ] {
        let r = map.eval(&[0.2, f64::NAN, 0.4, 0.0], kind);
        assert!(
            matches!(r, Err(HybridError::NonFinite { .. })),
            "{kind:?}: {r:?}"
        );
    }
    // A NaN guess is refused by Newton before any stride.
    let o = find_periodic_orbit(&mf.model, &[f64::NAN, -0.2], &mf.orbit_options());
    assert!(
        matches!(
            o,
            Err(OrbitError::Newton(NewtonError::NonFiniteGuess { index: 0 }))
        ),
        "{o:?}"
    );
}

/// Test models for tangential contact: the state `[x, y, …]` with guard `h = x`.
enum Touch {
    /// `ẋ = y`, `ẏ = −1`: parabolas `x(t) = x₀ + y₀ t − t²/2`.
    Parabola,
    /// `ẋ = y²`, `ẏ = 1`: `x(t) = x₀ + ((y₀ + t)³ − y₀³)/3`, an inflection that crosses `x = 0`
    /// with `ẋ = 0` when `x₀ = y₀³/3`, `y₀ < 0` (at `t = −y₀`).
    Inflection,
}

impl HybridModel for Touch {
    fn name(&self) -> &str {
        "touch"
    }
    fn dim(&self) -> usize {
        2
    }
    fn flow<D: Scalar>(&self, _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
        match self {
            Touch::Parabola => {
                dx[0] = x[1];
                dx[1] = D::from(-1.0);
            }
            Touch::Inflection => {
                dx[0] = x[1] * x[1];
                dx[1] = D::from(1.0);
            }
        }
    }
    fn guards(&self, _mode: usize) -> usize {
        1
    }
    fn guard<D: Scalar>(&self, _mode: usize, _j: usize, x: &[D]) -> D {
        x[0]
    }
    fn guard_info(&self, _mode: usize, _j: usize) -> GuardInfo {
        GuardInfo {
            direction: Direction::Either,
            target: 0,
        }
    }
}

fn touch_opts() -> StrideOptions {
    StrideOptions {
        ode: SolverOptions::with_tol(1e-12),
        t_max: 3.0,
        ..StrideOptions::default()
    }
}

#[test]
fn tangential_contacts() {
    // An inflection through the guard (a crossing with h_x f = 0): located, then reported as
    // grazing. Started close to the contact (|x| ≲ 3e-4) so that rounding leaves
    // |t* − t_c| ~ (3 ε|x|)^{1/3} ~ 1e-6 and the relative transversality (t* − t_c)² ~ 1e-12,
    // well below the 1e-10 threshold (measured 7e-13 and 1e-12).
    let y0: f64 = -0.1;
    let x0 = y0.powi(3) / 3.0;
    for kind in [
        JacobianKind::None,
        JacobianKind::StrideMap,
        JacobianKind::Monodromy,
    ] {
        let mut map = StrideMap::new(&Touch::Inflection, touch_opts()).unwrap();
        let r = map.eval(&[x0, y0], kind);
        match r {
            Err(HybridError::Grazing {
                mode: 0,
                guard: 0,
                t,
                relative,
                ..
            }) => {
                eprintln!(
                    "inflection: grazing at t = {t} (exact 0.1), relative h_x·f = {relative:e}"
                );
                assert!((t - 0.1).abs() < 1e-4);
            }
            other => panic!("{kind:?}: {:?}", other.map(|r| (r.period, r.x))),
        }
    }
    // A parabola whose apex touches h = 0 exactly (x = −(t − 1)²/2) never changes sign: the
    // locator sees no crossing, and a stride that needs the contact does not end.
    let mut map = StrideMap::new(&Touch::Parabola, touch_opts()).unwrap();
    let r = map.eval(&[-0.5, 1.0], JacobianKind::StrideMap);
    assert!(
        matches!(r, Err(HybridError::GuardNotReached { .. })),
        "{:?}",
        r.map(|r| (r.period, r.x))
    );
    // Apex 1e-10 above the guard: two crossings 2.8e-5 apart inside one step, between the
    // locator's sample points. Currently missed (GuardNotReached; METHODS.md: bound the step
    // where it matters); if a better locator finds it, the event must be at the first crossing.
    let r = map.eval(&[-0.5 + 1e-10, 1.0], JacobianKind::StrideMap);
    eprintln!(
        "parabola 1e-10 above: {:?}",
        r.as_ref().map(|r| (r.period, r.x.clone()))
    );
    match r {
        Ok(r) => assert!(
            (r.period - (1.0 - 2e-10f64.sqrt())).abs() < 1e-9,
            "{}",
            r.period
        ),
        Err(e) => assert!(
            matches!(
                e,
                HybridError::GuardNotReached { .. } | HybridError::Grazing { .. }
            ),
            "{e}"
        ),
    }
}
