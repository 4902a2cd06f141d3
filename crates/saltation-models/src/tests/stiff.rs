//! The shipped files of the stiff test problems hold the published problems: the model with its
//! default (published) constants, the published initial values, an implicit method; and the
//! plain-ODE models (no guards) run through the hybrid layer's `simulate` over a time span.

use super::shipped;
use crate::{reference, Model};
use saltation_hybrid::{simulate, EvalModel, SimulateOptions, StrideOptions};
use saltation_ode::{Method, SolverOptions};

#[test]
fn stiff_files_hold_the_published_problems() {
    for (file, name, y0) in [
        ("robertson", "Robertson", &reference::rober::Y0[..]),
        (
            "van_der_pol_stiff",
            "VanDerPolStiff",
            &reference::vdpol::Y0[..],
        ),
        ("hires", "Hires", &reference::hires::Y0[..]),
        ("orego", "Orego", &reference::orego::Y0[..]),
    ] {
        let mf = shipped(file);
        assert_eq!(Some(mf.model.clone()), Model::with_defaults(name), "{file}");
        assert_eq!(mf.model.guards(0), 0, "{file}");
        let init = mf
            .initial
            .as_ref()
            .unwrap_or_else(|| panic!("{file}: no initial"));
        assert_eq!(
            (init.t, init.x.as_slice(), init.mode),
            (0.0, y0, 0),
            "{file}"
        );
        assert!(mf.orbit.stride.method.is_implicit(), "{file}");
    }
    assert_eq!(
        Model::with_defaults("VanDerPolStiff").unwrap().param("eps"),
        Ok(reference::vdpol::EPS)
    );
}

/// A model without guards simulates over a time span (reaching the end time is success), and
/// the `Model` enum forwards the DAE form's mass matrix. Explicit DOP853 on HIRES to t = 5 is
/// mildly stiff but cheap; compared with a tight-tolerance run.
#[test]
fn guardless_models_simulate_over_a_span() {
    let hires = Model::with_defaults("Hires").unwrap();
    let run = |tol: f64| {
        let opts = SimulateOptions {
            stride: StrideOptions {
                method: Method::Dop853,
                ode: SolverOptions::with_tol(tol),
                ..StrideOptions::default()
            },
            dt: None,
            t_end: Some(5.0),
            ..SimulateOptions::default()
        };
        let trace = simulate(&hires, &reference::hires::Y0, &opts).unwrap();
        assert!(trace.failure.is_none(), "{:?}", trace.failure);
        assert!(trace.events.is_empty());
        assert_eq!(trace.end.0, 5.0);
        trace.end.1
    };
    let (coarse, fine) = (run(1e-8), run(1e-12));
    for (c, f) in coarse.iter().zip(&fine) {
        assert!(
            (c - f).abs() < 1e-6 * (f.abs() + 1e-3),
            "{coarse:?} vs {fine:?}"
        );
    }
    assert!(Model::with_defaults("Robertson")
        .unwrap()
        .mass_matrix(0)
        .is_none());
    let m = Model::with_defaults("RobertsonDae")
        .unwrap()
        .mass_matrix(0)
        .unwrap();
    assert_eq!(m, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
}
