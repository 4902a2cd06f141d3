//! Bad input gives typed errors, never panics: a walker that falls, a NaN state, a guard met
//! tangentially (grazing).

use super::shipped;
use saltation_hybrid::{
    Bound, EvalModel, GuardSpec, HybridError, HybridModel, JacobianKind, Scalar, StrideMap,
    StrideOptions, MAX_EVENTS_PER_STRIDE,
};
use saltation_ode::{Atol, SolverOptions};
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
    let opts = mf.orbit.clone();
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
    let mut map = StrideMap::new(&mf.model, mf.orbit.stride.clone()).unwrap();
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
    let o = find_periodic_orbit(&mf.model, &[f64::NAN, -0.2], &mf.orbit);
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

/// The ground `x = 0`, the one guard of [`Touch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ground {
    /// `h = x`, either direction, identity reset.
    Contact,
}

impl HybridModel for Touch {
    type Guard = Ground;
    fn name(&self) -> &str {
        "touch"
    }
    fn dim(&self) -> usize {
        2
    }
    fn flow<D: Scalar>(&self, _p: &[D], _mode: usize, _t: f64, x: &[D], dx: &mut [D]) {
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
    fn guards(&self, _mode: usize) -> &[Ground] {
        &[Ground::Contact]
    }
    fn describe(&self, _mode: usize, g: Ground) -> GuardSpec {
        match g {
            Ground::Contact => GuardSpec::to(0),
        }
    }
    fn guard<D: Scalar>(&self, _p: &[D], _mode: usize, g: Ground, x: &[D]) -> D {
        match g {
            Ground::Contact => x[0],
        }
    }
    fn reset<D: Scalar>(&self, _p: &[D], _mode: usize, g: Ground, x: &[D], out: &mut [D]) {
        match g {
            Ground::Contact => out.copy_from_slice(x),
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
    let (inflection, parabola) = (Bound::new(Touch::Inflection), Bound::new(Touch::Parabola));
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
        let mut map = StrideMap::new(&inflection, touch_opts()).unwrap();
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
    let mut map = StrideMap::new(&parabola, touch_opts()).unwrap();
    let r = map.eval(&[-0.5, 1.0], JacobianKind::StrideMap);
    assert!(
        matches!(r, Err(HybridError::GuardNotReached { .. })),
        "{:?}",
        r.map(|r| (r.period, r.x))
    );
    // Apex 1e-10 above the guard: two crossings 2.8e-5 apart inside one step, between the
    // locator's sample points. Currently missed (GuardNotReached; sign-change checks alone miss
    // such pairs: bound the step where it matters); if a better locator finds it, the event must
    // be at the first crossing.
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

/// Stride settings that depend on the model are checked when a stride map is made: a start
/// mode the model does not have, a per-state `atol` of another length, more events per stride
/// than the documented limit. None of them panics or allocates from the number.
#[test]
fn stride_settings_checked_against_the_model() {
    let mf = shipped("simplest_walker");
    let with = |f: &dyn Fn(&mut StrideOptions)| {
        let mut o = mf.orbit.stride.clone();
        f(&mut o);
        StrideMap::new(&mf.model, o).err()
    };
    assert!(matches!(
        with(&|o| o.start_mode = 1),
        Some(HybridError::BadMode { mode: 1, modes: 1 })
    ));
    for len in [2, 5, 20] {
        let e = with(&|o| o.ode.atol = Atol::Vector(vec![1e-12; len]));
        assert!(
            matches!(e, Some(HybridError::DimensionMismatch { expected: 4, got, .. }) if got == len),
            "{len}: {e:?}"
        );
    }
    for k in [0, MAX_EVENTS_PER_STRIDE + 1, 1_000_000_000, usize::MAX] {
        let e = with(&|o| o.events_per_stride = k);
        assert!(
            matches!(
                e,
                Some(HybridError::InvalidOption {
                    field: "events_per_stride",
                    ..
                })
            ),
            "{k}: {e:?}"
        );
    }
}

/// A stride from a mode without guards is refused before integrating (it could only run into
/// `t_max`).
#[test]
fn stride_from_a_mode_without_guards_is_refused() {
    let model = saltation_hybrid::Bound::new(crate::Robertson);
    let e = StrideMap::new(&model, StrideOptions::default()).err();
    assert!(
        matches!(e, Some(HybridError::NoGuards { mode: 0 })),
        "{e:?}"
    );
}

/// A per-state `atol` applies to the state and, row by row, to the variational matrix
/// (`Φ_ik = ∂x_i/∂x₀_k` gets the tolerance of state `i`): with every entry equal it is the
/// scalar tolerance, bit for bit, for the state and the stride Jacobian.
#[test]
fn per_state_atol_matches_the_scalar_one() {
    let mf = shipped("simplest_walker");
    let x0 = [0.2, -0.2, 0.4, -0.2 * (1.0 - 0.4f64.cos())];
    let eval = |atol: Atol| {
        let mut o = mf.orbit.stride.clone();
        o.ode.rtol = 1e-10;
        o.ode.atol = atol;
        let mut map = StrideMap::new(&mf.model, o).unwrap();
        map.eval(&x0, JacobianKind::StrideMap).unwrap()
    };
    let s = eval(Atol::Scalar(1e-10));
    let v = eval(Atol::Vector(vec![1e-10; 4]));
    assert_eq!(s.x, v.x);
    assert_eq!(s.jacobian, v.jacobian);
    // A looser tolerance on one state loosens its row of Φ too: fewer steps, same answer to
    // about the tolerance.
    let l = eval(Atol::Vector(vec![1e-10, 1e-10, 1e-6, 1e-6]));
    assert!(
        l.stats.steps <= s.stats.steps,
        "{} {}",
        l.stats.steps,
        s.stats.steps
    );
    assert!((l.x[0] - s.x[0]).abs() < 1e-5, "{} {}", l.x[0], s.x[0]);
}

/// Physical parameter ranges: `--set`-style changes out of range are errors naming the range,
/// integers are not saturated, and the message never prints hundreds of digits.
#[test]
fn parameter_ranges() {
    use crate::Model;
    use saltation_hybrid::ParamError;
    let walker = Model::with_defaults("SimplestWalker").unwrap();
    let e = walker.with_param("gamma", 1e300).unwrap_err();
    assert!(matches!(e, ParamError::OutOfRange { .. }), "{e}");
    assert!(
        e.to_string().contains("1e300") && e.to_string().len() < 200,
        "{e}"
    );
    let wheel = Model::with_defaults("RimlessWheel").unwrap();
    for bad in [0.0, 2.0, -5.0, 1e20, 1001.0] {
        let e = wheel.with_param("spokes", bad).unwrap_err();
        assert!(matches!(e, ParamError::OutOfRange { .. }), "{bad}: {e}");
    }
    assert!(matches!(
        wheel.with_param("spokes", 6.5),
        Err(ParamError::NotNumeric { .. })
    ));
    assert_eq!(
        wheel.with_param("spokes", 8.0).unwrap().param("spokes"),
        Ok(8.0)
    );
    for (name, bad) in [("lambda2", 0.0), ("lambda2", 1.5), ("alpha", 2.0)] {
        assert!(wheel.with_param(name, bad).is_err(), "{name} = {bad}");
    }
    let ball = Model::with_defaults("BouncingBall").unwrap();
    for (name, bad) in [("g", 0.0), ("g", -9.81), ("e", 1.5), ("e", -0.1)] {
        assert!(ball.with_param(name, bad).is_err(), "{name} = {bad}");
    }
    let vdp = Model::with_defaults("VanDerPol").unwrap();
    assert!(vdp.with_param("epsilon", 0.0).is_err());
    assert!(vdp.with_param("epsilon", 3.0).is_ok());
    // The stiff test problems: rate constants non-negative, scales positive.
    for (model, name, bad, ok) in [
        ("Robertson", "k2", -3e7, 0.0),
        ("RobertsonDae", "k1", -0.04, 1.0),
        ("VanDerPolStiff", "eps", 0.0, 1e-3),
        ("Hires", "k7", -1.0, 0.0),
        ("Hires", "oks", -7e-4, 0.0),
        ("Orego", "s", 0.0, 10.0),
        ("Orego", "q", -1e-6, 0.0),
    ] {
        let m = Model::with_defaults(model).unwrap();
        let e = m.with_param(name, bad).unwrap_err();
        assert!(
            matches!(e, ParamError::OutOfRange { .. }),
            "{model}.{name}: {e}"
        );
        assert!(m.with_param(name, ok).is_ok(), "{model}.{name} = {ok}");
        assert!(
            m.with_param(name, f64::NAN).is_err(),
            "{model}.{name} = NaN"
        );
    }
}

/// The simplest walker on level ground (γ = 0, also −0 and the smallest subnormal): the only
/// fixed point is the standing equilibrium, where the stride map is `u + O(θ³)`. The residual
/// falls below ftol at θ ≈ 3e-5 while the Newton correction there is still a large fraction of
/// θ (the Newton matrix is nearly singular): a typed `NotIsolated` error, never a "gait".
#[test]
fn level_ground_walker_has_no_isolated_gait() {
    use crate::Model;
    use saltation_orbit::Degeneracy;
    let mf = shipped("simplest_walker");
    let opts = mf.orbit.clone();
    for gamma in [0.0, -0.0, 5e-324] {
        let walker = Model::with_defaults("SimplestWalker")
            .unwrap()
            .with_param("gamma", gamma)
            .unwrap();
        let o = find_periodic_orbit(&walker, &[0.2, -0.2], &opts);
        match &o {
            Err(OrbitError::Degenerate {
                reason:
                    Degeneracy::NotIsolated {
                        correction, scale, ..
                    },
                ..
            }) => {
                eprintln!("gamma = {gamma:e}: ‖δ‖ = {correction:e}, ‖u‖ = {scale:e}");
                assert!(*correction > 1e-3 * scale, "{correction:e} {scale:e}");
            }
            other => panic!("gamma = {gamma:e}: expected NotIsolated, got {other:?}"),
        }
        let text = o.unwrap_err().to_string();
        assert!(text.contains("not isolated"), "{text}");
        assert!(text.contains("nearly singular"), "{text}");
    }
}
