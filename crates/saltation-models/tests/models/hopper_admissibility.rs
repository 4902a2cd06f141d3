//! Admissibility declared as conditions by hand (the unconstrained hopper's ground force
//! `−λ ≥ 0` written out, and its lower block above the ground) against the conditions the
//! constrained layer derives for the same hopper (the contact multiplier of its saddle-point
//! system, and the foot's gap, `saltation-mechanics`), both checked by the one checker on the
//! dense output, and against the physics of the grazing orbit itself.
//!
//! Continued in the ground damping `d_G` from −80, the gait's touchdown force changes sign
//! twice (Zana et al. 2018, §4.3): between the two grazing points the foot would be pulled at
//! touchdown. Both models must put the grazing points at the same `d_G`, and there the
//! touchdown force of the orbit is zero.

use saltation_continuation::{
    continue_branch, BifurcationKind, Branch, ContinuationOptions, ModelFamily, Predictor, Start,
};
use saltation_hybrid::{simulate, Bound, EvalModel, ParamError, SimulateOptions};
use saltation_models::hopper::{
    stride_options, HopperParams, HopperParticles, HopperUnconstrained,
};

fn params(d_g: f64) -> HopperParams {
    HopperParams {
        d_g,
        ..HopperParams::default()
    }
}

fn options() -> ContinuationOptions {
    ContinuationOptions {
        predictor: Predictor::Arclength,
        step: 0.5,
        max_step: 1.0,
        min_step: 1e-9,
        corrector_tol: 1e-10,
        max_points: 150,
        p_min: -200.0,
        p_max: -40.0,
        ..ContinuationOptions::default()
    }
}

fn grazing<F: ModelFamily>(family: &F) -> (Branch, Vec<f64>) {
    let start = Start {
        param: -80.0,
        u: vec![1.02, 1.7],
        label: "gait".into(),
        period_k: 1,
    };
    let orbit = saltation_orbit::OrbitOptions {
        stride: stride_options(1e-11, 5.0),
        ..Default::default()
    };
    let b = continue_branch(family, &start, &orbit, &options()).unwrap();
    let g = b
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Grazing)
        .map(|x| x.param)
        .collect();
    (b, g)
}

#[test]
fn declared_ground_force_grazes_where_the_constrained_layer_does() {
    let unconstrained = |d_g: f64| -> Result<Bound<HopperUnconstrained>, ParamError> {
        HopperUnconstrained::bound(&params(d_g))
    };
    let constrained = |d_g: f64| HopperParticles::bound(&params(d_g), 0.5, 0.5);
    let (branch, declared) = grazing(&unconstrained);
    let (_, sampled) = grazing(&constrained);
    assert!(declared.len() >= 2, "{:?}", branch.bifurcations);
    assert_eq!(declared.len(), sampled.len(), "{declared:?} vs {sampled:?}");
    for (a, b) in declared.iter().zip(&sampled) {
        assert!((a - b).abs() < 1e-6, "{declared:?} vs {sampled:?}");
    }
    // Every point is judged, and the verdict changes only at the grazing points.
    assert!(branch.points.iter().all(|p| p.admissible.is_some()));
    assert_eq!(branch.points[0].admissible, Some(true));
    let changes = branch
        .points
        .windows(2)
        .filter(|w| w[0].admissible != w[1].admissible)
        .count();
    assert_eq!(changes, declared.len());

    // At each grazing point the orbit's touchdown force is zero: λ⁺ = k(z_U − L0) + d_G ż_U⁺
    // − m_L g right after touchdown (z_L = ż_L = 0), from a simulated stride of the located
    // orbit, against the scale m_L g of the force.
    let m_l_g = 0.2 * 75.0 * 9.81;
    for bif in branch
        .bifurcations
        .iter()
        .filter(|x| x.kind == BifurcationKind::Grazing)
    {
        let model = unconstrained(bif.param).unwrap();
        let sim = SimulateOptions {
            stride: stride_options(1e-11, 5.0),
            strides: 1,
            dt: None,
            ..SimulateOptions::default()
        };
        let trace = simulate(&model, &bif.x0, &sim).unwrap();
        let touchdown = &trace.events[0];
        assert_eq!(model.mode_name(touchdown.target), "ground");
        let lambda = HopperUnconstrained.contact_multiplier(model.values(), &touchdown.x_plus);
        assert!(
            lambda.abs() < 1e-5 * m_l_g,
            "λ⁺ = {lambda} at d_G = {}",
            bif.param
        );
    }
}
